// SPDX-License-Identifier: BSD-3-Clause
// The vocabulary every SIMD block kernel shares (compiled per target through simd_*.cc): tiles
// and their geometry, the flowgraph operations on vectors, running a flowgraph down a tile's
// columns, and loads and stores of float or int16 elements as float vectors.
//
// A "tile" is 8 rows of one to four horizontally adjacent 8x8 blocks held in registers. A 1D pass
// along columns runs the flowgraph on whole vectors, each lane its own column ("vectorise across
// columns", as pocketfft and libjxl do); the pass along rows is the same code after an
// in-register 8x8 transpose (transpose-inl.h). Float tiles (aan-inl.h): r[row][k] with kV
// vectors per row: 16-lane vectors (AVX-512) hold one row of two blocks, 8-lane vectors (AVX2)
// one block row, 4-lane vectors (SSE4, NEON) half a block row. int16 tiles (llm-inl.h) use a
// "split" layout of int32 vectors.

#if defined(DCTX_CPU_BLOCK8_TILE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_BLOCK8_TILE_INL_H_
#undef DCTX_CPU_BLOCK8_TILE_INL_H_
#else
#define DCTX_CPU_BLOCK8_TILE_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "block8/constants.hpp"
#include "cpu/block8/kernels.hpp"
#include "cpu/block8/x86-inl.h"

// The per-tile lambdas must be inlined into the tile loops so that the flowgraph constants are
// materialised once per call rather than once per tile.
#ifndef DCTX_BLOCK8_LAMBDA_INLINE
#define DCTX_BLOCK8_LAMBDA_INLINE __attribute__((always_inline))
#endif

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#include "cpu/block8/flowgraphs.inc"

// Fixed-size vectors are needed for the in-register transposes; scalable (SVE, RVV) and
// single-lane targets use the scalar kernels (scalar.hpp).
#undef DCTX_BLOCK8_HAVE_SIMD
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
#if DCTX_BLOCK8_HAVE_OPAQUE
  // 1.0 hidden from the optimiser, which would turn a*1 + b back into an addition.
  V one = Opaque(hn::Set(D(), 1.0f));
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

// The flowgraphs of flowgraphs.inc as types, for Columns.
struct AanForwardFlow {
  template <class Ops, class V>
  HWY_INLINE void operator()(const Ops& o, V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6,
                             V& x7) const {
    AanForward8(o, x0, x1, x2, x3, x4, x5, x6, x7);
  }
};
struct AanInverseFlow {
  template <class Ops, class V>
  HWY_INLINE void operator()(const Ops& o, V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6,
                             V& x7) const {
    AanInverse8(o, x0, x1, x2, x3, x4, x5, x6, x7);
  }
};
template <bool kFinal>
struct LlmForwardFlow {
  template <class Ops, class V>
  HWY_INLINE void operator()(const Ops& o, V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6,
                             V& x7) const {
    LlmForward8<kFinal>(o, x0, x1, x2, x3, x4, x5, x6, x7);
  }
};
template <bool kFinal>
struct LlmInverseFlow {
  template <class Ops, class V>
  HWY_INLINE void operator()(const Ops& o, V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6,
                             V& x7) const {
    LlmInverse8<kFinal>(o, x0, x1, x2, x3, x4, x5, x6, x7);
  }
};

// Runs the 1D flowgraph Flow down every vector column of a tile (rows 0..7 of column j).
template <class Flow, class Ops, class V, std::size_t kV>
HWY_INLINE void Columns(const Ops& o, V (&r)[8][kV]) {
  for (std::size_t j = 0; j < kV; ++j)
    Flow()(o, r[0][j], r[1][j], r[2][j], r[3][j], r[4][j], r[5][j], r[6][j], r[7][j]);
}

// A kernel call runs G independent tiles side by side, stage by stage. One tile's flowgraphs,
// transposes and quantization form a chain of about 150 dependent cycles, longer than the
// out-of-order window reaches, so consecutive tiles hardly overlap unless the code interleaves
// them (docs/block8.md has the gain of G = 2).
#define DCTX_BLOCK8_EACH(G) HWY_UNROLL(4) for (std::size_t g = 0; g < (G); ++g)

template <class D>
inline constexpr std::size_t kTileCols = Geom<D>::kLanes < 8 ? 8 : Geom<D>::kLanes;

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

#endif  // DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
