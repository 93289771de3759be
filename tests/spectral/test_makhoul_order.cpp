// SPDX-License-Identifier: BSD-3-Clause
// Makhoul's reordering of several axes at once (src/spectral/makhoul_order.hpp), the one pass the
// Poisson solver's periodic axes go through before the forward transform and after the inverse:
// in place and gathered, on strided views with poisoned padding, every subset of axes, both
// directions, one and two threads, against the index formula written out.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "spectral/makhoul_order.hpp"

namespace {

using dctx::Shape;
using dctx::Strides;
using dctx::spectral::makhoul;
using dctx::spectral::Order;

constexpr double kPoison = -12345.0;

// The index along an axis of length n whose entry lands at m.
std::size_t source(std::size_t n, std::size_t m, Order order) {
  if (order == Order::ToMakhoul) return makhoul(n, m);
  for (std::size_t j = 0; j < n; ++j)
    if (makhoul(n, j) == m) return j;
  return n;  // unreachable: makhoul(n, .) is a permutation
}

// Strides with every outer axis padded by one extra row, the last axis of step `last` (1: the
// unit-stride line loops, 2: the indexed ones).
Strides padded_strides(const Shape& shape, std::ptrdiff_t last = 2) {
  Strides s(shape.size());
  std::ptrdiff_t step = last;
  for (std::size_t a = shape.size(); a-- > 0;) {
    s[a] = step;
    step *= static_cast<std::ptrdiff_t>(shape[a]) + 1;
  }
  return s;
}

std::size_t span(const Shape& shape, const Strides& s) {
  std::size_t end = 1;
  for (std::size_t a = 0; a < shape.size(); ++a) end += (shape[a] - 1) * std::size_t(s[a]);
  return end;
}

// Calls fn(offset, source offset) for every element of the view.
template <class Fn>
void each(const Shape& shape, const Strides& s, const std::vector<bool>& flags, Order order,
          Fn fn) {
  std::size_t total = 1;
  for (std::size_t e : shape) total *= e;
  for (std::size_t i = 0; i < total; ++i) {
    std::ptrdiff_t off = 0, src = 0;
    for (std::size_t a = shape.size(), rest = i; a-- > 0;) {
      const std::size_t idx = rest % shape[a];
      rest /= shape[a];
      off += static_cast<std::ptrdiff_t>(idx) * s[a];
      src += static_cast<std::ptrdiff_t>(flags[a] ? source(shape[a], idx, order) : idx) * s[a];
    }
    fn(off, src);
  }
}

TEST(MakhoulOrder, EverySubsetOfAxesInOnePass) {
  const std::vector<Shape> shapes{{7}, {6, 5}, {4, 5, 6}, {3, 4, 5, 2}, {5, 1, 3}, {2, 8, 9}};
  for (const Shape& shape : shapes)
    for (std::ptrdiff_t last : {1, 2}) {
      const Strides s = padded_strides(shape, last);
      const std::size_t r = shape.size();
      std::vector<double> original(span(shape, s), kPoison);
      double next = 1;
      each(shape, s, std::vector<bool>(r, false), Order::ToMakhoul,
           [&](std::ptrdiff_t off, std::ptrdiff_t) { original[std::size_t(off)] = next++; });
      for (unsigned mask = 0; mask < (1u << r); ++mask) {
        std::vector<bool> flags(r);
        for (std::size_t a = 0; a < r; ++a) flags[a] = (mask >> a) & 1;
        for (Order order : {Order::ToMakhoul, Order::FromMakhoul})
          for (int threads : {1, 2}) {
            std::vector<double> expected(original.size(), kPoison);
            each(shape, s, flags, order, [&](std::ptrdiff_t off, std::ptrdiff_t src) {
              expected[std::size_t(off)] = original[std::size_t(src)];
            });
            std::vector<double> in_place = original;
            dctx::spectral::reorder_axes(in_place.data(), s, shape, flags, order, threads);
            EXPECT_EQ(in_place, expected) << "in place, shape rank " << r << " mask " << mask;
            if (order == Order::ToMakhoul) {
              std::vector<double> gathered(original.size(), kPoison);
              dctx::spectral::gather_to_makhoul(original.data(), s, gathered.data(), s, shape,
                                                flags, threads);
              EXPECT_EQ(gathered, expected) << "gathered, shape rank " << r << " mask " << mask;
            }
            // And back: FromMakhoul undoes ToMakhoul.
            const Order back = order == Order::ToMakhoul ? Order::FromMakhoul : Order::ToMakhoul;
            dctx::spectral::reorder_axes(in_place.data(), s, shape, flags, back, threads);
            EXPECT_EQ(in_place, original) << "round trip, shape rank " << r << " mask " << mask;
          }
      }
    }
}

// Large slices (past the size at which a slice's copy is split across threads) and a long
// axis whose permutation has cycles of many lengths.
TEST(MakhoulOrder, LargeSlicesAcrossThreads) {
  const Shape shape{10, 130, 129};
  for (std::ptrdiff_t last : {1, 2}) {
    const Strides s = padded_strides(shape, last);
    std::vector<double> original(span(shape, s), kPoison);
    double next = 1;
    each(shape, s, {false, false, false}, Order::ToMakhoul,
         [&](std::ptrdiff_t off, std::ptrdiff_t) { original[std::size_t(off)] = next++; });
    const std::vector<bool> flags{true, false, true};
    std::vector<double> expected(original.size(), kPoison);
    each(shape, s, flags, Order::FromMakhoul, [&](std::ptrdiff_t off, std::ptrdiff_t src) {
      expected[std::size_t(off)] = original[std::size_t(src)];
    });
    std::vector<double> in_place = original;
    dctx::spectral::reorder_axes(in_place.data(), s, shape, flags, Order::FromMakhoul, 2);
    EXPECT_EQ(in_place, expected) << "last-axis step " << last;
  }
}

}  // namespace
