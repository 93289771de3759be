// Per-target SIMD kernels of the 8x8 block engine (compiled once per Highway target by simd.cc).
//
// Layout: a "tile" is 8 rows of one or two horizontally adjacent 8x8 blocks held in registers,
// r[row][k] with kV vectors per row: 16-lane vectors (AVX-512) hold one row of two blocks, 8-lane
// vectors (AVX2) one row of one block, 4-lane vectors (SSE4, NEON, EMU128) half a row. A 1D pass
// along columns runs the flowgraph on whole vectors (each lane its own column — "vectorise across
// columns", as pocketfft and libjxl do); the pass along rows is the same code after an in-register
// 8x8 transpose. Both forward and inverse use two transposes per block:
//   forward  = columns, transpose, columns, scale, transpose       (gives C)
//   inverse  = transpose, scale, columns, transpose, columns       (from C)
//   fused    = columns, transpose, columns, scale+quantize+dequantize+scale, columns, transpose,
//              columns — the transposed coefficients never leave the registers.

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
  HWY_INLINE V Sra(V v) const { return hn::ShiftRight<k>(v); }
  template <int k>
  HWY_INLINE V Shl(V v) const { return hn::ShiftLeft<k>(v); }
};

template <class D>
struct Geom {
  static constexpr std::size_t kLanes = hn::MaxLanes(D());
  static constexpr std::size_t kV = kLanes >= 8 ? 1 : 8 / kLanes;  // vectors per tile row
  static constexpr std::size_t kCols = kLanes * kV;                 // 8 or 16 columns per tile
};

template <class D>
using Tile = hn::Vec<D>[8][Geom<D>::kV];

// 4x4 transposes inside every 128-bit quarter of a, b, c, e (32-bit lanes).
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

// Transpose every 8x8 block of the tile: transpose the four 4x4 sub-blocks in place, then swap
// the two off-diagonal ones (rows 0-3 x cols 4-7 with rows 4-7 x cols 0-3).
template <class D>
HWY_INLINE void TransposeTile(D d, Tile<D>& r) {
  constexpr std::size_t kV = Geom<D>::kV;
  for (std::size_t j = 0; j < kV; ++j) {
    Transpose4x4InQuads(d, r[0][j], r[1][j], r[2][j], r[3][j]);
    Transpose4x4InQuads(d, r[4][j], r[5][j], r[6][j], r[7][j]);
  }
  if constexpr (kV == 2) {  // quarters are whole vectors: the swap is a renaming
    for (std::size_t i = 0; i < 4; ++i) {
      const auto t = r[i][1];
      r[i][1] = r[4 + i][0];
      r[4 + i][0] = t;
    }
  } else if constexpr (Geom<D>::kLanes == 8) {  // one block per vector
    for (std::size_t i = 0; i < 4; ++i) {
      const auto a = r[i][0], b = r[4 + i][0];
      r[i][0] = hn::ConcatLowerLower(d, b, a);
      r[4 + i][0] = hn::ConcatUpperUpper(d, b, a);
    }
  } else {  // two blocks per vector: exchange quarters within each 256-bit half
    for (std::size_t i = 0; i < 4; ++i) {
      const auto a = r[i][0], b = r[4 + i][0];
      r[i][0] = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(b), a);
      r[4 + i][0] = hn::OddEvenBlocks(b, hn::SwapAdjacentBlocks(a));
    }
  }
}

#define DCTX_BLOCK8_COLUMNS(call)                                                   \
  for (std::size_t j = 0; j < Geom<D>::kV; ++j)                                     \
  call(o, r[0][j], r[1][j], r[2][j], r[3][j], r[4][j], r[5][j], r[6][j], r[7][j])

