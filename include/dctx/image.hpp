// SPDX-License-Identifier: BSD-3-Clause
// 8-bit images in memory, as the JPEG-style pipeline of the 8x8 block engine takes them.
// Reading and writing files is in dctx/image_io.hpp (an optional part of the library).
#pragma once

#include <cstdint>
#include <vector>

namespace dctx {

/// An 8-bit image, rows top to bottom, channels interleaved (1: gray, 3: RGB).
struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<std::uint8_t> pixels;  ///< height * width * channels bytes
};

/// The luma of the NVIDIA whitepaper (Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8
/// Blocks with CUDA"): Y = (313524 R + 615514 G + 119537 B + 524288) >> 20. Gray images unchanged.
Image image_luma(const Image& image);
/// PSNR = 10 log10(255^2 / MSE) over all samples; +infinity for identical images.
double psnr(const Image& a, const Image& b);

}  // namespace dctx
