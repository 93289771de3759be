// SPDX-License-Identifier: BSD-3-Clause
// Internal header of the dctx Python extension (_dctx): what the binding's translation units
// share. The Python objects handed over by dctx/__init__.py (PyRefs), the helpers that raise
// Python exceptions, the parsers of Python's own arguments (ints, norm strings, workers), the
// array reader (NumPy/DLPack through nb::ndarray, strides straight into dctx views) and the
// registration function of every part of the module.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dctx/plan.hpp"
#include "dctx/types.hpp"

namespace dctx_py {

namespace nb = nanobind;

// ---------------------------------------------------------------------------------------------
// Python objects the extension needs, handed over once by dctx/__init__.py through _init().
struct PyRefs {
  nb::object asfarray;               // (x) -> float32/float64/complex ndarray, or raises TypeError
  nb::object axis_error;             // numpy's AxisError (a ValueError and an IndexError)
  nb::object dctx_error;             // dctx.DctxError (a ValueError and a RuntimeError)
  nb::object asarray;                // numpy.asarray
  nb::object empty;                  // numpy.empty
  nb::object zeros;                  // numpy.zeros
  nb::object ndarray;                // numpy.ndarray (a view of a buffer at an offset)
  std::array<nb::object, 4> dtypes;  // float32, float64, complex64, complex128 dtype objects
  nb::object int16, uint8;           // dtype objects for the 8x8 block engine
};
extern PyRefs* refs;  // set by _init(); leaked on purpose: lives as long as the interpreter

// ---------------------------------------------------------------------------------------------
// Raising Python exceptions from C++ (nb::python_error carries the set error to Python).
[[noreturn]] void raise(PyObject* type, const std::string& msg);
[[noreturn]] inline void raise_value(const std::string& msg) { raise(PyExc_ValueError, msg); }
[[noreturn]] inline void raise_type(const std::string& msg) { raise(PyExc_TypeError, msg); }
[[noreturn]] inline void raise_dctx(const std::string& msg) { raise(refs->dctx_error.ptr(), msg); }
[[noreturn]] inline void raise_axis(const std::string& msg) { raise(refs->axis_error.ptr(), msg); }
/// A refusal of the core as dctx.DctxError in the Python API's words (core/vocabulary.hpp), its
/// leading C++ function name ("poisson: ...") replaced by the Python function `fn`.
[[noreturn]] void raise_core(const dctx::Error& e, const std::string& fn);

// ---------------------------------------------------------------------------------------------
// Python's own arguments (args.cpp).

/// operator.index(h) as a 64-bit integer; TypeError for floats, strings, ...
long long as_index(nb::handle h, const char* what);
/// scipy's _iterable_of_int: an int or an iterable of ints, else ValueError.
std::vector<long long> as_index_list(nb::handle h, const char* what);
/// A Python integer narrowed to int for the core: values outside int's range become INT_MIN or
/// INT_MAX, which the core refuses as it refuses any other out-of-range value.
int clamp_int(long long v);
/// scipy's norm strings: None, "backward", "ortho", "forward"; ValueError with scipy's message.
dctx::Norm parse_norm(nb::handle h);
/// scipy's _workers(): None -> 1, -1 -> all CPUs, -k -> cpu_count + 1 - k, 0 -> error.
int parse_workers(nb::handle h);
/// `backend=`: None (Auto) or a back end's name ("cpu", "opencl", ...); TypeError for a
/// non-string, dctx::Error (ValueError) for an unknown name. `who` prefixes the message.
dctx::BackendKind parse_backend_arg(nb::handle h, const std::string& who);
// The shape (non-negative extents) and axes (None: all) of a plan description, with scipy's
// exceptions for the axes; `who` names the caller in messages ("dctx.Plan").
void set_shape_and_axes(dctx::PlanDesc& d, const std::vector<int64_t>& shape, nb::handle axes_h,
                        const char* who);
/// orthogonalize: None, or anything with a truth value.
std::optional<bool> parse_ortho(nb::handle h);
bool truthy(nb::handle h);

/// A fixed-capacity vector (NumPy arrays have at most 64 dimensions): no heap on the call path.
/// Its storage is left uninitialised (only the first n elements are ever read).
template <class T>
struct Small {
  std::array<T, 64> v;
  size_t n = 0;
  void push_back(T x) {
    if (n == v.size()) raise_value("too many axes");
    v[n++] = x;
  }
  size_t size() const { return n; }
  bool empty() const { return n == 0; }
  T* begin() { return v.data(); }
  T* end() { return v.data() + n; }
  const T* begin() const { return v.data(); }
  const T* end() const { return v.data() + n; }
  const T* data() const { return v.data(); }
  T& operator[](size_t i) { return v[i]; }
  const T& operator[](size_t i) const { return v[i]; }
};

// ---------------------------------------------------------------------------------------------
// Arrays (arrays.cpp).

/// Element types the kernels take directly.
enum class Elem : int { F32 = 0, F64 = 1, C64 = 2, C128 = 3 };
constexpr bool is_complex(Elem e) { return e == Elem::C64 || e == Elem::C128; }
constexpr dctx::Precision precision_of(Elem e) {
  return (e == Elem::F32 || e == Elem::C64) ? dctx::Precision::F32 : dctx::Precision::F64;
}
constexpr size_t itemsize(Elem e) {
  switch (e) {
    case Elem::F32: return 4;
    case Elem::F64: return 8;
    case Elem::C64: return 8;
    default: return 16;
  }
}

using AnyArray = nb::ndarray<nb::ro>;

/// A borrowed array, in the form the kernels want. shape and strides are left uninitialised:
/// only their first ndim entries are set and read.
struct Input {
  AnyArray arr;    // keeps the DLPack/buffer export alive
  nb::object obj;  // the Python object behind it (x itself or its converted copy)
  bool converted = false;
  Elem elem = Elem::F64;
  int ndim = 0;
  std::array<int64_t, 64> shape;
  std::array<int64_t, 64> strides;  // elements of `elem` (complex: complex elements)
  const char* data = nullptr;
};

/// Takes `x` as it is if it is a host array of an Elem dtype (false otherwise).
bool take_array(nb::handle x, Input& in);
/// `x` as taken by take_array, or converted once by the Python helper _asfarray.
Input get_input(nb::handle x);
/// A 2D float32/float64 host array `what` of the function `fn` (TypeError, ValueError otherwise).
Input take_real_2d(nb::handle x, const std::string& fn, const char* what);
/// May `in` be transformed in its own buffer? Writable, and no zero strides (broadcast rows).
bool writable_in_place(const Input& in);
/// Outputs of at least this many bytes start on a 64-byte boundary (new_array_of).
inline constexpr int64_t kAlignedOutputBytes = 64 * 1024;
/// A new C-ordered NumPy array; returns it and its data pointer. From kAlignedOutputBytes up it
/// is a 64-byte aligned view of a uint8 buffer (its .base), writable, C-contiguous.
std::pair<nb::object, char*> new_array_of(const int64_t* shape, int ndim, nb::handle dtype,
                                          bool zero);
inline std::pair<nb::object, char*> new_array(const int64_t* shape, int ndim, Elem e, bool zero) {
  return new_array_of(shape, ndim, refs->dtypes[int(e)], zero);
}
/// C-order element strides of `shape` into `st`; returns the element count.
int64_t c_strides(const int64_t* shape, int ndim, int64_t* st);
/// Strided copy of the region `shape` from src to dst (byte strides), element size `es` bytes.
void copy_region(const char* src, const int64_t* sst, char* dst, const int64_t* dst_st,
                 const int64_t* shape, int ndim, size_t es);
/// Runs `plan` with the GIL released on arrays of the plan's shape (callers check it); strides
/// count whole (complex) elements, whose real and imaginary parts are transformed in turn.
void execute(const dctx::Plan& plan, Elem e, const char* in, const int64_t* in_st, char* out,
             const int64_t* out_st);

// ---------------------------------------------------------------------------------------------
// The parts of the module, each registered by module.cpp's NB_MODULE.
void bind_r2r(nb::module_& m);       // r2r.cpp: _r2r, behind dct/idct/.../idstn
void bind_plan(nb::module_& m);      // plan.cpp: _Plan, behind dctx.Plan
void bind_backends(nb::module_& m);  // backends.cpp: _backends, behind dctx.backends()
void bind_block8(nb::module_& m);    // block8.cpp, or no_block8.cpp when DCTX_BLOCK8 is OFF
void bind_cli(nb::module_& m);       // cli.cpp: _cli_main, behind the `dctx` command
void bind_poisson(nb::module_& m);   // poisson.cpp: _PoissonSolver, behind dctx.poisson
void bind_restore(nb::module_& m);   // restore.cpp: _restore, behind dctx.blur and dctx.deblur
void bind_mpi(nb::module_& m);       // mpi.cpp: _MpiPlan, behind dctx.mpi (DCTX_PY_HAS_MPI)
void bind_electrostatics(nb::module_& m);  // electrostatics.cpp: dctx.electrostatics, ...

}  // namespace dctx_py
