// SPDX-License-Identifier: BSD-3-Clause
// The block kernels' walks over planes on every compiled SIMD target (tile groups, single and
// narrow tiles, both walk directions, streaming stores), the fused int16 pass at every quantizer
// shift, and the target-independent kernels (Reference, Fast on int16, the
// fixed-point flowgraphs' overflow bound).
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

class Walks : public test8::PerTarget {};
DCTX_INSTANTIATE_PER_TARGET(Walks);

// Every plane width from 8 to 136 columns: the kernels walk groups of tiles, single tiles and
// narrower remainder tiles (walk-inl.h, ForEachTile), and the zero counts are summed per row of
// tiles. Each mix must give the same numbers as the plain passes.
TEST_P(Walks, EveryTileWidth) {
  const std::size_t rows = 16;
  const QuantTable t = quant_table_jpeg_luma(60);
  for (std::size_t cols = 8; cols <= 136; cols += 8) {
    SCOPED_TRACE("cols " + std::to_string(cols));
    const Shape s{rows, cols};
    const Plane p{rows, cols, std::ptrdiff_t(cols)};
    const auto x = test8::random_floats(rows * cols, -128.0f, 127.0f, 40 + unsigned(cols));
    std::vector<float> c(x.size(), kNaN), d(x.size(), kNaN), sep(x.size(), kNaN),
        fused(x.size(), kNaN);
    std::vector<std::int16_t> levels(x.size(), kSentinel);
    block8_forward(ConstView<float>(x.data(), s), View<float>(c.data(), s));
    EXPECT_LE(max_error(x.data(), p, c.data(), std::ptrdiff_t(cols), false), float_bound(128));
    block8_quantize(ConstView<float>(c.data(), s), View<std::int16_t>(levels.data(), s), t);
    block8_dequantize(ConstView<std::int16_t>(levels.data(), s), View<float>(d.data(), s), t);
    block8_inverse(ConstView<float>(d.data(), s), View<float>(sep.data(), s));
    EXPECT_LE(max_error(d.data(), p, sep.data(), std::ptrdiff_t(cols), true), float_bound(128 * 8));
    const auto st =
        block8_roundtrip_quantized(ConstView<float>(x.data(), s), View<float>(fused.data(), s), t);
    EXPECT_EQ(fused, sep);
    EXPECT_EQ(st.zeros, std::size_t(std::count(levels.begin(), levels.end(), 0)));

    const auto xi = test8::random_int16(rows * cols, -128, 127, 80 + unsigned(cols));
    std::vector<std::int16_t> ci(xi.size(), kSentinel), ref(xi.size(), kSentinel),
        li(xi.size(), kSentinel), di(xi.size(), kSentinel), sepi(xi.size(), kSentinel),
        fusedi(xi.size(), kSentinel);
    block8_forward(ConstView<std::int16_t>(xi.data(), s), View<std::int16_t>(ci.data(), s));
    block8::scalar::ForwardI16(xi.data(), std::ptrdiff_t(cols), ref.data(), std::ptrdiff_t(cols),
                               rows, cols);
    EXPECT_EQ(ci, ref);
    block8_quantize(ConstView<std::int16_t>(ci.data(), s), View<std::int16_t>(li.data(), s), t);
    block8_dequantize(ConstView<std::int16_t>(li.data(), s), View<std::int16_t>(di.data(), s), t);
    block8_inverse(ConstView<std::int16_t>(di.data(), s), View<std::int16_t>(sepi.data(), s));
    block8::scalar::InverseI16(di.data(), std::ptrdiff_t(cols), ref.data(), std::ptrdiff_t(cols),
                               rows, cols);
    EXPECT_EQ(sepi, ref);
    const auto sti = block8_roundtrip_quantized(ConstView<std::int16_t>(xi.data(), s),
                                                View<std::int16_t>(fusedi.data(), s), t);
    EXPECT_EQ(fusedi, sepi);
    EXPECT_EQ(sti.zeros, std::size_t(std::count(li.begin(), li.end(), 0)));
  }
}

