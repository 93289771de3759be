// SPDX-License-Identifier: BSD-3-Clause
// DREAMPlace's transforms and electrostatic step (dctx/electrostatics.hpp) against a direct
// evaluation of their definitions in long double: IDCT2, IDXST_IDCT and IDCT_IDXST on random
// arrays of even, odd and degenerate sizes; the potential, both fields and the energy from the
// published algorithm written out as sums; the field as the potential's derivative; errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "dctx/electrostatics.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

using testing_support::expect_error;
using LD = long double;
constexpr LD kPi = 3.141592653589793238462643383279502884L;
// Bounds c eps log2(N) relative to the output's norm, c defined once (the worst measured: 0.54).
constexpr double kC = 1;

LD basis(bool sine, std::size_t p, std::size_t u, std::size_t m) {
  const LD a = kPi * LD(p) * LD(2 * u + 1) / LD(2 * m);
  return sine ? std::sin(a) : std::cos(a);
}

// y(u, v) = sum_p sum_q c(p, q) b0(p, u) b1(q, v), the definitions of the header.
std::vector<LD> direct(const std::vector<LD>& c, std::size_t m, std::size_t n, bool s0, bool s1) {
  std::vector<LD> y(m * n, 0);
  for (std::size_t u = 0; u < m; ++u)
    for (std::size_t v = 0; v < n; ++v) {
      LD s = 0;
      for (std::size_t p = 0; p < m; ++p)
        for (std::size_t q = 0; q < n; ++q)
          s += c[p * n + q] * basis(s0, p, u, m) * basis(s1, q, v, n);
      y[u * n + v] = s;
    }
  return y;
}

template <class T>
double rel_error(const std::vector<T>& got, const std::vector<LD>& want) {
  LD e = 0, w = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    e += (LD(got[i]) - want[i]) * (LD(got[i]) - want[i]);
    w += want[i] * want[i];
  }
  return double(std::sqrt(e / w));
}

template <class T>
void CheckTransforms() {
  const double eps = std::numeric_limits<T>::epsilon();
  unsigned seed = 1;
  for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{8, 12}, {7, 5}, {1, 9}, {16, 2}})
    for (DreamTransform t :
         {DreamTransform::IdcCt2, DreamTransform::IdxstIdct, DreamTransform::IdctIdxst}) {
      SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n) + " transform " +
                   std::to_string(int(t)));
      std::mt19937 rng(seed++);
      std::uniform_real_distribution<double> U(-1, 1);
      std::vector<T> x(m * n), y(m * n, std::numeric_limits<T>::quiet_NaN());
      for (auto& v : x) v = T(U(rng));
      dream_transform(t, ConstView<T>(x.data(), {m, n}), View<T>(y.data(), {m, n}));
      const auto want = direct(std::vector<LD>(x.begin(), x.end()), m, n,
                               t == DreamTransform::IdxstIdct, t == DreamTransform::IdctIdxst);
      if (m == 1 && t == DreamTransform::IdxstIdct) {  // sin(0) everywhere: exactly zero
        for (T v : y) EXPECT_EQ(v, T(0));
        continue;
      }
      EXPECT_LE(rel_error(y, want), kC * eps * std::log2(double(m * n) + 1));
      dream_transform(t, ConstView<T>(x.data(), {m, n}), View<T>(x.data(), {m, n}));  // in place
      EXPECT_EQ(x, y);
    }
}
TEST(DreamTransforms, MatchTheirDefinitionsFloat64) { CheckTransforms<double>(); }
TEST(DreamTransforms, MatchTheirDefinitionsFloat32) { CheckTransforms<float>(); }

