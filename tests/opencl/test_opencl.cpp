// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL back end against the long-double oracle and the CPU back end, with the suite's bound
// (oracle::tolerance: c eps log2 N): every size class (powers of two, composites, primes, 1 x N,
// N x 1, 3D), DCT/DST II/III mixed per axis, every norm, both directions, float32 and float64;
// strided and in-place host views; device buffers with offsets, strides, in place and partial
// overlap; the global-memory path (DCTX_OPENCL_LOCAL_BYTES); type I through the CPU, type IV and
// the real DFT on the device; device choice, the disk cache and the errors. With cl_khr_fp64
// masked (ctest opencl.fp64_masked) the float32 half runs and each float64 description is checked
// to be refused. Skips when no OpenCL device is present.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <numeric>
#include <thread>

#include "dctx/backend.hpp"
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

class OpenCl : public test::OpenClTest {};

std::size_t total(const Shape& s) {
  return std::accumulate(s.begin(), s.end(), std::size_t{1}, std::multiplies<>());
}

PlanDesc desc(const Shape& shape, std::vector<AxisTransform> tr, Norm norm, Direction dir,
              Precision prec, BackendKind backend = BackendKind::OpenCL) {
  PlanDesc d;
  d.shape = shape;
  d.transforms = std::move(tr);
  d.norm = norm;
  d.direction = dir;
  d.precision = prec;
  d.backend = backend;
  return d;
}

// Whether the device has cl_khr_fp64 (ctest opencl.fp64_masked runs this suite again with
// DCTX_OPENCL_NO_FP64=1, which masks it: float64 plans on the device are then refused).
bool device_fp64() {
  static const bool fp64 = opencl::context().info.fp64;
  return fp64;
}

// True where `d` is refused for want of cl_khr_fp64, as it must be on such a device (a float64
// description that the device would run): the caller skips it. A float64 plan made there must
// run through the CPU (types I).
bool refused_without_fp64(const PlanDesc& d) {
  if (d.precision != Precision::F64 || device_fp64()) return false;
  try {
    const Plan p(d);
    EXPECT_NE(p.describe().find("through the CPU"), std::string::npos)
        << "a float64 plan on the device without cl_khr_fp64: " << p.describe();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("has no cl_khr_fp64"), std::string::npos) << e.what();
    return true;
  }
  return false;
}

// `d`, or, where it is refused for want of cl_khr_fp64, the same description in float32 (the
// route and the workspace's layout are the same): for what a plan says of its route.
PlanDesc runnable(PlanDesc d) {
  if (refused_without_fp64(d)) d.precision = Precision::F32;
  return d;
}
std::string how(const PlanDesc& d) { return Plan(runnable(d)).describe(); }

// Runs `d` on OpenCL from host memory into a NaN-poisoned output and checks it against the
// oracle and against the CPU back end.
template <class T>
void check(const PlanDesc& d0, unsigned seed) {
  PlanDesc d = d0;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  if (refused_without_fp64(d)) return;
  const std::size_t n = total(d.shape);
  const auto x = oracle::random_vector<T>(n, seed);
  Plan p(d);
  std::vector<T> y(n, std::numeric_limits<T>::quiet_NaN());
  p.execute(ConstView<T>(x.data(), d.shape), View<T>(y.data(), d.shape));
  std::vector<int> axes;
  std::size_t maxn = 2;
  for (std::size_t a = 0; a < d.shape.size(); ++a) {
    axes.push_back(static_cast<int>(a));
    maxn = std::max(maxn, d.shape[a]);
  }
  const auto want =
      oracle::reference_nd(d.shape, axes, p.desc().transforms, d.norm, *p.desc().orthogonalize,
                           d.direction, std::vector<LD>(x.begin(), x.end()));
  const double tol = oracle::tolerance<T>(maxn) * std::sqrt(double(axes.size()));
  EXPECT_LE(oracle::rel_l2(y, want), tol) << p.describe();
  PlanDesc c = d;
  c.backend = BackendKind::CPU;
  std::vector<T> z(n);
  Plan(c).execute(ConstView<T>(x.data(), d.shape), View<T>(z.data(), d.shape));
  EXPECT_LE(oracle::rel_l2(y, std::vector<LD>(z.begin(), z.end())), 2 * tol) << p.describe();
}

