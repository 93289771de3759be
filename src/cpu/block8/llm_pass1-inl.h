// SPDX-License-Identifier: BSD-3-Clause
// The int16 block kernels' split layout and first passes, per SIMD target. int16 tiles: a row of
// 8, 16 or 32 int16 (1, 2 or 4 blocks) widens, by interleaving with zero, into two int32 vectors:
// h[row][0] holds columns 0-3 of every block, h[row][1] columns 4-7, each 128-bit part belonging
// to one block. There an 8x8 transpose is four 4x4 transposes inside 128-bit parts plus a
// renaming, and narrowing back (packs) restores the order.

#if defined(DCTX_CPU_BLOCK8_LLM_PASS1_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_BLOCK8_LLM_PASS1_INL_H_
#undef DCTX_CPU_BLOCK8_LLM_PASS1_INL_H_
#else
#define DCTX_CPU_BLOCK8_LLM_PASS1_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "cpu/block8/stores-inl.h"
#include "cpu/block8/tile-inl.h"
#include "cpu/block8/transpose-inl.h"
#include "cpu/block8/x86-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if DCTX_BLOCK8_HAVE_SIMD

template <class D16>
using D32Of = hn::Repartition<std::int32_t, D16>;
template <class D16>
using SplitTile = hn::Vec<D32Of<D16>>[8][2];
template <class D16>
inline constexpr std::size_t kSplitCols = hn::MaxLanes(D16());

// Load 8 rows, clamp to [lo, hi] (the kernel's input domain) and widen into the split layout:
// interleaving with zero puts each int16 in the upper half of an int32, >> 16 sign-extends it.
template <class D16>
HWY_INLINE void LoadSplit(D16 d16, const std::int16_t* p, std::ptrdiff_t stride, SplitTile<D16>& h,
                          std::int16_t lo, std::int16_t hi) {
  const D32Of<D16> d32;
  const auto zero = hn::Zero(d16);
  for (std::size_t i = 0; i < 8; ++i) {
    auto v = hn::LoadU(d16, p + std::ptrdiff_t(i) * stride);
    v = hn::Min(hn::Max(v, hn::Set(d16, lo)), hn::Set(d16, hi));
    h[i][0] = hn::ShiftRight<16>(hn::BitCast(d32, hn::InterleaveLower(d16, zero, v)));
    h[i][1] = hn::ShiftRight<16>(hn::BitCast(d32, hn::InterleaveUpper(d16, zero, v)));
  }
}
// Narrow with saturation (packs: 128-bit part by part, which undoes the split), clamp to
// [lo, hi], store.
template <int kStream, class D16>
HWY_INLINE void StoreSplit(D16 d16, const SplitTile<D16>& h, std::int16_t* p, std::ptrdiff_t stride,
                           std::int16_t lo, std::int16_t hi, StreamCarry& sc) {
  for (std::size_t i = 0; i < 8; ++i) {
    auto v = hn::ReorderDemote2To(d16, h[i][0], h[i][1]);
    v = hn::Min(hn::Max(v, hn::Set(d16, lo)), hn::Set(d16, hi));
    StoreRow<kStream>(d16, v, p + std::ptrdiff_t(i) * stride, i, sc);
  }
  TileStored<kStream>(d16, sc);
}

// ---- First passes in 16-bit lanes (x86 SIMD targets: ReorderWidenMulAccumulate is pmaddwd
// there, adjacent pairs summed in place; elsewhere, EMU128 included, its lane order is unspecified)
//
// The first 1D pass of either int16 transform reads 16-bit values, and every one of its outputs
// is (a linear form of its 8 inputs with integer weights + bias) >> 11, computed exactly in int32
// by the LL&M flowgraph. Rewritten as sums of products of input PAIRS, the butterflies run on
// 16-bit lanes (twice the lanes of int32), and pmaddwd on two interleaved 16-bit vectors forms
// a·c_a + b·c_b in int32 for each lane pair. Interleaving within 128-bit parts (one block row each)
// yields the split layout directly, so the widening costs nothing extra. All weights fit in
// int16 and every partial sum stays far below 2^31 on the clamped domains, so each output is the
// same integer as the int32 flowgraph's, bit for bit (the scalar kernels check it on every target).
#undef DCTX_BLOCK8_PAIRED_PASS1
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
#define DCTX_BLOCK8_PAIRED_PASS1 1

