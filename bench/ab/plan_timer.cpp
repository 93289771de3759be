// SPDX-License-Identifier: BSD-3-Clause
// A/B timer of one 2D transform plan, built against each of two trees' libdctx.a
// (docs/benchmarks.md, "The back-end seam"):
//   plan_timer N1 N2 PREC(32|64) DIR(f|i) ALGO(a|r|f) ITERS -> best seconds per execution, and one
//   output value (which must agree between the builds).
// NEW_API: PlanDesc::cpu (after the back-end seam); without it PlanDesc::algorithm (before).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "dctx/dctx.hpp"
int main(int argc, char** argv) {
  std::size_t n1 = std::atoi(argv[1]), n2 = std::atoi(argv[2]);
  bool f32 = std::string(argv[3]) == "32";
  bool inv = argv[4][0] == 'i';
  char al = argv[5][0];
  int it = std::atoi(argv[6]);
  dctx::PlanDesc d;
  d.shape = {n1, n2};
  d.norm = dctx::Norm::Ortho;
  d.precision = f32 ? dctx::Precision::F32 : dctx::Precision::F64;
  d.direction = inv ? dctx::Direction::Inverse : dctx::Direction::Forward;
  auto algo = al == 'r'   ? dctx::Algorithm2D::RowColumn
              : al == 'f' ? dctx::Algorithm2D::Fused
                          : dctx::Algorithm2D::Auto;
#ifdef NEW_API
  d.cpu.algorithm = algo;
#else
  d.algorithm = algo;
#endif
  dctx::Plan p(d);
  std::vector<double> xd(n1 * n2), yd(n1 * n2);
  std::vector<float> xf(n1 * n2), yf(n1 * n2);
  for (std::size_t i = 0; i < xd.size(); ++i) xd[i] = xf[i] = float((i * 7919) % 1000) / 1000.0f;
  double best = 1e30;
  for (int k = 0; k < it; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    if (f32)
      p.execute(dctx::ConstView<float>(xf.data(), d.shape), dctx::View<float>(yf.data(), d.shape));
    else
      p.execute(dctx::ConstView<double>(xd.data(), d.shape),
                dctx::View<double>(yd.data(), d.shape));
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::printf("%.9f %g\n", best, f32 ? double(yf[1]) : yd[1]);
}
