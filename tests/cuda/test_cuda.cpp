// SPDX-License-Identifier: BSD-3-Clause
// The CUDA back end on a GPU (label cuda): the fused route against the CPU back end and the oracle
// with the suite's error bound, on device pointers and through host views; the host route; the
// errors of the device API. Every test but the first skips, with the back end's reason, on a
// machine without a CUDA device; the first checks what such a machine reports.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dctx/backend.hpp"
#include "dctx/cuda.hpp"
#include "dctx/dctx.hpp"
#include "dctx/electrostatics.hpp"
#include "expect_error.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using testing_support::expect_error;

bool cuda_usable() { return backend_info(BackendKind::CUDA).usable; }

TEST(CudaNoDevice, SaysWhyAndRefusesPlans) {
  if (cuda_usable()) GTEST_SKIP() << "this machine has a CUDA device";
  const BackendInfo i = backend_info(BackendKind::CUDA);
  EXPECT_TRUE(i.built);
  EXPECT_NE(i.reason.find("no CUDA device"), std::string::npos) << i.reason;
  EXPECT_TRUE(cuda::devices().empty());
  try {
    Plan p(PlanDesc{.shape = {8, 8}, .backend = BackendKind::CUDA});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BackendUnavailable);
    EXPECT_NE(std::string(e.what()).find("no CUDA device"), std::string::npos) << e.what();
  }
}

// The device entry of the electrostatic step checks its system before touching a device: this
// runs on every machine (the pointers are never dereferenced).
TEST(CudaApi, ElectrostaticsNamesWhatItRefuses) {
  static float fake[4 * 64];
  const ElectrostaticSystem cpu(
      {.shape = {8, 8}, .precision = Precision::F32, .backend = BackendKind::CPU});
  testing_support::expect_error(
      [&] {
        cuda::electrostatics(cpu, {fake, {}}, {fake + 64, {}}, {fake + 128, {}}, {fake + 192, {}});
      },
      "the system runs on the cpu back end, not cuda (ElectrostaticsDesc::backend)");
}

class Cuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_usable()) GTEST_SKIP() << backend_info(BackendKind::CUDA).reason;
  }
};

