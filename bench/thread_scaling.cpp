// SPDX-License-Identifier: BSD-3-Clause
// Speed-up of two threads over one: the same description planned with cpu.threads = 1 and 2,
// timed alternately in one process (so that the shared machine's drift hits both alike), median
// of the alternations. 2D DCT-II, norm ortho, Auto algorithm (the plan's describe() says which).
// Each block of calls starts with one call timed apart ("first call"): after the other plan's
// block the pool's worker has gone to sleep (it spins about 0.1 ms), and that call pays for its
// wake-up, which on a VM can cost as much as the transform; the speed-up is that of the calls
// after it, back to back, as a program transforming in a loop runs them.
// Before each shape, two threads pass a cache line back and forth ("round trip"): about 50-80 ns
// where the machine's two vCPUs share an L3, 300 ns and more where they sit on different dies,
// which a VM may change from one minute to the next (docs/benchmarks.md, "Where two vCPUs sit").
//   build-bench/bin/thread_scaling [SHAPE ...]     e.g. 512x512 2048x2048 256x256x256
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dctx/dctx.hpp"
#include "shape_arg.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// The median time of a cache line's round trip between two threads (the OS places them, as it
// places the pool's worker): one thread writes an odd count, the other answers with the next.
double round_trip_ns() {
  constexpr int kTrips = 2000, kRounds = 9;
  alignas(64) std::atomic<int> line{0};
  std::vector<double> ns;
  std::thread echo([&line] {
    for (int i = 0; i < kTrips * kRounds; ++i) {
      while (line.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      line.store(2 * i + 2, std::memory_order_release);
    }
  });
  for (int r = 0; r < kRounds; ++r) {
    const auto t0 = Clock::now();
    for (int i = r * kTrips; i < (r + 1) * kTrips; ++i) {
      line.store(2 * i + 1, std::memory_order_release);
      while (line.load(std::memory_order_acquire) != 2 * i + 2) {
      }
    }
    ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kTrips);
  }
  echo.join();
  std::sort(ns.begin(), ns.end());
  return ns[ns.size() / 2];
}

template <class T>
void run(const dctx::Shape& shape) {
  const double trip = round_trip_ns();
  std::size_t n = 1;
  for (std::size_t e : shape) n *= e;
  std::vector<T> in(n, T(0.5)), out(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = T((i * 7919 % 1000) / 1000.0 - 0.5);
  std::unique_ptr<dctx::Plan> plan[2];
  for (int k = 0; k < 2; ++k) {
    dctx::PlanDesc d;
    d.shape = shape;
    d.norm = dctx::Norm::Ortho;
    d.precision = sizeof(T) == 4 ? dctx::Precision::F32 : dctx::Precision::F64;
    d.cpu.threads = k + 1;
    plan[k] = std::make_unique<dctx::Plan>(d);
  }
  const int inner = 5, rounds = int(std::clamp<std::size_t>(std::size_t(4e8) / (n * 20), 20, 400));
  std::vector<double> t[2], first;
  const auto call = [&](int k) {
    plan[k]->execute(dctx::ConstView<T>(in.data(), shape), dctx::View<T>(out.data(), shape));
  };
  const auto ms = [](Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < 2; ++k) {
      auto t0 = Clock::now();
      call(k);
      if (k == 1) first.push_back(ms(t0));
      t0 = Clock::now();
      for (int i = 0; i < inner; ++i) call(k);
      t[k].push_back(ms(t0) / inner);
    }
  for (auto& v : t) std::sort(v.begin(), v.end());
  std::sort(first.begin(), first.end());
  const double t1 = t[0][t[0].size() / 2], t2 = t[1][t[1].size() / 2];
  const double tf = first[first.size() / 2];
  std::string name;
  for (std::size_t k = 0; k < shape.size(); ++k) name += (k ? "x" : "") + std::to_string(shape[k]);
  const std::string how =
      plan[0]->describe().find("fused") != std::string::npos ? "fused 2D" : "row-column";
  std::printf("| %s | %s | %s | %.3f | %.3f | %.2fx | %.3f (%.2fx) | %.0f |\n", name.c_str(),
              sizeof(T) == 4 ? "float32" : "float64", how.c_str(), t1, t2, t1 / t2, tf, t1 / tf,
              trip);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<dctx::Shape> shapes;
  for (int i = 1; i < argc; ++i)
    shapes.push_back(dctx_bench::parse_shape(argv[i], "thread_scaling"));
  if (shapes.empty()) shapes = {{512, 512}, {1024, 1024}, {2048, 2048}, {256, 256, 256}};
  std::printf(
      "| shape | dtype | algorithm | 1 thread (ms) | 2 threads (ms) | speed-up | 2 threads, "
      "first call (ms) | round trip (ns) |\n"
      "|---|---|---|---|---|---|---|---|\n");
  for (const dctx::Shape& s : shapes) {
    run<float>(s);
    run<double>(s);
  }
  return 0;
}
