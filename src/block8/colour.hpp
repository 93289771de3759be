// SPDX-License-Identifier: BSD-3-Clause
// Colour conversions of the JPEG-style pipeline (jpeg.cpp), SIMD with run-time dispatch
// (colour.cc).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dctx::block8 {

/// The NVIDIA whitepaper's luma of n interleaved RGB pixels:
/// (313524 R + 615514 G + 119537 B + 524288) >> 20.
void luma_rgb8(const std::uint8_t* rgb, std::uint8_t* y, std::size_t n);
/// out = in - 128 (8-bit samples to the pipeline's level-shifted floats).
void u8_to_centered_f32(const std::uint8_t* in, float* out, std::size_t n);
/// out = clamp(round(in + 128), 0, 255), halves rounded up (away from zero on 0..255); NaN: 0.
void centered_f32_to_u8(const float* in, std::uint8_t* out, std::size_t n);

}  // namespace dctx::block8
