// SPDX-License-Identifier: BSD-3-Clause
// FFT factorisation and twiddle tables (fft_tables.hpp).
#include "core/fft_tables.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "core/roots.hpp"

namespace dctx::detail {
namespace {

std::int64_t i64(std::size_t v) { return static_cast<std::int64_t>(v); }

// 8s (where `eights`), 4s, at most one 2, then odd primes upwards.
std::vector<std::size_t> factor(std::size_t n, bool eights) {
  std::vector<std::size_t> f;
  while (eights && n % 8 == 0) {
    f.push_back(8);
    n /= 8;
  }
  while (n % 4 == 0) {
    f.push_back(4);
    n /= 4;
  }
  if (n % 2 == 0) {
    f.push_back(2);
    n /= 2;
  }
  for (std::size_t p = 3; p * p <= n; p += 2)
    while (n % p == 0) {
      f.push_back(p);
      n /= p;
    }
  if (n > 1) f.push_back(n);
  return f;
}

}  // namespace

std::vector<std::size_t> fft_radices(std::size_t n) { return factor(n, true); }

std::vector<std::size_t> stockham_radices(std::size_t n, StageRadices r) {
  if (r == StageRadices::Fours || r == StageRadices::FoursFusedSplit) {
    std::vector<std::size_t> f = factor(n, false);
    if (r == StageRadices::FoursFusedSplit && n >= 16 && std::has_single_bit(n) && f.back() == 4) {
      f.back() = 2;
      f.push_back(2);
    }
    return f;
  }
  if (r != StageRadices::SixteenFusedSplit || !std::has_single_bit(n)) return fft_radices(n);
  const auto e = static_cast<std::size_t>(std::countr_zero(n));  // n = 2^e
  if (e < 5 || e % 3 != 2) return fft_radices(n);
  std::vector<std::size_t> f{16};
  for (std::size_t k = 0; k < (e - 5) / 3; ++k) f.push_back(8);
  f.push_back(2);
  return f;
}

std::size_t fft_largest_radix(std::size_t n) {
  const std::vector<std::size_t> f = fft_radices(n);
  return f.empty() ? 1 : *std::max_element(f.begin(), f.end());
}

namespace {

// The estimated cost of a Stockham FFT of length m: m times its passes, weighted by radix.
double stockham_cost(std::size_t m) {
  double passes = 0;
  for (std::size_t p : fft_radices(m)) passes += p == 3 ? 1.1 : p == 5 ? 1.25 : p == 7 ? 1.5 : 1.0;
  return static_cast<double>(m) * passes;
}

}  // namespace

std::size_t bluestein_fft_size(std::size_t minimum) {
  std::size_t pow2 = 1;
  while (pow2 < minimum) pow2 *= 2;
  std::size_t best = pow2;
  double best_cost = stockham_cost(pow2);
  for (std::size_t f7 = 1; f7 < pow2; f7 *= 7)
    for (std::size_t f57 = f7; f57 < pow2; f57 *= 5)
      for (std::size_t f357 = f57; f357 < pow2; f357 *= 3) {
        std::size_t m = f357;
        while (m < minimum) m *= 2;
        if (m >= pow2) continue;
        const double cost = stockham_cost(m);
        if (cost < best_cost) {
          best = m;
          best_cost = cost;
        }
      }
  return best;
}

// Direct passes cost ~n*p per odd factor p; Bluestein ~3 FFTs of the padded length.
bool fft_uses_bluestein(std::size_t n) {
  if (n <= 1) return false;
  std::size_t big = 0;
  double direct = 0;
  for (std::size_t p : fft_radices(n)) {
    big = std::max(big, p);
    direct += static_cast<double>(n) * (p > 5 ? static_cast<double>(p) : 4.0);
  }
  if (big <= 5) return false;
  if (big > kMaxGenericRadix) return true;
  const double m = static_cast<double>(bluestein_fft_size(2 * n - 1));
  return 3.0 * m * std::log2(m) * 4.0 + 6.0 * m < direct;
}

ComplexFftTables complex_fft_tables(std::size_t n, RadixOrder order, StageRadices r) {
  ComplexFftTables t;
  t.n = n;
  if (n <= 1) return t;
  if (fft_uses_bluestein(n)) {
    t.bluestein_length = bluestein_fft_size(2 * n - 1);
    t.chirp.resize(n);
    const std::uint64_t twon = 2 * static_cast<std::uint64_t>(n);
    const RootTable root(i64(twon), +1);
    for (std::size_t j = 0, jj = 0; j < n; ++j) {  // jj = j^2 mod 2n, by (j+1)^2 = j^2 + 2j + 1
      t.chirp[j] = to_double(root(static_cast<std::int64_t>(jj)));
      jj = static_cast<std::size_t>((jj + 2 * static_cast<std::uint64_t>(j) + 1) % twon);
    }
    return t;
  }
  std::size_t L = 1, M = n;
  std::vector<std::size_t> radices = stockham_radices(n, r);
  if (order == RadixOrder::SmallFirst) std::reverse(radices.begin(), radices.end());
  for (std::size_t p : radices) {
    FftStage st;
    st.radix = p;
    st.m = M / p;
    st.L = L;
    st.twiddles.resize(st.m * (p - 1));
    const RootTable root(i64(M));
    for (std::size_t n1 = 0; n1 < st.m; ++n1)
      for (std::size_t k = 1; k < p; ++k)
        st.twiddles[n1 * (p - 1) + k - 1] = to_double(root(i64(n1 * k)));
    if (p % 2 == 1) {
      st.roots.resize(p);
      const RootTable proot(i64(p));
      for (std::size_t j = 0; j < p; ++j) st.roots[j] = to_double(proot(i64(j)));
    }
    t.stages.push_back(std::move(st));
    L *= p;
    M /= p;
  }
  return t;
}

template <class T>
std::vector<std::complex<T>> real_fft_split_twiddles(std::size_t n) {
  std::vector<std::complex<T>> tw(n / 2 + 1);
  RootTable(i64(n)).first_roots(tw.size(), tw.data());
  return tw;
}
template std::vector<std::complex<float>> real_fft_split_twiddles<float>(std::size_t);
template std::vector<std::complex<double>> real_fft_split_twiddles<double>(std::size_t);

template <class T>
std::vector<std::complex<T>> six_step_twiddles(std::size_t m1, std::size_t m2) {
  const std::size_t n = m1 * m2;
  std::vector<std::complex<T>> tw(n);
  const RootTable root(i64(n));
  for (std::size_t k1 = 0; k1 < m1; ++k1) root.roots_by_step(i64(k1), m2, tw.data() + k1 * m2);
  return tw;
}
template std::vector<std::complex<float>> six_step_twiddles<float>(std::size_t, std::size_t);
template std::vector<std::complex<double>> six_step_twiddles<double>(std::size_t, std::size_t);

}  // namespace dctx::detail
