// SPDX-License-Identifier: BSD-3-Clause
// The CPU back end's own interface: its registration and the SIMD-target controls tests use.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/backend.hpp"

namespace dctx::detail {

/// The CPU back end (Highway run-time dispatch over the compiled SIMD targets).
std::shared_ptr<const Backend> make_cpu_backend();

/// Name of the SIMD target the CPU back end uses now (e.g. "AVX3", "AVX2", "EMU128").
std::string cpu_target_name();
/// Highway target bits compiled into the CPU back end's transforms and supported by this CPU.
std::vector<std::int64_t> cpu_available_targets();
/// Restrict every dispatching kernel (transforms and 8x8 blocks) to `target` from now on; 0
/// restores the best supported target. For tests that run every compiled target.
void cpu_force_target(std::int64_t target);

}  // namespace dctx::detail
