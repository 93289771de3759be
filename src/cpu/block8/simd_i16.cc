// SPDX-License-Identifier: BSD-3-Clause
// The int16 block kernels' entry points (llm-inl.h walked by walk-inl.h), compiled once per
// Highway target; HWY_DYNAMIC_DISPATCH picks the best the CPU supports (or the one a test forces).
// int16 tiles use up to 32 lanes.
#include "cpu/block8/simd_targets.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/block8/simd_i16.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "block8/constants.hpp"
#include "cpu/block8/kernels.hpp"
#include "cpu/block8/llm-inl.h"
#include "cpu/block8/scalar.hpp"
#include "cpu/block8/walk-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {

inline void ForwardI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  Walk<std::int16_t, 32, false>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc)
          DCTX_BLOCK8_LAMBDA_INLINE {
            ForwardTilesI16<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os, sc);
          },
      [] {});
#else
  scalar::ForwardI16(in, is, out, os, rows, cols);
#endif
}

inline void InverseI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  Walk<std::int16_t, 32, false>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc)
          DCTX_BLOCK8_LAMBDA_INLINE {
            InverseTilesI16<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os, sc);
          },
      [] {});
#else
  scalar::InverseI16(in, is, out, os, rows, cols);
#endif
}

inline std::uint64_t RoundtripI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                  std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                  const QuantI16& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  return WalkCountingZeros<std::int16_t, 32, true>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc, auto& z)
          DCTX_BLOCK8_LAMBDA_INLINE {
            RoundtripTilesI16<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os, q,
                                                                      z.zeros, sc);
          });
#else
  return scalar::RoundtripI16(in, is, out, os, rows, cols, q);
#endif
}

inline std::uint64_t ForwardQuantizeI16(const std::int16_t* in, std::ptrdiff_t is,
                                        std::int16_t* out, std::ptrdiff_t os, std::size_t rows,
                                        std::size_t cols, const QuantI16& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  return WalkCountingZeros<std::int16_t, 32, false>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc, auto& z)
          DCTX_BLOCK8_LAMBDA_INLINE {
            ForwardQuantizeTilesI16<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os, q,
                                                                            z.zeros, sc);
          });
#else
  return scalar::ForwardQuantizeI16(in, is, out, os, rows, cols, q);
#endif
}

inline void DequantizeInverseI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantI16& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  Walk<std::int16_t, 32, false>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc)
          DCTX_BLOCK8_LAMBDA_INLINE {
            DequantizeInverseTilesI16<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os,
                                                                              q, sc);
          },
      [] {});
#else
  scalar::DequantizeInverseI16(in, is, out, os, rows, cols, q);
#endif
}

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dctx::block8 {

HWY_EXPORT(ForwardI16);
HWY_EXPORT(InverseI16);
HWY_EXPORT(RoundtripI16);
HWY_EXPORT(ForwardQuantizeI16);
HWY_EXPORT(DequantizeInverseI16);

void int_forward_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                     std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
  HWY_DYNAMIC_DISPATCH(ForwardI16)(in, is, out, os, rows, cols);
}
void int_inverse_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                     std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
  HWY_DYNAMIC_DISPATCH(InverseI16)(in, is, out, os, rows, cols);
}
std::uint64_t int_roundtrip_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                const QuantI16& quant) {
  return HWY_DYNAMIC_DISPATCH(RoundtripI16)(in, is, out, os, rows, cols, quant);
}
std::uint64_t int_forward_quantize_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                       std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                       const QuantI16& quant) {
  return HWY_DYNAMIC_DISPATCH(ForwardQuantizeI16)(in, is, out, os, rows, cols, quant);
}
void int_dequantize_inverse_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                const QuantI16& quant) {
  HWY_DYNAMIC_DISPATCH(DequantizeInverseI16)(in, is, out, os, rows, cols, quant);
}

}  // namespace dctx::block8
#endif  // HWY_ONCE
