// SPDX-License-Identifier: BSD-3-Clause
// 8-bit image files. Reading: the file's bytes are checked and prepared (image_headers.cpp,
// image_png.cpp) and then decoded by the one decoder of their format (stb_decode.cpp: stb_image's
// PNG, BMP and JPEG decoders; image_headers.cpp: binary PGM/PPM). Writing: PNG and BMP through
// stb_image_write, PGM/PPM directly; writes go through a temporary file in the target folder and
// a rename, so a failure never leaves a partial file.
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"
#include "dctx/image_io.hpp"
#include "dctx/types.hpp"
#include "image_io/image_formats.hpp"

// stb_image_write compiled in and kept private (as stb_image is in stb_decode.cpp): a program
// that links dctx and its own stb gets no duplicate symbols.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace dctx {
namespace {

std::string lower_extension(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string e = path.substr(dot);
  for (auto& ch : e) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return e;
}

void check_image(const Image& im, const std::string& fn) {
  if (im.width <= 0 || im.height <= 0)
    throw Error(fn + ": image of " + std::to_string(im.width) + " x " + std::to_string(im.height) +
                " pixels is empty");
  if (im.channels != 1 && im.channels != 3)
    throw Error(fn + ": images have 1 (gray) or 3 (RGB) channels, got " +
                std::to_string(im.channels));
  const std::size_t n = std::size_t(im.width) * std::size_t(im.height) * std::size_t(im.channels);
  if (im.pixels.size() != n)
    throw Error(fn + ": image of " + std::to_string(im.width) + " x " + std::to_string(im.height) +
                " x " + std::to_string(im.channels) + " needs " + std::to_string(n) +
                " bytes, holds " + std::to_string(im.pixels.size()));
}

void append(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), std::size_t(size));
}

/// The readers' one path: checks, then the decoder of the format. `what` opens every message.
Image read_bytes(const std::uint8_t* data, std::size_t size, const ImageReadOptions& options,
                 const std::string& what) {
  if (options.max_pixels == 0)
    throw Error(what + ": ImageReadOptions::max_pixels must be at least 1");
  if (size > std::size_t(INT_MAX))
    throw Error(what + " is too large (the readers take files of less than 2 GiB)");
  if (size != 0 && data == nullptr) throw Error(what + ": no data (a null pointer)");
  const detail::PreparedImage p = detail::prepare_image(data, size, options.max_pixels, what);
  Image im = p.format == detail::ImageFormat::Pnm ? detail::decode_pnm(p, data, size, what)
                                                  : detail::decode_with_stb(p, data, size, what);
  check_image(im, what);
  return im;
}

}  // namespace

Image decode_image(const std::uint8_t* data, std::size_t size, const ImageReadOptions& options,
                   const std::string& name) {
  return read_bytes(data, size, options, "decode_image: '" + name + "'");
}

Image read_image(const std::string& path, const ImageReadOptions& options) {
  const std::string what = "read_image: '" + path + "'";
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error("read_image: cannot open '" + path + "': " + std::strerror(errno));
  // Read in pieces up to the decoders' 2 GiB, so that a pipe or device never fills the memory,
  // and stop after the first piece when it is none of the formats (/dev/zero, say).
  std::vector<std::uint8_t> bytes;
  try {
    constexpr std::size_t kPiece = std::size_t{1} << 20, kMax = std::size_t(INT_MAX);
    while (file && bytes.size() <= kMax) {
      const std::size_t at = bytes.size();
      bytes.resize(at + kPiece);
      file.read(reinterpret_cast<char*>(bytes.data() + at), std::streamsize(kPiece));
      bytes.resize(at + std::size_t(file.gcount()));
      if (at == 0 && file) detail::detect_format(bytes.data(), bytes.size(), what);
    }
  } catch (const Error&) {
    throw;                             // none of the formats
  } catch (const std::exception& e) {  // e.g. a folder: "Is a directory"
    throw Error("read_image: cannot read '" + path + "': " + e.what());
  }
  if (file.bad()) throw Error("read_image: cannot read '" + path + "'");
  if (bytes.size() > std::size_t(INT_MAX))
    throw Error(what + " is too large (the readers take files of less than 2 GiB)");
  return read_bytes(bytes.data(), bytes.size(), options, what);
}

void write_image(const std::string& path, const Image& image) {
  check_image(image, "write_image");
  const std::string ext = lower_extension(path);
  std::string bytes;
  const int w = image.width, h = image.height, c = image.channels;
  if (ext == ".png") {
    if (!stbi_write_png_to_func(append, &bytes, w, h, c, image.pixels.data(), w * c))
      throw Error("write_image: PNG encoding of '" + path + "' failed");
  } else if (ext == ".bmp") {
    if (!stbi_write_bmp_to_func(append, &bytes, w, h, c, image.pixels.data()))
      throw Error("write_image: BMP encoding of '" + path + "' failed");
  } else if (ext == ".pgm" || ext == ".ppm") {
    const int out_c = ext == ".pgm" ? 1 : 3;
    if (out_c == 1 && c != 1)
      throw Error("write_image: '" + path + "': PGM holds gray images; write RGB as .ppm or .png");
    bytes =
        (out_c == 1 ? "P5\n" : "P6\n") + std::to_string(w) + " " + std::to_string(h) + "\n255\n";
    const std::size_t px = std::size_t(w) * std::size_t(h);
    if (out_c == c) {
      bytes.append(reinterpret_cast<const char*>(image.pixels.data()), image.pixels.size());
    } else {  // gray as PPM
      for (std::size_t i = 0; i < px; ++i) bytes.append(3, static_cast<char>(image.pixels[i]));
    }
  } else {
    throw Error("write_image: cannot tell the format of '" + path +
                "' from its extension (use .png, .bmp, .pgm or .ppm)");
  }
  detail::write_file_atomic(path, bytes, "write_image");
}

}  // namespace dctx