// Device memory freed with its owner.
template <class T>
struct DeviceVector {
  T* p = nullptr;
  std::size_t n = 0;
  explicit DeviceVector(const std::vector<T>& host) : n(host.size()) {
    EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(p, host.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~DeviceVector() { cudaFree(p); }
  std::vector<T> get() const {
    std::vector<T> h(n);
    EXPECT_EQ(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
  }
};

std::size_t total(const Shape& s) {
  std::size_t t = 1;
  for (auto e : s) t *= e;
  return t;
}

// One description on the GPU (device pointers, then host views) against the oracle and the CPU.
template <class T>
void check_against_oracle_and_cpu(PlanDesc d, unsigned seed) {
  d.precision = sizeof(T) == 4 ? Precision::F32 : Precision::F64;
  d.backend = BackendKind::CUDA;
  const Plan gpu(d);
  d.backend = BackendKind::CPU;
  const Plan cpu(d);
  const PlanDesc& n = gpu.desc();
  const std::size_t len = total(n.shape);
  std::size_t nmax = 1;
  for (int a : n.axes) nmax *= n.shape[static_cast<std::size_t>(a)];
  const std::vector<T> x = oracle::random_vector<T>(len, seed);
  const bool orth = *n.orthogonalize;
  const auto want = oracle::reference_nd(n.shape, n.axes, n.transforms, n.norm, orth, n.direction,
                                         std::vector<oracle::LD>(x.begin(), x.end()));
  const std::string what = gpu.describe();
  // Device pointers, the output poisoned.
  DeviceVector<T> in(x), out(std::vector<T>(len, std::numeric_limits<T>::quiet_NaN()));
  cuda::execute(gpu, cuda::DeviceView<const T>{in.p, {}}, cuda::DeviceView<T>{out.p, {}});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<T> got = out.get();
  EXPECT_LE(oracle::rel_l2(got, want), oracle::tolerance<T>(nmax)) << what;
  // Host views.
  std::vector<T> host(len, std::numeric_limits<T>::quiet_NaN()), ref(len);
  gpu.execute(ConstView<T>(x.data(), n.shape), View<T>(host.data(), n.shape));
  cpu.execute(ConstView<T>(x.data(), n.shape), View<T>(ref.data(), n.shape));
  EXPECT_LE(oracle::rel_l2(host, want), oracle::tolerance<T>(nmax)) << what << " (host views)";
  EXPECT_LE(oracle::rel_l2(host, std::vector<oracle::LD>(ref.begin(), ref.end())),
            2 * oracle::tolerance<T>(nmax))
      << what << " against the CPU";
}

TEST_F(Cuda, FusedRouteMatchesTheOracleAndTheCpu) {
  unsigned seed = 1;
  const std::vector<PlanDesc> descs = {
      {.shape = {1024}},
      {.shape = {999}, .type = 3},
      {.shape = {64, 48}, .norm = Norm::Ortho},
      {.shape = {63, 50}, .kind = Kind::DST, .norm = Norm::Ortho},
      {.shape = {32, 40},
       .transforms = {{Kind::DCT, 2}, {Kind::DXST, 2}},
       .direction = Direction::Inverse},  // IDCT_IDXST
      {.shape = {40, 32},
       .transforms = {{Kind::DXST, 2}, {Kind::DCT, 2}},
       .direction = Direction::Inverse},  // IDXST_IDCT
      {.shape = {3, 16, 24}, .axes = {1, 2}, .norm = Norm::Forward},
      {.shape = {16, 12, 10}, .norm = Norm::Ortho, .direction = Direction::Inverse},
      {.shape = {2, 9, 8, 7}, .axes = {1, 2, 3}, .kind = Kind::DST},
  };
  for (const PlanDesc& d : descs) {
    check_against_oracle_and_cpu<float>(d, seed++);
    check_against_oracle_and_cpu<double>(d, seed++);
  }
}

TEST_F(Cuda, LargeSquareMatchesTheCpu) {
  for (Direction dir : {Direction::Forward, Direction::Inverse})
    check_against_oracle_and_cpu<float>(
        PlanDesc{.shape = {512, 512}, .norm = Norm::Ortho, .direction = dir}, 99);
}

TEST_F(Cuda, WhatTheKernelsDoNotCoverGoesThroughTheCpu) {
  const PlanDesc d{.shape = {12, 10}, .type = 4};
  const Plan p([&] {
    PlanDesc c = d;
    c.backend = BackendKind::CUDA;
    return c;
  }());
  EXPECT_NE(p.describe().find("through the CPU"), std::string::npos) << p.describe();
  check_against_oracle_and_cpu<double>(d, 5);
  check_against_oracle_and_cpu<float>(PlanDesc{.shape = {12, 10}, .axes = {0}}, 6);
}

// Algorithm 3's thresholding in the rotation kernels: the same bits as the plain plan with a
// separate pass after (forward) or before (inverse), about half the coefficients below it.
TEST_F(Cuda, ThresholdingEqualsASeparatePass) {
  for (Direction dir : {Direction::Forward, Direction::Inverse}) {
    PlanDesc d{.shape = {64, 48},
               .precision = Precision::F32,
               .norm = Norm::Ortho,
               .direction = dir,
               .backend = BackendKind::CUDA};
    const std::vector<float> x = oracle::random_vector<float>(64 * 48, 21);
    const Plan plain(d);
    std::vector<float> y(x.size());
    plain.execute(ConstView<float>(x.data(), d.shape), View<float>(y.data(), d.shape));
    const std::vector<float>& coeffs = dir == Direction::Forward ? y : x;
    std::vector<float> mags(coeffs.size());
    for (std::size_t i = 0; i < mags.size(); ++i) mags[i] = std::fabs(coeffs[i]);
    std::nth_element(mags.begin(), mags.begin() + mags.size() / 2, mags.end());
    d.coefficient_threshold = mags[mags.size() / 2];
    const auto pass = [&](std::vector<float> v) {
      for (float& e : v) e = std::fabs(e) < mags[mags.size() / 2] ? 0.0f : e;
      return v;
    };
    const Plan thr(d);
    EXPECT_EQ(thr.describe().find("through the CPU"), std::string::npos) << thr.describe();
    std::vector<float> want = pass(y), got(x.size(), NAN);
    if (dir == Direction::Inverse) {
      const std::vector<float> xt = pass(x);
      plain.execute(ConstView<float>(xt.data(), d.shape), View<float>(want.data(), d.shape));
    }
    thr.execute(ConstView<float>(x.data(), d.shape), View<float>(got.data(), d.shape));
    EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0)
        << thr.describe();
  }
}

// DREAMPlace's electrostatic step on device arrays against the same system on the CPU: the
// potential, the fields and the energy within the transforms' rounding; the fields alone; what it
// refuses, it names.
TEST_F(Cuda, ElectrostaticsOnDeviceArrays) {
  const std::size_t m = 96, n = 80;
  const Shape s{m, n};
  const std::vector<double> rho = oracle::random_vector<double>(m * n, 31);
  ElectrostaticsDesc d{.shape = s, .bin_width = 0.5, .bin_height = 2.0};
  d.backend = BackendKind::CPU;
  const ElectrostaticSystem cpu(d);
  std::vector<double> pot(m * n), fx(m * n), fy(m * n);
  const double e_cpu = cpu.solve(ConstView<double>(rho.data(), s), View<double>(pot.data(), s),
                                 View<double>(fx.data(), s), View<double>(fy.data(), s));
  d.backend = BackendKind::CUDA;
  const ElectrostaticSystem gpu(d);
  const std::vector<double> poison(m * n, std::numeric_limits<double>::quiet_NaN());
  DeviceVector<double> drho(rho), dpot(poison), dfx(poison), dfy(poison),
      denergy(std::vector<double>{NAN});
  cuda::electrostatics(gpu, {drho.p, {}}, {dpot.p, {}}, {dfx.p, {}}, {dfy.p, {}}, denergy.p);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const double tol = oracle::tolerance<double>(m * n);
  EXPECT_LE(oracle::rel_l2(dpot.get(), std::vector<oracle::LD>(pot.begin(), pot.end())), tol);
  EXPECT_LE(oracle::rel_l2(dfx.get(), std::vector<oracle::LD>(fx.begin(), fx.end())), tol);
  EXPECT_LE(oracle::rel_l2(dfy.get(), std::vector<oracle::LD>(fy.begin(), fy.end())), tol);
  EXPECT_NEAR(denergy.get()[0], e_cpu, 1e-9 * std::fabs(e_cpu));
  // The fields alone, into row-padded arrays.
  const std::size_t pitch = n + 5;
  DeviceVector<double> pfx(std::vector<double>(m * pitch, NAN)), pfy(pfx.get());
  const std::vector<std::ptrdiff_t> padded{std::ptrdiff_t(pitch), 1};
  cuda::electrostatics(gpu, {drho.p, {}}, {nullptr, {}}, {pfx.p, padded}, {pfy.p, padded});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<double> hx = pfx.get();
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j)
      ASSERT_NEAR(hx[i * pitch + j], fx[i * n + j], 1e-9 * (1 + std::fabs(fx[i * n + j])));
  using testing_support::expect_error;
  expect_error(
      [&] {
        cuda::electrostatics(gpu, {drho.p, {}}, {dpot.p, {}}, {dfx.p, {}}, {dfx.p, {}});
      },
      "field_x and field_y overlap");
  expect_error(
      [&] {
        cuda::electrostatics(cpu, {drho.p, {}}, {dpot.p, {}}, {dfx.p, {}}, {dfy.p, {}});
      },
      "not cuda");
  expect_error(
      [&] {
        cuda::electrostatics(gpu, {rho.data(), {}}, {dpot.p, {}}, {dfx.p, {}}, {dfy.p, {}});
      },
      "density is a host pointer");
}

// ElectrostaticSystem::solve() and fields() of a CUDA system on host arrays run the device step
// (Backend::make_electrostatics: one upload, one download per output): the fields bit for bit
// those of dctx::cuda::electrostatics on device arrays, everything within the transforms'
// rounding of the CPU's, from a Fortran-ordered density into row-padded, NaN-poisoned outputs.
TEST_F(Cuda, ElectrostaticsOnHostArrays) {
  const auto each = [&]<class T>(T) {
    const std::size_t m = 48, n = 66, pitch = n + 3;
    const Shape s{m, n};
    std::vector<T> rho(m * n), rho_f(m * n);
    {
      const std::vector<double> r = oracle::random_vector<double>(m * n, 41);
      for (std::size_t i = 0; i < m * n; ++i) rho[i] = T(std::fabs(r[i]));
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) rho_f[j * m + i] = rho[i * n + j];
    }
    ElectrostaticsDesc d{.shape = s, .bin_width = 1.5, .bin_height = 0.5};
    d.precision = sizeof(T) == 4 ? Precision::F32 : Precision::F64;
    const ElectrostaticSystem cpu(d);
    std::vector<T> pot(m * n), fx(m * n), fy(m * n);
    const double e_cpu = cpu.solve(ConstView<T>(rho.data(), s), View<T>(pot.data(), s),
                                   View<T>(fx.data(), s), View<T>(fy.data(), s));
    d.backend = BackendKind::CUDA;
    const ElectrostaticSystem gpu(d);
    // The device route on device arrays.
    const std::vector<T> poison(m * n, std::numeric_limits<T>::quiet_NaN());
    DeviceVector<T> drho(rho), dpot(poison), dfx(poison), dfy(poison);
    cuda::electrostatics(gpu, {drho.p, {}}, {dpot.p, {}}, {dfx.p, {}}, {dfy.p, {}});
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<T> want[3] = {dpot.get(), dfx.get(), dfy.get()};
    // Host arrays: Fortran-ordered density, row-padded outputs.
    std::vector<T> out[3];
    for (auto& o : out) o.assign(m * pitch, std::numeric_limits<T>::quiet_NaN());
    const std::vector<std::ptrdiff_t> padded{std::ptrdiff_t(pitch), 1};
    const ConstView<T> density(rho_f.data(), s, {1, std::ptrdiff_t(m)});
    const auto view = [&](int k) { return View<T>(out[k].data(), s, padded); };
    const double e = gpu.solve(density, view(0), view(1), view(2));
    const std::vector<T>* cpu_out[3] = {&pot, &fx, &fy};
    const double tol = 2 * oracle::tolerance<T>(n) * std::sqrt(2.0);
    for (int k = 0; k < 3; ++k) {
      std::vector<T> dense(m * n);
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j) dense[i * n + j] = out[k][i * pitch + j];
        for (std::size_t j = n; j < pitch; ++j) EXPECT_TRUE(std::isnan(out[k][i * pitch + j]));
      }
      EXPECT_EQ(dense, want[k]) << "output " << k;
      const std::vector<T>& c = *cpu_out[k];
      EXPECT_LE(oracle::rel_l2(dense, std::vector<oracle::LD>(c.begin(), c.end())), tol) << k;
    }
    EXPECT_NEAR(e, e_cpu, tol * std::fabs(e_cpu));
    // The fields alone.
    for (auto& o : out) o.assign(m * pitch, std::numeric_limits<T>::quiet_NaN());
    const double e2 = gpu.fields(density, view(1), view(2));
    EXPECT_NEAR(e2, e_cpu, tol * std::fabs(e_cpu));
    EXPECT_TRUE(std::isnan(out[0][0]));
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) ASSERT_EQ(out[1][i * pitch + j], want[1][i * n + j]);
  };
  each(0.0);
  each(0.0f);
}

