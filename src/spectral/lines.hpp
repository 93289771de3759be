// SPDX-License-Identifier: BSD-3-Clause
// Walking the lines along the last axis of an N-D view: the spectral solvers' passes over the
// data (the Poisson solver's division and its zero-mean check) split lines across threads.
#pragma once

#include <cstddef>
#include <vector>

#include "dctx/view.hpp"

namespace dctx::spectral {

/// The number of lines along the last axis.
inline std::size_t lines_of(const Shape& shape) {
  std::size_t lines = 1;
  for (std::size_t a = 0; a + 1 < shape.size(); ++a) lines *= shape[a];
  return lines;
}

/// fn(offset, idx) for the lines l0 .. l1-1 along the last axis of a view: offset of the line's
/// first element, idx the indices of the other axes (idx[last] unused).
template <class Fn>
void for_lines(const Shape& shape, const Strides& strides, std::size_t l0, std::size_t l1, Fn fn) {
  const std::size_t last = shape.size() - 1;
  std::vector<std::size_t> idx(shape.size(), 0);
  for (std::size_t line = l0; line < l1; ++line) {
    std::ptrdiff_t off = 0;
    for (std::size_t a = last, rest = line; a-- > 0;) {
      idx[a] = rest % shape[a];
      rest /= shape[a];
      off += static_cast<std::ptrdiff_t>(idx[a]) * strides[a];
    }
    fn(off, idx);
  }
}

}  // namespace dctx::spectral
