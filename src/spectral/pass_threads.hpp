// SPDX-License-Identifier: BSD-3-Clause
// How many threads the spectral applications' own passes over a grid (weighting, division,
// reordering) use: one below 2^15 elements, where waking the pool costs more than the pass;
// otherwise the plans' count (0: the hardware's).
#pragma once

#include <cstddef>

#include "core/thread_pool.hpp"

namespace dctx::spectral {

inline int pass_threads(std::size_t elements, int requested) {
  if (elements < (std::size_t{1} << 15)) return 1;
  return requested == 0 ? dctx::detail::hardware_threads() : requested;
}

}  // namespace dctx::spectral
