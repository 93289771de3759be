// SPDX-License-Identifier: BSD-3-Clause
// _PoissonSolver, behind dctx.PoissonSolver and dctx.poisson: one dctx::PoissonSolver over a
// fixed shape and dtype. The Python layer (dctx/_poisson.py) turns the keywords into codes and
// numbers and names them in its own errors; the core's refusals come back as dctx.DctxError in
// the Python words (core/vocabulary.hpp), prefixed with the Python function.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <vector>

#include "binding.hpp"
#include "dctx/poisson.hpp"

namespace dctx_py {
namespace {

using namespace nb::literals;

class PySolver {
 public:
  PySolver(const dctx::PoissonDesc& d, Elem elem, const std::string& fn) : elem_(elem) {
    try {
      nb::gil_scoped_release nogil;
      solver_ = std::make_shared<const dctx::PoissonSolver>(d);
    } catch (const dctx::Error& e) {
      raise_core(e, fn);
    }
    for (auto s : d.shape) shape_.push_back(int64_t(s));
  }

  // u for f (a new C-ordered array, or `out`); `fn` names the Python function in messages.
  nb::object solve(nb::handle f, nb::handle out_h, const std::string& fn) const {
    Input in;
    if (!take_array(f, in) || in.elem != elem_) {
      const std::string want = elem_ == Elem::F32 ? "float32" : "float64";
      raise_type(fn + ": f must be a " + want + " array for this solver");
    }
    check_shape(in, "f", fn);
    nb::object result;
    char* out = nullptr;
    std::array<int64_t, 64> ost{};
    if (out_h.is_none()) {
      auto [arr, ptr] = new_array(shape_.data(), int(shape_.size()), elem_, false);
      result = arr;
      out = ptr;
      c_strides(shape_.data(), int(shape_.size()), ost.data());
    } else {
      Input o;
      if (!take_array(out_h, o) || o.elem != elem_)
        raise_type(fn + ": out must be an array of f's dtype");
      check_shape(o, "out", fn);
      nb::ndarray<> w;  // without nb::ro the caster refuses read-only arrays
      if (!nb::try_cast(out_h, w, false)) raise_value(fn + ": out is read-only");
      out = const_cast<char*>(o.data);
      ost = o.strides;
      result = nb::borrow(out_h);
    }
    const dctx::Shape shape(shape_.begin(), shape_.end());
    dctx::Strides is(in.strides.begin(), in.strides.begin() + in.ndim),
        os(ost.begin(), ost.begin() + in.ndim);
    try {
      nb::gil_scoped_release nogil;
      if (elem_ == Elem::F32)
        solver_->solve(dctx::ConstView<float>(reinterpret_cast<const float*>(in.data), shape, is),
                       dctx::View<float>(reinterpret_cast<float*>(out), shape, os));
      else
        solver_->solve(dctx::ConstView<double>(reinterpret_cast<const double*>(in.data), shape, is),
                       dctx::View<double>(reinterpret_cast<double*>(out), shape, os));
    } catch (const dctx::Error& e) {
      raise_core(e, fn);
    }
    return result;
  }

  std::string describe() const { return solver_->describe(); }

 private:
  void check_shape(const Input& a, const char* what, const std::string& fn) const {
    bool same = a.ndim == int(shape_.size());
    for (int i = 0; same && i < a.ndim; ++i) same = a.shape[size_t(i)] == shape_[size_t(i)];
    if (!same) {
      std::string got = "(", want = "(";
      for (int i = 0; i < a.ndim; ++i) got += (i ? ", " : "") + std::to_string(a.shape[size_t(i)]);
      for (size_t i = 0; i < shape_.size(); ++i)
        want += (i ? ", " : "") + std::to_string(shape_[i]);
      raise_value(fn + ": " + what + " has shape " + got + ") but the solver was made for " + want +
                  ")");
    }
  }

  Elem elem_;
  std::vector<int64_t> shape_;
  std::shared_ptr<const dctx::PoissonSolver> solver_;
};

// The Python layer has checked the types; the values are the core's to check.
void init_solver(PySolver* self, std::vector<int64_t> shape, int elem, std::vector<int> lower,
                 std::vector<int> upper, std::vector<double> spacing, int grid, double screening,
                 int mean, nb::handle workers, nb::handle backend, const std::string& fn) {
  if (elem != 0 && elem != 1) raise_type(fn + ": dtype must be float32 or float64");
  dctx::PoissonDesc d;
  for (auto s : shape) {
    if (s < 0) raise_value(fn + ": shape has a negative extent");
    d.shape.push_back(size_t(s));
  }
  for (size_t i = 0; i < lower.size() && i < upper.size() && i < spacing.size(); ++i)
    d.axes.push_back({dctx::Boundary(lower[i]), dctx::Boundary(upper[i]), spacing[i]});
  d.grid = dctx::Grid(grid);
  d.screening = screening;
  d.neumann_mean = dctx::NeumannMean(mean);
  d.precision = elem == 0 ? dctx::Precision::F32 : dctx::Precision::F64;
  d.cpu.threads = parse_workers(workers);
  d.backend = parse_backend_arg(backend, fn);
  new (self) PySolver(d, Elem(elem), fn);
}

}  // namespace

void bind_poisson(nb::module_& m) {
  nb::class_<PySolver>(m, "_PoissonSolver")
      .def("__init__", &init_solver, "shape"_a, "elem"_a, "lower"_a, "upper"_a, "spacing"_a,
           "grid"_a, "screening"_a, "mean"_a, "workers"_a.none(), "backend"_a.none(), "fn"_a)
      .def("solve", &PySolver::solve, "f"_a, "out"_a.none(), "fn"_a)
      .def("describe", &PySolver::describe);
}

}  // namespace dctx_py
