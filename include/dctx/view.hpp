// SPDX-License-Identifier: BSD-3-Clause
// Array views: a pointer, a shape and signed element strides (DUCC cfmav/vfmav style).
#pragma once

#include <cstddef>
#include <utility>

#include "dctx/types.hpp"

namespace dctx {

/// A non-owning N-D view. T may be const. Strides are in elements and may be negative or zero
/// (zero strides are refused for outputs by the transforms). The default strides are C order.
template <class T>
class ArrayView {
 public:
  ArrayView() = default;
  ArrayView(T* data, Shape shape) : data_(data), shape_(std::move(shape)) {
    strides_.resize(shape_.size());
    std::ptrdiff_t s = 1;
    for (std::size_t i = shape_.size(); i-- > 0;) {
      strides_[i] = s;
      s *= static_cast<std::ptrdiff_t>(shape_[i]);
    }
  }
  ArrayView(T* data, Shape shape, Strides strides)
      : data_(data), shape_(std::move(shape)), strides_(std::move(strides)) {
    if (strides_.size() != shape_.size())
      throw Error("ArrayView: strides has " + std::to_string(strides_.size()) +
                  " entries but shape has " + std::to_string(shape_.size()));
  }
  /// A view of mutable data converts to a view of const data.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  ArrayView(const ArrayView<U>& v) : data_(v.data()), shape_(v.shape()), strides_(v.strides()) {}

  T* data() const { return data_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  std::size_t rank() const { return shape_.size(); }
  std::size_t size() const {
    std::size_t n = 1;
    for (auto s : shape_) n *= s;
    return n;
  }

 private:
  T* data_ = nullptr;
  Shape shape_;
  Strides strides_;
};

template <class T>
using View = ArrayView<T>;
template <class T>
using ConstView = ArrayView<const T>;

}  // namespace dctx