// The walk over a row of tiles runs right to left when the output starts a little after the input
// modulo 4 KiB (to dodge 4K aliasing), left to right otherwise. Outputs placed 0, 64 and 2112 bytes
// after the input (mod 4 KiB) in one buffer take both directions; every width mixes tile groups,
// single and narrow tiles, and the results must not depend on the order.
TEST_P(Walks, BothWalkDirectionsGiveTheSameBits) {
  const std::size_t rows = 16;
  const QuantTable t = quant_table_jpeg_luma(60);
  constexpr std::size_t kRegion = std::size_t{1} << 17;  // bytes per array's slot, a 4 KiB multiple
  std::vector<unsigned char> buf(8 * kRegion + 64);
  unsigned char* base = buf.data() + (64 - reinterpret_cast<std::uintptr_t>(buf.data()) % 64) % 64;
  const std::size_t offsets[] = {0, 64, 2112};
  for (std::size_t cols : {40, 72, 136, 1024}) {
    SCOPED_TRACE("cols " + std::to_string(cols));
    const Shape s{rows, cols};
    const std::size_t n = rows * cols;
    ASSERT_LE(n * sizeof(float), kRegion - 4096);
    auto* xf = reinterpret_cast<float*>(base);
    auto* xi = reinterpret_cast<std::int16_t*>(base + 4 * kRegion);
    const auto rf = test8::random_floats(n, -128.0f, 127.0f, 7 + unsigned(cols));
    const auto ri = test8::random_int16(n, -128, 127, 9 + unsigned(cols));
    std::copy(rf.begin(), rf.end(), xf);
    std::copy(ri.begin(), ri.end(), xi);
    std::vector<float> first[3];
    std::vector<std::int16_t> first_i[3];
    for (std::size_t o : offsets) {
      SCOPED_TRACE("output offset " + std::to_string(o));
      std::vector<float> got[3];
      std::vector<std::int16_t> got_i[3];
      for (int k = 0; k < 3; ++k) {
        auto* of = reinterpret_cast<float*>(base + (1 + std::size_t(k)) * kRegion + o);
        auto* oi = reinterpret_cast<std::int16_t*>(base + (5 + std::size_t(k)) * kRegion + o);
        std::fill(of, of + n, kNaN);
        std::fill(oi, oi + n, kSentinel);
        const ConstView<float> in(xf, s);
        const View<float> out(of, s);
        const ConstView<std::int16_t> in_i(xi, s);
        const View<std::int16_t> out_i(oi, s);
        if (k == 0) block8_forward(in, out), block8_forward(in_i, out_i);
        if (k == 1) block8_inverse(in, out), block8_inverse(in_i, out_i);
        if (k == 2)
          block8_roundtrip_quantized(in, out, t), block8_roundtrip_quantized(in_i, out_i, t);
        got[k].assign(of, of + n);
        got_i[k].assign(oi, oi + n);
      }
      EXPECT_LE(max_error(xf, Plane{rows, cols, std::ptrdiff_t(cols)}, got[0].data(),
                          std::ptrdiff_t(cols), false),
                float_bound(128));
      std::vector<std::int16_t> ref(n, kSentinel);
      block8::scalar::ForwardI16(xi, std::ptrdiff_t(cols), ref.data(), std::ptrdiff_t(cols), rows,
                                 cols);
      EXPECT_EQ(got_i[0], ref);
      block8::scalar::InverseI16(xi, std::ptrdiff_t(cols), ref.data(), std::ptrdiff_t(cols), rows,
                                 cols);
      EXPECT_EQ(got_i[1], ref);
      for (int k = 0; k < 3; ++k) {
        if (o == 0) {
          first[k] = got[k];
          first_i[k] = got_i[k];
        } else {
          EXPECT_EQ(got[k], first[k]) << "float pass " << k;
          EXPECT_EQ(got_i[k], first_i[k]) << "int16 pass " << k;
        }
      }
    }
  }
}

