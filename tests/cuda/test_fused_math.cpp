// SPDX-License-Identifier: BSD-3-Clause
// The arithmetic of the CUDA fused route (src/cuda/fused_math.hpp, fused_tables.hpp) on the CPU,
// no GPU needed: each kernel's per-element function is looped over every index as the kernel's
// threads would, around a long-double DFT standing in for cuFFT's R2C / C2R, and the result is
// checked against the oracle for DCT, DST and DXST on 1, 2 and 3 axes, with batches, odd and
// even lengths, every norm and both directions. Outputs are poisoned first, so an element no
// thread writes shows as NaN.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "cuda/fused_tables.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using cuda_math::Cx;
using cuda_math::FusedGeometry;
using cuda_math::FusedLayout;
using cuda_math::I64;
using LD = long double;
using CLD = std::complex<LD>;

// The DFT of batch x n0 x n1 x n2 along all three axes (length-1 axes are the identity), sign -1
// forward; unnormalised both ways (as cuFFT).
std::vector<CLD> dft3(std::vector<CLD> a, const I64 n[3], I64 batch, int sign) {
  const LD pi = 3.141592653589793238462643383279502884L;
  const I64 stride[3] = {n[1] * n[2], n[2], 1};
  for (int ax = 0; ax < 3; ++ax) {
    const I64 len = n[ax];
    if (len == 1) continue;
    std::vector<CLD> line(static_cast<std::size_t>(len)), res(line.size());
    const I64 total = batch * n[0] * n[1] * n[2];
    for (I64 base = 0; base < total; ++base) {
      if ((base / stride[ax]) % len != 0) continue;
      for (I64 j = 0; j < len; ++j) line[j] = a[base + j * stride[ax]];
      for (I64 k = 0; k < len; ++k) {
        CLD s = 0;
        for (I64 j = 0; j < len; ++j) {
          const LD ang = sign * 2 * pi * static_cast<LD>((j * k) % len) / static_cast<LD>(len);
          s += line[j] * CLD(std::cos(ang), std::sin(ang));
        }
        res[k] = s;
      }
      for (I64 j = 0; j < len; ++j) a[base + j * stride[ax]] = res[j];
    }
  }
  return a;
}

// The layout's tables rounded to T, and the geometry over them.
template <class T>
struct Tables {
  std::vector<Cx<T>> rot[3];
  std::vector<T> weight[3];
  FusedGeometry<T> g;
  Tables(const FusedLayout& L, const std::ptrdiff_t* is, const std::ptrdiff_t* os,
         const Shape& shape) {
    const Cx<T>* r[3];
    const T* w[3];
    for (int j = 0; j < 3; ++j) {
      for (auto z : L.axis[j].rot)
        rot[j].push_back({static_cast<T>(z.real()), static_cast<T>(z.imag())});
      for (double x : L.axis[j].weight) weight[j].push_back(static_cast<T>(x));
      r[j] = rot[j].data();
      w[j] = weight[j].data();
    }
    g = cuda_math::fused_geometry<T>(L, r, w, is, os, shape);
  }
};

// One thread of the dense rotation kernels (fused_kernels.cu): the planar functions when the
// first logical axis is padding, as the kernels choose.
template <class T>
void forward_dense(const FusedGeometry<T>& g, std::uint32_t r, I64 k2, const Cx<T>* V, T* out) {
  const auto at = [&](I64 b, I64 p0, I64 p1, I64 p2) {
    return cuda_math::dense_offset(g, b, p0, p1, p2);
  };
  const cuda_math::Orbit o = cuda_math::dense_orbit(g, r, k2);
  if (g.n[0] == 1)
    cuda_math::forward_orbit_planar(g, o.batch, o.k[1], k2, V, out, at);
  else
    cuda_math::forward_orbit_at(g, o, V, out, at);
}
template <class T>
void inverse_dense(const FusedGeometry<T>& g, std::uint32_t r, I64 k2, const T* in, Cx<T>* V) {
  const auto at = [&](I64 b, I64 p0, I64 p1, I64 p2) {
    return cuda_math::dense_offset(g, b, p0, p1, p2);
  };
  const cuda_math::Orbit o = cuda_math::dense_orbit(g, r, k2);
  if (g.n[0] == 1)
    cuda_math::inverse_orbit_planar(g, o.batch, o.k[1], k2, in, V, at);
  else
    cuda_math::inverse_orbit_at(g, o, in, V, at);
}

