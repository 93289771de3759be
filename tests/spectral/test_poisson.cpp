// SPDX-License-Identifier: BSD-3-Clause
// The spectral Poisson solver against an independent reference: the finite-difference operator
// applied with explicit ghost values in long double. Every boundary pair on both grids, in 1D
// (eigenpairs), 2D and 3D (manufactured discrete solutions: residual of random solutions, error
// of smooth ones), periodic axes among them, the pure-Neumann compatibility rule, second-order
// convergence to analytic solutions, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "dctx/poisson.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

using testing_support::expect_error;
using LD = long double;
constexpr LD kPi = 3.141592653589793238462643383279502884L;
// Bounds of the form c eps log2(N), c defined once: the residual of any solution, and the
// error of a smooth one (its coefficients sit where the operator is well conditioned). The worst
// cases measured here need 0.30 and 0.18.
constexpr double kResidualC = 1, kSmoothC = 1;

const Boundary kSides[] = {Boundary::Neumann, Boundary::Dirichlet};
const Grid kGrids[] = {Grid::CellCentred, Grid::VertexCentred};

std::size_t total(const Shape& s) {
  std::size_t t = 1;
  for (auto e : s) t *= e;
  return t;
}

// Value of a line at storage index m, including the ghost values of the two sides.
LD at(const std::vector<LD>& u, long m, Boundary lo, Boundary hi, Grid g) {
  const long n = long(u.size());
  if (m >= 0 && m < n) return u[std::size_t(m)];
  if (lo == Boundary::Periodic) return u[std::size_t((m + n) % n)];
  const bool cell = g == Grid::CellCentred;
  if (m < 0) {
    if (cell) return lo == Boundary::Neumann ? u[0] : -u[0];
    return lo == Boundary::Neumann ? at(u, 1, lo, hi, g) : 0;
  }
  if (cell) return hi == Boundary::Neumann ? u[std::size_t(n - 1)] : -u[std::size_t(n - 1)];
  return hi == Boundary::Neumann ? at(u, n - 2, lo, hi, g) : 0;
}

// (nabla^2 - lambda) u with the stencil (u[j-1] - 2u[j] + u[j+1]) / h^2 per axis, C order.
std::vector<LD> laplacian(const std::vector<LD>& u, const PoissonDesc& d) {
  const std::size_t r = d.shape.size(), n = total(d.shape);
  std::vector<LD> f(n);
  for (std::size_t i = 0; i < n; ++i) f[i] = -LD(d.screening) * u[i];
  std::size_t stride = n;
  for (std::size_t a = 0; a < r; ++a) {
    const std::size_t len = d.shape[a];
    stride /= len;
    const LD h2 = LD(d.axes[a].spacing) * d.axes[a].spacing;
    for (std::size_t i = 0; i < n; ++i) {
      if ((i / stride) % len != 0) continue;  // i starts a line along axis a
      std::vector<LD> line(len);
      for (std::size_t j = 0; j < len; ++j) line[j] = u[i + j * stride];
      for (std::size_t j = 0; j < len; ++j) {
        const long m = long(j);
        const LD lap = at(line, m - 1, d.axes[a].lower, d.axes[a].upper, d.grid) - 2 * line[j] +
                       at(line, m + 1, d.axes[a].lower, d.axes[a].upper, d.grid);
        f[i + j * stride] += lap / h2;
      }
    }
  }
  return f;
}

LD norm(const std::vector<LD>& v) {
  LD s = 0;
  for (LD x : v) s += x * x;
  return std::sqrt(s);
}

template <class T>
std::vector<LD> solve(PoissonDesc d, const std::vector<LD>& f) {
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  std::vector<T> in(f.begin(), f.end()), out(f.size(), std::numeric_limits<T>::quiet_NaN());
  PoissonSolver(d).solve(ConstView<T>(in.data(), d.shape), View<T>(out.data(), d.shape));
  return std::vector<LD>(out.begin(), out.end());
}

PoissonDesc desc_for(const Shape& shape, Grid g, unsigned seed, double screening = 0) {
  PoissonDesc d;
  d.shape = shape;
  d.grid = g;
  d.screening = screening;
  d.neumann_mean = NeumannMean::Project;
  std::mt19937 rng(seed);
  for (std::size_t a = 0; a < shape.size(); ++a) {
    PoissonAxis ax;
    ax.lower = kSides[rng() % 2];
    ax.upper = kSides[rng() % 2];
    if (rng() % 4 == 0) ax.lower = ax.upper = Boundary::Periodic;
    ax.spacing = 0.5 + 0.25 * double(rng() % 4);
    if (g == Grid::VertexCentred && shape[a] < 2) ax.lower = ax.upper = Boundary::Dirichlet;
    d.axes.push_back(ax);
  }
  return d;
}

