// SPDX-License-Identifier: BSD-3-Clause
// Test oracle: every DCT/DST type I-IV (and DXST-II/III, RDFT-II/III) by its definition
// (scipy.fft's conventions), in long double, with scipy's norm / orthogonalize / inverse rules;
// plus error metrics and the one tolerance constant of the test suite.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "dctx/types.hpp"

namespace dctx::oracle {

using LD = long double;

/// The accuracy bound of the whole suite: relative L2 error <= kErrorC * eps(T) * log2(max(N, 2)),
/// capped at the absolute floors (1e-6 for float32, 1e-13 for float64).
inline constexpr double kErrorC = 2.0;

template <class T>
double tolerance(std::size_t n) {
  const double eps = std::numeric_limits<T>::epsilon();
  const double bound = kErrorC * eps * std::log2(static_cast<double>(n < 2 ? 2 : n));
  const double floor = sizeof(T) == 4 ? 1e-6 : 1e-13;
  return bound < floor ? bound : floor;
}

/// cos (or sin) of pi * m / d for m in [0, 2d), each by cosl (sinl) on its own angle, kept per
/// thread for the last few d: the O(N^2) definitions below look each entry up instead of
/// evaluating it (the same values, far faster for long lengths).
template <bool kSin>
const std::vector<LD>& trig_table(long long d) {
  struct Entry {
    long long d = 0;
    std::vector<LD> v;
  };
  thread_local Entry cache[4];
  thread_local unsigned next = 0;
  for (const Entry& e : cache)
    if (e.d == d) return e.v;
  Entry& e = cache[next++ % 4];
  const LD pi = 3.141592653589793238462643383279502884L;
  e.d = d;
  e.v.resize(static_cast<std::size_t>(2 * d));
  for (long long m = 0; m < 2 * d; ++m) {
    const LD a = pi * static_cast<LD>(m) / static_cast<LD>(d);
    e.v[static_cast<std::size_t>(m)] = kSin ? std::sin(a) : std::cos(a);
  }
  return e.v;
}

/// cos/sin(pi * m / d) with m reduced exactly first.
inline LD cospi(long long m, long long d) {
  m %= 2 * d;
  if (m < 0) m += 2 * d;
  return trig_table<false>(d)[static_cast<std::size_t>(m)];
}
inline LD sinpi(long long m, long long d) {
  m %= 2 * d;
  if (m < 0) m += 2 * d;
  return trig_table<true>(d)[static_cast<std::size_t>(m)];
}

/// Unnormalised forward transform of one type by definition, for output index k.
inline LD transform_at(Kind kind, int type, const std::vector<LD>& x, std::size_t k) {
  const long long N = static_cast<long long>(x.size());
  const long long kk = static_cast<long long>(k);
  LD s = 0;
  if (kind == Kind::RDFT) {  // halfcomplex order (dctx/types.hpp); cos/sin(2 pi a/N) = pi 2a/N
    if (type == 2) {
      if (2 * kk <= N) {
        for (long long n = 0; n < N; ++n) s += x[n] * cospi(2 * kk * n, N);
      } else {
        for (long long n = 0; n < N; ++n) s -= x[n] * sinpi(2 * (N - kk) * n, N);
      }
      return s;
    }
    s = x[0];
    for (long long f = 1; 2 * f < N; ++f)
      s += 2 * (x[f] * cospi(2 * f * kk, N) - x[N - f] * sinpi(2 * f * kk, N));
    if (N % 2 == 0) s += (kk % 2 ? -1 : 1) * x[N / 2];
    return s;
  }
  if (kind == Kind::DXST) {  // types 2 and 3 only (dctx/types.hpp)
    if (type == 2) {
      for (long long n = 0; n < N; ++n) s += 2 * x[n] * sinpi(kk * (2 * n + 1), 2 * N);
    } else {
      for (long long n = 1; n < N; ++n) s += 2 * x[n] * sinpi(n * (2 * kk + 1), 2 * N);
    }
    return s;
  }
  if (kind == Kind::DCT) {
    switch (type) {
      case 1:
        s = x[0] + ((kk % 2) ? -x[N - 1] : x[N - 1]);
        for (long long n = 1; n < N - 1; ++n) s += 2 * x[n] * cospi(kk * n, N - 1);
        return s;
      case 2:
        for (long long n = 0; n < N; ++n) s += 2 * x[n] * cospi(kk * (2 * n + 1), 2 * N);
        return s;
      case 3:
        s = x[0];
        for (long long n = 1; n < N; ++n) s += 2 * x[n] * cospi(n * (2 * kk + 1), 2 * N);
        return s;
      default:
        for (long long n = 0; n < N; ++n) s += 2 * x[n] * cospi((2 * kk + 1) * (2 * n + 1), 4 * N);
        return s;
    }
  }
  switch (type) {
    case 1:
      for (long long n = 0; n < N; ++n) s += 2 * x[n] * sinpi((kk + 1) * (n + 1), N + 1);
      return s;
    case 2:
      for (long long n = 0; n < N; ++n) s += 2 * x[n] * sinpi((kk + 1) * (2 * n + 1), 2 * N);
      return s;
    case 3:
      s = (kk % 2) ? -x[N - 1] : x[N - 1];
      for (long long n = 0; n < N - 1; ++n) s += 2 * x[n] * sinpi((n + 1) * (2 * kk + 1), 2 * N);
      return s;
    default:
      for (long long n = 0; n < N; ++n) s += 2 * x[n] * sinpi((2 * kk + 1) * (2 * n + 1), 4 * N);
      return s;
  }
}

/// What scipy.fft computes for dct/dst (dir Forward) or idct/idst (dir Inverse) of `x`, at the
/// output indices `ks` (all when empty).
inline std::vector<LD> reference(Kind kind, int type, Norm norm, bool ortho, Direction dir,
                                 std::vector<LD> x, const std::vector<std::size_t>& ks = {}) {
  const std::size_t N = x.size();
  const int t = dir == Direction::Inverse ? inverse_type(type) : type;
  const LD M = static_cast<LD>(logical_length(AxisTransform{kind, type}, N));
  LD fct = 1;
  if (norm == Norm::Ortho)
    fct = 1 / std::sqrt(M);
  else if ((norm == Norm::Backward) == (dir == Direction::Inverse))
    fct = 1 / M;
  const LD r2 = std::sqrt(LD(2));
  if (ortho) {  // scipy's orthogonalize: input corrections
    if (kind == Kind::DCT && t == 1) {
      x[0] *= r2;
      x[N - 1] *= r2;
    }
    if (kind == Kind::DCT && t == 3) x[0] *= r2;
    if (kind == Kind::DST && t == 3) x[N - 1] *= r2;
  }
  std::vector<std::size_t> idx = ks;
  if (idx.empty())
    for (std::size_t k = 0; k < N; ++k) idx.push_back(k);
  std::vector<LD> y(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) {
    const std::size_t k = idx[i];
    LD v = transform_at(kind, t, x, k) * fct;
    if (ortho) {  // output corrections
      if (kind == Kind::DCT && t == 1 && (k == 0 || k == N - 1)) v /= r2;
      if (kind == Kind::DCT && t == 2 && k == 0) v /= r2;
      if (kind == Kind::DST && t == 2 && k == N - 1) v /= r2;
    }
    y[i] = v;
  }
  return y;
}

/// Relative L2 error ||got - want|| / ||want||.
template <class T>
double rel_l2(const std::vector<T>& got, const std::vector<LD>& want) {
  LD e = 0, w = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const LD d = static_cast<LD>(got[i]) - want[i];
    e += d * d;
    w += want[i] * want[i];
  }
  return static_cast<double>(std::sqrt(e / (w > 0 ? w : 1)));
}

