// SPDX-License-Identifier: BSD-3-Clause
// _electrostatics and _dream_transform, behind dctx.electrostatics and dctx.idcct2 /
// dctx.idxst_idct / dctx.idct_idxst (dctx/electrostatics.hpp) on 2D float arrays. The Python
// layer (dctx/_electrostatics.py) checks the keywords; the core's refusals come back as
// dctx.DctxError, prefixed with the Python function.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <tuple>
#include <vector>

#include "binding.hpp"
#include "dctx/electrostatics.hpp"
#if DCTX_PY_HAS_CUDA
#include "dctx/cuda.hpp"
#endif

namespace dctx_py {
namespace {

using namespace nb::literals;

template <class T>
dctx::ConstView<T> view_of(const Input& in) {
  return {reinterpret_cast<const T*>(in.data),
          {size_t(in.shape[0]), size_t(in.shape[1])},
          {in.strides[0], in.strides[1]}};
}

// A new C-ordered array of x's shape and dtype, and its view.
template <class T>
std::pair<nb::object, dctx::View<T>> new_like(const Input& in) {
  auto [arr, ptr] = new_array(in.shape.data(), 2, in.elem, false);
  return {arr, dctx::View<T>(reinterpret_cast<T*>(ptr), {size_t(in.shape[0]), size_t(in.shape[1])},
                             {in.shape[1], 1})};
}

nb::object dream_transform(nb::handle x, int t, nb::handle workers, const std::string& fn) {
  const Input in = take_real_2d(x, fn, "x");
  dctx::CpuOptions cpu;
  cpu.threads = parse_workers(workers);
  try {
    if (in.elem == Elem::F32) {
      auto [out, v] = new_like<float>(in);
      nb::gil_scoped_release nogil;
      dctx::dream_transform(dctx::DreamTransform(t), view_of<float>(in), v, cpu);
      return out;
    }
    auto [out, v] = new_like<double>(in);
    nb::gil_scoped_release nogil;
    dctx::dream_transform(dctx::DreamTransform(t), view_of<double>(in), v, cpu);
    return out;
  } catch (const dctx::Error& e) {
    raise_core(e, fn);
  }
}

// Entry `what` of out=: a writable array of the step's dtype and the density's shape.
template <class T>
std::pair<nb::object, dctx::View<T>> out_array(nb::handle h, const Input& in, const char* what,
                                               const std::string& fn) {
  Input o;
  const char* dtype = in.elem == Elem::F32 ? "float32" : "float64";
  if (!take_array(h, o) || o.elem != in.elem)
    raise_type(fn + ": out's " + what + " must be a " + dtype +
               " NumPy array (the dtype the step computes in)");
  if (o.ndim != 2 || o.shape[0] != in.shape[0] || o.shape[1] != in.shape[1]) {
    std::string got = "(";
    for (int i = 0; i < o.ndim; ++i) got += (i ? ", " : "") + std::to_string(o.shape[size_t(i)]);
    raise_value(fn + ": out's " + what + " has shape " + got + ") but density has (" +
                std::to_string(in.shape[0]) + ", " + std::to_string(in.shape[1]) + ")");
  }
  nb::ndarray<> w;  // without nb::ro the caster refuses read-only arrays
  if (!nb::try_cast(h, w, false)) raise_value(fn + ": out's " + what + " is read-only");
  return {nb::borrow(h),
          dctx::View<T>(reinterpret_cast<T*>(const_cast<char*>(o.data)),
                        {size_t(in.shape[0]), size_t(in.shape[1])}, {o.strides[0], o.strides[1]})};
}

// out: None (new arrays) or (potential or None, field_x, field_y), its form checked in Python.
template <class T>
nb::tuple step(const Input& in, double bw, double bh, bool potential, int threads,
               dctx::BackendKind backend, nb::handle out, const std::string& fn) {
  dctx::ElectrostaticsDesc d;
  d.shape = {size_t(in.shape[0]), size_t(in.shape[1])};
  d.bin_width = bw;
  d.bin_height = bh;
  d.precision = precision_of(in.elem);
  d.cpu.threads = threads;
  d.backend = backend;
  const bool given = !out.is_none();
  const auto output = [&](std::size_t k, const char* what) {
    return given ? out_array<T>(out[k], in, what, fn) : new_like<T>(in);
  };
  auto [fx, fxv] = output(1, "field_x");
  auto [fy, fyv] = output(2, "field_y");
  nb::object psi = nb::none();
  double energy = 0;
  try {
    if (potential) {
      auto [p, pv] = output(0, "potential");
      psi = p;
      nb::gil_scoped_release nogil;
      energy = dctx::ElectrostaticSystem(d).solve(view_of<T>(in), pv, fxv, fyv);
    } else {
      nb::gil_scoped_release nogil;
      energy = dctx::ElectrostaticSystem(d).fields(view_of<T>(in), fxv, fyv);
    }
  } catch (const dctx::Error& e) {
    raise_core(e, fn);
  }
  return nb::make_tuple(psi, fx, fy, energy);
}

nb::tuple electrostatics(nb::handle density, double bw, double bh, bool potential,
                         nb::handle workers, nb::handle backend_h, const std::string& fn,
                         nb::handle out) {
  const Input in = take_real_2d(density, fn, "density");
  const int threads = parse_workers(workers);
  const dctx::BackendKind backend = parse_backend_arg(backend_h, fn);
  return in.elem == Elem::F32 ? step<float>(in, bw, bh, potential, threads, backend, out, fn)
                              : step<double>(in, bw, bh, potential, threads, backend, out, fn);
}

#if DCTX_PY_HAS_CUDA
// The step on CUDA arrays (dctx._cuda.electrostatics): device pointers of an m x n grid (element
// strides of the density; the outputs C-ordered; pot 0: the fields only), the energy into one
// device double, enqueued on `stream`.
void electrostatics_cuda(uintptr_t density, std::vector<int64_t> strides, size_t m, size_t n,
                         bool f32, uintptr_t pot, uintptr_t fx, uintptr_t fy, uintptr_t energy,
                         double bw, double bh, uintptr_t stream, const std::string& fn) {
  dctx::ElectrostaticsDesc d;
  d.shape = {m, n};
  d.bin_width = bw;
  d.bin_height = bh;
  d.precision = f32 ? dctx::Precision::F32 : dctx::Precision::F64;
  d.backend = dctx::BackendKind::CUDA;
  const std::vector<std::ptrdiff_t> ds(strides.begin(), strides.end());
  auto* st = reinterpret_cast<CUstream_st*>(stream);
  auto* e = reinterpret_cast<double*>(energy);
  try {
    nb::gil_scoped_release nogil;
    const dctx::ElectrostaticSystem sys(d);
    if (f32)
      dctx::cuda::electrostatics(
          sys, {reinterpret_cast<const float*>(density), ds}, {reinterpret_cast<float*>(pot), {}},
          {reinterpret_cast<float*>(fx), {}}, {reinterpret_cast<float*>(fy), {}}, e, st);
    else
      dctx::cuda::electrostatics(
          sys, {reinterpret_cast<const double*>(density), ds}, {reinterpret_cast<double*>(pot), {}},
          {reinterpret_cast<double*>(fx), {}}, {reinterpret_cast<double*>(fy), {}}, e, st);
  } catch (const dctx::Error& err) {
    raise_core(err, fn);
  }
}
#endif

}  // namespace

void bind_electrostatics(nb::module_& m) {
#if DCTX_PY_HAS_CUDA
  m.def("_electrostatics_cuda", &electrostatics_cuda, "density"_a, "strides"_a, "m"_a, "n"_a,
        "f32"_a, "potential"_a, "field_x"_a, "field_y"_a, "energy"_a, "bin_width"_a, "bin_height"_a,
        "stream"_a, "fn"_a);
#endif
  m.def("_dream_transform", &dream_transform, "x"_a, "t"_a, "workers"_a.none(), "fn"_a);
  m.def("_electrostatics", &electrostatics, "density"_a, "bin_width"_a, "bin_height"_a,
        "potential"_a, "workers"_a.none(), "backend"_a.none(), "fn"_a, "out"_a.none());
}

}  // namespace dctx_py