template <class D>
HWY_INLINE void LoadTile(D d, const float* p, std::ptrdiff_t stride, Tile<D>& r) {
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j)
      r[i][j] = hn::LoadU(d, p + std::ptrdiff_t(i) * stride + j * Geom<D>::kLanes);
}
// kStream: non-temporal stores (the caller checked alignment), for outputs larger than the caches.
template <bool kStream, class D, class T>
HWY_INLINE void StoreVec(D d, hn::Vec<D> v, T* p) {
  if constexpr (kStream) {
    hn::Stream(v, d, p);
  } else {
    hn::StoreU(v, d, p);
  }
}
template <bool kStream, class D>
HWY_INLINE void StoreTile(D d, const Tile<D>& r, float* p, std::ptrdiff_t stride) {
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j)
      StoreVec<kStream>(d, r[i][j], p + std::ptrdiff_t(i) * stride + j * Geom<D>::kLanes);
}
// int16 samples widen to int32 lanes, clamped to the fixed-point kernel's input domain.
template <class D>
HWY_INLINE void LoadTile(D d, const std::int16_t* p, std::ptrdiff_t stride, Tile<D>& r,
                         std::int32_t lo, std::int32_t hi) {
  const hn::Rebind<std::int16_t, D> d16;
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j) {
      const auto v = hn::PromoteTo(
          d, hn::LoadU(d16, p + std::ptrdiff_t(i) * stride + j * Geom<D>::kLanes));
      r[i][j] = hn::Min(hn::Max(v, hn::Set(d, lo)), hn::Set(d, hi));
    }
}
template <bool kStream, class D>
HWY_INLINE void StoreTile(D d, const Tile<D>& r, std::int16_t* p, std::ptrdiff_t stride) {
  const hn::Rebind<std::int16_t, D> d16;
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j)
      StoreVec<kStream>(d16, hn::DemoteTo(d16, r[i][j]), p + std::ptrdiff_t(i) * stride + j * Geom<D>::kLanes);
}
template <class D>
HWY_INLINE hn::Vec<D> TableRow(D d, const Table8x16& t, std::size_t i, std::size_t j) {
  return hn::Load(d, t.v + i * kTableStride + j * Geom<D>::kLanes);
}

// ---- float32, Arai–Agui–Nakajima

template <bool kStream, class D>
HWY_INLINE void ForwardTileF32(D d, const float* in, std::ptrdiff_t is, float* out,
                               std::ptrdiff_t os, const AanTables& t) {
  const OpsF<D> o{d};
  Tile<D> r;
  LoadTile(d, in, is, r);
  DCTX_BLOCK8_COLUMNS(AanForward8);
  TransposeTile(d, r);
  DCTX_BLOCK8_COLUMNS(AanForward8);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j) r[i][j] = r[i][j] * TableRow(d, t.fwd, i, j);
  TransposeTile(d, r);
  StoreTile<kStream>(d, r, out, os);
}

template <bool kStream, class D>
HWY_INLINE void InverseTileF32(D d, const float* in, std::ptrdiff_t is, float* out,
                               std::ptrdiff_t os, const AanTables& t) {
  const OpsF<D> o{d};
  Tile<D> r;
  LoadTile(d, in, is, r);
  TransposeTile(d, r);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j) r[i][j] = r[i][j] * TableRow(d, t.inv, i, j);
  DCTX_BLOCK8_COLUMNS(AanInverse8);
  TransposeTile(d, r);
  DCTX_BLOCK8_COLUMNS(AanInverse8);
  StoreTile<kStream>(d, r, out, os);
}

// Round half away from zero, exactly: trunc(t) + trunc(2 (t - trunc(t))).
template <class V>
HWY_INLINE V RoundHalfAway(V t) {
  const V whole = hn::Trunc(t);
  const V frac = t - whole;
  return whole + hn::Trunc(frac + frac);
}

template <bool kStream, class D>
HWY_INLINE std::size_t RoundtripTileF32(D d, const float* in, std::ptrdiff_t is, float* out,
                                        std::ptrdiff_t os, const AanTables& t,
                                        const QuantF32& q) {
  const OpsF<D> o{d};
  Tile<D> r;
  LoadTile(d, in, is, r);
  DCTX_BLOCK8_COLUMNS(AanForward8);
  TransposeTile(d, r);
  DCTX_BLOCK8_COLUMNS(AanForward8);
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j) {
      const auto c = r[i][j] * TableRow(d, t.fwd, i, j);  // the coefficient, as block8_forward
      const auto level = RoundHalfAway(c * TableRow(d, q.recip, i, j));
      zeros += hn::CountTrue(d, hn::Eq(level, hn::Zero(d)));
      r[i][j] = (level * TableRow(d, q.q, i, j)) * TableRow(d, t.inv, i, j);
    }
  DCTX_BLOCK8_COLUMNS(AanInverse8);
  TransposeTile(d, r);
  DCTX_BLOCK8_COLUMNS(AanInverse8);
  StoreTile<kStream>(d, r, out, os);
  return zeros;
}

