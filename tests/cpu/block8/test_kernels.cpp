// SPDX-License-Identifier: BSD-3-Clause
// The three 8x8 kernels against the long-double oracle, on every compiled SIMD target: random
// blocks (never zeros), strided and batched planes, outputs poisoned before the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <thread>
#include <type_traits>
#include <vector>

#include "block8/constants.hpp"
#include "cpu/block8/kernel_checks.hpp"
#include "cpu/block8/oracle8.hpp"
#include "cpu/block8/scalar.hpp"
#include "cpu/block8/targets.hpp"
#include "dctx/block8.hpp"

namespace dctx {
namespace {

using namespace test8;  // NOLINT: the shared checks and constants

class Kernels : public test8::PerTarget {};
DCTX_INSTANTIATE_PER_TARGET(Kernels);

// 24 x 40: on 16-lane targets two full tiles and an 8-column tail per strip.
TEST_P(Kernels, FloatForwardMatchesOracle) {
  const Plane p{24, 40, 40};
  const auto in = test8::random_floats(p.rows * p.cols, -256.0f, 255.0f, 1);
  std::vector<float> out(in.size(), kNaN);
  block8_forward(ConstView<float>(in.data(), {p.rows, p.cols}),
                 View<float>(out.data(), {p.rows, p.cols}));
  EXPECT_LE(max_error(in.data(), p, out.data(), 40, false), float_bound(256));
}

TEST_P(Kernels, FloatInverseMatchesOracle) {
  const Plane p{16, 56, 56};
  const auto in = test8::random_floats(p.rows * p.cols, -1024.0f, 1024.0f, 2);
  std::vector<float> out(in.size(), kNaN);
  block8_inverse(ConstView<float>(in.data(), {p.rows, p.cols}),
                 View<float>(out.data(), {p.rows, p.cols}));
  EXPECT_LE(max_error(in.data(), p, out.data(), 56, true), float_bound(1024));
}

// A plane inside a larger buffer (row strides 53 and 47): only the plane may change.
TEST_P(Kernels, FloatStridedPlaneLeavesSurroundingsAlone) {
  const std::size_t rows = 16, cols = 40;
  const std::ptrdiff_t is = 53, os = 47;
  const auto buf = test8::random_floats(rows * is, -100.0f, 100.0f, 3);
  std::vector<float> out(rows * os + 5, kNaN);
  block8_forward(ConstView<float>(buf.data(), {rows, cols}, {is, 1}),
                 View<float>(out.data() + 3, {rows, cols}, {os, 1}));
  EXPECT_LE(max_error(buf.data(), Plane{rows, cols, is}, out.data() + 3, os, false),
            float_bound(100));
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::ptrdiff_t off = std::ptrdiff_t(k) - 3;
    const bool inside =
        off >= 0 && off % os < std::ptrdiff_t(cols) && off / os < std::ptrdiff_t(rows);
    if (!inside) {
      ASSERT_TRUE(std::isnan(out[k])) << "wrote outside the plane at " << k;
    }
  }
}

// A batch of planes through views with a negative row stride and a column stride of 2: the
// driver's strip-buffer path must give the same numbers as the direct one.
TEST_P(Kernels, FloatBatchAndGeneralStrides) {
  const std::size_t n = 3, rows = 16, cols = 24;
  const auto in = test8::random_floats(n * rows * cols, -50.0f, 50.0f, 4);
  std::vector<float> direct(in.size(), kNaN);
  block8_inverse(ConstView<float>(in.data(), {n, rows, cols}),
                 View<float>(direct.data(), {n, rows, cols}));
  for (std::size_t b = 0; b < n; ++b)
    EXPECT_LE(max_error(in.data() + b * rows * cols, Plane{rows, cols, std::ptrdiff_t(cols)},
                        direct.data() + b * rows * cols, std::ptrdiff_t(cols), true),
              float_bound(50 * 8));
  // Same data, rows stored bottom-up and columns interleaved with junk.
  std::vector<float> wide(n * rows * cols * 2, 7.0f);
  for (std::size_t b = 0; b < n; ++b)
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c)
        wide[(b * rows + (rows - 1 - r)) * cols * 2 + 2 * c] = in[(b * rows + r) * cols + c];
  const std::ptrdiff_t rs = -std::ptrdiff_t(2 * cols);
  std::vector<float> out(in.size(), kNaN);
  block8_inverse(ConstView<float>(wide.data() + (rows - 1) * cols * 2, {n, rows, cols},
                                  {std::ptrdiff_t(rows * cols * 2), rs, 2}),
                 View<float>(out.data(), {n, rows, cols}));
  EXPECT_EQ(out, direct);
}

TEST_P(Kernels, FloatInPlaceEqualsOutOfPlace) {
  const std::size_t rows = 16, cols = 48;
  auto a = test8::random_floats(rows * cols, -128.0f, 127.0f, 5);
  std::vector<float> b(a.size(), kNaN);
  block8_forward(ConstView<float>(a.data(), {rows, cols}), View<float>(b.data(), {rows, cols}));
  block8_forward(ConstView<float>(a.data(), {rows, cols}), View<float>(a.data(), {rows, cols}));
  EXPECT_EQ(a, b);
}