// 1D: the inverse transform's columns are eigenvectors of the operator, with the eigenvalues
// poisson_eigenvalues lists, for every pair of sides on both grids.
TEST(Poisson, EigenpairsOfEveryBoundaryPair) {
  for (Grid g : kGrids)
    for (Boundary lo : kSides)
      for (Boundary hi : kSides)
        for (std::size_t n : {2u, 7u, 16u}) {
          PoissonDesc d;
          d.shape = {n};
          d.grid = g;
          d.axes = {PoissonAxis{lo, hi, 0.7}};
          const AxisTransform t = poisson_transform(lo, hi, g);
          SCOPED_TRACE(std::string(to_string(t.kind)) + "-" + std::to_string(t.type) + " n " +
                       std::to_string(n));
          const std::vector<double> ev = poisson_eigenvalues(d.axes[0], n, g);
          PlanDesc p;
          p.shape = {n};
          p.transforms = {t};
          p.direction = Direction::Inverse;
          p.orthogonalize = false;
          const Plan inverse(p);
          for (std::size_t k = 0; k < n; ++k) {
            std::vector<double> e(n, 0.0), v(n);
            e[k] = 1;
            inverse.execute(ConstView<double>(e.data(), {n}), View<double>(v.data(), {n}));
            const std::vector<LD> col(v.begin(), v.end());
            const std::vector<LD> lv = laplacian(col, d);
            LD err = 0;
            for (std::size_t j = 0; j < n; ++j)
              err = std::max(err, std::fabs(lv[j] + ev[k] * col[j]));
            EXPECT_LE(double(err), 1e-12 * (1 + ev[k]) * double(norm(col))) << "mode " << k;
          }
        }
}

// A periodic axis: cos and sin of frequency k are eigenvectors with the eigenvalue that
// poisson_eigenvalues lists at k and at n - k, and the solver maps (-ev - lambda) times either
// back to it.
TEST(Poisson, PeriodicEigenpairs) {
  for (Grid g : kGrids)
    for (std::size_t n : {1u, 2u, 7u, 16u}) {
      PoissonDesc d;
      d.shape = {n};
      d.grid = g;
      d.axes = {PoissonAxis{Boundary::Periodic, Boundary::Periodic, 0.7}};
      d.screening = 1;
      const std::vector<double> ev = poisson_eigenvalues(d.axes[0], n, g);
      for (std::size_t k = 0; k < n; ++k) {
        SCOPED_TRACE("n " + std::to_string(n) + " mode " + std::to_string(k));
        EXPECT_EQ(ev[k], ev[(n - k) % n]);
        for (int phase = 0; phase < 2; ++phase) {
          std::vector<LD> mode(n);
          for (std::size_t j = 0; j < n; ++j)
            mode[j] = std::cos(2 * kPi * LD(k * j) / LD(n) - phase * kPi / 2);
          std::vector<LD> lv = laplacian(mode, d), f(n);
          LD err = 0;
          for (std::size_t j = 0; j < n; ++j) {
            err = std::max(err, std::fabs(lv[j] + (ev[k] + 1) * mode[j]));
            f[j] = -(LD(ev[k]) + 1) * mode[j];
          }
          EXPECT_LE(double(err), 1e-12 * (1 + ev[k]));
          const std::vector<LD> u = solve<double>(d, f);
          for (std::size_t j = 0; j < n; ++j) EXPECT_NEAR(double(u[j]), double(mode[j]), 1e-14);
        }
      }
    }
}

