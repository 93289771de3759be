// SPDX-License-Identifier: BSD-3-Clause
// Image files (stb_image, stb_image_write). Built with the library's DCTX_IMAGE_IO option.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "dctx/image.hpp"

namespace dctx {

/// The largest image the readers take by default, in pixels: 2^28 (16384 x 16384), more than the
/// largest camera sensors. Decoding an 8-bit RGB image that size takes 1.5 GiB at the peak (the
/// decoder's buffers and the Image), 3 GiB for a progressive JPEG.
inline constexpr std::size_t kDefaultMaxImagePixels = std::size_t{1} << 28;
/// The longest side the readers take, in pixels, whatever max_pixels says (stb_image's
/// STBI_MAX_DIMENSIONS is set to it).
inline constexpr std::size_t kMaxImageSide = std::size_t{1} << 20;

/// Limits of the readers. Every limit is checked against the file's header before any pixel is
/// decoded, so a small file announcing a huge image costs nothing.
struct ImageReadOptions {
  /// Largest width x height taken (>= 1); larger images are refused with an Error naming it.
  std::size_t max_pixels = kDefaultMaxImagePixels;
};

/// Read BMP, PNG, PGM/PPM or JPEG; the format is told by the file's first bytes, not by its name.
/// Alpha is dropped, gray+alpha becomes gray. Throws dctx::Error naming the file and the problem
/// (not an image file of these formats, truncated, corrupt, a kind of the format not supported,
/// more pixels than options.max_pixels). README "Image files" lists what is accepted.
Image read_image(const std::string& path, const ImageReadOptions& options = {});
/// decode_image: read_image on bytes in memory; `name` stands for the file in messages.
Image decode_image(const std::uint8_t* data, std::size_t size, const ImageReadOptions& options = {},
                   const std::string& name = "<memory>");
/// Write by extension: .png, .bmp, .pgm (gray) / .ppm (RGB). Written to a temporary file in the
/// same folder and renamed, so a failure never leaves a partial file.
void write_image(const std::string& path, const Image& image);

}  // namespace dctx
