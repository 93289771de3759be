// SPDX-License-Identifier: BSD-3-Clause
// Construction cost of fused 2D float32 plans (docs/benchmarks.md, "Hostile inputs"):
//   plan2d N1 N2 K -> builds K plans; bench/ab/instructions.sh plan2d 2 N1 N2 gives the
//   instructions of one.
#include <cstdlib>
#include "dctx/dctx.hpp"
int main(int argc, char** argv) {
  dctx::PlanDesc d;
  d.shape = {std::size_t(std::atoll(argv[1])), std::size_t(std::atoll(argv[2]))};
  d.precision = dctx::Precision::F32;
  d.cpu.algorithm = dctx::Algorithm2D::Fused;
  for (int i = 0; i < std::atoi(argv[3]); ++i) dctx::Plan p(d);
}
