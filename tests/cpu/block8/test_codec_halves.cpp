// SPDX-License-Identifier: BSD-3-Clause
// The codec's halves of the fused pass: block8_forward_quantized (encoder: samples -> int16 levels)
// and block8_inverse_dequantized (decoder: levels -> samples). Each must equal the separate passes
// it fuses, bit for bit, on every compiled SIMD target, every tile width, strided and batched
// planes, padded edges and saturating levels; outputs are poisoned before each run. A NaN
// coefficient has no level: every path that would quantize one raises an Error. Also the
// separate quantization passes themselves (SIMD on unit column strides, element by element
// otherwise) against their definitions, exhaustively for int16.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "cpu/block8/oracle8.hpp"
#include "cpu/block8/scalar.hpp"
#include "cpu/block8/targets.hpp"
#include "dctx/block8.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

using testing_support::expect_error;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
// Never a level of these inputs' tables (|level| <= 8 * 32767 / Q is far below it unless Q = 1
// and the input saturates, which the saturation test poisons differently).
constexpr std::int16_t kPoison = 32767;

template <class T>
struct Separate {  // forward -> quantize, and dequantize -> inverse, as separate calls
  static std::vector<std::int16_t> encode(const std::vector<T>& x, const Shape& s,
                                          const Strides& st, const QuantTable& t,
                                          const Block8Options& o, std::size_t& zeros) {
    std::vector<T> c(x.size());
    std::vector<std::int16_t> lv(x.size(), kPoison);
    block8_forward(ConstView<T>(x.data(), s, st), View<T>(c.data(), s, st), o);
    block8_quantize(ConstView<T>(c.data(), s, st), View<std::int16_t>(lv.data(), s, st), t);
    zeros = 0;
    for (std::size_t i = 0; i < lv.size(); ++i) zeros += lv[i] == 0;
    return lv;
  }
  static std::vector<T> decode(const std::vector<std::int16_t>& lv, const Shape& s,
                               const Strides& st, const QuantTable& t, const Block8Options& o,
                               T poison) {
    std::vector<T> c(lv.size()), out(lv.size(), poison);
    block8_dequantize(ConstView<std::int16_t>(lv.data(), s, st), View<T>(c.data(), s, st), t);
    block8_inverse(ConstView<T>(c.data(), s, st), View<T>(out.data(), s, st), o);
    return out;
  }
};

std::vector<QuantTable> tables() {
  QuantTable wide;  // Q from 1 to 32767, every magic-number shift
  for (int k = 0; k < 64; ++k) wide.q[k] = std::min(32767, 1 << (k % 16)) - (k / 16) % 2;
  for (auto& q : wide.q) q = std::max(q, 1);
  return {quant_table_nvidia(), quant_table_jpeg_luma(10), quant_table_jpeg_chroma(95), wide};
}

class CodecHalves : public test8::PerTarget {};
DCTX_INSTANTIATE_PER_TARGET(CodecHalves);