// The fused route as the CUDA plan runs it, with the kernels' loops on the CPU. `in` and `out`
// are the caller's buffers (element 0 of each at index `base`), addressed with their strides.
template <class T>
void run_fused(const PlanDesc& d, const T* in, const std::ptrdiff_t* is, T* out,
               const std::ptrdiff_t* os) {
  const FusedLayout L = cuda_math::fused_layout(d);
  Tables<T> t(L, is, os, d.shape);
  const FusedGeometry<T>& g = t.g;
  const T poison = std::numeric_limits<T>::quiet_NaN();
  const std::size_t total = static_cast<std::size_t>(g.real_size());
  if (L.forward) {
    std::vector<T> v(total, poison);
    if (cuda_math::dense_side(g, false)) {  // the dense reorder kernel
      for (I64 r = 0; r < cuda_math::dense_rows(g); ++r)
        for (I64 t = 0; t < (g.n[2] + 1) / 2; ++t)
          cuda_math::dense_reorder_pair(g, cuda_math::dense_row(g, static_cast<std::uint32_t>(r)),
                                        t, in, v.data(), false);
    } else {
      for (I64 i = 0; i < g.real_size(); ++i) {  // the reorder kernel
        const auto p = cuda_math::reorder_pair(g, i, false);
        v[p.slot] = p.negate ? -in[p.offset] : in[p.offset];
      }
    }
    std::vector<CLD> full(v.begin(), v.end());
    full = dft3(full, g.n, g.batch, -1);  // cuFFT's R2C, kept to the half spectrum
    std::vector<Cx<T>> V(static_cast<std::size_t>(g.complex_size()));
    for (I64 r = 0; r < g.batch * g.n[0] * g.n[1]; ++r)
      for (I64 k = 0; k < g.half(); ++k) {
        const CLD z = full[r * g.n[2] + k];
        V[r * g.half() + k] = {static_cast<T>(z.real()), static_cast<T>(z.imag())};
      }
    if (cuda_math::dense_side(g, true)) {  // the dense rotation kernel
      for (I64 r = 0; r < cuda_math::dense_orbit_rows(g); ++r)
        for (I64 k2 = 0; k2 < g.half(); ++k2)
          forward_dense(g, static_cast<std::uint32_t>(r), k2, V.data(), out);
    } else {
      for (I64 o = 0; o < g.orbits(); ++o) cuda_math::forward_orbit(g, o, V.data(), out);
    }
  } else {
    std::vector<Cx<T>> V(static_cast<std::size_t>(g.complex_size()), Cx<T>{poison, poison});
    if (cuda_math::dense_side(g, false)) {  // the dense rotation kernel
      for (I64 r = 0; r < cuda_math::dense_orbit_rows(g); ++r)
        for (I64 k2 = 0; k2 < g.half(); ++k2)
          inverse_dense(g, static_cast<std::uint32_t>(r), k2, in, V.data());
    } else {
      for (I64 o = 0; o < g.orbits(); ++o) cuda_math::inverse_orbit(g, o, in, V.data());
    }
    // cuFFT's C2R: the Hermitian extension of the half spectrum, unnormalised.
    std::vector<CLD> full(total);
    const I64 n0 = g.n[0], n1 = g.n[1], n2 = g.n[2];
    for (I64 b = 0; b < g.batch; ++b)
      for (I64 a = 0; a < n0; ++a)
        for (I64 c = 0; c < n1; ++c)
          for (I64 k = 0; k < n2; ++k) {
            CLD z;
            if (k < g.half()) {
              const Cx<T> s = V[((b * n0 + a) * n1 + c) * g.half() + k];
              z = CLD(s.re, s.im);
            } else {
              const Cx<T> s =
                  V[((b * n0 + (n0 - a) % n0) * n1 + (n1 - c) % n1) * g.half() + n2 - k];
              z = CLD(s.re, -s.im);
            }
            full[((b * n0 + a) * n1 + c) * n2 + k] = z;
          }
    full = dft3(full, g.n, g.batch, +1);
    if (cuda_math::dense_side(g, true)) {  // the dense reorder-back kernel
      std::vector<T> v(total);
      for (std::size_t i = 0; i < total; ++i) v[i] = static_cast<T>(full[i].real());
      for (I64 r = 0; r < cuda_math::dense_rows(g); ++r)
        for (I64 t = 0; t < (g.n[2] + 1) / 2; ++t)
          cuda_math::dense_reorder_pair(g, cuda_math::dense_row(g, static_cast<std::uint32_t>(r)),
                                        t, v.data(), out, true);
    } else {
      for (I64 i = 0; i < g.real_size(); ++i) {  // the reorder-back kernel
        const auto p = cuda_math::reorder_pair(g, i, true);
        const T x = static_cast<T>(full[p.slot].real());
        out[p.offset] = p.negate ? -x : x;
      }
    }
  }
}

