// SPDX-License-Identifier: BSD-3-Clause
// The int16 block kernels, per SIMD target: the Loeffler-Ligtenberg-Moschytz flowgraphs
// (C. Loeffler, A. Ligtenberg, G. Moschytz, "Practical fast 1-D DCT algorithms with 11
// multiplications", ICASSP 1989) in 32-bit fixed point, libjpeg "islow" class, on split tiles
// (llm_pass1-inl.h): forward, inverse, the fused requantizing pass and the codec's halves.

#if defined(DCTX_CPU_BLOCK8_LLM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_BLOCK8_LLM_INL_H_
#undef DCTX_CPU_BLOCK8_LLM_INL_H_
#else
#define DCTX_CPU_BLOCK8_LLM_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "cpu/block8/llm_pass1-inl.h"
#include "cpu/block8/requantize-inl.h"
#include "cpu/block8/stores-inl.h"
#include "cpu/block8/tile-inl.h"
#include "cpu/block8/transpose-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if DCTX_BLOCK8_HAVE_SIMD

// Forward passes from samples to transposed coefficients (shared by the forward and fused kernels).
template <std::size_t G, class D16>
HWY_INLINE void ForwardRowsI16(D16 d16, const std::int16_t* in, std::ptrdiff_t is,
                               SplitTile<D16> (&h)[G]) {
  const D32Of<D16> d32;
  const OpsI<D32Of<D16>> o{d32};
#if DCTX_BLOCK8_PAIRED_PASS1
  DCTX_BLOCK8_EACH(G) ForwardPass1(d16, in + g * kSplitCols<D16>, is, h[g]);
#else
  DCTX_BLOCK8_EACH(G) LoadSplit(d16, in + g * kSplitCols<D16>, is, h[g], kFwdInMin, kFwdInMax);
  DCTX_BLOCK8_EACH(G) Columns<LlmForwardFlow<false>>(o, h[g]);
#endif
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  DCTX_BLOCK8_EACH(G) Columns<LlmForwardFlow<true>>(o, h[g]);
}

template <std::size_t G, int kStream, class D16>
HWY_INLINE void ForwardTilesI16(D16 d16, const std::int16_t* in, std::ptrdiff_t is,
                                std::int16_t* out, std::ptrdiff_t os, StreamCarry& sc) {
  const D32Of<D16> d32;
  SplitTile<D16> h[G];
  ForwardRowsI16(d16, in, is, h);
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  InWalkOrder<kStream, G>(sc, [&](std::size_t g) {
    StoreSplit<kStream>(d16, h[g], out + g * kSplitCols<D16>, os, -32768, 32767, sc);
  });
}

// Inverse passes from transposed coefficients to samples (shared by the inverse and fused kernels).
template <std::size_t G, class D16>
HWY_INLINE void InverseColumnsI16(D16, SplitTile<D16> (&h)[G]) {
  const D32Of<D16> d32;
  const OpsI<D32Of<D16>> o{d32};
  DCTX_BLOCK8_EACH(G) Columns<LlmInverseFlow<false>>(o, h[g]);
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  DCTX_BLOCK8_EACH(G) Columns<LlmInverseFlow<true>>(o, h[g]);
}

template <std::size_t G, int kStream, class D16>
HWY_INLINE void InverseTilesI16(D16 d16, const std::int16_t* in, std::ptrdiff_t is,
                                std::int16_t* out, std::ptrdiff_t os, StreamCarry& sc) {
  const D32Of<D16> d32;
  SplitTile<D16> h[G];
#if DCTX_BLOCK8_PAIRED_PASS1
  const OpsI<D32Of<D16>> o{d32};
  DCTX_BLOCK8_EACH(G) InversePass1(d16, in + g * kSplitCols<D16>, is, h[g]);
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  DCTX_BLOCK8_EACH(G) Columns<LlmInverseFlow<true>>(o, h[g]);
#else
  DCTX_BLOCK8_EACH(G) LoadSplit(d16, in + g * kSplitCols<D16>, is, h[g], kInvInMin, kInvInMax);
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  InverseColumnsI16(d16, h);
#endif
  InWalkOrder<kStream, G>(sc, [&](std::size_t g) {
    StoreSplit<kStream>(d16, h[g], out + g * kSplitCols<D16>, os, kInvOutMin, kInvOutMax, sc);
  });
}

