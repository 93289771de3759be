// Per-target SIMD kernels of the 8x8 block engine (compiled once per Highway target by simd.cc).
//
// A "tile" is 8 rows of one to four horizontally adjacent 8x8 blocks held in registers. A 1D pass
// along columns runs the flowgraph on whole vectors, each lane its own column ("vectorise across
// columns", as pocketfft and libjxl do); the pass along rows is the same code after an in-register
// 8x8 transpose. Two transposes per block in every kernel:
//   forward  = columns, transpose, columns, scale, transpose       (gives C)
//   inverse  = transpose, scale, columns, transpose, columns       (from C)
//   fused    = columns, transpose, columns, scale + quantize + dequantize + scale, columns,
//              transpose, columns — the transposed coefficients never leave the registers, and
//              every float operation is the one the separate passes do, so results are identical.
//
// Float tiles: r[row][k] with kV vectors per row — 16-lane vectors (AVX-512) hold one row of two
// blocks, 8-lane vectors (AVX2) one block row, 4-lane vectors (SSE4, NEON) half a block row.
// int16 tiles ("split" layout): a row of 8, 16 or 32 int16 (1, 2 or 4 blocks) widens, by
// interleaving with zero, into two int32 vectors: h[row][0] holds columns 0-3 of every block,
// h[row][1] columns 4-7, each 128-bit part belonging to one block. There an 8x8 transpose is four
// 4x4 transposes inside 128-bit parts plus a renaming, and narrowing back (packs) restores the
// order.

#if defined(DCTX_BLOCK8_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_BLOCK8_INL_H_
#undef DCTX_BLOCK8_INL_H_
#else
#define DCTX_BLOCK8_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "block8/constants.hpp"
#include "block8/kernels.hpp"
#include "block8/scalar.hpp"

// The per-tile lambdas must be inlined into the tile loops so that the flowgraph constants are
// materialised once per call rather than once per tile.
#ifndef DCTX_BLOCK8_LAMBDA_INLINE
#define DCTX_BLOCK8_LAMBDA_INLINE __attribute__((always_inline))
#endif

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#include "block8/flowgraphs.inc"

// Fixed-size vectors are needed for the in-register transposes; scalable (SVE, RVV) and
// single-lane targets use the scalar kernels.
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
#define DCTX_BLOCK8_HAVE_SIMD 1
#else
#define DCTX_BLOCK8_HAVE_SIMD 0
#endif

#if DCTX_BLOCK8_HAVE_SIMD

template <class D>
struct OpsF {
  D d;
  using V = hn::Vec<D>;
#if HWY_NATIVE_FMA && HWY_ARCH_X86
  // 1.0 hidden from the optimiser, which would turn a*1 + b back into an addition.
  V one = Opaque(hn::Set(D(), 1.0f));
  static HWY_INLINE V Opaque(V v) {
    asm("" : "+v"(v.raw));
    return v;
  }
  HWY_INLINE V Add(V a, V b) const { return hn::MulAdd(a, one, b); }
  HWY_INLINE V Sub(V a, V b) const { return hn::NegMulAdd(b, one, a); }
#else
  HWY_INLINE V Add(V a, V b) const { return a + b; }
  HWY_INLINE V Sub(V a, V b) const { return a - b; }
#endif
  HWY_INLINE V K(float c) const { return hn::Set(d, c); }
  HWY_INLINE V MulAdd(V a, V b, V c) const { return hn::MulAdd(a, b, c); }
  HWY_INLINE V MulSub(V a, V b, V c) const { return hn::MulSub(a, b, c); }
  HWY_INLINE V NegMulAdd(V a, V b, V c) const { return hn::NegMulAdd(a, b, c); }
};
template <class D>
struct OpsI {
  D d;
  using V = hn::Vec<D>;
  HWY_INLINE V K(std::int32_t c) const { return hn::Set(d, c); }
  template <int k>
  HWY_INLINE V Sra(V v) const {
    return hn::ShiftRight<k>(v);
  }
  template <int k>
  HWY_INLINE V Shl(V v) const {
    return hn::ShiftLeft<k>(v);
  }
};

template <class D>
struct Geom {
  static constexpr std::size_t kLanes = hn::MaxLanes(D());
  static constexpr std::size_t kV = kLanes >= 8 ? 1 : 8 / kLanes;  // vectors per float tile row
};
template <class D>
using Tile = hn::Vec<D>[8][Geom<D>::kV];

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

// Run a 1D flowgraph down the columns of a tile.
#define DCTX_BLOCK8_COLUMNS(call, r, kV) \
  for (std::size_t j = 0; j < (kV); ++j) \
  call(o, r[0][j], r[1][j], r[2][j], r[3][j], r[4][j], r[5][j], r[6][j], r[7][j])