TEST_P(Kernels, FloatRoundTrip) {
  const std::size_t rows = 32, cols = 24;
  const auto x = test8::random_floats(rows * cols, -255.0f, 255.0f, 6);
  std::vector<float> c(x.size(), kNaN), y(x.size(), kNaN);
  block8_forward(ConstView<float>(x.data(), {rows, cols}), View<float>(c.data(), {rows, cols}));
  block8_inverse(ConstView<float>(c.data(), {rows, cols}), View<float>(y.data(), {rows, cols}));
  for (std::size_t k = 0; k < x.size(); ++k) ASSERT_NEAR(y[k], x[k], float_bound(255)) << k;
}

// Every basis function: the forward transform of an impulse is a row of the DCT matrix product.
TEST_P(Kernels, FloatImpulses) {
  // 64 blocks side by side in an 8 x 512 plane, block k holding an impulse at position k.
  std::vector<float> plane(8 * 512, 0.0f), coef(8 * 512, kNaN);
  for (int k = 0; k < 64; ++k) plane[std::size_t(k / 8) * 512 + std::size_t(8 * k + k % 8)] = 1.0f;
  block8_forward(ConstView<float>(plane.data(), {8, 512}), View<float>(coef.data(), {8, 512}));
  EXPECT_LE(max_error(plane.data(), Plane{8, 512, 512}, coef.data(), 512, false), 4e-7);
}

// int16 fixed point: within 1 of the rounded coefficient, mostly exact, and bit-identical
// to the scalar version of the same flowgraph.
TEST_P(Kernels, Int16ForwardMatchesOracleAndScalar) {
  const Plane p{24, 40, 40};
  const auto in = test8::random_int16(p.rows * p.cols, block8::kFwdInMin, block8::kFwdInMax, 7);
  std::vector<std::int16_t> out(in.size(), kSentinel), ref(in.size(), kSentinel);
  block8_forward(ConstView<std::int16_t>(in.data(), {p.rows, p.cols}),
                 View<std::int16_t>(out.data(), {p.rows, p.cols}));
  EXPECT_LE(max_error(in.data(), p, out.data(), 40, false, true), 1.0L);
  block8::scalar::ForwardI16(in.data(), 40, ref.data(), 40, p.rows, p.cols);
  EXPECT_EQ(out, ref);
  // Mostly exactly rounded.
  std::size_t exact = 0;
  std::vector<std::int16_t> exact_ref(in.size());
  block8_forward(ConstView<std::int16_t>(in.data(), {p.rows, p.cols}),
                 View<std::int16_t>(exact_ref.data(), {p.rows, p.cols}), {Block8Kernel::Reference});
  for (std::size_t k = 0; k < in.size(); ++k) exact += out[k] == exact_ref[k];
  EXPECT_GE(double(exact) / double(in.size()), 0.9);  // measured: 94 %
}

TEST_P(Kernels, Int16InverseMatchesOracleAndScalar) {
  const Plane p{16, 56, 56};
  // Coefficients of smooth-ish blocks: DC anywhere, AC decaying, so most outputs are in range.
  std::vector<std::int16_t> in(p.rows * p.cols);
  const auto noise = test8::random_int16(in.size(), -300, 300, 8);
  for (std::size_t k = 0; k < in.size(); ++k) {
    const std::size_t u = (k / p.cols) % 8, v = k % 8;
    in[k] = static_cast<std::int16_t>(noise[k] / int(1 + u + v));
    if (in[k] == 0) in[k] = 1;
  }
  std::vector<std::int16_t> out(in.size(), kSentinel), ref(in.size(), kSentinel);
  block8_inverse(ConstView<std::int16_t>(in.data(), {p.rows, p.cols}),
                 View<std::int16_t>(out.data(), {p.rows, p.cols}));
  EXPECT_LE(max_error(in.data(), p, out.data(), 56, true, true), 1.0L);
  block8::scalar::InverseI16(in.data(), 56, ref.data(), 56, p.rows, p.cols);
  EXPECT_EQ(out, ref);
}

// Saturation: full-range int16 input never overflows (it is clamped to the kernel's domain) and
// the inverse saturates to 9 bits.
TEST_P(Kernels, Int16ExtremesSaturate) {
  const std::size_t rows = 8, cols = 32;
  std::vector<std::int16_t> in(rows * cols), out(in.size(), kSentinel), ref(in.size());
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = (k * 7919) % 3 == 0 ? 32767 : -32768;
  block8_inverse(ConstView<std::int16_t>(in.data(), {rows, cols}),
                 View<std::int16_t>(out.data(), {rows, cols}));
  block8::scalar::InverseI16(in.data(), std::ptrdiff_t(cols), ref.data(), std::ptrdiff_t(cols),
                             rows, cols);
  EXPECT_EQ(out, ref);
  for (auto v : out) ASSERT_TRUE(v >= -256 && v <= 255);
  block8_forward(ConstView<std::int16_t>(in.data(), {rows, cols}),
                 View<std::int16_t>(out.data(), {rows, cols}));
  block8::scalar::ForwardI16(in.data(), std::ptrdiff_t(cols), ref.data(), std::ptrdiff_t(cols),
                             rows, cols);
  EXPECT_EQ(out, ref);
}