// fn(h[g][i][j], at) for every vector of G split tiles, where `at` indexes the vector's entries in
// a Table8x8Quads (row i of the block, columns 4j..4j+3, in every 128-bit part).
template <std::size_t G, class D16, class Fn>
HWY_INLINE void ForEachSplitVector(SplitTile<D16> (&h)[G], Fn fn) {
  DCTX_BLOCK8_EACH(G)
  HWY_UNROLL(8)
  for (std::size_t i = 0; i < 8; ++i) {
    HWY_UNROLL(2)
    for (std::size_t j = 0; j < 2; ++j) fn(h[g][i][j], (2 * i + j) * 16);
  }
}

template <std::size_t G, int kStream, class D16>
HWY_INLINE void RoundtripTilesI16(D16 d16, const std::int16_t* in, std::ptrdiff_t is,
                                  std::int16_t* out, std::ptrdiff_t os, const QuantI16& q,
                                  hn::Vec<D32Of<D16>>& zeros, StreamCarry& sc) {
  const D32Of<D16> d32;
  const OpsI<D32Of<D16>> o{d32};
  SplitTile<D16> h[G];
  ForwardRowsI16(d16, in, is, h);
#if DCTX_BLOCK8_REQUANT16
  // Requantize in 16-bit lanes (the coefficients fit: |c| <= 2^13) and run the inverse's first
  // pass from there, as the inverse kernel does.
  DCTX_BLOCK8_EACH(G) {
    hn::Vec<D16> x[8];
    for (std::size_t i = 0; i < 8; ++i) x[i] = hn::ReorderDemote2To(d16, h[g][i][0], h[g][i][1]);
    auto counts = hn::Zero(d16);  // at most 8 per lane
    Requantize16(d16, q, x, counts);
    hn::Vec<D32Of<D16>> unused;
    zeros = hn::ReorderWidenMulAccumulate(d32, counts, hn::Set(d16, 1), zeros, unused);
    InversePass1Rows(d16, x, h[g]);
  }
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  DCTX_BLOCK8_EACH(G) Columns<LlmInverseFlow<true>>(o, h[g]);
#else
  // Requantize in integers (QuantI16): level = ((min(|c|, kRequantMaxAbs) + floor(Q/2)) * magic)
  // >> shift, exactly round(c / Q) half away from zero; then level * Q with c's sign, clamped
  // to the inverse kernel's input range.
  const auto zero = hn::Zero(d32);
  ForEachSplitVector<G, D16>(
      h, [&](hn::Vec<D32Of<D16>>& c, std::size_t at) DCTX_BLOCK8_LAMBDA_INLINE {
        const auto level = LevelMagnitude(d32, c, q, at);
        CountZeros(d32, level, zeros);
        const auto m = hn::Min(level * hn::Load(d32, q.q.v + at), hn::Set(d32, -kInvInMin));
        c = hn::Min(hn::IfThenElse(hn::Lt(c, zero), zero - m, m), hn::Set(d32, kInvInMax));
      });
  InverseColumnsI16(d16, h);
#endif
  InWalkOrder<kStream, G>(sc, [&](std::size_t g) {
    StoreSplit<kStream>(d16, h[g], out + g * kSplitCols<D16>, os, kInvOutMin, kInvOutMax, sc);
  });
}

