// SPDX-License-Identifier: BSD-3-Clause
// Concurrency of the 8x8 block engine (ctest label "concurrency", run under ThreadSanitizer):
// the one-shot functions from many threads with tables that differ (each thread keeps its own
// plans), and one block plan executed from many threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "dctx/block8.hpp"

namespace dctx {
namespace {

constexpr int kCallers = 8;

TEST(Concurrency, BlockFunctionsWithDifferentTablesFromManyThreads) {
  const Shape s = {32, 48};
  std::vector<float> x(32 * 48);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(0.3 * double(i)) * 100.0);
  std::vector<std::vector<float>> ref(kCallers, std::vector<float>(x.size()));
  for (int t = 0; t < kCallers; ++t)
    block8_roundtrip_quantized(ConstView<float>(x.data(), s), View<float>(ref[t].data(), s),
                               quant_table_jpeg_luma(10 + 10 * t));
  std::vector<std::vector<float>> outs(kCallers, std::vector<float>(x.size()));
  std::vector<std::thread> th;
  for (int t = 0; t < kCallers; ++t)
    th.emplace_back([&, t] {
      const Block8Options o{Block8Kernel::Auto, Block8Edge::Error, 2};
      for (int r = 0; r < 10; ++r)
        block8_roundtrip_quantized(ConstView<float>(x.data(), s), View<float>(outs[t].data(), s),
                                   quant_table_jpeg_luma(10 + 10 * t), o);
    });
  for (auto& t : th) t.join();
  for (int t = 0; t < kCallers; ++t) EXPECT_EQ(outs[t], ref[t]) << t;
}

TEST(Concurrency, OneBlockPlanFromManyThreads) {
  const Block8Plan p(Block8PlanDesc{
      .op = Block8Op::ForwardQuantized, .table = quant_table_nvidia(), .cpu = {.threads = 2}});
  const Shape s = {64, 64};
  std::vector<float> x(64 * 64);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(std::cos(0.11 * double(i)) * 120.0);
  std::vector<std::int16_t> ref(x.size());
  p.execute(ConstView<float>(x.data(), s), View<std::int16_t>(ref.data(), s));
  std::vector<std::vector<std::int16_t>> outs(kCallers, std::vector<std::int16_t>(x.size()));
  std::vector<std::thread> th;
  for (int t = 0; t < kCallers; ++t)
    th.emplace_back([&, t] {
      for (int r = 0; r < 10; ++r)
        p.execute(ConstView<float>(x.data(), s), View<std::int16_t>(outs[t].data(), s));
    });
  for (auto& t : th) t.join();
  for (const auto& o : outs) EXPECT_EQ(o, ref);
}

}  // namespace
}  // namespace dctx
