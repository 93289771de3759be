// SPDX-License-Identifier: BSD-3-Clause
// In-register 8x8 transposes of the block kernels' tiles: 32-bit lanes (float tiles and the int16
// kernels' split layout: four 4x4 transposes inside 128-bit parts plus an exchange of the two
// off-diagonal 4x4 blocks) and 16-bit lanes (one block row per 128-bit part).

#if defined(DCTX_CPU_BLOCK8_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_BLOCK8_TRANSPOSE_INL_H_
#undef DCTX_CPU_BLOCK8_TRANSPOSE_INL_H_
#else
#define DCTX_CPU_BLOCK8_TRANSPOSE_INL_H_
#endif

#include <cstddef>

#include <hwy/highway.h>

#include "cpu/block8/tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if DCTX_BLOCK8_HAVE_SIMD

// 4x4 transposes inside every 128-bit part of a, b, c, e (32-bit lanes).
template <class D, class V>
HWY_INLINE void Transpose4x4InQuads(D d, V& a, V& b, V& c, V& e) {
  const hn::Repartition<std::uint64_t, D> d64;
  const V t0 = hn::InterleaveLower(d, a, b);  // a0 b0 a1 b1
  const V t1 = hn::InterleaveLower(d, c, e);  // c0 e0 c1 e1
  const V t2 = hn::InterleaveUpper(d, a, b);  // a2 b2 a3 b3
  const V t3 = hn::InterleaveUpper(d, c, e);  // c2 e2 c3 e3
  a = hn::BitCast(d, hn::InterleaveLower(d64, hn::BitCast(d64, t0), hn::BitCast(d64, t1)));
  b = hn::BitCast(d, hn::InterleaveUpper(d64, hn::BitCast(d64, t0), hn::BitCast(d64, t1)));
  c = hn::BitCast(d, hn::InterleaveLower(d64, hn::BitCast(d64, t2), hn::BitCast(d64, t3)));
  e = hn::BitCast(d, hn::InterleaveUpper(d64, hn::BitCast(d64, t2), hn::BitCast(d64, t3)));
}

// Transpose every 8x8 block: transpose the four 4x4 sub-blocks in place, then exchange the two
// off-diagonal ones (rows 0-3 x cols 4-7 with rows 4-7 x cols 0-3).
//   kV == 2: r[i][0] / r[i][1] hold columns 0-3 / 4-7 (4-lane tiles and the int16 split layout):
//            the exchange is a renaming.
//   kV == 1: whole block rows in 8 or 16 lanes: exchange 128-bit parts between rows i and i+4.
template <class D, std::size_t kV>
HWY_INLINE void TransposeTile(D d, hn::Vec<D> (&r)[8][kV]) {
  for (std::size_t j = 0; j < kV; ++j) {
    Transpose4x4InQuads(d, r[0][j], r[1][j], r[2][j], r[3][j]);
    Transpose4x4InQuads(d, r[4][j], r[5][j], r[6][j], r[7][j]);
  }
  if constexpr (kV == 2) {
    for (std::size_t i = 0; i < 4; ++i) {
      const auto t = r[i][1];
      r[i][1] = r[4 + i][0];
      r[4 + i][0] = t;
    }
  } else if constexpr (hn::MaxLanes(D()) == 8) {  // one block per vector
    for (std::size_t i = 0; i < 4; ++i) {
      const auto a = r[i][0], b = r[4 + i][0];
      r[i][0] = hn::ConcatLowerLower(d, b, a);
      r[4 + i][0] = hn::ConcatUpperUpper(d, b, a);
    }
  } else {  // two blocks per vector: exchange 128-bit parts within each 256-bit half
    for (std::size_t i = 0; i < 4; ++i) {
      const auto a = r[i][0], b = r[4 + i][0];
      r[i][0] = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(b), a);
      r[4 + i][0] = hn::OddEvenBlocks(b, hn::SwapAdjacentBlocks(a));
    }
  }
}

// 8x8 transpose of int16 blocks, one block row per 128-bit part (three interleave stages).
template <class D16>
HWY_INLINE void TransposeRows16(D16 d16, hn::Vec<D16> (&r)[8]) {
  const hn::Repartition<std::int32_t, D16> d32;
  const hn::Repartition<std::int64_t, D16> d64;
  hn::Vec<D16> t[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = hn::InterleaveLower(d16, r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = hn::InterleaveUpper(d16, r[2 * i], r[2 * i + 1]);
  }
  hn::Vec<decltype(d32)> u[8];
  for (int half = 0; half < 2; ++half)  // rows 0-3, rows 4-7
    for (int hi = 0; hi < 2; ++hi) {    // columns 0-3, columns 4-7
      const auto a = hn::BitCast(d32, t[4 * half + hi]), b = hn::BitCast(d32, t[4 * half + 2 + hi]);
      u[4 * half + 2 * hi] = hn::InterleaveLower(d32, a, b);      // columns 4hi, 4hi + 1
      u[4 * half + 2 * hi + 1] = hn::InterleaveUpper(d32, a, b);  // columns 4hi + 2, 4hi + 3
    }
  for (int c = 0; c < 4; ++c) {  // u[c] holds columns 2c, 2c + 1 of rows 0-3; u[4 + c] of rows 4-7
    const auto a = hn::BitCast(d64, u[c]), b = hn::BitCast(d64, u[4 + c]);
    r[2 * c] = hn::BitCast(d16, hn::InterleaveLower(d64, a, b));
    r[2 * c + 1] = hn::BitCast(d16, hn::InterleaveUpper(d64, a, b));
  }
}

#endif  // DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
