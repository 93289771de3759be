// SPDX-License-Identifier: BSD-3-Clause
// _MpiPlan, behind dctx.mpi.Plan (python/dctx/mpi.py): a distributed plan over an mpi4py
// communicator, given here as its Fortran handle (comm.py2f()), so that the extension needs no
// mpi4py headers. The Python layer checks and shapes the arrays; execute() runs with the GIL
// released, since every rank waits in MPI collectives.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <span>
#include <string>
#include <vector>

#include "binding.hpp"
#include "dctx/mpi.hpp"

namespace dctx_py {
namespace {

using namespace nb::literals;

nb::tuple to_tuple(const dctx::Shape& s) {
  nb::list l;
  for (auto e : s) l.append(e);
  return nb::tuple(l);
}

class PyMpiPlan {
 public:
  PyMpiPlan(MPI_Comm comm, const dctx::PlanDesc& d, const dctx::mpi::Options& o) {
    nb::gil_scoped_release nogil;
    plan_ = std::make_unique<dctx::mpi::Plan>(d, comm, o);
  }
  // x: this rank's input block, C-contiguous, the plan's dtype; out: local_capacity() elements.
  template <class T>
  void run(nb::ndarray<const T, nb::c_contig, nb::device::cpu> x,
           nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu> out) const {
    nb::gil_scoped_release nogil;
    plan_->execute(std::span<const T>(x.data(), x.size()), std::span<T>(out.data(), out.size()));
  }
  // The lowest failing rank's message on every rank ("" when every rank passed).
  std::string agree(const std::string& error) const {
    nb::gil_scoped_release nogil;
    try {
      plan_->agree(error);
    } catch (const dctx::Error& e) {
      return e.what();
    }
    return {};
  }
  const dctx::mpi::Plan& plan() const { return *plan_; }

 private:
  std::unique_ptr<dctx::mpi::Plan> plan_;
};

void init_mpi_plan(PyMpiPlan* self, long long comm_f, std::vector<int64_t> shape, int elem,
                   nb::handle axes_h, std::vector<int> kinds, std::vector<int> types,
                   nb::handle norm_h, nb::handle ortho_h, bool inverse, nb::handle workers_h,
                   const std::string& backend, int decomposition, std::vector<int> grid,
                   int in_layout, int out_layout) {
  dctx::PlanDesc d;
  set_shape_and_axes(d, shape, axes_h, "dctx.mpi.Plan");
  if (kinds.size() != 1 && kinds.size() != d.axes.size())
    raise_value("dctx.mpi.Plan: kind has " + std::to_string(kinds.size()) + " entries for " +
                std::to_string(d.axes.size()) + " axes");
  if (types.size() != 1 && types.size() != d.axes.size())
    raise_value("dctx.mpi.Plan: type has " + std::to_string(types.size()) + " entries for " +
                std::to_string(d.axes.size()) + " axes");
  for (std::size_t k = 0; k < d.axes.size(); ++k)
    d.transforms.push_back(
        {dctx::Kind(kinds[kinds.size() == 1 ? 0 : k]), types[types.size() == 1 ? 0 : k]});
  d.precision = precision_of(Elem(elem));
  d.norm = parse_norm(norm_h);
  d.orthogonalize = parse_ortho(ortho_h);
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.cpu.threads = parse_workers(workers_h);
  d.backend = dctx::parse_backend(backend);
  const dctx::mpi::Options o{dctx::mpi::Decomposition(decomposition), grid,
                             dctx::mpi::Layout(in_layout), dctx::mpi::Layout(out_layout)};
  new (self) PyMpiPlan(MPI_Comm_f2c(MPI_Fint(comm_f)), d, o);
}

}  // namespace

void bind_mpi(nb::module_& m) {
  m.attr("has_mpi") = true;
  nb::class_<PyMpiPlan>(m, "_MpiPlan")
      .def("__init__", &init_mpi_plan, "comm_f"_a, "shape"_a, "elem"_a, "axes"_a.none(), "kinds"_a,
           "types"_a, "norm"_a.none(), "orthogonalize"_a.none(), "inverse"_a, "workers"_a.none(),
           "backend"_a, "decomposition"_a, "grid"_a, "in_layout"_a, "out_layout"_a)
      .def("run", &PyMpiPlan::run<float>, "x"_a, "out"_a)
      .def("run", &PyMpiPlan::run<double>, "x"_a, "out"_a)
      .def("agree", &PyMpiPlan::agree, "error"_a)
      .def_prop_ro("in_block",
                   [](const PyMpiPlan& p) {
                     const auto& b = p.plan().in_block();
                     return nb::make_tuple(to_tuple(b.shape), to_tuple(b.offset));
                   })
      .def_prop_ro("out_block",
                   [](const PyMpiPlan& p) {
                     const auto& b = p.plan().out_block();
                     return nb::make_tuple(to_tuple(b.shape), to_tuple(b.offset));
                   })
      .def_prop_ro("local_capacity", [](const PyMpiPlan& p) { return p.plan().local_capacity(); })
      .def_prop_ro("decomposition",
                   [](const PyMpiPlan& p) {
                     return p.plan().decomposition() == dctx::mpi::Decomposition::Slab ? "slab"
                                                                                       : "pencil";
                   })
      .def_prop_ro("process_grid",
                   [](const PyMpiPlan& p) {
                     nb::list l;
                     for (int e : p.plan().process_grid()) l.append(e);
                     return nb::tuple(l);
                   })
      .def("describe", [](const PyMpiPlan& p) { return p.plan().describe(); });
}

}  // namespace dctx_py