// The weight pair (c_a, c_b) for pmaddwd on InterleaveLower/Upper(a, b).
template <class D16>
HWY_INLINE hn::Vec<D16> Pair(D16 d16, std::int32_t ca, std::int32_t cb) {
  const D32Of<D16> d32;
  return hn::BitCast(
      d16, hn::Set(d32, static_cast<std::int32_t>((static_cast<std::uint32_t>(cb) << 16) |
                                                  (static_cast<std::uint32_t>(ca) & 0xFFFFu))));
}
// h[0] / h[1] = sum + a·c_a + b·c_b for the lower / upper 4 lanes of every 128-bit part.
template <class D16>
HWY_INLINE void DotPair(D16 d16, hn::Vec<D16> a, hn::Vec<D16> b, hn::Vec<D16> weights,
                        hn::Vec<D32Of<D16>> sum, hn::Vec<D32Of<D16>> (&h)[2]) {
  const D32Of<D16> d32;
#if HWY_TARGET == HWY_AVX3_DL
  if constexpr (hn::MaxLanes(d16) == 32) {  // VNNI: the multiply-add and the accumulation in one
    h[0] = DotAccumulate(sum, hn::InterleaveLower(d16, a, b), weights);
    h[1] = DotAccumulate(sum, hn::InterleaveUpper(d16, a, b), weights);
    return;
  }
#endif
  hn::Vec<D32Of<D16>> unused;
  h[0] = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveLower(d16, a, b), weights, sum, unused);
  h[1] = hn::ReorderWidenMulAccumulate(d32, hn::InterleaveUpper(d16, a, b), weights, sum, unused);
}
// The same with two pairs: a·c_a + b·c_b + e·c_e + f·c_f + sum.
template <class D16>
HWY_INLINE void DotQuad(D16 d16, hn::Vec<D16> a, hn::Vec<D16> b, hn::Vec<D16> ab, hn::Vec<D16> e,
                        hn::Vec<D16> f, hn::Vec<D16> ef, hn::Vec<D32Of<D16>> sum,
                        hn::Vec<D32Of<D16>> (&h)[2]) {
  DotPair(d16, a, b, ab, sum, h);
#if HWY_TARGET == HWY_AVX3_DL
  if constexpr (hn::MaxLanes(d16) == 32) {  // accumulate the second pair onto the first
    h[0] = DotAccumulate(h[0], hn::InterleaveLower(d16, e, f), ef);
    h[1] = DotAccumulate(h[1], hn::InterleaveUpper(d16, e, f), ef);
    return;
  }
#endif
  hn::Vec<D32Of<D16>> t[2];
  DotPair(d16, e, f, ef, hn::Zero(D32Of<D16>()), t);
  h[0] = h[0] + t[0];
  h[1] = h[1] + t[1];
}

// LL&M's odd part as four dot products: with z5 = (v7 + v5 + v3 + v1)·k1175, the four outputs
//   o7 = v7·k0298 + p1 + p3, o5 = v5·k2053 + p2 + p4, o3 = v3·k3072 + p2 + p3, o1 = v1·k1501 + p1 +
//   p4
// (p1 = −(v7 + v1)·k0899, p2 = −(v5 + v3)·k2562, p3 = −(v7 + v3)·k1961 + z5, p4 = −(v5 + v1)·k0390
// + z5) have these weights on (v7, v1 | v3, v5):
struct OddWeights {
  std::int32_t o7[4], o5[4], o3[4], o1[4];
};
constexpr OddWeights MakeOddWeights(const LlmConstants& k) {
  return {{k.k0298 - k.k0899 - k.k1961 + k.k1175, k.k1175 - k.k0899, k.k1175 - k.k1961, k.k1175},
          {k.k1175, k.k1175 - k.k0390, k.k1175 - k.k2562, k.k2053 - k.k2562 - k.k0390 + k.k1175},
          {k.k1175 - k.k1961, k.k1175, k.k3072 - k.k2562 - k.k1961 + k.k1175, k.k1175 - k.k2562},
          {k.k1175 - k.k0899, k.k1501 - k.k0899 - k.k0390 + k.k1175, k.k1175, k.k1175 - k.k0390}};
}
inline constexpr OddWeights kOdd1 = MakeOddWeights(kLlm1);
constexpr bool FitsInt16(const OddWeights& w) {
  for (const auto* r : {w.o7, w.o5, w.o3, w.o1})
    for (int i = 0; i < 4; ++i)
      if (r[i] < -32768 || r[i] > 32767) return false;
  return true;
}
static_assert(FitsInt16(kOdd1) && kLlm1.k0541 + kLlm1.k0765 < 32768 &&
                  kLlm1.k1847 - kLlm1.k0541 < 32768,
              "pass-1 weights must fit in int16 for pmaddwd");