// The C-ordered array `a` placed in a buffer with the layout `layout` asks for: 0 C order,
// 1 the axes reversed (Fortran order), 2 every row padded by 3 elements and the last axis
// reversed (a negative stride). Returns the buffer; `strides` and `base` (element 0) are set.
template <class T>
std::vector<T> place(const Shape& shape, const std::vector<T>& a, int layout,
                     std::vector<std::ptrdiff_t>& strides, std::ptrdiff_t& base) {
  const std::size_t rank = shape.size();
  strides.assign(rank, 1);
  std::size_t span = 1;
  if (layout == 1) {
    for (std::size_t d = 0; d < rank; ++d) {
      strides[d] = static_cast<std::ptrdiff_t>(span);
      span *= shape[d];
    }
  } else {
    const std::size_t pad = layout == 2 ? 3 : 0;
    for (std::size_t d = rank; d-- > 0;) {
      strides[d] = static_cast<std::ptrdiff_t>(span);
      span *= shape[d] + (d + 1 == rank ? pad : 0);
    }
  }
  base = 0;
  if (layout == 2) {  // the last axis runs backwards
    base = strides[rank - 1] * static_cast<std::ptrdiff_t>(shape[rank - 1] - 1);
    strides[rank - 1] = -strides[rank - 1];
  }
  std::vector<T> buf(span, std::numeric_limits<T>::quiet_NaN());
  std::vector<std::size_t> idx(rank, 0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::ptrdiff_t off = base;
    for (std::size_t d = 0; d < rank; ++d) off += static_cast<std::ptrdiff_t>(idx[d]) * strides[d];
    buf[static_cast<std::size_t>(off)] = a[i];
    for (std::size_t d = rank; d-- > 0;)
      if (++idx[d] < shape[d])
        break;
      else
        idx[d] = 0;
  }
  return buf;
}

