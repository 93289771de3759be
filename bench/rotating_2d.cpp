// SPDX-License-Identifier: BSD-3-Clause
// One float32 2D DCT-II (forward) or DCT-III (inverse), norm ortho, one thread, through
// Plan::execute on `buffers` input/output pairs taken in turn (4: the data comes from L3 or
// memory, as in bench_dct; 1: the same pair, hot), 64-byte aligned or OFFSET elements past it
// (4 floats: the 16 bytes of a std::vector's or large NumPy array's data). Prints the minimum and
// the median time of the calls. Small enough to build twice (two versions of the library) and run
// alternately, for before/after comparisons on a noisy machine:
//   build-bench/bin/rotating_2d N DIRECTION [BUFFERS [OFFSET]]   e.g. 4096 0 4  (0 forward)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "aligned_array.hpp"
#include "dctx/dctx.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: rotating_2d N DIRECTION(0 forward, 1 inverse) [BUFFERS [OFFSET]]\n");
    return 2;
  }
  const std::size_t n = std::stoul(argv[1]);
  const bool inverse = std::stoi(argv[2]) != 0;
  const int buffers = argc > 3 ? std::max(1, std::stoi(argv[3])) : 4;
  const std::size_t offset = argc > 4 ? std::stoul(argv[4]) % 16 : 0;
  const dctx::Shape shape{n, n};
  std::vector<dctx_bench::AlignedArray<float>> in, out;
  for (int b = 0; b < buffers; ++b) {
    in.push_back(dctx_bench::aligned_array<float>(n * n + offset));
    out.push_back(dctx_bench::aligned_array<float>(n * n + offset));
    for (std::size_t i = 0; i < n * n; ++i) {
      in.back()[offset + i] = float(((i + b) * 7919 % 1000) / 1000.0 - 0.5);
      out.back()[offset + i] = 0;
    }
  }
  dctx::PlanDesc d;
  d.shape = shape;
  d.norm = dctx::Norm::Ortho;
  d.precision = dctx::Precision::F32;
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.cpu.threads = 1;
  const dctx::Plan plan(d);
  const int calls = n >= 4096 ? 24 : n >= 2048 ? 100 : 400;
  std::vector<double> t;
  for (int r = 0; r < calls; ++r) {
    const int b = r % buffers;
    const auto t0 = std::chrono::steady_clock::now();
    plan.execute(dctx::ConstView<float>(in[b].get() + offset, shape),
                 dctx::View<float>(out[b].get() + offset, shape));
    t.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  std::printf("%zux%zu %s, %d buffer(s), offset %zu: min %.1f us, median %.1f us\n", n, n,
              inverse ? "inverse" : "forward", buffers, offset, t.front(), t[t.size() / 2]);
  return 0;
}