const Shape kShapes[] = {{1},     {2},    {3},      {8},       {12},      {97},        {128},
                         {1, 9},  {9, 1}, {8, 8},   {17, 12},  {64, 48},  {31, 37},    {3, 128},
                         {16, 5}, {1, 1}, {60, 90}, {4, 6, 5}, {9, 8, 7}, {2, 3, 4, 5}};

TEST_F(OpenCl, EverySizeClassMatchesOracleAndCpu) {
  unsigned seed = 1;
  for (const Shape& s : kShapes)
    for (int type : {2, 3})
      for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
        for (Direction dir : {Direction::Forward, Direction::Inverse}) {
          const PlanDesc d = desc(s, {}, norm, dir, Precision::F64);
          PlanDesc t = d;
          t.type = type;
          check<double>(t, seed++);
          check<float>(t, seed++);
        }
}

TEST_F(OpenCl, MixedKindsPerAxis) {
  // The mixed DCT/DST pairs of spectral Poisson solvers, and scipy's orthogonalize switched off.
  const std::vector<std::vector<AxisTransform>> mixes = {
      {{Kind::DCT, 2}, {Kind::DST, 2}},
      {{Kind::DST, 3}, {Kind::DCT, 3}},
      {{Kind::DST, 2}, {Kind::DST, 3}},
  };
  unsigned seed = 100;
  for (const auto& m : mixes)
    for (const Shape& s : {Shape{16, 10}, Shape{7, 33}, Shape{1, 5}})
      for (Norm norm : {Norm::Backward, Norm::Ortho}) {
        PlanDesc d = desc(s, m, norm, Direction::Forward, Precision::F64);
        check<double>(d, seed++);
        d.orthogonalize = false;
        check<float>(d, seed++);
      }
}

// DREAMPlace's shifted sine transform on the device (SHIFT in r2r_lines.cl): packed (even) and
// complex (odd) lines, the paper's IDCT_IDXST / IDXST_IDCT pairs, every norm and direction.
TEST_F(OpenCl, ShiftedSineOnTheDevice) {
  const AxisTransform c3{Kind::DCT, 3}, s3{Kind::DXST, 3}, s2{Kind::DXST, 2};
  unsigned seed = 150;
  for (const auto& m : std::vector<std::vector<AxisTransform>>{{c3, s3}, {s3, c3}, {s2, s2}})
    for (const Shape& s : {Shape{16, 10}, Shape{7, 33}, Shape{1, 5}, Shape{2, 6}, Shape{64, 96}})
      for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
        for (Direction dir : {Direction::Forward, Direction::Inverse}) {
          const PlanDesc d = desc(s, m, norm, dir, Precision::F64);
          check<double>(d, seed++);
          check<float>(d, seed++);
          EXPECT_NE(how(d).find("DXST-"), std::string::npos);
        }
}

