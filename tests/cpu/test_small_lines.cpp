// SPDX-License-Identifier: BSD-3-Clause
// Short lines (src/cpu/small_lines-inl.h: one transformed axis of at most 16 points, one
// matrix-vector product per line): every kind, type, length, norm, direction and precision
// against the long-double oracle and the row-column plan; batches along every axis with strided,
// negative-stride and in-place views; a line with inf, NaN or huge inputs takes the row-column
// plan of one line; fused thresholding; large batches with several threads keep the driver.
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

class SmallLines : public test::PerTarget {};

template <class T>
PlanDesc line_desc(const Shape& s, int axis, AxisTransform t, Norm norm, Direction dir) {
  PlanDesc d;
  d.shape = s;
  d.axes = {axis};
  d.transforms = {t};
  d.norm = norm;
  d.direction = dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  return d;
}

std::vector<AxisTransform> all_transforms() {
  std::vector<AxisTransform> all;
  for (Kind k : {Kind::DCT, Kind::DST})
    for (int t = 1; t <= 4; ++t) all.push_back({k, t});
  all.push_back({Kind::DXST, 2});
  all.push_back({Kind::DXST, 3});
  all.push_back({Kind::RDFT, 2});
  all.push_back({Kind::RDFT, 3});
  return all;
}

template <class T>
void check_line(std::size_t n, AxisTransform t, Norm norm, Direction dir) {
  const auto x = oracle::random_vector<T>(n, static_cast<unsigned>(31 * n + t.type));
  PlanDesc d = line_desc<T>({n}, 0, t, norm, dir);
  const Plan p(d);
  ASSERT_NE(p.describe().find("short lines"), std::string::npos) << p.describe();
  d.cpu.algorithm = Algorithm2D::RowColumn;
  const Plan rc(d);
  std::vector<T> a(n, std::numeric_limits<T>::quiet_NaN()), b = a;
  p.execute(ConstView<T>(x.data(), {n}), View<T>(a.data(), {n}));
  rc.execute(ConstView<T>(x.data(), {n}), View<T>(b.data(), {n}));
  const auto want = oracle::reference(t.kind, t.type, norm, norm == Norm::Ortho, dir,
                                      std::vector<LD>(x.begin(), x.end()));
  const std::string what = std::to_string(n) + " " + std::string(to_string(t.kind)) +
                           std::to_string(t.type) + " " + std::string(to_string(norm)) + " " +
                           std::string(to_string(dir));
  EXPECT_LE(oracle::rel_l2(a, want), oracle::tolerance<T>(n)) << what;
  EXPECT_LE(oracle::rel_l2(b, want), oracle::tolerance<T>(n)) << what;
}

TEST_P(SmallLines, EveryTransformLengthNormAndDirection) {
  for (std::size_t n = 1; n <= 16; ++n)
    for (AxisTransform t : all_transforms())
      for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
        for (Direction dir : {Direction::Forward, Direction::Inverse}) {
          if (t.kind == Kind::DCT && t.type == 1 && n < 2) continue;  // DCT-I needs 2 points
          check_line<double>(n, t, norm, dir);
          check_line<float>(n, t, norm, dir);
        }
  // Past 16 points the driver runs.
  EXPECT_EQ(Plan(line_desc<float>({17}, 0, {Kind::DCT, 2}, Norm::Ortho, Direction::Forward))
                .describe()
                .find("short lines"),
            std::string::npos);
}

// Batches along each axis of a 3D array: strided input, reversed output, in place.
template <class T>
void check_batches() {
  const Shape s{3, 13, 6};
  const std::size_t n = 3 * 13 * 6;
  const auto x = oracle::random_vector<T>(n, 5);
  for (int axis = 0; axis < 3; ++axis) {
    PlanDesc d = line_desc<T>(s, axis, {Kind::DST, 3}, Norm::Ortho, Direction::Forward);
    const Plan p(d);
    ASSERT_NE(p.describe().find("short lines"), std::string::npos) << p.describe();
    std::vector<T> ref(n, std::numeric_limits<T>::quiet_NaN());
    p.execute(ConstView<T>(x.data(), s), View<T>(ref.data(), s));
    const auto want = oracle::reference_nd(s, {axis}, {{Kind::DST, 3}}, Norm::Ortho, true,
                                           Direction::Forward, std::vector<LD>(x.begin(), x.end()));
    EXPECT_LE(oracle::rel_l2(ref, want), oracle::tolerance<T>(s[std::size_t(axis)])) << axis;
    std::vector<T> big(2 * n, T(-3)), out(n, std::numeric_limits<T>::quiet_NaN());
    for (std::size_t k = 0; k < n; ++k) big[2 * k] = x[k];
    p.execute(ConstView<T>(big.data(), s, {156, 12, 2}),
              View<T>(out.data() + n - 1, s, {-78, -6, -1}));
    for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(out[n - 1 - k], ref[k]) << axis << " " << k;
    std::vector<T> inplace = x;
    p.execute(View<T>(inplace.data(), s));
    EXPECT_EQ(inplace, ref) << axis;
  }
}