// How tiles store their rows (StoreMode picks it per call): 0 ordinary stores; 1 non-temporal
// stores, the rows starting on cache lines; 2 non-temporal stores of whole cache lines when the
// rows start 16, 32 or 48 bytes into one (numpy and malloc align to 16 bytes). Then every 64-byte
// row piece of a tile straddles two lines: each line is assembled in a register from the two
// neighbouring tiles of the walk (one two-source permutation) and streamed whole; the first and
// last partial line of every row go out as masked ordinary stores. (Streaming the pieces
// separately, in aligned 16- and 32-byte parts, leaves the write-combining buffers with partial
// lines: 2.5x slower than ordinary stores on Zen 4.) The previous tile's rows wait in a carry on
// the walking thread's stack. The offset is a run-time value so that one instantiation serves all
// three (compile time: the kernels are large).
struct StreamCarry {                     // one per walk, on the walking thread's stack
  alignas(64) std::int32_t prev[8][16];  // the last tile's rows, as 32-bit lanes
  alignas(64) std::int32_t line[16];     // permutation: left tile's last lanes, right tile's first
  void* prev_at[8];                      // where they belong
  int lanes = 0;                         // 32-bit lanes from a line's start to a row piece
  bool have = false;                     // prev holds the neighbour of the next tile
  bool backward = false;                 // the walk runs right to left
  // For the realigned mode: rows start `offset` bytes (16, 32 or 48) into a cache line.
  void Start(std::size_t offset) {
    lanes = int(offset / 4);
    for (int j = 0; j < 16; ++j) line[j] = j < lanes ? 16 - lanes + j : 16 + j - lanes;
  }
};
// Not in sanitizer builds: GCC 12 then takes over ten minutes on simd.cc with the extra kernel
// instantiations (the release tests cover the realigned stores on every AVX-512 target).
#if HWY_TARGET <= HWY_AVX3 && !defined(__SANITIZE_ADDRESS__)
#define DCTX_BLOCK8_REALIGNED_STREAM 1
// Row i (of 8) of a tile: 64 bytes at p, c.lanes 32-bit lanes into a cache line.
template <class V>
HWY_INLINE void StoreRealigned(V v8, void* p, std::size_t i, StreamCarry& c) {
  const hn::Full512<std::int32_t> d;
  const auto v = hn::BitCast(d, v8);
  auto* at = static_cast<std::uint8_t*>(p);
  const std::ptrdiff_t shift = 4 * c.lanes;  // bytes from the line start to p
  if (c.have) {
    const auto prev = hn::Load(d, c.prev[i]);
    // The line between the left and the right tile: the left's last `lanes` lanes, then the
    // right's first.
    const auto right = c.backward ? prev : v, left = c.backward ? v : prev;
    const hn::Vec<decltype(d)> line{
        _mm512_permutex2var_epi32(left.raw, hn::Load(d, c.line).raw, right.raw)};
    auto* line_at = c.backward ? at + 64 - shift : at - shift;
    hn::Stream(line, d, reinterpret_cast<std::int32_t*>(line_at));
  } else {  // the first tile of the run: its part of the line it shares with the row's edge
    const auto head = hn::FirstN(d, std::size_t(16 - c.lanes));
    hn::BlendedStore(v, c.backward ? hn::Not(head) : head, d, reinterpret_cast<std::int32_t*>(at));
  }
  hn::Store(v, d, c.prev[i]);
  c.prev_at[i] = p;
}
// After the last full tile of a row: the part of its line at the row's other edge.
HWY_INLINE void FlushCarry(StreamCarry& c) {
  const hn::Full512<std::int32_t> d;
  if (!c.have) return;
  const auto head = hn::FirstN(d, std::size_t(16 - c.lanes));
  for (std::size_t i = 0; i < 8; ++i)
    hn::BlendedStore(hn::Load(d, c.prev[i]), c.backward ? head : hn::Not(head), d,
                     static_cast<std::int32_t*>(c.prev_at[i]));
  c.have = false;
}
#else
#define DCTX_BLOCK8_REALIGNED_STREAM 0
#endif

template <int kStream, class D, class T>
HWY_INLINE void StoreRow(D d, hn::Vec<D> v, T* p, std::size_t i, StreamCarry& sc) {
  if constexpr (kStream == 1) {
    hn::Stream(v, d, p);
    return;
  }
#if DCTX_BLOCK8_REALIGNED_STREAM
  if constexpr (kStream >= 2 && sizeof(hn::TFromD<D>) * hn::MaxLanes(D()) == 64) {
    StoreRealigned(v, p, i, sc);
    return;
  }
#endif
  (void)i;
  (void)sc;
  hn::StoreU(v, d, p);  // kStream 0, and the narrower remainder tiles
}
// A tile's rows (vectors of tag D) are all stored: with 64-byte rows, realigned ones, the next
// tile has its neighbour (narrower remainder tiles take ordinary stores and leave no carry).
template <int kStream, class D>
HWY_INLINE void TileStored(D, StreamCarry& sc) {
  if constexpr (kStream >= 2 && sizeof(hn::TFromD<D>) * hn::MaxLanes(D()) == 64) sc.have = true;
}
// Stores G tiles through `store(g)` in walk order (right to left on a backward realigned walk).
template <int kStream, std::size_t G, class Store>
HWY_INLINE void InWalkOrder(const StreamCarry& sc, Store store) {
  if constexpr (kStream >= 2) {
    if (sc.backward) {
      for (std::size_t g = G; g-- > 0;) store(g);
      return;
    }
  }
  (void)sc;
  for (std::size_t g = 0; g < G; ++g) store(g);
}

// Elements as float vectors, stored from float (float out) or int32 (int16 out, saturating).
template <class D>
HWY_INLINE hn::Vec<D> LoadAsFloat(D d, const float* p) {
  return hn::LoadU(d, p);
}
template <class D>
HWY_INLINE hn::Vec<D> LoadAsFloat(D d, const std::int16_t* p) {
  return hn::ConvertTo(
      d, hn::PromoteTo(hn::Rebind<std::int32_t, D>(), hn::LoadU(hn::Rebind<std::int16_t, D>(), p)));
}
template <class D>
HWY_INLINE void StoreFrom(D d, hn::Vec<D> v, float* p) {
  hn::StoreU(v, d, p);
}
template <class D>
HWY_INLINE void StoreFrom(D, hn::Vec<hn::Rebind<std::int32_t, D>> v, std::int16_t* p) {
  const hn::Rebind<std::int16_t, D> d16;
  hn::StoreU(hn::DemoteTo(d16, v), d16, p);
}