// Every width from 8 to 136 columns (groups of tiles, single and narrower tiles), in a row stride
// wider than the plane: the levels and the samples equal the separate passes, the zero counts
// agree, and nothing between the rows is written.
TEST_P(CodecHalves, EqualTheSeparatePassesAtEveryTileWidth) {
  const std::size_t rows = 16;
  for (const QuantTable& t : tables())
    for (std::size_t cols = 8; cols <= 136; cols += 8) {
      SCOPED_TRACE("cols " + std::to_string(cols));
      const std::size_t stride = cols + 24;
      const Shape s{rows, cols};
      const Strides st{std::ptrdiff_t(stride), 1};
      const std::size_t n = rows * stride;
      {  // float
        const auto x = test8::random_floats(n, -128.0f, 127.0f, 100 + unsigned(cols));
        std::size_t zeros = 0;
        const auto want = Separate<float>::encode(x, s, st, t, {}, zeros);
        std::vector<std::int16_t> lv(n, kPoison);
        const auto stats = block8_forward_quantized(ConstView<float>(x.data(), s, st),
                                                    View<std::int16_t>(lv.data(), s, st), t);
        EXPECT_EQ(lv, want);
        EXPECT_EQ(stats.zeros, zeros);
        EXPECT_EQ(stats.coefficients, rows * cols);
        EXPECT_GT(stats.zeros, 0u);
        const auto back = Separate<float>::decode(lv, s, st, t, {}, kNaN);
        std::vector<float> got(n, kNaN);
        block8_inverse_dequantized(ConstView<std::int16_t>(lv.data(), s, st),
                                   View<float>(got.data(), s, st), t);
        EXPECT_EQ(0, std::memcmp(got.data(), back.data(), n * sizeof(float)));  // NaN gaps too
        // Decoding what the encoder made is the fused round trip.
        std::vector<float> fused(n, kNaN);
        block8_roundtrip_quantized(ConstView<float>(x.data(), s, st),
                                   View<float>(fused.data(), s, st), t);
        EXPECT_EQ(0, std::memcmp(got.data(), fused.data(), n * sizeof(float)));
      }
      {  // int16, against the separate passes and the scalar kernels
        const auto x = test8::random_int16(n, -300, 300, 200 + unsigned(cols));
        std::size_t zeros = 0;
        const auto want = Separate<std::int16_t>::encode(x, s, st, t, {}, zeros);
        std::vector<std::int16_t> lv(n, kPoison);
        const auto stats = block8_forward_quantized(ConstView<std::int16_t>(x.data(), s, st),
                                                    View<std::int16_t>(lv.data(), s, st), t);
        EXPECT_EQ(lv, want);
        EXPECT_EQ(stats.zeros, zeros);
        // Levels over the whole int16 range for the decoder (products saturate and clamp).
        const auto levels = test8::random_int16(n, -32768, 32767, 300 + unsigned(cols));
        const std::vector<std::int16_t>* inputs[] = {&lv, &levels};
        for (const auto* in : inputs) {
          const auto back = Separate<std::int16_t>::decode(*in, s, st, t, {}, kPoison);
          std::vector<std::int16_t> got(n, kPoison);
          block8_inverse_dequantized(ConstView<std::int16_t>(in->data(), s, st),
                                     View<std::int16_t>(got.data(), s, st), t);
          EXPECT_EQ(got, back);
        }
        std::vector<std::int16_t> fused(n, kPoison), got(n, kPoison);
        block8_roundtrip_quantized(ConstView<std::int16_t>(x.data(), s, st),
                                   View<std::int16_t>(fused.data(), s, st), t);
        block8_inverse_dequantized(ConstView<std::int16_t>(lv.data(), s, st),
                                   View<std::int16_t>(got.data(), s, st), t);
        EXPECT_EQ(got, fused);
      }
    }
}

// Levels that saturate int16 (Q = 1, huge samples).
TEST_P(CodecHalves, SaturationAsTheSeparatePasses) {
  const std::size_t rows = 16, cols = 48;
  const Shape s{rows, cols};
  const Strides st{std::ptrdiff_t(cols), 1};
  QuantTable ones;
  ones.q.fill(1);
  const auto x = test8::random_floats(rows * cols, -1e6f, 1e6f, 7);
  for (const QuantTable& t : {ones, quant_table_nvidia()}) {
    std::size_t zeros = 0;
    const auto want = Separate<float>::encode(x, s, st, t, {}, zeros);
    std::vector<std::int16_t> lv(x.size(), 1234);
    const auto stats = block8_forward_quantized(ConstView<float>(x.data(), s, st),
                                                View<std::int16_t>(lv.data(), s, st), t);
    EXPECT_EQ(lv, want);
    EXPECT_EQ(stats.zeros, zeros);
    if (t == ones) {
      EXPECT_NE(std::count(lv.begin(), lv.end(), std::int16_t{32767}), 0);
      EXPECT_NE(std::count(lv.begin(), lv.end(), std::int16_t{-32768}), 0);
    }
  }
}

