// SPDX-License-Identifier: BSD-3-Clause
// Quantization tables and rounding, edge replication, threads, and the errors bad arguments get.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "block8/constants.hpp"
#include "cpu/block8/oracle8.hpp"
#include "cpu/block8/scalar.hpp"
#include "dctx/block8.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

using testing_support::expect_error;

TEST(QuantTables, Nvidia) {
  const auto t = quant_table_nvidia();
  EXPECT_EQ(t.q[0], 32);
  EXPECT_EQ(t.q[7], 17);
  EXPECT_EQ(t.q[8 * 3], 81);
  EXPECT_EQ(t.q[63], 12);
  for (int u = 0; u < 8; ++u)  // the whitepaper's table is symmetric
    for (int v = 0; v < 8; ++v) EXPECT_EQ(t.q[8 * u + v], t.q[8 * v + u]);
  EXPECT_EQ(quant_table_scaled(t, 50), t);  // quality 50 = scale 100 % = unchanged
}

TEST(QuantTables, JpegAnnexKAndLibjpegScaling) {
  const auto l50 = quant_table_jpeg_luma(50), c50 = quant_table_jpeg_chroma(50);
  EXPECT_EQ(l50.q[0], 16);
  EXPECT_EQ(l50.q[1], 11);
  EXPECT_EQ(l50.q[8 * 4 + 5], 109);
  EXPECT_EQ(l50.q[63], 99);
  EXPECT_EQ(c50.q[0], 17);
  EXPECT_EQ(c50.q[3], 47);
  EXPECT_EQ(c50.q[63], 99);
  EXPECT_EQ(jpeg_quality_scaling(1), 5000);
  EXPECT_EQ(jpeg_quality_scaling(25), 200);
  EXPECT_EQ(jpeg_quality_scaling(75), 50);
  EXPECT_EQ(jpeg_quality_scaling(100), 0);
  // (base * scale + 50) / 100 clamped to 1..255
  EXPECT_EQ(quant_table_jpeg_luma(75).q[0], 8);      // (16*50+50)/100
  EXPECT_EQ(quant_table_jpeg_luma(75).q[1], 6);      // (11*50+50)/100 = 6
  EXPECT_EQ(quant_table_jpeg_luma(25).q[0], 32);     // (16*200+50)/100
  EXPECT_EQ(quant_table_jpeg_luma(1).q[0], 255);     // 800 clamped
  EXPECT_EQ(quant_table_jpeg_chroma(100).q[20], 1);  // 0 clamped up to 1
}

TEST(QuantTables, BadQualityAndEntries) {
  for (int q : {0, -3, 101}) {
    expect_error([&] { quant_table_jpeg_luma(q); }, "1..100");
    expect_error([&] { quant_table_jpeg_chroma(q); }, "1..100");
  }
  QuantTable t = quant_table_nvidia();
  t.q[9] = 0;
  expect_error([&] { t.validate(); }, "row 1, column 1");
  std::vector<float> x(64, 1.0f), y(64);
  expect_error(
      [&] {
        block8_roundtrip_quantized(ConstView<float>(x.data(), {8, 8}),
                                   View<float>(y.data(), {8, 8}), t);
      },
      "1..32767");
  t.q[9] = -4;
  std::vector<std::int16_t> l(64);
  expect_error(
      [&] {
        block8_quantize(ConstView<float>(x.data(), {8, 8}), View<std::int16_t>(l.data(), {8, 8}),
                        t);
      },
      "is -4");
  // Every entry is checked, the extremes of int included; 1 and 32767 are valid.
  for (int k : {0, 31, 63})
    for (int v : {std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), 32768}) {
      QuantTable u = quant_table_nvidia();
      u.q[k] = v;
      expect_error([&] { u.validate(); }, "entry " + std::to_string(k) + " ");
    }
  QuantTable ok;
  ok.q.fill(1);
  ok.q[5] = 32767;
  ok.validate();
}

