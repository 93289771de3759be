// SPDX-License-Identifier: BSD-3-Clause
// Valid files of every kind the readers accept decode to the exact pixels: PNG of every colour
// type and bit depth, interlaced, with transparency; BMP with OS/2 and Windows headers, palettes
// of 1, 4 and 8 bits, 16, 24 and 32 bits, bit fields, top-down rows, a gap before the rows; binary
// PGM/PPM of 8 and 16 bits and maxvals other than 255; baseline and progressive JPEG (flat gray,
// which decodes exactly) and a JPEG written by stb_image_write (within the loss of its quality).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "dctx/image_io.hpp"
#include "image_io/image_builders.hpp"

namespace dctx {
namespace {

using namespace test_images;  // NOLINT
using Pixels = std::vector<std::uint8_t>;

Image decode(const Bytes& b) { return decode_image(b.data(), b.size()); }

/// The bytes of a string literal, embedded zeros included.
template <std::size_t N>
Bytes bytes(const char (&s)[N]) {
  return Bytes(s, s + N - 1);
}

void expect_image(const Image& im, int w, int h, int c, const Pixels& want) {
  EXPECT_EQ(im.width, w);
  EXPECT_EQ(im.height, h);
  EXPECT_EQ(im.channels, c);
  EXPECT_EQ(im.pixels, want);
}

/// w x h x spp samples below 2^depth, a different pattern per channel.
std::vector<std::uint32_t> pattern(std::uint32_t w, std::uint32_t h, int spp, int depth) {
  std::vector<std::uint32_t> v(std::size_t(w) * h * std::size_t(spp));
  const std::uint32_t mask = depth == 16 ? 0xFFFF : (1u << depth) - 1;
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint32_t(i * 2654435761u >> 7) & mask;
  return v;
}

/// The 8-bit image a decoder should give for PNG samples: alpha dropped, gray kept, 16-bit
/// reduced to its most significant byte, low gray depths scaled to 0..255.
Pixels expected_png(const std::vector<std::uint32_t>& v, int spp, int depth) {
  const int keep = spp >= 3 ? 3 : 1;
  Pixels out;
  for (std::size_t i = 0; i < v.size(); i += std::size_t(spp))
    for (int k = 0; k < keep; ++k) {
      const std::uint32_t s = v[i + std::size_t(k)];
      out.push_back(std::uint8_t(depth == 16  ? s >> 8
                                 : depth == 8 ? s
                                              : s * 255 / ((1u << depth) - 1)));
    }
  return out;
}

TEST(ImageFormats, PngColourTypesAndDepths) {
  const std::uint32_t w = 7, h = 5;
  struct Kind {
    int color, spp;
    std::vector<int> depths;
  };
  for (const Kind& k : {Kind{0, 1, {1, 2, 4, 8, 16}}, Kind{2, 3, {8, 16}}, Kind{4, 2, {8, 16}},
                        Kind{6, 4, {8, 16}}})
    for (int depth : k.depths)
      for (int interlace : {0, 1}) {
        SCOPED_TRACE("colour type " + std::to_string(k.color) + ", depth " + std::to_string(depth) +
                     ", interlace " + std::to_string(interlace));
        const auto v = pattern(w, h, k.spp, depth);
        const Bytes raw =
            interlace ? png_rows_adam7(w, h, depth, k.spp, v) : png_rows(w, h, depth, k.spp, v);
        expect_image(decode(png_file(w, h, depth, k.color, raw, {}, interlace)), int(w), int(h),
                     k.spp >= 3 ? 3 : 1, expected_png(v, k.spp, depth));
      }
}

TEST(ImageFormats, PngPalettesAndTransparency) {
  const std::uint32_t w = 9, h = 3;
  for (int depth : {1, 2, 4, 8}) {
    const std::uint32_t entries = 1u << depth;
    Bytes plte;
    for (std::uint32_t i = 0; i < entries * 3; ++i) plte.push_back(std::uint8_t(i * 37 + 11));
    const auto idx = pattern(w, h, 1, depth);
    Pixels want;
    for (std::uint32_t i : idx)
      for (int c = 0; c < 3; ++c) want.push_back(plte[i * 3 + std::uint32_t(c)]);
    const Bytes raw = png_rows(w, h, depth, 1, idx);
    expect_image(decode(png_file(w, h, depth, 3, raw, {{"PLTE", plte}})), int(w), int(h), 3, want);
    // tRNS on a palette: alpha added, then dropped.
    expect_image(decode(png_file(w, h, depth, 3, raw, {{"PLTE", plte}, {"tRNS", {0, 128}}})),
                 int(w), int(h), 3, want);
  }
  // tRNS on gray and RGB: the colour key becomes alpha, dropped.
  const auto g = pattern(w, h, 1, 8);
  expect_image(decode(png_file(w, h, 8, 0, png_rows(w, h, 8, 1, g), {{"tRNS", {0, 5}}})), int(w),
               int(h), 1, expected_png(g, 1, 8));
  const auto rgb = pattern(w, h, 3, 8);
  expect_image(
      decode(png_file(w, h, 8, 2, png_rows(w, h, 8, 3, rgb), {{"tRNS", {0, 1, 0, 2, 0, 3}}})),
      int(w), int(h), 3, expected_png(rgb, 3, 8));
  // Ancillary chunks before and after the image data are skipped.
  Bytes f = png_file(w, h, 8, 0, png_rows(w, h, 8, 1, g), {{"gAMA", {0, 1, 0x86, 0xA0}}});
  const Bytes text = png_chunk("tEXt", {'k', 0, 'v'});
  f.insert(f.end() - 12, text.begin(), text.end());
  expect_image(decode(f), int(w), int(h), 1, expected_png(g, 1, 8));
}

/// Rows of a BMP image as stored: `bgr(x, y)` for each pixel of a row, bottom-up unless top-down.
TEST(ImageFormats, BmpKinds) {
  const int w = 5, h = 3;
  Pixels want;  // the image, RGB, top row first
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) want.push_back(std::uint8_t(40 * x + 70 * y + 9 * c));
  const auto rgb = [&](int x, int y, int c) { return want[std::size_t((y * w + x) * 3 + c)]; };
  const auto rows24 = [&](bool top_down) {
    std::vector<Bytes> rows;
    for (int r = 0; r < h; ++r) {
      const int y = top_down ? r : h - 1 - r;
      Bytes row;
      for (int x = 0; x < w; ++x)
        for (int c = 2; c >= 0; --c) row.push_back(rgb(x, y, c));
      rows.push_back(row);
    }
    return rows;
  };
  for (int header : {12, 40, 108, 124})
    for (bool top_down : {false, true}) {
      if (header == 12 && top_down) continue;  // OS/2 bitmaps are bottom-up
      SCOPED_TRACE("24-bit, header " + std::to_string(header) + (top_down ? ", top-down" : ""));
      BmpSpec s;
      s.header = header;
      s.width = w;
      s.height = top_down ? -h : h;
      expect_image(decode(bmp_file(s, rows24(top_down))), w, h, 3, want);
      s.gap = 10;  // bytes between the headers and the rows
      expect_image(decode(bmp_file(s, rows24(top_down))), w, h, 3, want);
    }
  // 32-bit with bit fields (B, G, R, unused bytes) and with the default layout.
  for (std::uint32_t compression : {0u, 3u}) {
    BmpSpec s;
    s.width = w;
    s.height = h;
    s.bpp = 32;
    s.compression = compression;
    if (compression == 3) s.masks = {0x00FF0000, 0x0000FF00, 0x000000FF};
    std::vector<Bytes> rows = rows24(false);
    for (Bytes& r : rows) {
      Bytes r32;
      for (std::size_t i = 0; i < r.size(); i += 3)
        r32.insert(r32.end(), {r[i], r[i + 1], r[i + 2], 0});
      r = r32;
    }
    expect_image(decode(bmp_file(s, rows)), w, h, 3, want);
  }
  // 16-bit 5-5-5: components 0 and 31 only, which read back as 0 and 255.
  {
    BmpSpec s;
    s.width = 3;
    s.height = 1;
    s.bpp = 16;
    Bytes row;
    for (std::uint32_t v : {0x7C00u, 0x03E0u, 0x001Fu}) put_le(row, v, 2);  // red, green, blue
    expect_image(decode(bmp_file(s, {row})), 3, 1, 3, {255, 0, 0, 0, 255, 0, 0, 0, 255});
  }
}

TEST(ImageFormats, BmpPalettes) {
  const int w = 11, h = 2;
  for (int bpp : {1, 4, 8})
    for (int header : {12, 40, 124}) {
      SCOPED_TRACE("palette of " + std::to_string(bpp) + " bits, header " + std::to_string(header));
      const int entries = 1 << bpp;
      BmpSpec s;
      s.header = header;
      s.width = w;
      s.height = h;
      s.bpp = bpp;
      for (int i = 0; i < entries; ++i) {
        for (int c = 0; c < 3; ++c) s.palette.push_back(std::uint8_t(i * 29 + c * 80));  // B, G, R
        if (header != 12) s.palette.push_back(0);
      }
      const auto idx = pattern(w, h, 1, bpp);  // top row first
      Pixels want;
      for (std::uint32_t i : idx)
        for (int c = 2; c >= 0; --c) want.push_back(std::uint8_t(int(i) * 29 + c * 80));
      std::vector<Bytes> rows;
      for (int r = h - 1; r >= 0; --r) {
        Bytes row;
        std::uint32_t acc = 0;
        int bits = 0;
        for (int x = 0; x < w; ++x) {
          acc = acc << bpp | idx[std::size_t(r * w + x)];
          bits += bpp;
          if (bits == 8) {
            row.push_back(std::uint8_t(acc));
            acc = 0;
            bits = 0;
          }
        }
        if (bits) row.push_back(std::uint8_t(acc << (8 - bits)));
        rows.push_back(row);
      }
      expect_image(decode(bmp_file(s, rows)), w, h, 3, want);
    }
}

TEST(ImageFormats, PgmPpm) {
  expect_image(decode(bytes("P5\n3 2\n255\n\x01\x02\x03\x04\x05\xFF")), 3, 2, 1,
               {1, 2, 3, 4, 5, 255});
  expect_image(decode(bytes("P6 # comment\n# another\n1 2 255\tABCDEF")), 1, 2, 3,
               {'A', 'B', 'C', 'D', 'E', 'F'});
  // maxval 15: 0..15 scaled to 0..255 (x 17).
  expect_image(decode(bytes("P5\n4 1\n15\n\x00\x01\x0E\x0F")), 4, 1, 1, {0, 17, 238, 255});
  // 16 bits, most significant byte first: round(v * 255 / maxval).
  expect_image(decode(bytes("P5\n3 1\n65535\n\x00\x00\x80\x00\xFF\xFF")), 3, 1, 1, {0, 128, 255});
  expect_image(decode(bytes("P6\n1 1\n1023\n\x03\xFF\x02\x00\x00\x01")), 1, 1, 3, {255, 128, 0});
  // Bytes after the samples (a second image) are ignored.
  expect_image(decode(bytes("P5\n1 1\n255\n\x07P5\n1 1\n255\n\x08")), 1, 1, 1, {7});
}

TEST(ImageFormats, Jpeg) {
  for (bool progressive : {false, true}) {
    const Image im = decode(jpeg_flat_gray(21, 13, progressive));
    expect_image(im, 21, 13, 1, Pixels(21 * 13, 128));
  }
  // A colour JPEG by stb_image_write at quality 100: within a few levels of the original.
  const int w = 32, h = 24;
  Pixels rgb(std::size_t(w * h * 3));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c)
        rgb[std::size_t((y * w + x) * 3 + c)] = std::uint8_t(4 * x + 6 * y + 40 * c);
  const Bytes jpg = stb_jpeg(w, h, rgb.data(), 100);
  const Image im = decode(jpg);
  ASSERT_EQ(im.width, w);
  ASSERT_EQ(im.height, h);
  ASSERT_EQ(im.channels, 3);
  int worst = 0;
  for (std::size_t i = 0; i < rgb.size(); ++i)
    worst = std::max(worst, std::abs(int(im.pixels[i]) - int(rgb[i])));
  EXPECT_LE(worst, 8);
}

}  // namespace
}  // namespace dctx
