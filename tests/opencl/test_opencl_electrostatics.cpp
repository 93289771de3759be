// SPDX-License-Identifier: BSD-3-Clause
// DREAMPlace's electrostatic step whole on the OpenCL device (src/opencl/electrostatics.cpp,
// kernels/electrostatics.cl): dctx::opencl::electrostatics on device buffers (offsets, strides,
// one buffer shared by several arrays, the fields alone, the energy at an offset) against the CPU
// back end's step with the suite's bound; the host-memory solve() of an OpenCL system, which runs
// the same kernels, bit for bit; two threads on one system; rows over several work-groups of the
// weighting kernel; the refusals, with nothing written. With cl_khr_fp64 masked (ctest
// opencl.fp64_masked) the same tests run in float32, the weighting in float (its transcription
// too), and float64 systems are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <thread>

#include "core/electrostatics_backend.hpp"
#include "dctx/dctx.hpp"
#include "dctx/electrostatics.hpp"
#include "dctx/opencl.hpp"
#include "expect_error.hpp"
#include "opencl/opencl_test.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using oracle::LD;
using testing_support::expect_error;

class OpenClElectrostatics : public test::OpenClTest {
 protected:
  void SetUp() override {
    test::OpenClTest::SetUp();
    if (IsSkipped()) return;
    fp64_ = opencl::context().info.fp64;
  }
  bool fp64_ = true;  // false: no cl_khr_fp64 (masked), so float32 only, weighed in float
};

ElectrostaticsDesc system_desc(std::size_t m, std::size_t n, Precision p,
                               BackendKind b = BackendKind::OpenCL) {
  ElectrostaticsDesc d;
  d.shape = {m, n};
  d.bin_width = 2;
  d.bin_height = 0.75;
  d.precision = p;
  d.backend = b;
  return d;
}

template <class T>
std::vector<T> density(std::size_t count, unsigned seed) {
  std::vector<T> r = oracle::random_vector<T>(count, seed);
  for (T& v : r) v = std::fabs(v);
  return r;
}

// The CPU back end's step: potential, field_x, field_y and the energy.
template <class T>
struct Step {
  std::vector<T> pot, fx, fy;
  double energy = 0;
};
template <class T>
Step<T> cpu_step(std::size_t m, std::size_t n, const std::vector<T>& rho, BackendKind b) {
  Step<T> s;
  for (auto* v : {&s.pot, &s.fx, &s.fy}) v->assign(m * n, std::numeric_limits<T>::quiet_NaN());
  const Precision p = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  s.energy = ElectrostaticSystem(system_desc(m, n, p, b))
                 .solve(ConstView<T>(rho.data(), {m, n}), View<T>(s.pot.data(), {m, n}),
                        View<T>(s.fx.data(), {m, n}), View<T>(s.fy.data(), {m, n}));
  return s;
}