/// Random values in [-1, 1), never all zero.
template <class T>
std::vector<T> random_vector(std::size_t n, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(u(g));
  if (n) v[0] = static_cast<T>(0.5 + 0.25 * u(g));
  return v;
}

/// N-D reference over a C-ordered array: the 1D reference along each axis in turn.
inline std::vector<LD> reference_nd(const Shape& shape, const std::vector<int>& axes,
                                    const std::vector<AxisTransform>& tr, Norm norm, bool ortho,
                                    Direction dir, std::vector<LD> a) {
  const std::size_t rank = shape.size();
  std::vector<std::size_t> stride(rank, 1);
  for (std::size_t d = rank - 1; d-- > 0;) stride[d] = stride[d + 1] * shape[d + 1];
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::size_t ax = static_cast<std::size_t>(axes[i]), n = shape[ax];
    const std::size_t total = a.size();
    for (std::size_t base = 0; base < total; ++base) {
      if ((base / stride[ax]) % n != 0) continue;  // first element of each line
      std::vector<LD> line(n);
      for (std::size_t j = 0; j < n; ++j) line[j] = a[base + j * stride[ax]];
      auto y = reference(tr[i].kind, tr[i].type, norm, ortho, dir, line);
      for (std::size_t j = 0; j < n; ++j) a[base + j * stride[ax]] = y[j];
    }
  }
  return a;
}

}  // namespace dctx::oracle
