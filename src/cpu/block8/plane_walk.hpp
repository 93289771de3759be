// SPDX-License-Identifier: BSD-3-Clause
// How the CPU's block engine walks a batch of planes: strips of 8 rows, split across the core's
// thread pool, each run straight on the caller's memory when the layout allows (unit column
// stride, no edge to replicate or crop) and otherwise through an 8-row strip buffer that
// replicates the input's last row and column and crops the output.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/block8_backend.hpp"
#include "core/thread_pool.hpp"

namespace dctx::block8 {

/// A batch of planes of element type T (the typed form of detail::Block8Planes).
template <class T>
struct Planes {
  T* data = nullptr;
  std::size_t count = 1;  // planes
  std::ptrdiff_t ps = 0;  // plane stride
  std::size_t rows = 0, cols = 0;
  std::ptrdiff_t rs = 0, cs = 0;
  T* plane(std::size_t b) const { return data + std::ptrdiff_t(b) * ps; }
  T* at(std::size_t b, std::size_t r, std::size_t c) const {
    return plane(b) + std::ptrdiff_t(r) * rs + std::ptrdiff_t(c) * cs;
  }
};

template <class T>
Planes<T> typed_planes(const detail::Block8Planes& p) {
  return {static_cast<T*>(const_cast<void*>(p.data)),
          p.count,
          p.plane_stride,
          p.rows,
          p.cols,
          p.row_stride,
          p.col_stride};
}

/// The input as it can be read while the output is written: itself, or (Overlap::Partial) a
/// compact copy in `keep`.
template <class T>
Planes<const T> readable_input(const Planes<const T>& in, detail::Overlap overlap,
                               std::vector<T>& keep) {
  if (overlap != detail::Overlap::Partial) return in;
  keep.resize(in.count * in.rows * in.cols);
  for (std::size_t b = 0; b < in.count; ++b)
    for (std::size_t r = 0; r < in.rows; ++r)
      for (std::size_t k = 0; k < in.cols; ++k)
        keep[(b * in.rows + r) * in.cols + k] = *in.at(b, r, k);
  return {keep.data(),
          in.count,
          std::ptrdiff_t(in.rows * in.cols),
          in.rows,
          in.cols,
          std::ptrdiff_t(in.cols),
          1};
}

/// Work on a region of `rows` x `cols` (multiples of 8) with unit column stride and row strides
/// `is`, `os`; returns the zero levels it made, with detail::kNaNCoefficient set when it met a NaN
/// coefficient to quantize. `ctx`: the work's constants.
template <class T, class TO = T>
using Work = std::uint64_t (*)(const T* in, std::ptrdiff_t is, TO* out, std::ptrdiff_t os,
                               std::size_t rows, std::size_t cols, const void* ctx);

/// Apply `work` to every plane: the padded plane is pr x pc (multiples of 8). `in` may be smaller
/// (its last row/column is replicated), `out` may be smaller (cropped). Returns the zero levels,
/// with detail::kNaNCoefficient set when any work met a NaN coefficient.
template <class T, class TO = T>
std::uint64_t run_planes(const Planes<const T>& in, const Planes<TO>& out, std::size_t pr,
                         std::size_t pc, Work<T, TO> work, const void* ctx, int nthreads) {
  if (pr == 0 || pc == 0 || in.count == 0) return 0;
  const std::size_t strips = pr / 8;
  const bool direct = in.cs == 1 && out.cs == 1 && in.cols == pc && out.cols == pc;
  const std::size_t ndirect = direct ? std::min(in.rows, out.rows) / 8 : 0;
  std::atomic<std::uint64_t> total{0};
  std::atomic<bool> nan{false};
  detail::parallel_for(nthreads, in.count * strips, [&](std::size_t g0, std::size_t g1) {
    std::vector<T> strip;
    std::vector<TO> strip_out;  // when the types differ (else the work runs in place on strip)
    std::uint64_t zeros = 0, flags = 0;
    for (std::size_t g = g0; g < g1;) {
      const std::size_t b = g / strips, s = g % strips;
      const std::size_t end = std::min(strips, s + (g1 - g));
      if (s < ndirect) {  // run straight on the caller's memory
        const std::size_t e = std::min(end, ndirect);
        zeros += work(in.at(b, 8 * s, 0), in.rs, out.at(b, 8 * s, 0), out.rs, 8 * (e - s), pc, ctx);
        flags |= zeros;
        zeros &= ~detail::kNaNCoefficient;
        g += e - s;
        continue;
      }
      // Through an 8 x pc buffer: gather with edge replication, transform, scatter with cropping.
      strip.resize(8 * pc);
      for (std::size_t i = 0; i < 8; ++i) {
        const std::size_t r = std::min(8 * s + i, in.rows - 1);
        const T* src = in.at(b, r, 0);
        for (std::size_t c = 0; c < pc; ++c)
          strip[i * pc + c] = src[std::ptrdiff_t(std::min(c, in.cols - 1)) * in.cs];
      }
      TO* result = nullptr;
      if constexpr (std::is_same_v<T, TO>) {
        result = strip.data();
      } else {
        strip_out.resize(8 * pc);
        result = strip_out.data();
      }
      zeros += work(strip.data(), std::ptrdiff_t(pc), result, std::ptrdiff_t(pc), 8, pc, ctx);
      flags |= zeros;
      zeros &= ~detail::kNaNCoefficient;
      for (std::size_t i = 0; i < 8 && 8 * s + i < out.rows; ++i) {
        TO* dst = out.at(b, 8 * s + i, 0);
        for (std::size_t c = 0; c < out.cols; ++c)
          dst[std::ptrdiff_t(c) * out.cs] = result[i * pc + c];
      }
      ++g;
    }
    total.fetch_add(zeros, std::memory_order_relaxed);
    if (flags & detail::kNaNCoefficient) nan.store(true, std::memory_order_relaxed);
  });
  return total.load() | (nan.load() ? detail::kNaNCoefficient : 0);
}

}  // namespace dctx::block8
