// SPDX-License-Identifier: BSD-3-Clause
// In-register transposes of square blocks of lanes (GCC/Clang vector extensions): N vectors of
// N lanes become their columns by log2 N stages of two-input shuffles. Used by the square
// codelets (square_codelet-inl.h) and by the N-D driver to turn kLanes contiguous lines into
// lane-interleaved vectors and back (nd_driver-inl.h). Also the lane tests of the small plans'
// checks (finite lanes, |v|, whether every lane of a comparison is set; by halving shuffles).

#if defined(DCTX_CPU_LANE_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_LANE_TRANSPOSE_INL_H_
#undef DCTX_CPU_LANE_TRANSPOSE_INL_H_
#else
#define DCTX_CPU_LANE_TRANSPOSE_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <hwy/highway.h>

#include "cpu/complex-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// The OR of the words of u (a vector of 64-bit words): halves ORed until one word is left, so a
/// vector wider than the registers never goes through memory.
template <class U, std::size_t... I>
HWY_INLINE std::uint64_t OrOfWords(const U& u, std::index_sequence<I...>) {
  constexpr std::size_t kHalf = sizeof...(I);
  if constexpr (kHalf == 0) {
    return u[0];
  } else {
    const auto folded =
        __builtin_shufflevector(u, u, I...) | __builtin_shufflevector(u, u, (I + kHalf)...);
    return OrOfWords(folded, std::make_index_sequence<kHalf / 2>());
  }
}

/// Whether every lane of the floating-point vectors v[0..n) is finite: v - v is +0 (no bit set)
/// exactly there and NaN where v is inf or NaN.
template <class V>
HWY_INLINE bool AllLanesFinite(const V* v, std::size_t n) {
  typedef std::uint64_t U __attribute__((vector_size(sizeof(V))));
  static_assert(sizeof(V) % 8 == 0 && (sizeof(V) & (sizeof(V) - 1)) == 0);
  U bits = {};
  for (std::size_t i = 0; i < n; ++i) bits |= reinterpret_cast<U>(v[i] - v[i]);
  return OrOfWords(bits, std::make_index_sequence<sizeof(V) / 16>()) == 0;
}

/// |v| lane by lane (the sign bits cleared).
template <class V>
HWY_INLINE V AbsLanes(const V& v) {
  using Lane = std::remove_cvref_t<decltype(v[0])>;
  using Bits = std::conditional_t<sizeof(Lane) == 8, std::uint64_t, std::uint32_t>;
  typedef Bits U __attribute__((vector_size(sizeof(V))));
  return reinterpret_cast<V>(reinterpret_cast<U>(v) & ~(U{} + (Bits{1} << (8 * sizeof(Bits) - 1))));
}

/// Whether every lane of a comparison result (lanes all ones or all zeros) is set.
template <class M>
HWY_INLINE bool AllLanesSet(const M& m) {
  typedef std::uint64_t U __attribute__((vector_size(sizeof(M))));
  return OrOfWords(~reinterpret_cast<U>(m), std::make_index_sequence<sizeof(M) / 16>()) == 0;
}

/// Rows r[i] and r[i + D] (i with bit D clear) swap their off-diagonal D x D sub-blocks.
template <std::size_t N, std::size_t D, class V, std::size_t... L>
HWY_INLINE void SwapSubBlocks(V* r, std::index_sequence<L...>) {
  for (std::size_t i = 0; i < N; ++i) {
    if (i & D) continue;
    const V a = r[i], b = r[i + D];
    r[i] = __builtin_shufflevector(a, b, ((L & D) ? N + L - D : L)...);
    r[i + D] = __builtin_shufflevector(a, b, ((L & D) ? N + L : L + D)...);
  }
}