// The published algorithm as sums: a = 4/(M N) sum rho' cos cos, then the three transforms.
template <class T>
void CheckElectrostatics() {
  const double eps = std::numeric_limits<T>::epsilon();
  for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{16, 12}, {9, 7}}) {
    ElectrostaticsDesc d;
    d.shape = {m, n};
    d.bin_width = 2.5;
    d.bin_height = 0.75;
    d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
    const ElectrostaticSystem sys(d);
    std::mt19937 rng{unsigned(m)};
    std::uniform_real_distribution<double> U(0, 1);
    std::vector<T> rho(m * n), psi(m * n, T(NAN)), fx(m * n, T(NAN)), fy(m * n, T(NAN)),
        fx2(m * n, T(NAN)), fy2(m * n, T(NAN));
    for (auto& v : rho) v = T(U(rng));
    const double energy = sys.solve(ConstView<T>(rho.data(), {m, n}), View<T>(psi.data(), {m, n}),
                                    View<T>(fx.data(), {m, n}), View<T>(fy.data(), {m, n}));
    const double energy2 = sys.fields(ConstView<T>(rho.data(), {m, n}), View<T>(fx2.data(), {m, n}),
                                      View<T>(fy2.data(), {m, n}));
    // The reference.
    const LD area = LD(d.bin_width) * d.bin_height;
    std::vector<LD> a(m * n, 0), cp(m * n), cx(m * n), cy(m * n);
    for (std::size_t p = 0; p < m; ++p)
      for (std::size_t q = 0; q < n; ++q) {
        LD s = 0;
        for (std::size_t x = 0; x < m; ++x)
          for (std::size_t y = 0; y < n; ++y)
            s += LD(rho[x * n + y]) / area * basis(false, p, x, m) * basis(false, q, y, n);
        a[p * n + q] = 4 * s / LD(m * n);
        const LD wu = 2 * kPi * p / m, wv = 2 * kPi * q / n;
        const LD inv = (p == 0 && q == 0) ? 0 : 1 / (wu * wu + wv * wv);
        cp[p * n + q] = a[p * n + q] * inv;
        cx[p * n + q] = a[p * n + q] * wu * inv / 2;
        cy[p * n + q] = a[p * n + q] * wv * inv / 2;
      }
    const auto want_psi = direct(cp, m, n, false, false);
    const auto want_fx = direct(cx, m, n, true, false);
    const auto want_fy = direct(cy, m, n, false, true);
    LD want_energy = 0;
    for (std::size_t i = 0; i < m * n; ++i) want_energy += want_psi[i] * LD(rho[i]) / area;
    const double bound = kC * eps * std::log2(double(m * n));
    EXPECT_LE(rel_error(psi, want_psi), bound);
    EXPECT_LE(rel_error(fx, want_fx), bound);
    EXPECT_LE(rel_error(fy, want_fy), bound);
    // fields() computes field_x on its own; solve() shares the potential's pass along v with it.
    EXPECT_LE(rel_error(fx2, want_fx), bound);
    EXPECT_EQ(fy, fy2);
    EXPECT_EQ(energy, energy2);  // both Parseval's sum, from the same weighting pass
    EXPECT_LE(std::fabs(energy - double(want_energy)), bound * std::fabs(double(want_energy)));
    EXPECT_LE(std::fabs(energy2 - double(want_energy)), bound * std::fabs(double(want_energy)));
  }
}
TEST(Electrostatics, PublishedAlgorithmFloat64) { CheckElectrostatics<double>(); }
TEST(Electrostatics, PublishedAlgorithmFloat32) { CheckElectrostatics<float>(); }

