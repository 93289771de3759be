// SPDX-License-Identifier: BSD-3-Clause
// The back-end seam, exercised by a stand-in device back end registered in the OpenCL slot: its
// "device memory" is a table of host buffers behind opaque handles that are not pointers (so any
// dereference by the core would crash), its plans count uploads and record what the core handed
// them. What it shows is what the OpenCL and CUDA back ends will implement: registration,
// availability with a reason, the host-memory convenience that copies, execution on the back
// end's own memory with strides, offsets, overlap and workspace, and the errors around them.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "core/backend.hpp"
#include "dctx/backend.hpp"
#include "dctx/dctx.hpp"
#include "dctx/electrostatics.hpp"
#include "expect_error.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using testing_support::expect_error;

/// Device memory of the stand-in: buffers of doubles addressed by handles 0x10, 0x20, ...
struct FakeDevice {
  std::mutex mu;
  std::map<std::uintptr_t, std::vector<double>> buffers;
  std::uintptr_t next = 0x10;
  void* Allocate(std::size_t n) {
    std::lock_guard<std::mutex> lock(mu);
    const std::uintptr_t h = next;
    next += 0x10;
    buffers[h].assign(n, std::nan(""));
    return reinterpret_cast<void*>(h);
  }
  std::vector<double>& At(const void* handle) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = buffers.find(reinterpret_cast<std::uintptr_t>(handle));
    if (it == buffers.end()) throw Error("stand-in: not a buffer of this device");
    return it->second;
  }
};

struct Observed {
  std::atomic<int> uploads{0}, device_runs{0};
  std::atomic<int> last_overlap{-1};
  std::atomic<void*> last_queue{nullptr};
};

constexpr std::size_t kWorkspace = 256;

/// Runs on "device memory" by running the CPU on it (float64 only: enough for the seam).
class StandInPlan final : public detail::BackendPlan {
 public:
  StandInPlan(const PlanDesc& d, FakeDevice& dev, Observed& seen)
      : cpu_([&] {
          PlanDesc c = d;
          c.backend = BackendKind::CPU;
          return Plan(c);
        }()),
        dev_(dev),
        seen_(seen) {}

  void execute(const detail::HostCall<float>&) const override {
    throw Error("stand-in: float64 only");
  }
  // The host-memory convenience: "upload", run, "download".
  void execute(const detail::HostCall<double>& c) const override {
    ++seen_.uploads;
    const Shape& s = cpu_.desc().shape;
    std::vector<double> staged(Total(s));
    Gather(c.in, c.in_strides, staged.data());
    cpu_.execute(View<double>(staged.data(), s));
    Scatter(staged.data(), c.out, c.out_strides);
  }
  void execute_device(const detail::DeviceCall& c) const override {
    ++seen_.device_runs;
    seen_.last_overlap = static_cast<int>(c.overlap);
    seen_.last_queue = c.exec.queue;
    if (c.exec.workspace) {
      const auto& ws = dev_.At(c.exec.workspace);  // must be this device's memory
      if (ws.size() * sizeof(double) < kWorkspace) throw Error("stand-in: workspace too small");
    }
    const Shape& s = cpu_.desc().shape;
    std::vector<double> staged(Total(s));
    const auto& in = dev_.At(c.in.buffer);
    Gather(in.data() + c.in.offset, c.in.strides, staged.data());
    cpu_.execute(View<double>(staged.data(), s));
    auto& out = dev_.At(c.out.buffer);
    Scatter(staged.data(), out.data() + c.out.offset, c.out.strides);
  }
  std::size_t workspace_bytes() const override { return kWorkspace; }
  std::string describe() const override { return "stand-in device: " + cpu_.describe(); }

 private:
  static std::size_t Total(const Shape& s) {
    std::size_t t = 1;
    for (auto e : s) t *= e;
    return t;
  }
  template <class F>
  void ForEach(F f) const {  // f(linear C-order index, element offset by strides)
    const Shape& s = cpu_.desc().shape;
    std::vector<std::size_t> idx(s.size(), 0);
    for (std::size_t k = 0; k < Total(s); ++k) {
      f(k, idx);
      for (std::size_t d = s.size(); d-- > 0;) {
        if (++idx[d] < s[d]) break;
        idx[d] = 0;
      }
    }
  }
  static std::ptrdiff_t Offset(const std::vector<std::size_t>& idx, const std::ptrdiff_t* st) {
    std::ptrdiff_t o = 0;
    for (std::size_t d = 0; d < idx.size(); ++d) o += std::ptrdiff_t(idx[d]) * st[d];
    return o;
  }
  void Gather(const double* in, const std::ptrdiff_t* st, double* out) const {
    ForEach([&](std::size_t k, const auto& idx) { out[k] = in[Offset(idx, st)]; });
  }
  void Scatter(const double* in, double* out, const std::ptrdiff_t* st) const {
    ForEach([&](std::size_t k, const auto& idx) { out[Offset(idx, st)] = in[k]; });
  }

  Plan cpu_;
  FakeDevice& dev_;
  Observed& seen_;
};