// The fused route on C-ordered arrays laid out as `in_layout` and `out_layout` (place()).
template <class T>
std::vector<T> run_fused(const PlanDesc& d, const std::vector<T>& in, int in_layout = 0,
                         int out_layout = 0) {
  std::vector<std::ptrdiff_t> is, os;
  std::ptrdiff_t ib = 0, ob = 0;
  const std::vector<T> ibuf = place(d.shape, in, in_layout, is, ib);
  std::vector<T> obuf = place(
      d.shape, std::vector<T>(in.size(), std::numeric_limits<T>::quiet_NaN()), out_layout, os, ob);
  run_fused<T>(d, ibuf.data() + ib, is.data(), obuf.data() + ob, os.data());
  std::vector<T> out(in.size());
  std::vector<std::size_t> idx(d.shape.size(), 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::ptrdiff_t off = ob;
    for (std::size_t a = 0; a < idx.size(); ++a) off += static_cast<std::ptrdiff_t>(idx[a]) * os[a];
    out[i] = obuf[static_cast<std::size_t>(off)];
    for (std::size_t a = idx.size(); a-- > 0;)
      if (++idx[a] < d.shape[a])
        break;
      else
        idx[a] = 0;
  }
  return out;
}

struct Case {
  Shape shape;
  std::vector<int> axes;
  std::vector<Kind> kinds;  // per axis of `axes`
};

std::string name(const Case& c, const PlanDesc& d) {
  std::ostringstream s;
  s << "shape";
  for (auto e : c.shape) s << ' ' << e;
  s << " axes";
  for (int a : c.axes) s << ' ' << a;
  s << " kinds";
  for (Kind k : c.kinds) s << ' ' << to_string(k);
  s << " type " << d.transforms[0].type << " norm " << to_string(d.norm)
    << (d.direction == Direction::Inverse ? " inverse" : " forward")
    << (*d.orthogonalize ? " orthogonalize" : "");
  return s.str();
}

template <class T>
void check_all(const std::vector<Case>& cases) {
  unsigned seed = 1;
  for (const Case& c : cases)
    for (int type : {2, 3})
      for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
        for (Direction dir : {Direction::Forward, Direction::Inverse})
          for (bool orth : {false, true}) {
            if (orth && norm != Norm::Ortho) continue;
            PlanDesc d;
            d.shape = c.shape;
            d.axes = c.axes;
            for (Kind k : c.kinds) d.transforms.push_back({k, type});
            d.norm = norm;
            d.orthogonalize = orth;
            d.direction = dir;
            d.precision = sizeof(T) == 4 ? Precision::F32 : Precision::F64;
            d.backend = BackendKind::CPU;
            d = normalize(d);
            const std::string what = name(c, d);
            std::string why;
            ASSERT_TRUE(cuda_math::fused_route_applies(d, &why)) << what << ": " << why;
            std::size_t total = 1, nmax = 1;
            for (auto e : c.shape) total *= e;
            for (int a : d.axes) nmax *= c.shape[static_cast<std::size_t>(a)];
            std::vector<T> in = oracle::random_vector<T>(total, seed++);
            const int layout = static_cast<int>(seed % 3);  // C order, Fortran, padded/reversed
            const std::vector<T> got = run_fused<T>(d, in, layout, (layout + 1) % 3);
            std::vector<LD> want = oracle::reference_nd(c.shape, d.axes, d.transforms, norm, orth,
                                                        dir, std::vector<LD>(in.begin(), in.end()));
            for (std::size_t i = 0; i < got.size(); ++i)
              ASSERT_FALSE(std::isnan(got[i])) << what << ": element " << i << " never written";
            EXPECT_LE(oracle::rel_l2(got, want), oracle::tolerance<T>(nmax)) << what;
          }
}

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {{8}, {0}, {Kind::DCT}},
      {{7}, {0}, {Kind::DST}},
      {{2}, {0}, {Kind::DXST}},
      {{3, 10}, {1}, {Kind::DCT}},  // a batch of lines
      {{2, 9}, {1}, {Kind::DXST}},
      {{6, 5}, {0, 1}, {Kind::DCT, Kind::DCT}},
      {{5, 6}, {1, 0}, {Kind::DST, Kind::DCT}},
      {{4, 8}, {0, 1}, {Kind::DXST, Kind::DCT}},  // IDXST_IDCT when inverse
      {{8, 4}, {0, 1}, {Kind::DCT, Kind::DXST}},  // IDCT_IDXST when inverse
      {{7, 9}, {0, 1}, {Kind::DST, Kind::DST}},
      {{2, 3, 8}, {1, 2}, {Kind::DCT, Kind::DST}},  // a batch of planes
      {{4, 5, 6}, {0, 1, 2}, {Kind::DCT, Kind::DCT, Kind::DCT}},
      {{3, 4, 2}, {2, 0, 1}, {Kind::DST, Kind::DXST, Kind::DCT}},
      {{2, 5, 4, 6}, {1, 2, 3}, {Kind::DCT, Kind::DCT, Kind::DXST}},
      // Axes other than the last ones: batches before, between and after them.
      {{6, 3}, {0}, {Kind::DCT}},
      {{3, 7, 2}, {1}, {Kind::DST}},
      {{4, 3, 5}, {0, 2}, {Kind::DCT, Kind::DXST}},
      {{2, 6, 3, 4}, {1, 3}, {Kind::DST, Kind::DCT}},
      {{5, 2, 4, 3, 2}, {0, 2, 3}, {Kind::DCT, Kind::DST, Kind::DCT}},
  };
  return c;
}