TEST_F(Cuda, InPlaceAndStridedDeviceArrays) {
  const Plan p(PlanDesc{.shape = {16, 20},
                        .precision = Precision::F32,
                        .norm = Norm::Ortho,
                        .backend = BackendKind::CUDA});
  const Plan cpu(PlanDesc{.shape = {16, 20}, .precision = Precision::F32, .norm = Norm::Ortho});
  const std::vector<float> x = oracle::random_vector<float>(320, 11);
  std::vector<float> want(320);
  cpu.execute(ConstView<float>(x.data(), {16, 20}), View<float>(want.data(), {16, 20}));
  const std::vector<oracle::LD> w(want.begin(), want.end());
  DeviceVector<float> a(x);
  cuda::execute(p, cuda::DeviceView<const float>{a.p, {}}, cuda::DeviceView<float>{a.p, {}});
  EXPECT_LE(oracle::rel_l2(a.get(), w), 2 * oracle::tolerance<float>(320));
  // Transposed views: strides (1, 16) on both sides.
  std::vector<float> xt(320);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 20; ++j) xt[j * 16 + i] = x[i * 20 + j];
  DeviceVector<float> b(xt), c(std::vector<float>(320, std::nanf("")));
  cuda::execute(p, cuda::DeviceView<const float>{b.p, {1, 16}},
                cuda::DeviceView<float>{c.p, {1, 16}});
  const std::vector<float> ct = c.get();
  std::vector<float> back(320);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 20; ++j) back[i * 20 + j] = ct[j * 16 + i];
  EXPECT_LE(oracle::rel_l2(back, w), 2 * oracle::tolerance<float>(320));
}

