// SPDX-License-Identifier: BSD-3-Clause
// Roots of unity for plan-time tables, evaluated in long double with the index reduced exactly
// (modulo the denominator, in integers, then to the first octant by symmetry) before the angle is
// formed, so that large index products lose nothing and sin/cos see only angles in [0, pi/4]; every
// table entry is then rounded once to double (and by a back end to its own precision).
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace dctx::detail {

/// The arithmetic a table entry of precision T is formed in before its one rounding to T: long
/// double for double entries; double for float entries (the product of two rounded double roots
/// errs by a few units of 2^-53, far inside float's half ulp of 2^-25).
template <class T>
using RootArith = std::conditional_t<(sizeof(T) < sizeof(double)), double, long double>;

/// exp(sign * 2 pi i * num / den) for many num of one den, as a plan's table loops need them:
/// below 64 one table of all den roots; above, exp(-2 pi i num/den) = hi[num / B] lo[num % B]
/// with B a power of two of about sqrt(den), so a table of den roots costs 2 sqrt(den) sin/cos
/// evaluations and one complex product per entry, in RootArith (in long double its error, a few
/// long-double ulps, is far below the double rounding that follows).
class RootTable {
 public:
  explicit RootTable(std::int64_t den, int sign = -1);
  std::complex<long double> operator()(std::int64_t num) const { return at<long double>(num); }
  /// out[k] = root(k) for k < count (count <= den), formed in RootArith<T> and rounded once to
  /// T, times `scale`: the table loops' common case, one complex product per entry.
  template <class T>
  void first_roots(std::size_t count, std::complex<T>* out, RootArith<T> scale = 1) const {
    using R = RootArith<T>;
    const auto& [hi, lo] = tables<R>();
    const std::size_t block = std::size_t{1} << shift_;
    const R sign = sign_ < 0 ? 1 : -1;  // the imaginary part's
    for (std::size_t h = 0, k = 0; k < count; ++h) {
      // scale * hi[h] * lo[l] for the block of lo that this hi entry covers.
      const std::complex<R> a{hi[h].real() * scale, hi[h].imag() * scale};
      const std::size_t end = std::min(block, count - k);
      for (std::size_t l = 0; l < end; ++l) out[k + l] = product<T>(a, lo[l], sign);
      k += end;
    }
  }
  /// out[j] = root(j step) for j < count, 0 <= step < den, formed and rounded as first_roots.
  template <class T>
  void roots_by_step(std::int64_t step, std::size_t count, std::complex<T>* out) const {
    using R = RootArith<T>;
    const auto& [hi, lo] = tables<R>();
    const R sign = sign_ < 0 ? 1 : -1;
    const std::int64_t mask = (std::int64_t{1} << shift_) - 1;
    std::int64_t num = 0;
    for (std::size_t j = 0; j < count; ++j) {
      const std::complex<R>& a = hi[static_cast<std::size_t>(num >> shift_)];
      const std::complex<R>& b = lo[static_cast<std::size_t>(num & mask)];
      out[j] = product<T>(a, b, sign);
      num += step;
      if (num >= den_) num -= den_;
    }
  }
  /// The root formed in arithmetic R (long double or double).
  template <class R>
  std::complex<R> at(std::int64_t num) const {
    if (num < 0 || num >= den_) {
      num %= den_;
      if (num < 0) num += den_;
    }
    const auto& [hi, lo] = tables<R>();
    const std::complex<R>& a = hi[static_cast<std::size_t>(num >> shift_)];
    const std::complex<R>& b =
        lo[static_cast<std::size_t>(num & ((std::int64_t{1} << shift_) - 1))];
    return product<R>(a, b, R(sign_ < 0 ? 1 : -1));
  }

 private:
  // a b rounded to T, the imaginary part times `sign` (+1, or -1 for the conjugate roots); written
  // out because std::complex's operator* checks for infinities and NaN.
  template <class T, class R>
  static std::complex<T> product(const std::complex<R>& a, const std::complex<R>& b, R sign) {
    return {static_cast<T>(a.real() * b.real() - a.imag() * b.imag()),
            static_cast<T>(sign * (a.real() * b.imag() + a.imag() * b.real()))};
  }
  template <class R>
  auto tables() const {
    if constexpr (std::is_same_v<R, double>)
      return std::pair<const std::vector<std::complex<double>>&,
                       const std::vector<std::complex<double>>&>(hi_d_, lo_d_);
    else
      return std::pair<const std::vector<std::complex<long double>>&,
                       const std::vector<std::complex<long double>>&>(hi_, lo_);
  }
  std::int64_t den_;
  int shift_ = 0, sign_;
  std::vector<std::complex<long double>> hi_, lo_;
  std::vector<std::complex<double>> hi_d_, lo_d_;  // the same, rounded to double
};

/// A long-double complex rounded to double.
inline std::complex<double> to_double(std::complex<long double> z) {
  return {static_cast<double>(z.real()), static_cast<double>(z.imag())};
}

}  // namespace dctx::detail
