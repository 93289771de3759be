// Run-time dispatch of the 8x8 block kernels: block8-inl.h is compiled once per Highway target
// (foreach_target.h) and HWY_DYNAMIC_DISPATCH picks the best one the CPU supports (or the one a
// test forces with hwy::SetSupportedTargetsForTest).
// SSSE3 adds nothing to these kernels and only costs compile time. AVX3_DL (Ice Lake, Zen 4) is
// compiled for its VNNI dot products (vpdpwssd) in the int16 kernels' first passes. Sanitizer
// builds compile AVX3, AVX2 and the scalar fallback only: GCC 12 spends minutes per target on
// these kernels under ASan + UBSan (over 14 minutes for five), and the release tests run every
// target.
#undef HWY_DISABLED_TARGETS
#if defined(__SANITIZE_ADDRESS__)
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4 | HWY_AVX3_DL)
#else
#define HWY_DISABLED_TARGETS HWY_SSSE3
#ifndef HWY_WANT_AVX3_DL
#define HWY_WANT_AVX3_DL
#endif
#endif

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "block8/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>
#include <hwy/targets.h>

#include "block8/block8-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::block8::HWY_NAMESPACE {
const char* TargetName() { return hwy::TargetName(HWY_TARGET); }
}  // namespace dctx::block8::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dctx::block8 {

HWY_EXPORT(ForwardF32);
HWY_EXPORT(InverseF32);
HWY_EXPORT(RoundtripF32);
HWY_EXPORT(ForwardI16);
HWY_EXPORT(InverseI16);
HWY_EXPORT(RoundtripI16);
HWY_EXPORT(ForwardQuantizeF32);
HWY_EXPORT(DequantizeInverseF32);
HWY_EXPORT(ForwardQuantizeI16);
HWY_EXPORT(DequantizeInverseI16);
HWY_EXPORT(QuantizeF32);
HWY_EXPORT(QuantizeI16);
HWY_EXPORT(DequantizeF32);
HWY_EXPORT(DequantizeI16);
HWY_EXPORT(TargetName);
HWY_EXPORT(LumaRgb8);
HWY_EXPORT(U8ToCenteredF32);
HWY_EXPORT(CenteredF32ToU8);

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
void quantize_f32(const float* in, std::ptrdiff_t is, std::int16_t* out, std::ptrdiff_t os,
                  std::size_t rows, std::size_t cols, const QuantF32& quant) {
  HWY_DYNAMIC_DISPATCH(QuantizeF32)(in, is, out, os, rows, cols, quant);
}
void quantize_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out, std::ptrdiff_t os,
                  std::size_t rows, std::size_t cols, const QuantF32& quant) {
  HWY_DYNAMIC_DISPATCH(QuantizeI16)(in, is, out, os, rows, cols, quant);
}
void dequantize_f32(const std::int16_t* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                    std::size_t rows, std::size_t cols, const QuantF32& quant) {
  HWY_DYNAMIC_DISPATCH(DequantizeF32)(in, is, out, os, rows, cols, quant);
}
void dequantize_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out, std::ptrdiff_t os,
                    std::size_t rows, std::size_t cols, const QuantF32& quant) {
  HWY_DYNAMIC_DISPATCH(DequantizeI16)(in, is, out, os, rows, cols, quant);
}
void luma_rgb8(const std::uint8_t* rgb, std::uint8_t* y, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(LumaRgb8)(rgb, y, n);
}
void u8_to_centered_f32(const std::uint8_t* in, float* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(U8ToCenteredF32)(in, out, n);
}
void centered_f32_to_u8(const float* in, std::uint8_t* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(CenteredF32ToU8)(in, out, n);
}
const char* simd_target_name() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }
std::int64_t simd_compiled_targets() { return HWY_TARGETS; }

}  // namespace dctx::block8
#endif  // HWY_ONCE
