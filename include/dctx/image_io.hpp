// SPDX-License-Identifier: BSD-3-Clause
// Image files (stb_image, stb_image_write). Built with the library's DCTX_IMAGE_IO option.
#pragma once

#include <string>

#include "dctx/image.hpp"

namespace dctx {

/// Read BMP, PNG, PGM/PPM or JPEG. Alpha is dropped, gray+alpha becomes gray. Throws dctx::Error
/// naming the file and the problem.
Image read_image(const std::string& path);
/// Write by extension: .png, .bmp, .pgm (gray) / .ppm (RGB). Written to a temporary file in the
/// same folder and renamed, so a failure never leaves a partial file.
void write_image(const std::string& path, const Image& image);

}  // namespace dctx
