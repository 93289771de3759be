// SPDX-License-Identifier: BSD-3-Clause
// uint8 samples (Block8Data::UInt8): every operation with uint8 samples equals the float32 plan
// of the same operation between JPEG's level shift written out here (sample - 128 in; x + 128
// clamped to 0..255 and rounded half up out, NaN to 0), bit for bit, on strided and in-place
// views; the zero counts agree; what the type refuses, it names.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dctx/block8.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

using testing_support::expect_error;

std::uint8_t byte_of(float x) {  // the definition, independently of the library's loops
  if (std::isnan(x)) return 0;
  const double v = std::fmin(std::fmax(double(x) + 128.0, 0.0), 255.0);
  return static_cast<std::uint8_t>(std::floor(v + 0.5));
}

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& x : v) x = static_cast<std::uint8_t>(g() & 255);
  return v;
}

constexpr std::size_t kPlanes = 2, kRows = 21, kCols = 27, kPr = 24, kPc = 32;

// Forward, ForwardQuantized and Roundtrip from uint8 planes read backwards along the rows.
TEST(Block8Bytes, SamplesInEqualTheFloatPlanOfTheShiftedSamples) {
  const QuantTable q = quant_table_nvidia();
  const std::vector<std::uint8_t> bytes = random_bytes(kPlanes * kRows * kCols, 7);
  std::vector<float> centered(bytes.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) centered[i] = float(bytes[i]) - 128.0f;
  // A view whose columns run backwards (negative stride), and the same for the floats.
  const std::vector<std::ptrdiff_t> back = {std::ptrdiff_t(kRows * kCols), std::ptrdiff_t(kCols),
                                            -1};
  const ConstView<std::uint8_t> in_u8(bytes.data() + kCols - 1, {kPlanes, kRows, kCols}, back);
  const ConstView<float> in_f(centered.data() + kCols - 1, {kPlanes, kRows, kCols}, back);
  for (Block8Kernel k : {Block8Kernel::Fast, Block8Kernel::Reference}) {
    Block8PlanDesc d{.data = Block8Data::UInt8, .kernel = k, .edge = Block8Edge::Replicate};
    Block8PlanDesc f = d;
    f.data = Block8Data::Float32;
    {  // Forward
      std::vector<float> want(kPlanes * kPr * kPc, NAN), got = want;
      Block8Plan(f).execute(in_f, View<float>(want.data(), {kPlanes, kPr, kPc}));
      const Block8Plan p(d);
      EXPECT_NE(p.describe().find("uint8"), std::string::npos) << p.describe();
      p.execute(in_u8, View<float>(got.data(), {kPlanes, kPr, kPc}));
      EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * 4), 0) << to_string(k);
    }
    d.table = f.table = q;
    {  // ForwardQuantized
      d.op = f.op = Block8Op::ForwardQuantized;
      std::vector<std::int16_t> want(kPlanes * kPr * kPc, -1), got = want;
      const Block8Stats sw =
          Block8Plan(f).execute(in_f, View<std::int16_t>(want.data(), {kPlanes, kPr, kPc}));
      const Block8Stats sg =
          Block8Plan(d).execute(in_u8, View<std::int16_t>(got.data(), {kPlanes, kPr, kPc}));
      EXPECT_EQ(got, want) << to_string(k);
      EXPECT_EQ(sg.zeros, sw.zeros);
      EXPECT_GT(sg.zeros, 0u);
    }
    {  // Roundtrip, in place on a copy of the bytes
      d.op = f.op = Block8Op::Roundtrip;
      std::vector<float> trip(centered.size(), NAN);
      Block8Plan(f).execute(ConstView<float>(centered.data(), {kPlanes, kRows, kCols}),
                            View<float>(trip.data(), {kPlanes, kRows, kCols}));
      std::vector<std::uint8_t> io = bytes;
      const Block8Stats s =
          Block8Plan(d).execute(ConstView<std::uint8_t>(io.data(), {kPlanes, kRows, kCols}),
                                View<std::uint8_t>(io.data(), {kPlanes, kRows, kCols}));
      EXPECT_GT(s.zeros, 0u);
      for (std::size_t i = 0; i < io.size(); ++i)
        ASSERT_EQ(int(io[i]), int(byte_of(trip[i]))) << to_string(k) << " element " << i;
    }
  }
}

