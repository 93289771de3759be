// SPDX-License-Identifier: BSD-3-Clause
// The CUDA electrostatic step's arithmetic on the CPU (src/cuda/electrostatics_math.hpp): the
// device pipeline (DCT-II into field_x, weigh_bin over every bin, the three type-3 transforms in
// place) run with the CPU's plans equals ElectrostaticSystem::fields on the CPU bit for bit in
// both fields, and solve() to rounding in the potential and field_x (the CPU's solve() shares
// the potential's pass along v with field_x); its Parseval energy equals fields()' and solve()'s
// to rounding, on random densities in float and double with non-square grids and bins. Outputs
// are poisoned first.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "cuda/electrostatics_math.hpp"
#include "dctx/electrostatics.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

namespace es = cuda_math::es;

PlanDesc type3(const ElectrostaticsDesc& s, AxisTransform t0, AxisTransform t1) {
  return es::step_plan(s, t0, t1, BackendKind::CPU);
}

template <class T>
void check(std::size_t m, std::size_t n, double bw, double bh, unsigned seed) {
  ElectrostaticsDesc d{.shape = {m, n},
                       .bin_width = bw,
                       .bin_height = bh,
                       .precision = sizeof(T) == 4 ? Precision::F32 : Precision::F64,
                       .backend = BackendKind::CPU};
  const ElectrostaticSystem sys(d);
  const Shape& s = d.shape;
  const std::vector<T> rho = oracle::random_vector<T>(m * n, seed);
  const T poison = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> pot(m * n, poison), fx = pot, fy = pot;
  const double solve_energy = sys.solve(ConstView<T>(rho.data(), s), View<T>(pot.data(), s),
                                        View<T>(fx.data(), s), View<T>(fy.data(), s));
  std::vector<T> gx(m * n, poison), gy = gx;
  const double fields_energy =
      sys.fields(ConstView<T>(rho.data(), s), View<T>(gx.data(), s), View<T>(gy.data(), s));

  // The device pipeline, with the CPU's plans for the transforms.
  std::vector<T> dp(m * n, poison), dx = dp, dy = dp;
  cached_plan(type3(d, {Kind::DCT, 2}, {Kind::DCT, 2}))
      ->execute(ConstView<T>(rho.data(), s), View<T>(dx.data(), s));
  const std::vector<double> t = es::weight_tables(m, n);
  es::WeightPass<T> w;
  w.m = static_cast<long long>(m);
  w.n = static_cast<long long>(n);
  w.pot = dp.data();
  w.fx = dx.data();
  w.fy = dy.data();
  w.ps[0] = w.xs[0] = w.ys[0] = static_cast<long long>(n);
  w.ps[1] = w.xs[1] = w.ys[1] = 1;
  w.wu = t.data();
  w.wv = t.data() + m;
  w.wv2 = t.data() + m + n;
  w.scale = 1.0 / (double(m) * double(n) * bw * bh);
  double parseval = 0;
  for (long long i = 0; i < w.m; ++i)
    for (long long j = 0; j < w.n; ++j) parseval += es::weigh_bin(w, i, j);
  const AxisTransform c{Kind::DCT, 3}, x{Kind::DXST, 3};
  cached_plan(type3(d, x, c))->execute(View<T>(dx.data(), s));
  cached_plan(type3(d, c, x))->execute(View<T>(dy.data(), s));
  cached_plan(type3(d, c, c))->execute(View<T>(dp.data(), s));

  EXPECT_EQ(std::memcmp(dx.data(), gx.data(), m * n * sizeof(T)), 0) << "field_x";
  EXPECT_EQ(std::memcmp(dy.data(), gy.data(), m * n * sizeof(T)), 0) << "field_y";
  EXPECT_EQ(std::memcmp(dy.data(), fy.data(), m * n * sizeof(T)), 0) << "solve()'s field_y";
  const double bound = oracle::tolerance<T>(m * n);
  const auto rel = [](const std::vector<T>& got, const std::vector<T>& want) {
    return oracle::rel_l2(got, std::vector<oracle::LD>(want.begin(), want.end()));
  };
  EXPECT_LE(rel(dp, pot), bound) << "potential";
  EXPECT_LE(rel(dx, fx), bound) << "solve()'s field_x";
  const double energy = parseval * double(m) * double(n) / 4;
  EXPECT_NEAR(energy, fields_energy, 1e-12 * std::fabs(fields_energy)) << m << " x " << n;
  EXPECT_EQ(solve_energy, fields_energy) << "the same Parseval sum";
  EXPECT_GT(std::fabs(energy), 0.0);
}

TEST(CudaElectrostaticsMath, TheDevicePipelineIsTheCpuStep) {
  check<double>(16, 12, 1.0, 1.0, 1);
  check<double>(33, 20, 0.5, 2.0, 2);
  check<float>(24, 40, 1.5, 0.75, 3);
  check<float>(9, 9, 1.0, 1.0, 4);
}

// A test must be able to fail: a wrong table shows.
TEST(CudaElectrostaticsMath, AWrongTableIsCaught) {
  std::vector<double> t = es::weight_tables(8, 8);
  std::vector<double> fx(64, 1.0), fy(64), pot(64);
  es::WeightPass<double> w;
  w.m = w.n = 8;
  w.pot = pot.data();
  w.fx = fx.data();
  w.fy = fy.data();
  w.ps[0] = w.xs[0] = w.ys[0] = 8;
  w.ps[1] = w.xs[1] = w.ys[1] = 1;
  w.wu = t.data();
  w.wv = t.data() + 8;
  w.wv2 = t.data() + 16;
  const double good = es::weigh_bin(w, 3, 5);
  fx[3 * 8 + 5] = 1.0;
  t[16 + 5] *= 1.01;
  EXPECT_NE(es::weigh_bin(w, 3, 5), good);
}

}  // namespace
}  // namespace dctx