// The weighting pass splits rows into chunks across threads (each row read before field_x, which
// holds the coefficients, is overwritten): 3 threads on strided outputs, field_x column-major
// (so the scaled copy from the potential's rows into field_x's must keep each view's own
// strides), give one thread's contiguous results, and the energies agree to rounding.
TEST(Electrostatics, ThreadsAndStridesAgree) {
  const std::size_t m = 301, n = 257;  // past the pass's threshold for threads
  std::mt19937 rng{3};
  std::uniform_real_distribution<double> U(0, 1);
  std::vector<double> rho(m * n);
  for (auto& v : rho) v = U(rng);
  ElectrostaticsDesc d;
  d.shape = {m, n};
  d.cpu.threads = 1;
  std::vector<double> psi(m * n, NAN), fx(m * n, NAN), fy(m * n, NAN);
  const double e1 = ElectrostaticSystem(d).solve(
      ConstView<double>(rho.data(), {m, n}), View<double>(psi.data(), {m, n}),
      View<double>(fx.data(), {m, n}), View<double>(fy.data(), {m, n}));
  d.cpu.threads = 3;
  const ElectrostaticSystem three(d);
  const Strides wide{std::ptrdiff_t(2 * n), 2}, column_major{1, std::ptrdiff_t(m)};
  std::vector<double> psi3(2 * m * n, NAN), fx3(m * n, NAN), fy3(2 * m * n, NAN);
  const double e3 = three.solve(
      ConstView<double>(rho.data(), {m, n}), View<double>(psi3.data(), {m, n}, wide),
      View<double>(fx3.data(), {m, n}, column_major), View<double>(fy3.data(), {m, n}, wide));
  std::vector<double> gx(m * n, NAN), gy(m * n, NAN);
  const double e3f = three.fields(ConstView<double>(rho.data(), {m, n}),
                                  View<double>(gx.data(), {m, n}), View<double>(gy.data(), {m, n}));
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t k = i * n + j, w = i * 2 * n + 2 * j;
      for (const auto& [x, y] : {std::pair{psi[k], psi3[w]},
                                 {fx[k], fx3[j * m + i]},
                                 {fy[k], fy3[w]},
                                 {fx[k], gx[k]},
                                 {fy[k], gy[k]}}) {
        worst = std::max(worst, std::fabs(x - y));
        scale = std::max(scale, std::fabs(x));
      }
    }
  EXPECT_LE(worst, 1e-13 * scale);
  EXPECT_NEAR(e3, e1, 1e-12 * std::fabs(e1));
  EXPECT_NEAR(e3f, e1, 1e-12 * std::fabs(e1));
}

TEST(Electrostatics, Errors) {
  ElectrostaticsDesc d;
  d.shape = {4, 4, 4};
  expect_error([&] { ElectrostaticSystem{d}; }, "the bin grid is 2D");
  d.shape = {4, 4};
  d.bin_width = 0;
  expect_error([&] { ElectrostaticSystem{d}; }, "bin sizes must be finite and > 0");
  d.bin_width = 1;
  const ElectrostaticSystem sys(d);
  std::vector<float> f(16);
  std::vector<double> g(16), h(12);
  expect_error(
      [&] {
        sys.fields(ConstView<float>(f.data(), {4, 4}), View<float>(f.data(), {4, 4}),
                   View<float>(f.data(), {4, 4}));
      },
      "the density map is float32 but the system was made for float64");
  expect_error(
      [&] {
        sys.fields(ConstView<double>(g.data(), {4, 4}), View<double>(h.data(), {4, 3}),
                   View<double>(g.data(), {4, 4}));
      },
      "an output's shape differs");
  expect_error(
      [&] {
        dream_transform(DreamTransform(7), ConstView<double>(g.data(), {4, 4}),
                        View<double>(g.data(), {4, 4}));
      },
      "unknown transform 7");
}

// Outputs that overlap the density, each other or themselves are refused before anything is
// written (the density keeps its values); separate arrays work.
TEST(Electrostatics, OverlappingArraysAreRefused) {
  ElectrostaticsDesc d;
  d.shape = {4, 6};
  const ElectrostaticSystem sys(d);
  std::vector<double> rho(24), big(3 * 24);
  for (std::size_t i = 0; i < rho.size(); ++i) rho[i] = 0.25 + 0.01 * double(i);
  const std::vector<double> rho0 = rho;
  const ConstView<double> density(rho.data(), {4, 6});
  const auto part = [&](std::size_t k) { return View<double>(big.data() + 24 * k, {4, 6}); };
  expect_error(
      [&] {
        sys.fields(density, View<double>(rho.data(), {4, 6}), part(1));
      },
      "field_x overlaps the density map");
  expect_error(
      [&] {
        sys.solve(density, part(0), part(1), View<double>(rho.data(), {4, 6}));
      },
      "field_y overlaps the density map");
  expect_error(
      [&] {
        sys.solve(density, part(0), View<double>(big.data() + 12, {4, 6}), part(2));
      },
      "potential and field_x overlap");
  expect_error([&] { sys.fields(density, part(1), part(1)); }, "field_x and field_y overlap");
  expect_error(
      [&] {
        sys.fields(density, View<double>(big.data(), {4, 6}, {0, 1}), part(1));
      },
      "field_x's strides make its elements overlap");
  EXPECT_EQ(rho, rho0);
  EXPECT_NO_THROW(sys.solve(density, part(0), part(1), part(2)));
}

}  // namespace
}  // namespace dctx
