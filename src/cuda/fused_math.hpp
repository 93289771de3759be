// SPDX-License-Identifier: BSD-3-Clause
// The arithmetic of the CUDA back end's fused DCT route, in __host__ __device__ functions that the
// kernels (fused_kernels.cu) loop over and the CPU tests (tests/cuda/test_fused_math.cpp) check
// against the oracle without a GPU.
//
// The route is the N-point algorithm of "A New Acceleration Paradigm for Discrete Cosine Transform
// and Other Fourier-Related Transforms" (Makhoul's reordering, one real FFT, one rotation), done in
// 1, 2 or 3 dimensions at once:
//  - forward (DCT-II on every transformed axis): v = x reordered even/odd on each axis (one
//    scatter with coalesced reads), V = the real FFT of v (cuFFT R2C, half spectrum along the last
//    axis), then y(m) = 2 Re sum_s prod_j E_j(m_j)^{s_j} V(s o m), the sum over the signs of every
//    transformed axis but the first (E^+ = E, E^- = conj E, E_j(k) = s_j(k) exp(-i pi k / 2N_j)).
//    One thread owns the orbit {+-k0} x {+-k1} x {+-k2}: it reads the 2^(rank-1) stored values
//    V(+-k0, +-k1, k2) once and writes the 2^rank outputs (the paper's "reads two, writes four"
//    in 2D), using V(a, b, -c) = conj V(-a, -b, c);
//  - inverse (DCT-III): V(k) = prod_j conj E_j(k_j) sum_t (-i)^|t| Y'(mirror_t(k)) with
//    mirror(k) = N - k and Y'(N) = 0 (one thread reads its orbit's 2^rank inputs and writes the
//    2^(rank-1) stored values), cuFFT C2R (unnormalised), then x = v reordered back (one gather
//    with coalesced writes).
// DST-II/III run as DCTs of the sign-alternated input with the output reversed (DST-III: the input
// reversed, the output sign-alternated); DREAMPlace's shifted sine transform (DXST, IDXST) as the
// paradigm paper reduces it: the coefficient of DCT index m sits at N - m, and index 0 is zero.
// Ranks below 3 are padded with leading axes of length 1, which no sign sum visits. The caller's
// arrays are read and written through their strides, the untransformed axes as a batch.
#pragma once

#include <cstdint>

#include "cuda/hd.hpp"

