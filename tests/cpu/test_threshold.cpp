// SPDX-License-Identifier: BSD-3-Clause
// PlanDesc::coefficient_threshold (Algorithm 3 of "A New Acceleration Paradigm for Discrete Cosine
// Transform and Other Fourier-Related Transforms", fused): on every CPU route (row-column N-D,
// single lines, the fused 2D DCT, the small 2D products), a forward plan's outputs equal the plain
// plan's followed by a separate thresholding pass, and an inverse plan's equal a separate pass
// on its inputs followed by the plain plan, bit for bit; the caller's input is left alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cpu/targets.hpp"
#include "dctx/dctx.hpp"
#include "expect_error.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

class Threshold : public test::PerTarget {};

template <class T>
void zero_below(std::vector<T>& v, T eps) {
  for (T& x : v)
    if (std::abs(x) < eps) x = T(0);
}

// The median magnitude of `v`: about half the entries fall below it.
template <class T>
T median_magnitude(std::vector<T> v) {
  for (T& x : v) x = std::abs(x);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

template <class T>
void check(PlanDesc d, const char* route, const char* describe_has) {
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  const std::size_t n =
      std::accumulate(d.shape.begin(), d.shape.end(), std::size_t{1}, std::multiplies<>());
  const std::vector<T> x = oracle::random_vector<T>(n, static_cast<unsigned>(n + d.shape.size()));
  const ConstView<T> xin(x.data(), d.shape);
  // The coefficients the threshold applies to: a forward plan's outputs, an inverse plan's inputs
  // (here the forward transform of x, so that they look like coefficients).
  std::vector<T> coef(n);
  PlanDesc f = d;
  f.direction = Direction::Forward;
  Plan(f).execute(xin, View<T>(coef.data(), d.shape));
  const T eps = median_magnitude(coef);
  const std::vector<T>& src = d.direction == Direction::Forward ? x : coef;

  std::vector<T> want(n), got(n, std::numeric_limits<T>::quiet_NaN());
  if (d.direction == Direction::Forward) {
    Plan(d).execute(ConstView<T>(src.data(), d.shape), View<T>(want.data(), d.shape));
    zero_below(want, eps);
  } else {
    std::vector<T> kept = src;
    zero_below(kept, eps);
    Plan(d).execute(ConstView<T>(kept.data(), d.shape), View<T>(want.data(), d.shape));
  }
  PlanDesc t = d;
  t.coefficient_threshold = double(eps);
  const Plan fused(t);
  const std::vector<T> before = src;
  fused.execute(ConstView<T>(src.data(), d.shape), View<T>(got.data(), d.shape));
  EXPECT_EQ(got, want) << route << " " << fused.describe();
  EXPECT_EQ(src, before) << route << ": the input changed";
  EXPECT_NE(fused.describe().find("zeroed"), std::string::npos);
  EXPECT_NE(fused.describe().find(describe_has), std::string::npos) << fused.describe();
  if (d.direction == Direction::Forward) {
    const auto zeros = std::count(got.begin(), got.end(), T(0));
    EXPECT_GE(std::size_t(zeros), n / 2 - 1) << route;
  }
  // In place gives the same.
  std::vector<T> inplace = src;
  fused.execute(View<T>(inplace.data(), d.shape));
  EXPECT_EQ(inplace, want) << route << " in place";
}

template <class T>
void check_routes(Direction dir) {
  const auto desc = [&](Shape s, std::vector<AxisTransform> tr, Norm norm, int threads,
                        Algorithm2D alg = Algorithm2D::Auto) {
    PlanDesc d;
    d.shape = std::move(s);
    d.transforms = std::move(tr);
    d.norm = norm;
    d.direction = dir;
    d.cpu.threads = threads;
    d.cpu.algorithm = alg;
    return d;
  };
  const AxisTransform c2{Kind::DCT, 2}, s3{Kind::DST, 3}, x3{Kind::DXST, 3}, c4{Kind::DCT, 4};
  check<T>(desc({64, 48}, {c2, c2}, Norm::Ortho, 1, Algorithm2D::Fused), "fused 2D", "fused 2D");
  check<T>(desc({64, 48}, {c2, c2}, Norm::Ortho, 2, Algorithm2D::RowColumn), "row-column 2D",
           "axis 1:");
  check<T>(desc({8, 8}, {c2, c2}, Norm::Ortho, 1), "small 2D", "small 2D");
  check<T>(desc({12, 10}, {s3, x3}, Norm::Backward, 1), "small 2D, mixed", "small 2D");
  check<T>(desc({200}, {c2}, Norm::Forward, 1), "one line", "axis 0:");
  check<T>(desc({6, 10, 12}, {c2, c4, s3}, Norm::Ortho, 2), "3D", "axis 2:");
}

TEST_P(Threshold, ForwardEqualsSeparatePassFloat64) { check_routes<double>(Direction::Forward); }
TEST_P(Threshold, ForwardEqualsSeparatePassFloat32) { check_routes<float>(Direction::Forward); }
TEST_P(Threshold, InverseEqualsSeparatePassFloat64) { check_routes<double>(Direction::Inverse); }
TEST_P(Threshold, InverseEqualsSeparatePassFloat32) { check_routes<float>(Direction::Inverse); }

// Lines whose outputs overflow are computed again from the input (extremes-inl.h): an inverse
// plan's threshold applies there too.
TEST_P(Threshold, InputsNearTheTopOfTheRange) {
  for (const Shape& s : {Shape{40}, Shape{16, 24}}) {
    PlanDesc d{.shape = s,
               .precision = Precision::F32,
               .norm = Norm::Forward,  // unscaled inverse: the sums overflow
               .direction = Direction::Inverse};
    d.cpu.algorithm = Algorithm2D::RowColumn;
    std::vector<float> x = oracle::random_vector<float>(s.size() == 1 ? 40 : 16 * 24, 9);
    x[3] = 3e38f;
    x[7] = -2e38f;
    std::vector<float> kept = x, want(x.size()), got(x.size());
    zero_below(kept, 0.5f);
    Plan(d).execute(ConstView<float>(kept.data(), s), View<float>(want.data(), s));
    d.coefficient_threshold = 0.5;
    Plan(d).execute(ConstView<float>(x.data(), s), View<float>(got.data(), s));
    EXPECT_EQ(got, want);
  }
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(Threshold);

TEST(ThresholdErrors, MustBeFiniteAndNonNegative) {
  const std::pair<double, const char*> cases[] = {
      {-1.0, "got -1"},
      {-2.5e-7, "got -2.5e-07"},
      {std::numeric_limits<double>::quiet_NaN(), "got nan"},
      {std::numeric_limits<double>::infinity(), "got inf"}};
  for (const auto& [bad, printed] : cases)
    testing_support::expect_error(
        [&] { Plan(PlanDesc{.shape = {8}, .coefficient_threshold = bad}); },
        std::string("coefficient_threshold must be finite and >= 0, ") + printed);
  // 0 is off: the same plan as without it.
  EXPECT_EQ(Plan(PlanDesc{.shape = {8}, .coefficient_threshold = 0}).describe().find("zeroed"),
            std::string::npos);
}

}  // namespace
}  // namespace dctx