// A NaN sample makes NaN coefficients, and a NaN has no int16 level: the encoder raises an Error
// on every kernel (fused or composed), thread count and layout (straight on the plane, or through
// the edge-replicating strip), and so does block8_quantize on a NaN coefficient (SIMD path and
// element by element). An infinite sample gives infinite coefficients (which saturate) or NaN
// ones (inf - inf inside a factorisation): the fused encoder does as the separate passes do. The
// round trip keeps NaN where it was (the whole block).
TEST_P(CodecHalves, NaNHasNoLevel) {
  const std::size_t rows = 16, cols = 48;
  const QuantTable t = quant_table_jpeg_luma(50);
  const auto outcome = [](const auto& run) -> std::vector<std::int16_t> {
    try {
      return run();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("no quantization level"), std::string::npos) << e.what();
      return {};
    }
  };
  for (const float bad : {kNaN, std::numeric_limits<float>::infinity()})
    for (const std::size_t at : {std::size_t{3}, cols * 9 + 20, rows * cols - 1}) {
      SCOPED_TRACE("sample " + std::to_string(at) + " = " + std::to_string(bad));
      auto x = test8::random_floats(rows * cols, -128.0f, 127.0f, 9);
      x[at] = bad;
      for (const Block8Kernel k : {Block8Kernel::Fast, Block8Kernel::Reference})
        for (int threads : {1, 2})
          for (const std::size_t used_cols : {cols, cols - 3}) {  // direct, and through a strip
            SCOPED_TRACE(std::string(to_string(k)) + " threads " + std::to_string(threads) +
                         " cols " + std::to_string(used_cols));
            const Shape s{rows, used_cols}, sp{rows, cols};
            const Strides st{std::ptrdiff_t(cols), 1};
            const Block8Options o{k, Block8Edge::Replicate, threads};
            if (at % cols >= used_cols) continue;
            const auto fused = outcome([&] {
              std::vector<std::int16_t> lv(rows * cols, kPoison);
              block8_forward_quantized(ConstView<float>(x.data(), s, st),
                                       View<std::int16_t>(lv.data(), sp), t, o);
              return lv;
            });
            const auto separate = outcome([&] {
              std::vector<float> c(rows * cols, kNaN);
              std::vector<std::int16_t> lv(rows * cols, kPoison);
              block8_forward(ConstView<float>(x.data(), s, st), View<float>(c.data(), sp), o);
              block8_quantize(ConstView<float>(c.data(), sp), View<std::int16_t>(lv.data(), sp), t);
              return lv;
            });
            EXPECT_EQ(fused, separate);
            if (std::isnan(bad)) {
              EXPECT_TRUE(fused.empty()) << "no error for a NaN sample";
            }
          }
    }
  auto c = test8::random_floats(rows * cols, -3000.0f, 3000.0f, 10);
  c[rows * cols / 2 + 5] = kNaN;
  const Shape s{rows, cols};
  std::vector<std::int16_t> lv(rows * cols, kPoison), lv2(2 * rows * cols, kPoison);
  expect_error(
      [&] { block8_quantize(ConstView<float>(c.data(), s), View<std::int16_t>(lv.data(), s), t); },
      "block8_quantize: the coefficients hold NaN");
  expect_error(
      [&] {
        block8_quantize(ConstView<float>(c.data(), s, {std::ptrdiff_t(cols), 1}),
                        View<std::int16_t>(lv2.data(), s, {std::ptrdiff_t(2 * cols), 2}), t);
      },
      "hold NaN");
  // The round trip: NaN in block (1, 2) only, on the fused and the composed kernels.
  auto x = test8::random_floats(rows * cols, -128.0f, 127.0f, 11);
  x[cols * 9 + 20] = kNaN;
  for (const Block8Kernel k : {Block8Kernel::Fast, Block8Kernel::Reference}) {
    std::vector<float> y(x.size(), 7.0f);
    block8_roundtrip_quantized(ConstView<float>(x.data(), s), View<float>(y.data(), s), t, {k});
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t q = 0; q < cols; ++q)
        ASSERT_EQ(std::isnan(y[r * cols + q]), r / 8 == 1 && q / 8 == 2)
            << to_string(k) << " at " << r << ", " << q;
  }
}

