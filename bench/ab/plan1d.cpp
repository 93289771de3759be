// SPDX-License-Identifier: BSD-3-Clause
// Planning cost of one float32 1D DCT-II (docs/benchmarks.md, "Hostile inputs"):
//   plan1d N        -> plan time, then two executions' times
//   plan1d N p      -> plan time only (run under callgrind for instruction counts)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "dctx/dctx.hpp"
using C = std::chrono::steady_clock;
static double s(C::time_point t) { return std::chrono::duration<double>(C::now() - t).count(); }
int main(int argc, char** argv) {
  dctx::PlanDesc d;
  std::size_t n = std::atoll(argv[1]);
  d.shape = {n};
  d.precision = dctx::Precision::F32;
  auto t = C::now();
  dctx::Plan p(d);
  double tp = s(t);
  if (argc > 2) {
    std::printf("plan %.3f\n", tp);
    return 0;
  }
  std::vector<float> x(n, 0.5f), y(n);
  t = C::now();
  p.execute(dctx::ConstView<float>(x.data(), {n}), dctx::View<float>(y.data(), {n}));
  double t1 = s(t);
  t = C::now();
  p.execute(dctx::ConstView<float>(x.data(), {n}), dctx::View<float>(y.data(), {n}));
  std::printf("n=%zu plan %.3f s, first execute %.3f s, second %.3f s\n", n, tp, t1, s(t));
}
