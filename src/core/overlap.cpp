// SPDX-License-Identifier: BSD-3-Clause
// Overlap analysis (overlap.hpp): the self-overlap test.
#include "core/overlap.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/limits.hpp"

namespace dctx::detail {

bool non_self_overlapping(std::size_t rank, const std::size_t* shape,
                          const std::ptrdiff_t* strides) {
  std::pair<std::size_t, std::size_t> dims[kMaxRank];  // (|stride|, extent), no allocation
  std::size_t nd = 0;
  for (std::size_t d = 0; d < rank && d < kMaxRank; ++d)
    if (shape[d] > 1) dims[nd++] = {static_cast<std::size_t>(std::abs(strides[d])), shape[d]};
  std::sort(dims, dims + nd);
  std::size_t span = 0;
  for (std::size_t i = 0; i < nd; ++i) {
    if (dims[i].first <= span) return false;
    span += dims[i].first * (dims[i].second - 1);
  }
  return true;
}

}  // namespace dctx::detail
