// SPDX-License-Identifier: BSD-3-Clause
// The electrostatic step against its parts, in-process, one thread: one orthonormal 2D DCT-II,
// one 2D DCT-III, the two mixed DCT-III/DXST-III plans of the fields (each timed with the copy
// of its input, printed apart), ElectrostaticSystem::fields and ::solve, on an N x N grid in
// float32 and float64. Minimum of `reps` calls each; for comparing two builds of the library on a
// noisy machine, run their binaries alternately and keep each one's minimum (docs/benchmarks.md).
//
//   electrostatics_parts N [reps]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <dctx/electrostatics.hpp>
#include <dctx/plan.hpp>

namespace {

using namespace dctx;

template <class F>
double min_ms(F f, int reps) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double, std::milli> dt = std::chrono::steady_clock::now() - t0;
    best = std::min(best, dt.count());
  }
  return best;
}

template <class T>
void run(std::size_t n, int reps) {
  const Precision p = sizeof(T) == 4 ? Precision::F32 : Precision::F64;
  const Shape s{n, n};
  std::vector<T> a(n * n), b(n * n), c(n * n), d(n * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = T(double((i * 7919) % 1000) / 1000.0);
  const auto type3 = [&](AxisTransform t0, AxisTransform t1) {
    PlanDesc pd;
    pd.shape = s;
    pd.axes = {0, 1};
    pd.transforms = {t0, t1};
    pd.precision = p;
    pd.orthogonalize = false;
    pd.cpu.threads = 1;
    return cached_plan(pd);
  };
  PlanDesc o;
  o.shape = s;
  o.precision = p;
  o.norm = Norm::Ortho;
  o.cpu.threads = 1;
  const auto dct2 = cached_plan(o);
  const AxisTransform cos3{Kind::DCT, 3}, sin3{Kind::DXST, 3};
  const auto c3 = type3(cos3, cos3), sx = type3(sin3, cos3), sy = type3(cos3, sin3);
  ElectrostaticsDesc ed;
  ed.shape = s;
  ed.precision = p;
  ed.cpu.threads = 1;
  const ElectrostaticSystem sys(ed);
  const ConstView<T> rho(a.data(), s);
  const View<T> B(b.data(), s), C(c.data(), s), D(d.data(), s);
  const auto copy = [&] { std::copy(a.begin(), a.end(), b.begin()); };
  const double t_copy = min_ms(copy, reps);
  const double t_dct2 = min_ms([&] { dct2->execute(rho, B); }, reps);
  const double t_c3 = min_ms([&] { copy(), c3->execute(B); }, reps) - t_copy;
  const double t_sx = min_ms([&] { copy(), sx->execute(B); }, reps) - t_copy;
  const double t_sy = min_ms([&] { copy(), sy->execute(B); }, reps) - t_copy;
  const double t_fields = min_ms([&] { sys.fields(rho, C, D); }, reps);
  const double t_step = min_ms([&] { sys.solve(rho, B, C, D); }, reps);
  std::printf(
      "%zu^2 %s: DCT-II %.3f ms, DCT-III %.3f (%.2f x), DXST-III x DCT-III %.3f (%.2f x), "
      "DCT-III x DXST-III %.3f (%.2f x); fields %.3f (%.2f x), step %.3f (%.2f x)\n",
      n, sizeof(T) == 4 ? "float32" : "float64", t_dct2, t_c3, t_c3 / t_dct2, t_sx, t_sx / t_dct2,
      t_sy, t_sy / t_dct2, t_fields, t_fields / t_dct2, t_step, t_step / t_dct2);
}

}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 0;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n < 2 || reps < 1) {
    std::fprintf(stderr, "usage: electrostatics_parts N [reps]   (N >= 2, reps >= 1)\n");
    return 2;
  }
  try {
    run<float>(static_cast<std::size_t>(n), reps);
    run<double>(static_cast<std::size_t>(n), reps);
  } catch (const dctx::Error& e) {
    std::fprintf(stderr, "electrostatics_parts: %s\n", e.what());
    return 1;
  }
}
