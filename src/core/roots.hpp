// SPDX-License-Identifier: BSD-3-Clause
// Roots of unity for plan-time tables, evaluated in long double with the index reduced exactly
// (modulo the denominator, in integers) before the angle is formed, so that large index products
// lose nothing; every table entry is then rounded once to double (and by a back end to its own
// precision).
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>

namespace dctx::detail {

/// exp(sign * 2 pi i * num / den) in long double.
std::complex<long double> unit_root(std::int64_t num, std::int64_t den, int sign = -1);

/// exp(sign * pi i * num / den) in long double.
inline std::complex<long double> half_unit_root(std::int64_t num, std::int64_t den, int sign = -1) {
  return unit_root(num, 2 * den, sign);
}

/// A long-double complex rounded to double.
inline std::complex<double> to_double(std::complex<long double> z) {
  return {static_cast<double>(z.real()), static_cast<double>(z.imag())};
}

/// Smallest n >= minimum whose prime factors are 2, 3 and 5 (a fast FFT length).
std::size_t good_fft_size(std::size_t minimum);

}  // namespace dctx::detail
