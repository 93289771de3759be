// Overlap analysis (overlap.hpp).
#include "core/overlap.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/limits.hpp"

namespace dctx::detail {

std::pair<std::ptrdiff_t, std::ptrdiff_t> element_span(std::size_t rank, const std::size_t* shape,
                                                       const std::ptrdiff_t* strides) {
  std::ptrdiff_t lo = 0, hi = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::ptrdiff_t e = static_cast<std::ptrdiff_t>(shape[d] - 1) * strides[d];
    (e < 0 ? lo : hi) += e;
  }
  return {lo, hi};
}

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

Overlap classify_overlap(const ArrayPlace& in, const ArrayPlace& out) {
  if (in.base == out.base && in.elem_bytes == out.elem_bytes && in.rank == out.rank &&
      std::equal(in.shape, in.shape + in.rank, out.shape) &&
      std::equal(in.strides, in.strides + in.rank, out.strides))
    return Overlap::Same;
  const auto bytes = [](const ArrayPlace& a) {
    const auto [lo, hi] = element_span(a.rank, a.shape, a.strides);
    const auto e = static_cast<std::ptrdiff_t>(a.elem_bytes);
    // [first byte, one past the last byte)
    return std::pair<std::uintptr_t, std::uintptr_t>{
        a.base + static_cast<std::uintptr_t>(lo * e),
        a.base + static_cast<std::uintptr_t>((hi + 1) * e)};
  };
  const auto [ilo, ihi] = bytes(in);
  const auto [olo, ohi] = bytes(out);
  return ihi <= olo || ohi <= ilo ? Overlap::Disjoint : Overlap::Partial;
}

}  // namespace dctx::detail