TEST(CudaFusedMath, MatchesTheOracleInDouble) { check_all<double>(cases()); }

// The dense kernels (C-ordered arrays: 2D grids, no division per element) compute exactly what
// the strided ones do: every case, both directions, dense in and out against Fortran order in
// and padded/reversed rows out.
TEST(CudaFusedMath, DensePathEqualsTheStridedPathBitForBit) {
  unsigned seed = 500;
  int dense_cases = 0;
  for (const Case& c : cases())
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      PlanDesc d;
      d.shape = c.shape;
      d.axes = c.axes;
      for (Kind k : c.kinds) d.transforms.push_back({k, 2});
      d.norm = Norm::Ortho;
      d.direction = dir;
      d.precision = Precision::F32;
      d = normalize(d);
      std::size_t total = 1;
      for (auto e : c.shape) total *= e;
      const std::vector<float> in = oracle::random_vector<float>(total, seed++);
      const std::vector<float> dense = run_fused<float>(d, in, 0, 0);
      const std::vector<float> strided = run_fused<float>(d, in, 1, 2);
      EXPECT_EQ(std::memcmp(dense.data(), strided.data(), total * sizeof(float)), 0) << name(c, d);
      // Whether this case reached the dense functions: its transformed axes are the last ones.
      const FusedLayout L = cuda_math::fused_layout(d);
      bool last = true;
      for (int a : L.batch_axes)
        last = last && a < static_cast<int>(c.shape.size() - c.axes.size());
      dense_cases += last;
    }
  EXPECT_GE(dense_cases, 20);
}
TEST(CudaFusedMath, MatchesTheOracleInFloat) { check_all<float>(cases()); }

// A test must be able to fail: a wrong table shows.
TEST(CudaFusedMath, AWrongRotationIsCaught) {
  PlanDesc d;
  d.shape = {6, 8};
  d.backend = BackendKind::CPU;
  d = normalize(d);
  FusedLayout L = cuda_math::fused_layout(d);
  L.axis[2].rot[3] *= std::complex<double>(0, 1);
  const std::ptrdiff_t st[2] = {8, 1};
  Tables<double> t(L, st, st, d.shape);
  std::vector<double> in = oracle::random_vector<double>(48, 7), out(48);
  std::vector<double> v(48);
  for (I64 i = 0; i < 48; ++i) v[cuda_math::reorder_pair(t.g, i, false).slot] = in[i];
  const auto full = dft3(std::vector<CLD>(v.begin(), v.end()), t.g.n, 1, -1);
  std::vector<Cx<double>> V;
  for (I64 r = 0; r < 6; ++r)
    for (I64 k = 0; k < 5; ++k)
      V.push_back({double(full[r * 8 + k].real()), double(full[r * 8 + k].imag())});
  for (I64 o = 0; o < t.g.orbits(); ++o) cuda_math::forward_orbit(t.g, o, V.data(), out.data());
  const auto want = oracle::reference_nd(d.shape, d.axes, d.transforms, d.norm, false,
                                         Direction::Forward, std::vector<LD>(in.begin(), in.end()));
  EXPECT_GT(oracle::rel_l2(out, want), 1e-3);
}