// A cl_mem of `count` elements of T in dctx's context for the system's device, NaN-poisoned.
template <class T>
struct DeviceArray {
  opencl::Context ctx;
  cl_mem mem = nullptr;
  std::size_t count = 0;
  DeviceArray(const opencl::Context& c, std::size_t n) : ctx(c), count(n) {
    cl_int err = CL_SUCCESS;
    mem = clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, n * sizeof(T), nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    write(std::vector<T>(n, std::numeric_limits<T>::quiet_NaN()));
  }
  ~DeviceArray() { clReleaseMemObject(mem); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  void write(const std::vector<T>& v) {
    EXPECT_EQ(clEnqueueWriteBuffer(ctx.queue, mem, CL_TRUE, 0, v.size() * sizeof(T), v.data(), 0,
                                   nullptr, nullptr),
              CL_SUCCESS);
  }
  std::vector<T> read() const {
    std::vector<T> v(count);
    EXPECT_EQ(clEnqueueReadBuffer(ctx.queue, mem, CL_TRUE, 0, count * sizeof(T), v.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    return v;
  }
};

// The m x n array at element offset `off` with row stride `rs` (column stride 1) out of `all`.
template <class T>
std::vector<T> gather(const std::vector<T>& all, std::size_t off, std::size_t rs, std::size_t m,
                      std::size_t n) {
  std::vector<T> r(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) r[i * n + j] = all[off + i * rs + j];
  return r;
}

template <class T>
double rel_l2(const std::vector<T>& got, const std::vector<T>& want) {
  return oracle::rel_l2(got, std::vector<LD>(want.begin(), want.end()));
}

// Two routes' steps on an m x n grid agree within the suite's bound for the two 2D transforms
// each output goes through, on both sides (the bound of test_opencl.cpp's ElectrostaticStep).
template <class T>
double step_bound(std::size_t m, std::size_t n) {
  return 2 * oracle::tolerance<T>(std::max(m, n)) * std::sqrt(2.0);
}
template <class T>
void expect_within_bound(const Step<T>& got, const Step<T>& want, std::size_t m, std::size_t n) {
  const double tol = step_bound<T>(m, n);
  EXPECT_LE(rel_l2(got.pot, want.pot), tol) << "potential";
  EXPECT_LE(rel_l2(got.fx, want.fx), tol) << "field_x";
  EXPECT_LE(rel_l2(got.fy, want.fy), tol) << "field_y";
  EXPECT_NEAR(got.energy, want.energy, tol * std::fabs(want.energy));
}

// Device buffers with offsets and padded rows; the three outputs in one buffer: against the
// CPU's step, every element written (the poison gone), the energy at an offset.
template <class T>
void device_step_against_cpu(std::size_t m, std::size_t n, bool with_potential, unsigned seed) {
  const Precision p = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  const ElectrostaticSystem sys(system_desc(m, n, p));
  const opencl::Context ctx = opencl::context(sys.desc().device.select);
  const std::size_t rs = n + 3, block = m * rs;  // padded rows
  const std::vector<T> rho = density<T>(m * n, seed);
  DeviceArray<T> din(ctx, 5 + block);
  std::vector<T> staged(5 + block, T(-1));
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) staged[5 + i * rs + j] = rho[i * n + j];
  din.write(staged);
  DeviceArray<T> outs(ctx, 3 * block + 7);  // potential at 7, field_x after it, field_y last
  DeviceArray<double> energy(ctx, 5);
  const std::ptrdiff_t srs = static_cast<std::ptrdiff_t>(rs);
  const opencl::Buffer pot{with_potential ? outs.mem : nullptr, 7, {srs, 1}};
  opencl::electrostatics(sys, {din.mem, 5, {srs, 1}}, pot, {outs.mem, 7 + block, {srs, 1}},
                         {outs.mem, 7 + 2 * block, {srs, 1}}, energy.mem, 3);
  ASSERT_EQ(clFinish(ctx.queue), CL_SUCCESS);
  const Step<T> want = cpu_step<T>(m, n, rho, BackendKind::CPU);
  const std::vector<T> all = outs.read();
  const double tol = step_bound<T>(m, n);
  SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n) + " " + std::string(to_string(p)));
  if (with_potential) {
    EXPECT_LE(rel_l2(gather(all, 7, rs, m, n), want.pot), tol) << "potential";
  } else {
    const std::vector<T> untouched = gather(all, 7, rs, m, n);
    for (T v : untouched) ASSERT_TRUE(std::isnan(v)) << "the potential was written";
  }
  EXPECT_LE(rel_l2(gather(all, 7 + block, rs, m, n), want.fx), tol) << "field_x";
  EXPECT_LE(rel_l2(gather(all, 7 + 2 * block, rs, m, n), want.fy), tol) << "field_y";
  const std::vector<double> e = energy.read();
  EXPECT_NEAR(e[3], want.energy, tol * std::fabs(want.energy));
  for (std::size_t k : {0, 1, 2, 4}) EXPECT_TRUE(std::isnan(e[k])) << "energy[" << k << "]";
}

