// SPDX-License-Identifier: BSD-3-Clause
// In-register transposes of square blocks of lanes (GCC/Clang vector extensions): N vectors of
// N lanes become their columns by log2 N stages of two-input shuffles. Used by the square
// codelets (square_codelet-inl.h) and by the N-D driver to turn kLanes contiguous lines into
// lane-interleaved vectors and back (nd_driver-inl.h). Also the finiteness test of the small
// plans' outputs, by halving shuffles.

#if defined(DCTX_CPU_LANE_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_LANE_TRANSPOSE_INL_H_
#undef DCTX_CPU_LANE_TRANSPOSE_INL_H_
#else
#define DCTX_CPU_LANE_TRANSPOSE_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <utility>

#include <hwy/highway.h>

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

/// r[i] <- column i of the N x N block whose rows are r[0..N) (log2 N stages of two-input
/// shuffles: swapping sub-blocks of sides 1, 2, ..., N/2).
template <std::size_t N, class V, std::size_t D = 1>
HWY_INLINE void TransposeSquare(V* r) {
  if constexpr (D < N) {
    SwapSubBlocks<N, D>(r, std::make_index_sequence<N>());
    TransposeSquare<N, V, 2 * D>(r);
  }
}

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
