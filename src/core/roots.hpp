// SPDX-License-Identifier: BSD-3-Clause
// Roots of unity for plan-time tables, evaluated in long double with the index reduced exactly
// (modulo the denominator, in integers, then to the first octant by symmetry) before the angle is
// formed, so that large index products lose nothing and sin/cos see only angles in [0, pi/4]; every
// table entry is then rounded once to double (and by a back end to its own precision).
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dctx::detail {

/// exp(sign * 2 pi i * num / den) for many num of one den, as a plan's table loops need them:
/// below 64 one table of all den roots; above, exp(-2 pi i num/den) = hi[num / B] lo[num % B]
/// with B a power of two of about sqrt(den), so a table of den roots costs 2 sqrt(den) sin/cos
/// evaluations and one long-double complex product per entry (its error, a few long-double ulps, is
/// far below the double rounding that follows).
class RootTable {
 public:
  explicit RootTable(std::int64_t den, int sign = -1);
  std::complex<long double> operator()(std::int64_t num) const {
    if (num < 0 || num >= den_) {
      num %= den_;
      if (num < 0) num += den_;
    }
    const std::complex<long double>& a = hi_[static_cast<std::size_t>(num >> shift_)];
    const std::complex<long double>& b =
        lo_[static_cast<std::size_t>(num & ((std::int64_t{1} << shift_) - 1))];
    // The product written out: std::complex's operator* checks for infinities and NaN.
    const long double re = a.real() * b.real() - a.imag() * b.imag();
    const long double im = a.real() * b.imag() + a.imag() * b.real();
    return {re, sign_ < 0 ? im : -im};
  }

 private:
  std::int64_t den_;
  int shift_ = 0, sign_;
  std::vector<std::complex<long double>> hi_, lo_;
};

/// A long-double complex rounded to double.
inline std::complex<double> to_double(std::complex<long double> z) {
  return {static_cast<double>(z.real()), static_cast<double>(z.imag())};
}

/// Smallest n >= minimum whose prime factors are 2, 3 and 5 (a fast FFT length).
std::size_t good_fft_size(std::size_t minimum);

}  // namespace dctx::detail
