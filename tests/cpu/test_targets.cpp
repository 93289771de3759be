// Every SIMD target compiled into the CPU back end and supported by this CPU gives oracle-exact
// results (so an AVX-512-only bug cannot hide behind AVX2), and the targets agree.
#include <gtest/gtest.h>

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
          PlanDesc d{.shape = s, .axes = {0}, .kind = k, .type = type, .precision = Precision::F32,
                     .norm = Norm::Ortho};
          Plan p(d);
          ASSERT_NE(p.describe().find(name), std::string::npos) << p.describe();
          std::vector<float> y(x.size(), std::numeric_limits<float>::quiet_NaN());
          p.execute(ConstView<float>(x.data(), s), View<float>(y.data(), s));
          auto want = oracle::reference_nd(s, {0}, {{k, type}}, Norm::Ortho, true, Direction::Forward,
                                           std::vector<oracle::LD>(x.begin(), x.end()));
          ASSERT_LE(oracle::rel_l2(y, want), oracle::tolerance<float>(n))
              << name << " " << to_string(k) << type << " n=" << n;
        }
  }
  detail::cpu_force_target(0);
}

}  // namespace
}  // namespace dctx
