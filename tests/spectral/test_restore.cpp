// SPDX-License-Identifier: BSD-3-Clause
// Reflective-boundary blur and Tikhonov deblurring (dctx/restore.hpp) against a direct
// convolution with half-sample reflection in long double: the blur itself for random symmetric
// PSFs (Gaussian or not) and image shapes down to the PSF's reach; deblurring as the exact
// inverse (alpha = 0) and as the solution of the normal equations (alpha > 0); the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "dctx/restore.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

using testing_support::expect_error;
using LD = long double;
// Bounds c eps log2(N) relative, c defined once; the worst case measured needs about 0.2.
constexpr double kC = 1;

long reflect(long t, long n) {  // half-sample symmetric extension: -1 -> 0, n -> n-1
  while (t < 0 || t >= n) t = t < 0 ? -1 - t : 2 * n - 1 - t;
  return t;
}

std::vector<LD> convolve(const std::vector<LD>& x, std::size_t m, std::size_t n, const Psf& p) {
  std::vector<LD> y(m * n, 0);
  const long hr = long(p.rows / 2), hc = long(p.cols / 2);
  for (long i = 0; i < long(m); ++i)
    for (long j = 0; j < long(n); ++j) {
      LD s = 0;
      for (long a = -hr; a <= hr; ++a)
        for (long b = -hc; b <= hc; ++b)
          s += LD(p.weights[std::size_t((a + hr) * long(p.cols) + b + hc)]) *
               x[std::size_t(reflect(i - a, long(m)) * long(n) + reflect(j - b, long(n)))];
      y[std::size_t(i) * n + std::size_t(j)] = s;
    }
  return y;
}

LD norm(const std::vector<LD>& v) {
  LD s = 0;
  for (LD x : v) s += x * x;
  return std::sqrt(s);
}

Psf random_symmetric_psf(std::size_t rows, std::size_t cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(0.1, 1);
  Psf p;
  p.rows = rows;
  p.cols = cols;
  p.weights.assign(rows * cols, 0);
  for (std::size_t i = 0; i <= rows / 2; ++i)
    for (std::size_t j = 0; j <= cols / 2; ++j) {
      const double w = U(rng);
      for (std::size_t a : {i, rows - 1 - i})
        for (std::size_t b : {j, cols - 1 - j}) p.weights[a * cols + b] = w;
    }
  return p;
}

template <class T>
void CheckBlur() {
  const double eps = std::numeric_limits<T>::epsilon();
  const Precision prec = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  unsigned seed = 1;
  for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{16, 20}, {7, 9}, {3, 64}})
    for (const Psf& p : {gaussian_psf(1.3), random_symmetric_psf(5, 3, seed++),
                         random_symmetric_psf(1, 5, seed++), gaussian_psf(0.8, 2)}) {
      if (p.rows / 2 >= m || p.cols / 2 >= n) continue;
      SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n) + ", PSF " +
                   std::to_string(p.rows) + " x " + std::to_string(p.cols));
      const ReflectiveBlur blur({m, n}, p, prec);
      std::mt19937 rng(seed++);
      std::uniform_real_distribution<double> U(0, 255);
      std::vector<T> x(m * n), y(m * n, std::numeric_limits<T>::quiet_NaN());
      for (auto& v : x) v = T(U(rng));
      blur.blur(ConstView<T>(x.data(), {m, n}), View<T>(y.data(), {m, n}));
      const std::vector<LD> want = convolve(std::vector<LD>(x.begin(), x.end()), m, n, p);
      std::vector<LD> e(m * n);
      for (std::size_t i = 0; i < e.size(); ++i) e[i] = y[i] - want[i];
      EXPECT_LE(double(norm(e)), kC * eps * std::log2(double(m * n)) * double(norm(want)));
    }
}
TEST(ReflectiveBlur, EqualsTheReflectiveConvolutionFloat64) { CheckBlur<double>(); }
TEST(ReflectiveBlur, EqualsTheReflectiveConvolutionFloat32) { CheckBlur<float>(); }