TEST(Quantize, RoundsHalfAwayFromZero) {
  QuantTable t;
  t.q.fill(32);
  t.q[1] = 12;
  // Coefficient -> expected level with Q = 32 (positions 0, 2, 3...) or 12 (position 1).
  std::vector<float> c(64, 0.5f);
  std::vector<std::int16_t> want(64, 0);
  const float vals[] = {16.0f, -16.0f, 15.999f, -15.999f, 48.0f, -48.0f, 80.0f, 0.0f};
  const std::int16_t lv[] = {1, -1, 0, 0, 2, -2, 3, 0};
  for (int k = 0; k < 8; ++k) {
    c[2 + k] = vals[k];
    want[2 + k] = lv[k];
  }
  c[1] = 6.0f;  // 6/12 = 0.5 -> 1
  want[1] = 1;
  std::vector<std::int16_t> got(64, 99);
  block8_quantize(ConstView<float>(c.data(), {8, 8}), View<std::int16_t>(got.data(), {8, 8}), t);
  EXPECT_EQ(got, want);
  // int16 coefficients: exact integer rounding.
  std::vector<std::int16_t> ci(64, 0), gi(64, 99);
  for (int k = 0; k < 64; ++k)
    ci[k] = static_cast<std::int16_t>(c[k] == 15.999f ? 15 : c[k] == -15.999f ? -15 : c[k]);
  block8_quantize(ConstView<std::int16_t>(ci.data(), {8, 8}), View<std::int16_t>(gi.data(), {8, 8}),
                  t);
  EXPECT_EQ(gi, want);
  // Dequantize multiplies back.
  std::vector<float> d(64, kNaN);
  block8_dequantize(ConstView<std::int16_t>(want.data(), {8, 8}), View<float>(d.data(), {8, 8}), t);
  EXPECT_EQ(d[1], 12.0f);
  EXPECT_EQ(d[2], 32.0f);
  EXPECT_EQ(d[8], 96.0f);
  std::vector<std::int16_t> big(64, 2000), di(64);
  block8_dequantize(ConstView<std::int16_t>(big.data(), {8, 8}),
                    View<std::int16_t>(di.data(), {8, 8}), t);
  EXPECT_EQ(di[0], 32767);  // saturated
}

// The fused int16 pass requantizes in integers, ((min(|c|, 16384) + floor(Q/2)) * magic) >> shift
// (kernels.hpp); it must equal the exact rounding half away from zero, level * Q with c's sign
// clamped to the inverse's input range, for every int16 coefficient and every table entry.
TEST(Quantize, FusedInt16FormulaIsExact) {
  std::vector<int> qs;
  for (int q = 1; q <= 256; ++q) qs.push_back(q);
  for (int q : {257, 511, 512, 513, 999, 1000, 1024, 4095, 12345, 16384, 16385, 32766, 32767})
    qs.push_back(q);
  block8::QuantI16 t{};
  for (int q : qs) {
    t.set(0, 0, q);  // as the driver builds it
    for (int c = -32768; c <= 32767; ++c) {
      std::uint64_t zeros = 0;
      const long level = (std::labs(c) * 2 + q) / (2L * q);
      const long want =
          std::clamp<long>((c < 0 ? -level : level) * q, block8::kInvInMin, block8::kInvInMax);
      ASSERT_EQ(block8::scalar::RequantizeI(c, t, 0, 0, zeros), want) << c << " / " << q;
      ASSERT_EQ(zeros, level == 0 ? 1u : 0u) << c << " / " << q;
    }
  }
}

