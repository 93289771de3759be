// SPDX-License-Identifier: BSD-3-Clause
// The library's thread pool: every index exactly once, errors carried back to the caller, nested
// and concurrent calls that cannot deadlock, and absurd thread counts that neither crash nor
// create absurd numbers of threads.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/thread_pool.hpp"

namespace dctx {
namespace {

void ExpectEachIndexOnce(int threads, std::size_t n) {
  std::vector<std::atomic<int>> hits(n);
  detail::parallel_for(threads, n, [&](std::size_t b, std::size_t e) {
    ASSERT_LE(b, e);
    for (std::size_t i = b; i < e; ++i) ++hits[i];
  });
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(hits[i].load(), 1) << "threads " << threads << " n " << n << " i " << i;
}

TEST(ThreadPool, EveryIndexExactlyOnce) {
  for (int threads : {0, 1, 2, 3, 7, 16, 64})
    for (std::size_t n : {0, 1, 2, 5, 63, 1000}) ExpectEachIndexOnce(threads, n);
}

TEST(ThreadPool, AbsurdThreadCountsAreClamped) {
  ExpectEachIndexOnce(100000, 100000);
  ExpectEachIndexOnce(1 << 30, 7);
  EXPECT_LE(detail::pool_worker_count(), detail::kMaxWorkers);
}

TEST(ThreadPool, TheFirstErrorReachesTheCallerAfterEveryChunk) {
  std::atomic<int> done{0};
  try {
    detail::parallel_for(8, 8, [&](std::size_t b, std::size_t) {
      if (b == 3) throw std::runtime_error("chunk 3 failed");
      ++done;
    });
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "chunk 3 failed");
  }
  EXPECT_LE(done.load(), 7);
  ExpectEachIndexOnce(8, 100);  // the pool still works
}

TEST(ThreadPool, NestedCallsRunInline) {
  std::atomic<int> total{0};
  detail::parallel_for(4, 4, [&](std::size_t, std::size_t) {
    detail::parallel_for(4, 10, [&](std::size_t b, std::size_t e) { total += int(e - b); });
  });
  EXPECT_EQ(total.load(), 40);
}

TEST(ThreadPoolConcurrency, ManyCallersAtOnce) {
  std::vector<std::thread> callers;
  std::atomic<long> sum{0};
  for (int t = 0; t < 16; ++t)
    callers.emplace_back([&] {
      for (int r = 0; r < 50; ++r)
        detail::parallel_for(3, 30, [&](std::size_t b, std::size_t e) {
          for (std::size_t i = b; i < e; ++i) sum += long(i);
        });
    });
  for (auto& c : callers) c.join();
  EXPECT_EQ(sum.load(), 16L * 50 * (29 * 30 / 2));
}

}  // namespace
}  // namespace dctx