// Quantizer values at every power-of-two boundary (each magic-number shift 0..15) and the extremes
// 1 and 32767, on full-range int16 samples: the fused int16 pass (integer requantization, in
// 16-bit lanes on AVX-512) equals the separate passes and counts the same zeros.
TEST_P(Walks, FusedInt16EveryQuantizerShift) {
  QuantTable t;
  std::size_t k = 0;
  for (int p = 0; p <= 15 && k < 64; ++p)
    for (int d : {-1, 0, 1})
      if (k < 64) {
        const int v = (1 << p) + d;
        if (v >= 1 && v <= 32767) t.q[k++] = v;
      }
  for (int v : {32767, 32766, 3,   6,   10,  12,  20,   24,   40,   48,    80,   96,
                100,   200,   300, 500, 700, 900, 1500, 3000, 6000, 12000, 24000})
    if (k < 64) t.q[k++] = v;
  ASSERT_EQ(k, 64u);
  const std::size_t rows = 16, cols = 72;
  const auto x = test8::random_int16(rows * cols, block8::kFwdInMin, block8::kFwdInMax, 31);
  const std::size_t zeros = ExpectFusedInt16EqualsSeparate(x, rows, cols, t);
  EXPECT_GT(zeros, 0u);
  EXPECT_LT(zeros, x.size());
}

template <class T>
struct Page {  // n elements at a 4 KiB boundary, 64 bytes of guard before, `slack` bytes after
  Page(std::size_t n, std::size_t slack)
      : buf((n * sizeof(T) + slack + 64 + 4096) / sizeof(T) + 1) {
    const auto a = reinterpret_cast<std::uintptr_t>(buf.data()) + 64;
    start = reinterpret_cast<unsigned char*>(buf.data()) + 64 + (4096 - a % 4096) % 4096;
  }
  T* at(std::size_t byte_offset) { return reinterpret_cast<T*>(start + byte_offset); }
  std::vector<T> buf;
  unsigned char* start;
};

// Outputs of 16 MiB and more take non-temporal stores: aligned ones when the rows start on a cache
// line, realigned whole lines (AVX-512) when they start 16, 32 or 48 bytes into one, ordinary
// stores otherwise. Every placement must give the bits of the cache-line-aligned output, leave
// the elements around and between the rows alone, and do so walking either way along the rows
// (the walk direction follows the output's offset from the input modulo 4 KiB) and with a
// narrower tile at the end of each row (row length not a multiple of 16 floats / 32 int16).
template <class T>
void ExpectEveryOutputPlacementEqual(std::size_t rows, std::size_t cols, std::size_t stride,
                                     const QuantTable& t, T poison) {
  const Shape s{rows, cols};
  const Strides st{std::ptrdiff_t(stride), 1};
  const std::size_t n = rows * stride;
  Page<T> in(n, 64), want(n, 0), got(n, 8192 + 64);
  Page<std::int16_t> levels(n, 64);  // the decoder's input
  for (std::size_t i = 0; i < n; ++i) {
    in.at(0)[i] = static_cast<T>(int((i * 2654435761u) >> 24) % 255 - 127);
    levels.at(0)[i] = static_cast<std::int16_t>(int((i * 2654435761u) >> 24) % 41 - 20);
  }
  // Passes: forward, inverse, fused, decoder (levels -> T) and, for int16 (same output type),
  // the encoder.
  for (int pass = 0; pass < 5; ++pass) {
    if (pass == 4 && !std::is_same_v<T, std::int16_t>) continue;
    const auto run = [&](const ConstView<T>& iv, const View<T>& ov) {
      if (pass == 0) block8_forward(iv, ov);
      if (pass == 1) block8_inverse(iv, ov);
      if (pass == 2) return block8_roundtrip_quantized(iv, ov, t).zeros;
      if (pass == 3)
        block8_inverse_dequantized(ConstView<std::int16_t>(levels.at(0), iv.shape(), iv.strides()),
                                   ov, t);
      if constexpr (std::is_same_v<T, std::int16_t>)
        if (pass == 4) return block8_forward_quantized(iv, ov, t).zeros;
      return std::uint64_t{0};
    };
    std::fill(want.at(0), want.at(0) + n, poison);
    const auto want_zeros = run(ConstView<T>(in.at(0), s, st), View<T>(want.at(0), s, st));
    // Output offsets in bytes: on the line, one element in (ordinary stores), 16, 32 and 48
    // bytes in, and the same past 4 KiB plus 1 KiB (the walk's direction flips between them).
    for (std::size_t off : {std::size_t{0}, sizeof(T), std::size_t{16}, std::size_t{32},
                            std::size_t{48}, std::size_t{5120 + 16}, std::size_t{5120 + 48}}) {
      SCOPED_TRACE("pass " + std::to_string(pass) + ", output " + std::to_string(off) +
                   " bytes past a page");
      T* out = got.at(off);
      std::fill(got.buf.begin(), got.buf.end(), poison);
      const auto zeros = run(ConstView<T>(in.at(0), s, st), View<T>(out, s, st));
      EXPECT_EQ(zeros, want_zeros);
      bool same = true, untouched = true;
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < stride; ++c) {
          const T a = want.at(0)[r * stride + c], b = out[r * stride + c];
          if (c < cols ? std::memcmp(&a, &b, sizeof(T)) != 0
                       : std::memcmp(&b, &poison, sizeof(T)) != 0)
            (c < cols ? same : untouched) = false;
        }
      const T before = out[-1], after = out[n];
      EXPECT_TRUE(same);
      EXPECT_TRUE(untouched);
      EXPECT_EQ(std::memcmp(&before, &poison, sizeof(T)), 0);
      EXPECT_EQ(std::memcmp(&after, &poison, sizeof(T)), 0);
    }
  }
}

