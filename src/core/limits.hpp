// SPDX-License-Identifier: BSD-3-Clause
// Limits the whole library shares.
#pragma once

#include <cstddef>

namespace dctx::detail {

/// Largest array rank the library accepts.
inline constexpr std::size_t kMaxRank = 32;

/// This machine's physical memory in bytes (0 when it cannot be told).
std::size_t physical_memory_bytes();

}  // namespace dctx::detail
