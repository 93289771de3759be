// SPDX-License-Identifier: BSD-3-Clause
// The image readers against hostile files: the reproducers of tests/image_io/hostile/ (each must
// be refused quickly with a message naming its problem), crafted files (CRC mismatches, headers
// announcing more than the file holds, the pixel limit and its override, truncation of every
// format, kinds of the formats the decoders do not take) and a short palette, which must decode
// to defined (black) pixels. Valid files of every accepted kind are in test_image_formats.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "dctx/image_io.hpp"
#include "expect_error.hpp"
#include "image_io/image_builders.hpp"

namespace dctx {
namespace {

using namespace test_images;  // NOLINT
using testing_support::expect_error;

const std::string kHostile = DCTX_HOSTILE_DIR;

/// Run fn on its own thread; a decode still running after `seconds` fails the test and ends the
/// process (a hung decoder cannot be stopped). Rethrows what fn throws.
void within(double seconds, const std::function<void()>& fn) {
  auto done = std::async(std::launch::async, fn);
  if (done.wait_for(std::chrono::duration<double>(seconds)) == std::future_status::timeout) {
    std::fprintf(stderr, "FAILED: a decode still runs after %g s\n", seconds);
    std::fflush(stderr);
    std::_Exit(1);
  }
  done.get();
}

constexpr double kQuick = 5.0;  // seconds; every refusal below takes milliseconds

void refused(const std::string& path, const std::string& part, const ImageReadOptions& o = {}) {
  expect_error([&] { within(kQuick, [&] { read_image(path, o); }); }, part);
}
void refused(const Bytes& b, const std::string& part, const ImageReadOptions& o = {}) {
  expect_error([&] { within(kQuick, [&] { decode_image(b.data(), b.size(), o, "f"); }); }, part);
}

Image decode(const Bytes& b, const ImageReadOptions& o = {}) {
  return decode_image(b.data(), b.size(), o, "f");
}

Bytes gray_png(std::uint32_t w, std::uint32_t h) {
  std::vector<std::uint32_t> v(std::size_t(w) * h);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint32_t(i * 7 % 256);
  return png_file(w, h, 8, 0, png_rows(w, h, 8, 1, v));
}

/// The reproducers: each refused at once, its message naming the problem.
TEST(ImageHostile, Reproducers) {
  refused(kHostile + "/bmp_huge_dims_24.bmp",
          "bmp_huge_dims_24.bmp' is a truncated BMP file (58 bytes, its header announces "
          "768000054)");
  for (const char* name : {"fuzz_gif_266MB.gif", "fuzz_hdr_hang.hdr", "fuzz_hdr_hang2.hdr"})
    refused(kHostile + "/" + name,
            std::string(name) + "' is not a BMP, PNG, PGM/PPM or JPEG file (it looks like a");
  refused(kHostile + "/fuzz_pnm_int_overflow.pgm",
          "is 4294967296 x 4294967296 pixels, more than the readers take (sides of at most "
          "1048576)");
  refused(kHostile + "/jpg_trunc.jpg",
          "jpg_trunc.jpg' is a truncated JPEG file: it ends inside its DHT (0xFFC4) segment");
  // Found by fuzz_image: a DHT segment whose table runs into the next segment, where stb_image
  // read code counts adding up to more codes than its arrays hold (it wrote past them), and DC
  // coefficients whose products overflow int in stb_image (undefined behaviour; now wrapping,
  // wrong but defined pixels).
  refused(kHostile + "/jpeg_dht_overflow.jpg",
          "is a corrupt JPEG file: a DHT segment at byte 21 ends inside a table header");
  within(kQuick, [] {
    const Image im = read_image(kHostile + "/jpeg_dc_overflow.jpg");
    EXPECT_EQ(im.pixels.size(), 16u * 8u);
  });
}

/// png_pal_short.png: a palette of one entry, indices up to 255. The entries the PLTE lacks read
/// as black (stb_image read them from an uninitialised stack array): same pixels every time.
TEST(ImageHostile, ShortPaletteDecodesToBlack) {
  const Image a = read_image(kHostile + "/png_pal_short.png");
  ASSERT_EQ(a.width, 16);
  ASSERT_EQ(a.height, 16);
  ASSERT_EQ(a.channels, 3);
  EXPECT_EQ(a.pixels, std::vector<std::uint8_t>(16 * 16 * 3, 0));
  // Crafted: 2-bit indices 0..3 over a palette of two colours; 2 and 3 are black.
  const std::vector<std::uint32_t> idx = {0, 1, 2, 3, 3, 2, 1, 0};
  const Bytes f =
      png_file(4, 2, 2, 3, png_rows(4, 2, 2, 1, idx), {{"PLTE", {10, 20, 30, 200, 100, 50}}});
  const Image b = decode(f);
  const std::vector<std::uint8_t> want = {10, 20, 30, 200, 100, 50, 0,   0,   0,  0,  0,  0,
                                          0,  0,  0,  0,   0,   0,  200, 100, 50, 10, 20, 30};
  EXPECT_EQ(b.pixels, want);
  EXPECT_EQ(decode(f).pixels, want);
  // A BMP palette shorter than its indices reach: black too.
  BmpSpec s;
  s.width = 4;
  s.height = 1;
  s.bpp = 8;
  s.palette = {1, 2, 3, 0, 4, 5, 6, 0};  // B, G, R, 0
  s.colors_used = 2;
  const Image c = decode(bmp_file(s, {{0, 1, 2, 255}}));
  EXPECT_EQ(c.pixels, (std::vector<std::uint8_t>{3, 2, 1, 6, 5, 4, 0, 0, 0, 0, 0, 0}));
}

TEST(ImageHostile, FormatByMagicBytes) {
  refused(Bytes{}, "'f' is empty");
  refused(Bytes{'h', 'e', 'l', 'l', 'o'}, "'f' is not a BMP, PNG, PGM/PPM or JPEG file");
  refused(Bytes{'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0}, "(it looks like a GIF file)");
  refused(Bytes{0x89, 'P', 'N', 'G', '\n', '\r', 0x1A, '\n'}, "damaged signature");
  refused(Bytes{'P', '2', '\n', '1', ' ', '1', '\n', '9', '\n', '0'}, "plain PGM file (P2)");
  refused(Bytes{'P', '4', '\n'}, "binary PBM file (P4)");
  // An endless device is refused after its first bytes, not read to the 2 GiB limit.
  if (std::ifstream("/dev/zero")) refused("/dev/zero", "'/dev/zero' is not a BMP, PNG, PGM/PPM");
  // The name does not matter: a PNG called .bmp is read as a PNG.
  const Bytes png = gray_png(3, 2);
  const std::string path = ::testing::TempDir() + "dctx_hostile_named.bmp";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size()));
  EXPECT_EQ(read_image(path).width, 3);
  std::remove(path.c_str());
}

TEST(ImageHostile, PngChunks) {
  const Bytes good = gray_png(8, 4);
  ASSERT_EQ(decode(good).width, 8);
  Bytes bad = good;
  bad[8 + 25 + 8 + 3] ^= 1;  // a byte of the IDAT chunk's data
  refused(bad, "is a corrupt PNG file: its 'IDAT' chunk at byte 33 fails its CRC check");
  bad = good;
  bad[8 + 8 + 12] ^= 1;  // IHDR's CRC itself
  refused(bad, "'IHDR' chunk at byte 8 fails its CRC check");
  for (std::size_t n = 8; n < good.size(); ++n)  // every truncation
    refused(Bytes(good.begin(), good.begin() + std::ptrdiff_t(n)), "is a truncated PNG file");
  // Chunk order and kinds.
  const Bytes raw = png_rows(1, 1, 8, 1, {0});
  Bytes cgbi{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  append(cgbi, png_chunk("CgBI", {0, 0, 0, 0}));
  append(cgbi, Bytes(good.begin() + 8, good.end()));
  refused(cgbi, "its first chunk is 'CgBI', not IHDR");
  refused(png_file(1, 1, 8, 0, raw, {{"ABCD", {}}}), "the critical chunk 'ABCD'");
  refused(png_file(1, 1, 8, 3, raw, {{"PLTE", {1, 2, 3, 4, 5, 6}}, {"tRNS", {1, 2, 3}}}),
          "a tRNS chunk of 3 entries for a palette of 2");
  refused(png_file(1, 1, 8, 3, raw), "a palette image without a PLTE chunk");
  refused(png_file(1, 1, 5, 0, raw), "bit depth 5 with colour type 0");
  refused(png_file(1, 1, 8, 6, raw, {{"tRNS", {0, 1}}}), "tRNS chunk in an image with an alpha");
  Bytes two = png_file(1, 1, 8, 0, raw);  // IDAT, tEXt, IDAT
  const Bytes text = png_chunk("tEXt", {'a', 0, 'b'}), idat = png_chunk("IDAT", {});
  two.insert(two.end() - 12, text.begin(), text.end());
  two.insert(two.end() - 12, idat.begin(), idat.end());
  refused(two, "is a corrupt PNG file: its IDAT chunks are not consecutive");
}

TEST(ImageHostile, PngDimensionsAgainstData) {
  // A header announcing far more than its compressed data can hold (deflate: <= 1032:1).
  refused(png_file(16384, 16384, 8, 0, Bytes(100, 0)),
          "is a truncated or corrupt PNG file: its 111 bytes of compressed image data cannot hold "
          "the 268451840 bytes of its 16384 x 16384 pixels");
  refused(png_file(20000, 20000, 8, 2, Bytes(10, 0)),
          "'f' is 20000 x 20000 = 400000000 pixels, more than the limit of 268435456 "
          "(ImageReadOptions::max_pixels)");
  refused(png_file(2000000, 1, 8, 0, Bytes(10, 0)), "sides of at most 1048576");
  refused(png_file(0, 5, 8, 0, Bytes(10, 0)), "has no pixels (its PNG header says 0 x 5)");
  // Compressed data that inflates far past its one pixel: refused by the decoders' memory budget.
  std::vector<unsigned char> zeros(std::size_t{16} << 20, 0);
  int len = 0;
  unsigned char* z = stbi_zlib_compress(zeros.data(), int(zeros.size()), &len, 5);
  ASSERT_NE(z, nullptr);
  Bytes f{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  append(f, png_chunk("IHDR", {0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0}));
  append(f, png_chunk("IDAT", Bytes(z, z + len)));
  append(f, png_chunk("IEND", {}));
  std::free(z);
  refused(f, "is a corrupt PNG file: decoding it takes more memory than its 1 x 1 pixels justify");
}

TEST(ImageHostile, PixelLimitOverride) {
  const Bytes f = gray_png(16, 16);
  refused(f, "is 16 x 16 = 256 pixels, more than the limit of 255 (ImageReadOptions::max_pixels)",
          {.max_pixels = 255});
  EXPECT_EQ(decode(f, {.max_pixels = 256}).pixels.size(), 256u);
  refused(f, "max_pixels must be at least 1", {.max_pixels = 0});
  // Raised, the limit lets a large header through to the next check.
  refused(png_file(20000, 20000, 8, 0, Bytes(10, 0)), "cannot hold",
          {.max_pixels = std::size_t{1} << 30});
  // The same for every format.
  refused(jpeg_flat_gray(64, 64, false), "more than the limit of 100", {.max_pixels = 100});
  refused(Bytes{'P', '5', ' ', '1', '1', ' ', '1', '0', ' ', '2', '5', '5', '\n'},
          "is 11 x 10 = 110 pixels, more than the limit of 100", {.max_pixels = 100});
  BmpSpec s;
  s.width = 20;
  s.height = -20;
  refused(bmp_file(s, std::vector<Bytes>(20, Bytes(60, 0))), "20 x 20 = 400 pixels",
          {.max_pixels = 399});
}

TEST(ImageHostile, Bmp) {
  BmpSpec s;
  s.width = 3;
  s.height = 2;
  const Bytes good = bmp_file(s, {Bytes(9, 1), Bytes(9, 2)});
  ASSERT_EQ(decode(good).pixels.size(), 18u);
  for (std::size_t n = 2; n < good.size(); ++n)
    refused(Bytes(good.begin(), good.begin() + std::ptrdiff_t(n)), "is a truncated BMP file (");
  Bytes bad = good;
  bad[23] = 0x10;  // height 2 -> 4098 rows
  refused(bad, "is a truncated BMP file (" + std::to_string(good.size()) +
                   " bytes, its header announces 49230)");
  bad = good;
  bad[21] = 0x80;  // width -> negative
  refused(bad, "is a corrupt BMP file: a negative width");
  s.compression = 1;
  s.bpp = 8;
  refused(bmp_file(s, {}), "run-length encoding (RLE)");
  s.compression = 0;
  s.bpp = 2;
  refused(bmp_file(s, {}), "2 bits a pixel");
  s.bpp = 8;
  refused(bmp_file(s, {Bytes(3, 0), Bytes(3, 0)}), "a palette image without a palette");
  bad = good;
  bad[14] = 64;  // OS/2 2.x header size
  refused(bad, "an info header of 64 bytes");
  bad = good;
  bad[10] = 20;  // pixel data offset inside the headers
  refused(bad, "its pixel data offset 20 lies inside its headers (54 bytes)");
  bad = good;
  bad[22] = 0;
  bad[23] = 0;
  bad[24] = 0;
  bad[25] = 0x80;  // height INT_MIN
  refused(bad, "sides of at most 1048576");
}

TEST(ImageHostile, Jpeg) {
  const Bytes good = jpeg_flat_gray(16, 16, false);
  ASSERT_EQ(decode(good).pixels, std::vector<std::uint8_t>(256, 128));
  for (std::size_t n = 3; n < good.size(); ++n)
    refused(Bytes(good.begin(), good.begin() + std::ptrdiff_t(n)), "is a truncated JPEG file: it");
  // 16000 x 16000 announced, 100 bytes of image data: 4,000,000 blocks need 500,000 at least.
  refused(jpeg_flat_gray(16000, 16000, false, 100),
          "is a truncated or corrupt JPEG file: its 100 bytes of image data cannot code the "
          "4000000 blocks of its 16000 x 16000 pixels");
  refused(jpeg_flat_gray(16000, 16000, true, 100), "cannot code the 4000000 blocks");
  Bytes bad = good;
  const std::size_t sof = 2 + 4 + 65;
  ASSERT_EQ(bad[sof + 1], 0xC0);
  bad[sof + 1] = 0xC3;
  refused(bad, "is a lossless, hierarchical or arithmetic-coded JPEG file (SOF3)");
  bad = good;
  bad[sof + 4] = 12;
  refused(bad, "is a JPEG file of 12-bit samples");
  bad = good;
  bad[sof + 5] = 0;
  bad[sof + 6] = 0;
  refused(bad, "whose height comes after its first scan");
  bad = good;
  bad[sof + 1] = 0xC8;
  refused(bad, "is a corrupt JPEG file: an unexpected marker JPG (0xFFC8) at byte 71");
  // The scans may visit the coefficients at most 16 times over (each baseline scan: once): a few
  // bytes a scan would otherwise make a small file decode for minutes.
  EXPECT_EQ(decode(jpeg_flat_gray(64, 64, false, -1, 16)).pixels,
            std::vector<std::uint8_t>(4096, 128));
  refused(jpeg_flat_gray(64, 64, false, -1, 17),
          "is a JPEG file of too many scans: they would visit its coefficients more than 16 times");
  Bytes dht{0xFF, 0xC4, 0x01, 0x3F, 0x10};  // one AC table of 15 x 16 + 60 = 300 codes
  for (int i = 0; i < 15; ++i) dht.push_back(16);
  dht.push_back(60);
  dht.resize(dht.size() + 300, 0);
  bad = good;
  bad.insert(bad.begin() + 2, dht.begin(), dht.end());
  refused(bad, "is a corrupt JPEG file: a Huffman table of 300 codes (at most 256)");
  bad = Bytes(good.begin(), good.end() - 2);  // no EOI
  refused(bad, "it ends inside its image data, before its end-of-image marker");
  // A JPEG written by stb_image_write, cut anywhere: refused, never decoded half.
  std::vector<std::uint8_t> rgb(24 * 16 * 3);
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = std::uint8_t(i * 13);
  const Bytes jpg = stb_jpeg(24, 16, rgb.data(), 90);
  ASSERT_EQ(decode(jpg).width, 24);
  for (std::size_t n = 3; n < jpg.size(); n += 7)
    refused(Bytes(jpg.begin(), jpg.begin() + std::ptrdiff_t(n)), "is a truncated JPEG file: it");
}

TEST(ImageHostile, Pnm) {
  const auto pgm = [](const std::string& s) { return Bytes(s.begin(), s.end()); };
  refused(pgm("P5\n2 2\n0\n    "), "is a corrupt PGM file: its maxval 0 is not in 1..65535");
  refused(pgm("P6\n2 2\n70000\n"), "is a corrupt PPM file: its maxval 70000 is not in 1..65535");
  refused(pgm("P5\n99999999999999999999999999 1\n255\n"),
          "is a corrupt PGM file: its width 99999999999999999999999999 is out of range");
  refused(pgm("P5\nx 1\n255\n"), "is a corrupt PGM file: no width in its header");
  refused(pgm("P5 # just a comment"), "is a truncated PGM file: it ends before its width");
  refused(pgm("P5\n2 1\n255"), "is a truncated PGM file: it ends after its maxval");
  refused(pgm("P5\n2 1\n15\n\x03\x10"),
          "is a corrupt PGM file: sample 1 is 16, above its maxval 15");
  refused(pgm("P6\n2 1\n65535\n" + std::string(11, 'x')),
          "is a truncated PPM file (24 bytes, its header announces 25)");
  refused(pgm("P5\n0 7\n255\n"), "has no pixels (its PGM header says 0 x 7)");
}

/// The memory budget is per thread: decodes on several threads at once each get their own.
TEST(ImageHostile, ConcurrentDecodes) {
  const Bytes png = gray_png(64, 48), jpg = jpeg_flat_gray(40, 24, true);
  const Image want_png = decode(png), want_jpg = decode(jpg);
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        ok[std::size_t(t)] += decode(png).pixels == want_png.pixels;
        ok[std::size_t(t)] += decode(jpg).pixels == want_jpg.pixels;
        try {
          decode(png_file(16384, 16384, 8, 0, Bytes(100, 0)));
        } catch (const Error&) {
          ++ok[std::size_t(t)];
        }
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok, std::vector<int>(4, 150));
}

}  // namespace
}  // namespace dctx
