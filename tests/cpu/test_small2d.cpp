// SPDX-License-Identifier: BSD-3-Clause
// The small 2D path (src/cpu/small2d-inl.h: both sides <= 16, products with transform matrices;
// the square codelets of square_codelet-inl.h at 8x8 and 16x16): every kind, type, norm and
// direction and mixed kinds per axis against the long-double oracle and the row-column plan of
// the same description; strided, negative-stride and in-place views give the same values; inf,
// NaN and overflowing inputs take the row-column plan's answer.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "cpu/targets.hpp"
#include "dctx/dctx.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using oracle::LD;

class Small2D : public test::PerTarget {};

template <class T>
PlanDesc small_desc(const Shape& s, AxisTransform t0, AxisTransform t1, Norm norm, Direction dir) {
  PlanDesc d;
  d.shape = s;
  d.transforms = {t0, t1};
  d.norm = norm;
  d.direction = dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  return d;
}

template <class T>
void check_against_oracle_and_row_column(const Shape& s, AxisTransform t0, AxisTransform t1,
                                         Norm norm, Direction dir) {
  const std::size_t n = s[0] * s[1];
  const auto x = oracle::random_vector<T>(n, static_cast<unsigned>(n * 7 + t0.type));
  PlanDesc d = small_desc<T>(s, t0, t1, norm, dir);
  const Plan small(d);
  ASSERT_NE(small.describe().find("small 2D"), std::string::npos) << small.describe();
  d.cpu.algorithm = Algorithm2D::RowColumn;
  const Plan rc(d);
  std::vector<T> a(n, std::numeric_limits<T>::quiet_NaN()), b = a;
  small.execute(ConstView<T>(x.data(), s), View<T>(a.data(), s));
  rc.execute(ConstView<T>(x.data(), s), View<T>(b.data(), s));
  const auto want =
      oracle::reference_nd(s, {0, 1}, small.desc().transforms, norm, norm == Norm::Ortho, dir,
                           std::vector<LD>(x.begin(), x.end()));
  const double tol = oracle::tolerance<T>(std::max(s[0], s[1])) * std::sqrt(2.0);
  const std::string what = std::to_string(s[0]) + "x" + std::to_string(s[1]) + " " +
                           std::string(to_string(t0.kind)) + std::to_string(t0.type) + "/" +
                           std::string(to_string(t1.kind)) + std::to_string(t1.type) + " " +
                           std::string(to_string(norm)) + " " + std::string(to_string(dir));
  EXPECT_LE(oracle::rel_l2(a, want), tol) << what;
  EXPECT_LE(oracle::rel_l2(b, want), tol) << what;
  // Finite random inputs stay on the codelet where there is one (it must not decline them).
  EXPECT_EQ(small.describe().find("declined"), std::string::npos) << what << small.describe();
}

TEST_P(Small2D, EveryTypeNormAndDirection) {
  for (const Shape& s : {Shape{8, 8}, Shape{1, 16}, Shape{16, 3}, Shape{5, 7}, Shape{2, 2}})
    for (Kind k : {Kind::DCT, Kind::DST})
      for (int t = 1; t <= 4; ++t)
        for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
          for (Direction dir : {Direction::Forward, Direction::Inverse}) {
            if (t == 1 && k == Kind::DCT && (s[0] < 2 || s[1] < 2)) continue;  // DCT-I needs 2
            check_against_oracle_and_row_column<double>(s, {k, t}, {k, t}, norm, dir);
            if (s[0] * s[1] <= 144)
              check_against_oracle_and_row_column<float>(s, {k, t}, {k, t}, norm, dir);
          }
}

