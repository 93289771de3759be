// SPDX-License-Identifier: BSD-3-Clause
// The one overlap analysis of the library, from shapes, strides and addresses only (it never
// touches array data): the span an array covers, whether an output's strides make two elements
// alias, and how an input relates to an output. Plans, the 8x8 block engine and the device
// back ends all decide in-place, copy-first and refuse through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace dctx::detail {

/// Lowest and highest element offset (in elements, relative to element 0) of an array of `rank`
/// axes with extents `shape` and element strides `strides`. Every extent must be >= 1.
inline std::pair<std::ptrdiff_t, std::ptrdiff_t> element_span(std::size_t rank,
                                                              const std::size_t* shape,
                                                              const std::ptrdiff_t* strides) {
  std::ptrdiff_t lo = 0, hi = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::ptrdiff_t e = static_cast<std::ptrdiff_t>(shape[d] - 1) * strides[d];
    (e < 0 ? lo : hi) += e;
  }
  return {lo, hi};
}

/// The number of elements of `shape` when `strides` are its C-order strides, else 0 (every
/// extent >= 1): whether the array is C-ordered (the common case, which never overlaps itself:
/// checked before the general test below on every execution) and its span, in one loop.
inline std::size_t c_ordered_elements(std::size_t rank, const std::size_t* shape,
                                      const std::ptrdiff_t* strides) {
  std::ptrdiff_t expected = 1;
  for (std::size_t d = rank; d-- > 0;) {
    if (strides[d] != expected) return 0;
    expected *= static_cast<std::ptrdiff_t>(shape[d]);
  }
  return static_cast<std::size_t>(expected);
}

/// True when no two index tuples map to one element (sufficient test: sorted by |stride|, each
/// stride exceeds the span of all smaller ones). A zero stride on an axis longer than 1 fails.
bool non_self_overlapping(std::size_t rank, const std::size_t* shape,
                          const std::ptrdiff_t* strides);

/// How an input array relates to an output array in memory.
enum class Overlap : std::uint8_t {
  Disjoint = 0,  ///< no byte in common
  Same = 1,      ///< the same elements at the same indices (in place)
  Partial = 2,   ///< anything else: the input must be read before the output is written
};

/// One array's place in an address space: the address of element 0 in bytes, the element size,
/// and its layout.
struct ArrayPlace {
  std::uintptr_t base = 0;  ///< address of element 0
  std::size_t elem_bytes = 0;
  std::size_t rank = 0;
  const std::size_t* shape = nullptr;
  const std::ptrdiff_t* strides = nullptr;
};

/// Same when both arrays start at one address with the same element size, shape and strides;
/// Disjoint when their byte ranges do not meet; Partial otherwise. (Inline: every execution of a
/// plan asks, 8x8 block calls included.)
inline Overlap classify_overlap(const ArrayPlace& in, const ArrayPlace& out) {
  if (in.base == out.base) {
    bool same = in.elem_bytes == out.elem_bytes && in.rank == out.rank;
    for (std::size_t d = 0; same && d < in.rank; ++d)
      same = in.shape[d] == out.shape[d] && in.strides[d] == out.strides[d];
    return same ? Overlap::Same : Overlap::Partial;
  }
  // [first byte, one past the last byte) of each
  const auto [ilo, ihi] = element_span(in.rank, in.shape, in.strides);
  const auto [olo, ohi] = element_span(out.rank, out.shape, out.strides);
  const auto ie = static_cast<std::ptrdiff_t>(in.elem_bytes);
  const auto oe = static_cast<std::ptrdiff_t>(out.elem_bytes);
  const std::uintptr_t in_first = in.base + static_cast<std::uintptr_t>(ilo * ie);
  const std::uintptr_t in_end = in.base + static_cast<std::uintptr_t>((ihi + 1) * ie);
  const std::uintptr_t out_first = out.base + static_cast<std::uintptr_t>(olo * oe);
  const std::uintptr_t out_end = out.base + static_cast<std::uintptr_t>((ohi + 1) * oe);
  return in_end <= out_first || out_end <= in_first ? Overlap::Disjoint : Overlap::Partial;
}

/// An array an operation reads or writes, named for messages.
struct NamedPlace {
  const char* name;
  ArrayPlace place;
};

/// For operations that write several outputs while their input and the other outputs are still
/// to be read (the electrostatic step): refuses, with a dctx::Error prefixed by `fn`, an output
/// whose strides make its elements overlap, or that overlaps the input or another output.
void check_separate_outputs(const char* fn, const NamedPlace& input, const NamedPlace* outputs,
                            std::size_t count);

}  // namespace dctx::detail