TEST(Edges, ReplicateForwardEqualsExplicitPadding) {
  const std::size_t rows = 13, cols = 21, pr = 16, pc = 24;
  const auto x = test8::random_floats(rows * cols, -100.0f, 100.0f, 21);
  std::vector<float> padded(pr * pc);
  for (std::size_t r = 0; r < pr; ++r)
    for (std::size_t c = 0; c < pc; ++c)
      padded[r * pc + c] = x[std::min(r, rows - 1) * cols + std::min(c, cols - 1)];
  std::vector<float> want(pr * pc, kNaN), got(pr * pc, kNaN);
  block8_forward(ConstView<float>(padded.data(), {pr, pc}), View<float>(want.data(), {pr, pc}));
  const Block8Options rep{Block8Kernel::Auto, Block8Edge::Replicate};
  block8_forward(ConstView<float>(x.data(), {rows, cols}), View<float>(got.data(), {pr, pc}), rep);
  EXPECT_EQ(got, want);
  // Inverse with cropping gives the top-left of the full inverse.
  std::vector<float> full(pr * pc, kNaN), crop(rows * cols, kNaN);
  block8_inverse(ConstView<float>(want.data(), {pr, pc}), View<float>(full.data(), {pr, pc}));
  block8_inverse(ConstView<float>(want.data(), {pr, pc}), View<float>(crop.data(), {rows, cols}),
                 rep);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) ASSERT_EQ(crop[r * cols + c], full[r * pc + c]);
  // The fused pass keeps the shape.
  std::vector<std::int16_t> xi(rows * cols, 16), yi(rows * cols, -32768);  // DC 128 = 4 * 32
  block8_roundtrip_quantized(ConstView<std::int16_t>(xi.data(), {rows, cols}),
                             View<std::int16_t>(yi.data(), {rows, cols}), quant_table_nvidia(),
                             rep);
  for (auto v : yi) ASSERT_EQ(v, 16);  // this flat block survives quantization
}

TEST(Threads, SameResultAnyThreadCount) {
  const std::size_t n = 2, rows = 64, cols = 40;
  const auto x = test8::random_floats(n * rows * cols, -128.0f, 127.0f, 22);
  std::vector<float> a(x.size(), kNaN), b(x.size(), kNaN);
  const auto sa =
      block8_roundtrip_quantized(ConstView<float>(x.data(), {n, rows, cols}),
                                 View<float>(a.data(), {n, rows, cols}), quant_table_nvidia());
  const auto sb = block8_roundtrip_quantized(
      ConstView<float>(x.data(), {n, rows, cols}), View<float>(b.data(), {n, rows, cols}),
      quant_table_nvidia(), {Block8Kernel::Fast, Block8Edge::Error, 3});
  EXPECT_EQ(a, b);
  EXPECT_EQ(sa.zeros, sb.zeros);
  const auto sc = block8_roundtrip_quantized(
      ConstView<float>(x.data(), {n, rows, cols}), View<float>(b.data(), {n, rows, cols}),
      quant_table_nvidia(), {Block8Kernel::Reference, Block8Edge::Error, 0});
  EXPECT_NEAR(double(sc.zeros), double(sa.zeros), 0.001 * double(sa.coefficients));
}

TEST(Overlap, PartlyOverlappingViewsReadTheInputFirst) {
  const std::size_t rows = 16, cols = 24;
  const auto x = test8::random_floats((rows + 8) * cols, -100.0f, 100.0f, 23);
  std::vector<float> want(rows * cols, kNaN);
  block8_forward(ConstView<float>(x.data(), {rows, cols}), View<float>(want.data(), {rows, cols}));
  auto buf = x;  // output 8 rows below the input, in the same buffer
  block8_forward(ConstView<float>(buf.data(), {rows, cols}),
                 View<float>(buf.data() + 8 * cols, {rows, cols}));
  EXPECT_TRUE(std::equal(want.begin(), want.end(), buf.begin() + 8 * cols));
  // Transposed view of the same memory as output.
  std::vector<float> sq(x.begin(), x.begin() + 16 * 16), want2(256, kNaN);
  block8_inverse(ConstView<float>(sq.data(), {16, 16}), View<float>(want2.data(), {16, 16}));
  block8_inverse(ConstView<float>(sq.data(), {16, 16}), View<float>(sq.data(), {16, 16}, {1, 16}));
  for (std::size_t r = 0; r < 16; ++r)
    for (std::size_t c = 0; c < 16; ++c) ASSERT_EQ(sq[c * 16 + r], want2[r * 16 + c]);
}