TEST_P(Walks, StreamingStoresGiveTheSameBits) {
  const QuantTable t = quant_table_jpeg_luma(60);
  // Just over 16 MiB: rows of 2040 columns (a narrower tile ends each row) in a stride of 2048.
  ExpectEveryOutputPlacementEqual<float>(2064, 2040, 2048, t, kNaN);
  ExpectEveryOutputPlacementEqual<std::int16_t>(4128, 2040, 2048, t, kSentinel);
}

// ---- Target-independent kernels

// Kernels without a fused SIMD kernel (Reference; Fast on int16) compose the separate passes strip
// by strip: same results as running them one after the other.
TEST(Block8Composed, FusedEqualsSeparatePasses) {
  const std::size_t rows = 16, cols = 24;
  const Shape s{rows, cols};
  const QuantTable t = quant_table_jpeg_luma(80);
  const auto xf = test8::random_floats(rows * cols, -128.0f, 127.0f, 17);
  const Block8Options ref{Block8Kernel::Reference};
  std::vector<float> c(xf.size()), d(xf.size()), sep(xf.size()), fused(xf.size(), kNaN);
  std::vector<std::int16_t> lv(xf.size());
  block8_forward(ConstView<float>(xf.data(), s), View<float>(c.data(), s), ref);
  block8_quantize(ConstView<float>(c.data(), s), View<std::int16_t>(lv.data(), s), t);
  block8_dequantize(ConstView<std::int16_t>(lv.data(), s), View<float>(d.data(), s), t);
  block8_inverse(ConstView<float>(d.data(), s), View<float>(sep.data(), s), ref);
  const auto st = block8_roundtrip_quantized(ConstView<float>(xf.data(), s),
                                             View<float>(fused.data(), s), t, ref);
  EXPECT_EQ(fused, sep);
  EXPECT_EQ(st.zeros, std::size_t(std::count(lv.begin(), lv.end(), 0)));
  const auto xi = test8::random_int16(rows * cols, -128, 127, 18);
  for (const Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast}) {
    std::vector<std::int16_t> ci(xi.size()), li(xi.size()), di(xi.size()), sepi(xi.size()),
        fusedi(xi.size(), kSentinel);
    block8_forward(ConstView<std::int16_t>(xi.data(), s), View<std::int16_t>(ci.data(), s), {k});
    block8_quantize(ConstView<std::int16_t>(ci.data(), s), View<std::int16_t>(li.data(), s), t);
    block8_dequantize(ConstView<std::int16_t>(li.data(), s), View<std::int16_t>(di.data(), s), t);
    block8_inverse(ConstView<std::int16_t>(di.data(), s), View<std::int16_t>(sepi.data(), s), {k});
    const auto sti = block8_roundtrip_quantized(ConstView<std::int16_t>(xi.data(), s),
                                                View<std::int16_t>(fusedi.data(), s), t, {k});
    EXPECT_EQ(fusedi, sepi) << to_string(k);
    EXPECT_EQ(sti.zeros, std::size_t(std::count(li.begin(), li.end(), 0))) << to_string(k);
  }
}