// DREAMPlace's electrostatic step with its four transforms on the device agrees with the CPU's.
TEST_F(OpenCl, ElectrostaticStep) {
  for (Precision prec : {Precision::F64, Precision::F32}) {
    const std::size_t m = 48, n = 66;
    std::vector<double> rho = oracle::random_vector<double>(m * n, 170);
    for (double& v : rho) v = std::fabs(v);
    ElectrostaticsDesc d;
    d.shape = {m, n};
    d.bin_width = 2;
    d.precision = prec;
    if (prec == Precision::F64 && !device_fp64()) {
      d.backend = BackendKind::OpenCL;
      expect_error([&] { ElectrostaticSystem{d}; }, "has no cl_khr_fp64");
      continue;
    }
    const auto run = [&]<class T>(T, BackendKind b, std::vector<std::vector<T>>& out) {
      d.backend = b;
      const std::vector<T> r(rho.begin(), rho.end());
      out.assign(3, std::vector<T>(m * n, std::numeric_limits<T>::quiet_NaN()));
      return ElectrostaticSystem(d).solve(
          ConstView<T>(r.data(), {m, n}), View<T>(out[0].data(), {m, n}),
          View<T>(out[1].data(), {m, n}), View<T>(out[2].data(), {m, n}));
    };
    const auto compare = [&]<class T>(T zero) {
      std::vector<std::vector<T>> dev, cpu;
      const double e_dev = run(zero, BackendKind::OpenCL, dev);
      const double e_cpu = run(zero, BackendKind::CPU, cpu);
      const double tol = 2 * oracle::tolerance<T>(n) * std::sqrt(2.0);
      for (std::size_t k = 0; k < 3; ++k)
        EXPECT_LE(oracle::rel_l2(dev[k], std::vector<LD>(cpu[k].begin(), cpu[k].end())), tol)
            << "output " << k << " " << to_string(prec);
      EXPECT_NEAR(e_dev, e_cpu, tol * std::fabs(e_cpu));
    };
    if (prec == Precision::F64)
      compare(0.0);
    else
      compare(0.0f);
  }
}

// PlanDesc::coefficient_threshold on the device (THRESHOLD in r2r_lines.cl: the first pass's
// loads of an inverse plan, the last pass's stores of a forward one; type I through the CPU):
// the same values as the plain plan with a separate thresholding pass, bit for bit.
TEST_F(OpenCl, CoefficientThresholdEqualsSeparatePass) {
  const auto each = [&]<class T>(T) {
    const auto run = [](PlanDesc d, std::vector<T> x) {
      std::vector<T> y(x.size(), std::numeric_limits<T>::quiet_NaN());
      Plan(d).execute(ConstView<T>(x.data(), d.shape), View<T>(y.data(), d.shape));
      return y;
    };
    const auto zero_below = [](std::vector<T> v, double eps) {
      for (T& x : v)
        if (std::fabs(x) < eps) x = 0;
      return v;
    };
    const AxisTransform c2{Kind::DCT, 2}, x3{Kind::DXST, 3}, s4{Kind::DST, 4}, c1{Kind::DCT, 1};
    const Precision prec = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
    unsigned seed = 180;
    for (const auto& tr :
         std::vector<std::vector<AxisTransform>>{{c2, c2}, {x3, s4}, {c1, c2}, {c2, x3}})
      for (const Shape& s : {Shape{16, 10}, Shape{7, 33}})
        for (Direction dir : {Direction::Forward, Direction::Inverse}) {
          PlanDesc d = desc(s, tr, Norm::Ortho, dir, prec);
          if (refused_without_fp64(d)) continue;
          const std::vector<T> x = oracle::random_vector<T>(total(s), seed++);
          const double eps = 0.5;  // about half of the ortho coefficients of values in [-1, 1)
          std::vector<T> want =
              dir == Direction::Forward ? zero_below(run(d, x), eps) : run(d, zero_below(x, eps));
          PlanDesc t = d;
          t.coefficient_threshold = eps;
          EXPECT_EQ(run(t, x), want) << how(t);
          EXPECT_NE(how(t).find("zeroed"), std::string::npos);
        }
  };
  each(0.0);
  each(0.0f);
}

TEST_F(OpenCl, LongLinesAndPrimes) {
  unsigned seed = 200;
  for (const Shape& s : {Shape{4096}, Shape{3, 2048}, Shape{1024, 3}, Shape{2 * 3 * 5 * 7 * 4},
                         Shape{257}, Shape{2, 1018}})
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      check<float>(desc(s, {}, Norm::Ortho, dir, Precision::F32), seed++);
      check<double>(desc(s, {}, Norm::Backward, dir, Precision::F64), seed++);
    }
}

