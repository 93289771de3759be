// SPDX-License-Identifier: BSD-3-Clause
// Roots of unity (roots.hpp).
#include "core/roots.hpp"

#include <cmath>

namespace dctx::detail {

std::complex<long double> unit_root(std::int64_t num, std::int64_t den, int sign) {
  num %= den;
  if (num < 0) num += den;
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double a = 2.0L * pi * static_cast<long double>(num) / static_cast<long double>(den);
  return {std::cos(a), sign * std::sin(a)};
}

std::size_t good_fft_size(std::size_t minimum) {
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

}  // namespace dctx::detail