TEST(Block8Reference, FloatMatchesOracle) {
  const Plane p{16, 24, 24};
  const auto in = test8::random_floats(p.rows * p.cols, -256.0f, 255.0f, 12);
  std::vector<float> out(in.size(), kNaN), back(in.size(), kNaN);
  const Block8Options ref{Block8Kernel::Reference};
  block8_forward(ConstView<float>(in.data(), {p.rows, p.cols}),
                 View<float>(out.data(), {p.rows, p.cols}), ref);
  EXPECT_LE(max_error(in.data(), p, out.data(), 24, false),
            2048 * 1e-7);  // float rounding of the result
  block8_inverse(ConstView<float>(out.data(), {p.rows, p.cols}),
                 View<float>(back.data(), {p.rows, p.cols}), ref);
  EXPECT_LE(max_error(out.data(), p, back.data(), 24, true), 256 * 1e-7);
}

TEST(Block8Reference, Int16IsExactlyRounded) {
  const Plane p{16, 24, 24};
  const auto in = test8::random_int16(p.rows * p.cols, -2048, 2047, 13);
  std::vector<std::int16_t> out(in.size(), kSentinel);
  const Block8Options ref{Block8Kernel::Reference};
  block8_forward(ConstView<std::int16_t>(in.data(), {p.rows, p.cols}),
                 View<std::int16_t>(out.data(), {p.rows, p.cols}), ref);
  EXPECT_EQ(max_error(in.data(), p, out.data(), 24, false, true), 0.0L);
  block8_inverse(ConstView<std::int16_t>(in.data(), {p.rows, p.cols}),
                 View<std::int16_t>(out.data(), {p.rows, p.cols}), ref);
  EXPECT_EQ(max_error(in.data(), p, out.data(), 24, true, true), 0.0L);
}

TEST(Block8Fast, Int16ThroughFloatKernel) {
  const Plane p{8, 32, 32};
  const auto in = test8::random_int16(p.rows * p.cols, -255, 255, 14);
  std::vector<std::int16_t> out(in.size(), kSentinel);
  block8_forward(ConstView<std::int16_t>(in.data(), {p.rows, p.cols}),
                 View<std::int16_t>(out.data(), {p.rows, p.cols}), {Block8Kernel::Fast});
  EXPECT_LE(max_error(in.data(), p, out.data(), 32, false, true), 1.0L);
}

TEST(Block8Fast, ConstantsMatchTheirFormulas) {
  const double c[8] = {1,
                       block8::kCos1,
                       block8::kCos2,
                       block8::kCos3,
                       block8::kCos4,
                       block8::kCos5,
                       block8::kCos6,
                       block8::kCos7};
  const long double pl = std::acos(-1.0L);
  for (int k = 1; k < 8; ++k) EXPECT_NEAR(c[k], double(std::cos(k * pl / 16)), 1e-16) << k;
  EXPECT_EQ(block8::kSqrt2, std::sqrt(2.0));
  // libjpeg's FIX() values for 13 bits (jfdctint.c lists them): a cross-check of the formulas.
  const auto k13 = block8::kLlm1;
  EXPECT_EQ(std::vector<int>({k13.k0541, k13.k0765, k13.k1847, k13.k1175, k13.k0298, k13.k2053,
                              k13.k3072, k13.k1501, k13.k0899, k13.k2562, k13.k1961, k13.k0390}),
            std::vector<int>(
                {4433, 6270, 15137, 9633, 2446, 16819, 25172, 12299, 7373, 20995, 16069, 3196}));
}

