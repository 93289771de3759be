// SPDX-License-Identifier: BSD-3-Clause
// Host-side helpers of the device back ends for strided arrays: the strides of a C-ordered
// array, whether strides are those, the span of elements an array reaches, and copies between a
// strided host array and a dense (C-ordered) one.
#pragma once

#include <cstddef>
#include <vector>

#include "dctx/types.hpp"

namespace dctx::detail {

/// The element strides of a C-ordered array of `shape`.
inline std::vector<std::ptrdiff_t> dense_strides(const Shape& shape) {
  std::vector<std::ptrdiff_t> s(shape.size());
  std::ptrdiff_t k = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    s[d] = k;
    k *= static_cast<std::ptrdiff_t>(shape[d]);
  }
  return s;
}

/// Whether `strides` are those of a C-ordered array of `shape` (axes of length 1 excepted).
inline bool is_dense(const Shape& shape, const std::ptrdiff_t* strides) {
  const auto dense = dense_strides(shape);
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (shape[d] > 1 && strides[d] != dense[d]) return false;
  return true;
}

/// Element offsets of the lowest and highest element of an array (shape, strides), for the span
/// a strided array occupies in its buffer.
inline void element_span(const Shape& shape, const std::ptrdiff_t* strides, std::ptrdiff_t& lo,
                         std::ptrdiff_t& hi) {
  lo = hi = 0;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    const std::ptrdiff_t reach = strides[a] * static_cast<std::ptrdiff_t>(shape[a] - 1);
    (reach < 0 ? lo : hi) += reach;
  }
}

/// Copies between a strided host array and a dense one, element by element in C order:
/// kGather reads `strided` into `dense`, otherwise `dense` is written to `strided`.
template <class T, bool kGather>
void copy_strided(const Shape& shape, T* strided, const std::ptrdiff_t* strides, T* dense) {
  const std::size_t rank = shape.size();
  std::vector<std::size_t> idx(rank, 0);
  std::size_t total = 1;
  for (std::size_t e : shape) total *= e;
  std::ptrdiff_t off = 0;
  for (std::size_t i = 0; i < total; ++i) {
    if constexpr (kGather)
      dense[i] = strided[off];
    else
      strided[off] = dense[i];
    for (std::size_t d = rank; d-- > 0;) {
      off += strides[d];
      if (++idx[d] < shape[d]) break;
      off -= strides[d] * static_cast<std::ptrdiff_t>(shape[d]);
      idx[d] = 0;
    }
  }
}

}  // namespace dctx::detail