TEST_F(Cuda, DeviceApiErrorsNameTheProblem) {
  const Plan p(
      PlanDesc{.shape = {8, 8}, .precision = Precision::F32, .backend = BackendKind::CUDA});
  std::vector<float> host(64, 1.0f);
  DeviceVector<float> dev(host);
  expect_error(
      [&] {
        cuda::execute(p, cuda::DeviceView<const float>{host.data(), {}},
                      cuda::DeviceView<float>{dev.p, {}});
      },
      "in is a host pointer");
  expect_error(
      [&] {
        cuda::execute(p, cuda::DeviceView<const float>{dev.p, {}},
                      cuda::DeviceView<float>{nullptr, {}});
      },
      "out is a null pointer");
  expect_error(
      [&] {
        cuda::execute(p, cuda::DeviceView<const float>{dev.p, {1}},
                      cuda::DeviceView<float>{dev.p, {}});
      },
      "in has 1 strides");
  DeviceVector<double> d64(std::vector<double>(64, 1.0));
  expect_error(
      [&] {
        cuda::execute(p, cuda::DeviceView<const double>{d64.p, {}},
                      cuda::DeviceView<double>{d64.p, {}});
      },
      "float64");
  const Plan cpu(PlanDesc{.shape = {8, 8}, .precision = Precision::F32});
  expect_error(
      [&] {
        cuda::execute(cpu, cuda::DeviceView<const float>{dev.p, {}},
                      cuda::DeviceView<float>{dev.p, {}});
      },
      "not cuda");
  expect_error(
      [&] {
        Plan q(PlanDesc{.shape = {8}, .backend = BackendKind::CUDA, .device = {.select = "99"}});
      },
      "device.select '99'");
}

