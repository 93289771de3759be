// SPDX-License-Identifier: BSD-3-Clause
// How the N-D driver (nd_driver-inl.h) moves kLanes lines between an array and a
// lane-interleaved buffer (one compiler vector per element) and back: whole vectors for lines
// adjacent in memory, in-register kLanes x kLanes transposes for contiguous lines a constant
// distance apart, a small tile for contiguous lines at a critical distance, element by element
// otherwise; software prefetches for lines far apart; streamed stores.

#if defined(DCTX_CPU_LINE_MOVES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_LINE_MOVES_INL_H_
#undef DCTX_CPU_LINE_MOVES_INL_H_
#else
#define DCTX_CPU_LINE_MOVES_INL_H_
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include <hwy/highway.h>

#include "core/limits.hpp"
#include "cpu/complex-inl.h"
#include "cpu/lane_transpose-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// The line moves of precision T0 (static functions; the driver derives from this).
template <class T0>
struct LineMoves {
  using V = typename LaneVec<T0>::type;
  static constexpr std::size_t kLanes = LaneVec<T0>::kLanes;
  // Whole vectors at any element boundary (LaneVec::unaligned), not through memcpy: GCC copied a
  // 32-byte V as two 16-byte halves through the stack on AVX2, and the transposes then read the
  // vector back whole, a load that cannot be forwarded from the two stores.
  using VU = typename LaneVec<T0>::unaligned;
  static HWY_INLINE V LoadU(const T0* p) { return *reinterpret_cast<const VU*>(p); }
  static HWY_INLINE void StoreU(T0* p, const V& v) { *reinterpret_cast<VU*>(p) = v; }

  // Lines 2 KiB or more apart alias in the L1 sets (from 4 KiB each is in its own page).
  static bool FarApart(std::ptrdiff_t s) {
    return std::abs(s) * static_cast<std::ptrdiff_t>(sizeof(T0)) >= 2048;
  }