TEST(Errors, BadShapesStridesAndKernels) {
  std::vector<float> f(64 * 64, 1.0f), g(64 * 64);
  std::vector<std::int16_t> i16(64 * 64, 1), j16(64 * 64);
  expect_error(
      [&] {
        block8_forward(ConstView<float>(f.data(), {12, 16}), View<float>(g.data(), {12, 16}));
      },
      "12 x 16 samples: sides must be multiples of 8");
  expect_error(
      [&] {
        block8_inverse(ConstView<float>(f.data(), {16, 20}), View<float>(g.data(), {16, 20}));
      },
      "multiples of 8");
  expect_error(
      [&] { block8_forward(ConstView<float>(f.data(), {64}), View<float>(g.data(), {64})); },
      "rank 1");
  expect_error(
      [&] {
        block8_forward(ConstView<float>(f.data(), {16, 16}), View<float>(g.data(), {16, 24}));
      },
      "out is 16 x 24");
  expect_error(
      [&] {
        block8_forward(ConstView<float>(f.data(), {2, 8, 8}), View<float>(g.data(), {3, 8, 8}));
      },
      "2 planes");
  expect_error(
      [&] {
        block8_forward(ConstView<float>(f.data(), {2, 8, 8}), View<float>(g.data(), {16, 8}));
      },
      "rank");
  expect_error(
      [&] {
        block8_forward(ConstView<float>(f.data(), {8, 8}), View<float>(g.data(), {8, 8}, {0, 1}));
      },
      "zero stride");
  expect_error(
      [&] {
        block8_forward(ConstView<float>(nullptr, {8, 8}), View<float>(g.data(), {8, 8}));
      },
      "null");
  expect_error(
      [&] {
        block8_forward(ConstView<float>(f.data(), {8, 8}), View<float>(g.data(), {8, 8}),
                       {Block8Kernel::Int16});
      },
      "Int16 kernel");
  expect_error(
      [&] {
        block8_forward(ConstView<float>(f.data(), {8, 8}), View<float>(g.data(), {8, 8}),
                       {Block8Kernel::Fast, Block8Edge::Error, -1});
      },
      "nthreads");
  expect_error(
      [&] {
        block8_roundtrip_quantized(ConstView<std::int16_t>(i16.data(), {8, 12}),
                                   View<std::int16_t>(j16.data(), {8, 12}), quant_table_nvidia());
      },
      "Replicate");
  expect_error(
      [&] {
        block8_roundtrip_quantized(ConstView<std::int16_t>(i16.data(), {8, 16}),
                                   View<std::int16_t>(j16.data(), {8, 8}), quant_table_nvidia());
      },
      "out is 8 x 8");
  expect_error(
      [&] {
        block8_inverse(ConstView<float>(f.data(), {16, 16}), View<float>(g.data(), {13, 16}));
      },
      "Block8Edge::Replicate");
  expect_error(
      [&] {
        block8_quantize(ConstView<float>(f.data(), {8, 12}),
                        View<std::int16_t>(j16.data(), {8, 12}), quant_table_nvidia());
      },
      "multiples of 8");
  expect_error([&] { parse_block8_kernel("turbo"); }, "turbo");
  expect_error([&] { parse_quant_table_kind("mpeg"); }, "mpeg");
  EXPECT_EQ(parse_block8_kernel("int16"), Block8Kernel::Int16);
  EXPECT_EQ(parse_quant_table_kind("jpeg"), QuantTableKind::Jpeg);
}

TEST(Errors, EmptyPlanesAreANoOp) {
  std::vector<float> f(1), g(1, 3.0f);
  block8_forward(ConstView<float>(f.data(), {0, 8}), View<float>(g.data(), {0, 8}));
  block8_inverse(ConstView<float>(f.data(), {0, 16, 8}), View<float>(g.data(), {0, 16, 8}));
  EXPECT_EQ(g[0], 3.0f);
}

}  // namespace
}  // namespace dctx
