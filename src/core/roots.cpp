// SPDX-License-Identifier: BSD-3-Clause
// Roots of unity (roots.hpp).
#include "core/roots.hpp"

#include <cmath>
#include <vector>

namespace dctx::detail {

namespace {

using LD = long double;
using CLD = std::complex<LD>;
const LD kPi = 3.141592653589793238462643383279502884L;

// exp(-2 pi i num / den) for 0 <= num < den, by the octant symmetries: sinl/cosl only ever see
// angles in [0, pi/4] (no long argument reduction), the rest is exact sign and swap work.
CLD root_by_octant(std::int64_t num, std::int64_t den) {
  // angle = 2 pi num / den = (pi / 4) * (8 num / den); octant o = floor(8 num / den).
  const std::int64_t o = static_cast<std::int64_t>((static_cast<__int128>(num) * 8) / den);
  // The remainder as a fraction of the octant, reflected in odd octants to stay in [0, pi/4].
  const __int128 rem = static_cast<__int128>(num) * 8 - static_cast<__int128>(o) * den;
  const __int128 r = (o % 2 == 0) ? rem : den - rem;
  const LD a = kPi / 4 * static_cast<LD>(r) / static_cast<LD>(den);
  const LD c = std::cos(a), s = std::sin(a);
  // cos/sin of the full angle from those of the reduced one: octant o covers [o pi/4, (o+1) pi/4];
  // octants 1, 2, 5 and 6 swap cos and sin, 2..5 negate the cosine, 4..7 the sine.
  const bool swap = ((o + 1) & 2) != 0;
  const LD cr = (o >= 2 && o <= 5 ? -1 : 1) * (swap ? s : c);
  const LD sr = (o >= 4 ? -1 : 1) * (swap ? c : s);
  return {cr, -sr};
}

constexpr std::int64_t kSplitFrom = 64;

}  // namespace

RootTable::RootTable(std::int64_t den, int sign) : den_(den), sign_(sign) {
  // Below kSplitFrom lo_ holds every root (num >> 6 is 0) and hi_ is {1}; above, hi_ the roots of
  // the multiples of B = 2^shift_, about sqrt(den), and lo_ the first B.
  std::int64_t b = den;
  if (den < kSplitFrom) {
    shift_ = 6;
    hi_.assign(1, CLD(1.0L, 0.0L));
  } else {
    while ((std::int64_t{1} << shift_) * (std::int64_t{1} << shift_) < den) ++shift_;
    b = std::int64_t{1} << shift_;
    hi_.resize(static_cast<std::size_t>((den + b - 1) / b));
    for (std::size_t j = 0; j < hi_.size(); ++j)
      hi_[j] = root_by_octant(static_cast<std::int64_t>(j) * b, den);
  }
  lo_.resize(static_cast<std::size_t>(b));
  for (std::int64_t j = 0; j < b; ++j) lo_[static_cast<std::size_t>(j)] = root_by_octant(j, den);
  const auto to_d = [](const CLD& z) {
    return std::complex<double>(static_cast<double>(z.real()), static_cast<double>(z.imag()));
  };
  hi_d_.reserve(hi_.size());
  lo_d_.reserve(lo_.size());
  for (const CLD& z : hi_) hi_d_.push_back(to_d(z));
  for (const CLD& z : lo_) lo_d_.push_back(to_d(z));
}

}  // namespace dctx::detail