TEST_P(SmallLines, BatchesAlongEveryAxisAndLayout) {
  check_batches<double>();
  check_batches<float>();
}

// A line holding inf, NaN or a huge value gives what the row-column plan of that one line
// gives; the other lines keep exactly their values without it.
template <class T>
void check_extremes() {
  const Shape s{4, 9};
  for (T bad : {std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN(),
                std::numeric_limits<T>::max(), -std::numeric_limits<T>::max()}) {
    const auto tame = oracle::random_vector<T>(36, 7);
    auto x = tame;
    x[22] = bad;  // line 2
    const Plan p(line_desc<T>(s, 1, {Kind::DCT, 2}, Norm::Backward, Direction::Forward));
    PlanDesc one = line_desc<T>({9}, 0, {Kind::DCT, 2}, Norm::Backward, Direction::Forward);
    one.cpu.algorithm = Algorithm2D::RowColumn;
    const Plan line(one);
    std::vector<T> a(36), b(36), c(9);
    p.execute(ConstView<T>(x.data(), s), View<T>(a.data(), s));
    p.execute(ConstView<T>(tame.data(), s), View<T>(b.data(), s));
    line.execute(ConstView<T>(x.data() + 18, {9}), View<T>(c.data(), {9}));
    for (std::size_t k = 0; k < 36; ++k) {
      const T want = k / 9 == 2 ? c[k - 18] : b[k];
      EXPECT_TRUE(a[k] == want || (std::isnan(a[k]) && std::isnan(want)))
          << k << " " << bad << ": " << a[k] << " vs " << want;
    }
  }
}

TEST_P(SmallLines, NonFiniteAndHugeLinesTakeTheRowColumnPlan) {
  check_extremes<double>();
  check_extremes<float>();
}

// Every length and both precisions: the fused threshold and a separate pass give the same bits
// (each length has its own product function; lanes past one register split it into parts).
template <class T>
void check_fused_threshold(std::size_t n) {
  const Shape s{50, n};
  const auto x = oracle::random_vector<T>(50 * n, 11 + n);
  const T eps = T(0.3);
  for (Direction dir : {Direction::Forward, Direction::Inverse}) {
    PlanDesc d = line_desc<T>(s, 1, {Kind::DCT, 2}, Norm::Ortho, dir);
    const Plan plain(d);
    d.coefficient_threshold = eps;
    const Plan fused(d);
    ASSERT_NE(fused.describe().find("short lines"), std::string::npos);
    std::vector<T> in = x, want(50 * n), got(50 * n);
    if (dir == Direction::Inverse)
      for (T& v : in) v = std::fabs(v) < eps ? T(0) : v;
    plain.execute(ConstView<T>(in.data(), s), View<T>(want.data(), s));
    if (dir == Direction::Forward)
      for (T& v : want) v = std::fabs(v) < eps ? T(0) : v;
    fused.execute(ConstView<T>(x.data(), s), View<T>(got.data(), s));
    EXPECT_EQ(got, want) << to_string(dir) << " n " << n << " " << sizeof(T);
  }
}

TEST_P(SmallLines, FusedThresholdEqualsASeparatePass) {
  for (std::size_t n = 1; n <= 16; ++n) {
    check_fused_threshold<float>(n);
    check_fused_threshold<double>(n);
  }
}

TEST_P(SmallLines, LargeBatchesWithThreadsKeepTheDriver) {
  PlanDesc d = line_desc<float>({20000, 8}, 1, {Kind::DCT, 2}, Norm::Ortho, Direction::Forward);
  d.cpu.threads = 2;
  EXPECT_EQ(Plan(d).describe().find("short lines"), std::string::npos);
  d.cpu.threads = 1;
  EXPECT_NE(Plan(d).describe().find("short lines"), std::string::npos);
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(SmallLines);

}  // namespace
}  // namespace dctx
