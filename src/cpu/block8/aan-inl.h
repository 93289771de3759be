// SPDX-License-Identifier: BSD-3-Clause
// The float32 block kernels, per SIMD target: the Arai-Agui-Nakajima flowgraphs (Y. Arai,
// T. Agui, M. Nakajima, "A fast DCT-SQ scheme for images", Trans. IEICE E71(11), 1988) on tiles,
// with the AAN scales folded into one multiplication per coefficient. Two transposes per block in
// every kernel:
//   forward  = columns, transpose, columns, scale, transpose       (gives C)
//   inverse  = transpose, scale, columns, transpose, columns       (from C)
//   fused    = columns, transpose, columns, scale + quantize + dequantize + scale, columns,
//              transpose, columns: the transposed coefficients never leave the registers, and
//              every float operation is the one the separate passes do, so results are identical.
// The encoder's and decoder's halves of the fused pass stop or start at the int16 levels.

#if defined(DCTX_CPU_BLOCK8_AAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_BLOCK8_AAN_INL_H_
#undef DCTX_CPU_BLOCK8_AAN_INL_H_
#else
#define DCTX_CPU_BLOCK8_AAN_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "cpu/block8/requantize-inl.h"
#include "cpu/block8/stores-inl.h"
#include "cpu/block8/tile-inl.h"
#include "cpu/block8/transpose-inl.h"
#include "cpu/block8/walk-inl.h"
#include "cpu/block8/x86-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if DCTX_BLOCK8_HAVE_SIMD

template <class D>
HWY_INLINE void LoadTile(D d, const float* p, std::ptrdiff_t stride, Tile<D>& r) {
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j)
      r[i][j] = hn::LoadU(d, p + std::ptrdiff_t(i) * stride + j * Geom<D>::kLanes);
}
template <int kStream, class D>
HWY_INLINE void StoreTile(D d, const Tile<D>& r, float* p, std::ptrdiff_t stride, StreamCarry& sc) {
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j)
      StoreRow<kStream>(d, r[i][j], p + std::ptrdiff_t(i) * stride + j * Geom<D>::kLanes, i, sc);
  TileStored<kStream>(d, sc);
}
template <class D>
HWY_INLINE hn::Vec<D> TableRow(D d, const Table8x16& t, std::size_t i, std::size_t j) {
  return hn::Load(d, t.v + i * kTableStride + j * Geom<D>::kLanes);
}
template <class D>
HWY_INLINE void Scale(D d, Tile<D>& r, const Table8x16& t) {
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j) r[i][j] = r[i][j] * TableRow(d, t, i, j);
}

// Load G tiles and run both forward passes: transposed, AAN-scaled coefficients.
template <std::size_t G, class D>
HWY_INLINE void ForwardPassesF32(D d, const float* in, std::ptrdiff_t is, Tile<D> (&r)[G]) {
  const OpsF<D> o{d};
  DCTX_BLOCK8_EACH(G) LoadTile(d, in + g * kTileCols<D>, is, r[g]);
  DCTX_BLOCK8_EACH(G) Columns<AanForwardFlow>(o, r[g]);
  DCTX_BLOCK8_EACH(G) TransposeTile(d, r[g]);
  DCTX_BLOCK8_EACH(G) Columns<AanForwardFlow>(o, r[g]);
}
// Both inverse passes from transposed, AAN-scaled coefficients, and store G tiles of samples.
template <std::size_t G, int kStream, class D>
HWY_INLINE void InversePassesF32(D d, Tile<D> (&r)[G], float* out, std::ptrdiff_t os,
                                 StreamCarry& sc) {
  const OpsF<D> o{d};
  DCTX_BLOCK8_EACH(G) Columns<AanInverseFlow>(o, r[g]);
  DCTX_BLOCK8_EACH(G) TransposeTile(d, r[g]);
  DCTX_BLOCK8_EACH(G) Columns<AanInverseFlow>(o, r[g]);
  InWalkOrder<kStream, G>(
      sc, [&](std::size_t g) { StoreTile<kStream>(d, r[g], out + g * kTileCols<D>, os, sc); });
}

template <std::size_t G, int kStream, class D>
HWY_INLINE void ForwardTilesF32(D d, const float* in, std::ptrdiff_t is, float* out,
                                std::ptrdiff_t os, const AanTables& t, StreamCarry& sc) {
  Tile<D> r[G];
  ForwardPassesF32(d, in, is, r);
  DCTX_BLOCK8_EACH(G) Scale(d, r[g], t.fwd);
  DCTX_BLOCK8_EACH(G) TransposeTile(d, r[g]);
  InWalkOrder<kStream, G>(
      sc, [&](std::size_t g) { StoreTile<kStream>(d, r[g], out + g * kTileCols<D>, os, sc); });
}

template <std::size_t G, int kStream, class D>
HWY_INLINE void InverseTilesF32(D d, const float* in, std::ptrdiff_t is, float* out,
                                std::ptrdiff_t os, const AanTables& t, StreamCarry& sc) {
  Tile<D> r[G];
  DCTX_BLOCK8_EACH(G) LoadTile(d, in + g * kTileCols<D>, is, r[g]);
  DCTX_BLOCK8_EACH(G) TransposeTile(d, r[g]);
  DCTX_BLOCK8_EACH(G) Scale(d, r[g], t.inv);
  InversePassesF32<G, kStream>(d, r, out, os, sc);
}

