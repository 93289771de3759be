// SPDX-License-Identifier: BSD-3-Clause
// How the block kernels store their tiles' rows: ordinary stores, non-temporal stores of whole
// cache lines for large outputs whose rows start on a line, and realigned non-temporal stores
// (AVX-512) for rows that start 16, 32 or 48 bytes into one; the store mode of a call and the
// carry that the realigned stores keep between neighbouring tiles.

#if defined(DCTX_CPU_BLOCK8_STORES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_BLOCK8_STORES_INL_H_
#undef DCTX_CPU_BLOCK8_STORES_INL_H_
#else
#define DCTX_CPU_BLOCK8_STORES_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "cpu/block8/tile-inl.h"
#include "cpu/block8/x86-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if DCTX_BLOCK8_HAVE_SIMD

// How tiles store their rows (StoreMode picks it per call): 0 ordinary stores; 1 non-temporal
// stores, the rows starting on cache lines; 2 non-temporal stores of whole cache lines when the
// rows start 16, 32 or 48 bytes into one (numpy and malloc align to 16 bytes). Then every 64-byte
// row piece of a tile straddles two lines: each line is assembled in a register from the two
// neighbouring tiles of the walk (one two-source permutation) and streamed whole; the first and
// last partial line of every row go out as masked ordinary stores. (Streaming the pieces
// separately, in aligned 16- and 32-byte parts, leaves the write-combining buffers with partial
// lines, slower than ordinary stores: docs/block8.md.) The previous tile's rows wait in a carry on
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
// Not in sanitizer builds (DCTX_FEW_SIMD_TARGETS), whose compile time it would double; the
// release tests cover the realigned stores on every AVX-512 target.
#undef DCTX_BLOCK8_REALIGNED_STREAM
#if HWY_TARGET <= HWY_AVX3 && !defined(DCTX_FEW_SIMD_TARGETS)
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
    const auto line = TwoVectorPermute(left, hn::Load(d, c.line), right);
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

#endif  // DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
