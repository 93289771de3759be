// SPDX-License-Identifier: BSD-3-Clause
// Quantization alone (block8_quantize, block8_dequantize) on regions with unit column stride,
// compiled once per Highway target, and the block kernels' target queries. The table is in
// natural order (QuantF32 built untransposed): element (r, c) takes entry (r % 8, c % 8), i.e.
// lanes c % 16 of the table's row r % 8 (each row stored twice).
#include "cpu/block8/simd_targets.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/block8/simd_quantize.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>
#include <hwy/targets.h>

#include "core/block8_backend.hpp"
#include "cpu/block8/kernels.hpp"
#include "cpu/block8/requantize-inl.h"
#include "cpu/block8/scalar.hpp"
#include "cpu/block8/tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

#if DCTX_BLOCK8_HAVE_SIMD
// fn(d, r, c) over every row, widest float vectors first, then narrower ones (cols % 8 == 0).
template <class Fn>
HWY_INLINE void ForEachRowVector(std::size_t rows, std::size_t cols, Fn fn) {
  const hn::CappedTag<float, 16> d1;
  const hn::CappedTag<float, 8> d2;
  for (std::size_t r = 0; r < rows; ++r) {
    std::size_t c = 0;
    for (; c + hn::Lanes(d1) <= cols; c += hn::Lanes(d1)) fn(d1, r, c);
    for (; c < cols; c += hn::Lanes(d2)) fn(d2, r, c);
  }
}
template <class D>
HWY_INLINE hn::Vec<D> TableAt(D d, const Table8x16& t, std::size_t r, std::size_t c) {
  return hn::LoadU(d, t.v + (r % 8) * kTableStride + c % 16);
}
// out(r, c) = op(d, in(r, c) as floats, r, c) over the region.
template <class TI, class TO, class Op>
HWY_INLINE void ElementwiseRows(const TI* in, std::ptrdiff_t is, TO* out, std::ptrdiff_t os,
                                std::size_t rows, std::size_t cols, Op op) {
  ForEachRowVector(rows, cols, [&](auto d, std::size_t r, std::size_t c) DCTX_BLOCK8_LAMBDA_INLINE {
    StoreFrom(d, op(d, LoadAsFloat(d, in + std::ptrdiff_t(r) * is + c), r, c),
              out + std::ptrdiff_t(r) * os + c);
  });
}
#endif

// level = round_half_away(c * (1/Q)), saturated to int16; a NaN quotient (level 0 here) is
// reported as kNaNCoefficient.
inline std::uint64_t QuantizeF32(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  bool nan = false;
  ElementwiseRows(in, is, out, os, rows, cols,
                  [&](auto d, auto x, std::size_t r, std::size_t c) DCTX_BLOCK8_LAMBDA_INLINE {
                    const auto quotient = x * TableAt(d, q.recip, r, c);
                    nan |= !hn::AllFalse(d, hn::IsNaN(quotient));
                    return RoundHalfAwayToI32(d, quotient);
                  });
  return nan ? detail::kNaNCoefficient : 0;
#else
  return scalar::QuantizeF32(in, is, out, os, rows, cols, q);
#endif
}
// level = round_half_away(c / Q) exactly: the float quotient of two int16 values is correctly
// rounded and no closer to a half-integer than 1/(2Q), more than half an ulp, so it rounds the
// same way as the exact quotient.
inline std::uint64_t QuantizeI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  ElementwiseRows(in, is, out, os, rows, cols,
                  [&](auto d, auto x, std::size_t r, std::size_t c) DCTX_BLOCK8_LAMBDA_INLINE {
                    return RoundHalfAwayToI32(d, x / TableAt(d, q.q, r, c));
                  });
#else
  scalar::QuantizeI16(in, is, out, os, rows, cols, q);
#endif
  return 0;
}
// c = level * Q (exact in float).
inline std::uint64_t DequantizeF32(const std::int16_t* in, std::ptrdiff_t is, float* out,
                                   std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                   const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  ElementwiseRows(in, is, out, os, rows, cols,
                  [&](auto d, auto x, std::size_t r, std::size_t c)
                      DCTX_BLOCK8_LAMBDA_INLINE { return x * TableAt(d, q.q, r, c); });
#else
  scalar::DequantizeF32(in, is, out, os, rows, cols, q);
#endif
  return 0;
}
// c = level * Q saturated to int16 (the float product is exact up to 2^24, far past saturation).
inline std::uint64_t DequantizeI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                   std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                   const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  ElementwiseRows(in, is, out, os, rows, cols,
                  [&](auto d, auto x, std::size_t r, std::size_t c) DCTX_BLOCK8_LAMBDA_INLINE {
                    return hn::ConvertTo(
                        hn::Rebind<std::int32_t, decltype(d)>(),
                        hn::Min(hn::Max(x * TableAt(d, q.q, r, c), hn::Set(d, -32768.0f)),
                                hn::Set(d, 32767.0f)));
                  });
#else
  scalar::DequantizeI16(in, is, out, os, rows, cols, q);
#endif
  return 0;
}

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dctx::block8 {

HWY_EXPORT(QuantizeF32);
HWY_EXPORT(QuantizeI16);
HWY_EXPORT(DequantizeF32);
HWY_EXPORT(DequantizeI16);
HWY_EXPORT(TargetName);

std::uint64_t quantize_f32(const float* in, std::ptrdiff_t is, std::int16_t* out, std::ptrdiff_t os,
                           std::size_t rows, std::size_t cols, const QuantF32& quant) {
  return HWY_DYNAMIC_DISPATCH(QuantizeF32)(in, is, out, os, rows, cols, quant);
}
std::uint64_t quantize_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                           std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                           const QuantF32& quant) {
  return HWY_DYNAMIC_DISPATCH(QuantizeI16)(in, is, out, os, rows, cols, quant);
}
std::uint64_t dequantize_f32(const std::int16_t* in, std::ptrdiff_t is, float* out,
                             std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                             const QuantF32& quant) {
  return HWY_DYNAMIC_DISPATCH(DequantizeF32)(in, is, out, os, rows, cols, quant);
}
std::uint64_t dequantize_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                             std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                             const QuantF32& quant) {
  return HWY_DYNAMIC_DISPATCH(DequantizeI16)(in, is, out, os, rows, cols, quant);
}
const char* simd_target_name() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }
std::int64_t simd_compiled_targets() { return HWY_TARGETS; }

}  // namespace dctx::block8
#endif  // HWY_ONCE
