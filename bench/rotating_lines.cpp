// SPDX-License-Identifier: BSD-3-Clause
// The float32 DCT-II (forward) or DCT-III (inverse), norm ortho, one thread, along the rows of a
// LINES x N array (axis 1), through Plan::execute on `buffers` 64-byte aligned input/output pairs
// taken in turn (4: the data comes from memory, as in bench_dct's "lines" rows; 1: hot). Prints
// the minimum and the median time of the calls. Small enough to build twice and run
// alternately, like rotating_2d:
//   build-bench/bin/rotating_lines LINES N DIRECTION [BUFFERS [CALLS]]   e.g. 4096 1024 0 4
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "aligned_array.hpp"
#include "dctx/dctx.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(
        stderr,
        "usage: rotating_lines LINES N DIRECTION(0 forward, 1 inverse) [BUFFERS [CALLS]]\n");
    return 2;
  }
  const std::size_t lines = std::stoul(argv[1]), n = std::stoul(argv[2]);
  const bool inverse = std::stoi(argv[3]) != 0;
  const int buffers = argc > 4 ? std::max(1, std::stoi(argv[4])) : 4;
  const int calls = argc > 5 ? std::max(1, std::stoi(argv[5])) : 60;
  const dctx::Shape shape{lines, n};
  std::vector<dctx_bench::AlignedArray<float>> in, out;
  for (int b = 0; b < buffers; ++b) {
    in.push_back(dctx_bench::aligned_array<float>(lines * n));
    out.push_back(dctx_bench::aligned_array<float>(lines * n));
    for (std::size_t i = 0; i < lines * n; ++i) {
      in.back()[i] = float(((i + b) * 7919 % 1000) / 1000.0 - 0.5);
      out.back()[i] = 0;
    }
  }
  dctx::PlanDesc d;
  d.shape = shape;
  d.axes = {1};
  d.norm = dctx::Norm::Ortho;
  d.precision = dctx::Precision::F32;
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.cpu.threads = 1;
  const dctx::Plan plan(d);
  std::vector<double> t;
  for (int r = 0; r < calls; ++r) {
    const int b = r % buffers;
    const auto t0 = std::chrono::steady_clock::now();
    plan.execute(dctx::ConstView<float>(in[b].get(), shape),
                 dctx::View<float>(out[b].get(), shape));
    t.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  std::printf("%zux%zu %s, %d buffer(s): min %.1f us, median %.1f us\n", lines, n,
              inverse ? "inverse" : "forward", buffers, t.front(), t[t.size() / 2]);
  return 0;
}
