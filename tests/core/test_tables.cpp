// SPDX-License-Identifier: BSD-3-Clause
// Plan-time mathematics in the core (roots.hpp, fft_tables.hpp, r2r_tables.hpp): every table
// entry against its formula evaluated independently in long double, the factorisation and the
// Bluestein decision.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>

#include "core/fft_tables.hpp"
#include "core/r2r_tables.hpp"
#include "core/roots.hpp"
#include "oracle/oracle.hpp"

namespace dctx::detail {
namespace {

using LD = long double;
const LD kPi = 3.141592653589793238462643383279502884L;

std::complex<LD> expi(LD angle) { return {std::cos(angle), std::sin(angle)}; }

void ExpectClose(std::complex<double> got, std::complex<LD> want, const char* what) {
  // Rounded once from long double: within one double ulp of the value.
  EXPECT_LE(std::abs(std::complex<LD>(got.real(), got.imag()) - want),
            4 * std::numeric_limits<double>::epsilon() * std::max<LD>(1, std::abs(want)))
      << what;
}

TEST(Tables, RootsReduceTheIndexExactly) {
  // A huge index product: exp(-2 pi i (10^15 + 3) / 7) = exp(-2 pi i (10^15 + 3 mod 7) / 7).
  const std::int64_t big = 1000000000000000LL + 3;
  const auto z = RootTable(7)(big);
  const auto want = expi(-2 * kPi * LD(big % 7) / 7);
  EXPECT_LT(std::abs(z - want), 1e-18L);
  EXPECT_LT(std::abs(RootTable(8, +1)(-3) - expi(2 * kPi * 5 / 8)), 1e-18L);
}

// Every octant, both routes of RootTable (one table below 64, split hi/lo tables above), both
// signs: within a few long-double ulps of sin/cos evaluated on the angle itself.
TEST(Tables, RootsOfEveryOctantAndBothRoutes) {
  for (std::int64_t den :
       {7LL, 8LL, 63LL, 64LL, 65LL, 1000LL, 4096LL, 65537LL, 1048576LL, 2000003LL})
    for (int sign : {-1, +1}) {
      const RootTable table(den, sign);
      const std::int64_t step = std::max<std::int64_t>(1, den / 997);
      for (std::int64_t num = 0; num < den; num += step) {
        const auto want = expi(sign * 2 * kPi * LD(num) / LD(den));
        ASSERT_LT(std::abs(table(num) - want), 1e-17L) << num << "/" << den;
        ASSERT_LT(std::abs(table(num + 3 * den) - want), 1e-17L) << num << "/" << den;
        ASSERT_LT(std::abs(table(num - den) - want), 1e-17L) << num << "/" << den;
      }
    }
}

TEST(Tables, FactorisationAndBluestein) {
  EXPECT_EQ(fft_radices(1024), (std::vector<std::size_t>{8, 8, 8, 2}));
  EXPECT_EQ(fft_radices(96), (std::vector<std::size_t>{8, 4, 3}));
  EXPECT_EQ(fft_radices(2 * 59 * 61), (std::vector<std::size_t>{2, 59, 61}));
  // A real FFT's half-length power of two 2^(3k+2): a stage of 16 and the fused 2 save a pass.
  constexpr StageRadices kSixteen = StageRadices::SixteenFusedSplit, kFours = StageRadices::Fours;
  EXPECT_EQ(stockham_radices(256, kSixteen), (std::vector<std::size_t>{16, 8, 2}));
  EXPECT_EQ(stockham_radices(2048, kSixteen), (std::vector<std::size_t>{16, 8, 8, 2}));
  EXPECT_EQ(stockham_radices(32, kSixteen), (std::vector<std::size_t>{16, 2}));
  EXPECT_EQ(stockham_radices(256), fft_radices(256));
  for (std::size_t n : {4, 8, 128, 512, 1024, 96, 160, 4095})
    EXPECT_EQ(stockham_radices(n, kSixteen), fft_radices(n)) << n;
  // No radix 8 (AVX2's 16 vector registers): 4s, at most one 2, then the odd primes.
  EXPECT_EQ(stockham_radices(512, kFours), (std::vector<std::size_t>{4, 4, 4, 4, 2}));
  EXPECT_EQ(stockham_radices(256, kFours), (std::vector<std::size_t>{4, 4, 4, 4}));
  EXPECT_EQ(stockham_radices(96, kFours), (std::vector<std::size_t>{4, 4, 2, 3}));
  EXPECT_EQ(stockham_radices(2 * 59 * 61, kFours), (std::vector<std::size_t>{2, 59, 61}));
  for (std::size_t n : {1, 2, 7, 1000, 4096, 15015}) EXPECT_FALSE(fft_uses_bluestein(n)) << n;
  for (std::size_t n : {67, 10007, 65537}) EXPECT_TRUE(fft_uses_bluestein(n)) << n;
  EXPECT_EQ(fft_largest_radix(2 * 59 * 61), 61u);
  // Bluestein's padded length: fewer, cheaper passes over a slightly shorter length.
  EXPECT_EQ(bluestein_fft_size(2 * 997 - 1), 2048u);  // 8 8 8 4, not 2000 = 8 2 5 5 5
  EXPECT_EQ(complex_fft_tables(997).bluestein_length, 2048u);
  for (std::size_t minimum = 2; minimum < 5000; minimum += 37) {
    const std::size_t m = bluestein_fft_size(minimum);
    std::size_t pow2 = 1, rest = m;
    while (pow2 < minimum) pow2 *= 2;
    for (std::size_t p : {2, 3, 5, 7})
      while (rest % p == 0) rest /= p;
    EXPECT_TRUE(m >= minimum && m <= pow2 && rest == 1) << minimum << " -> " << m;
  }
}

TEST(Tables, StockhamTwiddlesMatchTheirFormula) {
  const std::size_t n = 720;  // radices 8, 2, 3, 3, 5; reversed 5, 3, 3, 2, 8
  for (const RadixOrder order : {RadixOrder::LargeFirst, RadixOrder::SmallFirst}) {
    const ComplexFftTables t = complex_fft_tables(n, order);
    ASSERT_EQ(t.bluestein_length, 0u);
    std::vector<std::size_t> radices;
    for (const FftStage& st : t.stages) radices.push_back(st.radix);
    EXPECT_EQ(radices, order == RadixOrder::LargeFirst ? (std::vector<std::size_t>{8, 2, 3, 3, 5})
                                                       : (std::vector<std::size_t>{5, 3, 3, 2, 8}));
    std::size_t L = 1, M = n;
    for (const FftStage& st : t.stages) {
      EXPECT_EQ(st.m * st.radix, M);
      EXPECT_EQ(st.L, L);
      for (std::size_t n1 = 0; n1 < st.m; ++n1)
        for (std::size_t k = 1; k < st.radix; ++k)
          ExpectClose(st.twiddles[n1 * (st.radix - 1) + k - 1], expi(-2 * kPi * LD(n1 * k) / LD(M)),
                      "stage twiddle");
      if (st.radix % 2 == 1)
        for (std::size_t j = 0; j < st.radix; ++j)
          ExpectClose(st.roots[j], expi(-2 * kPi * LD(j) / LD(st.radix)), "odd root");
      L *= st.radix;
      M /= st.radix;
    }
  }
  const ComplexFftTables b = complex_fft_tables(101);
  EXPECT_GE(b.bluestein_length, 201u);
  for (std::size_t j = 0; j < 101; ++j)
    ExpectClose(b.chirp[j], expi(kPi * LD(j * j) / 101), "chirp");
}

TEST(Tables, SplitAndSixStepTwiddles) {
  const auto s = real_fft_split_twiddles(64);
  ASSERT_EQ(s.size(), 33u);
  for (std::size_t k = 0; k < s.size(); ++k)
    ExpectClose(s[k], expi(-2 * kPi * LD(k) / 64), "split");
  const auto six = six_step_twiddles(16, 32);
  for (std::size_t k1 = 0; k1 < 16; ++k1)
    for (std::size_t j2 = 0; j2 < 32; ++j2)
      ExpectClose(six[k1 * 32 + j2], expi(-2 * kPi * LD(j2 * k1) / 512), "six-step");
}

// A table entry of precision T formed in RootArith<T> and rounded once: each component within
// half an ulp of T of the true value, plus the product's error (a few units of 2^-53 for float,
// whose products are formed in double; 2^-62 for double, formed in long double).
template <class T>
void ExpectRoundedOnce(std::complex<T> got, std::complex<LD> want, const char* what,
                       std::size_t at) {
  const LD product = std::is_same_v<T, float> ? std::ldexp(LD(1), -50) : std::ldexp(LD(1), -61);
  const auto half_ulp = [](LD v) {
    const T t = static_cast<T>(v);
    return LD(std::nextafter(std::fabs(t), std::numeric_limits<T>::infinity()) - std::fabs(t)) / 2;
  };
  const LD scale = std::max<LD>(1, std::abs(want));
  ASSERT_LE(std::fabs(LD(got.real()) - want.real()), half_ulp(want.real()) + product * scale)
      << what << " re at " << at;
  ASSERT_LE(std::fabs(LD(got.imag()) - want.imag()), half_ulp(want.imag()) + product * scale)
      << what << " im at " << at;
}

// Tables in the plan's own precision at lengths past the split of RootTable (hi/lo products),
// with the scales and steps that the plans use.
template <class T>
void CheckTablesInPrecision() {
  for (std::size_t n : {std::size_t{96}, std::size_t{1000}, std::size_t{12288}}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const auto split = real_fft_split_twiddles<T>(n);
    ASSERT_EQ(split.size(), n / 2 + 1);
    for (std::size_t k = 0; k < split.size(); ++k)
      ExpectRoundedOnce(split[k], expi(-2 * kPi * LD(k) / LD(n)), "split", k);
    const double s = 0.3;
    const auto t2 = r2r_tables<T>({Kind::DCT, 2}, n, s, false);
    for (std::size_t k = 0; k <= n / 2; ++k)
      ExpectRoundedOnce(t2.pre[k], 2 * LD(s) * expi(-kPi * LD(k) / LD(2 * n)), "II", k);
    const auto t3 = r2r_tables<T>({Kind::DCT, 3}, n, s, false);
    for (std::size_t k = 0; k <= n / 2; ++k)
      ExpectRoundedOnce(t3.pre[k], LD(s) * expi(kPi * LD(k) / LD(2 * n)), "III", k);
    const auto t4 = r2r_tables<T>({Kind::DST, 4}, n, s, false);  // even n
    for (std::size_t j = 0; j < n / 2; ++j) {
      ExpectRoundedOnce(t4.pre[j], expi(-kPi * LD(4 * j + 1) / LD(4 * n)), "IV pre", j);
      ExpectRoundedOnce(t4.post[j], 2 * LD(s) * expi(-kPi * LD(j) / LD(n)), "IV post", j);
    }
    const auto t4odd = r2r_tables<T>({Kind::DCT, 4}, n + 1, s, false);
    for (std::size_t j = 0; j <= n; ++j) {
      ExpectRoundedOnce(t4odd.pre[j], expi(-kPi * LD(j) / LD(2 * (n + 1))), "IV odd pre", j);
      ExpectRoundedOnce(t4odd.post[j], 2 * LD(s) * expi(-kPi * LD(2 * j + 1) / LD(4 * (n + 1))),
                        "IV odd post", j);
    }
  }
  const std::size_t m1 = 64, m2 = 96;
  const auto six = six_step_twiddles<T>(m1, m2);
  for (std::size_t k1 = 0; k1 < m1; ++k1)
    for (std::size_t j2 = 0; j2 < m2; ++j2)
      ExpectRoundedOnce(six[k1 * m2 + j2], expi(-2 * kPi * LD(j2 * k1) / LD(m1 * m2)), "six-step",
                        k1 * m2 + j2);
}
TEST(Tables, FloatTablesRoundedOnceFromDoubleProducts) { CheckTablesInPrecision<float>(); }
TEST(Tables, DoubleTablesRoundedOnceFromLongDoubleProducts) { CheckTablesInPrecision<double>(); }

TEST(Tables, MakhoulRotationsWithScaleAndOrthogonalize) {
  const std::size_t n = 12;
  const double s = 0.25;
  const R2RTables t2 = r2r_tables({Kind::DCT, 2}, n, s, true);
  EXPECT_EQ(t2.inner, InnerFft::Real);
  EXPECT_EQ(t2.inner_length, n);
  for (std::size_t k = 0; k <= n / 2; ++k)
    ExpectClose(t2.pre[k], 2 * LD(s) * expi(-kPi * LD(k) / LD(2 * n)), "DCT-II rotation");
  EXPECT_NEAR(t2.c0, 2 * s / std::sqrt(2.0), 1e-16);
  const R2RTables t3 = r2r_tables({Kind::DST, 3}, n, s, false);
  for (std::size_t k = 0; k <= n / 2; ++k)
    ExpectClose(t3.pre[k], LD(s) * expi(kPi * LD(k) / LD(2 * n)), "DCT-III rotation");
  EXPECT_EQ(t3.c0, s);
  const R2RTables t4 = r2r_tables({Kind::DCT, 4}, 7, s, false);  // odd: complex FFT of 2n
  EXPECT_EQ(t4.inner, InnerFft::Complex);
  EXPECT_EQ(t4.inner_length, 14u);
  for (std::size_t j = 0; j < 7; ++j) {
    ExpectClose(t4.pre[j], expi(-kPi * LD(j) / 14), "DCT-IV odd pre");
    ExpectClose(t4.post[j], 2 * LD(s) * expi(-kPi * LD(2 * j + 1) / 28), "DCT-IV odd post");
  }
  EXPECT_EQ(r2r_tables({Kind::DST, 1}, 9, s, false).inner_length, 20u);
  EXPECT_EQ(r2r_tables({Kind::DCT, 1}, 9, s, false).inner_length, 16u);
}

TEST(Tables, AxisScalesAndTheFused2DTerms) {
  PlanDesc d;
  d.shape = {6, 9};
  d.axes = {0, 1};
  d.transforms = {{Kind::DCT, 2}, {Kind::DCT, 2}};
  d.norm = Norm::Ortho;
  d.orthogonalize = true;
  EXPECT_NEAR(axis_scale(d, d.transforms[0], 6), 1 / std::sqrt(12.0), 1e-16);
  d.norm = Norm::Backward;
  d.direction = Direction::Inverse;
  EXPECT_NEAR(axis_scale(d, {Kind::DST, 1}, 6), 1 / 14.0, 1e-16);
  d.norm = Norm::Ortho;
  d.direction = Direction::Forward;
  const Fused2DTables f = fused2d_tables(d);
  EXPECT_TRUE(f.forward);
  ASSERT_EQ(f.w2.size(), 5u);
  const LD s1 = 1 / std::sqrt(12.0L), s2 = 1 / std::sqrt(18.0L);
  ExpectClose(f.w1[0], 2 * s1 / std::sqrt(2.0L), "w1[0] with orthogonalize");
  ExpectClose(f.w1[5], 2 * s1 * expi(-kPi * 5 / 12), "w1[5]");
  ExpectClose(f.w2[4], s2 * expi(-kPi * 4 / 18), "w2[4]");
  EXPECT_EQ(f.perm1, (std::vector<std::size_t>{0, 2, 4, 5, 3, 1}));
  EXPECT_EQ(f.perm2, (std::vector<std::size_t>{0, 2, 4, 6, 8, 7, 5, 3, 1}));
}

// The sign of every matrix entry, against the long-double oracle applied to unit vectors; an entry
// whose angle makes it an exact zero (the oracle gives a rounding residue) has sign 0.
TEST(Tables, CoefficientSignsMatchTheDefinitions) {
  for (Kind kind : {Kind::DCT, Kind::DST})
    for (int type = 1; type <= 4; ++type)
      for (std::size_t n = (kind == Kind::DCT && type == 1) ? 2 : 1; n <= 24; ++n)
        for (std::size_t j = 0; j < n; ++j) {
          std::vector<LD> e(n, 0.0L);
          e[j] = 1.0L;
          for (std::size_t k = 0; k < n; ++k) {
            const LD c = oracle::transform_at(kind, type, e, k);
            const int want = std::fabs(c) < 1e-15L ? 0 : (c > 0 ? 1 : -1);
            EXPECT_EQ(r2r_coefficient_sign({kind, type}, n, k, j), want)
                << (kind == Kind::DCT ? "DCT-" : "DST-") << type << " n=" << n << " k=" << k
                << " j=" << j << " entry " << static_cast<double>(c);
          }
        }
}

}  // namespace
}  // namespace dctx::detail