TEST_F(OpenClElectrostatics, DeviceBuffersAgainstTheCpu) {
  if (fp64_) device_step_against_cpu<double>(48, 66, true, 301);
  device_step_against_cpu<float>(48, 66, true, 302);
  if (fp64_) device_step_against_cpu<double>(33, 17, false, 303);
  device_step_against_cpu<float>(33, 17, false, 303);
  device_step_against_cpu<float>(1, 40, true, 304);
  // Rows of two work-groups of the weighting kernel, the second part empty; more partial sums of
  // the energy than the summing work-group has items.
  device_step_against_cpu<float>(600, 500, true, 305);
}

// solve() on host arrays of an OpenCL system runs the same kernels as the device API on dense
// buffers: the same bits. Strided host views too (staged through dense buffers), and the energy
// without a buffer of the caller's.
TEST_F(OpenClElectrostatics, HostSolveIsTheDeviceStep) {
  const std::size_t m = 40, n = 24;
  const std::vector<float> rho = density<float>(m * n, 310);
  const ElectrostaticSystem sys(system_desc(m, n, Precision::F32));
  const opencl::Context ctx = opencl::context(sys.desc().device.select);
  DeviceArray<float> din(ctx, m * n), pot(ctx, m * n), fx(ctx, m * n), fy(ctx, m * n);
  DeviceArray<double> energy(ctx, 1);
  din.write(rho);
  opencl::electrostatics(sys, {din.mem}, {pot.mem}, {fx.mem}, {fy.mem}, energy.mem);
  const Step<float> host = cpu_step<float>(m, n, rho, BackendKind::OpenCL);
  EXPECT_EQ(pot.read(), host.pot);
  EXPECT_EQ(fx.read(), host.fx);
  EXPECT_EQ(fy.read(), host.fy);
  EXPECT_EQ(energy.read()[0], host.energy);
  // Transposed host views of the outputs: the same values where they land.
  std::vector<float> tp(m * n, NAN), tx(m * n, NAN), ty(m * n, NAN);
  const std::vector<std::ptrdiff_t> t_strides{1, static_cast<std::ptrdiff_t>(m)};
  const double e = sys.solve(
      ConstView<float>(rho.data(), {m, n}), View<float>(tp.data(), {m, n}, t_strides),
      View<float>(tx.data(), {m, n}, t_strides), View<float>(ty.data(), {m, n}, t_strides));
  EXPECT_EQ(e, host.energy);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      ASSERT_EQ(tp[j * m + i], host.pot[i * n + j]);
      ASSERT_EQ(tx[j * m + i], host.fx[i * n + j]);
      ASSERT_EQ(ty[j * m + i], host.fy[i * n + j]);
    }
}

