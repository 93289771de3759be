// SPDX-License-Identifier: BSD-3-Clause
// The electrostatic step's row passes (src/spectral/row_kernels.cc) on every SIMD target: the
// unit-stride (vector) rows and the strided (element by element) rows give the bits of the
// published expressions evaluated here one element at a time, at lengths around the vector and
// accumulator widths; outputs are poisoned first, so that an unwritten element shows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "cpu/targets.hpp"
#include "spectral/row_kernels.hpp"

namespace dctx::spectral {
namespace {

using test::PerTarget;

constexpr std::size_t kLengths[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 31, 33, 64, 100, 257};

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// The row's constants for a grid of n columns and row index i of m.
struct Tables {
  std::vector<double> wv, wv2, hcos;
  WeighRow row(std::size_t n, std::size_t i, std::size_t m, bool zero_first) {
    wv.clear();
    wv2.clear();
    hcos.clear();
    const double pi = std::acos(-1.0);
    for (std::size_t v = 0; v < n; ++v) {
      wv.push_back(2 * pi * double(v) / double(n));
      wv2.push_back(wv.back() * wv.back());
      hcos.push_back(v == 0 ? 1.0 : 0.5);
    }
    WeighRow w;
    w.n = n;
    w.scale = 1.0 / (double(m) * double(n) * 1.25 * 0.75);
    const double wu = 2 * pi * double(i) / double(m);
    w.wu2 = wu * wu;
    w.zero_first = zero_first;
    w.pot_i = i == 0 ? 1.0 : 0.5;
    w.fy_i = w.pot_i / 4;
    w.fx_i = wu / 4;
    w.wv = wv.data();
    w.wv2 = wv2.data();
    w.hcos = hcos.data();
    return w;
  }
};

template <class T>
void check_weigh(std::size_t n, bool with_pot, bool zero_first, bool write_x = true) {
  std::mt19937_64 rng(n * 4 + with_pot * 2 + zero_first);
  std::uniform_real_distribution<double> u(-1, 1);
  Tables tables;
  // Row 0 with zero_first (its zero-frequency term), otherwise row 3 of 8.
  WeighRow w = tables.row(n, zero_first ? 0 : 3, 8, zero_first);
  w.write_x = write_x;
  std::vector<T> a(n);
  for (T& x : a) x = static_cast<T>(u(rng));
  // The published expressions, element by element (src/spectral/electrostatics.cpp).
  std::vector<T> want_x(n), want_y(n), want_p(n);
  double want_acc[8] = {};
  for (std::size_t j = 0; j < n; ++j) {
    const double av = double(a[j]) * w.scale;
    const double t = (zero_first && j == 0) ? 0.0 : av / (w.wu2 + w.wv2[j]);
    want_acc[j % 8] += av * t;
    want_p[j] = static_cast<T>(t * w.pot_i * w.hcos[j]);
    want_y[j] = static_cast<T>(t * w.wv[j] * w.fy_i);
    want_x[j] = static_cast<T>(t * w.fx_i * w.hcos[j]);
  }
  const T poison = std::numeric_limits<T>::quiet_NaN();
  for (std::ptrdiff_t stride : {1, 3}) {
    std::vector<T> x(n * stride, poison), y(n * stride, poison), p(n * stride, poison);
    for (std::size_t j = 0; j < n; ++j) x[j * stride] = a[j];
    double acc[8] = {};
    weigh_row(w, x.data(), stride, y.data(), stride, with_pot ? p.data() : nullptr, stride, acc);
    for (std::size_t j = 0; j < n; ++j) {
      ASSERT_TRUE(same_bits(x[j * stride], write_x ? want_x[j] : a[j]))
          << "field_x, j " << j << " stride " << stride << (write_x ? "" : " (left as it was)");
      ASSERT_TRUE(same_bits(y[j * stride], want_y[j]))
          << "field_y, j " << j << " stride " << stride;
      if (with_pot)
        ASSERT_TRUE(same_bits(p[j * stride], want_p[j])) << "potential, j " << j;
      else
        ASSERT_TRUE(std::isnan(p[j * stride])) << "potential written although not asked for";
    }
    for (std::size_t q = 0; q < 8; ++q)
      EXPECT_TRUE(same_bits(acc[q], want_acc[q])) << "accumulator " << q << " stride " << stride;
  }
}

template <class T>
void check_scale(std::size_t n) {
  std::mt19937_64 rng(n);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> x(n);
  for (T& v : x) v = static_cast<T>(u(rng));
  const double r = 0.7853981633974483;  // not a power of two: the rounding shows
  for (std::ptrdiff_t stride : {1, 2}) {
    const T poison = std::numeric_limits<T>::quiet_NaN();
    std::vector<T> xs(n * stride, poison), ys(n * stride, poison);
    for (std::size_t j = 0; j < n; ++j) xs[j * stride] = x[j];
    scale_row(xs.data(), stride, r, ys.data(), stride, n);
    for (std::size_t j = 0; j < n; ++j)
      ASSERT_TRUE(same_bits(ys[j * stride], static_cast<T>(double(x[j]) * r)))
          << "n " << n << " stride " << stride << " j " << j;
    for (std::size_t j = 0; j < n * stride; ++j)
      ASSERT_TRUE(j % stride == 0 || std::isnan(ys[j])) << "written between the elements, " << j;
  }
}

class RowKernels : public PerTarget {};

TEST_P(RowKernels, WeighingGivesThePublishedExpressionsBits) {
  for (std::size_t n : kLengths)
    for (bool pot : {false, true})
      for (bool zero_first : {false, true}) {
        SCOPED_TRACE("n " + std::to_string(n) + (pot ? " with" : " without") + " potential" +
                     (zero_first ? ", row 0" : ""));
        check_weigh<float>(n, pot, zero_first);
        check_weigh<double>(n, pot, zero_first);
      }
  for (std::size_t n : kLengths) {
    SCOPED_TRACE("n " + std::to_string(n) + ", field_x not written");
    check_weigh<float>(n, true, false, false);
    check_weigh<double>(n, true, false, false);
  }
}

TEST_P(RowKernels, ScaledRowsAreTheDoubleProducts) {
  for (std::size_t n : kLengths) {
    check_scale<float>(n);
    check_scale<double>(n);
  }
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(RowKernels);

}  // namespace
}  // namespace dctx::spectral
