// SPDX-License-Identifier: BSD-3-Clause
// Complex arithmetic on "lane" values, the vocabulary of every CPU kernel: T is a scalar
// (float/double) or a compiler vector holding the same element of several independent lines
// (pocketfft/DUCC "vectorise across transforms"). Compiled per SIMD target by cpu_backend.cc
// (Highway foreach_target), hence the toggle include guard instead of #pragma once.

#if defined(DCTX_CPU_COMPLEX_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_COMPLEX_INL_H_
#undef DCTX_CPU_COMPLEX_INL_H_
#else
#define DCTX_CPU_COMPLEX_INL_H_
#endif

#include <complex>
#include <cstddef>
#include <vector>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// N values of T in one GCC/Clang vector; `unaligned`, the same vector at any element boundary,
/// for whole-vector loads and stores (a memcpy into a vector array became half-width copies
/// through the stack on AVX2, which the full-width loads after them could not forward from).
template <class T, std::size_t N>
struct VectorOf {
  typedef T type __attribute__((vector_size(N * sizeof(T))));
  typedef T unaligned __attribute__((vector_size(N * sizeof(T)), aligned(alignof(T)), may_alias));
};

/// Lane vector of this target: HWY_LANES(T0) elements of T0 in one GCC/Clang vector.
template <class T0>
struct LaneVec {
  static constexpr std::size_t kLanes = HWY_LANES(T0) >= 2 ? HWY_LANES(T0) : 2;
  using type = typename VectorOf<T0, kLanes>::type;
  using unaligned = typename VectorOf<T0, kLanes>::unaligned;
};

/// A complex number of lanes.
template <class T>
struct Cx {
  T r, i;
};

template <class T>
inline Cx<T> operator+(const Cx<T>& a, const Cx<T>& b) {
  return {a.r + b.r, a.i + b.i};
}
template <class T>
inline Cx<T> operator-(const Cx<T>& a, const Cx<T>& b) {
  return {a.r - b.r, a.i - b.i};
}
/// a * w (kConj: a * conj(w)) with a scalar complex twiddle w.
template <bool kConj, class T, class T0>
inline Cx<T> MulW(const Cx<T>& a, const Cx<T0>& w) {
  if constexpr (kConj) {
    return {a.r * w.r + a.i * w.i, a.i * w.r - a.r * w.i};
  } else {
    return {a.r * w.r - a.i * w.i, a.r * w.i + a.i * w.r};
  }
}
/// -i*a (kNegI: the rotation of the forward DFT, exp(-2 pi i / 4)) or i*a (the backward DFT).
template <bool kNegI, class T>
inline Cx<T> RotI(const Cx<T>& a) {
  if constexpr (kNegI) {
    return {a.i, -a.r};
  } else {
    return {-a.i, a.r};
  }
}

template <class T0, class T>
inline Cx<T0> ToCx(std::complex<T> z) {
  return {static_cast<T0>(z.real()), static_cast<T0>(z.imag())};
}

/// A core table (double, or already in T0) in precision T0.
template <class T0, class T>
std::vector<Cx<T0>> ToCxTable(const std::vector<std::complex<T>>& t) {
  std::vector<Cx<T0>> r(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) r[i] = ToCx<T0>(t[i]);
  return r;
}

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
