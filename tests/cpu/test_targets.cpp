// SPDX-License-Identifier: BSD-3-Clause
// The per-target fixture itself (dispatch follows the forced target), single long lines (the
// six-step FFT inside one sequence, on targets with >= 4 lanes), and agreement between targets.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <hwy/targets.h>

#include "cpu/targets.hpp"
#include "dctx/dctx.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

class Targets : public test::PerTarget {};

TEST_P(Targets, DispatchFollowsTheForcedTarget) {
  const std::string name = hwy::TargetName(target());
  EXPECT_EQ(detail::cpu_target_name(), name);
  Plan p(PlanDesc{.shape = {12, 5}, .axes = {0}, .precision = Precision::F32});
  EXPECT_NE(p.describe().find(name), std::string::npos) << p.describe();
}

// Every output of a single long line, float32 and float64, against the oracle (computed once per
// transform).
TEST_P(Targets, SingleLongLines) {
  for (int type : {2, 3, 4})
    for (std::size_t n : {1024, 2048}) {
      const auto x = oracle::random_vector<double>(n, static_cast<unsigned>(n + type));
      const auto want =
          oracle::reference_nd({n}, {0}, {{Kind::DCT, type}}, Norm::Ortho, true, Direction::Forward,
                               std::vector<oracle::LD>(x.begin(), x.end()));
      const std::vector<float> xf(x.begin(), x.end());
      Plan pf(
          PlanDesc{.shape = {n}, .type = type, .precision = Precision::F32, .norm = Norm::Ortho});
      std::vector<float> yf(n, std::numeric_limits<float>::quiet_NaN());
      pf.execute(ConstView<float>(xf.data(), {n}), View<float>(yf.data(), {n}));
      EXPECT_LE(oracle::rel_l2(yf, want), oracle::tolerance<float>(n))
          << "type " << type << " n=" << n;
      Plan pd(
          PlanDesc{.shape = {n}, .type = type, .precision = Precision::F64, .norm = Norm::Ortho});
      std::vector<double> yd(n, std::nan(""));
      pd.execute(ConstView<double>(x.data(), {n}), View<double>(yd.data(), {n}));
      EXPECT_LE(oracle::rel_l2(yd, want), oracle::tolerance<double>(n))
          << "type " << type << " n=" << n;
    }
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(Targets);

// The targets agree with each other to the oracle's bound (cross-target agreement); the best
// target is restored whatever happens.
TEST(TargetAgreement, EveryTargetGivesTheBestTargetsResult) {
  struct Restore {
    ~Restore() { detail::cpu_force_target(0); }
  } restore;
  const Shape s = {33, 40};
  const auto x = oracle::random_vector<double>(33 * 40, 17);
  for (Kind k : {Kind::DCT, Kind::DST})
    for (int type = 1; type <= 4; ++type) {
      const PlanDesc d{.shape = s, .kind = k, .type = type, .norm = Norm::Ortho};
      std::vector<double> best(x.size());
      detail::cpu_force_target(0);
      Plan(d).execute(ConstView<double>(x.data(), s), View<double>(best.data(), s));
      for (std::int64_t t : test::transform_targets()) {
        detail::cpu_force_target(t);
        std::vector<double> y(x.size(), std::nan(""));
        Plan(d).execute(ConstView<double>(x.data(), s), View<double>(y.data(), s));
        EXPECT_LE(oracle::rel_l2(y, std::vector<oracle::LD>(best.begin(), best.end())),
                  oracle::tolerance<double>(40))
            << hwy::TargetName(t) << " " << to_string(k) << type;
      }
    }
}

}  // namespace
}  // namespace dctx
