// SPDX-License-Identifier: BSD-3-Clause
// The small 2D path (src/cpu/small2d-inl.h: both sides <= 16, products with transform matrices):
// every kind, type, norm and direction and mixed kinds per axis against the long-double oracle
// and the row-column plan of the same description; strided, negative-stride and in-place views;
// inf and NaN inputs take the row-column plan's answer.
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

TEST_P(Small2D, MixedKindsPerAxis) {
  check_against_oracle_and_row_column<double>({16, 12}, {Kind::DCT, 2}, {Kind::DST, 3},
                                              Norm::Backward, Direction::Forward);
  check_against_oracle_and_row_column<float>({12, 9}, {Kind::DST, 4}, {Kind::DCT, 1}, Norm::Ortho,
                                             Direction::Inverse);
}

TEST_P(Small2D, StridedNegativeAndInPlace) {
  const Shape s{8, 8};
  const auto x = oracle::random_vector<double>(64, 9);
  const Plan p(
      small_desc<double>(s, {Kind::DCT, 2}, {Kind::DCT, 2}, Norm::Ortho, Direction::Forward));
  std::vector<double> ref(64);
  p.execute(ConstView<double>(x.data(), s), View<double>(ref.data(), s));
  std::vector<double> big(64 * 3, -7.0), out(64, std::nan(""));
  for (std::size_t k = 0; k < 64; ++k) big[3 * k] = x[k];
  p.execute(ConstView<double>(big.data(), s, {24, 3}), View<double>(out.data() + 63, s, {-8, -1}));
  for (std::size_t k = 0; k < 64; ++k) EXPECT_EQ(out[63 - k], ref[k]);
  std::vector<double> inplace = x;
  p.execute(View<double>(inplace.data(), s));
  EXPECT_EQ(inplace, ref);
}

TEST_P(Small2D, NonFiniteInputsTakeTheRowColumnPlan) {
  const Shape s{8, 6};
  for (double bad : {std::numeric_limits<double>::infinity(), std::nan(""),
                     std::numeric_limits<double>::max()}) {
    auto x = oracle::random_vector<double>(48, 3);
    x[13] = bad;
    PlanDesc d =
        small_desc<double>(s, {Kind::DST, 2}, {Kind::DCT, 3}, Norm::Backward, Direction::Forward);
    const Plan small(d);
    d.cpu.algorithm = Algorithm2D::RowColumn;
    const Plan rc(d);
    std::vector<double> a(48), b(48);
    small.execute(ConstView<double>(x.data(), s), View<double>(a.data(), s));
    rc.execute(ConstView<double>(x.data(), s), View<double>(b.data(), s));
    for (std::size_t k = 0; k < 48; ++k)
      EXPECT_TRUE(a[k] == b[k] || (std::isnan(a[k]) && std::isnan(b[k]))) << k << " " << bad;
  }
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(Small2D);

}  // namespace
}  // namespace dctx