class StandInBackend final : public detail::Backend {
 public:
  StandInBackend(std::string reason, FakeDevice& dev, Observed& seen)
      : reason_(std::move(reason)), dev_(dev), seen_(seen) {}
  BackendKind kind() const override { return BackendKind::OpenCL; }
  std::string unusable_reason() const override { return reason_; }
  std::string description() const override { return "stand-in device"; }
  detail::MemoryModel memory() const override { return detail::MemoryModel::DeviceHandles; }
  int auto_priority() const override { return 0; }
  std::unique_ptr<detail::BackendPlan> make_plan(const PlanDesc& d) const override {
    return std::make_unique<StandInPlan>(d, dev_, seen_);
  }

 private:
  std::string reason_;
  FakeDevice& dev_;
  Observed& seen_;
};

class Registry : public ::testing::Test {
 protected:
  void Install(std::string reason = {}) {
    previous_ = detail::register_backend(std::make_shared<StandInBackend>(reason, dev_, seen_));
    installed_ = true;
  }
  void TearDown() override {
    if (!installed_) return;
    if (previous_)
      detail::register_backend(previous_);
    else
      detail::unregister_backend(BackendKind::OpenCL);
  }
  static PlanDesc Desc(BackendKind b = BackendKind::OpenCL) {
    return PlanDesc{.shape = {6, 10}, .norm = Norm::Ortho, .backend = b};
  }
  std::vector<double> CpuResult(const std::vector<double>& x) const {
    std::vector<double> y(x.size());
    Plan(Desc(BackendKind::CPU))
        .execute(ConstView<double>(x.data(), {6, 10}), View<double>(y.data(), {6, 10}));
    return y;
  }
  FakeDevice dev_;
  Observed seen_;
  std::shared_ptr<const detail::Backend> previous_;
  bool installed_ = false;
};

TEST_F(Registry, ListsEveryKnownBackEndAndWhatIsBuilt) {
  const auto all = backends();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].name, "cpu");
  EXPECT_TRUE(all[0].built && all[0].usable && all[0].host_memory);
  EXPECT_FALSE(all[0].description.empty());
  for (const auto& b : all)
    if (!b.built) {
      EXPECT_NE(b.reason.find("not built"), std::string::npos) << b.name;
    }
  EXPECT_EQ(backend_info(BackendKind::Auto).kind, BackendKind::CPU);
}

TEST_F(Registry, AStandInRegistersAndAutoStillPicksTheCpu) {
  Install();
  const BackendInfo i = backend_info(BackendKind::OpenCL);
  EXPECT_TRUE(i.built && i.usable);
  EXPECT_FALSE(i.host_memory);
  EXPECT_EQ(i.description, "stand-in device");
  EXPECT_EQ(normalize(Desc(BackendKind::Auto)).backend, BackendKind::CPU);
  Plan p(Desc());
  EXPECT_EQ(p.backend(), BackendKind::OpenCL);
  EXPECT_EQ(p.workspace_bytes(), kWorkspace);
  EXPECT_NE(p.describe().find("stand-in"), std::string::npos);
}

TEST_F(Registry, AnUnusableBackEndNamesItsReason) {
  Install("no OpenCL platform");
  const BackendInfo i = backend_info(BackendKind::OpenCL);
  EXPECT_TRUE(i.built);
  EXPECT_FALSE(i.usable);
  EXPECT_EQ(i.reason, "no OpenCL platform");
  try {
    Plan p(Desc());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BackendUnavailable);
    EXPECT_NE(std::string(e.what()).find("no OpenCL platform"), std::string::npos) << e.what();
  }
  // A kind this build lacks (CUDA taken out for the test when it is built).
  const auto cuda = detail::unregister_backend(BackendKind::CUDA);
  expect_error([] { Plan p(Desc(BackendKind::CUDA)); }, "not built");
  if (cuda) detail::register_backend(cuda);
  expect_error([] { parse_backend("mpi"); }, "unknown backend");
}

TEST_F(Registry, HostViewsOnADevicePlanGoThroughItsCopies) {
  Install();
  const auto x = oracle::random_vector<double>(60, 3);
  std::vector<double> y(60, std::nan(""));
  Plan p(Desc());
  p.execute(ConstView<double>(x.data(), {6, 10}), View<double>(y.data(), {6, 10}));
  EXPECT_EQ(seen_.uploads, 1);
  EXPECT_EQ(y, CpuResult(x));
  std::vector<float> f(60);
  expect_error([&] { p.execute(View<float>(f.data(), {6, 10})); }, "float32");
}