// ---- float32, Arai–Agui–Nakajima

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

// A kernel call runs G independent tiles side by side, stage by stage. One tile's flowgraphs,
// transposes and quantization form a chain of about 150 dependent cycles, longer than the
// out-of-order window reaches, so consecutive tiles hardly overlap unless the code interleaves
// them (measured on Zen 4: the fused float pass goes from 1.7 to 2.4 Gpixel/s with G = 2).
#define DCTX_BLOCK8_EACH(G) HWY_UNROLL(4) for (std::size_t g = 0; g < (G); ++g)

template <class D>
inline constexpr std::size_t kTileCols = Geom<D>::kLanes < 8 ? 8 : Geom<D>::kLanes;

// Load G tiles and run both forward passes: transposed, AAN-scaled coefficients.
template <std::size_t G, class D>
HWY_INLINE void ForwardPassesF32(D d, const float* in, std::ptrdiff_t is, Tile<D> (&r)[G]) {
  const OpsF<D> o{d};
  DCTX_BLOCK8_EACH(G) LoadTile(d, in + g * kTileCols<D>, is, r[g]);
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(AanForward8, r[g], Geom<D>::kV);
  DCTX_BLOCK8_EACH(G) TransposeTile(d, r[g]);
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(AanForward8, r[g], Geom<D>::kV);
}
// Both inverse passes from transposed, AAN-scaled coefficients, and store G tiles of samples.
template <std::size_t G, int kStream, class D>
HWY_INLINE void InversePassesF32(D d, Tile<D> (&r)[G], float* out, std::ptrdiff_t os,
                                 StreamCarry& sc) {
  const OpsF<D> o{d};
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(AanInverse8, r[g], Geom<D>::kV);
  DCTX_BLOCK8_EACH(G) TransposeTile(d, r[g]);
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(AanInverse8, r[g], Geom<D>::kV);
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

// Round half away from zero, exactly, for every float: trunc(t + copysign(0.5 - 2^-25, t)).
// (0.5 - 2^-25 is the largest float below 1/2: a half-integer t + it rounds up to the next
// integer, anything below a half-integer stays below it; proof in docs/block8.md.)
template <class V>
HWY_INLINE V RoundHalfAway(V t) {
  const hn::DFromV<V> d;
  return hn::Trunc(t + hn::CopySignToAbs(hn::Set(d, kJustBelowHalf), t));
}

// Zero levels are counted in per-lane int32 counts (a masked add per vector) that the caller sums
// once per row of tiles. (Not CountTrue per vector: GCC 12 spills AVX-512 masks with a 2-byte store
// and reloads them into a 64-bit popcnt, counting garbage bits — seen here in the streaming-store
// variant.) The count tag of a float tile has its lanes; that of an int16 tile, its int32 halves.
template <class D>
using CountTag = hn::Repartition<std::int32_t, D>;
template <class D>
HWY_INLINE void CountZeros(D d, hn::Vec<D> level, hn::Vec<CountTag<D>>& counts) {
  const CountTag<D> di;
  const auto zero = hn::RebindMask(di, hn::Eq(level, hn::Zero(d)));
  counts = hn::IfThenElse(zero, counts + hn::Set(di, 1), counts);  // one masked add on AVX-512
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
// Round half away from zero to int32 for int16 levels, NaN to 0 (as block8_quantize), at most
// 32767 (the int16 demotion saturates below). On AVX-512 the truncation is the conversion's own,
// and a zero-masking conversion clears NaN lanes: three instructions where the portable path
// (Trunc, NaN select, ConvertTo with its overflow fix-up) takes eight.
template <class D>
HWY_INLINE hn::Vec<hn::Rebind<std::int32_t, D>> RoundHalfAwayToI32(D d, hn::Vec<D> x) {
  const hn::Rebind<std::int32_t, D> di;
  const auto a =
      x + hn::CopySignToAbs(hn::Set(d, kJustBelowHalf), x);  // trunc(a): see RoundHalfAway
#if HWY_TARGET <= HWY_AVX3
  const auto m = hn::Min(a, hn::Set(d, 32767.0f)).raw;  // NaN lanes are masked off below
  constexpr std::size_t kBytes = hn::MaxLanes(D()) * sizeof(float);
  if constexpr (kBytes == 64) {
    return hn::Vec<decltype(di)>{
        _mm512_maskz_cvttps_epi32(_mm512_cmp_ps_mask(a.raw, a.raw, _CMP_ORD_Q), m)};
  } else if constexpr (kBytes == 32) {
    return hn::Vec<decltype(di)>{
        _mm256_maskz_cvttps_epi32(_mm256_cmp_ps_mask(a.raw, a.raw, _CMP_ORD_Q), m)};
  } else {
    static_assert(kBytes == 16, "float tiles of 4, 8 or 16 lanes");
    return hn::Vec<decltype(di)>{
        _mm_maskz_cvttps_epi32(_mm_cmp_ps_mask(a.raw, a.raw, _CMP_ORD_Q), m)};
  }
#else
  const auto level = hn::Trunc(a);
  return hn::ConvertTo(di, hn::IfThenZeroElse(hn::IsNaN(level), level));
#endif
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
// away from zero, NaN to 0, saturated to int16), stored in natural order. Decoder: levels times Q
// (exact in float), then the inverse as block8_inverse runs it.
template <std::size_t G, int kStream, class D>
HWY_INLINE void ForwardQuantizeTilesF32(D d, const float* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, const AanTables& t, const QuantF32& q,
                                        hn::Vec<CountTag<D>>& zeros, StreamCarry& sc) {
  const hn::Rebind<std::int32_t, D> di;
  Tile<D> r[G];
  ForwardPassesF32(d, in, is, r);
  ForEachTileVector<G, D>(
      r, [&](hn::Vec<D>& v, std::size_t i, std::size_t j) DCTX_BLOCK8_LAMBDA_INLINE {
        const auto level = RoundHalfAwayToI32(d, QuotientF32(d, v, t, q, i, j));
        CountZeros(di, level, zeros);
        v = hn::BitCast(d, level);  // transposed as 32-bit lanes
      });
  DCTX_BLOCK8_EACH(G) TransposeTile(d, r[g]);
#if HWY_TARGET <= HWY_AVX3
  if constexpr (G == 2 && hn::MaxLanes(D()) == 16) {
    // Both tiles' row i are 32 adjacent int16: one saturating pack (in 128-bit parts) and one
    // 64-bit permutation make the 64-byte row piece (two vpmovsdw cost twice the uops on Zen 4),
    // stored as every 64-byte row piece is (StoreRow: streamed when large, realigned or not).
    const hn::Full512<std::int16_t> d16x32;
    const __m512i order = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
    for (std::size_t i = 0; i < 8; ++i) {
      const auto packed =
          hn::ReorderDemote2To(d16x32, hn::BitCast(di, r[0][i][0]), hn::BitCast(di, r[1][i][0]));
      const hn::Vec<decltype(d16x32)> row{_mm512_permutexvar_epi64(order, packed.raw)};
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

// ---- int16 in 32-bit fixed point, Loeffler–Ligtenberg–Moschytz

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
#if HWY_TARGET == HWY_AVX3_DL
// sum + the sums of adjacent int16 products (vpdpwssd, AVX512-VNNI). Inline assembly: Highway
// 1.0.3's AVX3_DL target attributes name avxvnni, not avx512vnni, so the intrinsic is refused; the
// target's dispatch requires AVX512-VNNI.
template <class V32, class V16>
HWY_INLINE V32 DotAccumulate(V32 sum, V16 a, V16 b) {
  asm("vpdpwssd %2, %1, %0" : "+v"(sum.raw) : "v"(a.raw), "v"(b.raw));
  return sum;
}
#endif
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

// The fused pass's requantization (QuantI16) on 8 vectors of int16 coefficients, |c| <= 2^14,
// in place: dequantized values clamped to [kInvInMin, kInvInMax]; counts += zero levels.
// AVX-512 only (per-lane 16-bit shifts); elsewhere the int32 version runs.
#if HWY_TARGET <= HWY_AVX3
#define DCTX_BLOCK8_REQUANT16 1
// |level| of row i of a transposed tile of int16 coefficients: mulhi(2n, magic) >> l.
template <class D16>
HWY_INLINE hn::Vec<D16> LevelMagnitude16(D16 d16, const QuantI16& q, hn::Vec<D16> x,
                                         std::size_t i) {
  const hn::RebindToUnsigned<D16> du;
  const auto a = hn::Min(hn::Abs(x), hn::Set(d16, std::int16_t{kRequantMaxAbs}));
  const auto n2 = hn::BitCast(du, a + a) + hn::Load(du, q.half2_16.v + 32 * i);  // < 2^16
  return hn::BitCast(
      d16, hn::MulHigh(n2, hn::Load(du, q.magic_16.v + 32 * i)) >> hn::Load(du, q.l_16.v + 32 * i));
}
template <class D16>
HWY_INLINE void Requantize16(D16 d16, const QuantI16& q, hn::Vec<D16> (&x)[8],
                             hn::Vec<D16>& counts) {
  const hn::RebindToUnsigned<D16> du;
  const auto zero = hn::Zero(d16);
  for (std::size_t i = 0; i < 8; ++i) {
    const auto level = LevelMagnitude16(d16, q, x[i], i);
    counts = hn::IfThenElse(hn::Eq(level, zero), counts + hn::Set(d16, 1), counts);
    // level * Q <= |c| + floor(Q/2) < 2^15: exact in 16 bits.
    const auto m = hn::Min(level * hn::BitCast(d16, hn::Load(du, q.q_16.v + 32 * i)),
                           hn::Set(d16, std::int16_t{-kInvInMin}));
    x[i] = hn::Min(hn::IfThenElse(hn::Lt(x[i], zero), zero - m, m),
                   hn::Set(d16, std::int16_t{kInvInMax}));
  }
}
#else
#define DCTX_BLOCK8_REQUANT16 0
#endif

#else
#define DCTX_BLOCK8_PAIRED_PASS1 0
#define DCTX_BLOCK8_REQUANT16 0
#endif

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
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(LlmForward8<false>, h[g], 2);
#endif
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(LlmForward8<true>, h[g], 2);
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
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(LlmInverse8<false>, h[g], 2);
  DCTX_BLOCK8_EACH(G) TransposeTile(d32, h[g]);
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(LlmInverse8<true>, h[g], 2);
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
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(LlmInverse8<true>, h[g], 2);
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

// |level| of int32 coefficients c, |c| <= kRequantMaxAbs, with QuantI16's integer formula:
// ((|c| + floor(Q/2)) * magic) >> shift; `at` indexes the Table8x8Quads entries of these lanes.
template <class D32>
HWY_INLINE hn::Vec<D32> LevelMagnitude(D32 d32, hn::Vec<D32> c, const QuantI16& q, std::size_t at) {
  const auto n = hn::Min(hn::Abs(c), hn::Set(d32, kRequantMaxAbs)) + hn::Load(d32, q.half_q.v + at);
  return (n * hn::Load(d32, q.magic.v + at)) >> hn::Load(d32, q.shift.v + at);
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
  DCTX_BLOCK8_EACH(G) DCTX_BLOCK8_COLUMNS(LlmInverse8<true>, h[g], 2);
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

#undef DCTX_BLOCK8_COLUMNS
#undef DCTX_BLOCK8_EACH

// ---- Walking a region

// Tiles of the widest vector (up to kMaxLanes lanes of T), kGroup at a time while they fit, then
// one at a time, then narrower tiles for the remainder (every width a multiple of 8 columns):
// fn(d, std::integral_constant<std::size_t, g>, r, c) runs g tiles of tag d at row r, column c;
// row_done() follows each row of tiles. With `backward`, each row's tiles run right to left
// (same tiles, reverse order; see WalkBackward).
template <class T, std::size_t kMaxLanes, std::size_t kGroup, class Fn, class RowDone>
HWY_INLINE void ForEachTile(std::size_t rows, std::size_t cols, bool backward, Fn fn,
                            RowDone row_done) {
  using D1 = hn::CappedTag<T, kMaxLanes>;
  using D2 = hn::CappedTag<T, kMaxLanes / 2>;
  using D4 = hn::CappedTag<T, kMaxLanes / 4>;
  using One = std::integral_constant<std::size_t, 1>;
  using Group = std::integral_constant<std::size_t, kGroup>;
  constexpr std::size_t kCols1 = std::max<std::size_t>(8, hn::MaxLanes(D1()));
  constexpr std::size_t kCols2 = std::max<std::size_t>(8, hn::MaxLanes(D2()));
  constexpr bool kHave2 = kCols2 < kCols1;
  constexpr bool kHave4 = kMaxLanes / 4 >= 8 && hn::MaxLanes(D4()) < kCols2;
  // Where each kind of tile starts and ends along a row.
  const std::size_t end_groups = cols / (kGroup * kCols1) * (kGroup * kCols1);
  const std::size_t end_singles = cols / kCols1 * kCols1;
  const bool have2 = kHave2 && end_singles + kCols2 <= cols;
  const std::size_t at4 = end_singles + (have2 ? kCols2 : 0);
  const bool have4 = kHave4 && at4 < cols;  // 8 columns left
  for (std::size_t r = 0; r < rows; r += 8) {
    if (!backward) {
      for (std::size_t c = 0; c < end_groups; c += kGroup * kCols1) fn(D1(), Group(), r, c);
      for (std::size_t c = end_groups; c < end_singles; c += kCols1) fn(D1(), One(), r, c);
      if constexpr (kHave2) {
        if (have2) fn(D2(), One(), r, end_singles);
      }
      if constexpr (kHave4) {
        if (have4) fn(D4(), One(), r, at4);
      }
    } else {
      if constexpr (kHave4) {
        if (have4) fn(D4(), One(), r, at4);
      }
      if constexpr (kHave2) {
        if (have2) fn(D2(), One(), r, end_singles);
      }
      for (std::size_t c = end_singles; c > end_groups; c -= kCols1) fn(D1(), One(), r, c - kCols1);
      for (std::size_t c = end_groups; c > 0; c -= kGroup * kCols1)
        fn(D1(), Group(), r, c - kGroup * kCols1);
    }
    row_done();
  }
}

// Direction of the walk. A load whose address matches an earlier, still pending store's in the
// low 12 bits waits for that store on x86 cores ("4K aliasing"). Walking left to right, each
// call's loads run a few tiles ahead of the stores just issued, so an output that starts a little
// after the input modulo 4 KiB (0 < out - in < 2 KiB) makes every load wait; with row strides of
// whole 4 KiB (1024 or 2048 float columns) all eight rows of a tile do. Measured on Zen 4
// (1024^2 float forward): 2.5-3.4 Gpixel/s with out - in = 64..192 bytes, 4.5-5.5 otherwise.
// Walking right to left moves the hazard to out - in just below 4 KiB, so the walk picks the
// direction that keeps it away.
inline bool WalkBackward(const void* in, const void* out) {
  const std::uintptr_t delta =
      (reinterpret_cast<std::uintptr_t>(out) - reinterpret_cast<std::uintptr_t>(in)) % 4096;
  return delta != 0 && delta < 2048;
}

// Non-temporal stores pay off when the output is much larger than the caches and is not read
// again right away (a 4096^2 float plane is 64 MiB). They need the widest tiles to write whole
// 64-byte row pieces and the row stride to keep every row at the same place within a cache line;
// rows that start on a line take aligned stores (mode 1), rows 16, 32 or 48 bytes into one the
// realigned stores (mode 2, AVX-512; see StoreRow), anything else ordinary stores (mode 0). A row
// piece is one 64-byte vector of the output type T, whatever the tiles compute in (the float
// encoder packs two tiles' int16 levels into one).
inline constexpr std::size_t kStreamBytes = std::size_t{16} << 20;
template <class T>
HWY_INLINE int StoreMode(const T* out, std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(out) % 64;
  if (hn::MaxLanes(hn::CappedTag<T, 64 / sizeof(T)>()) * sizeof(T) < 64 ||
      rows * cols * sizeof(T) < kStreamBytes || (os * std::ptrdiff_t(sizeof(T))) % 64 != 0)
    return 0;
  if (at == 0) return 1;
  return DCTX_BLOCK8_REALIGNED_STREAM && at % 16 == 0 ? 2 : 0;
}

// Run fn(std::integral_constant<int, mode>) with the StoreMode of this output, then fence the
// non-temporal stores.
template <class T, class Fn>
HWY_INLINE void WithStores(const T* out, std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                           Fn fn) {
  switch (StoreMode(out, os, rows, cols)) {
    case 0: return fn(std::integral_constant<int, 0>());
    case 1: fn(std::integral_constant<int, 1>()); break;
#if DCTX_BLOCK8_REALIGNED_STREAM
    case 2: fn(std::integral_constant<int, 2>()); break;
#endif
  }
  hwy::FlushStream();
}

// Where a left-to-right walk's stores for a tile at `out` begin: the realigned mode stores the
// line that starts before it (WalkBackward's delta is taken from there).
template <int kStream>
HWY_INLINE const void* LineStart(const void* out) {
  const auto* p = static_cast<const std::uint8_t*>(out);
  return kStream == 2 ? p - reinterpret_cast<std::uintptr_t>(p) % 64 : p;
}
// The end of each row of tiles, for the realigned stores' carry.
template <int kStream>
HWY_INLINE void RowEnds(StreamCarry& sc) {
#if DCTX_BLOCK8_REALIGNED_STREAM
  if constexpr (kStream >= 2) FlushCarry(sc);
#endif
  (void)sc;
}

// Tiles per kernel call (see DCTX_BLOCK8_EACH), as measured on Zen 4 (512^2 plane): float tiles
// (8 vectors) two at a time on AVX2 and AVX-512 (AVX2, despite spills from its 16 registers:
// forward +5 %, inverse +11 %, fused +10 %); int16 tiles (16 int32 vectors) two at a time only in
// the AVX-512 transforms (no gain on AVX2; the fused kernel's spills cost more than the overlap
// gains: 1.73 against 1.65 Gpixel/s at 4096^2); 128-bit vectors one at a time.
template <class T, std::size_t kMaxLanes, bool kFused = false>
inline constexpr std::size_t kGroup =
    (sizeof(T) == 4 ? hn::MaxLanes(hn::CappedTag<T, kMaxLanes>()) * sizeof(T) >= 32
                    : hn::MaxLanes(hn::CappedTag<T, kMaxLanes>()) * sizeof(T) >= 64 && !kFused)
        ? 2
        : 1;

// Per-lane zero counts of one tile tag, summed into `total` after each row of tiles.
template <class D>
struct ZeroCounts {
  hn::Vec<D> v;
  HWY_INLINE ZeroCounts() : v(hn::Zero(D())) {}
  HWY_INLINE void Flush(std::uint64_t& total) {
    total += static_cast<std::uint64_t>(hn::GetLane(hn::SumOfLanes(D(), v)));
    v = hn::Zero(D());
  }
};

#endif  // DCTX_BLOCK8_HAVE_SIMD

// ---- Entry points (exported by simd.cc). Float tiles use up to 16 lanes, int16 tiles up to 32.

// Runs `call` (which names d, kG, kStream, sc, src and dst) over the region: tiles of T, up to
// kMaxLanes lanes, with the store mode StoreMode picks for the output.
#define DCTX_BLOCK8_WALK(T, kMaxLanes, kFused, row_done, ...)                             \
  WithStores(out, os, rows, cols, [&](auto stream) DCTX_BLOCK8_LAMBDA_INLINE {            \
    constexpr int kStream = decltype(stream)::value;                                      \
    StreamCarry sc;                                                                       \
    sc.backward = WalkBackward(in, LineStart<kStream>(out));                              \
    if constexpr (kStream == 2) sc.Start(reinterpret_cast<std::uintptr_t>(out) % 64);     \
    ForEachTile<T, kMaxLanes, kGroup<T, kMaxLanes, kFused>>(                              \
        rows, cols, sc.backward,                                                          \
        [&](auto d, auto group, std::size_t r, std::size_t c) DCTX_BLOCK8_LAMBDA_INLINE { \
          constexpr std::size_t kG = decltype(group)::value;                              \
          const auto* src = in + std::ptrdiff_t(r) * is + c;                              \
          auto* dst = out + std::ptrdiff_t(r) * os + c;                                   \
          __VA_ARGS__;                                                                    \
        },                                                                                \
        [&] {                                                                             \
          RowEnds<kStream>(sc);                                                           \
          row_done();                                                                     \
        });                                                                               \
  })

inline void ForwardF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                       std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  DCTX_BLOCK8_WALK(
      float, 16, false, [] {}, ForwardTilesF32<kG, kStream>(d, src, is, dst, os, t, sc));
#else
  scalar::ForwardF32(in, is, out, os, rows, cols);
#endif
}

inline void InverseF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                       std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  DCTX_BLOCK8_WALK(
      float, 16, false, [] {}, InverseTilesF32<kG, kStream>(d, src, is, dst, os, t, sc));
#else
  scalar::InverseF32(in, is, out, os, rows, cols);
#endif
}

// A fused walk: zero counts of the widest tiles accumulate over a row of tiles; the narrow
// remainder tiles' are summed at once. `call` names z, the counts to add to.
#define DCTX_BLOCK8_WALK_COUNTING_ZEROS(T, kMaxLanes, kFused, ...)                       \
  using DWide = CountTag<hn::CappedTag<T, kMaxLanes>>;                                   \
  std::uint64_t zeros = 0;                                                               \
  ZeroCounts<DWide> wide;                                                                \
  DCTX_BLOCK8_WALK(                                                                      \
      T, kMaxLanes, kFused, [&] { wide.Flush(zeros); },                                  \
      {                                                                                  \
        using DZ = CountTag<decltype(d)>;                                                \
        const auto run = [&](hn::Vec<DZ>& z) DCTX_BLOCK8_LAMBDA_INLINE { __VA_ARGS__; }; \
        if constexpr (std::is_same_v<DZ, DWide>) {                                       \
          run(wide.v);                                                                   \
        } else {                                                                         \
          ZeroCounts<DZ> narrow;                                                         \
          run(narrow.v);                                                                 \
          narrow.Flush(zeros);                                                           \
        }                                                                                \
      });                                                                                \
  return zeros

inline std::uint64_t RoundtripF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                                  std::size_t rows, std::size_t cols, const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  DCTX_BLOCK8_WALK_COUNTING_ZEROS(float, 16, true,
                                  RoundtripTilesF32<kG, kStream>(d, src, is, dst, os, t, q, z, sc));
#else
  return scalar::RoundtripF32(in, is, out, os, rows, cols, q);
#endif
}

inline void ForwardI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  DCTX_BLOCK8_WALK(
      std::int16_t, 32, false, [] {}, ForwardTilesI16<kG, kStream>(d, src, is, dst, os, sc));
#else
  scalar::ForwardI16(in, is, out, os, rows, cols);
#endif
}

inline void InverseI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  DCTX_BLOCK8_WALK(
      std::int16_t, 32, false, [] {}, InverseTilesI16<kG, kStream>(d, src, is, dst, os, sc));
#else
  scalar::InverseI16(in, is, out, os, rows, cols);
#endif
}

inline std::uint64_t RoundtripI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                  std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                  const QuantI16& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  DCTX_BLOCK8_WALK_COUNTING_ZEROS(std::int16_t, 32, true,
                                  RoundtripTilesI16<kG, kStream>(d, src, is, dst, os, q, z, sc));
#else
  return scalar::RoundtripI16(in, is, out, os, rows, cols, q);
#endif
}

inline std::uint64_t ForwardQuantizeF32(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                        const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  DCTX_BLOCK8_WALK_COUNTING_ZEROS(
      float, 16, true, ForwardQuantizeTilesF32<kG, kStream>(d, src, is, dst, os, t, q, z, sc));
#else
  return scalar::ForwardQuantizeF32(in, is, out, os, rows, cols, q);
#endif
}

inline void DequantizeInverseF32(const std::int16_t* in, std::ptrdiff_t is, float* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  DCTX_BLOCK8_WALK(
      float, 16, false, [] {},
      DequantizeInverseTilesF32<kG, kStream>(d, src, is, dst, os, t, q, sc));
#else
  scalar::DequantizeInverseF32(in, is, out, os, rows, cols, q);
#endif
}

inline std::uint64_t ForwardQuantizeI16(const std::int16_t* in, std::ptrdiff_t is,
                                        std::int16_t* out, std::ptrdiff_t os, std::size_t rows,
                                        std::size_t cols, const QuantI16& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  DCTX_BLOCK8_WALK_COUNTING_ZEROS(
      std::int16_t, 32, false, ForwardQuantizeTilesI16<kG, kStream>(d, src, is, dst, os, q, z, sc));
#else
  return scalar::ForwardQuantizeI16(in, is, out, os, rows, cols, q);
#endif
}

inline void DequantizeInverseI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantI16& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  DCTX_BLOCK8_WALK(
      std::int16_t, 32, false, [] {},
      DequantizeInverseTilesI16<kG, kStream>(d, src, is, dst, os, q, sc));
#else
  scalar::DequantizeInverseI16(in, is, out, os, rows, cols, q);
#endif
}

