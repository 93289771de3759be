// SPDX-License-Identifier: BSD-3-Clause
// The CPU back end and its registration: the FFT/DCT templates (complex_fft-inl.h,
// real_fft-inl.h, r2r-inl.h, nd_driver-inl.h, fused2d-inl.h) compiled once per SIMD target by
// Highway's foreach_target, with the best target picked at plan time (HWY_DYNAMIC_DISPATCH). The
// kernels use compiler vector types sized to the target's vectors, so the same 1D code runs on
// scalars or on kLanes lines at once. The 8x8 block engine of this back end is in block8/.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/backend.hpp"
#include "core/thread_pool.hpp"
#include "cpu/block8/cpu_block8.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/measured_plan.hpp"
#include "dctx/types.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/cpu_backend.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/targets.h>

#include "cpu/fused2d-inl.h"
#include "cpu/nd_driver-inl.h"
#include "cpu/small2d-inl.h"
#include "cpu/small_lines-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

// Row-column or the fused 2D path. Auto follows the measurements of docs/benchmarks.md:
// row-column wins or ties everywhere (its row passes run on transposed blocks, its columns in
// blocks of lane groups, and since its lines of an odd length run two groups through one complex
// FFT, also where a side needs Bluestein, which the fused route's forward used to win). The fused
// route runs when a plan asks for it.
bool UseFused2D(const PlanDesc& d) {
  return d.cpu.algorithm == Algorithm2D::Fused && Fused2DApplies(d);
}

detail::BackendPlan* MakePlan(const PlanDesc& d) {
  const bool fused = UseFused2D(d), small = !fused && Small2DApplies(d);
  const bool lines = SmallLinesApplies(d);
  if (d.precision == Precision::F32) {
    if (fused) return new Fused2DPlan<float>(d);
    if (small) return new Small2DPlan<float>(d);
    if (lines) return new SmallLinesPlan<float>(d);
    return new CpuPlan<float>(d);
  }
  if (fused) return new Fused2DPlan<double>(d);
  if (small) return new Small2DPlan<double>(d);
  if (lines) return new SmallLinesPlan<double>(d);
  return new CpuPlan<double>(d);
}

const char* Target() { return TargetName(); }

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dctx {
namespace cpu {
HWY_EXPORT(MakePlan);
HWY_EXPORT(Target);
}  // namespace cpu

namespace detail {
namespace {

class CpuBackend final : public Backend {
 public:
  BackendKind kind() const override { return BackendKind::CPU; }
  std::string unusable_reason() const override { return {}; }
  std::string description() const override {
    return cpu_target_name() + ", " + std::to_string(hardware_threads()) + " hardware threads";
  }
  MemoryModel memory() const override { return MemoryModel::Host; }
  int auto_priority() const override { return 100; }
  std::unique_ptr<BackendPlan> make_plan(const PlanDesc& d) const override {
    const MakeCpuPlan make = [](const PlanDesc& x) {
      return HWY_DYNAMIC_DISPATCH(cpu::MakePlan)(x);
    };
    if (d.cpu.planning == Planning::Measure)
      return make_measured_cpu_plan(d, make, cpu_target_name());
    return std::unique_ptr<BackendPlan>(make(d));
  }
  std::unique_ptr<BackendBlock8Plan> make_block8_plan(const Block8Spec& spec) const override {
    // uint8 samples: the front end converts around the float32 plan.
    if (spec.desc.data == Block8Data::UInt8) return nullptr;
    return make_cpu_block8_plan(spec);
  }
};

}  // namespace

std::shared_ptr<const Backend> make_cpu_backend() { return std::make_shared<CpuBackend>(); }
std::string cpu_target_name() { return HWY_DYNAMIC_DISPATCH(cpu::Target)(); }
std::vector<std::int64_t> cpu_available_targets() {
  std::vector<std::int64_t> r;
  for (std::int64_t t = hwy::SupportedTargets() & HWY_TARGETS; t != 0; t &= t - 1)
    r.push_back(t & ~(t - 1));
  return r;
}
void cpu_force_target(std::int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  // Cached plans were built for the previous target: start the cache afresh.
  const std::size_t capacity = plan_cache_capacity();
  set_plan_cache_capacity(0);
  set_plan_cache_capacity(capacity);
}
}  // namespace detail
}  // namespace dctx
#endif
