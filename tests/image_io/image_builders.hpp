// SPDX-License-Identifier: BSD-3-Clause
// Small image files written byte by byte for the reader tests, from the formats' specifications:
// PNG (chunks with their CRC-32, image data in stored deflate blocks, any bit depth, colour type
// and Adam7 interlacing), BMP (OS/2 and Windows headers, palettes, bit fields, top-down rows),
// binary PGM/PPM and tiny baseline and progressive JPEG files of one flat gray. Independent of
// the library's own parsers on purpose.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

// stb_image_write's JPEG encoder, private to each test file (the library keeps its own copy
// private too).
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace dctx::test_images {

using Bytes = std::vector<std::uint8_t>;

inline void put_be(Bytes& b, std::uint32_t v, int n) {
  for (int i = n - 1; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_le(Bytes& b, std::uint32_t v, int n) {
  for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void append(Bytes& b, const Bytes& more) { b.insert(b.end(), more.begin(), more.end()); }

/// A write callback for stb_image_write: appends to the Bytes at ctx. (Not inlined: GCC 12 at -O3
/// sees stb's constant-size calls through it and warns of overflows that cannot happen.)
[[gnu::noinline]] inline void collect_bytes(void* ctx, void* data, int n) {
  auto* b = static_cast<Bytes*>(ctx);
  const auto* p = static_cast<const std::uint8_t*>(data);
  b->insert(b->end(), p, p + n);
}

/// A JPEG of the w x h RGB pixels by stb_image_write at `quality`.
inline Bytes stb_jpeg(int w, int h, const std::uint8_t* rgb, int quality) {
  Bytes jpg;
  stbi_write_jpg_to_func(collect_bytes, &jpg, w, h, 3, rgb, quality);
  return jpg;
}

// ---------------------------------------------------------------------------------------------
// PNG

/// CRC-32 bit by bit (polynomial 0xEDB88320, reflected).
inline std::uint32_t crc32_bitwise(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

inline Bytes png_chunk(const std::string& type, const Bytes& data) {
  Bytes b(12 + data.size(), 0);  // length, type, data, CRC
  for (std::size_t i = 0; i < 4; ++i) {
    b[i] = static_cast<std::uint8_t>(data.size() >> (24 - 8 * i));
    b[4 + i] = static_cast<std::uint8_t>(type.at(i));
  }
  std::copy(data.begin(), data.end(), b.begin() + 8);
  const std::uint32_t crc = crc32_bitwise(b.data() + 4, data.size() + 4);
  for (std::size_t i = 0; i < 4; ++i)
    b[8 + data.size() + i] = static_cast<std::uint8_t>(crc >> (24 - 8 * i));
  return b;
}

/// A zlib stream of stored (uncompressed) deflate blocks.
inline Bytes zlib_stored(const Bytes& raw) {
  Bytes z{0x78, 0x01};
  std::size_t at = 0;
  do {
    const std::size_t n = std::min<std::size_t>(raw.size() - at, 65535);
    z.push_back(at + n == raw.size() ? 1 : 0);
    put_le(z, static_cast<std::uint32_t>(n), 2);
    put_le(z, static_cast<std::uint32_t>(~n & 0xFFFF), 2);
    z.insert(z.end(), raw.begin() + std::ptrdiff_t(at), raw.begin() + std::ptrdiff_t(at + n));
    at += n;
  } while (at < raw.size());
  std::uint32_t a = 1, b = 0;
  for (std::uint8_t v : raw) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  put_be(z, b << 16 | a, 4);
  return z;
}

/// Rows of samples (row-major, `spp` samples a pixel, each < 2^depth) packed at `depth` bits
/// (16: two bytes, most significant first), each row after a filter byte 0.
inline Bytes png_rows(std::uint32_t w, std::uint32_t h, int depth, int spp,
                      const std::vector<std::uint32_t>& samples) {
  Bytes raw;
  for (std::uint32_t y = 0; y < h; ++y) {
    raw.push_back(0);
    std::uint32_t acc = 0;
    int bits = 0;
    for (std::uint32_t i = 0; i < w * std::uint32_t(spp); ++i) {
      const std::uint32_t v = samples[y * w * std::uint32_t(spp) + i];
      if (depth == 16) {
        put_be(raw, v, 2);
        continue;
      }
      acc = acc << depth | v;
      bits += depth;
      if (bits == 8) {
        raw.push_back(static_cast<std::uint8_t>(acc));
        acc = 0;
        bits = 0;
      }
    }
    if (bits) raw.push_back(static_cast<std::uint8_t>(acc << (8 - bits)));
  }
  return raw;
}

/// The same samples as the seven Adam7 passes, each packed as png_rows does.
inline Bytes png_rows_adam7(std::uint32_t w, std::uint32_t h, int depth, int spp,
                            const std::vector<std::uint32_t>& samples) {
  static const int kPass[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                  {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
  Bytes raw;
  for (const auto& p : kPass) {
    std::vector<std::uint32_t> sub;
    std::uint32_t pw = 0, ph = 0;
    for (std::uint32_t y = std::uint32_t(p[1]); y < h; y += std::uint32_t(p[3]), ++ph) {
      pw = 0;
      for (std::uint32_t x = std::uint32_t(p[0]); x < w; x += std::uint32_t(p[2]), ++pw)
        for (int k = 0; k < spp; ++k) sub.push_back(samples[(y * w + x) * std::uint32_t(spp) + k]);
    }
    if (pw && ph) append(raw, png_rows(pw, ph, depth, spp, sub));
  }
  return raw;
}

/// A PNG file: IHDR, the `extra` chunks (e.g. PLTE, tRNS), one IDAT of `raw` (stored), IEND.
inline Bytes png_file(std::uint32_t w, std::uint32_t h, int depth, int color, const Bytes& raw,
                      const std::vector<std::pair<std::string, Bytes>>& extra = {},
                      int interlace = 0) {
  Bytes f{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  Bytes ihdr;
  put_be(ihdr, w, 4);
  put_be(ihdr, h, 4);
  for (int v : {depth, color, 0, 0, interlace}) ihdr.push_back(static_cast<std::uint8_t>(v));
  append(f, png_chunk("IHDR", ihdr));
  for (const auto& [type, data] : extra) append(f, png_chunk(type, data));
  append(f, png_chunk("IDAT", zlib_stored(raw)));
  append(f, png_chunk("IEND", {}));
  return f;
}

// ---------------------------------------------------------------------------------------------
// BMP

struct BmpSpec {
  int header = 40;                     ///< info header bytes: 12 (OS/2), 40, 108 or 124
  std::int32_t width = 0, height = 0;  ///< height < 0: rows top-down
  int bpp = 24;
  std::uint32_t compression = 0;     ///< 0 or 3 (bit fields, masks after a 40-byte header)
  std::vector<std::uint32_t> masks;  ///< R, G, B for compression 3
  Bytes palette;                     ///< B, G, R (and a zero with Windows headers) an entry
  std::uint32_t colors_used = 0;
  std::size_t gap = 0;  ///< bytes between the palette and the rows
};

/// A BMP file of `pixels` rows as stored (first row in the file first), each padded to 4 bytes.
inline Bytes bmp_file(const BmpSpec& s, const std::vector<Bytes>& rows) {
  Bytes info;
  put_le(info, std::uint32_t(s.header), 4);
  if (s.header == 12) {
    put_le(info, std::uint32_t(s.width), 2);
    put_le(info, std::uint32_t(s.height), 2);
    put_le(info, 1, 2);
    put_le(info, std::uint32_t(s.bpp), 2);
  } else {
    put_le(info, std::uint32_t(s.width), 4);
    put_le(info, std::uint32_t(s.height), 4);
    put_le(info, 1, 2);
    put_le(info, std::uint32_t(s.bpp), 2);
    put_le(info, s.compression, 4);
    for (int i = 0; i < 3; ++i) put_le(info, 0, 4);  // image size, resolution
    put_le(info, s.colors_used, 4);
    put_le(info, 0, 4);
    if (s.header > 40)
      for (std::size_t i = 0; i < 4; ++i) put_le(info, i < s.masks.size() ? s.masks[i] : 0, 4);
    info.resize(std::size_t(s.header), 0);
  }
  if (s.header == 40 && s.compression == 3)
    for (std::uint32_t m : s.masks) put_le(info, m, 4);
  Bytes pixels;
  for (const Bytes& r : rows) {
    append(pixels, r);
    pixels.resize((pixels.size() + 3) / 4 * 4, 0);
  }
  const std::size_t offset = 14 + info.size() + s.palette.size() + s.gap;
  Bytes f{'B', 'M'};
  put_le(f, std::uint32_t(offset + pixels.size()), 4);
  put_le(f, 0, 4);
  put_le(f, std::uint32_t(offset), 4);
  append(f, info);
  append(f, s.palette);
  f.resize(offset, 0);
  append(f, pixels);
  return f;
}

// ---------------------------------------------------------------------------------------------
// JPEG: one gray component, quantization table of ones, Huffman tables of one 1-bit code each
// (DC difference category 0; AC end-of-block), so every 8x8 block codes DC 0 (the gray 128):
// two bits a block in a baseline scan, one in a progressive DC scan.

inline Bytes jpeg_segment(std::uint8_t marker, const Bytes& body) {
  Bytes b{0xFF, marker};
  put_be(b, std::uint32_t(body.size() + 2), 2);
  append(b, body);
  return b;
}

/// `scan_bytes`: the entropy-coded bytes, or -1 for as many as the blocks need; `scans`: how
/// many times the scan is repeated.
inline Bytes jpeg_flat_gray(std::uint32_t w, std::uint32_t h, bool progressive,
                            long scan_bytes = -1, int scans = 1) {
  Bytes f{0xFF, 0xD8};
  Bytes dqt{0x00};
  dqt.resize(65, 1);
  append(f, jpeg_segment(0xDB, dqt));
  Bytes sof{8};
  put_be(sof, h, 2);
  put_be(sof, w, 2);
  for (int v : {1, 1, 0x11, 0}) sof.push_back(static_cast<std::uint8_t>(v));
  append(f, jpeg_segment(progressive ? 0xC2 : 0xC0, sof));
  Bytes dht_dc{0x00, 1};  // class 0 table 0: one code of length 1, symbol 0
  dht_dc.resize(17, 0);
  dht_dc.push_back(0);
  append(f, jpeg_segment(0xC4, dht_dc));
  if (!progressive) {
    Bytes dht_ac{0x10, 1};  // class 1 table 0: one code of length 1, symbol 0x00 (EOB)
    dht_ac.resize(17, 0);
    dht_ac.push_back(0);
    append(f, jpeg_segment(0xC4, dht_ac));
  }
  // SOS: one component, tables 0/0, spectral selection 0..63 (baseline) or 0..0 (DC scan).
  const Bytes sos = jpeg_segment(0xDA, {1, 1, 0x00, 0, std::uint8_t(progressive ? 0 : 63), 0});
  const std::uint64_t blocks = std::uint64_t(w + 7) / 8 * ((h + 7) / 8);
  const std::uint64_t bits = blocks * (progressive ? 1 : 2);
  const std::uint64_t n = scan_bytes < 0 ? (bits + 7) / 8 : std::uint64_t(scan_bytes);
  Bytes data(n, 0x00);
  if (scan_bytes < 0 && bits % 8) data.back() = std::uint8_t(0xFF >> (bits % 8));  // 1-bit padding
  for (int i = 0; i < scans; ++i) {
    append(f, sos);
    append(f, data);
  }
  f.push_back(0xFF);
  f.push_back(0xD9);
  return f;
}

}  // namespace dctx::test_images
