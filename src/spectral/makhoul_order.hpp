// SPDX-License-Identifier: BSD-3-Clause
// Makhoul's reordering of one axis of an N-D view (J. Makhoul, "A fast cosine transform in one
// and two dimensions", IEEE TASSP 1980): entry m of the reordered axis is entry makhoul(n, m) of
// the original (even entries ascending, then odd ones descending). A DCT-II of the reordered axis
// is the real DFT of the original in disguise; the Poisson solver uses it for periodic axes
// (docs/poisson.md). Whole slices move along an outer axis (contiguous rows, cycle by cycle when
// in place); entries move within each line along the last axis.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/thread_pool.hpp"
#include "dctx/view.hpp"

namespace dctx::spectral {

inline std::size_t makhoul(std::size_t n, std::size_t m) {
  return m % 2 == 0 ? m / 2 : n - (m + 1) / 2;
}

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

enum class Order : unsigned char { ToMakhoul, FromMakhoul };

namespace detail_order {

inline std::ptrdiff_t offset(const std::vector<std::size_t>& idx, const Strides& s) {
  std::ptrdiff_t off = 0;
  for (std::size_t a = 0; a + 1 < s.size(); ++a) off += static_cast<std::ptrdiff_t>(idx[a]) * s[a];
  return off;
}

// dst = src for two views of `shape` (a slice: one axis fewer than the array), its lines split
// across `threads`.
template <class T>
void copy(const T* src, const Strides& ss, T* dst, const Strides& ds, const Shape& shape,
          int threads) {
  const std::size_t last = shape.size() - 1, n = shape[last];
  const std::ptrdiff_t s_step = ss[last], d_step = ds[last];
  dctx::detail::parallel_for(threads, lines_of(shape), [&](std::size_t l0, std::size_t l1) {
    for_lines(shape, ds, l0, l1, [&](std::ptrdiff_t off, const std::vector<std::size_t>& idx) {
      const T* s = src + offset(idx, ss);
      T* d = dst + off;
      if (s_step == 1 && d_step == 1) {
        std::copy(s, s + n, d);
        return;
      }
      for (std::size_t j = 0; j < n; ++j)
        d[static_cast<std::ptrdiff_t>(j) * d_step] = s[static_cast<std::ptrdiff_t>(j) * s_step];
    });
  });
}

}  // namespace detail_order

/// C-order strides of `shape`.
inline Strides c_strides(const Shape& shape) {
  Strides s(shape.size(), 1);
  for (std::size_t a = shape.size() - 1; a-- > 0;)
    s[a] = s[a + 1] * static_cast<std::ptrdiff_t>(shape[a + 1]);
  return s;
}

/// from[m] of one axis of length n: the index whose entry lands at m.
inline std::vector<std::size_t> makhoul_from(std::size_t n, Order order) {
  std::vector<std::size_t> from(n);
  for (std::size_t m = 0; m < n; ++m) {
    if (order == Order::ToMakhoul)
      from[m] = makhoul(n, m);
    else
      from[makhoul(n, m)] = m;
  }
  return from;
}

/// One unit-stride line of n entries reordered from s into d (no overlap), the loops of
/// from[] written out so that they vectorise: ToMakhoul d[2k] = s[k], d[2k+1] = s[n-1-k];
/// FromMakhoul the inverse.
template <class T>
void makhoul_line(const T* s, T* d, std::size_t n, Order order) {
  const std::size_t h = n / 2;
  if (order == Order::ToMakhoul) {
    for (std::size_t k = 0; k < h; ++k) {
      d[2 * k] = s[k];
      d[2 * k + 1] = s[n - 1 - k];
    }
    if (n % 2) d[n - 1] = s[h];
  } else {
    for (std::size_t k = 0; k < h; ++k) {
      d[k] = s[2 * k];
      d[n - 1 - k] = s[2 * k + 1];
    }
    if (n % 2) d[h] = s[n - 1];
  }
}

namespace detail_order {

// dst[i] = src[from_0[i_0], from_1[i_1], ...] for two views of `shape` that do not overlap (an
// empty from: that axis is not permuted; the others are makhoul_from(n, order)), lines split
// across `threads`.
template <class T>
void gather(const T* src, const Strides& ss, T* dst, const Strides& ds, const Shape& shape,
            const std::vector<std::vector<std::size_t>>& from, Order order, int threads) {
  const std::size_t last = shape.size() - 1, n = shape[last];
  const std::vector<std::size_t>& from_last = from[last];
  dctx::detail::parallel_for(threads, lines_of(shape), [&](std::size_t l0, std::size_t l1) {
    for_lines(shape, ds, l0, l1, [&](std::ptrdiff_t off, const std::vector<std::size_t>& idx) {
      std::ptrdiff_t s_off = 0;
      for (std::size_t a = 0; a < last; ++a)
        s_off += static_cast<std::ptrdiff_t>(from[a].empty() ? idx[a] : from[a][idx[a]]) * ss[a];
      const T* s = src + s_off;
      T* d = dst + off;
      const std::ptrdiff_t s_step = ss[last], d_step = ds[last];
      if (from_last.empty()) {
        if (s_step == 1 && d_step == 1) {
          std::copy(s, s + n, d);
          return;
        }
        for (std::size_t m = 0; m < n; ++m)
          d[static_cast<std::ptrdiff_t>(m) * d_step] = s[static_cast<std::ptrdiff_t>(m) * s_step];
        return;
      }
      if (s_step == 1 && d_step == 1) {
        makhoul_line(s, d, n, order);
        return;
      }
      for (std::size_t m = 0; m < n; ++m)
        d[static_cast<std::ptrdiff_t>(m) * d_step] =
            s[static_cast<std::ptrdiff_t>(from_last[m]) * s_step];
    });
  });
}

}  // namespace detail_order

/// `dst` (of `shape`, strides `ds`) reordered in place along every axis whose `reorder` flag is
/// set (ToMakhoul: entry m of such an axis becomes the old entry makhoul(n, m); FromMakhoul: the
/// inverse), in one pass over the data: the first such axis by cycles of whole slices (one slice
/// held aside per cycle), each slice moved with the later axes' permutations applied on the way;
/// a slice that stays in place goes through the held buffer. Only the last axis: within each line.
template <class T>
void reorder_axes(T* dst, const Strides& ds, const Shape& shape, const std::vector<bool>& reorder,
                  Order order, int threads) {
  const std::size_t r = shape.size(), last = r - 1;
  std::size_t axis = 0;
  while (axis < r && !reorder[axis]) ++axis;
  if (axis == r) return;
  std::vector<std::vector<std::size_t>> from(r);
  for (std::size_t a = axis; a < r; ++a)
    if (reorder[a]) from[a] = makhoul_from(shape[a], order);
  if (axis == last) {  // within each line
    const std::size_t n = shape[last];
    const std::vector<std::size_t>& f = from[last];
    dctx::detail::parallel_for(threads, lines_of(shape), [&](std::size_t l0, std::size_t l1) {
      std::vector<T> line(n);
      for_lines(shape, ds, l0, l1, [&](std::ptrdiff_t off, const std::vector<std::size_t>&) {
        if (ds[last] == 1) {
          std::copy(dst + off, dst + off + static_cast<std::ptrdiff_t>(n), line.begin());
          makhoul_line(line.data(), dst + off, n, order);
          return;
        }
        for (std::size_t m = 0; m < n; ++m)
          line[m] = dst[off + static_cast<std::ptrdiff_t>(f[m]) * ds[last]];
        for (std::size_t m = 0; m < n; ++m)
          dst[off + static_cast<std::ptrdiff_t>(m) * ds[last]] = line[m];
      });
    });
    return;
  }
  // The slices along `axis`: the axes after it (permuted on the way), for each index of the
  // axes before it (not permuted).
  const Shape sub(shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1, shape.end());
  const Strides sub_ds(ds.begin() + static_cast<std::ptrdiff_t>(axis) + 1, ds.end());
  const std::vector<std::vector<std::size_t>> sub_from(from.begin() + axis + 1, from.end());
  const std::vector<std::vector<std::size_t>> identity(sub.size());
  bool inner = false;  // a later axis is permuted too
  for (const auto& t : sub_from) inner = inner || !t.empty();
  std::size_t slice = 1, outer = 1;
  for (std::size_t e : sub) slice *= e;
  for (std::size_t a = 0; a < axis; ++a) outer *= shape[a];
  const Strides held_s = c_strides(sub);
  std::vector<T> held(slice);
  const int slice_threads = slice < (std::size_t{1} << 14) ? 1 : threads;
  const std::size_t n = shape[axis];
  const std::vector<std::size_t>& f = from[axis];
  for (std::size_t o = 0; o < outer; ++o) {
    std::ptrdiff_t base = 0;
    for (std::size_t a = axis, rest = o; a-- > 0;) {
      base += static_cast<std::ptrdiff_t>(rest % shape[a]) * ds[a];
      rest /= shape[a];
    }
    const auto at = [&](std::size_t i) {
      return dst + base + static_cast<std::ptrdiff_t>(i) * ds[axis];
    };
    std::vector<bool> done(n, false);
    for (std::size_t start = 0; start < n; ++start) {
      if (done[start] || (f[start] == start && !inner)) continue;
      // Hold slice `start` as it is; then follow the cycle: m <- from[m] (inner axes permuted).
      detail_order::gather(at(start), sub_ds, held.data(), held_s, sub, identity, order,
                           slice_threads);
      std::size_t m = start;
      for (; f[m] != start; m = f[m]) {
        detail_order::gather(at(f[m]), sub_ds, at(m), sub_ds, sub, sub_from, order, slice_threads);
        done[m] = true;
      }
      detail_order::gather(held.data(), held_s, at(m), sub_ds, sub, sub_from, order, slice_threads);
      done[m] = true;
    }
  }
}

/// dst = src with every axis whose `reorder` flag is set put in Makhoul's order at once (one
/// pass instead of one per axis). src and dst must not overlap.
template <class T>
void gather_to_makhoul(const T* src, const Strides& ss, T* dst, const Strides& ds,
                       const Shape& shape, const std::vector<bool>& reorder, int threads) {
  std::vector<std::vector<std::size_t>> from(shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a)
    if (reorder[a]) from[a] = makhoul_from(shape[a], Order::ToMakhoul);
  detail_order::gather(src, ss, dst, ds, shape, from, Order::ToMakhoul, threads);
}

/// dst = src into a C-ordered array of `shape` (strides returned).
template <class T>
Strides copy_c_order(const T* src, const Strides& ss, T* dst, const Shape& shape, int threads) {
  const Strides ds = c_strides(shape);
  detail_order::copy(src, ss, dst, ds, shape, threads);
  return ds;
}

}  // namespace dctx::spectral
