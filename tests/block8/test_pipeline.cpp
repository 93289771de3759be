// SPDX-License-Identifier: BSD-3-Clause
// The pipeline of the NVIDIA whitepaper on Barbara (on every SIMD target of the block kernels),
// image reading and writing, and their errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "cpu/block8/targets.hpp"
#include "dctx/block8.hpp"
#include "dctx/image_io.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

namespace fs = std::filesystem;
const std::string kBarbara = DCTX_DATA_DIR "/barbara.bmp";

using testing_support::expect_error;

/// A fresh empty folder for one test.
fs::path scratch(const std::string& name) {
  const fs::path p =
      fs::temp_directory_path() / ("dctx_block8_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// The Barbara pipeline on every target.
class PipelineOnTargets : public test8::PerTarget {};
DCTX_INSTANTIATE_PER_TARGET(PipelineOnTargets);

TEST_P(PipelineOnTargets, BarbaraPsnr) {
  const Image im = read_image(DCTX_DATA_DIR "/barbara.bmp");
  const auto f = jpeg_roundtrip(im, {});
  EXPECT_NEAR(f.psnr_db, 32.7771, 0.001);
  JpegOptions o;
  o.kernel = Block8Kernel::Int16;
  EXPECT_NEAR(jpeg_roundtrip(im, o).psnr_db, 32.7771, 0.05);
}

TEST(Pipeline, BarbaraNvidiaTableFloat) {
  const Image im = read_image(kBarbara);
  ASSERT_EQ(im.width, 512);
  ASSERT_EQ(im.height, 512);
  ASSERT_EQ(im.channels, 3);
  const JpegResult r = jpeg_roundtrip(im, {});
  // Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with CUDA", Table 1: 32.777092
  // (CPU gold 1), 32.777050 (gold 2).
  EXPECT_NEAR(r.psnr_db, 32.7771, 0.001);
  EXPECT_EQ(r.image.channels, 1);
  EXPECT_GT(r.zero_fraction, 0.5);
  EXPECT_LT(r.zero_fraction, 1.0);
  EXPECT_GT(r.seconds, 0.0);
  EXPECT_EQ(r.kernel, "fast");
  EXPECT_EQ(r.backend, "cpu:" + block8_target());
  std::printf("[ BARBARA  ] fast float: %.6f dB, %.4f zeros\n", r.psnr_db, r.zero_fraction);
}

TEST(Pipeline, BarbaraReferenceAndInt16) {
  const Image im = read_image(kBarbara);
  JpegOptions o;
  o.kernel = Block8Kernel::Reference;
  const JpegResult ref = jpeg_roundtrip(im, o);
  EXPECT_NEAR(ref.psnr_db, 32.7771, 0.001);
  o.kernel = Block8Kernel::Int16;
  const JpegResult i16 = jpeg_roundtrip(im, o);
  EXPECT_NEAR(i16.psnr_db, 32.7771, 0.05);
  EXPECT_NEAR(i16.zero_fraction, ref.zero_fraction, 0.01);
  std::printf("[ BARBARA  ] reference: %.6f dB; int16: %.6f dB\n", ref.psnr_db, i16.psnr_db);
}

TEST(Pipeline, JpegTablesQualityAndColour) {
  const Image im = read_image(kBarbara);
  JpegOptions o;
  o.table = QuantTableKind::Jpeg;
  double last = 0;
  for (int q : {10, 50, 90}) {  // quality up -> PSNR up, fewer zeros
    o.quality = q;
    const auto r = jpeg_roundtrip(im, o);
    EXPECT_GT(r.psnr_db, last) << q;
    last = r.psnr_db;
  }
  // Barbara is gray (R = G = B); make a colour image from it: R = Barbara, G = Barbara
  // transposed, B = its negative.
  Image rgb = im;
  for (int y = 0; y < 512; ++y)
    for (int x = 0; x < 512; ++x) {
      const std::uint8_t v = im.pixels[3 * (std::size_t(y) * 512 + std::size_t(x))];
      rgb.pixels[3 * (std::size_t(x) * 512 + std::size_t(y)) + 1] = v;
      rgb.pixels[3 * (std::size_t(y) * 512 + std::size_t(x)) + 2] =
          static_cast<std::uint8_t>(255 - v);
    }
  o.quality = 75;
  o.color = true;
  const auto c = jpeg_roundtrip(rgb, o);
  EXPECT_EQ(c.image.channels, 3);
  EXPECT_GT(c.psnr_db, 28.0);
  EXPECT_LT(c.psnr_db, 40.0);
  o.kernel = Block8Kernel::Int16;
  const auto ci = jpeg_roundtrip(rgb, o);
  EXPECT_NEAR(ci.psnr_db, c.psnr_db, 0.1);
  std::printf("[ COLOUR   ] jpeg q75 YCbCr: float %.4f dB, int16 %.4f dB\n", c.psnr_db, ci.psnr_db);
  o.quality = 0;
  expect_error([&] { jpeg_roundtrip(im, o); }, "1..100");
}

TEST(Pipeline, OddSizesArePaddedOrRefused) {
  Image im = read_image(kBarbara);
  // Crop to 509 x 307 (neither a multiple of 8).
  Image crop{509, 307, 3, {}};
  for (int y = 0; y < crop.height; ++y)
    for (int x = 0; x < crop.width * 3; ++x)
      crop.pixels.push_back(im.pixels[std::size_t(y) * 512 * 3 + std::size_t(x)]);
  const auto r = jpeg_roundtrip(crop, {});
  EXPECT_EQ(r.image.width, 509);
  EXPECT_EQ(r.image.height, 307);
  EXPECT_GT(r.psnr_db, 30.0);
  JpegOptions strict;
  strict.edge = Block8Edge::Error;
  expect_error([&] { jpeg_roundtrip(crop, strict); }, "multiples of 8");
}

TEST(Pipeline, LumaFormulaAndPsnr) {
  const Image rgb{2, 1, 3, {255, 0, 0, 10, 200, 30}};
  const Image y = image_luma(rgb);
  ASSERT_EQ(y.channels, 1);
  EXPECT_EQ(y.pixels[0], (313524u * 255 + 524288) >> 20);                                // 76
  EXPECT_EQ(y.pixels[1], (313524u * 10 + 615514u * 200 + 119537u * 30 + 524288) >> 20);  // 123
  EXPECT_TRUE(std::isinf(psnr(y, y)));
  Image z = y;
  z.pixels[0] += 1;
  EXPECT_NEAR(psnr(y, z), 10 * std::log10(255.0 * 255.0 / 0.5), 1e-9);
  expect_error([&] { psnr(y, rgb); }, "differ in size");
}

TEST(ImageIo, WriteReadRoundTrip) {
  const fs::path dir = scratch("io");
  const Image im = image_luma(read_image(kBarbara));
  Image rgb = read_image(kBarbara);
  for (const char* name : {"a.png", "a.bmp", "a.pgm", "A.PNG"}) {
    write_image((dir / name).string(), im);
    // (stb writes gray BMPs as 24-bit, R = G = B: they read back as RGB with the same luma.)
    const Image back = image_luma(read_image((dir / name).string()));
    EXPECT_EQ(back.pixels, im.pixels) << name;
  }
  for (const char* name : {"c.png", "c.bmp", "c.ppm"}) {
    write_image((dir / name).string(), rgb);
    EXPECT_EQ(read_image((dir / name).string()).pixels, rgb.pixels) << name;
  }
  EXPECT_EQ(entries(dir), 7u);  // no temporary files left
  fs::remove_all(dir);
}

TEST(ImageIo, ErrorsLeaveNothingBehind) {
  const fs::path dir = scratch("errors");
  expect_error([&] { read_image((dir / "missing.png").string()); }, "missing.png");
  {
    std::ofstream((dir / "text.png").string()) << "this is not an image\n";
    std::ifstream src(kBarbara, std::ios::binary);
    std::vector<char> head(200);
    src.read(head.data(), std::streamsize(head.size()));
    std::ofstream((dir / "truncated.bmp").string(), std::ios::binary)
        .write(head.data(), std::streamsize(head.size()));
    std::ofstream((dir / "truncated.pgm").string(), std::ios::binary) << "P5\n# short\n16 16\n255\n"
                                                                      << std::string(100, 'x');
  }
  expect_error([&] { read_image((dir / "text.png").string()); },
               "text.png' is not a BMP, PNG, PGM/PPM or JPEG file");
  expect_error([&] { read_image((dir / "truncated.bmp").string()); },
               "truncated.bmp' is a truncated BMP file");
  expect_error([&] { read_image((dir / "truncated.pgm").string()); },
               "is a truncated PGM file (121 bytes, its header announces 277)");
  expect_error([&] { read_image(dir.string()); }, "cannot read");
  const Image gray{8, 8, 1, std::vector<std::uint8_t>(64, 7)};
  expect_error([&] { write_image((dir / "out.tiff").string(), gray); }, "extension");
  expect_error([&] { write_image((dir / "nofolder" / "out.png").string(), gray); }, "out.png");
  expect_error(
      [&] {
        write_image((dir / "rgb.pgm").string(), Image{8, 8, 3, std::vector<std::uint8_t>(192)});
      },
      "PGM");
  expect_error(
      [&] {
        write_image((dir / "bad.png").string(), Image{8, 8, 1, std::vector<std::uint8_t>(10)});
      },
      "bytes");
  expect_error([&] { write_image((dir / "bad.png").string(), Image{0, 8, 1, {}}); }, "empty");
  EXPECT_EQ(entries(dir), 3u);  // just the three inputs made above
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dctx
