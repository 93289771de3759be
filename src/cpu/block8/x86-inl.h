// SPDX-License-Identifier: BSD-3-Clause
// The block kernels' raw x86 intrinsics and inline assembly, all in this one file: each helper
// names the one instruction (or idiom) Highway 1.0.3 does not expose, and the portable kernels
// call it only on the targets listed here.

#if defined(DCTX_CPU_BLOCK8_X86_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_BLOCK8_X86_INL_H_
#undef DCTX_CPU_BLOCK8_X86_INL_H_
#else
#define DCTX_CPU_BLOCK8_X86_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#undef DCTX_BLOCK8_HAVE_OPAQUE
#define DCTX_BLOCK8_HAVE_OPAQUE 0
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR

#if HWY_NATIVE_FMA
#undef DCTX_BLOCK8_HAVE_OPAQUE
// v, hidden from the optimiser (an empty asm that "changes" the register): keeps a*1 + b an FMA
// where the compiler would fold it back into an addition (OpsF's Add/Sub).
#define DCTX_BLOCK8_HAVE_OPAQUE 1
template <class V>
HWY_INLINE V Opaque(V v) {
  asm("" : "+v"(v.raw));
  return v;
}
#endif

#if HWY_TARGET <= HWY_AVX3
// 16 int32 lanes picked from two vectors by `index` (0-15: left, 16-31: right): vpermt2d.
template <class V>
HWY_INLINE V TwoVectorPermute(V left, V index, V right) {
  return V{_mm512_permutex2var_epi32(left.raw, index.raw, right.raw)};
}

// trunc(a) as int32 in lanes where a is not NaN, 0 in NaN lanes; `m` is a with large values
// clamped (its NaN lanes are masked off): one compare into a mask and one zero-masking
// conversion, vcvttps2dq, for 4, 8 or 16 float lanes.
template <class DI, class VF>
HWY_INLINE hn::Vec<DI> TruncateOrderedToI32(DI, VF a, VF m) {
  constexpr std::size_t kBytes = hn::MaxLanes(DI()) * sizeof(std::int32_t);
  if constexpr (kBytes == 64) {
    return hn::Vec<DI>{
        _mm512_maskz_cvttps_epi32(_mm512_cmp_ps_mask(a.raw, a.raw, _CMP_ORD_Q), m.raw)};
  } else if constexpr (kBytes == 32) {
    return hn::Vec<DI>{
        _mm256_maskz_cvttps_epi32(_mm256_cmp_ps_mask(a.raw, a.raw, _CMP_ORD_Q), m.raw)};
  } else {
    static_assert(kBytes == 16, "float tiles of 4, 8 or 16 lanes");
    return hn::Vec<DI>{_mm_maskz_cvttps_epi32(_mm_cmp_ps_mask(a.raw, a.raw, _CMP_ORD_Q), m.raw)};
  }
}

// The 64-bit lanes of a 512-bit vector in the order 0, 2, 4, 6, 1, 3, 5, 7 (vpermq): after a
// saturating pack of two int32 rows (which works in 128-bit parts), the first row's int16 then
// the second's.
template <class V>
HWY_INLINE V EvenThenOddQuadwords(V packed) {
  const __m512i order = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
  return V{_mm512_permutexvar_epi64(order, packed.raw)};
}
#endif  // HWY_TARGET <= HWY_AVX3

#if HWY_TARGET == HWY_AVX3_DL
// sum + the sums of adjacent int16 products (vpdpwssd, AVX512-VNNI). Inline assembly: Highway
// 1.0.3's AVX3_DL target attributes name avxvnni, not avx512vnni, so the intrinsic is refused;
// the target's dispatch requires AVX512-VNNI.
template <class V32, class V16>
HWY_INLINE V32 DotAccumulate(V32 sum, V16 a, V16 b) {
  asm("vpdpwssd %2, %1, %0" : "+v"(sum.raw) : "v"(a.raw), "v"(b.raw));
  return sum;
}
#endif

#endif  // x86 SIMD targets

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