template <class D16>
HWY_INLINE void OddDots(D16 d16, hn::Vec<D16> v7, hn::Vec<D16> v1, hn::Vec<D16> v3, hn::Vec<D16> v5,
                        hn::Vec<D32Of<D16>> bias, SplitTile<D16>& h, int i7, int i5, int i3,
                        int i1) {
  const auto& w = kOdd1;
  DotQuad(d16, v7, v1, Pair(d16, w.o7[0], w.o7[1]), v3, v5, Pair(d16, w.o7[2], w.o7[3]), bias,
          h[i7]);
  DotQuad(d16, v7, v1, Pair(d16, w.o5[0], w.o5[1]), v3, v5, Pair(d16, w.o5[2], w.o5[3]), bias,
          h[i5]);
  DotQuad(d16, v7, v1, Pair(d16, w.o3[0], w.o3[1]), v3, v5, Pair(d16, w.o3[2], w.o3[3]), bias,
          h[i3]);
  DotQuad(d16, v7, v1, Pair(d16, w.o1[0], w.o1[1]), v3, v5, Pair(d16, w.o1[2], w.o1[3]), bias,
          h[i1]);
}

template <class D16>
HWY_INLINE void LoadRows(D16 d16, const std::int16_t* p, std::ptrdiff_t stride,
                         hn::Vec<D16> (&r)[8], std::int16_t lo, std::int16_t hi) {
  for (std::size_t i = 0; i < 8; ++i)
    r[i] = hn::Min(hn::Max(hn::LoadU(d16, p + std::ptrdiff_t(i) * stride), hn::Set(d16, lo)),
                   hn::Set(d16, hi));
}

// Forward pass 1 (LlmForward8<false> down the columns) from 8 rows of int16 samples, clamped to
// [kFwdInMin, kFwdInMax] (sums of up to 8 samples, times 4, still fit in int16).
template <class D16>
HWY_INLINE void ForwardPass1(D16 d16, const std::int16_t* p, std::ptrdiff_t stride,
                             SplitTile<D16>& h) {
  const D32Of<D16> d32;
  constexpr LlmConstants k = kLlm1;
  constexpr int kShift = kConstBits1 - kPass1Bits;
  hn::Vec<D16> x[8];
  LoadRows(d16, p, stride, x, kFwdInMin, kFwdInMax);
  const auto s07 = x[0] + x[7], d07 = x[0] - x[7];
  const auto s16 = x[1] + x[6], d16v = x[1] - x[6];
  const auto s25 = x[2] + x[5], d25 = x[2] - x[5];
  const auto s34 = x[3] + x[4], d34 = x[3] - x[4];
  const auto e0 = s07 + s34, e3 = s07 - s34, e1 = s16 + s25, e2 = s16 - s25;
  const auto zero = hn::Zero(d32), bias = hn::Set(d32, std::int32_t{1} << (kShift - 1));
  constexpr std::int32_t kDc = 1 << kPass1Bits;
  DotPair(d16, e0, e1, Pair(d16, kDc, kDc), zero, h[0]);   // (e0 + e1) << P
  DotPair(d16, e0, e1, Pair(d16, kDc, -kDc), zero, h[4]);  // (e0 - e1) << P
  // x2 = (e2 + e3)·k0541 + e3·k0765, x6 = (e2 + e3)·k0541 - e2·k1847, both + bias >> shift.
  DotPair(d16, e2, e3, Pair(d16, k.k0541, k.k0541 + k.k0765), bias, h[2]);
  DotPair(d16, e2, e3, Pair(d16, k.k0541 - k.k1847, k.k0541), bias, h[6]);
  OddDots(d16, d34, d07, d16v, d25, bias, h, 7, 5, 3, 1);
  for (int i : {1, 2, 3, 5, 6, 7})
    for (std::size_t j = 0; j < 2; ++j) h[i][j] = hn::ShiftRight<kShift>(h[i][j]);
}

