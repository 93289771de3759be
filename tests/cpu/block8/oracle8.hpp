// SPDX-License-Identifier: BSD-3-Clause
// Test oracle for the 8x8 block engine: the orthonormal 8x8 DCT-II and DCT-III straight from
// their definition (eqs. 4 and 5 of Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8
// Blocks with CUDA") in long double, plus random data helpers.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace dctx::test8 {

struct Oracle8 {
  long double a[8][8];  // a[u][x] = alpha(u) cos((2x+1) u pi / 16)
  Oracle8() {
    const long double pi = std::acos(-1.0L);
    for (int u = 0; u < 8; ++u)
      for (int x = 0; x < 8; ++x)
        a[u][x] = (u == 0 ? std::sqrt(1.0L / 8) : std::sqrt(2.0L / 8)) *
                  std::cos((2 * x + 1) * u * pi / 16);
  }
  /// C(u,v) = sum_{x,y} a[u][x] a[v][y] f(x,y); f and c row-major 8x8.
  template <class T>
  void forward(const T* f, long double* c) const {
    for (int u = 0; u < 8; ++u)
      for (int v = 0; v < 8; ++v) {
        long double s = 0;
        for (int x = 0; x < 8; ++x)
          for (int y = 0; y < 8; ++y)
            s += a[u][x] * a[v][y] * static_cast<long double>(f[8 * x + y]);
        c[8 * u + v] = s;
      }
  }
  /// f(x,y) = sum_{u,v} a[u][x] a[v][y] C(u,v).
  template <class T>
  void inverse(const T* c, long double* f) const {
    for (int x = 0; x < 8; ++x)
      for (int y = 0; y < 8; ++y) {
        long double s = 0;
        for (int u = 0; u < 8; ++u)
          for (int v = 0; v < 8; ++v)
            s += a[u][x] * a[v][y] * static_cast<long double>(c[8 * u + v]);
        f[8 * x + y] = s;
      }
  }
};

inline const Oracle8& oracle() {
  static const Oracle8 o;
  return o;
}

inline long double round_half_away(long double x) {
  return x < 0 ? -std::floor(-x + 0.5L) : std::floor(x + 0.5L);
}

/// Random values in [lo, hi], never exactly zero (so an unwritten output cannot pass by accident).
inline std::vector<float> random_floats(std::size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) {
    do x = d(g);
    while (x == 0.0f);
  }
  return v;
}
inline std::vector<std::int16_t> random_int16(std::size_t n, int lo, int hi, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<std::int16_t> v(n);
  for (auto& x : v) {
    do x = static_cast<std::int16_t>(d(g));
    while (x == 0);
  }
  return v;
}

}  // namespace dctx::test8