// Encoder and decoder halves in integers. The forward kernel's coefficients satisfy
// |c| <= 8 * 1024 < kRequantMaxAbs, so QuantI16's formula gives block8_quantize's exact levels;
// the decoder's level * Q (int32, exact) clamped to the inverse's input range equals
// block8_dequantize's saturated product as block8_inverse clamps it.
template <std::size_t G, int kStream, class D16>
HWY_INLINE void ForwardQuantizeTilesI16(D16 d16, const std::int16_t* in, std::ptrdiff_t is,
                                        std::int16_t* out, std::ptrdiff_t os, const QuantI16& q,
                                        hn::Vec<D32Of<D16>>& zeros, StreamCarry& sc) {
  const D32Of<D16> d32;
  SplitTile<D16> h[G];
  ForwardRowsI16(d16, in, is, h);
#if DCTX_BLOCK8_REQUANT16
  // In 16-bit lanes (the coefficients fit: |c| <= 2^13), as the fused kernel requantizes: half
  // the vectors of the int32 split tile, and the levels transpose back as int16.
  hn::Vec<D16> x[G][8];
  DCTX_BLOCK8_EACH(G) {
    const auto zero16 = hn::Zero(d16);
    auto counts = zero16;  // at most 8 per lane
    for (std::size_t i = 0; i < 8; ++i) {
      const auto c = hn::ReorderDemote2To(d16, h[g][i][0], h[g][i][1]);
      const auto level = LevelMagnitude16(d16, q, c, i);
      counts = hn::IfThenElse(hn::Eq(level, zero16), counts + hn::Set(d16, 1), counts);
      x[g][i] = hn::IfThenElse(hn::Lt(c, zero16), zero16 - level, level);
    }
    hn::Vec<D32Of<D16>> unused;
    zeros = hn::ReorderWidenMulAccumulate(d32, counts, hn::Set(d16, 1), zeros, unused);
    TransposeRows16(d16, x[g]);
  }
  InWalkOrder<kStream, G>(sc, [&](std::size_t g) {
    for (std::size_t i = 0; i < 8; ++i)
      StoreRow<kStream>(d16, x[g][i], out + g * kSplitCols<D16> + std::ptrdiff_t(i) * os, i, sc);
    TileStored<kStream>(d16, sc);
  });
#else
  const auto zero = hn::Zero(d32);
  ForEachSplitVector<G, D16>(h,
                             [&](hn::Vec<D32Of<D16>>& c, std::size_t at) DCTX_BLOCK8_LAMBDA_INLINE {
                               const auto level = LevelMagnitude(d32, c, q, at);
                               CountZeros(d32, level, zeros);
                               c = hn::IfThenElse(hn::Lt(c, zero), zero - level, level);
                             });
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  InWalkOrder<kStream, G>(sc, [&](std::size_t g) {
    StoreSplit<kStream>(d16, h[g], out + g * kSplitCols<D16>, os, -32768, 32767, sc);
  });
#endif
}

template <std::size_t G, int kStream, class D16>
HWY_INLINE void DequantizeInverseTilesI16(D16 d16, const std::int16_t* in, std::ptrdiff_t is,
                                          std::int16_t* out, std::ptrdiff_t os, const QuantI16& q,
                                          StreamCarry& sc) {
  const D32Of<D16> d32;
  const auto lo = hn::Set(d32, kInvInMin), hi = hn::Set(d32, kInvInMax);
  SplitTile<D16> h[G];
  DCTX_BLOCK8_EACH(G) LoadSplit(d16, in + g * kSplitCols<D16>, is, h[g], -32768, 32767);
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  ForEachSplitVector<G, D16>(h,
                             [&](hn::Vec<D32Of<D16>>& v, std::size_t at) DCTX_BLOCK8_LAMBDA_INLINE {
                               v = hn::Min(hn::Max(v * hn::Load(d32, q.q.v + at), lo), hi);
                             });
  InverseColumnsI16(d16, h);
  InWalkOrder<kStream, G>(sc, [&](std::size_t g) {
    StoreSplit<kStream>(d16, h[g], out + g * kSplitCols<D16>, os, kInvOutMin, kInvOutMax, sc);
  });
}

#endif  // DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
