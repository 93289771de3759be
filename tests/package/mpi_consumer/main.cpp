// SPDX-License-Identifier: BSD-3-Clause
// The installed dctx::mpi: a distributed 2D DCT-II of a constant array has one non-zero
// coefficient, (2 n0)(2 n1) x the constant at (0, 0), on whichever rank holds it.
#include <dctx/mpi.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int bad = 0;
  {
    dctx::PlanDesc d;
    d.shape = {6, 5};
    const dctx::mpi::Plan plan(d, MPI_COMM_WORLD);
    std::vector<double> x(plan.in_block().size(), 1.0), y(plan.local_capacity());
    plan.execute(std::span<const double>(x), std::span<double>(y));
    const dctx::mpi::Block& b = plan.out_block();
    for (std::size_t i = 0; i < b.size(); ++i) {
      const bool origin = i == 0 && b.offset[0] == 0 && b.offset[1] == 0;
      if (std::abs(y[i] - (origin ? 120.0 : 0.0)) > 1e-9) bad = 1;
    }
  }
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  if (any) std::puts("dctx::mpi consumer: wrong result");
  return any;
}