// ---- int16 in 32-bit fixed point, Loeffler–Ligtenberg–Moschytz

template <bool kStream, class D>
HWY_INLINE void ForwardTileI16(D d, const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                               std::ptrdiff_t os) {
  const OpsI<D> o{d};
  Tile<D> r;
  LoadTile(d, in, is, r, kFwdInMin, kFwdInMax);
  DCTX_BLOCK8_COLUMNS(LlmForward8<false>);
  TransposeTile(d, r);
  DCTX_BLOCK8_COLUMNS(LlmForward8<true>);
  TransposeTile(d, r);
  StoreTile<kStream>(d, r, out, os);
}

template <class D>
HWY_INLINE void InverseRowsColumnsI(D d, Tile<D>& r) {
  const OpsI<D> o{d};
  DCTX_BLOCK8_COLUMNS(LlmInverse8<false>);
  TransposeTile(d, r);
  DCTX_BLOCK8_COLUMNS(LlmInverse8<true>);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j)
      r[i][j] = hn::Min(hn::Max(r[i][j], hn::Set(d, kInvOutMin)), hn::Set(d, kInvOutMax));
}

template <bool kStream, class D>
HWY_INLINE void InverseTileI16(D d, const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                               std::ptrdiff_t os) {
  Tile<D> r;
  LoadTile(d, in, is, r, kInvInMin, kInvInMax);
  TransposeTile(d, r);
  InverseRowsColumnsI(d, r);
  StoreTile<kStream>(d, r, out, os);
}

template <bool kStream, class D>
HWY_INLINE std::size_t RoundtripTileI16(D d, const std::int16_t* in, std::ptrdiff_t is,
                                        std::int16_t* out, std::ptrdiff_t os, const QuantI16& q) {
  const OpsI<D> o{d};
  const hn::Rebind<float, D> df;
  Tile<D> r;
  LoadTile(d, in, is, r, kFwdInMin, kFwdInMax);
  DCTX_BLOCK8_COLUMNS(LlmForward8<false>);
  TransposeTile(d, r);
  DCTX_BLOCK8_COLUMNS(LlmForward8<true>);
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < Geom<D>::kV; ++j) {
      // level = floor((2|c| + Q + 1/2) * fl(1/(2Q))) = round_half_away(c / Q), exactly.
      const auto c = hn::ConvertTo(df, r[i][j]);
      const auto a = hn::MulAdd(hn::Abs(c), hn::Set(df, 2.0f), TableRow(df, q.q_half, i, j));
      const auto level = hn::Floor(a * TableRow(df, q.recip_2q, i, j));
      zeros += hn::CountTrue(df, hn::Eq(level, hn::Zero(df)));
      const auto deq = hn::CopySignToAbs(level * TableRow(df, q.q, i, j), c);
      r[i][j] = hn::Min(hn::Max(hn::ConvertTo(d, deq), hn::Set(d, kInvInMin)), hn::Set(d, kInvInMax));
    }
  InverseRowsColumnsI(d, r);
  StoreTile<kStream>(d, r, out, os);
  return zeros;
}

#undef DCTX_BLOCK8_COLUMNS

// Walk a region tile by tile: full-width tiles, then (16-lane targets) an 8-column tail.
template <class T, class Fn>
HWY_INLINE void ForEachTile(std::size_t rows, std::size_t cols, Fn fn) {
  using DFull = hn::CappedTag<T, 16>;
  using DHalf = hn::CappedTag<T, 8>;
  constexpr std::size_t kStep = Geom<DFull>::kCols;
  for (std::size_t r = 0; r < rows; r += 8) {
    std::size_t c = 0;
    for (; c + kStep <= cols; c += kStep) fn(DFull(), r, c);
    if constexpr (kStep > 8) {
      if (c < cols) fn(DHalf(), r, c);
    }
  }
}

// Non-temporal stores pay off when the output is much larger than the caches and is not read
// again right away (a 4096^2 float plane is 64 MiB); they need every stored vector aligned, which
// holds when the output and its row stride are 64-byte aligned and each stored row piece spans
// at least 16 bytes.
inline constexpr std::size_t kStreamBytes = std::size_t{16} << 20;
template <class TOut, class TLane>
bool UseStream(const TOut* out, std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
  using DFull = hn::CappedTag<TLane, 16>;
  return rows * cols * sizeof(TOut) >= kStreamBytes && reinterpret_cast<std::uintptr_t>(out) % 64 == 0 &&
         (os * std::ptrdiff_t(sizeof(TOut))) % 64 == 0 &&
         std::min<std::size_t>(8, hn::MaxLanes(DFull())) * sizeof(TOut) >= 16;
}