TEST(ReflectiveBlur, DeblurInvertsAndSolvesTheNormalEquations) {
  const std::size_t m = 24, n = 18;
  const Psf p = gaussian_psf(0.6);  // eigenvalues well away from 0: alpha = 0 is stable
  const ReflectiveBlur blur({m, n}, p);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(0, 1);
  std::vector<double> x(m * n), b(m * n), got(m * n);
  for (auto& v : x) v = U(rng);
  blur.blur(ConstView<double>(x.data(), {m, n}), View<double>(b.data(), {m, n}));
  blur.deblur(ConstView<double>(b.data(), {m, n}), View<double>(got.data(), {m, n}), 0.0);
  double err = 0;
  for (std::size_t i = 0; i < x.size(); ++i) err = std::max(err, std::fabs(got[i] - x[i]));
  EXPECT_LT(err, 1e-12);
  // Tikhonov: (A^T A + alpha I) x = A^T b, with A (symmetric) applied directly.
  for (double alpha : {1e-3, 0.1}) {
    for (auto& v : b) v = U(rng);
    blur.deblur(ConstView<double>(b.data(), {m, n}), View<double>(got.data(), {m, n}), alpha);
    const std::vector<LD> xs(got.begin(), got.end()), bs(b.begin(), b.end());
    const std::vector<LD> lhs = convolve(convolve(xs, m, n, p), m, n, p);
    const std::vector<LD> rhs = convolve(bs, m, n, p);
    std::vector<LD> r(m * n);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = lhs[i] + LD(alpha) * xs[i] - rhs[i];
    EXPECT_LE(double(norm(r)), 1e-13 * double(norm(rhs))) << "alpha " << alpha;
  }
}

TEST(ReflectiveBlur, ErrorsNameTheProblem) {
  Psf even;
  even.rows = 2;
  even.cols = 3;
  even.weights.assign(6, 1.0);
  expect_error([&] { ReflectiveBlur({8, 8}, even); }, "both sides must be odd");
  Psf lopsided = random_symmetric_psf(3, 3, 1);
  lopsided.weights[0] += 1;
  expect_error([&] { ReflectiveBlur({8, 8}, lopsided); }, "not symmetric about its centre");
  expect_error([&] { ReflectiveBlur({2, 8}, gaussian_psf(1.0)); }, "half-size must be below");
  expect_error([&] { ReflectiveBlur({2, 3, 4}, gaussian_psf(0.5)); }, "images are 2D");
  Psf ends;  // [0.5 0 0.5]: eigenvalues cos(pi l / n) vanish at l = n / 2
  ends.rows = 1;
  ends.cols = 3;
  ends.weights = {0.5, 0.0, 0.5};
  const ReflectiveBlur singular({4, 8}, ends);
  std::vector<double> b(32, 1.0), x(32);
  expect_error(
      [&] {
        singular.deblur(ConstView<double>(b.data(), {4, 8}), View<double>(x.data(), {4, 8}), 0.0);
      },
      "the blur is singular");
  expect_error(
      [&] {
        singular.deblur(ConstView<double>(b.data(), {4, 8}), View<double>(x.data(), {4, 8}), -1.0);
      },
      "alpha must be finite and >= 0");
  std::vector<float> f(32);
  expect_error(
      [&] {
        singular.blur(ConstView<float>(f.data(), {4, 8}), View<float>(f.data(), {4, 8}));
      },
      "the image is float32 but the blur was made for float64");
  expect_error([] { gaussian_psf(0.0); }, "sigma must be finite and > 0");
  expect_error([] { parse_psf("box:3"); }, "expected gaussian:SIGMA");
  expect_error([] { parse_psf("gaussian:x"); }, "invalid PSF 'gaussian:x'");
  expect_error([] { parse_psf("gaussian:1:-2"); }, "invalid PSF");
  EXPECT_EQ(parse_psf("gaussian:1.5:4").rows, 9u);
}

}  // namespace
}  // namespace dctx
