// SPDX-License-Identifier: BSD-3-Clause
// The weighting pass of DREAMPlace's electrostatic step on the CUDA back end (Lin et al.,
// "DREAMPlace: Deep Learning Toolkit-Enabled GPU Acceleration for Modern VLSI Placement", DAC
// 2019; dctx/electrostatics.hpp), one bin per call: from the DCT-II coefficient a of the density
// map, the inputs of the three type-3 plans (potential, field_x, field_y) and the Parseval term of
// the energy. The same double arithmetic, in the same order, as the CPU's pass
// (src/spectral/electrostatics.cpp), so that the fields equal the CPU's when the transforms do;
// tests/cuda/test_electrostatics_math.cpp checks that on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/electrostatics_backend.hpp"
#include "cuda/hd.hpp"
#include "dctx/electrostatics.hpp"

namespace dctx::cuda_math::es {

using I64 = long long;

/// One weighting pass over an m x n grid: the coefficients sit in fx, which the pass overwrites;
/// pot null: the fields only. Element strides per array; tables w_u = 2 pi u / m,
/// w_v = 2 pi v / n and w_v^2 in double, as the CPU makes them.
template <class T>
struct WeightPass {
  I64 m = 0, n = 0;
  T *pot = nullptr, *fx = nullptr, *fy = nullptr;
  I64 ps[2] = {0, 0}, xs[2] = {0, 0}, ys[2] = {0, 0};
  const double *wu = nullptr, *wv = nullptr, *wv2 = nullptr;
  double scale = 1;  ///< 1 / (m n bin_width bin_height)
};

// The tables of a pass and the descriptions of the step's plans, shared with every route
// (core/electrostatics_backend.hpp).
using detail::step_plan;
using detail::weight_tables;

/// type3_weight of the CPU: 1 at index 0 of a cosine axis (its doubled x_0 halved), else 1/2.
DCTX_HD double cosine_weight(I64 k) { return k == 0 ? 1.0 : 0.5; }

/// Bin (i, j): reads a from fx, writes t h_cos(i) h_cos(j) to pot, t w_v(j) h_cos(i) / 4 to fy
/// and t w_u(i) / 4 h_cos(j) to fx, with t = a / (w_u^2 + w_v^2) (0 at (0, 0)); returns a t,
/// the bin's term of the Parseval sum.
template <class T>
DCTX_HD double weigh_bin(const WeightPass<T>& w, I64 i, I64 j) {
  T* x = w.fx + i * w.xs[0] + j * w.xs[1];
  double t = 0, term = 0;
  if (i != 0 || j != 0) {
    const double a = double(*x) * w.scale;
    const double wu2 = w.wu[i] * w.wu[i];
    t = a / (wu2 + w.wv2[j]);
    term = a * t;
  }
  const double hi = cosine_weight(i);
  if (w.pot) w.pot[i * w.ps[0] + j * w.ps[1]] = static_cast<T>(t * hi * cosine_weight(j));
  w.fy[i * w.ys[0] + j * w.ys[1]] = static_cast<T>(t * w.wv[j] * (hi / 4));
  *x = static_cast<T>(t * (w.wu[i] / 4) * cosine_weight(j));
  return term;
}

}  // namespace dctx::cuda_math::es
