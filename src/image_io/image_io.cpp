// SPDX-License-Identifier: BSD-3-Clause
// 8-bit image files: reading through stb_image (BMP, PNG, PGM/PPM, JPEG only), writing PNG
// and BMP through stb_image_write and PGM/PPM directly; writes go through a temporary file in the
// target folder and a rename, so a failure never leaves a partial file.
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic_file.hpp"
#include "dctx/image_io.hpp"
#include "dctx/types.hpp"

// The single-file libraries are compiled here (no libstb at run time), with only the decoders of
// the formats the documentation names: the others (HDR, GIF, PSD, TGA, PIC) never see a file.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_BMP
#define STBI_ONLY_PNM
#define STBI_ONLY_JPEG
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

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

/// stb_image reads uncompressed BMP and binary PNM data without checking that the file holds it
/// all (a truncated file decodes with black rows). Return the byte count those formats need, or 0
/// when the file is another format (whose decoders notice truncation themselves).
std::size_t uncompressed_size_needed(const std::string& f) {
  const auto u8 = [&](std::size_t i) {
    return i < f.size() ? std::size_t(static_cast<unsigned char>(f[i])) : 0;
  };
  const auto le32 = [&](std::size_t i) {
    return u8(i) | u8(i + 1) << 8 | u8(i + 2) << 16 | u8(i + 3) << 24;
  };
  if (f.size() >= 34 && f[0] == 'B' && f[1] == 'M' && le32(14) >= 40) {
    const std::size_t compression = le32(30);
    if (compression != 0 && compression != 3) return 0;  // RLE: variable length
    const auto w = static_cast<std::int32_t>(le32(18)), h = static_cast<std::int32_t>(le32(22));
    const std::size_t bpp = u8(28) | u8(29) << 8;
    const std::size_t row = (bpp * std::size_t(std::abs(std::int64_t{w})) + 31) / 32 * 4;
    return le32(10) + row * std::size_t(std::abs(std::int64_t{h}));
  }
  if (f.size() >= 2 && f[0] == 'P' && (f[1] == '5' || f[1] == '6')) {
    std::size_t i = 2, v[3] = {0, 0, 0};
    for (auto& x : v) {
      while (i < f.size() && (std::isspace(static_cast<unsigned char>(f[i])) || f[i] == '#')) {
        if (f[i] == '#') {  // comment to the end of the line
          while (i < f.size() && f[i] != '\n') ++i;
        } else {
          ++i;
        }
      }
      while (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i])))
        x = x * 10 + std::size_t(f[i++] - '0');
    }
    const std::size_t channels = f[1] == '5' ? 1 : 3, bytes = v[2] > 255 ? 2 : 1;
    return i + 1 + v[0] * v[1] * channels * bytes;
  }
  return 0;
}

}  // namespace

Image read_image(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error("read_image: cannot open '" + path + "': " + std::strerror(errno));
  std::string bytes;
  try {
    bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  } catch (const std::exception& e) {  // e.g. a folder: "Is a directory"
    throw Error("read_image: cannot read '" + path + "': " + e.what());
  }
  if (file.bad()) throw Error("read_image: cannot read '" + path + "'");
  if (bytes.size() > std::size_t(std::numeric_limits<int>::max()))
    throw Error("read_image: '" + path + "' is too large");
  int w = 0, h = 0, n = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> data(
      stbi_load_from_memory(reinterpret_cast<const unsigned char*>(bytes.data()), int(bytes.size()),
                            &w, &h, &n, 0),
      stbi_image_free);
  if (!data)
    throw Error("read_image: '" + path + "' is not a readable image (" +
                (stbi_failure_reason() ? stbi_failure_reason() : "unknown format") + ")");
  if (const std::size_t need = uncompressed_size_needed(bytes); need > bytes.size())
    throw Error("read_image: '" + path + "' is truncated (" + std::to_string(bytes.size()) +
                " bytes, its header announces " + std::to_string(need) + ")");
  if (w <= 0 || h <= 0 || n < 1 || n > 4)
    throw Error("read_image: '" + path + "' has an unsupported layout");
  Image im;
  im.width = w;
  im.height = h;
  im.channels = n >= 3 ? 3 : 1;  // drop alpha
  const std::size_t px = std::size_t(w) * std::size_t(h);
  im.pixels.resize(px * std::size_t(im.channels));
  for (std::size_t i = 0; i < px; ++i)
    for (int c = 0; c < im.channels; ++c) im.pixels[i * im.channels + c] = data.get()[i * n + c];
  return im;
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