#undef DCTX_BLOCK8_WALK_COUNTING_ZEROS
#undef DCTX_BLOCK8_WALK

// ---- Quantization alone (block8_quantize, block8_dequantize) on regions with unit column
// stride, the table in natural order (QuantF32 built untransposed): element (r, c) takes entry
// (r % 8, c % 8), i.e. lanes c % 16 of the table's row r % 8 (each row stored twice).
#if DCTX_BLOCK8_HAVE_SIMD
// fn(d, r, c) over every row, widest float vectors first, then narrower ones (cols % 8 == 0).
template <class Fn>
HWY_INLINE void ForEachRowVector(std::size_t rows, std::size_t cols, Fn fn) {
  const hn::CappedTag<float, 16> d1;
  const hn::CappedTag<float, 8> d2;
  for (std::size_t r = 0; r < rows; ++r) {
    std::size_t c = 0;
    for (; c + hn::Lanes(d1) <= cols; c += hn::Lanes(d1)) fn(d1, r, c);
    for (; c < cols; c += hn::Lanes(d2)) fn(d2, r, c);
  }
}
template <class D>
HWY_INLINE hn::Vec<D> TableAt(D d, const Table8x16& t, std::size_t r, std::size_t c) {
  return hn::LoadU(d, t.v + (r % 8) * kTableStride + c % 16);
}
// out(r, c) = op(d, in(r, c) as floats, r, c) over the region.
template <class TI, class TO, class Op>
HWY_INLINE void ElementwiseRows(const TI* in, std::ptrdiff_t is, TO* out, std::ptrdiff_t os,
                                std::size_t rows, std::size_t cols, Op op) {
  ForEachRowVector(rows, cols, [&](auto d, std::size_t r, std::size_t c) DCTX_BLOCK8_LAMBDA_INLINE {
    StoreFrom(d, op(d, LoadAsFloat(d, in + std::ptrdiff_t(r) * is + c), r, c),
              out + std::ptrdiff_t(r) * os + c);
  });
}
#define DCTX_BLOCK8_ELEMENTWISE(...)                                \
  ElementwiseRows(in, is, out, os, rows, cols,                      \
                  [&](auto d, auto x, std::size_t r, std::size_t c) \
                      DCTX_BLOCK8_LAMBDA_INLINE { return __VA_ARGS__; })
