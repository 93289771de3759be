// SPDX-License-Identifier: BSD-3-Clause
// Colour conversions of the JPEG-style pipeline, per SIMD target (compiled by colour.cc).

#if defined(DCTX_BLOCK8_COLOUR_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_BLOCK8_COLOUR_INL_H_
#undef DCTX_BLOCK8_COLOUR_INL_H_
#else
#define DCTX_BLOCK8_COLOUR_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "block8/constants.hpp"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
#define DCTX_COLOUR_HAVE_SIMD 1
#else
#define DCTX_COLOUR_HAVE_SIMD 0
#endif

// The NVIDIA whitepaper's luma, Y = (313524 R + 615514 G + 119537 B + 524288) >> 20, on interleaved
// RGB.
inline void LumaRgb8(const std::uint8_t* rgb, std::uint8_t* y, std::size_t n) {
  std::size_t i = 0;
#if DCTX_COLOUR_HAVE_SIMD
  const hn::CappedTag<std::uint32_t, 16> d32;
  const hn::Rebind<std::uint8_t, decltype(d32)> d8;
  const std::size_t lanes = hn::Lanes(d32);
  for (; i + lanes <= n; i += lanes) {
    hn::Vec<decltype(d8)> r, g, b;
    hn::LoadInterleaved3(d8, rgb + 3 * i, r, g, b);
    auto acc = hn::PromoteTo(d32, r) * hn::Set(d32, 313524u) + hn::Set(d32, 524288u);
    acc = acc + hn::PromoteTo(d32, g) * hn::Set(d32, 615514u);
    acc = acc + hn::PromoteTo(d32, b) * hn::Set(d32, 119537u);
    hn::StoreU(hn::U8FromU32(hn::ShiftRight<20>(acc)), d8, y + i);  // values <= 255
  }
#endif
  for (; i < n; ++i)
    y[i] = static_cast<std::uint8_t>(
        (313524u * rgb[3 * i] + 615514u * rgb[3 * i + 1] + 119537u * rgb[3 * i + 2] + 524288u) >>
        20);
}

// 8-bit samples to level-shifted floats (v - 128) and back (+128, round half up, clamp to
// 0..255: half away from zero there) — the pipeline's conversions.
inline void U8ToCenteredF32(const std::uint8_t* in, float* out, std::size_t n) {
  std::size_t i = 0;
#if DCTX_COLOUR_HAVE_SIMD
  const hn::CappedTag<float, 16> df;
  const hn::Rebind<std::int32_t, decltype(df)> d32;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  for (; i + hn::Lanes(df) <= n; i += hn::Lanes(df)) {
    const auto v = hn::BitCast(
        d32, hn::PromoteTo(hn::Rebind<std::uint32_t, decltype(df)>(), hn::LoadU(d8, in + i)));
    hn::StoreU(hn::ConvertTo(df, v) - hn::Set(df, 128.0f), df, out + i);
  }
#endif
  for (; i < n; ++i) out[i] = static_cast<float>(in[i]) - 128.0f;
}
inline void CenteredF32ToU8(const float* in, std::uint8_t* out, std::size_t n) {
  std::size_t i = 0;
#if DCTX_COLOUR_HAVE_SIMD
  const hn::CappedTag<float, 16> df;
  const hn::Rebind<std::int32_t, decltype(df)> d32;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  for (; i + hn::Lanes(df) <= n; i += hn::Lanes(df)) {
    auto v = hn::LoadU(df, in + i) + hn::Set(df, 128.0f);
    v = hn::Min(hn::Max(v, hn::Zero(df)), hn::Set(df, 255.0f)) + hn::Set(df, kJustBelowHalf);
    const auto u = hn::BitCast(hn::Rebind<std::uint32_t, decltype(df)>(), hn::ConvertTo(d32, v));
    hn::StoreU(hn::U8FromU32(u), d8, out + i);
  }
#endif
  for (; i < n; ++i) {
    // NaN becomes 0, as the vector Max above gives it.
    float v = in[i] + 128.0f;
    v = v > 0.0f ? v : 0.0f;
    v = (v < 255.0f ? v : 255.0f) + kJustBelowHalf;
    out[i] = static_cast<std::uint8_t>(static_cast<int>(v));
  }
}

#undef DCTX_COLOUR_HAVE_SIMD

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
