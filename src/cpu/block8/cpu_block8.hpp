// SPDX-License-Identifier: BSD-3-Clause
// The CPU back end's 8x8 block engine, as the back end hands it to the registry.
#pragma once

#include <memory>

#include "core/backend.hpp"
#include "core/block8_backend.hpp"

namespace dctx::detail {

/// A block plan on the CPU; nullptr when this build has no block engine.
std::unique_ptr<BackendBlock8Plan> make_cpu_block8_plan(const Block8Spec& spec);

}  // namespace dctx::detail
