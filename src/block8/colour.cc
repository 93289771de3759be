// SPDX-License-Identifier: BSD-3-Clause
// Run-time dispatch of the pipeline's colour conversions (colour-inl.h, once per Highway target).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "block8/colour.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "block8/colour-inl.h"
#include "block8/colour.hpp"

#if HWY_ONCE
namespace dctx::block8 {

HWY_EXPORT(LumaRgb8);
HWY_EXPORT(U8ToCenteredF32);
HWY_EXPORT(CenteredF32ToU8);

void luma_rgb8(const std::uint8_t* rgb, std::uint8_t* y, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(LumaRgb8)(rgb, y, n);
}
void u8_to_centered_f32(const std::uint8_t* in, float* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(U8ToCenteredF32)(in, out, n);
}
void centered_f32_to_u8(const float* in, std::uint8_t* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(CenteredF32ToU8)(in, out, n);
}

}  // namespace dctx::block8
#endif  // HWY_ONCE
