// SPDX-License-Identifier: BSD-3-Clause
// The Highway targets every block-kernel translation unit (simd_*.cc) is compiled for; included
// first by each, before foreach_target.h, so that their dispatch tables agree.
// SSSE3 adds nothing to these kernels and only costs compile time. AVX3_DL (Ice Lake, Zen 4) is
// compiled for its VNNI dot products (vpdpwssd) in the int16 kernels' first passes. Sanitizer
// builds (DCTX_FEW_SIMD_TARGETS, set by CMake) compile AVX3, AVX2 and the scalar fallback only:
// the release tests run every target, and each target costs minutes of compile time under the
// sanitizers.
#undef HWY_DISABLED_TARGETS
#if defined(DCTX_FEW_SIMD_TARGETS)
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4 | HWY_AVX3_DL)
#else
#define HWY_DISABLED_TARGETS HWY_SSSE3
#ifndef HWY_WANT_AVX3_DL
#define HWY_WANT_AVX3_DL
#endif
#endif
