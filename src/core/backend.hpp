// The seam between the public Plan and the back ends (CPU today; CUDA, OpenCL, MPI later).
// A back end turns a normalised PlanDesc into a BackendPlan; Plan validates views and calls it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dctx/plan.hpp"

namespace dctx::detail {

/// Largest array rank the library accepts.
inline constexpr std::size_t kMaxRank = 32;

/// A back end's compiled plan. execute() receives validated arguments: data pointers, element
/// strides with one entry per axis of desc.shape, `in` either equal to `out` (same pointer and
/// strides: in place) or not overlapping it. It must be thread-safe (const, no shared scratch).
class BackendPlan {
 public:
  virtual ~BackendPlan() = default;
  virtual void execute(const float* in, const std::ptrdiff_t* in_strides, float* out,
                       const std::ptrdiff_t* out_strides) const = 0;
  virtual void execute(const double* in, const std::ptrdiff_t* in_strides, double* out,
                       const std::ptrdiff_t* out_strides) const = 0;
  /// Human-readable algorithm summary.
  virtual std::string describe() const = 0;
};

/// CPU back end (src/cpu): picks the best compiled SIMD target at run time.
std::unique_ptr<BackendPlan> make_cpu_plan(const PlanDesc& normalized);
/// Name of the SIMD target the CPU back end uses now (e.g. "AVX3", "AVX2", "EMU128").
std::string cpu_target_name();
/// Highway target bits compiled into the CPU back end and supported by this CPU.
std::vector<std::int64_t> cpu_available_targets();
/// Restrict the CPU back end to `target` for plans built from now on (0 restores the best one).
/// For tests that run every compiled target.
void cpu_force_target(std::int64_t target);

/// Scale factor of one axis (norm and direction) as scipy.fft applies it.
double axis_scale(const PlanDesc& d, AxisTransform t, std::size_t n);
/// The transform type an axis actually computes: an inverse plan runs the inverse type.
inline int effective_type(const PlanDesc& d, AxisTransform t) {
  return d.direction == Direction::Inverse ? inverse_type(t.type) : t.type;
}

}  // namespace dctx::detail
