// Every SIMD target compiled into the CPU back end and supported by this CPU gives oracle-exact
// results (so an AVX-512-only bug cannot hide behind AVX2), and the targets agree.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <hwy/targets.h>

#include "core/backend.hpp"
#include "dctx/dctx.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

TEST(Targets, EveryCompiledTargetMatchesTheOracle) {
  const auto targets = detail::cpu_available_targets();
  ASSERT_FALSE(targets.empty());
  for (std::int64_t t : targets) {
    detail::cpu_force_target(t);
    const std::string name = hwy::TargetName(t);
    for (Kind k : {Kind::DCT, Kind::DST})
      for (int type = 1; type <= 4; ++type)
        for (std::size_t n : {2, 3, 8, 12, 31, 64, 100, 127}) {
          const Shape s = {n, 5};
          const auto x = oracle::random_vector<float>(n * 5, static_cast<unsigned>(n));
          PlanDesc d{.shape = s,
                     .axes = {0},
                     .kind = k,
                     .type = type,
                     .precision = Precision::F32,
                     .norm = Norm::Ortho};
          Plan p(d);
          ASSERT_NE(p.describe().find(name), std::string::npos) << p.describe();
          std::vector<float> y(x.size(), std::numeric_limits<float>::quiet_NaN());
          p.execute(ConstView<float>(x.data(), s), View<float>(y.data(), s));
          auto want =
              oracle::reference_nd(s, {0}, {{k, type}}, Norm::Ortho, true, Direction::Forward,
                                   std::vector<oracle::LD>(x.begin(), x.end()));
          ASSERT_LE(oracle::rel_l2(y, want), oracle::tolerance<float>(n))
              << name << " " << to_string(k) << type << " n=" << n;
        }
  }
  detail::cpu_force_target(0);
}

// Single long lines take the six-step FFT (vectors inside one sequence) on targets with >= 4 lanes:
// every output, float32 and float64, against the oracle (computed once per transform).
TEST(Targets, SingleLongLinesOnEveryTarget) {
  for (int type : {2, 3, 4})
    for (std::size_t n : {1024, 2048}) {
      const auto x = oracle::random_vector<double>(n, static_cast<unsigned>(n + type));
      const auto want =
          oracle::reference_nd({n}, {0}, {{Kind::DCT, type}}, Norm::Ortho, true, Direction::Forward,
                               std::vector<oracle::LD>(x.begin(), x.end()));
      const std::vector<float> xf(x.begin(), x.end());
      for (std::int64_t t : detail::cpu_available_targets()) {
        detail::cpu_force_target(t);
        Plan pf(
            PlanDesc{.shape = {n}, .type = type, .precision = Precision::F32, .norm = Norm::Ortho});
        std::vector<float> yf(n, std::numeric_limits<float>::quiet_NaN());
        pf.execute(ConstView<float>(xf.data(), {n}), View<float>(yf.data(), {n}));
        EXPECT_LE(oracle::rel_l2(yf, want), oracle::tolerance<float>(n))
            << hwy::TargetName(t) << " type " << type << " n=" << n;
        Plan pd(
            PlanDesc{.shape = {n}, .type = type, .precision = Precision::F64, .norm = Norm::Ortho});
        std::vector<double> yd(n, std::nan(""));
        pd.execute(ConstView<double>(x.data(), {n}), View<double>(yd.data(), {n}));
        EXPECT_LE(oracle::rel_l2(yd, want), oracle::tolerance<double>(n))
            << hwy::TargetName(t) << " type " << type << " n=" << n;
      }
    }
  detail::cpu_force_target(0);
}

}  // namespace
}  // namespace dctx