// Run fn(std::bool_constant<kStream>) with streaming stores when UseStream says so.
template <class TOut, class TLane, class Fn>
HWY_INLINE void WithStores(const TOut* out, std::ptrdiff_t os, std::size_t rows, std::size_t cols, Fn fn) {
  if (UseStream<TOut, TLane>(out, os, rows, cols)) {
    fn(std::true_type());
    hwy::FlushStream();
  } else {
    fn(std::false_type());
  }
}

#endif  // DCTX_BLOCK8_HAVE_SIMD

// ---- Entry points (exported by simd.cc)

inline void ForwardF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                       std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  WithStores<float, float>(out, os, rows, cols, [&](auto stream) {
    ForEachTile<float>(rows, cols, [&](auto d, std::size_t r, std::size_t c) {
      ForwardTileF32<decltype(stream)::value>(d, in + std::ptrdiff_t(r) * is + c, is, out + std::ptrdiff_t(r) * os + c, os, t);
    });
  });
#else
  scalar::ForwardF32(in, is, out, os, rows, cols);
#endif
}

inline void InverseF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                       std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  WithStores<float, float>(out, os, rows, cols, [&](auto stream) {
    ForEachTile<float>(rows, cols, [&](auto d, std::size_t r, std::size_t c) {
      InverseTileF32<decltype(stream)::value>(d, in + std::ptrdiff_t(r) * is + c, is, out + std::ptrdiff_t(r) * os + c, os, t);
    });
  });
#else
  scalar::InverseF32(in, is, out, os, rows, cols);
#endif
}

inline std::uint64_t RoundtripF32(const float* in, std::ptrdiff_t is, float* out,
                                  std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                  const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  std::uint64_t zeros = 0;
  WithStores<float, float>(out, os, rows, cols, [&](auto stream) {
    ForEachTile<float>(rows, cols, [&](auto d, std::size_t r, std::size_t c) {
      zeros += RoundtripTileF32<decltype(stream)::value>(d, in + std::ptrdiff_t(r) * is + c, is,
                                          out + std::ptrdiff_t(r) * os + c, os, t, q);
    });
  });
  return zeros;
#else
  return scalar::RoundtripF32(in, is, out, os, rows, cols, q);
#endif
}

inline void ForwardI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  WithStores<std::int16_t, std::int32_t>(out, os, rows, cols, [&](auto stream) {
    ForEachTile<std::int32_t>(rows, cols, [&](auto d, std::size_t r, std::size_t c) {
      ForwardTileI16<decltype(stream)::value>(d, in + std::ptrdiff_t(r) * is + c, is, out + std::ptrdiff_t(r) * os + c, os);
    });
  });
#else
  scalar::ForwardI16(in, is, out, os, rows, cols);
#endif
}

inline void InverseI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  WithStores<std::int16_t, std::int32_t>(out, os, rows, cols, [&](auto stream) {
    ForEachTile<std::int32_t>(rows, cols, [&](auto d, std::size_t r, std::size_t c) {
      InverseTileI16<decltype(stream)::value>(d, in + std::ptrdiff_t(r) * is + c, is, out + std::ptrdiff_t(r) * os + c, os);
    });
  });
#else
  scalar::InverseI16(in, is, out, os, rows, cols);
#endif
}

inline std::uint64_t RoundtripI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                  std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                  const QuantI16& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  std::uint64_t zeros = 0;
  WithStores<std::int16_t, std::int32_t>(out, os, rows, cols, [&](auto stream) {
    ForEachTile<std::int32_t>(rows, cols, [&](auto d, std::size_t r, std::size_t c) {
      zeros += RoundtripTileI16<decltype(stream)::value>(d, in + std::ptrdiff_t(r) * is + c, is,
                                          out + std::ptrdiff_t(r) * os + c, os, q);
    });
  });
  return zeros;
#else
  return scalar::RoundtripI16(in, is, out, os, rows, cols, q);
#endif
}

#undef DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // DCTX_BLOCK8_INL_H_ toggle guard