// Inverse and InverseDequantized to uint8 planes with a row pitch; out-of-range and NaN
// coefficients clamp (NaN to 0).
TEST(Block8Bytes, SamplesOutAreTheFloatPlanRoundedAndClamped) {
  std::mt19937 g(3);
  std::uniform_real_distribution<float> u(-600.0f, 600.0f);
  std::vector<float> coeffs(kPlanes * kPr * kPc);
  for (auto& c : coeffs) c = u(g);
  coeffs[5] = NAN;   // a whole block of NaN samples (vector conversions)
  coeffs[16] = NAN;  // and one in the rows' scalar tails (columns 16..23 of 27)
  coeffs[kPr * kPc + 70] = std::numeric_limits<float>::infinity();
  const ConstView<float> in(coeffs.data(), {kPlanes, kPr, kPc});
  const std::size_t pitch = 40;
  for (Block8Kernel k : {Block8Kernel::Fast, Block8Kernel::Reference}) {
    const Block8PlanDesc d{.op = Block8Op::Inverse,
                           .data = Block8Data::UInt8,
                           .kernel = k,
                           .edge = Block8Edge::Replicate};
    Block8PlanDesc f = d;
    f.data = Block8Data::Float32;
    std::vector<float> want(kPlanes * kRows * kCols);
    Block8Plan(f).execute(in, View<float>(want.data(), {kPlanes, kRows, kCols}));
    std::vector<std::uint8_t> got(kPlanes * kRows * pitch, 77);
    Block8Plan(d).execute(
        in, View<std::uint8_t>(got.data(), {kPlanes, kRows, kCols},
                               {std::ptrdiff_t(kRows * pitch), std::ptrdiff_t(pitch), 1}));
    bool nan_seen = false, clamped = false;
    for (std::size_t b = 0; b < kPlanes; ++b)
      for (std::size_t r = 0; r < kRows; ++r)
        for (std::size_t c = 0; c < kCols; ++c) {
          const float w = want[(b * kRows + r) * kCols + c];
          nan_seen |= std::isnan(w);
          clamped |= !std::isnan(w) && (w < -128.5f || w > 127.5f);
          ASSERT_EQ(int(got[(b * kRows + r) * pitch + c]), int(byte_of(w)))
              << to_string(k) << " plane " << b << " row " << r << " column " << c;
        }
    EXPECT_TRUE(nan_seen && clamped);
    EXPECT_EQ(got[kCols], 77);  // the pitch's gap is untouched
  }
  // The decoder's half: levels to bytes.
  const QuantTable q = quant_table_nvidia();
  std::vector<std::int16_t> levels(kPr * kPc);
  for (auto& l : levels) l = static_cast<std::int16_t>(int(g() % 21) - 10);
  const Block8PlanDesc d{.op = Block8Op::InverseDequantized, .data = Block8Data::UInt8, .table = q};
  Block8PlanDesc f = d;
  f.data = Block8Data::Float32;
  std::vector<float> want(kPr * kPc);
  Block8Plan(f).execute(ConstView<std::int16_t>(levels.data(), {kPr, kPc}),
                        View<float>(want.data(), {kPr, kPc}));
  std::vector<std::uint8_t> got(kPr * kPc);
  Block8Plan(d).execute(ConstView<std::int16_t>(levels.data(), {kPr, kPc}),
                        View<std::uint8_t>(got.data(), {kPr, kPc}));
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(int(got[i]), int(byte_of(want[i]))) << i;
}

TEST(Block8Bytes, WhatTheTypeRefuses) {
  const QuantTable q = quant_table_nvidia();
  expect_error([] { Block8Plan p({.data = Block8Data::UInt8, .kernel = Block8Kernel::Int16}); },
               "the Int16 kernel transforms int16 data; uint8 data takes Reference or Fast");
  expect_error(
      [&] { Block8Plan p({.op = Block8Op::Quantize, .data = Block8Data::UInt8, .table = q}); },
      "block8_quantize: works on coefficients");
  const Block8Plan fwd({.data = Block8Data::UInt8});
  std::vector<float> f(64);
  std::vector<std::uint8_t> b(64);
  expect_error(
      [&] {
        fwd.execute(ConstView<float>(f.data(), {8, 8}), View<float>(f.data(), {8, 8}));
      },
      "this plan takes uint8 in and float32 out");
  const Block8Plan inv({.op = Block8Op::Inverse, .data = Block8Data::UInt8});
  expect_error(
      [&] {
        inv.execute(ConstView<std::uint8_t>(b.data(), {8, 8}),
                    View<std::uint8_t>(b.data(), {8, 8}));
      },
      "this plan takes float32 in and uint8 out");
}

}  // namespace
}  // namespace dctx
