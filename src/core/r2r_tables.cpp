// SPDX-License-Identifier: BSD-3-Clause
// Real-to-real transform coefficients (r2r_tables.hpp).
#include "core/r2r_tables.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "core/roots.hpp"

namespace dctx::detail {
namespace {

std::int64_t i64(std::size_t v) { return static_cast<std::int64_t>(v); }

std::vector<std::size_t> even_odd_permutation(std::size_t n) {
  std::vector<std::size_t> p(n);
  for (std::size_t r = 0; r < n; ++r) p[r] = r < (n + 1) / 2 ? 2 * r : 2 * (n - 1 - r) + 1;
  return p;
}

// Signs of cos(pi p / q) and sin(pi p / q), p >= 0, q > 0, exactly.
int cos_sign(std::uint64_t p, std::uint64_t q) {
  const std::uint64_t r2 = 2 * (p % (2 * q));  // 2r, r in [0, 2q)
  if (r2 == q || r2 == 3 * q) return 0;
  return (r2 < q || r2 > 3 * q) ? 1 : -1;
}
int sin_sign(std::uint64_t p, std::uint64_t q) {
  const std::uint64_t r = p % (2 * q);
  if (r == 0 || r == q) return 0;
  return r < q ? 1 : -1;
}

}  // namespace

int r2r_coefficient_sign(AxisTransform t, std::size_t n, std::size_t k, std::size_t j) {
  const std::uint64_t N = n, K = k, J = j;
  const bool dct = t.kind == Kind::DCT;
  if (t.kind == Kind::RDFT) {  // II: row k <= N/2 cos(2 pi kj/N), row N-k -sin(2 pi kj/N)
    if (t.type != 2 && t.type != 3) throw Error("internal: rdft type " + std::to_string(t.type));
    const std::uint64_t row = t.type == 2 ? K : J, col = t.type == 2 ? J : K;  // III: transpose
    if (2 * row <= N) return cos_sign(2 * row * col, N);
    return -sin_sign(2 * (N - row) * col, N);
  }
  if (t.kind == Kind::DXST) {  // II: sin(pi k (2j+1) / 2N); III: sin(pi j (2k+1) / 2N)
    if (t.type == 2) return sin_sign(K * (2 * J + 1), 2 * N);
    if (t.type == 3) return sin_sign(J * (2 * K + 1), 2 * N);
    throw Error("internal: dxst type " + std::to_string(t.type));
  }
  switch (t.type) {
    case 1:
      if (dct) {  // x_0 + (-1)^k x_{N-1} + 2 sum cos(pi k j / (N-1))
        if (J == 0) return 1;
        if (J + 1 == N) return K % 2 ? -1 : 1;
        return cos_sign(K * J, N - 1);
      }
      return sin_sign((K + 1) * (J + 1), N + 1);
    case 2: return dct ? cos_sign(K * (2 * J + 1), 2 * N) : sin_sign((K + 1) * (2 * J + 1), 2 * N);
    case 3:
      if (dct) return J == 0 ? 1 : cos_sign(J * (2 * K + 1), 2 * N);
      if (J + 1 == N) return K % 2 ? -1 : 1;
      return sin_sign((J + 1) * (2 * K + 1), 2 * N);
    case 4:
      return dct ? cos_sign((2 * K + 1) * (2 * J + 1), 4 * N)
                 : sin_sign((2 * K + 1) * (2 * J + 1), 4 * N);
    default: throw Error("internal: transform type " + std::to_string(t.type));
  }
}

double axis_scale(const PlanDesc& d, AxisTransform t, std::size_t n) {
  const double m = logical_length(t, n);
  switch (d.norm) {
    case Norm::Ortho: return 1.0 / std::sqrt(m);
    case Norm::Backward: return d.direction == Direction::Forward ? 1.0 : 1.0 / m;
    case Norm::Forward: return d.direction == Direction::Forward ? 1.0 / m : 1.0;
  }
  return 1.0;
}

template <class T>
R2RTablesOf<T> r2r_tables(AxisTransform t, std::size_t n, double fct, bool ortho) {
  using R = RootArith<T>;
  const auto round = [](std::complex<R> z) {
    return std::complex<T>(static_cast<T>(z.real()), static_cast<T>(z.imag()));
  };
  R2RTablesOf<T> r;
  r.computed = t;
  r.n = n;
  r.ortho = ortho;
  const long double s2 = std::sqrt(2.0L);
  const long double f = fct;
  if (t.kind == Kind::RDFT) {  // one real FFT of n points, scaled
    r.inner_length = n;
    r.c0 = fct;
    return r;
  }
  switch (t.type) {
    case 2: {
      r.inner_length = n;
      r.pre.resize(n / 2 + 1);
      // 2 f exp(-i pi k / (2n))
      RootTable(i64(4 * n)).first_roots(r.pre.size(), r.pre.data(), static_cast<R>(2.0L * f));
      r.c0 = static_cast<double>(2.0L * f / (ortho ? s2 : 1.0L));
      break;
    }
    case 3: {
      r.inner_length = n;
      r.pre.resize(n / 2 + 1);
      // f exp(+i pi k / (2n))
      RootTable(i64(4 * n), +1).first_roots(r.pre.size(), r.pre.data(), static_cast<R>(f));
      r.c0 = static_cast<double>(f * (ortho ? s2 : 1.0L));
      break;
    }
    case 4:
      r.inner = InnerFft::Complex;
      if (n % 2 == 0) {
        const std::size_t m = n / 2;
        r.inner_length = m;
        r.pre.resize(m);
        r.post.resize(m);
        const RootTable pre(i64(8 * n)), post(i64(2 * n));  // exp(-i pi a/(4n)), exp(-i pi a/n)
        for (std::size_t j = 0; j < m; ++j) r.pre[j] = round(pre.at<R>(i64(4 * j + 1)));
        post.first_roots(m, r.post.data(), static_cast<R>(2.0L * f));
      } else {
        // C_k = exp(-i pi (2k+1)/(4n)) * sum_j (x_j exp(-i pi j/(2n))) exp(-2 pi i jk/(2n)).
        r.inner_length = 2 * n;
        r.pre.resize(n);
        r.post.resize(n);
        const RootTable pre(i64(4 * n)), post(i64(8 * n));  // exp(-i pi a/(2n)), exp(-i pi a/(4n))
        pre.first_roots(n, r.pre.data());
        const R twice_f = static_cast<R>(2.0L * f);
        for (std::size_t j = 0; j < n; ++j) r.post[j] = round(twice_f * post.at<R>(i64(2 * j + 1)));
      }
      break;
    case 1:
      r.inner_length = t.kind == Kind::DCT ? 2 * (n - 1) : 2 * (n + 1);
      r.c0 = fct;
      break;
    default: throw Error("internal: transform type " + std::to_string(t.type));
  }
  return r;
}
template R2RTablesOf<float> r2r_tables<float>(AxisTransform, std::size_t, double, bool);
template R2RTablesOf<double> r2r_tables<double>(AxisTransform, std::size_t, double, bool);

Fused2DTables fused2d_tables(const PlanDesc& d) {
  Fused2DTables t;
  const std::size_t n1 = d.shape[0], n2 = d.shape[1];
  t.forward = effective_type(d, d.transforms[0]) == 2;
  const bool ortho = *d.orthogonalize;
  // Axis order in `axes` does not matter: the 2D transform is separable.
  const long double f1 = axis_scale(d, d.transforms[0], n1);
  const long double f2 = axis_scale(d, d.transforms[1], n2);
  const long double r2 = std::sqrt(2.0L);
  const int sign = t.forward ? -1 : +1;
  const RootTable root1(i64(4 * n1), sign), root2(i64(4 * n2), sign);  // exp(-+i pi k/(2n))
  t.w1.resize(n1);
  for (std::size_t k = 0; k < n1; ++k) {
    long double s = (t.forward ? 2.0L : 1.0L) * f1;
    if (ortho && k == 0) s = t.forward ? s / r2 : s * r2;
    t.w1[k] = to_double(s * root1(i64(k)));
  }
  t.w2.resize(n2 / 2 + 1);
  for (std::size_t k = 0; k < t.w2.size(); ++k) {
    long double s = f2;
    if (ortho && k == 0) s = t.forward ? s / r2 : s * r2;
    t.w2[k] = to_double(s * root2(i64(k)));
  }
  t.perm1 = even_odd_permutation(n1);
  t.perm2 = even_odd_permutation(n2);
  return t;
}

}  // namespace dctx::detail