  // One vector stored past the caches (p aligned to the vector).
  static HWY_INLINE void StreamStore(const V* v, T0* p) {
    if constexpr (HWY_LANES(T0) == kLanes) {
      namespace hn = hwy::HWY_NAMESPACE;
      const hn::FixedTag<T0, kLanes> d;
      hn::Stream(hn::Load(d, reinterpret_cast<const T0*>(v)), d, p);
    } else {
      std::memcpy(p, v, sizeof(V));
    }
  }
  static void StreamFence() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();  // order the streamed stores before the pass's end is signalled
#else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
  }

  // Offsets of lines j0 .. j0+cnt-1 (innermost other axis fastest): one div/mod decomposition,
  // then an odometer step per line.
  static void LineOffsets(std::size_t j0, std::size_t cnt, std::size_t nd, const std::size_t* ext,
                          const std::ptrdiff_t* sin, const std::ptrdiff_t* sout,
                          std::ptrdiff_t* oin, std::ptrdiff_t* oout) {
    std::size_t idx[detail::kMaxRank];
    std::ptrdiff_t a = 0, b = 0;
    for (std::size_t d = nd, j = j0; d-- > 0;) {
      idx[d] = j % ext[d];
      j /= ext[d];
      a += static_cast<std::ptrdiff_t>(idx[d]) * sin[d];
      b += static_cast<std::ptrdiff_t>(idx[d]) * sout[d];
    }
    for (std::size_t l = 0; l < cnt; ++l) {
      oin[l] = a;
      oout[l] = b;
      for (std::size_t d = nd; d-- > 0;) {
        a += sin[d];
        b += sout[d];
        if (++idx[d] < ext[d]) break;
        a -= static_cast<std::ptrdiff_t>(ext[d]) * sin[d];
        b -= static_cast<std::ptrdiff_t>(ext[d]) * sout[d];
        idx[d] = 0;
      }
    }
  }

  // Lines whose starts are a multiple of 2 KiB apart alias in the L1 sets: stream them through a
  // tile (see kBlock).
  static bool CriticalStride(const std::ptrdiff_t* off, std::size_t cnt) {
    if (cnt < 2) return false;
    const std::ptrdiff_t d = (off[1] - off[0]) * static_cast<std::ptrdiff_t>(sizeof(T0));
    return d % 2048 == 0;
  }

  // `count` lines (kLanes unless said) one element apart.
  static bool Consecutive(const std::ptrdiff_t* off, std::size_t cnt, std::size_t count = kLanes) {
    if (cnt != count) return false;
    for (std::size_t l = 1; l < cnt; ++l)
      if (off[l] != off[0] + static_cast<std::ptrdiff_t>(l)) return false;
    return true;
  }

  // kLanes lines a constant distance apart.
  static bool Uniform(const std::ptrdiff_t* off, std::size_t cnt) {
    if (cnt != kLanes) return false;
    const std::ptrdiff_t d = off[1] - off[0];
    for (std::size_t l = 2; l < cnt; ++l)
      if (off[l] - off[l - 1] != d) return false;
    return true;
  }

  // Contiguous lines (s == 1) a constant distance apart, e.g. the rows of a row-major array:
  // kLanes x kLanes blocks, one vector load per line, an in-register transpose, kLanes stores.
  // The blocks start where the lines' vectors are aligned (see AlignedBlocks).
  static void GatherTransposed(const T0* in, const std::ptrdiff_t* off, std::size_t n, V* buf,
                               const std::uint32_t* order) {
    if (n < kLanes) {
      for (std::size_t i = 0; i < n; ++i) {
        V v;
        for (std::size_t l = 0; l < kLanes; ++l) v[l] = in[off[l] + static_cast<std::ptrdiff_t>(i)];
        buf[At(order, i)] = v;
      }
      return;
    }
    AlignedBlocks(
        in, off, n, [&](std::size_t i0) __attribute__((always_inline)) {
          V r[kLanes];
          LoadTransposed<kLanes>(
              r, [&](std::size_t l) __attribute__((always_inline)) {
                return in + off[l] + static_cast<std::ptrdiff_t>(i0);
              });
          for (std::size_t i = 0; i < kLanes; ++i) buf[At(order, i0 + i)] = r[i];
        });
  }

  // Whether a vector is whole 64-byte lines, so that its aligned stores may bypass the caches
  // (a narrower one would leave partial lines between the stores that follow it).
  static constexpr bool kWholeLines = sizeof(V) % 64 == 0;

  // stream (an output this pass does not read again): the aligned vectors' stores bypass the
  // caches where a vector is whole lines (kWholeLines). Each block writes one line in each of
  // kLanes rows; faster on Intel's cores and on AMD's Zen 4 alike (docs/benchmarks.md, "Streamed
  // row stores on Intel", "Streamed row stores on Zen 4 too"). kCheck: returns the sum of every
  // stored vector times 0 (extremes-inl.h, NonFiniteLanesOf), the finiteness test of the lines
  // without a pass of its own. The transposes keep their half select (vperm2f128 on AVX2):
  // storing each 128-bit half on its own, as GatherTransposed loads them, doubles the store
  // instructions, which cores with full-width stores pay for, and gained 0.8 % on a
  // first-generation Zen (docs/benchmarks.md).
  template <bool kCheck = false>
  static V ScatterTransposed(const V* buf, T0* out, const std::ptrdiff_t* off, std::size_t n,
                             const std::uint32_t* order, bool stream = false) {
    stream = stream && kWholeLines;
    [[maybe_unused]] const V zero{};
    V finite{};
    if (n < kLanes) {
      for (std::size_t i = 0; i < n; ++i) {
        const V& v = buf[At(order, i)];
        if constexpr (kCheck) finite += v * zero;
        for (std::size_t l = 0; l < kLanes; ++l)
          out[off[l] + static_cast<std::ptrdiff_t>(i)] = v[l];
      }
      return finite;
    }
    AlignedBlocks(
        out, off, n, [&](std::size_t i0) __attribute__((always_inline)) {
          StoreBlockTransposed<kCheck>(buf, order, i0, out, off, stream, finite);
        });
    if (stream) StreamFence();
    return finite;
  }

  // Block i0 of ScatterTransposed: element i0 + i of the kLanes lines at out + off[l] from
  // buf[At(order, i0 + i)], transposed in registers; kCheck adds each vector times 0 to finite.
  template <bool kCheck>
  static HWY_INLINE void StoreBlockTransposed(const V* buf, const std::uint32_t* order,
                                              std::size_t i0, T0* out, const std::ptrdiff_t* off,
                                              bool stream, V& finite) {
    V r[kLanes];
    for (std::size_t i = 0; i < kLanes; ++i) r[i] = buf[At(order, i0 + i)];
    if constexpr (kCheck) {
      const V zero{};
      for (std::size_t i = 0; i < kLanes; ++i) finite += r[i] * zero;
    }
    TransposeSquare<kLanes>(r);
    for (std::size_t l = 0; l < kLanes; ++l) {
      T0* to = out + off[l] + static_cast<std::ptrdiff_t>(i0);
      if (stream && reinterpret_cast<std::uintptr_t>(to) % 64 == 0)
        StreamStore(&r[l], to);
      else
        StoreU(to, r[l]);
    }
  }

  // ScatterTransposed<true> of one group's result `res` (its element i at res[At(sorder, i)])
  // and GatherTransposed of the next group's lines into gbuf, a block of each in turn: the
  // memory reads one group's rows while it writes the other's, where a gather and then a scatter
  // of their own leave it reading, then writing (docs/benchmarks.md, "Rows read and written at
  // once"). Only for rows that MoveTogether: blocks 0, kLanes, ... n - kLanes of both, each
  // block's loads half a row away from its stores. Rows of 4 KiB read at the columns just
  // written would wait on those stores (the core compares the low 12 bits of their addresses),
  // which made the rows of 4096 x 1024 25 % slower.
  static V ScatterGatherTransposed(const V* res, const std::uint32_t* sorder, T0* out,
                                   const std::ptrdiff_t* oout, bool stream, const T0* in,
                                   const std::ptrdiff_t* oin, std::size_t n, V* gbuf,
                                   const std::uint32_t* gorder) {
    stream = stream && kWholeLines;
    V finite{};
    const std::size_t half = n / kLanes / 2 * kLanes;
    for (std::size_t i0 = 0; i0 < n; i0 += kLanes) {
      const std::size_t j0 = i0 < n - half ? i0 + half : i0 + half - n;
      V r[kLanes];
      LoadTransposed<kLanes>(
          r, [&](std::size_t l) __attribute__((always_inline)) {
            return in + oin[l] + static_cast<std::ptrdiff_t>(j0);
          });
      for (std::size_t i = 0; i < kLanes; ++i) gbuf[At(gorder, j0 + i)] = r[i];
      StoreBlockTransposed<true>(res, sorder, i0, out, oout, stream, finite);
    }
    if (stream) StreamFence();
    return finite;
  }
  // Whether kLanes lines of n elements at in + oin[l] and at out + oout[l] may move through
  // ScatterGatherTransposed: rows gathered and scattered by transposes (ScattersTransposed), of
  // two whole vectors or more, each starting on a vector boundary (up to 64 bytes) in and out.
  static bool MoveTogether(const T0* in, const std::ptrdiff_t* oin, const T0* out,
                           const std::ptrdiff_t* oout, std::size_t n) {
    return kLanes > 1 && n >= 2 * kLanes && n % kLanes == 0 && ScattersTransposed(1, oin, kLanes) &&
           ScattersTransposed(1, oout, kLanes) && KeepsAlignment(oin[1] - oin[0]) &&
           KeepsAlignment(oout[1] - oout[0]) && ToAligned(in + oin[0]) == 0 &&
           ToAligned(out + oout[0]) == 0;
  }

  // Group 0 of a pass grouped from its first aligned line (nd_driver-inl.h, HeadLines): lanes
  // 0 .. s-1 hold the last s lines and lanes s .. kLanes-1 the first kLanes - s, of lines
  // adjacent in memory whose rows (element i of every line, `row` elements apart from p, line
  // 0's element 0) hold nothing else. The last s lines of row i - 1 and the first of row i are
  // then one aligned vector, and element i of the group a blend of two of them: one aligned load
  // or store per element, as for the other groups (the first and the last vector, half outside
  // the lines, element by element).
  static void GatherWrapped(const T0* p, std::ptrdiff_t row, std::size_t n, std::size_t s, V* buf,
                            const std::uint32_t* order) {
    const Mask low = LowLanes(s);
    const std::ptrdiff_t back = static_cast<std::ptrdiff_t>(s);
    V prev{}, next{};
    std::memcpy(reinterpret_cast<T0*>(&prev) + s, p, (kLanes - s) * sizeof(T0));
    for (std::size_t i = 0; i + 1 < n; ++i) {
      next = LoadU(p + static_cast<std::ptrdiff_t>(i + 1) * row - back);
      buf[At(order, i)] = low ? next : prev;
      prev = next;
    }
    next = V{};
    std::memcpy(&next, p + static_cast<std::ptrdiff_t>(n) * row - back, s * sizeof(T0));
    buf[At(order, n - 1)] = low ? next : prev;
  }

  // The inverse of GatherWrapped: element i of the group from buf[order[i]] (buf[i] without an
  // order). stream: each aligned vector stored past the caches where it is whole lines.
  static void ScatterWrapped(const V* buf, T0* p, std::ptrdiff_t row, std::size_t n, std::size_t s,
                             const std::uint32_t* order, bool stream) {
    stream = stream && kWholeLines;
    const Mask low = LowLanes(s);
    const std::ptrdiff_t back = static_cast<std::ptrdiff_t>(s);
    std::memcpy(p, reinterpret_cast<const T0*>(&buf[At(order, 0)]) + s, (kLanes - s) * sizeof(T0));
    for (std::size_t i = 1; i < n; ++i) {
      const V w = low ? buf[At(order, i - 1)] : buf[At(order, i)];
      T0* to = p + static_cast<std::ptrdiff_t>(i) * row - back;
      if (stream)
        StreamStore(&w, to);
      else
        StoreU(to, w);
    }
    std::memcpy(p + static_cast<std::ptrdiff_t>(n) * row - back,
                reinterpret_cast<const T0*>(&buf[At(order, n - 1)]), s * sizeof(T0));
    if (stream) StreamFence();
  }

  // Lanes 0 .. s-1 of a vector set, for a blend (`mask ? a : b`).
  using MaskLane = std::conditional_t<sizeof(T0) == 4, std::int32_t, std::int64_t>;
  typedef MaskLane Mask __attribute__((vector_size(sizeof(V))));
  static Mask LowLanes(std::size_t s) {
    Mask lane;
    for (std::size_t l = 0; l < kLanes; ++l) lane[l] = static_cast<MaskLane>(l);
    return lane < static_cast<MaskLane>(s);
  }

  // Whether Scatter() of these lines takes ScatterTransposed() (Scatter's own test).
  static bool ScattersTransposed(std::ptrdiff_t s, const std::ptrdiff_t* off, std::size_t cnt) {
    return !Consecutive(off, cnt) && s == 1 && Uniform(off, cnt);
  }

  // The alignment the moves seek for a vector: its size, up to a 64-byte cache line.
  static constexpr std::size_t kAlign = sizeof(V) < 64 ? sizeof(V) : 64;
  // Elements from p to the first element whose vector is aligned (0 where p is, or where p is
  // not even aligned to an element).
  static std::size_t ToAligned(const T0* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return a % sizeof(T0) != 0 ? 0 : (kAlign - a % kAlign) % kAlign / sizeof(T0);
  }
  // Whether a stride of s elements keeps every element at the same alignment.
  static bool KeepsAlignment(std::ptrdiff_t s) {
    return (s * static_cast<std::ptrdiff_t>(sizeof(T0))) % static_cast<std::ptrdiff_t>(kAlign) == 0;
  }

  // block(i0) for blocks of kLanes elements covering 0 .. n-1 (n >= kLanes) of kLanes lines at
  // p + off[l]: where every line has the same alignment, the blocks start at the first element
  // whose vector is aligned (up to 64 bytes), so that no load or store splits a cache line
  // (rows of a std::vector or NumPy array are often 16 bytes off: 1.2x slower on AVX-512);
  // the first and the last block may overlap their neighbours, which only rewrites the same
  // values.
  template <class Block>
  static HWY_INLINE void AlignedBlocks(const T0* p, const std::ptrdiff_t* off, std::size_t n,
                                       Block block) {
    std::size_t i0 = KeepsAlignment(off[1] - off[0]) ? ToAligned(p + off[0]) : 0;
    if (i0 != 0) block(0);
    for (; i0 + kLanes <= n; i0 += kLanes) block(i0);
    if (i0 < n) block(n - kLanes);
  }

  // Lines that are contiguous (s == 1) but far apart are transposed through a small tile one
  // cache-line-sized block at a time, so each source line is streamed once instead of being
  // re-fetched per element (with 4 KiB-aligned lines, kLanes streams alias in one L1 set).
  static constexpr std::size_t kBlock = 64 / sizeof(T0) > kLanes ? 64 / sizeof(T0) : kLanes;

  // Vectors 2 KiB or more apart (the columns of a large row-major array) defeat the hardware
  // prefetchers, which stop at page boundaries: ask for the one kPrefetchAhead elements ahead.
  static constexpr std::size_t kPrefetchAhead = 8;
  template <bool kWrite>
  static void Prefetch(const T0* p, std::ptrdiff_t s, std::size_t i, std::size_t n) {
    if (FarApart(s) && i + kPrefetchAhead < n)
      __builtin_prefetch(p + static_cast<std::ptrdiff_t>(i + kPrefetchAhead) * s, kWrite ? 1 : 0);
  }

  // Element i of the lines goes to buf[order[i]] (buf[i] without an order).
  static std::size_t At(const std::uint32_t* order, std::size_t i) { return order ? order[i] : i; }

  static void Gather(const T0* in, std::ptrdiff_t s, const std::ptrdiff_t* off, std::size_t cnt,
                     std::size_t n, V* buf, const std::uint32_t* order) {
    if (Consecutive(off, cnt)) {
      const T0* p = in + off[0];
      for (std::size_t i = 0; i < n; ++i) {
        Prefetch<false>(p, s, i, n);
        buf[At(order, i)] = LoadU(p + static_cast<std::ptrdiff_t>(i) * s);
      }
      return;
    }
    if (s == 1 && Uniform(off, cnt)) return GatherTransposed(in, off, n, buf, order);
    if (s == 1 && CriticalStride(off, cnt)) {
      alignas(64) T0 tile[kLanes][kBlock];
      for (std::size_t l = cnt; l < kLanes; ++l)
        std::memset(tile[l], 0, sizeof(tile[l]));  // unused lanes
      for (std::size_t i0 = 0; i0 < n; i0 += kBlock) {
        const std::size_t len = std::min(kBlock, n - i0);
        for (std::size_t l = 0; l < cnt; ++l)
          std::memcpy(tile[l], in + off[l] + static_cast<std::ptrdiff_t>(i0), len * sizeof(T0));
        for (std::size_t i = 0; i < len; ++i) {
          V v;
          for (std::size_t l = 0; l < kLanes; ++l) v[l] = tile[l][i];
          buf[At(order, i0 + i)] = v;
        }
      }
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      V v{};
      const std::ptrdiff_t si = static_cast<std::ptrdiff_t>(i) * s;
      for (std::size_t l = 0; l < cnt; ++l) v[l] = in[off[l] + si];
      buf[At(order, i)] = v;
    }
  }

  // Element i of the lines comes from buf[order[i]] (buf[i] without an order). stream: see
  // ScatterTransposed (the other ways store plainly).
  static void Scatter(const V* buf, T0* out, std::ptrdiff_t s, const std::ptrdiff_t* off,
                      std::size_t cnt, std::size_t n, const std::uint32_t* order = nullptr,
                      bool stream = false) {
    if (Consecutive(off, cnt)) {
      T0* p = out + off[0];
      for (std::size_t i = 0; i < n; ++i) {
        Prefetch<true>(p, s, i, n);
        StoreU(p + static_cast<std::ptrdiff_t>(i) * s, buf[At(order, i)]);
      }
      return;
    }
    if (ScattersTransposed(s, off, cnt)) {
      ScatterTransposed(buf, out, off, n, order, stream);
      return;
    }
    if (s == 1 && CriticalStride(off, cnt)) {
      alignas(64) T0 tile[kLanes][kBlock];
      for (std::size_t i0 = 0; i0 < n; i0 += kBlock) {
        const std::size_t len = std::min(kBlock, n - i0);
        for (std::size_t i = 0; i < len; ++i) {
          const V v = buf[At(order, i0 + i)];
          for (std::size_t l = 0; l < kLanes; ++l) tile[l][i] = v[l];
        }
        for (std::size_t l = 0; l < cnt; ++l)
          std::memcpy(out + off[l] + static_cast<std::ptrdiff_t>(i0), tile[l], len * sizeof(T0));
      }
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::ptrdiff_t si = static_cast<std::ptrdiff_t>(i) * s;
      const V& v = buf[At(order, i)];
      for (std::size_t l = 0; l < cnt; ++l) out[off[l] + si] = v[l];
    }
  }
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