// Batches of planes, planes not multiples of 8 (edge replication, cropped decoder output), two
// threads, in place (int16), and the kernels without fused halves (Reference; Fast on int16).
TEST_P(CodecHalves, BatchesEdgesThreadsInPlaceAndOtherKernels) {
  const QuantTable t = quant_table_jpeg_luma(70);
  const std::size_t planes = 3, rows = 21, cols = 43, pr = 24, pc = 48;
  const auto xf = test8::random_floats(planes * rows * cols, -128.0f, 127.0f, 11);
  const auto xi = test8::random_int16(planes * rows * cols, -128, 127, 12);
  const Shape si{planes, rows, cols}, sp{planes, pr, pc};
  for (const Block8Kernel k : {Block8Kernel::Fast, Block8Kernel::Reference, Block8Kernel::Int16}) {
    SCOPED_TRACE(std::string(to_string(k)));
    for (int threads : {1, 2}) {
      Block8Options o{k, Block8Edge::Replicate, threads};
      const auto check = [&](const auto& x) {
        using T = typename std::decay_t<decltype(x)>::value_type;
        std::vector<T> c(planes * pr * pc), d(c.size()), back(x.size(), T(7)), got(x.size(), T(7));
        std::vector<std::int16_t> want(c.size(), kPoison), lv(c.size(), kPoison);
        block8_forward(ConstView<T>(x.data(), si), View<T>(c.data(), sp), o);
        block8_quantize(ConstView<T>(c.data(), sp), View<std::int16_t>(want.data(), sp), t);
        block8_forward_quantized(ConstView<T>(x.data(), si), View<std::int16_t>(lv.data(), sp), t,
                                 o);
        EXPECT_EQ(lv, want);
        block8_dequantize(ConstView<std::int16_t>(lv.data(), sp), View<T>(d.data(), sp), t);
        block8_inverse(ConstView<T>(d.data(), sp), View<T>(back.data(), si), o);
        block8_inverse_dequantized(ConstView<std::int16_t>(lv.data(), sp), View<T>(got.data(), si),
                                   t, o);
        EXPECT_EQ(got, back);
      };
      if (k != Block8Kernel::Int16) check(xf);
      check(xi);
    }
  }
  // In place: int16 samples replaced by their levels, then by the decoded samples.
  const Shape s{pr, pc};
  auto x = test8::random_int16(pr * pc, -128, 127, 13);
  std::vector<std::int16_t> lv(x.size()), out(x.size());
  block8_forward_quantized(ConstView<std::int16_t>(x.data(), s), View<std::int16_t>(lv.data(), s),
                           t);
  block8_inverse_dequantized(ConstView<std::int16_t>(lv.data(), s),
                             View<std::int16_t>(out.data(), s), t);
  block8_forward_quantized(ConstView<std::int16_t>(x.data(), s), View<std::int16_t>(x.data(), s),
                           t);
  EXPECT_EQ(x, lv);
  block8_inverse_dequantized(ConstView<std::int16_t>(x.data(), s), View<std::int16_t>(x.data(), s),
                             t);
  EXPECT_EQ(x, out);
}

// The int16 halves equal the scalar kernels (the same integers on every target).
TEST_P(CodecHalves, Int16EqualsScalarKernels) {
  const std::size_t rows = 16, cols = 72;
  for (const QuantTable& t : tables()) {
    const auto x = test8::random_int16(rows * cols, block8::kFwdInMin, block8::kFwdInMax, 21);
    block8::QuantI16 q;
    for (std::size_t u = 0; u < 8; ++u)
      for (std::size_t v = 0; v < 8; ++v) q.set(v, u, t.q[8 * u + v]);
    std::vector<std::int16_t> lv(x.size(), kPoison), ref(x.size(), kPoison);
    const auto stats = block8_forward_quantized(ConstView<std::int16_t>(x.data(), {rows, cols}),
                                                View<std::int16_t>(lv.data(), {rows, cols}), t);
    const auto zeros =
        block8::scalar::ForwardQuantizeI16(x.data(), cols, ref.data(), cols, rows, cols, q);
    EXPECT_EQ(lv, ref);
    EXPECT_EQ(stats.zeros, zeros);
    std::vector<std::int16_t> out(x.size(), kPoison);
    block8_inverse_dequantized(ConstView<std::int16_t>(x.data(), {rows, cols}),
                               View<std::int16_t>(out.data(), {rows, cols}), t);
    block8::scalar::DequantizeInverseI16(x.data(), cols, ref.data(), cols, rows, cols, q);
    EXPECT_EQ(out, ref);
  }
}