TEST_P(Kernels, Int16StridedBatch) {
  const std::size_t n = 2, rows = 16, cols = 24;
  const std::ptrdiff_t rs = 29;
  const auto buf = test8::random_int16(n * rows * std::size_t(rs), -255, 255, 9);
  std::vector<std::int16_t> out(n * rows * cols, kSentinel), ref(out.size());
  block8_forward(
      ConstView<std::int16_t>(buf.data(), {n, rows, cols}, {std::ptrdiff_t(rows) * rs, rs, 1}),
      View<std::int16_t>(out.data(), {n, rows, cols}));
  for (std::size_t b = 0; b < n; ++b)
    block8::scalar::ForwardI16(buf.data() + b * rows * std::size_t(rs), rs,
                               ref.data() + b * rows * cols, std::ptrdiff_t(cols), rows, cols);
  EXPECT_EQ(out, ref);
}

// The fused pass equals forward -> quantize -> dequantize -> inverse, bit for bit, and counts the
// zero levels.
TEST_P(Kernels, FusedEqualsSeparatePassesFloat) {
  const std::size_t rows = 24, cols = 40;
  const auto x = test8::random_floats(rows * cols, -128.0f, 127.0f, 10);
  for (const QuantTable& t :
       {quant_table_nvidia(), quant_table_jpeg_luma(75), quant_table_jpeg_chroma(20)}) {
    const Shape s{rows, cols};
    std::size_t zeros = 0;
    const auto sep = SeparatePassesFloat(x, rows, cols, t, zeros);
    std::vector<float> fused(x.size(), kNaN);
    const auto st =
        block8_roundtrip_quantized(ConstView<float>(x.data(), s), View<float>(fused.data(), s), t);
    EXPECT_EQ(fused, sep);
    EXPECT_EQ(st.coefficients, x.size());
    EXPECT_EQ(st.zeros, zeros);
    EXPECT_GT(st.zeros, 0u);
  }
}

TEST_P(Kernels, FusedEqualsSeparatePassesInt16) {
  const std::size_t rows = 24, cols = 40;
  const auto x = test8::random_int16(rows * cols, -128, 127, 11);
  for (const QuantTable& t :
       {quant_table_nvidia(), quant_table_jpeg_luma(90), quant_table_jpeg_chroma(10)})
    ExpectFusedInt16EqualsSeparate(x, rows, cols, t);
}

// The fused pass keeps the constants of the last table per thread: tables that change between
// calls (and back), one entry apart, and calls on two threads must each use their own table.
TEST_P(Kernels, FusedPassFollowsTheTableOfEachCall) {
  const std::size_t rows = 16, cols = 48;
  const Shape s{rows, cols};
  const auto x = test8::random_floats(rows * cols, -128.0f, 127.0f, 12);
  const auto xi = test8::random_int16(rows * cols, -128, 127, 13);
  QuantTable nudged = quant_table_nvidia();
  nudged.q[63] += 1;  // differs from the NVIDIA table in the last entry only
  std::vector<QuantTable> tables = {quant_table_nvidia(), quant_table_jpeg_luma(90),
                                    quant_table_nvidia(), nudged,
                                    quant_table_nvidia(), quant_table_jpeg_chroma(10)};
  for (std::size_t k = 0; k < tables.size(); ++k) {
    SCOPED_TRACE("call " + std::to_string(k));
    const QuantTable& t = tables[k];
    std::size_t zeros = 0;
    const auto sep = SeparatePassesFloat(x, rows, cols, t, zeros);
    std::vector<float> fused(x.size(), kNaN);
    Block8Options two_threads;
    two_threads.nthreads = 2;
    const auto st =
        block8_roundtrip_quantized(ConstView<float>(x.data(), s), View<float>(fused.data(), s), t,
                                   k % 2 ? two_threads : Block8Options{});
    EXPECT_EQ(fused, sep);
    EXPECT_EQ(st.zeros, zeros);
    ExpectFusedInt16EqualsSeparate(xi, rows, cols, t);
  }
  // Two threads, each with its own table, many calls each.
  std::vector<float> want[2];
  for (int i = 0; i < 2; ++i) {
    want[i].assign(x.size(), kNaN);
    block8_roundtrip_quantized(ConstView<float>(x.data(), s), View<float>(want[i].data(), s),
                               tables[i]);
  }
  bool same[2] = {true, true};
  std::vector<std::thread> pool;
  for (int i = 0; i < 2; ++i)
    pool.emplace_back([&, i] {  // the fixture's target mask is process-wide
      std::vector<float> got(x.size(), kNaN);
      for (int n = 0; n < 200; ++n) {
        block8_roundtrip_quantized(ConstView<float>(x.data(), s), View<float>(got.data(), s),
                                   tables[i]);
        if (got != want[i]) same[i] = false;
      }
    });
  for (auto& th : pool) th.join();
  EXPECT_TRUE(same[0]);
  EXPECT_TRUE(same[1]);
}

}  // namespace
}  // namespace dctx