// Random solutions in 2D and 3D with random sides per axis (and screening): the computed u
// reproduces f to rounding (residual), in both precisions.
template <class T>
void CheckResiduals() {
  const double eps = std::numeric_limits<T>::epsilon();
  unsigned seed = 1;
  for (Grid g : kGrids)
    for (const Shape& s : {Shape{12, 17}, Shape{9, 8, 10}, Shape{1, 33}})
      for (double screening : {0.0, 2.5})
        for (int rep = 0; rep < 6; ++rep) {
          const PoissonDesc d = desc_for(s, g, seed++, screening);
          std::mt19937 rng(seed);
          std::uniform_real_distribution<double> U(-1, 1);
          std::vector<LD> u(total(s));
          for (auto& x : u) x = U(rng);
          const std::vector<LD> f = laplacian(u, d);
          const std::vector<LD> got = solve<T>(d, f);
          std::vector<LD> r = laplacian(got, d);
          for (std::size_t i = 0; i < r.size(); ++i) r[i] -= f[i];
          const double bound = kResidualC * eps * std::log2(double(total(s))) * double(norm(f));
          EXPECT_LE(double(norm(r)), bound) << "seed " << seed;
        }
}
TEST(Poisson, ResidualOfRandomSolutionsFloat64) { CheckResiduals<double>(); }
TEST(Poisson, ResidualOfRandomSolutionsFloat32) { CheckResiduals<float>(); }

// Smooth discrete solutions (a few low eigenmodes): the error itself is at rounding level.
template <class T>
void CheckSmoothSolutions() {
  const double eps = std::numeric_limits<T>::epsilon();
  unsigned seed = 100;
  for (Grid g : kGrids)
    for (const Shape& s : {Shape{32, 24}, Shape{16, 12, 20}}) {
      const PoissonDesc d = desc_for(s, g, seed++, 0.0);
      // u = product over axes of the sum of that axis's three lowest modes (inverse columns).
      std::vector<std::vector<LD>> modes;
      std::mt19937 rng(seed);
      std::uniform_real_distribution<double> U(0.5, 1);
      for (std::size_t a = 0; a < s.size(); ++a) {
        const AxisTransform t = poisson_transform(d.axes[a].lower, d.axes[a].upper, g);
        const bool periodic = d.axes[a].lower == Boundary::Periodic;
        const bool neumann = periodic || (d.axes[a].lower == Boundary::Neumann &&
                                          d.axes[a].upper == Boundary::Neumann);
        std::vector<LD> m(s[a], 0);
        for (std::size_t k = neumann ? 1 : 0; k < (neumann ? 4u : 3u); ++k) {
          const LD c = U(rng);
          for (std::size_t j = 0; j < s[a]; ++j) {
            // The eigenvector of mode k at storage index j (the inverse transform's column).
            const LD x = LD(j), n = LD(s[a]), K = LD(k);
            LD v = 0;
            if (t.kind == Kind::DCT && t.type == 2) v = std::cos(kPi * K * (2 * x + 1) / (2 * n));
            if (t.kind == Kind::DCT && t.type == 1) v = std::cos(kPi * K * x / (n - 1));
            if (t.kind == Kind::DST && t.type == 2)
              v = std::sin(kPi * (K + 1) * (2 * x + 1) / (2 * n));
            if (t.kind == Kind::DST && t.type == 1) v = std::sin(kPi * (K + 1) * (x + 1) / (n + 1));
            if (t.type == 4)
              v = t.kind == Kind::DST ? std::sin(kPi * (2 * K + 1) * (2 * x + 1) / (4 * n))
                                      : std::cos(kPi * (2 * K + 1) * (2 * x + 1) / (4 * n));
            if (t.type == 3)
              v = t.kind == Kind::DST ? std::sin(kPi * (2 * K + 1) * (x + 1) / (2 * n))
                                      : std::cos(kPi * (2 * K + 1) * x / (2 * n));
            if (periodic) v = std::cos(2 * kPi * K * x / n + 0.4L * K);
            m[j] += c * v;
          }
        }
        modes.push_back(m);
      }
      std::vector<LD> u(total(s));
      for (std::size_t i = 0; i < u.size(); ++i) {
        std::size_t rest = i;
        LD v = 1;
        for (std::size_t a = s.size(); a-- > 0;) {
          v *= modes[a][rest % s[a]];
          rest /= s[a];
        }
        u[i] = v;
      }
      const std::vector<LD> got = solve<T>(d, laplacian(u, d));
      std::vector<LD> e(u.size());
      for (std::size_t i = 0; i < u.size(); ++i) e[i] = got[i] - u[i];
      EXPECT_LE(double(norm(e)), kSmoothC * eps * std::log2(double(u.size())) * double(norm(u)))
          << "seed " << seed;
    }
}
TEST(Poisson, SmoothSolutionsToRoundingFloat64) { CheckSmoothSolutions<double>(); }
TEST(Poisson, SmoothSolutionsToRoundingFloat32) { CheckSmoothSolutions<float>(); }