// The square codelets (src/cpu/square_codelet-inl.h), on AVX2 and better: 8x8 and 16x16 in
// both precisions (rows of one, two or four vectors per target and precision); folded (types I-III)
// and unfolded (type IV, DXST, RDFT) matrices.
TEST_P(Small2D, SquareCodeletsEveryTransform) {
  const bool codelets = target() <= HWY_AVX2;
  std::vector<AxisTransform> all;
  for (Kind k : {Kind::DCT, Kind::DST})
    for (int t = 1; t <= 4; ++t) all.push_back({k, t});
  all.push_back({Kind::DXST, 2});
  all.push_back({Kind::DXST, 3});
  all.push_back({Kind::RDFT, 2});
  all.push_back({Kind::RDFT, 3});
  for (std::size_t n : {8, 16})
    for (AxisTransform t : all)
      for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
        for (Direction dir : {Direction::Forward, Direction::Inverse}) {
          const Shape s{n, n};
          check_against_oracle_and_row_column<double>(s, t, t, norm, dir);
          if (n == 8 || codelets) check_against_oracle_and_row_column<float>(s, t, t, norm, dir);
        }
  // Mixed: a folded axis with an unfolded one, and the two folds.
  for (std::size_t n : {8, 16}) {
    if (n == 8 || codelets) {
      check_against_oracle_and_row_column<float>({n, n}, {Kind::DCT, 2}, {Kind::DST, 4},
                                                 Norm::Ortho, Direction::Forward);
      check_against_oracle_and_row_column<float>({n, n}, {Kind::DXST, 3}, {Kind::DCT, 3},
                                                 Norm::Backward, Direction::Forward);
      // Twice folds (DCT-II, DCT-III) with each other and with a single fold (DST-II).
      check_against_oracle_and_row_column<float>({n, n}, {Kind::DCT, 2}, {Kind::DCT, 3},
                                                 Norm::Ortho, Direction::Forward);
      check_against_oracle_and_row_column<float>({n, n}, {Kind::DCT, 3}, {Kind::DCT, 2},
                                                 Norm::Backward, Direction::Inverse);
      check_against_oracle_and_row_column<float>({n, n}, {Kind::DCT, 2}, {Kind::DST, 2},
                                                 Norm::Ortho, Direction::Forward);
    }
    check_against_oracle_and_row_column<double>({n, n}, {Kind::DST, 3}, {Kind::DCT, 2},
                                                Norm::Forward, Direction::Inverse);
  }
  // describe() names the codelet exactly where it runs.
  for (auto [n, p] : {std::pair{8, Precision::F32}, std::pair{8, Precision::F64},
                      std::pair{16, Precision::F32}, std::pair{16, Precision::F64}}) {
    PlanDesc d;
    d.shape = {std::size_t(n), std::size_t(n)};
    d.precision = p;
    const std::string text = Plan(d).describe();
    const bool want = codelets;
    EXPECT_EQ(
        text.find(std::to_string(n) + "x" + std::to_string(n) + " codelet") != std::string::npos,
        want)
        << text;
    // A DCT-II folds twice on both axes (the checks above then run the twice folds).
    EXPECT_EQ(
        text.find("folds: mirrored inputs (twice), mirrored inputs (twice)") != std::string::npos,
        want)
        << text;
    // float32 8x8 DCT-II/III blocks run on 512-bit line pairs where the target has them
    // (square8_pairs-inl.h), so the checks above ran that codelet there.
    EXPECT_EQ(text.find("in 512-bit line pairs") != std::string::npos,
              target() <= HWY_AVX3 && n == 8 && p == Precision::F32)
        << text;
  }
}

TEST_P(Small2D, MixedKindsPerAxis) {
  check_against_oracle_and_row_column<double>({16, 12}, {Kind::DCT, 2}, {Kind::DST, 3},
                                              Norm::Backward, Direction::Forward);
  check_against_oracle_and_row_column<float>({12, 9}, {Kind::DST, 4}, {Kind::DCT, 1}, Norm::Ortho,
                                             Direction::Inverse);
}