TEST_F(Registry, DeviceMemoryWithStridesOffsetsAndWorkspace) {
  Install();
  const auto x = oracle::random_vector<double>(60, 5);
  void* in = dev_.Allocate(100);
  void* out = dev_.Allocate(100);
  void* ws = dev_.Allocate(kWorkspace / sizeof(double));
  // in: C order from element 7; out: Fortran order from element 3.
  const std::ptrdiff_t c_order[2] = {10, 1}, fortran[2] = {1, 6};
  for (std::size_t k = 0; k < 60; ++k) dev_.At(in)[7 + k] = x[k];
  Plan p(Desc());
  int queue_tag = 0;
  DeviceExecution exec{&queue_tag, ws, kWorkspace};
  p.execute_device({BackendKind::OpenCL, in, 7, c_order}, {BackendKind::OpenCL, out, 3, fortran},
                   Precision::F64, exec);
  EXPECT_EQ(seen_.device_runs, 1);
  EXPECT_EQ(seen_.uploads, 0);
  EXPECT_EQ(seen_.last_queue.load(), &queue_tag);
  EXPECT_EQ(seen_.last_overlap, int(detail::Overlap::Disjoint));
  const auto want = CpuResult(x);
  const auto& o = dev_.At(out);
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 10; ++j) ASSERT_EQ(o[3 + i + 6 * j], want[i * 10 + j]);
  // In place: the same buffer, offset and strides.
  p.execute_device({BackendKind::OpenCL, in, 7, c_order}, {BackendKind::OpenCL, in, 7, c_order},
                   Precision::F64);
  EXPECT_EQ(seen_.last_overlap, int(detail::Overlap::Same));
  // One buffer, offsets one element apart: partial overlap, which the back end must handle.
  p.execute_device({BackendKind::OpenCL, in, 7, c_order}, {BackendKind::OpenCL, in, 8, c_order},
                   Precision::F64);
  EXPECT_EQ(seen_.last_overlap, int(detail::Overlap::Partial));
}

TEST_F(Registry, DeviceCallsThatMustBeRefused) {
  Install();
  void* a = dev_.Allocate(60);
  void* b = dev_.Allocate(60);
  const std::ptrdiff_t st[2] = {10, 1}, zero[2] = {0, 1};
  Plan p(Desc());
  const DeviceArray in{BackendKind::OpenCL, a, 0, st}, out{BackendKind::OpenCL, b, 0, st};
  expect_error(
      [&] {
        p.execute_device({BackendKind::CUDA, a, 0, st}, out, Precision::F64);
      },
      "in is cuda memory");
  expect_error([&] { p.execute_device(in, out, Precision::F32); }, "float32");
  expect_error(
      [&] {
        p.execute_device(in, {BackendKind::OpenCL, b, 0, zero}, Precision::F64);
      },
      "overlap");
  expect_error(
      [&] {
        p.execute_device(in, {BackendKind::OpenCL, nullptr, 0, st}, Precision::F64);
      },
      "null");
  expect_error(
      [&] {
        p.execute_device(in, out, Precision::F64, {nullptr, dev_.Allocate(1), kWorkspace - 8});
      },
      "workspace");
  EXPECT_EQ(seen_.device_runs, 0);  // nothing reached the back end
  // A CPU plan has no device memory to run on.
  Plan cpu(Desc(BackendKind::CPU));
  expect_error([&] { cpu.execute_device(in, out, Precision::F64); }, "host memory");
}

// A device back end without a whole electrostatic step of its own (Backend::make_electrostatics
// left at its default, nullptr): the system runs the front end's route, four plans of the back
// end copying in and out (the DCT-II, field_x's, field_y's and the potential's 2D plans) with the
// weighting on the host between them, within the transforms' rounding of the CPU's step (which
// shares the potential's pass along v with field_x instead).
TEST_F(Registry, AnElectrostaticSystemOnADeviceWithoutItsOwnStep) {
  Install();
  const std::size_t m = 12, n = 10;
  std::vector<double> rho = oracle::random_vector<double>(m * n, 21);
  for (double& v : rho) v = std::fabs(v);
  ElectrostaticsDesc d{.shape = {m, n}, .bin_width = 2, .bin_height = 0.5};
  const auto solve = [&](BackendKind b, bool potential, std::vector<double>* out) {
    d.backend = b;
    for (int k = 0; k < 3; ++k) out[k].assign(m * n, std::nan(""));
    const ElectrostaticSystem sys(d);
    const View<double> fx(out[1].data(), {m, n}), fy(out[2].data(), {m, n});
    const ConstView<double> density(rho.data(), {m, n});
    return potential ? sys.solve(density, View<double>(out[0].data(), {m, n}), fx, fy)
                     : sys.fields(density, fx, fy);
  };
  std::vector<double> cpu[3], dev[3];
  const double e_cpu = solve(BackendKind::CPU, true, cpu);
  const double e_dev = solve(BackendKind::OpenCL, true, dev);
  EXPECT_EQ(seen_.uploads, 4);
  const double tol = 2 * oracle::tolerance<double>(std::max(m, n)) * std::sqrt(2.0);
  for (int k = 0; k < 3; ++k)
    EXPECT_LE(oracle::rel_l2(dev[k], std::vector<oracle::LD>(cpu[k].begin(), cpu[k].end())), tol)
        << "output " << k;
  EXPECT_NEAR(e_dev, e_cpu, tol * e_cpu);
  // The fields alone: three plans, the potential left as it was.
  const double e_fields = solve(BackendKind::OpenCL, false, dev);
  EXPECT_EQ(seen_.uploads, 7);
  EXPECT_EQ(e_fields, e_dev);
  for (double v : dev[0]) ASSERT_TRUE(std::isnan(v));
}

}  // namespace
}  // namespace dctx
