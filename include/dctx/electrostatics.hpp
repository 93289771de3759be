// SPDX-License-Identifier: BSD-3-Clause
// The electrostatic system of DREAMPlace (Y. Lin et al., "DREAMPlace: Deep Learning Toolkit-
// Enabled GPU Acceleration for Modern VLSI Placement", DAC 2019; after ePlace): from a bin
// density map, the potential, the two field components and the energy, with the published
// algorithm's transforms and scaling; and those transforms themselves (IDCT2, IDXST_IDCT,
// IDCT_IDXST), which "A New Acceleration Paradigm for Discrete Cosine Transform and Other
// Fourier-Related Transforms" computes for it. Definitions: docs/electrostatics.md.
#pragma once

#include <memory>
#include <string>

#include "dctx/plan.hpp"
#include "dctx/types.hpp"
#include "dctx/view.hpp"

namespace dctx {

/// DREAMPlace's inverse transforms of an M x N array x (no weight on the zero-frequency terms):
///   idcct2:      y(u, v) = sum_p sum_q x(p, q) cos(pi p (2u+1) / 2M) cos(pi q (2v+1) / 2N)
///   idxst_idct:  y(u, v) = sum_p sum_q x(p, q) sin(pi p (2u+1) / 2M) cos(pi q (2v+1) / 2N)
///   idct_idxst:  y(u, v) = sum_p sum_q x(p, q) cos(pi p (2u+1) / 2M) sin(pi q (2v+1) / 2N)
/// (IDXST: y_k = sum_n x_n sin(pi n (2k+1) / 2N), the core's DXST-III halved: Kind::DXST.)
/// `out` may be `in`.
enum class DreamTransform : unsigned char { IdcCt2 = 0, IdxstIdct = 1, IdctIdxst = 2 };
void dream_transform(DreamTransform t, const ConstView<float>& in, const View<float>& out,
                     const CpuOptions& cpu = {});
void dream_transform(DreamTransform t, const ConstView<double>& in, const View<double>& out,
                     const CpuOptions& cpu = {});

struct ElectrostaticsDesc {
  Shape shape;                           ///< bins: M along axis 0 (x), N along axis 1 (y)
  double bin_width = 1, bin_height = 1;  ///< the density map is divided by their product
  Precision precision = Precision::F64;
  /// Where the transforms run. OpenCL and CUDA run the whole step on their device (one upload,
  /// one download per output; the weighting a kernel: in double, as on the CPU, except on an
  /// OpenCL device without cl_khr_fp64, where it runs in float).
  BackendKind backend = BackendKind::Auto;
  DeviceOptions device;  ///< the device of a CUDA or OpenCL system
  CpuOptions cpu;
};

/// One electrostatic step, as DREAMPlace's ElectricPotential computes it: rho' = density /
/// (bin_width bin_height); a = DCT2(rho') (scipy's dctn / (M N)); w_u = 2 pi u / M,
/// w_v = 2 pi v / N; potential = idcct2(a / (w_u^2 + w_v^2)) with the (0, 0) term zero;
/// field_x = idxst_idct(a w_u / (w_u^2 + w_v^2) / 2); field_y = idct_idxst(a w_v / ... / 2);
/// energy = sum potential * rho', computed as Parseval's equal form (M N / 4) sum a^2 /
/// (w_u^2 + w_v^2) (every term >= 0). Plans are made once; solve() is const and thread-safe.
class ElectrostaticSystem {
 public:
  explicit ElectrostaticSystem(const ElectrostaticsDesc& desc);
  ElectrostaticSystem(ElectrostaticSystem&&) noexcept;
  ElectrostaticSystem& operator=(ElectrostaticSystem&&) noexcept;
  ~ElectrostaticSystem();

  /// Potential, fields and energy (returned). Outputs must not overlap the density or each other.
  double solve(const ConstView<float>& density, const View<float>& potential,
               const View<float>& field_x, const View<float>& field_y) const;
  double solve(const ConstView<double>& density, const View<double>& potential,
               const View<double>& field_x, const View<double>& field_y) const;
  /// The fields and the energy without the potential (one transform fewer; the same energy).
  double fields(const ConstView<float>& density, const View<float>& field_x,
                const View<float>& field_y) const;
  double fields(const ConstView<double>& density, const View<double>& field_x,
                const View<double>& field_y) const;

  const ElectrostaticsDesc& desc() const;

 private:
  struct Impl;
  std::unique_ptr<const Impl> impl_;
};

}  // namespace dctx
