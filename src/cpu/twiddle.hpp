// Twiddle factors computed once at plan time in extended precision and shared by every
// SIMD target (and, later, uploaded to GPU back ends).
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>

namespace dctx::cpu {

/// exp(sign * 2*pi*i * num/den) evaluated in long double with the numerator reduced
/// modulo den first, so large index products lose no accuracy.
inline std::complex<long double> unit_root(std::int64_t num, std::int64_t den, int sign = -1) {
  num %= den;
  if (num < 0) num += den;
  // Reduce to the first half turn and use symmetry so the argument stays small.
  const long double pi = 3.141592653589793238462643383279502884L;
  long double a = 2.0L * pi * static_cast<long double>(num) / static_cast<long double>(den);
  long double c = std::cos(a), s = std::sin(a);
  return {c, sign * s};
}

/// exp(sign * i * pi * num/den)
inline std::complex<long double> half_unit_root(std::int64_t num, std::int64_t den, int sign = -1) {
  return unit_root(num, 2 * den, sign);
}

/// Smallest n >= minimum whose prime factors are 2, 3 and 5 (a fast FFT length).
inline std::size_t good_fft_size(std::size_t minimum) {
  std::size_t best = 1;
  while (best < minimum) best *= 2;
  for (std::size_t f5 = 1; f5 < best; f5 *= 5)
    for (std::size_t f35 = f5; f35 < best; f35 *= 3) {
      std::size_t x = f35;
      while (x < minimum) x *= 2;
      if (x < best) best = x;
    }
  return best;
}

}  // namespace dctx::cpu