template <class D16>
HWY_INLINE void InversePass1Rows(D16 d16, const hn::Vec<D16> (&x)[8], SplitTile<D16>& h);

// Inverse pass 1 (transpose, then LlmInverse8<false>) from 8 rows of int16 coefficients, clamped
// to [kInvInMin, kInvInMax].
template <class D16>
HWY_INLINE void InversePass1(D16 d16, const std::int16_t* p, std::ptrdiff_t stride,
                             SplitTile<D16>& h) {
  const D32Of<D16> d32;
  constexpr LlmConstants k = kLlm1;
  constexpr int kShift = kConstBits1 - kPass1Bits;
  hn::Vec<D16> x[8];
  LoadRows(d16, p, stride, x, kInvInMin, kInvInMax);
  TransposeRows16(d16, x);
  InversePass1Rows(d16, x, h);
}

// LlmInverse8<false> across 8 vectors of int16 coefficients in [kInvInMin, kInvInMax].
template <class D16>
HWY_INLINE void InversePass1Rows(D16 d16, const hn::Vec<D16> (&x)[8], SplitTile<D16>& h) {
  const D32Of<D16> d32;
  constexpr LlmConstants k = kLlm1;
  constexpr int kShift = kConstBits1 - kPass1Bits;
  const auto zero = hn::Zero(d32), bias = hn::Set(d32, std::int32_t{1} << (kShift - 1));
  constexpr std::int32_t kDc = 1 << kConstBits1;
  hn::Vec<D32Of<D16>> t0[2], t1[2], t2[2], t3[2];
  DotPair(d16, x[0], x[4], Pair(d16, kDc, kDc), bias, t0);   // ((x0 + x4) << 13) + bias
  DotPair(d16, x[0], x[4], Pair(d16, kDc, -kDc), bias, t1);  // ((x0 - x4) << 13) + bias
  DotPair(d16, x[2], x[6], Pair(d16, k.k0541, k.k0541 - k.k1847), zero, t2);
  DotPair(d16, x[2], x[6], Pair(d16, k.k0541 + k.k0765, k.k0541), zero, t3);
  SplitTile<D16> a;  // a[7] = a0, a[5] = a1, a[3] = a2, a[1] = a3 of LlmInverse8
  OddDots(d16, x[7], x[1], x[3], x[5], zero, a, 7, 5, 3, 1);
  for (std::size_t j = 0; j < 2; ++j) {
    const auto t10 = t0[j] + t3[j], t13 = t0[j] - t3[j];
    const auto t11 = t1[j] + t2[j], t12 = t1[j] - t2[j];
    h[0][j] = hn::ShiftRight<kShift>(t10 + a[1][j]);
    h[7][j] = hn::ShiftRight<kShift>(t10 - a[1][j]);
    h[1][j] = hn::ShiftRight<kShift>(t11 + a[3][j]);
    h[6][j] = hn::ShiftRight<kShift>(t11 - a[3][j]);
    h[2][j] = hn::ShiftRight<kShift>(t12 + a[5][j]);
    h[5][j] = hn::ShiftRight<kShift>(t12 - a[5][j]);
    h[3][j] = hn::ShiftRight<kShift>(t13 + a[7][j]);
    h[4][j] = hn::ShiftRight<kShift>(t13 - a[7][j]);
  }
}

#else
#define DCTX_BLOCK8_PAIRED_PASS1 0
#endif

#endif  // DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
