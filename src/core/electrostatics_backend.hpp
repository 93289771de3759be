// SPDX-License-Identifier: BSD-3-Clause
// The seam of DREAMPlace's electrostatic step (dctx/electrostatics.hpp) on a device back end:
// what a back end implements (Backend::make_electrostatics) to run a host-memory step on its
// device whole, one upload of the density and one download of each output, instead of four
// plans that each copy in and out with the weighting pass on the host between them. The front
// end (src/spectral/electrostatics.cpp) validates the views, shapes and places first; a back end
// without one (the default) leaves the step to the front end's own route. Also the pieces every
// route shares: the type-3 plans' descriptions and the weighting tables.
#pragma once

#include <cstddef>
#include <vector>

#include "dctx/electrostatics.hpp"

namespace dctx::detail {

/// One validated host-memory step: arrays of the system's M x N grid with element strides (two
/// each); potential null: the fields only.
template <class T>
struct HostStep {
  const T* density = nullptr;
  const std::ptrdiff_t* density_strides = nullptr;
  T* potential = nullptr;
  const std::ptrdiff_t* potential_strides = nullptr;
  T* field_x = nullptr;
  const std::ptrdiff_t* field_x_strides = nullptr;
  T* field_y = nullptr;
  const std::ptrdiff_t* field_y_strides = nullptr;
};

/// A back end's whole step for one system. Thread-safe: solve() is const.
class BackendElectrostatics {
 public:
  virtual ~BackendElectrostatics() = default;
  /// Writes the outputs and returns the energy (Parseval's form, as every route computes it).
  virtual double solve(const HostStep<float>& step) const = 0;
  virtual double solve(const HostStep<double>& step) const = 0;
};

/// One of the step's transforms as a description: unnormalised, both axes of the grid, on
/// `backend` (the front end's plans and the device back ends' are the same descriptions, so they
/// come from the same cache entries).
inline PlanDesc step_plan(const ElectrostaticsDesc& s, AxisTransform t0, AxisTransform t1,
                          BackendKind backend) {
  PlanDesc d;
  d.backend = backend;
  d.device = s.device;
  d.shape = s.shape;
  d.axes = {0, 1};
  d.transforms = {t0, t1};
  d.precision = s.precision;
  d.norm = Norm::Backward;
  d.orthogonalize = false;
  d.cpu = s.cpu;
  return d;
}

/// One of the step's transforms along one axis of the grid (the potential's pass along v, which
/// field_x shares, and the passes along u after it).
inline PlanDesc step_axis_plan(const ElectrostaticsDesc& s, int axis, AxisTransform t,
                               BackendKind backend) {
  PlanDesc d = step_plan(s, t, t, backend);
  d.axes = {axis};
  d.transforms = {t};
  return d;
}

/// The weighting pass's tables for an m x n grid in one array: w_u = 2 pi u / m (m entries),
/// w_v = 2 pi v / n and w_v^2 (n each), each formed in long double and rounded to double.
inline std::vector<double> weight_tables(std::size_t m, std::size_t n) {
  constexpr long double kPi = 3.141592653589793238462643383279502884L;
  std::vector<double> t(m + 2 * n);
  for (std::size_t u = 0; u < m; ++u) t[u] = double(2 * kPi * u / m);
  for (std::size_t v = 0; v < n; ++v) {
    t[m + v] = double(2 * kPi * v / n);
    t[m + n + v] = t[m + v] * t[m + v];
  }
  return t;
}

}  // namespace dctx::detail