// Second order: u = sin(pi x) sin(pi y) (Dirichlet), cos(pi x) cos(pi y) (Neumann) and
// cos(2 pi x + 1) cos(2 pi y + 1) (periodic) on the unit square; the error of the discrete
// solution falls by 4 per halving of h.
TEST(Poisson, SecondOrderConvergence) {
  for (Grid g : kGrids)
    for (Boundary b : {Boundary::Neumann, Boundary::Dirichlet, Boundary::Periodic}) {
      std::vector<double> errs;
      for (std::size_t n : {16u, 32u, 64u}) {
        // Unknowns and spacing of the unit interval on each grid.
        const bool cell = g == Grid::CellCentred, neu = b == Boundary::Neumann;
        const bool per = b == Boundary::Periodic;
        const std::size_t m = cell || per ? n : (neu ? n + 1 : n - 1);
        const double h = 1.0 / double(n);
        const auto pos = [&](std::size_t j) {
          return cell ? (LD(j) + 0.5L) * h : (neu || per ? LD(j) * h : LD(j + 1) * h);
        };
        const auto exact = [&](LD x) {
          return per ? std::cos(2 * kPi * x + 1) : neu ? std::cos(kPi * x) : std::sin(kPi * x);
        };
        const LD k2 = per ? 4 * kPi * kPi : kPi * kPi;  // the squared wave number per axis
        std::vector<double> f(m * m), u(m * m);
        for (std::size_t i = 0; i < m; ++i)
          for (std::size_t j = 0; j < m; ++j)
            f[i * m + j] = double(-2 * k2 * exact(pos(i)) * exact(pos(j)));
        PoissonDesc d;
        d.grid = g;
        d.axes = {PoissonAxis{b, b, h}, PoissonAxis{b, b, h}};
        d.neumann_mean = NeumannMean::Project;  // the sampled f's mean is zero only in the limit
        poisson(ConstView<double>(f.data(), {m, m}), View<double>(u.data(), {m, m}), d);
        double err = 0;
        for (std::size_t i = 0; i < m; ++i)
          for (std::size_t j = 0; j < m; ++j)
            err = std::max(err, std::fabs(u[i * m + j] - double(exact(pos(i)) * exact(pos(j)))));
        errs.push_back(err);
      }
      SCOPED_TRACE(std::string(g == Grid::CellCentred ? "cell " : "vertex ") +
                   (b == Boundary::Neumann     ? "Neumann"
                    : b == Boundary::Dirichlet ? "Dirichlet"
                                               : "periodic"));
      for (std::size_t i = 1; i < errs.size(); ++i) {
        EXPECT_GT(errs[i - 1] / errs[i], 3.5);
        EXPECT_LT(errs[i - 1] / errs[i], 4.6);
      }
    }
}

// The pure-Neumann problem: an f of non-zero mean is refused (Error) or projected (Project);
// either way u has zero mean (the grid's weights); in place (u = f) works.
TEST(Poisson, PureNeumannCompatibility) {
  const Shape s{10, 12};
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<double> f(total(s));
  for (auto& x : f) x = U(rng);
  std::vector<double> u(f.size());
  PoissonDesc d;
  d.shape = s;
  expect_error(
      [&] { PoissonSolver(d).solve(ConstView<double>(f.data(), s), View<double>(u.data(), s)); },
      "must have zero mean");
  double mean = 0;
  for (double x : f) mean += x / double(f.size());
  std::vector<double> g = f;
  for (auto& x : g) x -= mean;
  std::vector<double> a(f.size()), b = g;
  PoissonSolver(d).solve(ConstView<double>(g.data(), s), View<double>(a.data(), s));
  d.neumann_mean = NeumannMean::Project;
  PoissonSolver(d).solve(ConstView<double>(f.data(), s), View<double>(u.data(), s));
  PoissonSolver(d).solve(View<double>(b.data(), s), View<double>(b.data(), s));  // in place
  double um = 0, diff = 0, diff_in_place = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    um += u[i];
    diff = std::max(diff, std::fabs(u[i] - a[i]));
    diff_in_place = std::max(diff_in_place, std::fabs(b[i] - a[i]));
  }
  EXPECT_LT(std::fabs(um), 1e-11);
  EXPECT_LT(diff, 1e-12);
  EXPECT_LT(diff_in_place, 1e-12);
  // Periodic axes (one of them with Neumann sides) are singular alike, with uniform weights.
  d.neumann_mean = NeumannMean::Error;
  d.grid = Grid::VertexCentred;
  d.axes = {PoissonAxis{Boundary::Periodic, Boundary::Periodic, 1.0}, PoissonAxis{}};
  expect_error(
      [&] { PoissonSolver(d).solve(ConstView<double>(f.data(), s), View<double>(u.data(), s)); },
      "every side is Neumann or periodic");
  d.neumann_mean = NeumannMean::Project;
  PoissonSolver(d).solve(ConstView<double>(f.data(), s), View<double>(u.data(), s));
  double weighted = 0;  // trapezoidal along the vertex Neumann axis 1, uniform along axis 0
  for (std::size_t i = 0; i < s[0]; ++i)
    for (std::size_t j = 0; j < s[1]; ++j)
      weighted += (j == 0 || j + 1 == s[1] ? 0.5 : 1.0) * u[i * s[1] + j];
  EXPECT_LT(std::fabs(weighted), 1e-11);
}