namespace dctx::cuda_math {

using I64 = std::int64_t;

/// A complex number laid out as cuFFT's (float2 / double2).
template <class T>
struct alignas(2 * sizeof(T)) Cx {
  T re, im;
};
template <class T>
DCTX_HD Cx<T> cmul(Cx<T> a, Cx<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T>
DCTX_HD Cx<T> conj(Cx<T> a) {
  return {a.re, -a.im};
}
template <class T>
DCTX_HD Cx<T> cadd(Cx<T> a, Cx<T> b) {
  return {a.re + b.re, a.im + b.im};
}

/// Where DCT index m of an axis sits among the transform's own indices.
enum Mirror : int {
  kCosine = 0,    ///< DCT: at m
  kReversed = 1,  ///< DST: at N - 1 - m, the input sign-alternated
  kShifted = 2,   ///< DXST: at N - m (m = 0 nowhere: that entry is zero), sign-alternated
};

/// Most untransformed axes a geometry addresses (the batch).
inline constexpr int kMaxBatchAxes = 8;

/// The transform as the kernels see it: a batch of n[0] x n[1] x n[2] arrays whose last `rank`
/// logical axes are transformed (the others have length 1), in the logical order (batch, j0, j1,
/// j2);
/// the reordered array v and the half spectrum V are dense in that order. The caller's arrays are
/// addressed through element strides: the transformed axes' (in_stride, out_stride; 0 for a
/// padding axis) and the batch axes' (batch_shape, row-major over the batch index). `rot[j]`
/// holds N_j entries: forward, s_j(k) exp(-i pi k / 2N_j) with the axis's scale s_j
/// (orthogonalize at k = 0 folded in); inverse, exp(+i pi k / 2N_j). `weight[j]` (inverse only)
/// holds N_j entries, the scale of the coefficient of DCT index m.
template <class T>
struct FusedGeometry {
  I64 batch = 1;
  I64 n[3] = {1, 1, 1};
  int mirror[3] = {kCosine, kCosine, kCosine};
  int rank = 1;
  const Cx<T>* rot[3] = {nullptr, nullptr, nullptr};
  const T* weight[3] = {nullptr, nullptr, nullptr};
  I64 in_stride[3] = {0, 0, 0}, out_stride[3] = {0, 0, 0};
  int batch_axes = 0;
  I64 batch_shape[kMaxBatchAxes] = {};
  I64 batch_in_stride[kMaxBatchAxes] = {}, batch_out_stride[kMaxBatchAxes] = {};
  /// Algorithm 3's thresholding (PlanDesc::coefficient_threshold): coefficients of magnitude
  /// below it count as 0, the forward's as stored, the inverse's as read. 0: off.
  T zero_below = 0;

  DCTX_HD I64 half() const { return n[2] / 2 + 1; }
  DCTX_HD I64 real_size() const { return batch * n[0] * n[1] * n[2]; }
  DCTX_HD I64 complex_size() const { return batch * n[0] * n[1] * half(); }
  /// Threads of the rotation kernels: one per orbit.
  DCTX_HD I64 orbits() const { return batch * (n[0] / 2 + 1) * (n[1] / 2 + 1) * half(); }
  /// Element offset of (b, j0, j1, j2) in the input (out = false) or the output array.
  DCTX_HD I64 offset(I64 b, I64 j0, I64 j1, I64 j2, bool out) const {
    const I64* ts = out ? out_stride : in_stride;
    const I64* bs = out ? batch_out_stride : batch_in_stride;
    I64 off = j0 * ts[0] + j1 * ts[1] + j2 * ts[2];
    for (int a = batch_axes - 1; a >= 0; --a) {
      off += (b % batch_shape[a]) * bs[a];
      b /= batch_shape[a];
    }
    return off;
  }
};

/// x, or +0 when |x| < eps (Algorithm 3 of the paper; NaN stays NaN; eps = 0: x).
template <class T>
DCTX_HD T below_to_zero(T x, T eps) {
  const T a = x < 0 ? -x : x;
  return a < eps ? T(0) : x;
}

/// Makhoul's even/odd order: slot of natural index j (even j to the front, odd j reversed to
/// the back), the inverse of p(r) = 2r (r < ceil(N/2)), 2(N-1-r)+1 (otherwise).
DCTX_HD I64 even_odd_slot(I64 j, I64 n) { return (j % 2 == 0) ? j / 2 : n - 1 - (j - 1) / 2; }

/// Element i of the logical order: where it sits in the input (out = false) or output array,
/// where it goes in the reordered one, and its sign.
struct ReorderPair {
  I64 offset, slot;
  bool negate;
};
template <class T>
DCTX_HD ReorderPair reorder_pair(const FusedGeometry<T>& g, I64 i, bool out) {
  const I64 j2 = i % g.n[2];
  I64 rest = i / g.n[2];
  const I64 j1 = rest % g.n[1];
  rest /= g.n[1];
  const I64 j0 = rest % g.n[0];
  const I64 b = rest / g.n[0];
  const I64 slot =
      ((b * g.n[0] + even_odd_slot(j0, g.n[0])) * g.n[1] + even_odd_slot(j1, g.n[1])) * g.n[2] +
      even_odd_slot(j2, g.n[2]);
  bool negate = false;
  if (g.mirror[0] != kCosine && (j0 & 1)) negate = !negate;
  if (g.mirror[1] != kCosine && (j1 & 1)) negate = !negate;
  if (g.mirror[2] != kCosine && (j2 & 1)) negate = !negate;
  return {g.offset(b, j0, j1, j2, out), slot, negate};
}

/// Position of DCT index m among the axis's own indices; -1 when it has none (DXST, m = 0).
DCTX_HD I64 coefficient_position(I64 m, I64 n, int mirror) {
  if (mirror == kReversed) return n - 1 - m;
  if (mirror == kShifted) return m == 0 ? -1 : n - m;
  return m;
}

/// The orbit `o` (0 <= o < orbits()) as its batch and representative (k0, k1, k2), k_j <= N_j/2.
struct Orbit {
  I64 batch, k[3];
};
template <class T>
DCTX_HD Orbit orbit_at(const FusedGeometry<T>& g, I64 o) {
  Orbit r;
  r.k[2] = o % g.half();
  o /= g.half();
  r.k[1] = o % (g.n[1] / 2 + 1);
  o /= g.n[1] / 2 + 1;
  r.k[0] = o % (g.n[0] / 2 + 1);
  r.batch = o / (g.n[0] / 2 + 1);
  return r;
}

/// Index of flag f (0: k, 1: N - k mod N) on one axis (0 <= k < N; no division: the GPU's
/// 64-bit remainder is a long software sequence).
DCTX_HD I64 orbit_index(I64 k, I64 n, int f) { return f == 0 || k == 0 ? k : n - k; }
/// Whether flag 1 names another index than flag 0.
DCTX_HD bool orbit_has_mirror(I64 k, I64 n) { return k != 0 && 2 * k != n; }

/// Forward post-processing of one orbit: reads V (the half spectrum, batch x N0 x N1 x half) and
/// writes every output of the orbit into `out` (through the output strides).
/// The same for the orbit `ob`, the output element (b, p0, p1, p2) at out[out_at(b, p0, p1, p2)]
/// (forward_orbit: through the strides; the dense kernels: C order, no division).
template <class T, class OutAt>
DCTX_HD void forward_orbit_at(const FusedGeometry<T>& g, const Orbit& ob, const Cx<T>* V, T* out,
                              const OutAt& out_at) {
  const I64 n0 = g.n[0], n1 = g.n[1], n2 = g.n[2], h = g.half();
  const I64* k = ob.k;
  // The stored values V(+-k0, +-k1, k2).
  Cx<T> L[2][2];
  for (int f0 = 0; f0 < 2; ++f0)
    for (int f1 = 0; f1 < 2; ++f1) {
      const I64 a = orbit_index(k[0], n0, f0), b = orbit_index(k[1], n1, f1);
      L[f0][f1] = V[((ob.batch * n0 + a) * n1 + b) * h + k[2]];
    }
  // V at flags (g0, g1, g2): stored when g2 = 0, else conj V(-a, -b, k2).
  const auto val = [&](int g0, int g1, int g2) {
    return g2 == 0 ? L[g0][g1] : conj(L[1 - g0][1 - g1]);
  };
  const int signs1 = g.rank >= 3 ? 2 : 1, signs2 = g.rank >= 2 ? 2 : 1;
  const int last0 = orbit_has_mirror(k[0], n0), last1 = orbit_has_mirror(k[1], n1),
            last2 = orbit_has_mirror(k[2], n2);
  for (int f0 = 0; f0 <= last0; ++f0)
    for (int f1 = 0; f1 <= last1; ++f1)
      for (int f2 = 0; f2 <= last2; ++f2) {
        const I64 m0 = orbit_index(k[0], n0, f0), m1 = orbit_index(k[1], n1, f1),
                  m2 = orbit_index(k[2], n2, f2);
        const Cx<T> e0 = g.rot[0][m0], e1 = g.rot[1][m1], e2 = g.rot[2][m2];
        Cx<T> acc{0, 0};
        for (int s1 = 0; s1 < signs1; ++s1) {
          Cx<T> inner{0, 0};
          for (int s2 = 0; s2 < signs2; ++s2)
            inner = cadd(inner, cmul(s2 ? conj(e2) : e2, val(f0, f1 ^ s1, f2 ^ s2)));
          acc = cadd(acc, cmul(s1 ? conj(e1) : e1, inner));
        }
        T y = 2 * cmul(e0, acc).re;
        I64 p0 = coefficient_position(m0, n0, g.mirror[0]);
        I64 p1 = coefficient_position(m1, n1, g.mirror[1]);
        I64 p2 = coefficient_position(m2, n2, g.mirror[2]);
        // A DXST axis's DCT index 0 has no place; its own index 0 is zero.
        if (p0 < 0 || p1 < 0 || p2 < 0) {
          y = 0;
          p0 = p0 < 0 ? 0 : p0;
          p1 = p1 < 0 ? 0 : p1;
          p2 = p2 < 0 ? 0 : p2;
        }
        out[out_at(ob.batch, p0, p1, p2)] = below_to_zero(y, g.zero_below);
      }
}
template <class T>
DCTX_HD void forward_orbit(const FusedGeometry<T>& g, I64 o, const Cx<T>* V, T* out) {
  forward_orbit_at(g, orbit_at(g, o), V, out,
                   [&](I64 b, I64 p0, I64 p1, I64 p2) { return g.offset(b, p0, p1, p2, true); });
}

/// Inverse pre-processing of one orbit: reads the coefficients `in` (through the input strides)
/// and writes the orbit's stored values V(+-k0, +-k1, k2) of the half spectrum.
/// The same for the orbit `ob`, the input element (b, p0, p1, p2) at in[in_at(b, p0, p1, p2)].
template <class T, class InAt>
DCTX_HD void inverse_orbit_at(const FusedGeometry<T>& g, const Orbit& ob, const T* in, Cx<T>* V,
                              const InAt& in_at) {
  const I64 n0 = g.n[0], n1 = g.n[1], n2 = g.n[2], h = g.half();
  const I64* k = ob.k;
  // Y'(idx(f)): the weighted coefficient of DCT index (idx0(f0), idx1(f1), idx2(f2)).
  T Y[2][2][2];
  for (int f0 = 0; f0 < 2; ++f0)
    for (int f1 = 0; f1 < 2; ++f1)
      for (int f2 = 0; f2 < 2; ++f2) {
        const I64 m0 = orbit_index(k[0], n0, f0), m1 = orbit_index(k[1], n1, f1),
                  m2 = orbit_index(k[2], n2, f2);
        const I64 p0 = coefficient_position(m0, n0, g.mirror[0]);
        const I64 p1 = coefficient_position(m1, n1, g.mirror[1]);
        const I64 p2 = coefficient_position(m2, n2, g.mirror[2]);
        Y[f0][f1][f2] = (p0 < 0 || p1 < 0 || p2 < 0)
                            ? T(0)
                            : below_to_zero(in[in_at(ob.batch, p0, p1, p2)], g.zero_below) *
                                  g.weight[0][m0] * g.weight[1][m1] * g.weight[2][m2];
      }
  // Y'(N_j - index) per axis: the other flag, or zero when the index is 0 (Y'(N) = 0).
  const bool zero0 = k[0] == 0, zero1 = k[1] == 0, zero2 = k[2] == 0;
  const int last0 = orbit_has_mirror(k[0], n0), last1 = orbit_has_mirror(k[1], n1);
  for (int f0 = 0; f0 <= last0; ++f0)
    for (int f1 = 0; f1 <= last1; ++f1) {
      const int f2 = 0;  // the stored half: index k2
      // sum_t (-i)^|t| Y'(mirror_t): t_j = 1 takes the other flag (or zero at index 0).
      T re = 0, im = 0;
      for (int t0 = 0; t0 < 2; ++t0) {
        if (t0 && zero0) continue;
        for (int t1 = 0; t1 < 2; ++t1) {
          if (t1 && zero1) continue;
          for (int t2 = 0; t2 < 2; ++t2) {
            if (t2 && zero2) continue;
            const T y = Y[f0 ^ t0][f1 ^ t1][f2 ^ t2];
            switch ((t0 + t1 + t2) & 3) {  // (-i)^|t|: 1, -i, -1, +i
              case 0: re += y; break;
              case 1: im -= y; break;
              case 2: re -= y; break;
              default: im += y; break;
            }
          }
        }
      }
      const I64 a = orbit_index(k[0], n0, f0), b = orbit_index(k[1], n1, f1);
      const Cx<T> r = cmul(cmul(g.rot[0][a], g.rot[1][b]), g.rot[2][k[2]]);
      V[((ob.batch * n0 + a) * n1 + b) * h + k[2]] = cmul(r, Cx<T>{re, im});
    }
}
template <class T>
DCTX_HD void inverse_orbit(const FusedGeometry<T>& g, I64 o, const T* in, Cx<T>* V) {
  inverse_orbit_at(g, orbit_at(g, o), in, V,
                   [&](I64 b, I64 p0, I64 p1, I64 p2) { return g.offset(b, p0, p1, p2, false); });
}

// The dense fast path: arrays C-ordered over (batch, j0, j1, j2) (FusedLayout::dense), as device
// arrays from CuPy and PyTorch mostly are. The kernels then run a 2D grid: x along the last axis,
// y over the rows (batch, j0, j1) or the orbit rows (batch, k0, k1), so a thread splits its row
// index once, in 32 bits, and indexes its elements with multiplications alone.

/// Whether the input (out = false) or output array is dense in the logical order, with fewer
/// than 2^31 rows: then the dense kernels may read (or write) it.
template <class T>
DCTX_HD bool dense_side(const FusedGeometry<T>& g, bool out) {
  const I64* ts = out ? g.out_stride : g.in_stride;
  const I64* bs = out ? g.batch_out_stride : g.batch_in_stride;
  I64 want = 1;
  for (int j = 2; j >= 0; --j) {
    if (g.n[j] > 1 && ts[j] != want) return false;
    want *= g.n[j];
  }
  for (int a = g.batch_axes - 1; a >= 0; --a) {
    if (g.batch_shape[a] > 1 && bs[a] != want) return false;
    want *= g.batch_shape[a];
  }
  return want / g.n[2] < (I64{1} << 31);
}

/// Element offset of (b, p0, p1, p2) in a dense array.
template <class T>
DCTX_HD I64 dense_offset(const FusedGeometry<T>& g, I64 b, I64 p0, I64 p1, I64 p2) {
  return ((b * g.n[0] + p0) * g.n[1] + p1) * g.n[2] + p2;
}

/// Row r (0 <= r < batch n0 n1) of the logical order: its first element in the natural array,
/// its first in the reordered one, and whether the row's sign flips (sine axes, odd index).
struct DenseRow {
  I64 natural, reordered;
  bool negate;
};
template <class T>
DCTX_HD DenseRow dense_row(const FusedGeometry<T>& g, std::uint32_t r) {
  const auto n0 = static_cast<std::uint32_t>(g.n[0]), n1 = static_cast<std::uint32_t>(g.n[1]);
  const std::uint32_t j1 = r % n1, q = r / n1, j0 = q % n0, b = q / n0;
  const I64 row =
      (I64{b} * g.n[0] + even_odd_slot(j0, g.n[0])) * g.n[1] + even_odd_slot(j1, g.n[1]);
  bool negate = false;
  if (g.mirror[0] != kCosine && (j0 & 1)) negate = !negate;
  if (g.mirror[1] != kCosine && (j1 & 1)) negate = !negate;
  return {I64{r} * g.n[2], row * g.n[2], negate};
}

/// Element pair t (0 <= t < ceil(N2 / 2)) of a dense row: natural j2 = 2t goes to slot t, and
/// j2 = 2t + 1 (when < N2) to slot N2 - 1 - t, sign-alternated on a sine axis. Forward (back =
/// false) scatters x into v; back gathers v into x. Reads and writes are two contiguous streams.
template <class T>
DCTX_HD void dense_reorder_pair(const FusedGeometry<T>& g, const DenseRow& row, I64 t, const T* src,
                                T* dst, bool back) {
  const I64 n2 = g.n[2];
  const I64 even = row.natural + 2 * t, slot_even = row.reordered + t;
  const I64 odd = even + 1, slot_odd = row.reordered + n2 - 1 - t;
  const bool neg_odd = row.negate != (g.mirror[2] != kCosine);
  if (back) {
    const T a = src[slot_even];
    dst[even] = row.negate ? -a : a;
    if (2 * t + 1 < n2) {
      const T b = src[slot_odd];
      dst[odd] = neg_odd ? -b : b;
    }
  } else {
    const T a = src[even];
    dst[slot_even] = row.negate ? -a : a;
    if (2 * t + 1 < n2) {
      const T b = src[odd];
      dst[slot_odd] = neg_odd ? -b : b;
    }
  }
}

/// Orbit row r (0 <= r < batch (N0/2 + 1)(N1/2 + 1)) and last-axis index k2 as an Orbit.
template <class T>
DCTX_HD Orbit dense_orbit(const FusedGeometry<T>& g, std::uint32_t r, I64 k2) {
  const auto m0 = static_cast<std::uint32_t>(g.n[0] / 2 + 1),
             m1 = static_cast<std::uint32_t>(g.n[1] / 2 + 1);
  const std::uint32_t k1 = r % m1, q = r / m1;
  Orbit ob;
  ob.k[2] = k2;
  ob.k[1] = k1;
  ob.k[0] = q % m0;
  ob.batch = q / m0;
  return ob;
}
/// forward_orbit_at for a geometry whose first logical axis is padding (n[0] = 1: 1D and 2D
/// transforms, batched): the orbit {+-k1} x {+-k2} of batch b, the same products in the same
/// order without the padding axis's unit factors, in a third of the registers. Split in two, the
/// loads and the rest (the loads issue together, before any of the arithmetic).
template <class T>
struct PlanarForwardInput {
  Cx<T> L[2];  ///< V(k1, k2) and V(N1 - k1, k2)
};
template <class T>
DCTX_HD PlanarForwardInput<T> forward_planar_load(const FusedGeometry<T>& g, I64 b, I64 k1, I64 k2,
                                                  const Cx<T>* V) {
  const I64 n1 = g.n[1], h = g.half(), k1m = orbit_index(k1, n1, 1);
  return {{V[(b * n1 + k1) * h + k2], V[(b * n1 + k1m) * h + k2]}};
}
template <class T, class OutAt>
DCTX_HD void forward_planar_finish(const FusedGeometry<T>& g, I64 b, I64 k1, I64 k2,
                                   const PlanarForwardInput<T>& in, T* out, const OutAt& out_at) {
  const I64 n1 = g.n[1], n2 = g.n[2];
  const I64 k1m = orbit_index(k1, n1, 1), k2m = orbit_index(k2, n2, 1);
  const Cx<T>* L = in.L;
  const int last1 = orbit_has_mirror(k1, n1), last2 = orbit_has_mirror(k2, n2);
  for (int f1 = 0; f1 <= last1; ++f1)
    for (int f2 = 0; f2 <= last2; ++f2) {
      const I64 m1 = f1 ? k1m : k1, m2 = f2 ? k2m : k2;
      const Cx<T> e1 = g.rot[1][m1], e2 = g.rot[2][m2];
      // V at flags (f1, g2): stored when g2 = 0, else conj V(-m1, k2).
      const Cx<T> a = f2 == 0 ? L[f1] : conj(L[1 - f1]), c = f2 == 0 ? conj(L[1 - f1]) : L[f1];
      // (a 1D transform, rank 1, has no sign sum: its only axis is the first)
      const Cx<T> inner = g.rank >= 2 ? cadd(cmul(e2, a), cmul(conj(e2), c)) : cmul(e2, a);
      T y = 2 * cmul(e1, inner).re;
      I64 p1 = coefficient_position(m1, n1, g.mirror[1]);
      I64 p2 = coefficient_position(m2, n2, g.mirror[2]);
      if (p1 < 0 || p2 < 0) {  // a DXST axis's index 0
        y = 0;
        p1 = p1 < 0 ? 0 : p1;
        p2 = p2 < 0 ? 0 : p2;
      }
      out[out_at(b, 0, p1, p2)] = below_to_zero(y, g.zero_below);
    }
}
template <class T, class OutAt>
DCTX_HD void forward_orbit_planar(const FusedGeometry<T>& g, I64 b, I64 k1, I64 k2, const Cx<T>* V,
                                  T* out, const OutAt& out_at) {
  forward_planar_finish(g, b, k1, k2, forward_planar_load(g, b, k1, k2, V), out, out_at);
}

/// inverse_orbit_at for n[0] = 1, likewise: the four coefficients the orbit reads (0 where a DXST
/// axis has none), then the rest.
template <class T>
struct PlanarInverseInput {
  T x[2][2];  ///< the coefficients of DCT indices (k1 or N1 - k1, k2 or N2 - k2)
};
template <class T, class InAt>
DCTX_HD PlanarInverseInput<T> inverse_planar_load(const FusedGeometry<T>& g, I64 b, I64 k1, I64 k2,
                                                  const T* in, const InAt& in_at) {
  PlanarInverseInput<T> r;
  for (int f1 = 0; f1 < 2; ++f1)
    for (int f2 = 0; f2 < 2; ++f2) {
      const I64 m1 = orbit_index(k1, g.n[1], f1), m2 = orbit_index(k2, g.n[2], f2);
      const I64 p1 = coefficient_position(m1, g.n[1], g.mirror[1]);
      const I64 p2 = coefficient_position(m2, g.n[2], g.mirror[2]);
      r.x[f1][f2] = (p1 < 0 || p2 < 0) ? T(0) : in[in_at(b, 0, p1, p2)];
    }
  return r;
}
template <class T>
DCTX_HD void inverse_planar_finish(const FusedGeometry<T>& g, I64 b, I64 k1, I64 k2,
                                   const PlanarInverseInput<T>& in, Cx<T>* V) {
  const I64 n1 = g.n[1], n2 = g.n[2], h = g.half();
  T Y[2][2];  // the weighted coefficients
  for (int f1 = 0; f1 < 2; ++f1)
    for (int f2 = 0; f2 < 2; ++f2) {
      const I64 m1 = orbit_index(k1, n1, f1), m2 = orbit_index(k2, n2, f2);
      const I64 p1 = coefficient_position(m1, n1, g.mirror[1]);
      const I64 p2 = coefficient_position(m2, n2, g.mirror[2]);
      Y[f1][f2] = (p1 < 0 || p2 < 0) ? T(0)
                                     : below_to_zero(in.x[f1][f2], g.zero_below) * g.weight[1][m1] *
                                           g.weight[2][m2];
    }
  const bool zero1 = k1 == 0, zero2 = k2 == 0;
  const int last1 = orbit_has_mirror(k1, n1);
  for (int f1 = 0; f1 <= last1; ++f1) {
    // sum_t (-i)^|t| Y'(mirror_t): 1, -i, -1 for |t| = 0, 1, 2.
    T re = Y[f1][0], im = 0;
    if (!zero2) im -= Y[f1][1];
    if (!zero1) im -= Y[1 - f1][0];
    if (!zero1 && !zero2) re -= Y[1 - f1][1];
    const I64 a = orbit_index(k1, n1, f1);
    V[(b * n1 + a) * h + k2] = cmul(cmul(g.rot[1][a], g.rot[2][k2]), Cx<T>{re, im});
  }
}
template <class T, class InAt>
DCTX_HD void inverse_orbit_planar(const FusedGeometry<T>& g, I64 b, I64 k1, I64 k2, const T* in,
                                  Cx<T>* V, const InAt& in_at) {
  inverse_planar_finish(g, b, k1, k2, inverse_planar_load(g, b, k1, k2, in, in_at), V);
}

/// Rows of the dense kernels: of elements (reorder) and of orbits (rotations).
template <class T>
DCTX_HD I64 dense_rows(const FusedGeometry<T>& g) {
  return g.batch * g.n[0] * g.n[1];
}
template <class T>
DCTX_HD I64 dense_orbit_rows(const FusedGeometry<T>& g) {
  return g.batch * (g.n[0] / 2 + 1) * (g.n[1] / 2 + 1);
}

}  // namespace dctx::cuda_math