// The weighting fused into the DCT-II's last pass gives the bits of the separate route: the
// device's DCT-II, then the CPU's weighting arithmetic (transcribed here, in double, in the same
// order; in float, W, without cl_khr_fp64), then the device's type-3 plans. solve() shares the
// potential's pass along v with field_x (copied, scaled by r(u) = (w_u / 4) / h(u) per row, in W,
// as the CPU does in double); fields() transforms field_x's own input.
template <class W, class T>
void fused_weighting_equals_separate_pass(std::size_t m, std::size_t n, unsigned seed) {
  const Precision p = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  const ElectrostaticsDesc d = system_desc(m, n, p);
  const std::vector<T> rho = density<T>(m * n, seed);
  const auto plan = [&](AxisTransform t0, AxisTransform t1) {
    return Plan(detail::step_plan(d, t0, t1, BackendKind::OpenCL));
  };
  const auto axis_plan = [&](int axis, AxisTransform t) {
    return Plan(detail::step_axis_plan(d, axis, t, BackendKind::OpenCL));
  };
  std::vector<T> a(m * n), pot(m * n), fx(m * n), fy(m * n), shared_fx(m * n);
  plan({Kind::DCT, 2}, {Kind::DCT, 2})
      .execute(ConstView<T>(rho.data(), {m, n}), View<T>(a.data(), {m, n}));
  const std::vector<double> tab64 = detail::weight_tables(m, n);
  const std::vector<W> tab(tab64.begin(), tab64.end());
  const W scale = W(1.0 / (double(m) * double(n) * d.bin_width * d.bin_height));
  const auto cw = [](std::size_t k) { return k == 0 ? W(1) : W(1) / 2; };
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      W t = 0;
      if (i != 0 || j != 0) {
        const W c = W(a[i * n + j]) * scale;
        t = c / (tab[i] * tab[i] + tab[m + n + j]);
      }
      pot[i * n + j] = static_cast<T>(t * cw(i) * cw(j));
      fy[i * n + j] = static_cast<T>(t * tab[m + j] * (cw(i) / 4));
      fx[i * n + j] = static_cast<T>(t * (tab[i] / 4) * cw(j));
    }
  const AxisTransform c3{Kind::DCT, 3}, x3{Kind::DXST, 3};
  const View<T> pv(pot.data(), {m, n}), sv(shared_fx.data(), {m, n});
  axis_plan(1, c3).execute(pv);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j)
      shared_fx[i * n + j] = static_cast<T>(W(pot[i * n + j]) * (tab[i] / 4 / cw(i)));
  axis_plan(0, c3).execute(pv);
  axis_plan(0, x3).execute(sv);
  plan(x3, c3).execute(View<T>(fx.data(), {m, n}));
  plan(c3, x3).execute(View<T>(fy.data(), {m, n}));
  const Step<T> got = cpu_step<T>(m, n, rho, BackendKind::OpenCL);
  SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n));
  std::vector<T> gx(m * n, T(NAN)), gy(m * n, T(NAN));
  const double e = ElectrostaticSystem(d).fields(
      ConstView<T>(rho.data(), {m, n}), View<T>(gx.data(), {m, n}), View<T>(gy.data(), {m, n}));
  EXPECT_EQ(e, got.energy);
  const std::pair<const std::vector<T>*, const std::vector<T>*> pairs[] = {
      {&got.pot, &pot}, {&got.fx, &shared_fx}, {&got.fy, &fy}, {&gx, &fx}, {&gy, &fy}};
  std::size_t differ = 0, total = 0;
  for (const auto& [device, separate] : pairs) {
    if constexpr (std::is_same_v<W, double>) {
      EXPECT_EQ(*device, *separate);  // double arithmetic is IEEE on every OpenCL device
    } else {
      // OpenCL's float division may be 2.5 ulp off (no -cl-fp32-correctly-rounded-divide-sqrt):
      // the bound is a few float ulps; where it is correctly rounded (PoCL) the bits are the
      // same, and the count of differing elements printed says so.
      EXPECT_LE(rel_l2(*device, *separate), 4 * std::numeric_limits<float>::epsilon());
      for (std::size_t k = 0; k < device->size(); ++k) differ += (*device)[k] != (*separate)[k];
      total += device->size();
    }
  }
  if (total > 0)
    std::printf(
        "[ OPENCL ] float weighting, %zu x %zu: %zu of %zu outputs differ from the float "
        "transcription in any bit\n",
        m, n, differ, total);
}

TEST_F(OpenClElectrostatics, FusedWeightingEqualsTheSeparatePass) {
  if (fp64_) {
    fused_weighting_equals_separate_pass<double, float>(48, 66, 350);
    fused_weighting_equals_separate_pass<double, double>(48, 66, 351);
    fused_weighting_equals_separate_pass<double, float>(37, 20, 352);  // odd lines: unpacked FFT
    fused_weighting_equals_separate_pass<double, double>(1, 40, 353);
    fused_weighting_equals_separate_pass<double, float>(64, 1, 354);
  } else {  // the weighting in float
    fused_weighting_equals_separate_pass<float, float>(48, 66, 350);
    fused_weighting_equals_separate_pass<float, float>(37, 20, 352);
    fused_weighting_equals_separate_pass<float, float>(1, 40, 353);
    fused_weighting_equals_separate_pass<float, float>(64, 1, 354);
  }
}