// The compatibility check weighs f like the forward transform's zero mode (the trapezoid on a
// vertex-centred Neumann axis, uniform on a periodic one), on strided views too, whatever the
// thread count: an f whose weighted mean is removed in long double passes, the same f moved by
// a mean far above the rounding (1e-9 of its scale) is refused.
TEST(Poisson, TheMeanCheckWeighsLikeTheZeroMode) {
  const Shape s{5, 7, 21};
  PoissonDesc d;
  d.shape = s;
  d.grid = Grid::VertexCentred;
  d.axes = {PoissonAxis{}, PoissonAxis{Boundary::Periodic, Boundary::Periodic, 1.0}, PoissonAxis{}};
  const auto w = [&](std::size_t a, std::size_t i) {
    return a == 1 || (i != 0 && i + 1 != s[a]) ? 2.0L : 1.0L;
  };
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<double> f(total(s));
  for (auto& x : f) x = U(rng);
  LD sum = 0, weights = 0;
  for (std::size_t i = 0; i < s[0]; ++i)
    for (std::size_t j = 0; j < s[1]; ++j)
      for (std::size_t k = 0; k < s[2]; ++k) {
        const LD wt = w(0, i) * w(1, j) * w(2, k);
        sum += wt * f[(i * s[1] + j) * s[2] + k];
        weights += wt;
      }
  for (auto& x : f) x = static_cast<double>(x - sum / weights);
  // A strided copy: every other element of the last axis, the rows padded.
  const std::ptrdiff_t row = 2 * static_cast<std::ptrdiff_t>(s[2]) + 3;
  const Strides st{row * static_cast<std::ptrdiff_t>(s[1]), row, 2};
  std::vector<double> strided(static_cast<std::size_t>(row) * s[0] * s[1], 1e300);
  for (std::size_t i = 0; i < s[0]; ++i)
    for (std::size_t j = 0; j < s[1]; ++j)
      for (std::size_t k = 0; k < s[2]; ++k)
        strided[static_cast<std::size_t>(i * st[0] + j * st[1] + k * st[2])] =
            f[(i * s[1] + j) * s[2] + k];
  std::vector<double> u(f.size());
  for (int threads : {1, 2}) {
    d.cpu.threads = threads;
    const PoissonSolver solver(d);
    EXPECT_NO_THROW(solver.solve(ConstView<double>(f.data(), s), View<double>(u.data(), s)));
    EXPECT_NO_THROW(
        solver.solve(ConstView<double>(strided.data(), s, st), View<double>(u.data(), s)));
    std::vector<double> moved = f, moved_strided = strided;
    for (auto& x : moved) x += 1e-9;
    for (std::size_t i = 0; i < s[0]; ++i)
      for (std::size_t j = 0; j < s[1]; ++j)
        for (std::size_t k = 0; k < s[2]; ++k)
          moved_strided[static_cast<std::size_t>(i * st[0] + j * st[1] + k * st[2])] += 1e-9;
    expect_error(
        [&] { solver.solve(ConstView<double>(moved.data(), s), View<double>(u.data(), s)); },
        "must have zero mean, but its mean is 1e-09");
    expect_error(
        [&] {
          solver.solve(ConstView<double>(moved_strided.data(), s, st), View<double>(u.data(), s));
        },
        "must have zero mean");
  }
}

