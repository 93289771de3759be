// SPDX-License-Identifier: BSD-3-Clause
// The float32 block kernels' entry points (aan-inl.h walked by walk-inl.h), compiled once per
// Highway target; HWY_DYNAMIC_DISPATCH picks the best the CPU supports (or the one a test forces).
// Float tiles use up to 16 lanes.
#include "cpu/block8/simd_targets.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/block8/simd_f32.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "block8/constants.hpp"
#include "cpu/block8/aan-inl.h"
#include "cpu/block8/kernels.hpp"
#include "cpu/block8/scalar.hpp"
#include "cpu/block8/walk-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {

inline void ForwardF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                       std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  Walk<float, 16, false>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc)
          DCTX_BLOCK8_LAMBDA_INLINE {
            ForwardTilesF32<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os, t, sc);
          },
      [] {});
#else
  scalar::ForwardF32(in, is, out, os, rows, cols);
#endif
}

inline void InverseF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                       std::size_t rows, std::size_t cols) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  Walk<float, 16, false>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc)
          DCTX_BLOCK8_LAMBDA_INLINE {
            InverseTilesF32<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os, t, sc);
          },
      [] {});
#else
  scalar::InverseF32(in, is, out, os, rows, cols);
#endif
}

inline std::uint64_t RoundtripF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                                  std::size_t rows, std::size_t cols, const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  return WalkCountingZeros<float, 16, true>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc, auto& z)
          DCTX_BLOCK8_LAMBDA_INLINE {
            RoundtripTilesF32<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os, t, q,
                                                                      z.zeros, sc);
          });
#else
  return scalar::RoundtripF32(in, is, out, os, rows, cols, q);
#endif
}

inline std::uint64_t ForwardQuantizeF32(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                        const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  return WalkCountingZeros<float, 16, true>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc, auto& z)
          DCTX_BLOCK8_LAMBDA_INLINE {
            ForwardQuantizeTilesF32<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os, t,
                                                                            q, z, sc);
          });
#else
  return scalar::ForwardQuantizeF32(in, is, out, os, rows, cols, q);
#endif
}

inline void DequantizeInverseF32(const std::int16_t* in, std::ptrdiff_t is, float* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantF32& q) {
#if DCTX_BLOCK8_HAVE_SIMD
  const AanTables& t = aan_tables();
  Walk<float, 16, false>(
      in, is, out, os, rows, cols,
      [&](auto d, auto g, auto s, const auto* src, auto* dst, StreamCarry& sc)
          DCTX_BLOCK8_LAMBDA_INLINE {
            DequantizeInverseTilesF32<decltype(g)::value, decltype(s)::value>(d, src, is, dst, os,
                                                                              t, q, sc);
          },
      [] {});
#else
  scalar::DequantizeInverseF32(in, is, out, os, rows, cols, q);
#endif
}

}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dctx::block8 {

HWY_EXPORT(ForwardF32);
HWY_EXPORT(InverseF32);
HWY_EXPORT(RoundtripF32);
HWY_EXPORT(ForwardQuantizeF32);
HWY_EXPORT(DequantizeInverseF32);

void fast_forward_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                      std::size_t rows, std::size_t cols) {
  HWY_DYNAMIC_DISPATCH(ForwardF32)(in, is, out, os, rows, cols);
}
void fast_inverse_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                      std::size_t rows, std::size_t cols) {
  HWY_DYNAMIC_DISPATCH(InverseF32)(in, is, out, os, rows, cols);
}
std::uint64_t fast_roundtrip_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                                 std::size_t rows, std::size_t cols, const QuantF32& quant) {
  return HWY_DYNAMIC_DISPATCH(RoundtripF32)(in, is, out, os, rows, cols, quant);
}
std::uint64_t fast_forward_quantize_f32(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                        const QuantF32& quant) {
  return HWY_DYNAMIC_DISPATCH(ForwardQuantizeF32)(in, is, out, os, rows, cols, quant);
}
void fast_dequantize_inverse_f32(const std::int16_t* in, std::ptrdiff_t is, float* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantF32& quant) {
  HWY_DYNAMIC_DISPATCH(DequantizeInverseF32)(in, is, out, os, rows, cols, quant);
}

}  // namespace dctx::block8
#endif  // HWY_ONCE
