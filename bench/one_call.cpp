// SPDX-License-Identifier: BSD-3-Clause
// The cost of one Plan::execute call (pointer form) on a small array, in-process: chunks of 5000
// calls on four rotating buffers, printing the fastest chunk's and the 10th-percentile chunk's
// nanoseconds per call. For comparing two builds of the library on a noisy machine: run the two
// binaries alternately several times and keep each one's minimum (docs/benchmarks.md).
//
//   one_call N0 [N1] [f32|f64] [fwd|inv] [calls]     (N1 = 0 or absent: one line of N0 points)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <dctx/plan.hpp>

namespace {

template <class T>
std::vector<double> time_chunks(const dctx::Plan& plan, std::size_t size,
                                const std::ptrdiff_t* strides, long calls) {
  constexpr long kChunk = 5000;
  std::vector<T> x(4 * size), y(4 * size);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<T>(static_cast<double>((i * 7919) % 1000) / 1000.0 - 0.5);
  std::vector<double> ns;
  for (long c = 0; c < std::max(1L, calls / kChunk); ++c) {
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < kChunk; ++i) {
      const std::size_t k = static_cast<std::size_t>(i & 3) * size;
      plan.execute(x.data() + k, strides, y.data() + k, strides);
    }
    const std::chrono::duration<double, std::nano> dt = std::chrono::steady_clock::now() - t0;
    ns.push_back(dt.count() / kChunk);
  }
  std::sort(ns.begin(), ns.end());
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: one_call N0 [N1] [f32|f64] [fwd|inv] [calls]\n");
    return 2;
  }
  const long n0 = std::atol(argv[1]), n1 = argc > 2 ? std::atol(argv[2]) : 0;
  const bool f64 = argc > 3 && !std::strcmp(argv[3], "f64");
  const bool inverse = argc > 4 && !std::strcmp(argv[4], "inv");
  const long calls = argc > 5 ? std::atol(argv[5]) : 2000000;
  if (n0 < 1 || n1 < 0 || calls < 1) {
    std::fprintf(stderr, "one_call: N0 must be >= 1, N1 >= 0 and calls >= 1\n");
    return 2;
  }
  try {
    dctx::PlanDesc d;
    d.norm = dctx::Norm::Ortho;
    const auto s0 = static_cast<std::size_t>(n0), s1 = static_cast<std::size_t>(n1);
    d.shape = n1 ? dctx::Shape{s0, s1} : dctx::Shape{s0};
    d.precision = f64 ? dctx::Precision::F64 : dctx::Precision::F32;
    d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
    const dctx::Plan plan(d);
    const std::ptrdiff_t strides2[2] = {n1, 1}, strides1[1] = {1};
    const std::ptrdiff_t* strides = n1 ? strides2 : strides1;
    const std::size_t size = s0 * (n1 ? s1 : 1);
    const auto ns = f64 ? time_chunks<double>(plan, size, strides, calls)
                        : time_chunks<float>(plan, size, strides, calls);
    std::printf("%.1f %.1f\n", ns.front(), ns[ns.size() / 10]);
  } catch (const dctx::Error& e) {
    std::fprintf(stderr, "one_call: %s\n", e.what());
    return 1;
  }
  return 0;
}
