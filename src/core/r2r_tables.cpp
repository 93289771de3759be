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

}  // namespace

double axis_scale(const PlanDesc& d, AxisTransform t, std::size_t n) {
  const double m = logical_length(t, n);
  switch (d.norm) {
    case Norm::Ortho: return 1.0 / std::sqrt(m);
    case Norm::Backward: return d.direction == Direction::Forward ? 1.0 : 1.0 / m;
    case Norm::Forward: return d.direction == Direction::Forward ? 1.0 / m : 1.0;
  }
  return 1.0;
}

R2RTables r2r_tables(AxisTransform t, std::size_t n, double fct, bool ortho) {
  R2RTables r;
  r.computed = t;
  r.n = n;
  r.ortho = ortho;
  const long double s2 = std::sqrt(2.0L);
  const long double f = fct;
  switch (t.type) {
    case 2:
      r.inner_length = n;
      r.pre.resize(n / 2 + 1);
      for (std::size_t k = 0; k <= n / 2; ++k)
        r.pre[k] = to_double(2.0L * f * half_unit_root(i64(k), i64(2 * n)));
      r.c0 = static_cast<double>(2.0L * f / (ortho ? s2 : 1.0L));
      break;
    case 3:
      r.inner_length = n;
      r.pre.resize(n / 2 + 1);
      for (std::size_t k = 0; k <= n / 2; ++k)
        r.pre[k] = to_double(f * half_unit_root(i64(k), i64(2 * n), +1));
      r.c0 = static_cast<double>(f * (ortho ? s2 : 1.0L));
      break;
    case 4:
      r.inner = InnerFft::Complex;
      if (n % 2 == 0) {
        const std::size_t m = n / 2;
        r.inner_length = m;
        r.pre.resize(m);
        r.post.resize(m);
        for (std::size_t j = 0; j < m; ++j) {
          r.pre[j] = to_double(half_unit_root(i64(4 * j + 1), i64(4 * n)));
          r.post[j] = to_double(2.0L * f * half_unit_root(i64(j), i64(n)));
        }
      } else {
        // C_k = exp(-i pi (2k+1)/(4n)) * sum_j (x_j exp(-i pi j/(2n))) exp(-2 pi i jk/(2n)).
        r.inner_length = 2 * n;
        r.pre.resize(n);
        r.post.resize(n);
        for (std::size_t j = 0; j < n; ++j) {
          r.pre[j] = to_double(half_unit_root(i64(j), i64(2 * n)));
          r.post[j] = to_double(2.0L * f * half_unit_root(i64(2 * j + 1), i64(4 * n)));
        }
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
  t.w1.resize(n1);
  for (std::size_t k = 0; k < n1; ++k) {
    long double s = (t.forward ? 2.0L : 1.0L) * f1;
    if (ortho && k == 0) s = t.forward ? s / r2 : s * r2;
    t.w1[k] = to_double(s * half_unit_root(i64(k), i64(2 * n1), sign));
  }
  t.w2.resize(n2 / 2 + 1);
  for (std::size_t k = 0; k < t.w2.size(); ++k) {
    long double s = f2;
    if (ortho && k == 0) s = t.forward ? s / r2 : s * r2;
    t.w2[k] = to_double(s * half_unit_root(i64(k), i64(2 * n2), sign));
  }
  t.perm1 = even_odd_permutation(n1);
  t.perm2 = even_odd_permutation(n2);
  return t;
}

}  // namespace dctx::detail