// ---- No int32 intermediate of the fixed-point flowgraphs can overflow on the documented input
// domains: run the flowgraphs on affine forms of the 64 inputs (with a rounding-error term) and
// bound every intermediate by sum |coefficient| * M + |constant| + error.

struct Lin {
  long double k[64] = {};  // coefficient of each input
  long double c = 0;       // constant
  long double e = 0;       // accumulated rounding error bound (>= 0)
};
long double g_max_bound = 0;
long double g_domain = 0;
Lin track(Lin r) {
  long double s = 0;
  for (auto v : r.k) s += std::fabs(v);
  g_max_bound = std::max(g_max_bound, s * g_domain + std::fabs(r.c) + r.e);
  return r;
}
Lin operator+(Lin a, const Lin& b) {
  for (int i = 0; i < 64; ++i) a.k[i] += b.k[i];
  a.c += b.c;
  a.e += b.e;
  return track(a);
}
Lin operator-(Lin a, const Lin& b) {
  for (int i = 0; i < 64; ++i) a.k[i] -= b.k[i];
  a.c -= b.c;
  a.e += b.e;
  return track(a);
}
Lin operator*(Lin a, const Lin& b) {  // b is a constant
  for (auto& v : a.k) v *= b.c;
  a.c *= b.c;
  a.e *= std::fabs(b.c);
  return track(a);
}
struct OpsLin {
  Lin K(std::int32_t v) const {
    Lin r;
    r.c = v;
    return r;
  }
  template <int s>
  Lin Sra(Lin a) const {  // floor division: exact / 2^s, plus up to 1 of rounding
    const long double f = std::ldexp(1.0L, -s);
    for (auto& v : a.k) v *= f;
    a.c *= f;
    a.e = a.e * f + 1;
    return track(a);
  }
  template <int s>
  Lin Shl(Lin a) const {
    return a * K(std::int32_t{1} << s);
  }
};

template <bool kInverse>
long double flowgraph_bound(long double domain) {
  using block8::scalar::LlmForward8;
  using block8::scalar::LlmInverse8;
  g_max_bound = 0;
  g_domain = domain;
  Lin b[8][8];
  for (int i = 0; i < 64; ++i) b[i / 8][i % 8].k[i] = 1;
  const OpsLin o;
  auto p1 = [&](auto&... x) {
    kInverse ? LlmInverse8<false>(o, x...) : LlmForward8<false>(o, x...);
  };
  auto p2 = [&](auto&... x) { kInverse ? LlmInverse8<true>(o, x...) : LlmForward8<true>(o, x...); };
  for (int j = 0; j < 8; ++j)
    p1(b[0][j], b[1][j], b[2][j], b[3][j], b[4][j], b[5][j], b[6][j], b[7][j]);
  for (int i = 0; i < 8; ++i)
    p2(b[i][0], b[i][1], b[i][2], b[i][3], b[i][4], b[i][5], b[i][6], b[i][7]);
  return g_max_bound;
}

TEST(Block8Int16, NoIntermediateOverflowOnTheDomain) {
  const long double limit = 2147483647.0L;
  const long double fwd = flowgraph_bound<false>(-static_cast<long double>(block8::kFwdInMin));
  const long double inv = flowgraph_bound<true>(-static_cast<long double>(block8::kInvInMin));
  RecordProperty("forward_bound_log2", std::to_string(double(std::log2(fwd))));
  RecordProperty("inverse_bound_log2", std::to_string(double(std::log2(inv))));
  EXPECT_LT(fwd, limit) << "log2 = " << std::log2(fwd);
  EXPECT_LT(inv, limit) << "log2 = " << std::log2(inv);
  // ... and the domains are not needlessly small: twice as much would overflow.
  EXPECT_GT(flowgraph_bound<false>(-2.0L * block8::kFwdInMin), limit);
  EXPECT_GT(flowgraph_bound<true>(-2.0L * block8::kInvInMin), limit);
}

}  // namespace
}  // namespace dctx
