// SPDX-License-Identifier: BSD-3-Clause
// Planning::Measure for the CPU back end (measured_plan.cpp).
#pragma once

#include <memory>
#include <string>

#include "core/backend.hpp"

namespace dctx::detail {

/// Builds the CPU plan of a normalised description (the back end's dispatched MakePlan).
using MakeCpuPlan = BackendPlan* (*)(const PlanDesc&);

/// The plan of `d` with its 2D algorithm chosen by timing (d.cpu.planning == Measure): the
/// wisdom's entry for (target, d) when there is one; else each distinct candidate (the rule's
/// pick, row-column, fused 2D) built and run on scratch data within kMeasureBudgetSeconds, the
/// fastest kept and remembered. Arrays past kMeasureMaxElements keep the rule's pick untimed.
std::unique_ptr<BackendPlan> make_measured_cpu_plan(const PlanDesc& d, MakeCpuPlan make,
                                                    const std::string& target);

inline constexpr double kMeasureBudgetSeconds = 0.010;
inline constexpr std::size_t kMeasureMaxElements = std::size_t{1} << 18;

}  // namespace dctx::detail