template <class T>
void check_layouts(std::size_t n) {
  const Shape s{n, n};
  const std::size_t nn = n * n;
  const auto x = oracle::random_vector<T>(nn, 9);
  const Plan p(small_desc<T>(s, {Kind::DCT, 2}, {Kind::DCT, 2}, Norm::Ortho, Direction::Forward));
  std::vector<T> ref(nn);
  p.execute(ConstView<T>(x.data(), s), View<T>(ref.data(), s));
  // Every third element of a larger array in, reversed rows and columns out: the same values.
  std::vector<T> big(nn * 3, T(-7)), out(nn, std::numeric_limits<T>::quiet_NaN());
  for (std::size_t k = 0; k < nn; ++k) big[3 * k] = x[k];
  const auto in = static_cast<std::ptrdiff_t>(n);
  p.execute(ConstView<T>(big.data(), s, {3 * in, 3}), View<T>(out.data() + nn - 1, s, {-in, -1}));
  for (std::size_t k = 0; k < nn; ++k) EXPECT_EQ(out[nn - 1 - k], ref[k]) << n << " " << k;
  std::vector<T> inplace = x;
  p.execute(View<T>(inplace.data(), s));
  EXPECT_EQ(inplace, ref);
}

TEST_P(Small2D, StridedNegativeAndInPlace) {
  check_layouts<double>(8);
  check_layouts<float>(8);
  check_layouts<float>(16);
  check_layouts<double>(16);
}

// inf and NaN inputs give the row-column plan's outputs. With `huge`, also the largest finite
// values: where the row-column plan overflows on the way (float32 FFT sums) or rounds otherwise,
// the small path's finite output must be the exact one (the long-double oracle's).
template <class T>
void check_non_finite_inputs(const Shape& s, bool huge) {
  const std::size_t n = s[0] * s[1];
  std::vector<T> bads = {std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN()};
  if (huge)
    bads.insert(bads.end(), {std::numeric_limits<T>::max(), -std::numeric_limits<T>::max()});
  for (T bad : bads) {
    auto x = oracle::random_vector<T>(n, 3);
    x[13] = bad;
    PlanDesc d =
        small_desc<T>(s, {Kind::DST, 2}, {Kind::DCT, 3}, Norm::Backward, Direction::Forward);
    const Plan small(d);
    d.cpu.algorithm = Algorithm2D::RowColumn;
    const Plan rc(d);
    std::vector<T> a(n), b(n);
    small.execute(ConstView<T>(x.data(), s), View<T>(a.data(), s));
    rc.execute(ConstView<T>(x.data(), s), View<T>(b.data(), s));
    // A codelet declines every block whose sums it cannot finish (inf, NaN, overflow).
    if (small.describe().find(" codelet,") != std::string::npos) {
      EXPECT_NE(small.describe().find("declined"), std::string::npos) << small.describe();
    }
    const auto want =
        oracle::reference_nd(s, {0, 1}, small.desc().transforms, Norm::Backward, false,
                             Direction::Forward, std::vector<LD>(x.begin(), x.end()));
    const LD tol = LD(oracle::tolerance<T>(s[0] * s[1])) * std::numeric_limits<T>::max();
    for (std::size_t k = 0; k < n; ++k) {
      const std::string what = std::to_string(s[0]) + "x" + std::to_string(s[1]) + " " +
                               std::to_string(k) + " " + std::to_string(bad) + ": " +
                               std::to_string(a[k]) + " vs " + std::to_string(b[k]);
      if (a[k] == b[k] || (std::isnan(a[k]) && std::isnan(b[k]))) continue;
      // They differ only for huge finite inputs, by rounding or by the row-column overflow.
      ASSERT_TRUE(std::isfinite(bad) && std::isfinite(a[k])) << what;
      EXPECT_LE(std::fabs(LD(a[k]) - want[k]), tol) << what;
    }
  }
}

TEST_P(Small2D, NonFiniteInputsTakeTheRowColumnPlan) {
  const bool codelets = target() <= HWY_AVX2;
  check_non_finite_inputs<double>({8, 6}, true);
  check_non_finite_inputs<double>({8, 8}, true);  // the codelets, which check their inputs
  check_non_finite_inputs<float>({8, 8}, codelets);
  check_non_finite_inputs<float>({16, 16}, codelets);
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(Small2D);

}  // namespace
}  // namespace dctx