TEST_F(OpenCl, TypeOneRunsThroughTheCpu) {
  for (Kind kind : {Kind::DCT, Kind::DST}) {
    PlanDesc d = desc({6, 10}, {}, Norm::Ortho, Direction::Forward, Precision::F64);
    d.type = 1;
    d.kind = kind;
    check<double>(d, 300u + static_cast<unsigned>(kind));
    EXPECT_NE(how(d).find("through the CPU"), std::string::npos);
  }
}

// Type IV on the device: a complex FFT of N/2 points (even N) or 2N points (odd N).
TEST_F(OpenCl, TypeFourOnTheDevice) {
  unsigned seed = 320;
  for (const Shape& s : {Shape{1}, Shape{2}, Shape{7}, Shape{16}, Shape{12, 9}, Shape{5, 3, 8}})
    for (Kind kind : {Kind::DCT, Kind::DST})
      for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
        for (Direction dir : {Direction::Forward, Direction::Inverse}) {
          PlanDesc d = desc(s, {}, norm, dir, Precision::F64);
          d.type = 4;
          d.kind = kind;
          check<double>(d, seed++);
          check<float>(d, seed++);
          EXPECT_EQ(how(d).find("through the CPU"), std::string::npos);
        }
  // Mixed with type II along another axis.
  check<double>(desc({10, 11}, {{Kind::DST, 4}, {Kind::DCT, 2}}, Norm::Ortho, Direction::Forward,
                     Precision::F64),
                399);
}

// The real DFT in halfcomplex order on the device: the lines kernel's real FFT with halfcomplex
// stores (type 2) and loads (type 3), odd and even lengths, beside other kinds (the global-memory
// path: GlobalMemoryPath).
TEST_F(OpenCl, RealDftOnTheDevice) {
  unsigned seed = 400;
  for (const Shape& s : {Shape{1}, Shape{2}, Shape{7}, Shape{16}, Shape{12, 9}, Shape{5, 3, 8}})
    for (int type : {2, 3})
      for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
        for (Direction dir : {Direction::Forward, Direction::Inverse}) {
          PlanDesc d = desc(s, {}, norm, dir, Precision::F64);
          d.type = type;
          d.kind = Kind::RDFT;
          check<double>(d, seed++);
          check<float>(d, seed++);
          EXPECT_EQ(how(d).find("through the CPU"), std::string::npos);
          EXPECT_NE(how(d).find("RDFT-"), std::string::npos);
        }
  check<double>(desc({10, 11}, {{Kind::RDFT, 2}, {Kind::DST, 3}}, Norm::Ortho, Direction::Forward,
                     Precision::F64),
                499);
  check<float>(desc({64, 6}, {{Kind::RDFT, 3}, {Kind::RDFT, 2}}, Norm::Backward, Direction::Inverse,
                    Precision::F32),
               498);
}

TEST_F(OpenCl, StridedAndInPlaceHostViews) {
  const auto each = [&]<class T>(T, double tol) {
    const Shape s{12, 10};
    const PlanDesc d = desc(s, {}, Norm::Ortho, Direction::Forward,
                            std::is_same_v<T, float> ? Precision::F32 : Precision::F64);
    if (refused_without_fp64(d)) return;
    Plan p(d), cpu([&] {
      PlanDesc c = d;
      c.backend = BackendKind::CPU;
      return c;
    }());
    const auto x = oracle::random_vector<T>(total(s), 7);
    std::vector<T> want(total(s));
    cpu.execute(ConstView<T>(x.data(), s), View<T>(want.data(), s));
    // Fortran-order input, a transposed strided output with gaps.
    std::vector<T> xf(total(s));
    for (std::size_t i = 0; i < 12; ++i)
      for (std::size_t j = 0; j < 10; ++j) xf[j * 12 + i] = x[i * 10 + j];
    std::vector<T> out(2 * total(s), std::numeric_limits<T>::quiet_NaN());
    p.execute(ConstView<T>(xf.data(), s, {1, 12}), View<T>(out.data(), s, {2, 24}));
    for (std::size_t i = 0; i < 12; ++i)
      for (std::size_t j = 0; j < 10; ++j) EXPECT_NEAR(out[i * 2 + j * 24], want[i * 10 + j], tol);
    // In place.
    std::vector<T> y = x;
    p.execute(ConstView<T>(y.data(), s), View<T>(y.data(), s));
    for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], tol);
  };
  each(0.0, 1e-12);
  each(0.0f, 1e-5);
}

