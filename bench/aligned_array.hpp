// SPDX-License-Identifier: BSD-3-Clause
// Uninitialised arrays on 64-byte boundaries for the benchmark programs (FFTW's new-array
// execute needs the alignment its plan saw; dctx's streamed stores need whole cache lines).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace dctx_bench {

struct FreeAligned {
  void operator()(void* p) const { std::free(p); }
};
template <class T>
using AlignedArray = std::unique_ptr<T[], FreeAligned>;

// n uninitialised elements, 64-byte aligned.
template <class T>
AlignedArray<T> aligned_array(std::size_t n) {
  const std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
  T* p = static_cast<T*>(std::aligned_alloc(64, bytes));
  if (!p) throw std::bad_alloc();
  return AlignedArray<T>(p);
}

}  // namespace dctx_bench
