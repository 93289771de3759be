// SPDX-License-Identifier: BSD-3-Clause
// In-register transposes of square blocks of lanes (GCC/Clang vector extensions): N vectors of
// N lanes become their columns by log2 N stages of two-input shuffles. Used by the square
// codelets (square_codelet-inl.h) and by the N-D driver to turn kLanes contiguous lines into
// lane-interleaved vectors and back (nd_driver-inl.h).

#if defined(DCTX_CPU_LANE_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_LANE_TRANSPOSE_INL_H_
#undef DCTX_CPU_LANE_TRANSPOSE_INL_H_
#else
#define DCTX_CPU_LANE_TRANSPOSE_INL_H_
#endif

#include <cstddef>
#include <utility>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

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