// Levels of 16 MiB and more take non-temporal stores through the same store modes as every pass
// (the float encoder packs two tiles into each 64-byte row piece): aligned when the rows start on
// a cache line, realigned whole lines when they start 16 or 48 bytes into one (AVX-512), ordinary
// stores one element in. Each placement, walking either way (outputs past 4 KiB plus 1 KiB flip
// the walk), must give the levels and zero count of the separate passes; rows of 4088 levels in a
// stride of 4096 end in narrower tiles, and nothing around or between the rows is written.
TEST_P(CodecHalves, StreamedLevelsEqualOrdinaryStores) {
  const std::size_t rows = 2056, cols = 4088, stride = 4096, n = rows * stride;
  ASSERT_GE(rows * cols * sizeof(std::int16_t), std::size_t{16} << 20);
  const Shape s{rows, cols};
  const Strides st{std::ptrdiff_t(stride), 1};
  const auto x = test8::random_floats(n, -128.0f, 127.0f, 77);
  const QuantTable t = quant_table_jpeg_luma(50);
  std::size_t zeros = 0;
  const auto want = Separate<float>::encode(x, s, st, t, {}, zeros);
  // The input on a page, the outputs at page + offset in a second buffer laid out the same way.
  std::vector<float> in_buf(n + 1024);
  std::vector<std::int16_t> out_buf(n + 8192);
  const auto page = [](auto* p) {
    return p + (4096 - reinterpret_cast<std::uintptr_t>(p) % 4096) % 4096 / sizeof(*p);
  };
  float* in = page(in_buf.data());
  std::copy(x.begin(), x.end(), in);
  std::int16_t* out_page = page(out_buf.data());
  for (std::size_t offset : {0, 2, 16, 48, 5120 + 16, 5120 + 48}) {
    SCOPED_TRACE("output " + std::to_string(offset) + " bytes past a page");
    std::fill(out_buf.begin(), out_buf.end(), kPoison);
    std::int16_t* out = out_page + offset / 2;
    const auto stats =
        block8_forward_quantized(ConstView<float>(in, s, st), View<std::int16_t>(out, s, st), t);
    EXPECT_EQ(stats.zeros, zeros);
    std::size_t bad = 0, touched = 0;
    for (std::size_t k = 0; k < out_buf.size(); ++k) {
      const std::ptrdiff_t e = &out_buf[k] - out;  // element index relative to the output
      const bool inside = e >= 0 && std::size_t(e) < n && std::size_t(e) % stride < cols;
      if (inside)
        bad += out_buf[k] != want[std::size_t(e)];
      else
        touched += out_buf[k] != kPoison;
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(touched, 0u);
  }
}

// 64 quantizers per table: 1..256, the powers of two and their neighbours up to 32767.
std::vector<QuantTable> every_quantizer() {
  std::vector<int> qs;
  for (int q = 1; q <= 256; ++q) qs.push_back(q);
  for (int q : {257, 511, 512, 513, 999, 1000, 1024, 4095, 4096, 4097, 12345, 16383, 16384, 16385,
                32765, 32766, 32767})
    qs.push_back(q);
  std::vector<QuantTable> out;
  for (std::size_t k = 0; k < qs.size(); k += 64) {
    QuantTable t;
    for (std::size_t e = 0; e < 64; ++e) t.q[e] = qs[std::min(k + e, qs.size() - 1)];
    out.push_back(t);
  }
  return out;
}

// Every int16 coefficient against every quantizer: block8_quantize is round(c / Q) half away from
// zero, exactly (the SIMD kernel divides in float), and block8_dequantize multiplies back with
// saturation. Plane: 8 rows; column 8 v + j holds value v - 32768 at table column j.
TEST_P(CodecHalves, QuantizeInt16EveryValueAndQuantizer) {
  const std::size_t rows = 8, cols = 8 * 65536;
  const Shape s{rows, cols};
  std::vector<std::int16_t> c(rows * cols), lv(c.size()), back(c.size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = 0; k < cols; ++k)
      c[r * cols + k] = static_cast<std::int16_t>(int(k / 8) - 32768);
  for (const QuantTable& t : every_quantizer()) {
    std::fill(lv.begin(), lv.end(), kPoison);
    block8_quantize(ConstView<std::int16_t>(c.data(), s), View<std::int16_t>(lv.data(), s), t);
    block8_dequantize(ConstView<std::int16_t>(c.data(), s), View<std::int16_t>(back.data(), s), t);
    std::size_t bad = 0, bad_back = 0;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t k = 0; k < cols; ++k) {
        const long v = c[r * cols + k], q = t.q[8 * r + k % 8];
        const long level = (std::labs(v) * 2 + q) / (2 * q);
        bad += lv[r * cols + k] != std::clamp<long>(v < 0 ? -level : level, -32768, 32767);
        bad_back += back[r * cols + k] != std::clamp<long>(v * q, -32768, 32767);
      }
    EXPECT_EQ(bad, 0u) << "first table entry " << t.q[0];
    EXPECT_EQ(bad_back, 0u) << "first table entry " << t.q[0];
  }
}