#else
#define DCTX_BLOCK8_ELEMENTWISE(...)
#endif

// level = round_half_away(c * (1/Q)), NaN to 0, saturated to int16.
inline void QuantizeF32(const float* in, std::ptrdiff_t is, std::int16_t* out, std::ptrdiff_t os,
                        std::size_t rows, std::size_t cols, const QuantF32& q) {
  if (!DCTX_BLOCK8_HAVE_SIMD) return scalar::QuantizeF32(in, is, out, os, rows, cols, q);
  DCTX_BLOCK8_ELEMENTWISE(RoundHalfAwayToI32(d, x * TableAt(d, q.recip, r, c)));
}
// level = round_half_away(c / Q) exactly: the float quotient of two int16 values is correctly
// rounded and no closer to a half-integer than 1/(2Q), more than half an ulp, so it rounds the
// same way as the exact quotient.
inline void QuantizeI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                        std::ptrdiff_t os, std::size_t rows, std::size_t cols, const QuantF32& q) {
  if (!DCTX_BLOCK8_HAVE_SIMD) return scalar::QuantizeI16(in, is, out, os, rows, cols, q);
  DCTX_BLOCK8_ELEMENTWISE(RoundHalfAwayToI32(d, x / TableAt(d, q.q, r, c)));
}
// c = level * Q (exact in float).
inline void DequantizeF32(const std::int16_t* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                          std::size_t rows, std::size_t cols, const QuantF32& q) {
  if (!DCTX_BLOCK8_HAVE_SIMD) return scalar::DequantizeF32(in, is, out, os, rows, cols, q);
  DCTX_BLOCK8_ELEMENTWISE(x * TableAt(d, q.q, r, c));
}
// c = level * Q saturated to int16 (the float product is exact up to 2^24, far past saturation).
inline void DequantizeI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                          std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                          const QuantF32& q) {
  if (!DCTX_BLOCK8_HAVE_SIMD) return scalar::DequantizeI16(in, is, out, os, rows, cols, q);
  DCTX_BLOCK8_ELEMENTWISE(hn::ConvertTo(
      hn::Rebind<std::int32_t, decltype(d)>(),
      hn::Min(hn::Max(x * TableAt(d, q.q, r, c), hn::Set(d, -32768.0f)), hn::Set(d, 32767.0f))));
}
#undef DCTX_BLOCK8_ELEMENTWISE

