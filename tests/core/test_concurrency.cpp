// SPDX-License-Identifier: BSD-3-Clause
// Concurrency (the ThreadSanitizer run takes these, ctest label "concurrency"): one plan executed
// from many threads at once, each with worker threads of its own; the plan cache under many
// shapes from many threads (the block engine's: tests/block8/test_block8_concurrency.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

#include "dctx/dctx.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

constexpr int kCallers = 8;

TEST(Concurrency, OnePlanFromManyThreads) {
  const Shape s = {48, 40};
  const auto x = oracle::random_vector<float>(48 * 40, 1);
  const Plan p(PlanDesc{
      .shape = s, .precision = Precision::F32, .norm = Norm::Ortho, .cpu = {.threads = 2}});
  std::vector<float> ref(x.size());
  p.execute(ConstView<float>(x.data(), s), View<float>(ref.data(), s));
  std::vector<std::vector<float>> outs(kCallers, std::vector<float>(x.size()));
  std::vector<std::thread> th;
  for (int t = 0; t < kCallers; ++t)
    th.emplace_back([&, t] {
      for (int r = 0; r < 10; ++r)
        p.execute(ConstView<float>(x.data(), s), View<float>(outs[t].data(), s));
    });
  for (auto& t : th) t.join();
  for (const auto& o : outs) EXPECT_EQ(o, ref);
}

TEST(Concurrency, FusedPlanFromManyThreads) {
  const Shape s = {64, 64};
  const auto x = oracle::random_vector<double>(64 * 64, 2);
  const Plan p(PlanDesc{
      .shape = s, .norm = Norm::Ortho, .cpu = {.threads = 2, .algorithm = Algorithm2D::Fused}});
  std::vector<double> ref(x.size());
  p.execute(ConstView<double>(x.data(), s), View<double>(ref.data(), s));
  std::vector<std::vector<double>> outs(kCallers, std::vector<double>(x.size()));
  std::vector<std::thread> th;
  for (int t = 0; t < kCallers; ++t)
    th.emplace_back([&, t] {
      for (int r = 0; r < 5; ++r)
        p.execute(ConstView<double>(x.data(), s), View<double>(outs[t].data(), s));
    });
  for (auto& t : th) t.join();
  for (const auto& o : outs) EXPECT_EQ(o, ref);
}

TEST(Concurrency, PlanCacheUnderManyShapes) {
  set_plan_cache_capacity(4);  // fewer entries than shapes: evictions race with lookups
  std::vector<std::thread> th;
  std::vector<int> failures(kCallers, 0);
  for (int t = 0; t < kCallers; ++t)
    th.emplace_back([&, t] {
      for (int r = 0; r < 40; ++r) {
        const std::size_t n = 4 + std::size_t((t * 7 + r) % 12);
        std::vector<double> x(n, 1.0), y(n, 0.0);
        dct<double>(ConstView<double>(x.data(), {n}), View<double>(y.data(), {n}), 2, -1,
                    Norm::Ortho);
        // The DCT-II of a constant: sqrt(n) at k = 0, zeros elsewhere.
        if (std::fabs(y[0] - std::sqrt(double(n))) > 1e-12) ++failures[t];
        for (std::size_t k = 1; k < n; ++k)
          if (std::fabs(y[k]) > 1e-12) ++failures[t];
      }
    });
  for (auto& t : th) t.join();
  set_plan_cache_capacity(32);
  for (int f : failures) EXPECT_EQ(f, 0);
}

}  // namespace
}  // namespace dctx
