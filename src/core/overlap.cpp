// SPDX-License-Identifier: BSD-3-Clause
// Overlap analysis (overlap.hpp): the self-overlap test.
#include "core/overlap.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/limits.hpp"
#include "dctx/types.hpp"

namespace dctx::detail {

bool non_self_overlapping(std::size_t rank, const std::size_t* shape,
                          const std::ptrdiff_t* strides) {
  // (|stride|, extent) of the axes longer than 1; a plain struct, so the array is not zeroed on
  // every call (std::pair's constructor would clear all kMaxRank entries).
  struct Dim {
    std::size_t stride, extent;
  };
  Dim dims[kMaxRank];
  std::size_t nd = 0;
  for (std::size_t d = 0; d < rank && d < kMaxRank; ++d)
    if (shape[d] > 1) dims[nd++] = {static_cast<std::size_t>(std::abs(strides[d])), shape[d]};
  // Insertion sort by stride (then extent): a handful of axes, called on every execute.
  const auto before = [](const Dim& a, const Dim& b) {
    return a.stride < b.stride || (a.stride == b.stride && a.extent < b.extent);
  };
  for (std::size_t i = 1; i < nd; ++i)
    for (std::size_t j = i; j > 0 && before(dims[j], dims[j - 1]); --j)
      std::swap(dims[j], dims[j - 1]);
  std::size_t span = 0;
  for (std::size_t i = 0; i < nd; ++i) {
    if (dims[i].stride <= span) return false;
    span += dims[i].stride * (dims[i].extent - 1);
  }
  return true;
}

void check_separate_outputs(const char* fn, const NamedPlace& input, const NamedPlace* outputs,
                            std::size_t count) {
  for (std::size_t a = 0; a < count; ++a) {
    const NamedPlace& o = outputs[a];
    if (!non_self_overlapping(o.place.rank, o.place.shape, o.place.strides))
      throw Error(std::string(fn) + ": " + o.name +
                  "'s strides make its elements overlap (a zero or too short stride)");
    if (classify_overlap(input.place, o.place) != Overlap::Disjoint)
      throw Error(std::string(fn) + ": " + o.name + " overlaps the " + input.name +
                  "; the outputs must be separate arrays");
    for (std::size_t b = 0; b < a; ++b)
      if (classify_overlap(outputs[b].place, o.place) != Overlap::Disjoint)
        throw Error(std::string(fn) + ": " + outputs[b].name + " and " + o.name +
                    " overlap; the outputs must be separate arrays");
  }
}

}  // namespace dctx::detail
