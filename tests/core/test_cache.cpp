// SPDX-License-Identifier: BSD-3-Clause
// The shared plan cache: one plan per normalised description, LRU bound, thread safety.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "dctx/dctx.hpp"

namespace dctx {
namespace {

TEST(Cache, SameDescriptionSamePlan) {
  set_plan_cache_capacity(8);
  auto a = cached_plan(PlanDesc{.shape = {32, 8}});
  auto b = cached_plan(PlanDesc{.shape = {32, 8}, .axes = {0, 1}});  // same once normalised
  EXPECT_EQ(a.get(), b.get());
  auto c = cached_plan(PlanDesc{.shape = {32, 8}, .norm = Norm::Ortho});
  EXPECT_NE(a.get(), c.get());
}

TEST(Cache, CapacityBoundsAndZeroDisables) {
  set_plan_cache_capacity(2);
  auto a = cached_plan(PlanDesc{.shape = {3}});
  cached_plan(PlanDesc{.shape = {5}});
  cached_plan(PlanDesc{.shape = {7}});
  EXPECT_NE(cached_plan(PlanDesc{.shape = {3}}).get(), a.get());  // evicted, rebuilt
  set_plan_cache_capacity(0);
  EXPECT_NE(cached_plan(PlanDesc{.shape = {3}}).get(), cached_plan(PlanDesc{.shape = {3}}).get());
  set_plan_cache_capacity(32);
  EXPECT_EQ(plan_cache_capacity(), 32u);
}

TEST(Cache, ConcurrentOneShotCallsAgree) {
  const Shape s = {24, 40};
  std::vector<double> x(960);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37 * double(i)) + 0.1;
  std::vector<double> ref(960);
  dctn<double>(ConstView<double>(x.data(), s), View<double>(ref.data(), s));
  std::vector<std::vector<double>> outs(4, std::vector<double>(960));
  std::vector<std::thread> th;
  for (int t = 0; t < 4; ++t)
    th.emplace_back([&, t] {
      for (int r = 0; r < 20; ++r)
        dctn<double>(ConstView<double>(x.data(), s), View<double>(outs[t].data(), s));
    });
  for (auto& t : th) t.join();
  for (auto& o : outs) EXPECT_EQ(o, ref);
}

}  // namespace
}  // namespace dctx