// Seed 000's luma, Y = (313524 R + 615514 G + 119537 B + 524288) >> 20, on interleaved RGB.
inline void LumaRgb8(const std::uint8_t* rgb, std::uint8_t* y, std::size_t n) {
  std::size_t i = 0;
#if DCTX_BLOCK8_HAVE_SIMD
  const hn::CappedTag<std::uint32_t, 16> d32;
  const hn::Rebind<std::uint8_t, decltype(d32)> d8;
  const std::size_t lanes = hn::Lanes(d32);
  for (; i + lanes <= n; i += lanes) {
    hn::Vec<decltype(d8)> r, g, b;
    hn::LoadInterleaved3(d8, rgb + 3 * i, r, g, b);
    auto acc = hn::PromoteTo(d32, r) * hn::Set(d32, 313524u) + hn::Set(d32, 524288u);
    acc = acc + hn::PromoteTo(d32, g) * hn::Set(d32, 615514u);
    acc = acc + hn::PromoteTo(d32, b) * hn::Set(d32, 119537u);
    hn::StoreU(hn::U8FromU32(hn::ShiftRight<20>(acc)), d8, y + i);  // values <= 255
  }
#endif
  for (; i < n; ++i)
    y[i] = static_cast<std::uint8_t>(
        (313524u * rgb[3 * i] + 615514u * rgb[3 * i + 1] + 119537u * rgb[3 * i + 2] + 524288u) >>
        20);
}