// Device buffers: offsets, strides, in place, partial overlap, the caller's queue.
TEST_F(OpenCl, DeviceBuffers) {
  const Shape s{16, 9};
  const std::size_t n = total(s);
  const PlanDesc d = desc(s, {}, Norm::Backward, Direction::Forward, Precision::F32);
  Plan p(d);
  PlanDesc c = d;
  c.backend = BackendKind::CPU;
  const auto x = oracle::random_vector<float>(n, 11);
  std::vector<float> want(n);
  Plan(c).execute(ConstView<float>(x.data(), s), View<float>(want.data(), s));

  const opencl::Context ctx = opencl::context(p);
  cl_int err = CL_SUCCESS;
  const std::size_t cap = 4 * n + 64;
  cl_mem buf = clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, cap * sizeof(float), nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const auto put = [&](std::size_t off, const std::vector<float>& v) {
    ASSERT_EQ(clEnqueueWriteBuffer(ctx.queue, buf, CL_TRUE, off * 4, v.size() * 4, v.data(), 0,
                                   nullptr, nullptr),
              CL_SUCCESS);
  };
  const auto get = [&](std::size_t off, std::size_t count) {
    std::vector<float> v(count);
    EXPECT_EQ(clEnqueueReadBuffer(ctx.queue, buf, CL_TRUE, off * 4, count * 4, v.data(), 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    return v;
  };
  const std::vector<float> poison(cap, std::numeric_limits<float>::quiet_NaN());
  const float tol = 1e-5f * 40;
  // Offsets, dense in, transposed out.
  put(0, poison);
  put(5, x);
  opencl::execute(p, {buf, 5, {}}, {buf, 2 * n, {1, 16}});
  auto y = get(2 * n, n);
  for (std::size_t i = 0; i < 16; ++i)
    for (std::size_t j = 0; j < 9; ++j) EXPECT_NEAR(y[i + j * 16], want[i * 9 + j], tol);
  // In place.
  put(3, x);
  opencl::execute(p, {buf, 3, {}}, {buf, 3, {}}, ctx.queue);
  y = get(3, n);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(y[i], want[i], tol);
  // Partial overlap: the output starts a few elements into the input.
  put(0, x);
  opencl::execute(p, {buf, 0, {}}, {buf, 4, {}});
  y = get(4, n);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(y[i], want[i], tol);
  ASSERT_EQ(clFinish(ctx.queue), CL_SUCCESS);
  // A buffer too small for the array.
  expect_error(
      [&] {
        opencl::execute(p, {buf, cap - 10, {}}, {buf, 0, {}});
      },
      "but its buffer holds");
  expect_error([&] { opencl::execute(p, {buf, 0, {1}}, {buf, 0, {}}); }, "strides");
  clReleaseMemObject(buf);
}

// The global-memory path (lines longer than local memory), forced by a tiny local budget.
TEST_F(OpenCl, GlobalMemoryPath) {
  setenv("DCTX_OPENCL_LOCAL_BYTES", "2048", 1);
  PlanDesc d = desc({40, 300}, {}, Norm::Ortho, Direction::Forward, Precision::F64);
  const std::string route = how(d);
  EXPECT_NE(route.find("global workspace"), std::string::npos) << route;
  EXPECT_GT(Plan(runnable(d)).workspace_bytes(), 0u);
  check<double>(d, 400);
  d.direction = Direction::Inverse;
  d.transforms = {{Kind::DST, 3}, {Kind::DCT, 2}};
  check<float>(d, 401);
  d.transforms = {{Kind::RDFT, 2}, {Kind::RDFT, 3}};  // the real DFT's loads and stores there too
  check<double>(d, 402);
  d.direction = Direction::Forward;
  d.shape = {40, 301};
  check<double>(d, 403);
  unsetenv("DCTX_OPENCL_LOCAL_BYTES");
}

TEST_F(OpenCl, DeviceChoiceAndErrors) {
  const auto devs = opencl::devices();
  ASSERT_FALSE(devs.empty());
  PlanDesc d = desc({8, 8}, {}, Norm::Ortho, Direction::Forward, Precision::F32);
  d.device.select = devs[0].select;
  EXPECT_NE(Plan(d).describe().find(devs[0].name), std::string::npos);
  d.device.select = "0";
  EXPECT_NO_THROW(Plan{d});
  d.device.select = devs[0].name.substr(0, 3);
  EXPECT_NO_THROW(Plan{d});
  d.device.select = "99:99";
  expect_error([&] { Plan{d}; }, "names no device");
  d.device.select = "no-such-device-name";
  expect_error([&] { Plan{d}; }, "matches no device name");
  d.device.select = "250";
  expect_error([&] { Plan{d}; }, "past the last device index");
  // Host memory only for a CPU plan.
  PlanDesc c = d;
  c.backend = BackendKind::CPU;
  c.device.select.clear();
  expect_error([&] { opencl::context(Plan(c)); }, "not opencl");
}

// DCTX_OPENCL_NO_FP64=1 masks cl_khr_fp64 (ctest runs this test again with it set).
TEST_F(OpenCl, Float64NeedsFp64) {
  const bool masked = std::getenv("DCTX_OPENCL_NO_FP64") != nullptr;
  PlanDesc d = desc({8, 8}, {}, Norm::Ortho, Direction::Forward, Precision::F64);
  if (!opencl::context().info.fp64) {
    expect_error([&] { Plan{d}; }, "has no cl_khr_fp64");
    d.precision = Precision::F32;
    EXPECT_NO_THROW(Plan{d});
  } else {
    EXPECT_FALSE(masked);
    EXPECT_NO_THROW(Plan{d});
  }
}

TEST_F(OpenCl, DiskCacheOfPrograms) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("dctx-clcache-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
       std::to_string(reinterpret_cast<std::uintptr_t>(this)));
  std::filesystem::create_directories(dir);
  setenv("DCTX_OPENCL_CACHE_DIR", dir.c_str(), 1);
  // A length no other test builds, so the program is new to this process.
  check<float>(desc({3, 1009}, {}, Norm::Ortho, Direction::Forward, Precision::F32), 500);
  unsetenv("DCTX_OPENCL_CACHE_DIR");
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    files += e.path().extension() == ".clbin";
  EXPECT_GE(files, 1u);
  std::filesystem::remove_all(dir);
}

// One plan executed from several threads at once (kernels are made per call; the default queue
// is shared): every result must be its own input's transform.
TEST_F(OpenCl, OnePlanFromManyThreads) {
  const Shape s{32, 48};
  const std::size_t n = total(s);
  const PlanDesc d = desc(s, {}, Norm::Ortho, Direction::Inverse, Precision::F32);
  const Plan p(d);
  PlanDesc c = d;
  c.backend = BackendKind::CPU;
  const Plan cpu(c);
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (unsigned i = 0; i < 12; ++i) {
        const auto x = oracle::random_vector<float>(n, 1000u * static_cast<unsigned>(t) + i);
        std::vector<float> y(n, std::numeric_limits<float>::quiet_NaN()), z(n);
        p.execute(ConstView<float>(x.data(), s), View<float>(y.data(), s));
        cpu.execute(ConstView<float>(x.data(), s), View<float>(z.data(), s));
        if (!(oracle::rel_l2(y, std::vector<LD>(z.begin(), z.end())) < 1e-5)) ++failures[t];
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace dctx
