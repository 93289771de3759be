// SPDX-License-Identifier: BSD-3-Clause
// Rounding, quantization and zero counting of the block kernels, per SIMD target: round half
// away from zero exactly in float, the float-to-int16-level conversion, the integer requantizer
// of the int16 kernels (Granlund and Montgomery's division by an invariant integer, constants in
// kernels.hpp's QuantI16) in 32-bit and, on AVX-512, 16-bit lanes.

#if defined(DCTX_CPU_BLOCK8_REQUANTIZE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_BLOCK8_REQUANTIZE_INL_H_
#undef DCTX_CPU_BLOCK8_REQUANTIZE_INL_H_
#else
#define DCTX_CPU_BLOCK8_REQUANTIZE_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "cpu/block8/tile-inl.h"
#include "cpu/block8/x86-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if DCTX_BLOCK8_HAVE_SIMD

// Round half away from zero, exactly, for every float: trunc(t + copysign(0.5 - 2^-25, t)).
// (0.5 - 2^-25 is the largest float below 1/2: a half-integer t + it rounds up to the next
// integer, anything below a half-integer stays below it; proof in docs/block8.md.)
template <class V>
HWY_INLINE V RoundHalfAway(V t) {
  const hn::DFromV<V> d;
  return hn::Trunc(t + hn::CopySignToAbs(hn::Set(d, kJustBelowHalf), t));
}

// Round half away from zero to int32 for int16 levels, NaN to 0 (as block8_quantize), at most
// 32767 (the int16 demotion saturates below). On AVX-512 the truncation is the conversion's own,
// and a zero-masking conversion clears NaN lanes: three instructions where the portable path
// (Trunc, NaN select, ConvertTo with its overflow fix-up) takes eight.
template <class D>
HWY_INLINE hn::Vec<hn::Rebind<std::int32_t, D>> RoundHalfAwayToI32(D d, hn::Vec<D> x) {
  const hn::Rebind<std::int32_t, D> di;
  const auto a =
      x + hn::CopySignToAbs(hn::Set(d, kJustBelowHalf), x);  // trunc(a): see RoundHalfAway
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return TruncateOrderedToI32(di, a, hn::Min(a, hn::Set(d, 32767.0f)));  // NaN lanes: 0
#else
  const auto level = hn::Trunc(a);
  return hn::ConvertTo(di, hn::IfThenZeroElse(hn::IsNaN(level), level));
#endif
}

// Zero levels are counted in per-lane int32 counts (a masked add per vector) that the caller sums
// once per row of tiles (not CountTrue per vector, which was miscompiled here: docs/block8.md).
// The count tag of a float tile has its lanes; that of an int16 tile, its int32 halves.
template <class D>
using CountTag = hn::Repartition<std::int32_t, D>;
template <class D>
HWY_INLINE void CountZeros(D d, hn::Vec<D> level, hn::Vec<CountTag<D>>& counts) {
  const CountTag<D> di;
  const auto zero = hn::RebindMask(di, hn::Eq(level, hn::Zero(d)));
  counts = hn::IfThenElse(zero, counts + hn::Set(di, 1), counts);  // one masked add on AVX-512
}

// counts += 1 in the lanes where x is NaN (a float-to-level conversion's NaN coefficients).
template <class D>
HWY_INLINE void CountNaN(D d, hn::Vec<D> x, hn::Vec<CountTag<D>>& counts) {
  const CountTag<D> di;
  counts = hn::IfThenElse(hn::RebindMask(di, hn::IsNaN(x)), counts + hn::Set(di, 1), counts);
}

// |level| of int32 coefficients c, |c| <= kRequantMaxAbs, with QuantI16's integer formula:
// ((|c| + floor(Q/2)) * magic) >> shift; `at` indexes the Table8x8Quads entries of these lanes.
template <class D32>
HWY_INLINE hn::Vec<D32> LevelMagnitude(D32 d32, hn::Vec<D32> c, const QuantI16& q, std::size_t at) {
  const auto n = hn::Min(hn::Abs(c), hn::Set(d32, kRequantMaxAbs)) + hn::Load(d32, q.half_q.v + at);
  return (n * hn::Load(d32, q.magic.v + at)) >> hn::Load(d32, q.shift.v + at);
}

// The fused pass's requantization (QuantI16) on 8 vectors of int16 coefficients, |c| <= 2^14,
// in place: dequantized values clamped to [kInvInMin, kInvInMax]; counts += zero levels.
// AVX-512 only (per-lane 16-bit shifts); elsewhere the int32 version runs.
#undef DCTX_BLOCK8_REQUANT16
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
#define DCTX_BLOCK8_REQUANT16 1
// |level| of row i of a transposed tile of int16 coefficients: mulhi(2n, magic) >> l.
template <class D16>
HWY_INLINE hn::Vec<D16> LevelMagnitude16(D16 d16, const QuantI16& q, hn::Vec<D16> x,
                                         std::size_t i) {
  const hn::RebindToUnsigned<D16> du;
  const auto a = hn::Min(hn::Abs(x), hn::Set(d16, std::int16_t{kRequantMaxAbs}));
  const auto n2 = hn::BitCast(du, a + a) + hn::Load(du, q.half2_16.v + 32 * i);  // < 2^16
  return hn::BitCast(
      d16, hn::MulHigh(n2, hn::Load(du, q.magic_16.v + 32 * i)) >> hn::Load(du, q.l_16.v + 32 * i));
}
template <class D16>
HWY_INLINE void Requantize16(D16 d16, const QuantI16& q, hn::Vec<D16> (&x)[8],
                             hn::Vec<D16>& counts) {
  const hn::RebindToUnsigned<D16> du;
  const auto zero = hn::Zero(d16);
  for (std::size_t i = 0; i < 8; ++i) {
    const auto level = LevelMagnitude16(d16, q, x[i], i);
    counts = hn::IfThenElse(hn::Eq(level, zero), counts + hn::Set(d16, 1), counts);
    // level * Q <= |c| + floor(Q/2) < 2^15: exact in 16 bits.
    const auto m = hn::Min(level * hn::BitCast(d16, hn::Load(du, q.q_16.v + 32 * i)),
                           hn::Set(d16, std::int16_t{-kInvInMin}));
    x[i] = hn::Min(hn::IfThenElse(hn::Lt(x[i], zero), zero - m, m),
                   hn::Set(d16, std::int16_t{kInvInMax}));
  }
}
#else
#define DCTX_BLOCK8_REQUANT16 0
#endif

#endif  // DCTX_BLOCK8_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