TEST_F(Cuda, CallerWorkspaceAndStream) {
  const Plan p(PlanDesc{.shape = {32, 32},
                        .precision = Precision::F64,
                        .norm = Norm::Ortho,
                        .backend = BackendKind::CUDA});
  ASSERT_GT(p.workspace_bytes(), 0u);
  void* ws = nullptr;
  ASSERT_EQ(cudaMalloc(&ws, p.workspace_bytes()), cudaSuccess);
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  const std::vector<double> x = oracle::random_vector<double>(1024, 3);
  DeviceVector<double> a(x), b(std::vector<double>(1024, std::nan("")));
  cuda::execute(p, cuda::DeviceView<const double>{a.p, {}}, cuda::DeviceView<double>{b.p, {}}, s,
                ws, p.workspace_bytes());
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  const auto want =
      oracle::reference_nd({32, 32}, {0, 1}, {{Kind::DCT, 2}, {Kind::DCT, 2}}, Norm::Ortho, true,
                           Direction::Forward, std::vector<oracle::LD>(x.begin(), x.end()));
  EXPECT_LE(oracle::rel_l2(b.get(), want), oracle::tolerance<double>(1024));
  expect_error(
      [&] {
        cuda::execute(p, cuda::DeviceView<const double>{a.p, {}}, cuda::DeviceView<double>{b.p, {}},
                      s, ws, 16);
      },
      "workspace holds 16 bytes");
  cudaStreamDestroy(s);
  cudaFree(ws);
}

// Calls that bring no workspace share the plan's own: from four threads, each on its own stream,
// each a different input, every result must be its own input's transform (the plan orders the
// uses of its workspace across streams with an event).
TEST_F(Cuda, OwnWorkspaceSharedByThreadsOnSeveralStreams) {
  const Shape shape = {96, 128};
  const Plan gpu(PlanDesc{.shape = shape,
                          .precision = Precision::F32,
                          .norm = Norm::Ortho,
                          .backend = BackendKind::CUDA});
  const Plan cpu(PlanDesc{.shape = shape, .precision = Precision::F32, .norm = Norm::Ortho});
  constexpr int kThreads = 4, kCalls = 12;
  const std::size_t len = total(shape);
  std::vector<std::vector<float>> x(kThreads * kCalls), got(kThreads * kCalls);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = oracle::random_vector<float>(len, static_cast<unsigned>(700 + i));
  std::vector<std::thread> team;
  for (int t = 0; t < kThreads; ++t)
    team.emplace_back([&, t] {
      cudaStream_t s = nullptr;
      ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
      std::vector<std::unique_ptr<DeviceVector<float>>> ins, outs;
      for (int c = 0; c < kCalls; ++c) {
        ins.push_back(std::make_unique<DeviceVector<float>>(x[t * kCalls + c]));
        outs.push_back(std::make_unique<DeviceVector<float>>(std::vector<float>(len, NAN)));
      }
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the uploads before the calls
      for (int c = 0; c < kCalls; ++c)
        cuda::execute(gpu, cuda::DeviceView<const float>{ins[c]->p, {}},
                      cuda::DeviceView<float>{outs[c]->p, {}}, s);
      ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
      for (int c = 0; c < kCalls; ++c) got[t * kCalls + c] = outs[c]->get();
      cudaStreamDestroy(s);
    });
  for (std::thread& th : team) th.join();
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::vector<float> want(len);
    cpu.execute(ConstView<float>(x[i].data(), shape), View<float>(want.data(), shape));
    EXPECT_LE(oracle::rel_l2(got[i], std::vector<oracle::LD>(want.begin(), want.end())),
              2 * oracle::tolerance<float>(len))
        << "call " << i;
  }
}

}  // namespace
}  // namespace dctx
