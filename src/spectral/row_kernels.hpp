// SPDX-License-Identifier: BSD-3-Clause
// The electrostatic step's passes over rows (row_kernels.cc, once per Highway target): the
// weighting of DREAMPlace's coefficients into the inputs of the three inverse transforms, and the
// scaled copy of the potential's rows into field_x's. Vectors where a row is unit-stride, the same
// expressions element by element otherwise, so that both give the same bits (no fused
// multiply-adds: -ffp-contract=off).
#pragma once

#include <cstddef>

namespace dctx::spectral {

/// One row i of the weighting (src/spectral/electrostatics.cpp): for each j,
///   a = x(j) scale,  t = a / (wu2 + wv2(j))  (t = 0 at j = 0 when zero_first),
///   acc[j % 8] += a t,
///   pot(j) = t pot_i hcos(j)  (when pot),  fy(j) = t wv(j) fy_i,  x(j) = t fx_i hcos(j)  (when
///   write_x; x is left as it was otherwise).
struct WeighRow {
  std::size_t n = 0;
  double scale = 1, wu2 = 0, pot_i = 0, fy_i = 0, fx_i = 0;
  bool zero_first = false, write_x = true;
  const double *wv = nullptr, *wv2 = nullptr, *hcos = nullptr;
};

void weigh_row(const WeighRow& w, float* x, std::ptrdiff_t xs, float* fy, std::ptrdiff_t ys,
               float* pot, std::ptrdiff_t ps, double acc[8]);
void weigh_row(const WeighRow& w, double* x, std::ptrdiff_t xs, double* fy, std::ptrdiff_t ys,
               double* pot, std::ptrdiff_t ps, double acc[8]);

/// y(j) = x(j) r for j < n (the product in double).
void scale_row(const float* x, std::ptrdiff_t xs, double r, float* y, std::ptrdiff_t ys,
               std::size_t n);
void scale_row(const double* x, std::ptrdiff_t xs, double r, double* y, std::ptrdiff_t ys,
               std::size_t n);

}  // namespace dctx::spectral
