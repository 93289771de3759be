// SPDX-License-Identifier: BSD-3-Clause
// uint8 samples (Block8Data::UInt8) on a back end whose block engine has no uint8 path: its
// float32 plan of the same operation between the conversions of JPEG's level shift
// (colour.hpp: sample - 128 in, round(x + 128) clamped to 0..255 out).
#pragma once

#include <memory>

#include "core/block8_backend.hpp"

namespace dctx::detail {

/// A block plan with uint8 samples over `float_plan`, the same operation on float32 data.
std::unique_ptr<BackendBlock8Plan> make_byte_sample_plan(
    std::unique_ptr<BackendBlock8Plan> float_plan, Block8Op op);

}  // namespace dctx::detail
