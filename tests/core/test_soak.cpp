// SPDX-License-Identifier: BSD-3-Clause
// Soak: one million transforms of random shapes, kinds, types, norms and precisions from 8
// threads through the one-shot functions and so the plan cache (mostly misses: plans are built,
// evicted and freed all the time), with the resident memory flat after a warm-up and every
// result checked against a second, independent computation through an explicit plan.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "dctx/dctx.hpp"

namespace dctx {
namespace {

std::size_t resident_bytes() {
  long pages = 0, resident = 0;
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  const int got = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return got == 2 ? static_cast<std::size_t>(resident) * 4096 : 0;
}

template <class T>
bool one_transform(std::mt19937_64& g) {
  const std::size_t rank = 1 + g() % 3;
  Shape shape(rank);
  std::size_t total = 1;
  for (auto& e : shape) total *= (e = 1 + g() % (rank == 1 ? 64 : 12));
  const Kind kind = g() % 2 ? Kind::DCT : Kind::DST;
  int type = 1 + static_cast<int>(g() % 4);
  for (auto e : shape)
    if (kind == Kind::DCT && type == 1 && e < 2) type = 2;
  const Norm norm = static_cast<Norm>(g() % 3);
  std::vector<T> x(total), y(total), z(total);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto& v : x) v = static_cast<T>(u(g));
  const ConstView<T> in(x.data(), shape);
  if (kind == Kind::DCT)
    dctn<T>(in, View<T>(y.data(), shape), type, {}, norm);
  else
    dstn<T>(in, View<T>(y.data(), shape), type, {}, norm);
  PlanDesc d;
  d.shape = shape;
  d.kind = kind;
  d.type = type;
  d.norm = norm;
  d.precision = sizeof(T) == 4 ? Precision::F32 : Precision::F64;
  Plan(d).execute(in, View<T>(z.data(), shape));
  for (std::size_t i = 0; i < total; ++i)
    if (!(y[i] == z[i])) return false;
  return true;
}

TEST(Soak, AMillionRandomTransformsFromEightThreadsWithFlatMemory) {
  constexpr int kThreads = 8;
  constexpr std::size_t kPerThread = 125000, kWarmUp = 20000;
  std::atomic<std::size_t> done{0}, bad{0};
  std::atomic<std::size_t> rss_after_warmup{0};
  auto worker = [&](unsigned seed) {
    std::mt19937_64 g(seed);
    for (std::size_t i = 0; i < kPerThread; ++i) {
      const bool ok = g() % 2 ? one_transform<float>(g) : one_transform<double>(g);
      if (!ok) ++bad;
      if (++done == kThreads * kWarmUp) rss_after_warmup = resident_bytes();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, 1000u + t);
  for (auto& t : threads) t.join();
  const std::size_t end = resident_bytes();
  EXPECT_EQ(bad.load(), 0u);
  EXPECT_EQ(done.load(), kThreads * kPerThread);
  ASSERT_GT(rss_after_warmup.load(), 0u);
  // Flat: what remains after the warm-up's plans, buffers and arenas exist may only wobble.
  EXPECT_LT(end, rss_after_warmup.load() + (std::size_t{16} << 20))
      << "resident " << (rss_after_warmup.load() >> 20) << " MiB after the warm-up, " << (end >> 20)
      << " MiB after a million transforms";
}

}  // namespace
}  // namespace dctx
