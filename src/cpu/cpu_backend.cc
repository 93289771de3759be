// CPU back end: the FFT/DCT templates of fft-inl.h, r2r-inl.h and nd_driver-inl.h compiled once
// per SIMD target by Highway's foreach_target, with the best target picked at plan time
// (HWY_DYNAMIC_DISPATCH). The kernels use compiler vector types sized to the target's vectors,
// so the same 1D code runs on scalars or on kLanes lines at once.
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
#if defined(DCTX_HAVE_OPENMP)
#include <omp.h>
#endif

#include "core/backend.hpp"
#include "cpu/twiddle.hpp"
#include "dctx/types.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/cpu_backend.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/targets.h>

#include "cpu/fused2d-inl.h"
#include "cpu/nd_driver-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

// Row-column or the fused 2D path. Auto follows the measurements of docs/benchmarks.md: the fused
// route wins for the forward DCT-II in float64 from 256 to 2048 points a side, and whenever a side
// needs Bluestein (large prime factor); row-column wins or ties everywhere else.
bool UseFused2D(const PlanDesc& d) {
  if (d.algorithm == Algorithm2D::RowColumn || !Fused2DApplies(d)) return false;
  if (d.algorithm == Algorithm2D::Fused) return true;
  const bool forward = detail::effective_type(d, d.transforms[0]) == 2;
  if (!forward) return false;
  const std::size_t lo = std::min(d.shape[0], d.shape[1]), hi = std::max(d.shape[0], d.shape[1]);
  if (ComplexFFT<double>::LargestRadix(d.shape[0]) > kMaxGenericRadix ||
      ComplexFFT<double>::LargestRadix(d.shape[1]) > kMaxGenericRadix)
    return lo >= 64;
  return d.precision == Precision::F64 && lo >= 256 && hi <= 2048;
}

detail::BackendPlan* MakePlan(const PlanDesc& d) {
  const bool fused = UseFused2D(d);
  if (d.precision == Precision::F32) {
    if (fused) return new Fused2DPlan<float>(d);
    return new CpuPlan<float>(d);
  }
  if (fused) return new Fused2DPlan<double>(d);
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
std::unique_ptr<BackendPlan> make_cpu_plan(const PlanDesc& normalized) {
  return std::unique_ptr<BackendPlan>(HWY_DYNAMIC_DISPATCH(cpu::MakePlan)(normalized));
}
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
}
}  // namespace detail
}  // namespace dctx
#endif
