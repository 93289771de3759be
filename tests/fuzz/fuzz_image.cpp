// SPDX-License-Identifier: BSD-3-Clause
// The image readers (src/image_io/): dctx::decode_image on arbitrary bytes, under a pixel limit of
// 2^22 so that one input stays well within libFuzzer's -rss_limit_mb and -timeout. It returns an
// image whose pixels match its dimensions or throws dctx::Error; anything else (a crash, a
// sanitizer report, a leak, an allocation beyond -rss_limit_mb, a hang) is a bug. A PNG input is
// decoded a second time with every chunk's CRC made right, so that mutations also reach the checks
// and the decoder behind the CRC check. Seeds: tests/fuzz/corpus/image/ (small valid files of
// every accepted kind, the reproducers of tests/image_io/hostile/ and the crashes found so far).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "dctx/image_io.hpp"
#include "dctx/types.hpp"

namespace {

void decode(const std::uint8_t* data, std::size_t size) {
  dctx::ImageReadOptions options;
  options.max_pixels = std::size_t{1} << 22;
  try {
    const dctx::Image im = dctx::decode_image(data, size, options, "fuzz input");
    const std::size_t n = std::size_t(im.width) * std::size_t(im.height) * std::size_t(im.channels);
    if (im.width < 1 || im.height < 1 || (im.channels != 1 && im.channels != 3) ||
        im.pixels.size() != n ||
        std::size_t(im.width) * std::size_t(im.height) > options.max_pixels)
      __builtin_trap();
    // Every byte is read, so that a memory checker (valgrind, MSan) sees an undefined one.
    unsigned sum = 0;
    for (std::uint8_t v : im.pixels) sum += v;
    volatile unsigned sink = sum;
    (void)sink;
  } catch (const dctx::Error&) {
  }
}

std::uint32_t be32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

/// CRC-32 of PNG chunks (polynomial 0xEDB88320, reflected), bit by bit.
std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

/// A copy of a PNG file with the CRC of every whole chunk recomputed.
std::vector<std::uint8_t> with_png_crcs(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> b(data, data + size);
  for (std::size_t pos = 8; size - pos >= 12;) {
    const std::uint32_t len = be32(&b[pos]);
    if (len > size - pos - 12) break;
    const std::uint32_t crc = crc32(&b[pos + 4], std::size_t{len} + 4);
    for (int i = 0; i < 4; ++i)
      b[pos + 8 + len + std::size_t(i)] = std::uint8_t(crc >> (24 - 8 * i));
    pos += 12 + std::size_t{len};
  }
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  decode(data, size);
  static const std::uint8_t kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (size >= 8 && std::memcmp(data, kPng, 8) == 0) {
    const std::vector<std::uint8_t> fixed = with_png_crcs(data, size);
    if (std::memcmp(fixed.data(), data, size) != 0) decode(fixed.data(), fixed.size());
  }
  return 0;
}