// Periodic axes reorder through u: every aliasing of f and u gives the same solution (the same
// view, a partial overlap, disjoint arrays, and strided views).
TEST(Poisson, PeriodicAxesWithAliasedAndStridedViews) {
  PoissonDesc d;
  d.shape = {6, 5};
  d.axes = {PoissonAxis{Boundary::Periodic, Boundary::Periodic, 1.0},
            PoissonAxis{Boundary::Dirichlet, Boundary::Periodic, 1.0}};
  expect_error([&] { PoissonSolver{d}; }, "axis 1 is periodic on one side only");
  d.axes[1] = PoissonAxis{Boundary::Periodic, Boundary::Periodic, 0.5};
  d.screening = 0.5;
  const PoissonSolver solver(d);
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<double> f(30), want(30, std::nan(""));
  for (auto& x : f) x = U(rng);
  solver.solve(ConstView<double>(f.data(), d.shape), View<double>(want.data(), d.shape));
  {  // the residual against the operator with wrapped neighbours
    std::vector<LD> lw = laplacian(std::vector<LD>(want.begin(), want.end()), d);
    for (std::size_t i = 0; i < 30; ++i) EXPECT_NEAR(double(lw[i]), f[i], 1e-13);
  }
  std::vector<double> a = f;  // in place
  solver.solve(ConstView<double>(a.data(), d.shape), View<double>(a.data(), d.shape));
  std::vector<double> big(40, std::nan(""));  // u overlaps f, shifted by 7 elements
  std::copy(f.begin(), f.end(), big.begin());
  solver.solve(ConstView<double>(big.data(), d.shape), View<double>(big.data() + 7, d.shape));
  std::vector<double> t(60, std::nan(""));  // f transposed into a strided view, u strided
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 5; ++j) t[j * 6 + i] = f[i * 5 + j];
  std::vector<double> us(60, std::nan(""));
  solver.solve(ConstView<double>(t.data(), d.shape, {1, 6}),
               View<double>(us.data(), d.shape, {10, 2}));
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 5; ++j) {
      const double w = want[i * 5 + j];
      EXPECT_NEAR(a[i * 5 + j], w, 1e-14);
      EXPECT_NEAR(big[7 + i * 5 + j], w, 1e-14);
      EXPECT_NEAR(us[i * 10 + j * 2], w, 1e-14);
    }
  std::vector<double> wrong(30);
  expect_error(
      [&] {
        solver.solve(ConstView<double>(f.data(), {5, 6}), View<double>(wrong.data(), {5, 6}));
      },
      "f has shape (5, 6) but the solver was made for (6, 5)");
}

TEST(Poisson, ErrorsNameTheProblem) {
  std::vector<double> f(12, 1.0), u(12);
  std::vector<float> ff(12, 1.0f);
  PoissonDesc d;
  d.shape = {3, 4};
  d.neumann_mean = NeumannMean::Project;
  auto bad = d;
  bad.screening = -1;
  expect_error([&] { PoissonSolver{bad}; }, "screening must be finite and >= 0");
  bad = d;
  bad.axes = {PoissonAxis{}};
  expect_error([&] { PoissonSolver{bad}; }, "axes has 1 entries but the shape has 2 axes");
  bad = d;
  bad.axes = {PoissonAxis{}, PoissonAxis{Boundary::Neumann, Boundary::Neumann, 0.0}};
  expect_error([&] { PoissonSolver{bad}; }, "spacing of axis 1 must be finite and > 0");
  bad = d;
  bad.shape = {1, 4};
  bad.grid = Grid::VertexCentred;
  expect_error([&] { PoissonSolver{bad}; }, "at least 2 points");
  bad = d;
  bad.shape = {};
  expect_error([&] { PoissonSolver{bad}; }, "shape has no axes");
  const PoissonSolver solver(d);
  expect_error(
      [&] {
        solver.solve(ConstView<float>(ff.data(), {3, 4}), View<float>(ff.data(), {3, 4}));
      },
      "f is float32 but the solver was made for float64");
  expect_error(
      [&] {
        solver.solve(ConstView<double>(f.data(), {4, 3}), View<double>(u.data(), {4, 3}));
      },
      "shape");
}

}  // namespace
}  // namespace dctx