/// Stages 1 and 2 of Transpose8x8Of4Bytes (unpack low/high, 64-bit pair select), which stay
/// within each 128-bit half: in both halves, r[h + c] (h = 0, 4) becomes column c of the 4 x 4
/// block that rows h..h+3 hold in that half.
template <class V>
HWY_INLINE void Transpose4x4HalvesOf4Bytes(V* r) {
  V t[8];
  for (std::size_t i = 0; i < 4; ++i) {
    t[2 * i] = __builtin_shufflevector(r[2 * i], r[2 * i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[2 * i + 1] = __builtin_shufflevector(r[2 * i], r[2 * i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  for (std::size_t h = 0; h < 8; h += 4)
    for (std::size_t i = 0; i < 2; ++i) {
      r[h + 2 * i] = __builtin_shufflevector(t[h + i], t[h + i + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      r[h + 2 * i + 1] =
          __builtin_shufflevector(t[h + i], t[h + i + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
}

/// The 8 x 8 block of 4-byte lanes in 256-bit vectors, as x86's three shuffle kinds each do in
/// one instruction (unpack low/high, 64-bit pair select, 128-bit half select: 24 shuffles). The
/// general stages below cost 32 there: their first stage is no single instruction.
template <class V>
HWY_INLINE void Transpose8x8Of4Bytes(V* r) {
  Transpose4x4HalvesOf4Bytes(r);  // columns c and c + 4 of rows h..h+3 in r[h + c]
  V s[8];
  for (std::size_t i = 0; i < 8; ++i) s[i] = r[i];
  for (std::size_t c = 0; c < 4; ++c) {
    r[c] = __builtin_shufflevector(s[c], s[c + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    r[c + 4] = __builtin_shufflevector(s[c], s[c + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

/// r[i] <- column i of the N x N block whose rows are r[0..N) (log2 N stages of two-input
/// shuffles: swapping sub-blocks of sides 1, 2, ..., N/2; 8 x 8 blocks of 4-byte lanes
/// by Transpose8x8Of4Bytes). With kEnd = N/2, only the stages of sides below N/2.
template <std::size_t N, class V, std::size_t D = 1, std::size_t kEnd = N>
HWY_INLINE void TransposeSquare(V* r) {
  if constexpr (N == 8 && sizeof(V) == 32 && D == 1) {
    if constexpr (kEnd == N)
      Transpose8x8Of4Bytes(r);
    else
      Transpose4x4HalvesOf4Bytes(r);
  } else if constexpr (D < kEnd) {
    SwapSubBlocks<N, D>(r, std::make_index_sequence<N>());
    TransposeSquare<N, V, 2 * D, kEnd>(r);
  }
}

/// The N x N block whose row l holds the N lanes at row(l), transposed into r[0..N) (as
/// TransposeSquare of the rows loaded). Where a vector is two 128-bit halves (N/2 lanes each,
/// AVX2), each half is its own load: r[i] (i < N/2) the first halves of rows i and i + N/2,
/// r[i + N/2] their second halves. That is the transpose's last stage, the half select, done by
/// the loads (a 128-bit load into the upper half), so only the stages within the halves are
/// left: no vperm2f128, 8 micro-ops on first-generation Zen.
template <std::size_t N, class V, class RowAt>
HWY_INLINE void LoadTransposed(V* r, RowAt&& row) {
  using T = std::remove_cvref_t<decltype(*row(0))>;
  if constexpr (sizeof(V) == 32 && N >= 4 && N * sizeof(T) == 32) {
    constexpr std::size_t h = N / 2;
    using Half = typename VectorOf<T, h>::unaligned;
    const auto concat = [](const T* lo, const T* hi) __attribute__((always_inline)) {
      const Half a = *reinterpret_cast<const Half*>(lo), b = *reinterpret_cast<const Half*>(hi);
      if constexpr (h == 4)
        return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7);
      else
        return __builtin_shufflevector(a, b, 0, 1, 2, 3);
    };
    for (std::size_t i = 0; i < h; ++i) {
      const T* a = row(i);
      const T* b = row(i + h);
      r[i] = concat(a, b);
      r[i + h] = concat(a + h, b + h);
    }
    TransposeSquare<N, V, 1, h>(r);
  } else {
    for (std::size_t l = 0; l < N; ++l)
      r[l] = *reinterpret_cast<const typename VectorOf<T, N>::unaligned*>(row(l));
    TransposeSquare<N>(r);
  }
}

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