// Float coefficients: exact half-integer quotients round away from zero, huge values and
// infinities saturate; the SIMD path (unit column stride) and the element-by-element path
// (column stride 2) agree on random values too, and dequantization is level * Q.
TEST_P(CodecHalves, QuantizeFloatTiesSaturationAndBothPaths) {
  const std::size_t rows = 16, cols = 40;
  const Shape s{rows, cols};
  for (const QuantTable& t : tables()) {
    auto c = test8::random_floats(rows * cols, -3000.0f, 3000.0f, 5);
    for (std::size_t k = 0; k < c.size(); k += 3) {  // ties: (m + 1/2) Q, both signs
      const float q = float(t.q[8 * (k / cols % 8) + k % cols % 8]);
      const float m = float(int(k % 41) - 20);
      c[k] = (m + (m < 0 ? -0.5f : 0.5f)) * q;
    }
    c[2] = std::numeric_limits<float>::infinity();
    c[4] = -std::numeric_limits<float>::infinity();
    c[5] = 1e30f;
    c[7] = -1e30f;
    std::vector<std::int16_t> lv(c.size(), kPoison);
    block8_quantize(ConstView<float>(c.data(), s), View<std::int16_t>(lv.data(), s), t);
    std::vector<float> c2(2 * c.size(), kNaN);
    std::vector<std::int16_t> lv2(2 * c.size(), kPoison);
    for (std::size_t k = 0; k < c.size(); ++k) c2[2 * k] = c[k];
    const Strides every_other{std::ptrdiff_t(2 * cols), 2};
    block8_quantize(ConstView<float>(c2.data(), s, every_other),
                    View<std::int16_t>(lv2.data(), s, every_other), t);
    std::size_t bad = 0;
    for (std::size_t k = 0; k < c.size(); ++k) {
      const int q = t.q[8 * (k / cols % 8) + k % cols % 8];
      const double x = double(c[k]) * double(1.0f / float(q));
      const double want = std::clamp(test8::round_half_away(x), -32768.0L, 32767.0L);
      // c * (1/Q) in float may round onto or off a half-integer; the ties built above are exact
      // multiples of Q whose quotient float evaluates exactly when Q is a power of two.
      const bool exact = std::isinf(x) || (q & (q - 1)) == 0 ||
                         std::fabs(std::fabs(x - std::floor(x)) - 0.5) > 1e-3;
      if (exact) bad += lv[k] != want;
      bad += lv2[2 * k] != lv[k];
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(lv[2], 32767);
    EXPECT_EQ(lv[4], -32768);
    std::vector<float> d(c.size(), kNaN);
    block8_dequantize(ConstView<std::int16_t>(lv.data(), s), View<float>(d.data(), s), t);
    for (std::size_t k = 0; k < c.size(); ++k)
      ASSERT_EQ(d[k], float(lv[k]) * float(t.q[8 * (k / cols % 8) + k % cols % 8])) << k;
  }
}

// Quantization keeps its constants per thread for the last table, as the fused passes do: tables
// that alternate, one entry apart, between calls must each be followed (against the
// element-by-element path, which reads the table directly).
TEST_P(CodecHalves, QuantizeFollowsTheTableOfEachCall) {
  const std::size_t rows = 8, cols = 16;
  const Shape s{rows, cols};
  const Strides every_other{std::ptrdiff_t(2 * cols), 2};
  const auto c = test8::random_floats(rows * cols, -500.0f, 500.0f, 31);
  std::vector<float> c2(2 * c.size());
  for (std::size_t k = 0; k < c.size(); ++k) c2[2 * k] = c[k];
  QuantTable nudged = quant_table_nvidia();
  nudged.q[63] = 1;  // differs from the NVIDIA table in the last entry only
  for (const QuantTable& t :
       {quant_table_nvidia(), nudged, quant_table_nvidia(), quant_table_jpeg_luma(20), nudged}) {
    std::vector<std::int16_t> lv(c.size(), kPoison), ref(2 * c.size(), kPoison);
    block8_quantize(ConstView<float>(c.data(), s), View<std::int16_t>(lv.data(), s), t);
    block8_quantize(ConstView<float>(c2.data(), s, every_other),
                    View<std::int16_t>(ref.data(), s, every_other), t);
    for (std::size_t k = 0; k < c.size(); ++k) ASSERT_EQ(lv[k], ref[2 * k]) << k;
    std::vector<float> d(c.size());
    block8_dequantize(ConstView<std::int16_t>(lv.data(), s), View<float>(d.data(), s), t);
    ASSERT_EQ(d[c.size() - 1], float(lv[c.size() - 1]) * float(t.q[63]));
  }
}

TEST(CodecHalvesErrors, BadShapesKernelsAndTables) {
  std::vector<float> f(64 * 64, 1.0f);
  std::vector<std::int16_t> i16(64 * 64, 1), j16(64 * 64);
  const QuantTable t = quant_table_nvidia();
  QuantTable zero = t;
  zero.q[9] = 0;
  expect_error(
      [&] {
        block8_forward_quantized(ConstView<float>(f.data(), {12, 16}),
                                 View<std::int16_t>(j16.data(), {16, 16}), t);
      },
      "12 x 16 samples: sides must be multiples of 8");
  expect_error(
      [&] {
        block8_forward_quantized(ConstView<float>(f.data(), {16, 16}),
                                 View<std::int16_t>(j16.data(), {16, 8}), t);
      },
      "levels is 16 x 8");
  expect_error(
      [&] {
        block8_forward_quantized(ConstView<float>(f.data(), {8, 8}),
                                 View<std::int16_t>(j16.data(), {8, 8}), zero);
      },
      "entry 9 (row 1, column 1) is 0");
  expect_error(
      [&] {
        block8_forward_quantized(ConstView<float>(f.data(), {8, 8}),
                                 View<std::int16_t>(j16.data(), {8, 8}), t, {Block8Kernel::Int16});
      },
      "Int16 kernel");
  expect_error(
      [&] {
        block8_forward_quantized(ConstView<float>(f.data(), {2, 8, 8}),
                                 View<std::int16_t>(j16.data(), {16, 8}), t);
      },
      "rank");
  expect_error(
      [&] {
        block8_forward_quantized(ConstView<std::int16_t>(i16.data(), {8, 8}),
                                 View<std::int16_t>(j16.data(), {8, 8}, {0, 1}), t);
      },
      "zero stride");
  expect_error(
      [&] {
        block8_inverse_dequantized(ConstView<std::int16_t>(i16.data(), {16, 20}),
                                   View<float>(f.data(), {16, 20}), t);
      },
      "level plane of 16 x 20 samples: sides must be multiples of 8");
  expect_error(
      [&] {
        block8_inverse_dequantized(ConstView<std::int16_t>(i16.data(), {16, 16}),
                                   View<float>(f.data(), {13, 16}), t);
      },
      "Block8Edge::Replicate");
  expect_error(
      [&] {
        block8_inverse_dequantized(ConstView<std::int16_t>(i16.data(), {2, 8, 8}),
                                   View<std::int16_t>(j16.data(), {3, 8, 8}), t);
      },
      "2 planes");
  expect_error(
      [&] {
        block8_inverse_dequantized(ConstView<std::int16_t>(nullptr, {8, 8}),
                                   View<std::int16_t>(j16.data(), {8, 8}), t);
      },
      "null");
  // Nothing is written when the arguments are refused.
  EXPECT_TRUE(std::all_of(j16.begin(), j16.end(), [](std::int16_t v) { return v == 0; }));
}

}  // namespace
}  // namespace dctx
