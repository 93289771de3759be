// SPDX-License-Identifier: BSD-3-Clause
// The same 2D array in another layout, for tests that compare the bits of two data paths.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "dctx/dctx.hpp"

namespace dctx::test {

/// Plan p (over a rows x cols shape) run on a column-major copy of the row-major array x, into
/// a column-major output poisoned with NaN first; the result returned in row-major order.
template <class T>
std::vector<T> run_column_major(const Plan& p, const std::vector<T>& x, std::size_t rows,
                                std::size_t cols) {
  const Shape s = {rows, cols};
  const std::size_t n = rows * cols;
  std::vector<T> xf(n), f(n, std::numeric_limits<T>::quiet_NaN()), y(n);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) xf[i + rows * j] = x[i * cols + j];
  const Strides fs = {1, static_cast<std::ptrdiff_t>(rows)};
  p.execute(ConstView<T>(xf.data(), s, fs), View<T>(f.data(), s, fs));
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) y[i * cols + j] = f[i + rows * j];
  return y;
}

}  // namespace dctx::test