// 8-bit samples to level-shifted floats (v - 128) and back (+128, round half up, clamp to
// 0..255: half away from zero there) — the pipeline's conversions.
inline void U8ToCenteredF32(const std::uint8_t* in, float* out, std::size_t n) {
  std::size_t i = 0;
#if DCTX_BLOCK8_HAVE_SIMD
  const hn::CappedTag<float, 16> df;
  const hn::Rebind<std::int32_t, decltype(df)> d32;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  for (; i + hn::Lanes(df) <= n; i += hn::Lanes(df)) {
    const auto v = hn::BitCast(
        d32, hn::PromoteTo(hn::Rebind<std::uint32_t, decltype(df)>(), hn::LoadU(d8, in + i)));
    hn::StoreU(hn::ConvertTo(df, v) - hn::Set(df, 128.0f), df, out + i);
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<float>(in[i]) - 128.0f;
}
inline void CenteredF32ToU8(const float* in, std::uint8_t* out, std::size_t n) {
  std::size_t i = 0;
#if DCTX_BLOCK8_HAVE_SIMD
  const hn::CappedTag<float, 16> df;
  const hn::Rebind<std::int32_t, decltype(df)> d32;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  for (; i + hn::Lanes(df) <= n; i += hn::Lanes(df)) {
    auto v = hn::LoadU(df, in + i) + hn::Set(df, 128.0f);
    v = hn::Min(hn::Max(v, hn::Zero(df)), hn::Set(df, 255.0f)) + hn::Set(df, kJustBelowHalf);
    const auto u = hn::BitCast(hn::Rebind<std::uint32_t, decltype(df)>(), hn::ConvertTo(d32, v));
    hn::StoreU(hn::U8FromU32(u), d8, out + i);
  }
#endif
  for (; i < n; ++i) {
    const float v = std::min(std::max(in[i] + 128.0f, 0.0f), 255.0f) + kJustBelowHalf;
    out[i] = static_cast<std::uint8_t>(static_cast<int>(v));
  }
}

#undef DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // DCTX_BLOCK8_INL_H_ toggle guard
