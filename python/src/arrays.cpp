// SPDX-License-Identifier: BSD-3-Clause
// Arrays in and out: NumPy/DLPack inputs read through nb::ndarray (element strides passed
// straight into dctx views, so C, Fortran, negative and non-unit strides cost no copy), new
// NumPy outputs, the zero-padding copy, and plan execution with the GIL released.
#include <complex>
#include <cstdint>
#include <cstring>

#include "binding.hpp"
#include "core/overlap.hpp"

namespace dctx_py {
namespace {

std::optional<Elem> elem_of(const AnyArray& a) {
  auto d = a.dtype();
  if (d == nb::dtype<float>()) return Elem::F32;
  if (d == nb::dtype<double>()) return Elem::F64;
  if (d == nb::dtype<std::complex<float>>()) return Elem::C64;
  if (d == nb::dtype<std::complex<double>>()) return Elem::C128;
  return std::nullopt;
}

template <class T>
void run_plan(const dctx::Plan& plan, const T* in, const int64_t* in_st, T* out,
              const int64_t* out_st, bool cplx) {
  const int64_t m = cplx ? 2 : 1;
  const int ndim = int(plan.desc().shape.size());  // <= 64, as every array taken here
  std::ptrdiff_t si[64], so[64];                   // no allocation on the call path
  for (int i = 0; i < ndim; ++i) {
    si[i] = static_cast<std::ptrdiff_t>(in_st[i] * m);
    so[i] = static_cast<std::ptrdiff_t>(out_st[i] * m);
  }
  nb::gil_scoped_release nogil;
  plan.execute(in, si, out, so);
  if (cplx) plan.execute(in + 1, si, out + 1, so);
}

}  // namespace

bool take_array(nb::handle x, Input& in) {
  // Only arrays that live in host memory, with a dtype the kernels read, are taken as they are.
  if (!nb::try_cast(x, in.arr, false)) return false;
  if (in.arr.device_type() != nb::device::cpu::value) return false;
  auto e = elem_of(in.arr);
  if (!e) return false;
  in.elem = *e;
  in.ndim = int(in.arr.ndim());
  if (in.ndim > 64) return false;
  const int64_t* st = in.arr.stride_ptr();
  int64_t c = 1;
  for (int i = in.ndim; i-- > 0;) {
    in.shape[i] = int64_t(in.arr.shape(i));
    in.strides[i] = st ? st[i] : c;
    c *= in.shape[i];
  }
  in.data = static_cast<const char*>(in.arr.data());
  return true;
}

Input get_input(nb::handle x) {
  Input in;
  if (take_array(x, in)) {
    in.obj = nb::borrow(x);
    return in;
  }
  // (array, copied), or TypeError/ValueError for what dctx refuses.
  nb::tuple r = nb::cast<nb::tuple>(refs->asfarray(x));
  nb::object y = r[0];
  if (!take_array(y, in))
    raise_type("dctx cannot read an array of type " + std::string(nb::type_name(y.type()).c_str()));
  in.converted = nb::cast<bool>(r[1]);
  in.obj = std::move(y);
  return in;
}

bool writable_in_place(const Input& in) {
  // A view whose elements share memory (a zero stride, as_strided windows) cannot hold its own
  // result: scipy computes into a new array then, and so does dctx.
  std::array<std::size_t, 64> shape;
  std::array<std::ptrdiff_t, 64> strides;
  for (int i = 0; i < in.ndim; ++i) {
    shape[size_t(i)] = static_cast<std::size_t>(in.shape[size_t(i)]);
    strides[size_t(i)] = static_cast<std::ptrdiff_t>(in.strides[size_t(i)]);
  }
  if (!dctx::detail::non_self_overlapping(std::size_t(in.ndim), shape.data(), strides.data()))
    return false;
  nb::ndarray<> w;  // without nb::ro the caster refuses read-only arrays
  return nb::try_cast(in.obj, w, false) && w.is_valid();
}

std::pair<nb::object, char*> new_array_of(const int64_t* shape, int ndim, nb::handle dtype,
                                          bool zero) {
  nb::object tup = nb::steal(PyTuple_New(ndim));
  int64_t count = 1;
  for (int i = 0; i < ndim; ++i) {
    PyTuple_SET_ITEM(tup.ptr(), i, PyLong_FromLongLong(shape[i]));
    count *= shape[i];
  }
  // Elements are at most 16 bytes: a small array skips the dtype's itemsize lookup altogether.
  const int64_t bytes =
      count * 16 < kAlignedOutputBytes ? 0 : count * nb::cast<int64_t>(dtype.attr("itemsize"));
  nb::object a;
  if (bytes >= kAlignedOutputBytes) {
    // NumPy's buffers start 16 bytes past a 64-byte boundary, and rows that split every vector
    // store across two cache lines cost the transforms 4-11 % (docs/benchmarks.md): a large
    // output is a 64-byte aligned view of a byte buffer 64 bytes longer (its .base).
    nb::object buf = (zero ? refs->zeros : refs->empty)(bytes + 64, refs->uint8);
    AnyArray b;
    if (!nb::try_cast(buf, b, false)) raise_type("dctx: could not allocate the output array");
    const auto addr = reinterpret_cast<std::uintptr_t>(b.data());
    a = refs->ndarray(tup, dtype, buf, (64 - addr % 64) % 64);
  } else {
    a = (zero ? refs->zeros : refs->empty)(tup, dtype);
  }
  AnyArray v;
  if (!nb::try_cast(a, v, false)) raise_type("dctx: could not allocate the output array");
  return {std::move(a), static_cast<char*>(const_cast<void*>(v.data()))};
}

int64_t c_strides(const int64_t* shape, int ndim, int64_t* st) {
  int64_t c = 1;
  for (int i = ndim; i-- > 0;) {
    st[i] = c;
    c *= shape[i];
  }
  return c;
}

void copy_region(const char* src, const int64_t* sst, char* dst, const int64_t* dst_st,
                 const int64_t* shape, int ndim, size_t es) {
  if (ndim == 0) {
    std::memcpy(dst, src, es);
    return;
  }
  if (ndim == 1) {
    if (sst[0] == int64_t(es) && dst_st[0] == int64_t(es)) {
      std::memcpy(dst, src, es * size_t(shape[0]));
      return;
    }
    for (int64_t i = 0; i < shape[0]; ++i) std::memcpy(dst + i * dst_st[0], src + i * sst[0], es);
    return;
  }
  for (int64_t i = 0; i < shape[0]; ++i)
    copy_region(src + i * sst[0], sst + 1, dst + i * dst_st[0], dst_st + 1, shape + 1, ndim - 1,
                es);
}

void execute(const dctx::Plan& plan, Elem e, const char* in, const int64_t* in_st, char* out,
             const int64_t* out_st) {
  if (precision_of(e) == dctx::Precision::F32)
    run_plan(plan, reinterpret_cast<const float*>(in), in_st, reinterpret_cast<float*>(out), out_st,
             is_complex(e));
  else
    run_plan(plan, reinterpret_cast<const double*>(in), in_st, reinterpret_cast<double*>(out),
             out_st, is_complex(e));
}

Input take_real_2d(nb::handle x, const std::string& fn, const char* what) {
  Input in;
  if (!take_array(x, in) || is_complex(in.elem))
    raise_type(fn + ": " + what + " must be a float32 or float64 array");
  if (in.ndim != 2)
    raise_value(fn + ": " + what + " must be 2D, not " + std::to_string(in.ndim) + "D");
  return in;
}

}  // namespace dctx_py