// fn(r[g][i][j], i, j) for every vector of G float tiles.
template <std::size_t G, class D, class Fn>
HWY_INLINE void ForEachTileVector(Tile<D> (&r)[G], Fn fn) {
  DCTX_BLOCK8_EACH(G)
  HWY_UNROLL(8)
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j) fn(r[g][i][j], i, j);
}
// c / Q for the AAN-scaled, transposed coefficient vector v: the coefficient as block8_forward
// makes it, times the float reciprocal of Q (the operations of the separate passes, in order).
template <class D>
HWY_INLINE hn::Vec<D> QuotientF32(D d, hn::Vec<D> v, const AanTables& t, const QuantF32& q,
                                  std::size_t i, std::size_t j) {
  return (v * TableRow(d, t.fwd, i, j)) * TableRow(d, q.recip, i, j);
}

template <std::size_t G, int kStream, class D>
HWY_INLINE void RoundtripTilesF32(D d, const float* in, std::ptrdiff_t is, float* out,
                                  std::ptrdiff_t os, const AanTables& t, const QuantF32& q,
                                  hn::Vec<CountTag<D>>& zeros, StreamCarry& sc) {
  Tile<D> r[G];
  ForwardPassesF32(d, in, is, r);
  ForEachTileVector<G, D>(
      r, [&](hn::Vec<D>& v, std::size_t i, std::size_t j) DCTX_BLOCK8_LAMBDA_INLINE {
        const auto level = RoundHalfAway(QuotientF32(d, v, t, q, i, j));
        CountZeros(d, level, zeros);
        v = (level * TableRow(d, q.q, i, j)) * TableRow(d, t.inv, i, j);
      });
  InversePassesF32<G, kStream>(d, r, out, os, sc);
}

// The codec's halves of the fused pass. Encoder: forward DCT, then levels as block8_quantize
// makes them from block8_forward's coefficients (c times the float reciprocal of Q, rounded half
// away from zero, saturated to int16; NaN quotients counted, as they have no level), stored in
// natural order. Decoder: levels times Q (exact in float), then the inverse as block8_inverse
// runs it.
template <std::size_t G, int kStream, class D>
HWY_INLINE void ForwardQuantizeTilesF32(D d, const float* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, const AanTables& t, const QuantF32& q,
                                        LevelCounts<CountTag<D>>& counts, StreamCarry& sc) {
  const hn::Rebind<std::int32_t, D> di;
  Tile<D> r[G];
  ForwardPassesF32(d, in, is, r);
  ForEachTileVector<G, D>(
      r, [&](hn::Vec<D>& v, std::size_t i, std::size_t j) DCTX_BLOCK8_LAMBDA_INLINE {
        const auto quotient = QuotientF32(d, v, t, q, i, j);
        CountNaN(d, quotient, counts.nans);
        const auto level = RoundHalfAwayToI32(d, quotient);
        CountZeros(di, level, counts.zeros);
        v = hn::BitCast(d, level);  // transposed as 32-bit lanes
      });
  DCTX_BLOCK8_EACH(G) TransposeTile(d, r[g]);
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (G == 2 && hn::MaxLanes(D()) == 16) {
    // Both tiles' row i are 32 adjacent int16: one saturating pack (in 128-bit parts) and one
    // 64-bit permutation make the 64-byte row piece (half the uops of two narrowing vpmovsdw),
    // stored as every 64-byte row piece is (StoreRow: streamed when large, realigned or not).
    const hn::Full512<std::int16_t> d16x32;
    for (std::size_t i = 0; i < 8; ++i) {
      const auto row = EvenThenOddQuadwords(
          hn::ReorderDemote2To(d16x32, hn::BitCast(di, r[0][i][0]), hn::BitCast(di, r[1][i][0])));
      StoreRow<kStream>(d16x32, row, out + std::ptrdiff_t(i) * os, i, sc);
    }
    TileStored<kStream>(d16x32, sc);
    return;
  }
#endif
  // Narrower pieces (single and remainder tiles): ordinary stores, no carry.
  DCTX_BLOCK8_EACH(G)
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j)
      StoreFrom(d, hn::BitCast(di, r[g][i][j]),
                out + g * kTileCols<D> + std::ptrdiff_t(i) * os + j * Geom<D>::kLanes);
}

template <std::size_t G, int kStream, class D>
HWY_INLINE void DequantizeInverseTilesF32(D d, const std::int16_t* in, std::ptrdiff_t is,
                                          float* out, std::ptrdiff_t os, const AanTables& t,
                                          const QuantF32& q, StreamCarry& sc) {
  Tile<D> r[G];
  DCTX_BLOCK8_EACH(G)
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j)
      r[g][i][j] =
          LoadAsFloat(d, in + g * kTileCols<D> + std::ptrdiff_t(i) * is + j * Geom<D>::kLanes);
  DCTX_BLOCK8_EACH(G) TransposeTile(d, r[g]);
  ForEachTileVector<G, D>(
      r, [&](hn::Vec<D>& v, std::size_t i, std::size_t j) DCTX_BLOCK8_LAMBDA_INLINE {
        v = (v * TableRow(d, q.q, i, j)) * TableRow(d, t.inv, i, j);
      });
  InversePassesF32<G, kStream>(d, r, out, os, sc);
}

#endif  // DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
