// SPDX-License-Identifier: BSD-3-Clause
// How the block kernels walk a region of a plane: tiles of the widest vector, in groups while
// they fit, then narrower ones; the direction of each row's walk (4K aliasing); the store mode;
// the zero counts of the fused kernels.

#if defined(DCTX_CPU_BLOCK8_WALK_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_BLOCK8_WALK_INL_H_
#undef DCTX_CPU_BLOCK8_WALK_INL_H_
#else
#define DCTX_CPU_BLOCK8_WALK_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "core/block8_backend.hpp"
#include "cpu/block8/requantize-inl.h"
#include "cpu/block8/stores-inl.h"
#include "cpu/block8/tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if DCTX_BLOCK8_HAVE_SIMD

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
// whole 4 KiB (1024 or 2048 float columns) all eight rows of a tile do (docs/block8.md has the
// figures). Walking right to left moves the hazard to out - in just below 4 KiB, so the walk picks
// the direction that keeps it away.
inline bool WalkBackward(const void* in, const void* out) {
  const std::uintptr_t delta =
      (reinterpret_cast<std::uintptr_t>(out) - reinterpret_cast<std::uintptr_t>(in)) % 4096;
  return delta != 0 && delta < 2048;
}

// Tiles per kernel call (see DCTX_BLOCK8_EACH), chosen by measurement (docs/block8.md): float
// tiles (8 vectors) two at a time on AVX2 and AVX-512, despite AVX2's spills; int16 tiles (16
// int32 vectors) two at a time only in the AVX-512 transforms (the fused kernel's spills cost
// more than the overlap gains); 128-bit vectors one at a time.
template <class T, std::size_t kMaxLanes, bool kFused = false>
inline constexpr std::size_t kGroup =
    (sizeof(T) == 4 ? hn::MaxLanes(hn::CappedTag<T, kMaxLanes>()) * sizeof(T) >= 32
                    : hn::MaxLanes(hn::CappedTag<T, kMaxLanes>()) * sizeof(T) >= 64 && !kFused)
        ? 2
        : 1;

// Per-lane counts of one tile tag, summed after each row of tiles: zero levels, and NaN
// coefficients met by a float-to-level conversion (a NaN has no level).
template <class D>
struct LevelCounts {
  hn::Vec<D> zeros, nans;
  HWY_INLINE LevelCounts() : zeros(hn::Zero(D())), nans(hn::Zero(D())) {}
  HWY_INLINE void Flush(std::uint64_t& total, bool& nan) {
    total += static_cast<std::uint64_t>(hn::GetLane(hn::SumOfLanes(D(), zeros)));
    nan |= hn::GetLane(hn::SumOfLanes(D(), nans)) != 0;
    zeros = hn::Zero(D());
    nans = hn::Zero(D());
  }
};

// Walks a region of rows x cols (multiples of 8, unit column stride, row strides is and os) in
// tiles of T of up to kMaxLanes lanes, with the store mode StoreMode picks for the output:
// tiles(d, group, stream, src, dst, sc) runs the tiles of one group (group and stream are
// std::integral_constants: the number of tiles and the store mode) from src into dst;
// row_done() follows each row of tiles.
template <class T, std::size_t kMaxLanes, bool kFused, class TI, class TO, class Tiles,
          class RowDone>
HWY_INLINE void Walk(const TI* in, std::ptrdiff_t is, TO* out, std::ptrdiff_t os, std::size_t rows,
                     std::size_t cols, Tiles tiles, RowDone row_done) {
  WithStores(out, os, rows, cols, [&](auto stream) DCTX_BLOCK8_LAMBDA_INLINE {
    constexpr int kStream = decltype(stream)::value;
    StreamCarry sc;
    sc.backward = WalkBackward(in, LineStart<kStream>(out));
    if constexpr (kStream == 2) sc.Start(reinterpret_cast<std::uintptr_t>(out) % 64);
    ForEachTile<T, kMaxLanes, kGroup<T, kMaxLanes, kFused>>(
        rows, cols, sc.backward,
        [&](auto d, auto group, std::size_t r, std::size_t c) DCTX_BLOCK8_LAMBDA_INLINE {
          tiles(d, group, stream, in + std::ptrdiff_t(r) * is + c, out + std::ptrdiff_t(r) * os + c,
                sc);
        },
        [&] {
          RowEnds<kStream>(sc);
          row_done();
        });
  });
}

// Walk for the kernels that count zero levels: tiles(d, group, stream, src, dst, sc, z) adds the
// zero levels (and NaN coefficients) of its tiles to the per-lane LevelCounts z of its count tag.
// The widest tiles' counts are summed once per row of tiles, the narrow remainder tiles' at once.
// Returns the zero count, with detail::kNaNCoefficient set when a NaN was counted.
template <class T, std::size_t kMaxLanes, bool kFused, class TI, class TO, class Tiles>
HWY_INLINE std::uint64_t WalkCountingZeros(const TI* in, std::ptrdiff_t is, TO* out,
                                           std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                           Tiles tiles) {
  using DWide = CountTag<hn::CappedTag<T, kMaxLanes>>;
  std::uint64_t zeros = 0;
  bool nan = false;
  LevelCounts<DWide> wide;
  Walk<T, kMaxLanes, kFused>(
      in, is, out, os, rows, cols,
      [&](auto d, auto group, auto stream, const TI* src, TO* dst, StreamCarry& sc)
          DCTX_BLOCK8_LAMBDA_INLINE {
            using DZ = CountTag<decltype(d)>;
            if constexpr (std::is_same_v<DZ, DWide>) {
              tiles(d, group, stream, src, dst, sc, wide);
            } else {
              LevelCounts<DZ> narrow;
              tiles(d, group, stream, src, dst, sc, narrow);
              narrow.Flush(zeros, nan);
            }
          },
      [&] { wide.Flush(zeros, nan); });
  return zeros | (nan ? detail::kNaNCoefficient : 0);
}

#endif  // DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
