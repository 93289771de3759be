// SPDX-License-Identifier: BSD-3-Clause
// Limits the whole library shares.
#pragma once

#include <cstddef>

namespace dctx::detail {

/// Largest array rank the library accepts.
inline constexpr std::size_t kMaxRank = 32;

}  // namespace dctx::detail
