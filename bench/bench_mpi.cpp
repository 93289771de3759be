// SPDX-License-Identifier: BSD-3-Clause
// Distributed DCT-II (float64, unnormalised, every axis) under mpirun: dctx::mpi::Plan against
// FFTW-MPI's r2r (REDFT10) on the same arrays and ranks, both with the natural output layout and
// with the transposed one, and the serial dctx plan of the whole array on one rank (for the
// parallel efficiency). One thread per rank; times are the slowest rank's, median of --reps.
//   mpirun -n 2 build-bench/bin/bench_mpi [--reps N] [--estimate] 1024x1024 4096x4096 256x256x256
#include <fftw3-mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dctx/mpi.hpp"
#include "shape_arg.hpp"

namespace {

// Median over `reps` runs of the slowest rank's time of `fn`, in milliseconds.
template <class F>
double time_ms(int reps, F&& fn) {
  fn();  // warm-up
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    fn();
    double mine = MPI_Wtime() - t0, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    t.push_back(slowest * 1e3);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void fill(double* p, std::size_t n, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t i = 0; i < n; ++i) p[i] = u(g);
}

struct Row {
  double dctx_nat, fftw_nat, dctx_tr, fftw_tr, serial;
};

Row run(const dctx::Shape& shape, int reps, unsigned fftw_flags) {
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Row row{};
  dctx::PlanDesc d;
  d.shape = shape;
  d.cpu.threads = 1;
  for (int transposed = 0; transposed < 2; ++transposed) {
    const dctx::mpi::Layout out =
        transposed ? dctx::mpi::Layout::Transposed : dctx::mpi::Layout::Natural;
    // dctx: slabs, as FFTW-MPI.
    double dctx_ms = 0;
    {
      const dctx::mpi::Plan p(
          d, MPI_COMM_WORLD, {dctx::mpi::Decomposition::Slab, {}, dctx::mpi::Layout::Natural, out});
      std::vector<double> in(p.in_block().size()), res(p.local_capacity());
      fill(in.data(), in.size(), 1 + unsigned(rank));
      dctx_ms =
          time_ms(reps, [&] { p.execute(std::span<const double>(in), std::span<double>(res)); });
    }
    // FFTW-MPI's r2r on the same slabs.
    double fftw_ms = 0;
    {
      std::vector<ptrdiff_t> n(shape.begin(), shape.end());
      ptrdiff_t local_n0 = 0, start0 = 0, local_n1 = 0, start1 = 0;
      const ptrdiff_t alloc =
          transposed
              ? fftw_mpi_local_size_transposed(int(n.size()), n.data(), MPI_COMM_WORLD, &local_n0,
                                               &start0, &local_n1, &start1)
              : fftw_mpi_local_size(int(n.size()), n.data(), MPI_COMM_WORLD, &local_n0, &start0);
      double* in = fftw_alloc_real(std::size_t(alloc));
      double* res = fftw_alloc_real(std::size_t(alloc));
      std::vector<fftw_r2r_kind> kinds(shape.size(), FFTW_REDFT10);
      fftw_plan plan =
          fftw_mpi_plan_r2r(int(n.size()), n.data(), in, res, MPI_COMM_WORLD, kinds.data(),
                            fftw_flags | (transposed ? FFTW_MPI_TRANSPOSED_OUT : 0));
      std::size_t local = std::size_t(local_n0);
      for (std::size_t a = 1; a < shape.size(); ++a) local *= shape[a];
      fill(in, local, 1 + unsigned(rank));
      fftw_ms = time_ms(reps, [&] { fftw_execute(plan); });
      fftw_destroy_plan(plan);
      fftw_free(in);
      fftw_free(res);
    }
    (transposed ? row.dctx_tr : row.dctx_nat) = dctx_ms;
    (transposed ? row.fftw_tr : row.fftw_nat) = fftw_ms;
  }
  // The serial plan of the whole array, on rank 0 alone.
  double serial = 0;
  if (rank == 0) {
    const dctx::Plan p(d);
    std::size_t total = 1;
    for (std::size_t e : shape) total *= e;
    std::vector<double> in(total), res(total);
    fill(in.data(), total, 1);
    const auto once = [&] {
      p.execute(dctx::ConstView<double>(in.data(), shape), dctx::View<double>(res.data(), shape));
    };
    once();
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      const double t0 = MPI_Wtime();
      once();
      t.push_back((MPI_Wtime() - t0) * 1e3);
    }
    std::sort(t.begin(), t.end());
    serial = t[t.size() / 2];
  }
  MPI_Bcast(&serial, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  row.serial = serial;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int reps = 10;
  unsigned flags = FFTW_MEASURE;
  std::vector<dctx::Shape> shapes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc)
      reps = std::atoi(argv[++i]);
    else if (a == "--estimate")
      flags = FFTW_ESTIMATE;
    else
      shapes.push_back(dctx_bench::parse_shape(a, "bench_mpi"));
  }
  if (shapes.empty()) shapes = {{1024, 1024}, {4096, 4096}, {256, 256, 256}};
  if (rank == 0)
    std::printf(
        "| shape | ranks | dctx (ms) | FFTW-MPI (ms) | ratio | dctx transposed out (ms) | "
        "FFTW-MPI TRANSPOSED_OUT (ms) | ratio | serial dctx, 1 rank (ms) | efficiency |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n");
  for (const dctx::Shape& s : shapes) {
    const Row r = run(s, reps, flags);
    std::string name;
    for (std::size_t k = 0; k < s.size(); ++k) name += (k ? "x" : "") + std::to_string(s[k]);
    if (rank == 0)
      std::printf("| %s | %d | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx | %.2f | %.0f %% |\n",
                  name.c_str(), size, r.dctx_nat, r.fftw_nat, r.fftw_nat / r.dctx_nat, r.dctx_tr,
                  r.fftw_tr, r.fftw_tr / r.dctx_tr, r.serial, 100 * r.serial / (size * r.dctx_nat));
  }
  fftw_mpi_cleanup();
  MPI_Finalize();
  return 0;
}
