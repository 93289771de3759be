// SPDX-License-Identifier: BSD-3-Clause
// PNG files (ISO/IEC 15948, the W3C PNG specification) before stb_image sees them: every chunk is
// walked and its CRC-32 verified (stb_image checks none), IHDR is checked and its dimensions held
// to the limits, the chunk order the specification requires is enforced, and the compressed data
// must be able to hold the image (deflate codes at most 258 bytes in 2 bits, so n bytes of IDAT
// never inflate to more than 1032 n). A palette image whose PLTE has fewer entries than its bit
// depth can index gets a copy with the PLTE padded with black entries, as libpng pads it: stb_image
// keeps its palette in an uninitialised stack array and would read the missing entries from it.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

#include "dctx/image_io.hpp"
#include "dctx/types.hpp"
#include "image_io/image_formats.hpp"

namespace dctx::detail {
namespace {

std::uint32_t be32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

void put_be32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

bool is_letter(std::uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

std::string hex32(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08X", v);
  return b;
}

/// Bytes of the filtered image data before compression: per row of each (Adam7) pass, one filter
/// byte and the row's bits rounded up to bytes.
std::uint64_t raw_size(std::uint64_t w, std::uint64_t h, std::uint64_t bits, bool interlaced) {
  const auto rows = [&](std::uint64_t pw, std::uint64_t ph) {
    return pw && ph ? ph * (1 + (pw * bits + 7) / 8) : 0;
  };
  if (!interlaced) return rows(w, h);
  static const int kPass[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                  {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};  // x0, y0, dx, dy
  std::uint64_t n = 0;
  for (const auto& p : kPass) {
    const std::uint64_t x0 = p[0], y0 = p[1], dx = p[2], dy = p[3];
    n += rows(w > x0 ? (w - x0 + dx - 1) / dx : 0, h > y0 ? (h - y0 + dy - 1) / dy : 0);
  }
  return n;
}

}  // namespace

std::uint32_t crc32(const std::uint8_t* p, std::size_t n, std::uint32_t crc) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (std::size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

PreparedImage prepare_png(const std::uint8_t* data, std::size_t size, std::size_t max_pixels,
                          const std::string& what) {
  const FileErrors errors{what, "PNG"};
  const auto corrupt = [&](const std::string& why) { return errors.corrupt(why); };
  const auto truncated = [&](const std::string& why) { return errors.truncated(why); };
  std::uint32_t width = 0, height = 0, depth = 0, color = 0, interlace = 0;
  std::uint32_t plte_entries = 0;
  std::size_t plte_at = 0;
  std::uint64_t idat_bytes = 0;
  bool ihdr = false, plte = false, idat = false, after_idat = false;
  std::size_t pos = 8;  // after the signature
  for (bool iend = false; !iend;) {
    if (size - pos < 12)
      throw truncated(pos == size ? "it ends before its IEND chunk"
                                  : "it ends inside a chunk header at byte " + std::to_string(pos));
    const std::uint32_t len = be32(data + pos);
    const std::uint8_t* type = data + pos + 4;
    const std::uint8_t* d = data + pos + 8;
    if (!is_letter(type[0]) || !is_letter(type[1]) || !is_letter(type[2]) || !is_letter(type[3]))
      throw corrupt("no chunk type at byte " + std::to_string(pos + 4) + " (" + hex32(be32(type)) +
                    ")");
    const std::string name(type, type + 4), chunk = "'" + name + "' chunk";
    if (len > 0x7FFFFFFFu)
      throw corrupt("its " + chunk + " at byte " + std::to_string(pos) + " announces " +
                    std::to_string(len) + " bytes");
    if (len > size - pos - 12)
      throw truncated("it ends inside its " + chunk + " at byte " + std::to_string(pos) + " (" +
                      std::to_string(len) + " bytes announced, " + std::to_string(size - pos - 12) +
                      " there)");
    const std::uint32_t stored = be32(d + len), computed = crc32(type, 4 + std::size_t{len});
    if (stored != computed)
      throw corrupt("its " + chunk + " at byte " + std::to_string(pos) +
                    " fails its CRC check (stored " + hex32(stored) + ", computed " +
                    hex32(computed) + ")");
    if (!ihdr && name != "IHDR") throw corrupt("its first chunk is '" + name + "', not IHDR");
    if (idat && name != "IDAT") after_idat = true;
    if (name == "IHDR") {
      if (ihdr) throw corrupt("a second IHDR chunk");
      if (len != 13) throw corrupt("an IHDR chunk of " + std::to_string(len) + " bytes, not 13");
      ihdr = true;
      width = be32(d);
      height = be32(d + 4);
      depth = d[8];
      color = d[9];
      interlace = d[12];
      const bool ok_depth =
          (color == 0 && (depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16)) ||
          (color == 3 && (depth == 1 || depth == 2 || depth == 4 || depth == 8)) ||
          ((color == 2 || color == 4 || color == 6) && (depth == 8 || depth == 16));
      if (!ok_depth)
        throw corrupt("bit depth " + std::to_string(depth) + " with colour type " +
                      std::to_string(color) + ", which the specification does not allow");
      if (d[10] != 0 || d[11] != 0 || interlace > 1)
        throw corrupt("compression, filter or interlace method " + std::to_string(d[10]) + ", " +
                      std::to_string(d[11]) + ", " + std::to_string(interlace) +
                      " (0, 0 and 0 or 1 exist)");
      if (width > 0x7FFFFFFFu || height > 0x7FFFFFFFu)
        throw corrupt("its IHDR announces " + std::to_string(width) + " x " +
                      std::to_string(height) + " pixels (at most 2^31 - 1 a side)");
      check_dimensions(width, height, max_pixels, what, "PNG");
    } else if (name == "PLTE") {
      if (plte) throw corrupt("a second PLTE chunk");
      if (idat) throw corrupt("a PLTE chunk after the image data");
      if (len == 0 || len % 3 != 0 || len > 768)
        throw corrupt("a PLTE chunk of " + std::to_string(len) +
                      " bytes (3 to 768, a multiple of 3)");
      plte = true;
      plte_entries = len / 3;
      plte_at = pos;
    } else if (name == "tRNS") {
      if (idat) throw corrupt("a tRNS chunk after the image data");
      if (color == 3 && !plte) throw corrupt("a tRNS chunk before the PLTE chunk");
      if (color == 3 && len > plte_entries)
        throw corrupt("a tRNS chunk of " + std::to_string(len) + " entries for a palette of " +
                      std::to_string(plte_entries));
      if (color == 4 || color == 6) throw corrupt("a tRNS chunk in an image with an alpha channel");
      if ((color == 0 && len != 2) || (color == 2 && len != 6))
        throw corrupt("a tRNS chunk of " + std::to_string(len) + " bytes for colour type " +
                      std::to_string(color));
    } else if (name == "IDAT") {
      if (after_idat) throw corrupt("its IDAT chunks are not consecutive");
      if (color == 3 && !plte) throw corrupt("a palette image without a PLTE chunk");
      idat = true;
      idat_bytes += len;
    } else if (name == "IEND") {
      if (!idat) throw corrupt("no image data (IDAT chunk) before its IEND chunk");
      iend = true;
    } else if ((type[0] & 0x20) == 0) {  // an upper-case first letter: critical
      throw Error(what + " is a PNG file with the critical chunk '" + name +
                  "', which the reader does not know");
    }
    pos += 12 + std::size_t{len};
  }
  static const std::uint32_t kSamples[7] = {1, 0, 3, 1, 2, 0, 4};
  const std::uint64_t raw = raw_size(width, height, kSamples[color] * depth, interlace == 1);
  if (raw > 1032 * idat_bytes)
    throw Error(what + " is a truncated or corrupt PNG file: its " + std::to_string(idat_bytes) +
                " bytes of compressed image data cannot hold the " + std::to_string(raw) +
                " bytes of its " + std::to_string(width) + " x " + std::to_string(height) +
                " pixels");

  PreparedImage p;
  p.format = ImageFormat::Png;
  p.width = width;
  p.height = height;
  const std::uint32_t indexable = 1u << depth;
  if (color == 3 && plte_entries < indexable) {
    // The copy: everything up to the PLTE chunk, a PLTE of 2^depth entries (the missing ones
    // black) with its CRC, everything after.
    const std::size_t old_len = 3 * std::size_t{plte_entries}, new_len = 3 * std::size_t{indexable};
    p.bytes.reserve(size + new_len - old_len);
    p.bytes.assign(data, data + plte_at);
    const std::size_t chunk = p.bytes.size();
    p.bytes.resize(chunk + 12 + new_len, 0);
    std::uint8_t* c = p.bytes.data() + chunk;
    put_be32(c, static_cast<std::uint32_t>(new_len));
    std::copy(data + plte_at + 4, data + plte_at + 8 + old_len, c + 4);  // type and entries
    put_be32(c + 8 + new_len, crc32(c + 4, 4 + new_len));
    p.bytes.insert(p.bytes.end(), data + plte_at + 12 + old_len, data + size);
  }
  return p;
}

}  // namespace dctx::detail
