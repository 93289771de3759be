// SPDX-License-Identifier: BSD-3-Clause
// The CUDA back end's plans: the fused route (fused_plan.cpp: reorder, cuFFT, rotation, for
// DCT/DST/DXST types II and III on one to three axes of strided arrays), the host route for the
// rest (host_route.cpp: the CPU back end, device arrays copied through host memory) and the 8x8
// block plans (block8_plan.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/dense_layout.hpp"
#include "core/electrostatics_backend.hpp"
#include "cuda/runtime.hpp"

namespace dctx::cu {

/// A plan of the fused route on `device`; `d` must pass cuda_math::fused_route_applies().
std::unique_ptr<detail::BackendPlan> make_fused_plan(const DeviceInfo& device, const PlanDesc& d);
/// A plan that runs `d` on the CPU back end; `why` goes into describe().
std::unique_ptr<detail::BackendPlan> make_host_route_plan(const DeviceInfo& device,
                                                          const PlanDesc& d, std::string why);
/// An 8x8 block plan on `device` (block8_plan.cpp, block8_kernels.cu); built with DCTX_BLOCK8.
std::unique_ptr<detail::BackendBlock8Plan> make_block8_plan(const DeviceInfo& device,
                                                            const detail::Block8Spec& spec);
/// The whole electrostatic step for ElectrostaticSystem::solve() on host arrays
/// (electrostatics.cpp): one upload of the density, one download per output.
std::unique_ptr<detail::BackendElectrostatics> make_electrostatics_step(
    const ElectrostaticsDesc& d);
/// A CPU plan of `d`, for the host route.
std::unique_ptr<detail::BackendPlan> make_cpu_plan(const PlanDesc& d);
/// Runs `cpu` (a CPU plan of `d`) on the device arrays of `call`: the spans they occupy are
/// copied to the host, transformed and copied back, in order on the call's stream.
void run_through_host(const detail::BackendPlan& cpu, const PlanDesc& d,
                      const detail::DeviceCall& call);

// Strided host arrays and spans (core/dense_layout.hpp).
using detail::dense_strides;
using detail::is_dense;

}  // namespace dctx::cu
