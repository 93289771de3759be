// SPDX-License-Identifier: BSD-3-Clause
// dctx Python extension (_dctx): scipy.fft-compatible DCT/DST entry points (r2r.cpp), reusable
// plans (plan.cpp), the back-end registry (backends.cpp), when the library has it, the 8x8
// block engine (block8.cpp; no_block8.cpp otherwise) and, when the CLI is built, the `dctx`
// command (cli.cpp).
//
// The pure-Python layer (python/dctx/*.py) owns the public signatures and docstrings and hands
// the extension the Python objects it needs through _init(). Inputs that are not
// float32/float64/complex64/complex128 arrays of native byte order go through the Python helper
// _asfarray once and come back here.
#include <nanobind/nanobind.h>

#include <exception>

#include "binding.hpp"
#include "dctx/types.hpp"
#include "dctx/version.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

void init(nb::object asfarray, nb::object axis_error, nb::object dctx_error, nb::object np) {
  using dctx_py::refs;
  auto* r = new dctx_py::PyRefs();
  r->asfarray = std::move(asfarray);
  r->axis_error = std::move(axis_error);
  r->dctx_error = std::move(dctx_error);
  r->asarray = np.attr("asarray");
  r->empty = np.attr("empty");
  r->zeros = np.attr("zeros");
  r->ndarray = np.attr("ndarray");
  const char* names[] = {"float32", "float64", "complex64", "complex128"};
  for (int i = 0; i < 4; ++i) r->dtypes[size_t(i)] = np.attr("dtype")(names[i]);
  r->int16 = np.attr("dtype")("int16");
  r->uint8 = np.attr("dtype")("uint8");
  refs = r;
  // What the core refuses: numpy's AxisError for an axis out of range (the entry points give it
  // scipy's wording first), dctx.DctxError (a ValueError and a RuntimeError) for the rest.
  nb::register_exception_translator(
      [](const std::exception_ptr& p, void*) {
        try {
          std::rethrow_exception(p);
        } catch (const dctx::Error& e) {
          PyObject* type = e.kind() == dctx::ErrorKind::AxisOutOfRange ? refs->axis_error.ptr()
                                                                       : refs->dctx_error.ptr();
          PyErr_SetString(type, e.what());
        }
      },
      nullptr);
}

}  // namespace

NB_MODULE(_dctx, m) {
  m.doc() = "Compiled core of the dctx Python package (use the dctx package, not this module).";
  m.attr("__version__") = dctx::kVersion;
  m.attr("has_block8") = false;  // bind_block8 sets it when the engine is compiled in
  m.attr("has_cli") = false;     // bind_cli sets it when the CLI is linked in
  m.def("_init", &init, "asfarray"_a, "axis_error"_a, "dctx_error"_a, "numpy"_a);
  dctx_py::bind_r2r(m);
  dctx_py::bind_plan(m);
  dctx_py::bind_backends(m);
  dctx_py::bind_block8(m);
  dctx_py::bind_cli(m);
  dctx_py::bind_poisson(m);
  dctx_py::bind_restore(m);
  dctx_py::bind_electrostatics(m);
  m.attr("has_mpi") = false;  // bind_mpi sets it when the distributed plans are linked in
#if DCTX_PY_HAS_MPI
  dctx_py::bind_mpi(m);
#endif
}
