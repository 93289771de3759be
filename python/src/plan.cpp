// SPDX-License-Identifier: BSD-3-Clause
// _Plan, behind dctx.Plan: one transform over a fixed shape and dtype, callable many times (and
// from many threads at once: the core plan is immutable and execute() is const). The description
// is the core's to check: axes through dctx::resolve_axes (with scipy's exceptions), the back end
// through dctx::parse_backend, everything else when dctx::Plan is built.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <vector>

#include "binding.hpp"

#if DCTX_PY_HAS_CUDA
#include "dctx/cuda.hpp"
#endif

namespace dctx_py {
namespace {

using namespace nb::literals;

class PyPlan {
 public:
  PyPlan(std::vector<int64_t> shape, Elem elem, const dctx::PlanDesc& d)
      : shape_(std::move(shape)), cstrides_(shape_.size()), elem_(elem) {
    c_strides(shape_.data(), int(shape_.size()), cstrides_.data());
    nb::gil_scoped_release nogil;
    plan_ = std::make_shared<const dctx::Plan>(d);
  }

  nb::object call(nb::handle x, nb::handle out_h) const {
    Input in;
    if (!take_array(x, in)) refuse(x, "x");
    in.obj = nb::borrow(x);
    check(in, "x");
    if (out_h.is_none()) {
      auto [out, ptr] = new_array(shape_.data(), int(shape_.size()), elem_, false);
      execute(*plan_, elem_, in.data, in.strides.data(), ptr, cstrides_.data());
      return out;
    }
    Input o;
    if (!take_array(out_h, o)) refuse(out_h, "out");
    check(o, "out");
    nb::ndarray<> w;  // without nb::ro the caster refuses read-only arrays
    if (!nb::try_cast(out_h, w, false)) raise_value("dctx.Plan: out is read-only");
    execute(*plan_, elem_, in.data, in.strides.data(), const_cast<char*>(o.data), o.strides.data());
    return nb::borrow(out_h);
  }

#if DCTX_PY_HAS_CUDA
  // The plan on CUDA device memory (dctx._cuda): pointers and element strides of arrays of the
  // plan's shape and dtype, enqueued on `stream` (a cudaStream_t as an integer; 0 the default).
  void call_cuda(uintptr_t in, std::vector<int64_t> in_strides, uintptr_t out,
                 std::vector<int64_t> out_strides, uintptr_t stream) const {
    if (elem_ != Elem(0) && elem_ != Elem(1))
      raise_type("dctx: CUDA arrays must be float32 or float64, not " + dtype_name());
    const std::vector<std::ptrdiff_t> is(in_strides.begin(), in_strides.end()),
        os(out_strides.begin(), out_strides.end());
    auto* st = reinterpret_cast<CUstream_st*>(stream);
    nb::gil_scoped_release nogil;
    if (elem_ == Elem(0))
      dctx::cuda::execute(*plan_, {reinterpret_cast<const float*>(in), is},
                          {reinterpret_cast<float*>(out), os}, st);
    else
      dctx::cuda::execute(*plan_, {reinterpret_cast<const double*>(in), is},
                          {reinterpret_cast<double*>(out), os}, st);
  }
#endif

  nb::tuple shape() const {
    nb::list l;
    for (auto s : shape_) l.append(s);
    return nb::tuple(l);
  }
  nb::object dtype() const { return refs->dtypes[int(elem_)]; }
  std::string describe() const { return plan_->describe(); }
  std::string backend() const { return std::string(dctx::to_string(plan_->backend())); }
  nb::tuple axes() const {
    nb::list l;
    for (auto a : plan_->desc().axes) l.append(a);
    return nb::tuple(l);
  }

 private:
  std::string dtype_name() const {
    static const char* names[] = {"float32", "float64", "complex64", "complex128"};
    return names[int(elem_)];
  }
  static std::string shape_str(const int64_t* s, size_t n) {
    std::string r = "(";
    for (size_t i = 0; i < n; ++i) r += (i ? ", " : "") + std::to_string(s[i]);
    return r + (n == 1 ? ",)" : ")");
  }
  // The plan's own description in messages: "float32", "(4, 4)".
  std::string made_for() const { return shape_str(shape_.data(), shape_.size()); }

  // `a` (x or out) is an array the kernels read: it must have the plan's dtype and shape.
  void check(const Input& a, const char* what) const {
    static const char* names[] = {"float32", "float64", "complex64", "complex128"};
    if (a.elem != elem_)
      raise_type(std::string("dctx.Plan: ") + what + " has dtype " + names[int(a.elem)] +
                 " but the plan was made for " + dtype_name());
    bool same = a.ndim == int(shape_.size());
    for (int i = 0; same && i < a.ndim; ++i) same = a.shape[size_t(i)] == shape_[size_t(i)];
    if (!same)
      raise_value(std::string("dctx.Plan: ") + what + " has shape " +
                  shape_str(a.shape.data(), size_t(a.ndim)) + " but the plan was made for " +
                  made_for());
  }