// The weighed pass in the global workspace (lines too long for local memory; forced small here),
// launched in chunks: still every bin and every partial sum.
TEST_F(OpenClElectrostatics, WeighedPassInTheGlobalWorkspace) {
  const auto each = [&]<class T>(T, std::size_t m) {
    ASSERT_EQ(setenv("DCTX_OPENCL_LOCAL_BYTES", "2048", 1), 0);
    const std::size_t n = 36;  // shapes of their own: the plans are made with the setting
    const std::vector<T> rho = density<T>(m * n, 360);
    const Step<T> dev = cpu_step<T>(m, n, rho, BackendKind::OpenCL);
    ASSERT_EQ(unsetenv("DCTX_OPENCL_LOCAL_BYTES"), 0);
    const Step<T> cpu = cpu_step<T>(m, n, rho, BackendKind::CPU);
    expect_within_bound(dev, cpu, m, n);
  };
  if (fp64_) each(0.0, 260);
  each(0.0f, 520);  // float32 lines of 260 points fit in the 2048 bytes
}

// One system from two threads at once: each result that of one thread alone, bit for bit.
template <class T>
void two_threads_on_one_system() {
  const std::size_t m = 64, n = 48;
  const Precision p = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  const std::vector<T> rho = density<T>(m * n, 320);
  const Step<T> want = cpu_step<T>(m, n, rho, BackendKind::OpenCL);
  const ElectrostaticSystem sys(system_desc(m, n, p));
  std::vector<Step<T>> got(2);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      Step<T>& s = got[std::size_t(t)];
      for (auto* v : {&s.pot, &s.fx, &s.fy}) v->assign(m * n, T(NAN));
      for (int r = 0; r < 4; ++r)
        s.energy = sys.solve(ConstView<T>(rho.data(), {m, n}), View<T>(s.pot.data(), {m, n}),
                             View<T>(s.fx.data(), {m, n}), View<T>(s.fy.data(), {m, n}));
    });
  for (std::thread& t : threads) t.join();
  for (const Step<T>& s : got) {
    EXPECT_EQ(s.pot, want.pot);
    EXPECT_EQ(s.fx, want.fx);
    EXPECT_EQ(s.fy, want.fy);
    EXPECT_EQ(s.energy, want.energy);
  }
}

TEST_F(OpenClElectrostatics, TwoThreadsOnOneSystem) {
  if (fp64_)
    two_threads_on_one_system<double>();
  else
    two_threads_on_one_system<float>();
}

