// SPDX-License-Identifier: BSD-3-Clause
// Plan-time side of the CUDA fused route (fused_math.hpp): which descriptions it computes, and the
// per-axis rotation and weight tables, in double, with the axis's scale and scipy's orthogonalize
// corrections folded in (the scales of core/r2r_tables.hpp; roots with the index reduced exactly,
// core/roots.hpp). Host code only; the plan converts the tables to its precision and uploads them.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "core/r2r_tables.hpp"
#include "core/roots.hpp"
#include "cuda/fused_math.hpp"

namespace dctx::cuda_math {

struct FusedAxisTables {
  I64 n = 1;
  int mirror = kCosine;
  std::vector<std::complex<double>> rot;  ///< n entries (fused_math.hpp, FusedGeometry::rot)
  std::vector<double> weight;             ///< n entries (FusedGeometry::weight; 1 forward)
};

/// A description the fused route computes: 1-3 transformed axes (in increasing order; the
/// logical axes 3 - rank .. 2) of an array whose other axes are a batch, all DCT-II-like (forward)
/// or all DCT-III-like (inverse).
struct FusedLayout {
  bool forward = true;
  int rank = 1;
  I64 batch = 1;
  FusedAxisTables axis[3];
  int array_axis[3] = {-1, -1, -1};  ///< the array axis of each logical axis (-1: padding)
  std::vector<int> batch_axes;       ///< the untransformed array axes, in order
  double zero_below = 0;             ///< PlanDesc::coefficient_threshold (0: off)
  /// The transformed lengths in C order (cuFFT's n[]).
  std::vector<long long> fft_dims() const {
    std::vector<long long> r;
    for (int j = 3 - rank; j < 3; ++j) r.push_back(axis[j].n);
    return r;
  }
};

/// Whether the fused route computes the normalised description `d`; when not, `why` says why.
inline bool fused_route_applies(const PlanDesc& d, std::string* why) {
  const auto no = [&](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  const std::size_t rank = d.shape.size(), r = d.axes.size();
  if (r < 1) return no("it transforms no axis");
  if (r > 3) return no("it transforms more than three axes");
  if (rank - r > static_cast<std::size_t>(kMaxBatchAxes))
    return no("it has more than eight untransformed axes");
  for (const AxisTransform& t : d.transforms)
    if (t.kind == Kind::RDFT) return no("the real DFT (rdft) has no CUDA kernel yet");
  const int t0 = detail::effective_type(d, d.transforms[0]);
  for (const AxisTransform& t : d.transforms)
    if (detail::effective_type(d, t) != t0) return no("its axes mix transform types");
  if (t0 != 2 && t0 != 3) return no("types I and IV have no CUDA kernel yet");
  for (int a : d.axes)
    if (d.shape[static_cast<std::size_t>(a)] < 2) return no("a transformed axis has length 1");
  return true;
}

/// The layout and tables of a description fused_route_applies() accepts.
inline FusedLayout fused_layout(const PlanDesc& d) {
  FusedLayout L;
  const std::size_t rank = d.shape.size(), r = d.axes.size();
  L.rank = static_cast<int>(r);
  L.forward = detail::effective_type(d, d.transforms[0]) == 2;
  L.zero_below = d.coefficient_threshold;
  std::vector<int> axes(d.axes.begin(), d.axes.end());
  std::sort(axes.begin(), axes.end());
  for (int a = 0; a < static_cast<int>(rank); ++a)
    if (!std::binary_search(axes.begin(), axes.end(), a)) {
      L.batch_axes.push_back(a);
      L.batch *= static_cast<I64>(d.shape[static_cast<std::size_t>(a)]);
    }
  const bool ortho = d.orthogonalize.value_or(d.norm == Norm::Ortho);
  const long double r2 = std::sqrt(2.0L);
  for (int j = 0; j < 3; ++j) {
    FusedAxisTables& A = L.axis[j];
    const int pad = 3 - L.rank;
    if (j < pad) {  // a padding axis of length 1
      A.rot = {1.0};
      A.weight = {1.0};
      continue;
    }
    const int axis = axes[static_cast<std::size_t>(j - pad)];
    L.array_axis[j] = axis;
    std::size_t i = 0;
    while (d.axes[i] != axis) ++i;
    const AxisTransform t = d.transforms[i];
    const std::size_t n = d.shape[static_cast<std::size_t>(axis)];
    A.n = static_cast<I64>(n);
    A.mirror = t.kind == Kind::DCT ? kCosine : t.kind == Kind::DST ? kReversed : kShifted;
    // orthogonalize touches DCT index 0 of DCT and DST (DST's last entry); DXST has none.
    const bool fix0 = ortho && t.kind != Kind::DXST;
    const long double f = detail::axis_scale(d, t, n);
    const detail::RootTable root(static_cast<std::int64_t>(4 * n), L.forward ? -1 : +1);
    A.rot.resize(n);
    A.weight.assign(n, 1.0);
    for (std::size_t k = 0; k < n; ++k) {
      long double s = L.forward ? f : 1.0L;
      if (L.forward && fix0 && k == 0) s /= r2;
      A.rot[k] = detail::to_double(s * root(static_cast<std::int64_t>(k)));
      if (!L.forward) A.weight[k] = static_cast<double>(fix0 && k == 0 ? f * r2 : f);
    }
  }
  return L;
}

/// The geometry of `L` over tables already converted to T and placed at rot[j], weight[j], for
/// arrays with the element strides `in_strides` and `out_strides` (one per array axis).
template <class T>
FusedGeometry<T> fused_geometry(const FusedLayout& L, const Cx<T>* const rot[3],
                                const T* const weight[3], const std::ptrdiff_t* in_strides,
                                const std::ptrdiff_t* out_strides, const Shape& shape) {
  FusedGeometry<T> g;
  g.batch = L.batch;
  g.rank = L.rank;
  g.zero_below = static_cast<T>(L.zero_below);  // compared in the data's precision
  for (int j = 0; j < 3; ++j) {
    g.n[j] = L.axis[j].n;
    g.mirror[j] = L.axis[j].mirror;
    g.rot[j] = rot[j];
    g.weight[j] = weight[j];
    if (L.array_axis[j] >= 0) {
      g.in_stride[j] = in_strides[L.array_axis[j]];
      g.out_stride[j] = out_strides[L.array_axis[j]];
    }
  }
  g.batch_axes = static_cast<int>(L.batch_axes.size());
  for (int a = 0; a < g.batch_axes; ++a) {
    const int axis = L.batch_axes[static_cast<std::size_t>(a)];
    g.batch_shape[a] = static_cast<I64>(shape[static_cast<std::size_t>(axis)]);
    g.batch_in_stride[a] = in_strides[axis];
    g.batch_out_stride[a] = out_strides[axis];
  }
  return g;
}

}  // namespace dctx::cuda_math
