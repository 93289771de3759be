// SPDX-License-Identifier: BSD-3-Clause
// Internal to the image readers. A file is checked before any decoder sees it: its format is told
// by its magic bytes (detect_format), its header and structure are parsed here (image_headers.cpp,
// image_png.cpp) with the dimensions checked against the limits and the file's size, and the
// bytes the decoder gets are normalised where stb_image would read undefined memory. Then the
// one matching decoder runs: stb_image's under a memory budget (stb_decode.cpp), or the binary
// PGM/PPM decoder here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dctx/image.hpp"
#include "dctx/types.hpp"

namespace dctx::detail {

enum class ImageFormat { Png, Bmp, Pnm, Jpeg };

/// "PNG", "BMP", "PGM/PPM", "JPEG".
const char* format_name(ImageFormat f);

/// The readers' messages about one file of one format ("read_image: 'x.png' is a corrupt PNG
/// file: ...").
struct FileErrors {
  std::string what;    ///< opens every message
  std::string format;  ///< "PNG", "BMP", "JPEG", "PGM/PPM"
  Error corrupt(const std::string& why) const {
    return Error(what + " is a corrupt " + format + " file: " + why);
  }
  Error truncated(const std::string& why) const {
    return Error(what + " is a truncated " + format + " file: " + why);
  }
};

/// A file that passed the checks, ready for its decoder.
struct PreparedImage {
  ImageFormat format = ImageFormat::Png;
  std::uint32_t width = 0, height = 0;
  /// A normalised copy for the decoder (PNG with a short palette padded, palette or OS/2 BMP in
  /// the Windows layout); empty: the file's own bytes.
  std::vector<std::uint8_t> bytes;
  int channels = 0;             ///< PGM/PPM: 1 or 3
  unsigned maxval = 0;          ///< PGM/PPM: 1..65535
  std::size_t data_offset = 0;  ///< PGM/PPM: where the samples start
};

/// The format by the first bytes; throws Error (`what` opening the message) for an empty file
/// and any other format, naming what the file seems to be.
ImageFormat detect_format(const std::uint8_t* data, std::size_t size, const std::string& what);

/// Check `data` (the whole file) and prepare it for its decoder. `what` opens every message
/// ("read_image: 'name'"). Throws Error: not one of the formats, truncated, corrupt, a kind of
/// the format the decoders do not take, a side over kMaxImageSide or more than max_pixels pixels.
PreparedImage prepare_image(const std::uint8_t* data, std::size_t size, std::size_t max_pixels,
                            const std::string& what);

// The parts of prepare_image, one per format (the magic bytes already checked).
PreparedImage prepare_png(const std::uint8_t* data, std::size_t size, std::size_t max_pixels,
                          const std::string& what);

/// Throws unless 1 <= width, height <= kMaxImageSide and width * height <= max_pixels.
void check_dimensions(std::uint64_t width, std::uint64_t height, std::size_t max_pixels,
                      const std::string& what, const char* format);

/// The samples of a prepared PGM/PPM file, scaled from 0..maxval to 0..255.
Image decode_pnm(const PreparedImage& p, const std::uint8_t* data, std::size_t size,
                 const std::string& what);

/// Decode a prepared PNG, BMP or JPEG with stb_image's decoder of that format alone, its
/// allocations limited to what the image's dimensions justify (and zero-filled, so that no
/// decoder path can hand back undefined bytes).
Image decode_with_stb(const PreparedImage& p, const std::uint8_t* data, std::size_t size,
                      const std::string& what);

/// CRC-32 of ISO 3309 / ITU-T V.42 (PNG's chunk CRC), over n bytes, continuing from crc.
std::uint32_t crc32(const std::uint8_t* p, std::size_t n, std::uint32_t crc = 0);

}  // namespace dctx::detail