  // `h` (x or out) is not a host array of a dtype the kernels read: say why.
  [[noreturn]] void refuse(nb::handle h, const char* what) const {
    // An array in device memory: the package's one message for it (device, back ends built).
    if (!h.is_none()) nb::module_::import_("dctx._convert").attr("_refuse_device_array")(h);
    // An array of another dtype (or byte order): both dtypes.
    if (!h.is_none() && nb::hasattr(h, "dtype") && nb::hasattr(h, "shape")) {
      const nb::object dtype = h.attr("dtype");
      const std::string dt = nb::str(nb::handle(dtype)).c_str();  // str(x.dtype)
      if (dt != dtype_name())
        raise_type(std::string("dctx.Plan: ") + what + " has dtype " + dt +
                   " but the plan was made for " + dtype_name());
    }
    raise_type(std::string("dctx.Plan: ") + what + " must be an array of dtype " + dtype_name() +
               " and shape " + made_for() + ", not " +
               (h.is_none() ? std::string("None") : std::string(nb::type_name(h.type()).c_str())));
  }

  std::vector<int64_t> shape_;
  std::vector<int64_t> cstrides_;  // C-order element strides of shape_ (new outputs)
  Elem elem_;
  std::shared_ptr<const dctx::Plan> plan_;
};

// dctx.Plan(shape, dtype, axes, type, norm, kind, inverse, orthogonalize, workers, backend,
// threshold, planning), the Python layer having turned shape, axes and type into integers, dtype
// and kind into codes, and checked the threshold.
void init_plan(PyPlan* self, std::vector<int64_t> shape, int elem, nb::handle axes_h, int kind,
               nb::handle type_h, nb::handle norm_h, nb::handle ortho_h, bool inverse,
               nb::handle workers_h, nb::handle backend_h, double threshold, int planning) {
  // The element code selects how buffers are read: checked here too, whoever calls.
  if (elem < 0 || elem > 3) raise_type("dctx.Plan: unsupported dtype");
  dctx::PlanDesc d;
  set_shape_and_axes(d, shape, axes_h, "dctx.Plan");
  d.kind = dctx::Kind(kind);
  d.type = clamp_int(as_index(type_h, "type"));
  d.precision = precision_of(Elem(elem));
  d.norm = parse_norm(norm_h);
  d.orthogonalize = parse_ortho(ortho_h);
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.cpu.threads = parse_workers(workers_h);
  d.backend = parse_backend_arg(backend_h, "dctx.Plan");
  d.coefficient_threshold = threshold;
  if (planning != 0 && planning != 1) raise_value("dctx.Plan: invalid planning code");
  d.cpu.planning = dctx::Planning(planning);
  new (self) PyPlan(std::move(shape), Elem(elem), d);
}

}  // namespace

void bind_plan(nb::module_& m) {
  nb::class_<PyPlan>(m, "_Plan")
      .def("__init__", &init_plan, "shape"_a, "elem"_a, "axes"_a.none(), "kind"_a, "type"_a.none(),
           "norm"_a.none(), "orthogonalize"_a.none(), "inverse"_a, "workers"_a.none(),
           "backend"_a.none(), "threshold"_a = 0.0, "planning"_a = 0)
      .def("__call__", &PyPlan::call, "x"_a.none(), "out"_a.none() = nb::none())
      .def_prop_ro("shape", &PyPlan::shape)
      .def_prop_ro("dtype", &PyPlan::dtype)
      .def_prop_ro("axes", &PyPlan::axes)
      .def_prop_ro("backend", &PyPlan::backend)
#if DCTX_PY_HAS_CUDA
      .def("_call_cuda", &PyPlan::call_cuda, "x"_a, "x_strides"_a, "out"_a, "out_strides"_a,
           "stream"_a)
#endif
      .def("describe", &PyPlan::describe);
  // The wisdom of measured plans (dctx.save_wisdom and friends in _plan.py).
  m.def(
      "_save_wisdom", [](const std::string& path) { dctx::save_wisdom(path); }, "path"_a);
  m.def(
      "_load_wisdom", [](const std::string& path) { dctx::load_wisdom(path); }, "path"_a);
  m.def("_forget_wisdom", [] { dctx::forget_wisdom(); });
  m.def("_wisdom_size", [] { return dctx::wisdom_size(); });
}

}  // namespace dctx_py
