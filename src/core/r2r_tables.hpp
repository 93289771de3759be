// SPDX-License-Identifier: BSD-3-Clause
// Plan-time mathematics of the real-to-real transforms, shared by all back ends: each axis's
// scale (norm and direction as scipy.fft applies them), and the pre- and post-processing
// coefficients that reduce a DCT/DST to one FFT, with the scale and scipy's orthogonalize
// corrections folded in:
//  - types II/III: Makhoul's N-point algorithm (J. Makhoul, "A fast cosine transform in one and
//    two dimensions", IEEE Trans. ASSP 28(1), 1980; the "N-point DCT" of "A New Acceleration
//    Paradigm for Discrete Cosine Transform and Other Fourier-Related Transforms"): one real FFT
//    of n points and the quarter-wave rotation exp(-i pi k / (2n));
//  - type IV: one complex FFT of n/2 points (even n) or 2n points (odd n);
//  - types I: the real FFT of the even (DCT) or odd (DST) symmetric extension;
//  - RDFT: one real FFT of n points, its output in halfcomplex order;
//  - the fused 2D DCT-II/III of the acceleration-paradigm paper: the per-axis rotations W1, W2
//    (its a/b terms) and the even/odd reordering of each axis.
// Entries are computed in long double and stored as double.
#pragma once

#include <complex>
#include <cstddef>
#include <vector>

#include "dctx/plan.hpp"

namespace dctx::detail {

/// Scale factor of one axis (norm and direction) as scipy.fft applies it.
double axis_scale(const PlanDesc& d, AxisTransform t, std::size_t n);
/// The transform type an axis actually computes: an inverse plan runs the inverse type.
inline int effective_type(const PlanDesc& d, AxisTransform t) {
  return d.direction == Direction::Inverse ? inverse_type(t.type) : t.type;
}

/// The FFT one 1D transform runs on.
enum class InnerFft : unsigned char { Real, Complex };

/// Coefficients of one 1D transform of length n (the computed type, after inversion).
/// In precision T (float or double): each entry formed in RootArith<T>, rounded once to T.
template <class T>
struct R2RTablesOf {
  AxisTransform computed;
  std::size_t n = 0;
  bool ortho = false;  ///< scipy's orthogonalize corrections apply
  InnerFft inner = InnerFft::Real;
  std::size_t inner_length = 0;  ///< length of the real or complex FFT
  double c0 = 1;  ///< II: the DC output's factor; III: x_0's; I and RDFT: the overall scale
  /// II: 2 s exp(-i pi k/(2n)), k <= n/2. III: s exp(+i pi k/(2n)), k <= n/2.
  /// IV even n: exp(-i pi (4j+1)/(4n)), j < n/2. IV odd n: exp(-i pi j/(2n)), j < n.
  std::vector<std::complex<T>> pre;
  /// IV even n: 2 s exp(-i pi k/n), k < n/2. IV odd n: 2 s exp(-i pi (2k+1)/(4n)), k < n.
  std::vector<std::complex<T>> post;
};
/// `computed` is the transform actually run (an inverse already mapped to its type), `scale`
/// the axis's factor, `ortho` whether orthogonalize applies.
template <class T = double>
R2RTablesOf<T> r2r_tables(AxisTransform computed, std::size_t n, double scale, bool ortho);
using R2RTables = R2RTablesOf<double>;

/// The sign (-1, 0 or +1) of entry (k, j) of the matrix of the 1D transform `computed` of length
/// n (README, "Kinds, types and norms"; the scales and orthogonalize corrections are positive and
/// do not change it), from integer arithmetic on its angle: exact, also where the entry is an
/// exact zero. Lets an infinite input be carried as IEEE arithmetic on the definition would.
int r2r_coefficient_sign(AxisTransform computed, std::size_t n, std::size_t k, std::size_t j);

/// The fused 2D DCT-II (forward) or DCT-III (inverse) over both axes of an n1 x n2 array.
struct Fused2DTables {
  bool forward = true;
  std::vector<std::complex<double>> w1;   ///< n1 entries: s1 exp(-+i pi k/(2 n1)), ortho at k=0
  std::vector<std::complex<double>> w2;   ///< n2/2+1 entries, likewise along axis 1
  std::vector<std::size_t> perm1, perm2;  ///< p(r) = 2r for r < ceil(n/2), else 2(n-1-r)+1
};
/// `d` is normalised and transforms both axes of a rank-2 array with DCT-II or DCT-III.
Fused2DTables fused2d_tables(const PlanDesc& d);

}  // namespace dctx::detail