// Algorithm 3's thresholding in the rotation kernels equals a separate pass: after the forward
// transform on its stored outputs, before the inverse on its inputs, bit for bit, with about
// half of the coefficients below the threshold, over strided layouts and every kind.
template <class T>
void check_threshold(PlanDesc d, unsigned seed) {
  d.backend = BackendKind::CPU;
  d.precision = sizeof(T) == 4 ? Precision::F32 : Precision::F64;
  const PlanDesc plain = normalize(d);
  std::size_t n = 1;
  for (std::size_t e : plain.shape) n *= e;
  const std::vector<T> x = oracle::random_vector<T>(n, seed);
  std::vector<T> y = run_fused<T>(plain, x);  // forward coefficients, or inverse samples
  std::vector<T> mags(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) mags[i] = std::fabs(y[i]);
  std::nth_element(mags.begin(), mags.begin() + mags.size() / 2, mags.end());
  d.coefficient_threshold = static_cast<double>(mags[mags.size() / 2]);
  const PlanDesc thr = normalize(d);
  ASSERT_TRUE(cuda_math::fused_route_applies(thr, nullptr));
  const T eps = static_cast<T>(thr.coefficient_threshold);
  const auto pass = [&](std::vector<T> v) {
    for (T& e : v) e = std::fabs(e) < eps ? T(0) : e;
    return v;
  };
  const bool forward = cuda_math::fused_layout(plain).forward;
  const std::vector<T> want = forward ? pass(y) : run_fused<T>(plain, pass(x));
  const std::vector<T> got = run_fused<T>(thr, x, 2, 1);
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(got[i], want[i]) << "element " << i;
    zeros += want[i] == 0;
  }
  if (forward) {
    EXPECT_GE(zeros, n / 3);
  }
}

TEST(CudaFusedMath, ThresholdingEqualsASeparatePass) {
  unsigned seed = 40;
  for (Direction dir : {Direction::Forward, Direction::Inverse}) {
    PlanDesc d;
    d.direction = dir;
    d.norm = Norm::Ortho;
    d.shape = {12, 10};
    check_threshold<double>(d, seed++);
    check_threshold<float>(d, seed++);
    d.shape = {4, 6, 5};
    check_threshold<double>(d, seed++);
    d.shape = {3, 9, 8};
    d.axes = {1, 2};
    d.transforms = {{Kind::DST, 2}, {Kind::DXST, 2}};
    check_threshold<float>(d, seed++);
  }
}

TEST(CudaFusedMath, SaysWhatItDoesNotCompute) {
  const auto why = [](PlanDesc d) {
    d.backend = BackendKind::CPU;
    std::string w;
    EXPECT_FALSE(cuda_math::fused_route_applies(normalize(d), &w));
    return w;
  };
  PlanDesc d;
  d.shape = {4, 6};
  d.type = 4;
  EXPECT_EQ(why(d), "types I and IV have no CUDA kernel yet");
  d.type = 2;
  d.transforms = {{Kind::DCT, 2}, {Kind::DCT, 3}};
  EXPECT_EQ(why(d), "its axes mix transform types");
  d.transforms = {};
  d.shape = {1, 6};
  EXPECT_EQ(why(d), "a transformed axis has length 1");
  d.shape = {2, 2, 2, 2};
  EXPECT_EQ(why(d), "it transforms more than three axes");
  d.shape = Shape(10, 2);
  d.axes = {9};
  EXPECT_EQ(why(d), "it has more than eight untransformed axes");
}

}  // namespace
}  // namespace dctx