// Refusals name the argument, and nothing is written.
TEST_F(OpenClElectrostatics, Refusals) {
  const std::size_t m = 8, n = 6, mn = m * n;
  const ElectrostaticSystem sys(system_desc(m, n, Precision::F32));
  const opencl::Context ctx = opencl::context(sys.desc().device.select);
  DeviceArray<float> din(ctx, mn), a(ctx, mn), b(ctx, mn), c(ctx, 3 * mn), small(ctx, mn - 1);
  DeviceArray<double> energy(ctx, 2);
  din.write(density<float>(mn, 330));
  const auto untouched = [&] {
    for (const DeviceArray<float>* x : {&a, &b, &c, &small})
      for (float v : x->read()) ASSERT_TRUE(std::isnan(v));
    for (double v : energy.read()) ASSERT_TRUE(std::isnan(v));
  };
  const auto refuses = [&](const char* what, auto call) {
    SCOPED_TRACE(what);
    expect_error(call, what);
    untouched();
  };
  refuses("the system runs on the cpu back end, not opencl", [&] {
    const ElectrostaticSystem cpu(system_desc(m, n, Precision::F32, BackendKind::CPU));
    opencl::electrostatics(cpu, {din.mem}, {a.mem}, {b.mem}, {c.mem}, energy.mem);
  });
  refuses("density is a null cl_mem",
          [&] { opencl::electrostatics(sys, {nullptr}, {a.mem}, {b.mem}, {c.mem}); });
  refuses("field_y reaches elements 0..47 but its buffer holds 47",
          [&] { opencl::electrostatics(sys, {din.mem}, {a.mem}, {b.mem}, {small.mem}); });
  refuses("field_x has 3 strides but the bin grid has 2 axes", [&] {
    opencl::electrostatics(sys, {din.mem}, {a.mem}, {b.mem, 0, {6, 1, 1}}, {c.mem});
  });
  refuses("energy reaches elements 2..2 but its buffer holds 2", [&] {
    opencl::electrostatics(sys, {din.mem}, {a.mem}, {b.mem}, {c.mem}, energy.mem, 2);
  });
  refuses("field_x and field_y", [&] {
    opencl::electrostatics(sys, {din.mem}, {a.mem}, {c.mem, 0}, {c.mem, mn - 1});
  });
  refuses("potential overlaps the density",
          [&] { opencl::electrostatics(sys, {din.mem}, {din.mem}, {b.mem}, {c.mem}); });
  refuses("potential", [&] {  // the potential over a field
    opencl::electrostatics(sys, {din.mem}, {c.mem, 2 * mn}, {b.mem}, {c.mem, 2 * mn});
  });
  // One buffer holding the three outputs side by side is fine.
  opencl::electrostatics(sys, {din.mem}, {c.mem, 0}, {c.mem, mn}, {c.mem, 2 * mn});
  ASSERT_EQ(clFinish(ctx.queue), CL_SUCCESS);
  for (float v : c.read()) EXPECT_FALSE(std::isnan(v));
  // A buffer of another context.
  cl_int err = CL_SUCCESS;
  cl_context other = clCreateContext(nullptr, 1, &ctx.device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, mn * sizeof(float), nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  expect_error([&] { opencl::electrostatics(sys, {din.mem}, {a.mem}, {foreign}, {b.mem}); },
               "field_x belongs to another OpenCL context");
  clReleaseMemObject(foreign);
  clReleaseContext(other);
}

// Without cl_khr_fp64 (masked): a float64 system is refused with the reason, as float64 plans
// are; float32 runs whole on the device (the tests above), its energy's double written from the
// float sum's bits: within the bound of the CPU's step, and exactly a float's value.
TEST_F(OpenClElectrostatics, WithoutFp64Float32Only) {
  if (fp64_) GTEST_SKIP() << "the device has fp64 (DCTX_OPENCL_NO_FP64=1 masks it)";
  const std::size_t m = 32, n = 20;
  expect_error([&] { ElectrostaticSystem{system_desc(m, n, Precision::F64)}; },
               "has no cl_khr_fp64");
  const std::vector<float> rho = density<float>(m * n, 340);
  const Step<float> dev = cpu_step<float>(m, n, rho, BackendKind::OpenCL);
  const Step<float> cpu = cpu_step<float>(m, n, rho, BackendKind::CPU);
  expect_within_bound(dev, cpu, m, n);
  EXPECT_EQ(double(float(dev.energy)), dev.energy);
  EXPECT_GT(dev.energy, 0);
  // An empty map: the energy's bits those of +0 (the conversion's zero case), the fields zero.
  const Step<float> empty =
      cpu_step<float>(m, n, std::vector<float>(m * n, 0.0f), BackendKind::OpenCL);
  EXPECT_EQ(empty.energy, 0.0);
  EXPECT_FALSE(std::signbit(empty.energy));
  for (float v : empty.fx) ASSERT_EQ(v, 0.0f);
}

}  // namespace
}  // namespace dctx
