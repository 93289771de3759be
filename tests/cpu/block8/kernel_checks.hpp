// SPDX-License-Identifier: BSD-3-Clause
// Checks the block kernel tests share: the oracle's error of a transformed plane, and the
// separate passes (forward, quantize, dequantize, inverse) that the fused passes must equal.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "cpu/block8/oracle8.hpp"
#include "dctx/block8.hpp"

namespace dctx::test8 {

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr std::int16_t kSentinel =
    -32768;  // never produced by the int16 kernels on these inputs

// Float tolerance of the fast kernel: |error| <= kTol * eps(float) * max|input| * 8 (the 8x8
// transform's l-infinity gain is 8); measured errors stay below a quarter of it.
inline constexpr double kTol = 4.0;
inline double float_bound(double max_abs_in) {
  return kTol * std::numeric_limits<float>::epsilon() * max_abs_in * 8.0;
}

struct Plane {
  std::size_t rows, cols;
  std::ptrdiff_t stride;
};

/// Max error of `out` against the oracle forward (or inverse) transform of `in`, block by block.
template <class T>
inline long double max_error(const T* in, Plane pi, const T* out, std::ptrdiff_t os, bool inverse,
                             bool round_clamp = false) {
  long double worst = 0;
  for (std::size_t r = 0; r < pi.rows; r += 8)
    for (std::size_t c = 0; c < pi.cols; c += 8) {
      long double x[64], y[64];
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          x[8 * i + j] = in[std::ptrdiff_t(r + i) * pi.stride + std::ptrdiff_t(c + j)];
      inverse ? oracle().inverse(x, y) : oracle().forward(x, y);
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
          long double want = y[8 * i + j];
          // A value within 1e-9 of a half-integer may round either way in double arithmetic.
          if (round_clamp && std::fabs(std::fabs(want - std::floor(want)) - 0.5L) < 1e-9L) continue;
          if (round_clamp) {
            want = round_half_away(want);
            want = inverse ? std::clamp<long double>(want, -256, 255)
                           : std::clamp<long double>(want, -32768, 32767);
          }
          const long double got = out[std::ptrdiff_t(r + i) * os + std::ptrdiff_t(c + j)];
          if (!(std::fabs(got - want) <= worst))
            worst = std::isnan(double(got)) ? INFINITY : std::fabs(got - want);
        }
    }
  return worst;
}

// forward -> quantize -> dequantize -> inverse on the float plane x (rows x cols): the samples, and
// the number of zero levels in `zeros`.
inline std::vector<float> SeparatePassesFloat(const std::vector<float>& x, std::size_t rows,
                                              std::size_t cols, const QuantTable& t,
                                              std::size_t& zeros) {
  const Shape s{rows, cols};
  std::vector<float> c(x.size(), kNaN), d(x.size(), kNaN), sep(x.size(), kNaN);
  std::vector<std::int16_t> levels(x.size(), kSentinel);
  block8_forward(ConstView<float>(x.data(), s), View<float>(c.data(), s));
  block8_quantize(ConstView<float>(c.data(), s), View<std::int16_t>(levels.data(), s), t);
  block8_dequantize(ConstView<std::int16_t>(levels.data(), s), View<float>(d.data(), s), t);
  block8_inverse(ConstView<float>(d.data(), s), View<float>(sep.data(), s));
  zeros = std::size_t(std::count(levels.begin(), levels.end(), 0));
  return sep;
}

// Runs the int16 fused pass and forward -> quantize -> dequantize -> inverse on x (rows x cols),
// expects the same samples and zero count, and returns the number of zero levels.
inline std::size_t ExpectFusedInt16EqualsSeparate(const std::vector<std::int16_t>& x,
                                                  std::size_t rows, std::size_t cols,
                                                  const QuantTable& t) {
  const Shape s{rows, cols};
  std::vector<std::int16_t> c(x.size(), kSentinel), lv(x.size(), kSentinel), d(x.size(), kSentinel),
      sep(x.size(), kSentinel), fused(x.size(), kSentinel);
  block8_forward(ConstView<std::int16_t>(x.data(), s), View<std::int16_t>(c.data(), s));
  block8_quantize(ConstView<std::int16_t>(c.data(), s), View<std::int16_t>(lv.data(), s), t);
  block8_dequantize(ConstView<std::int16_t>(lv.data(), s), View<std::int16_t>(d.data(), s), t);
  block8_inverse(ConstView<std::int16_t>(d.data(), s), View<std::int16_t>(sep.data(), s));
  const auto st = block8_roundtrip_quantized(ConstView<std::int16_t>(x.data(), s),
                                             View<std::int16_t>(fused.data(), s), t);
  EXPECT_EQ(fused, sep);
  const auto zeros = std::size_t(std::count(lv.begin(), lv.end(), 0));
  EXPECT_EQ(st.zeros, zeros);
  return zeros;
}

}  // namespace dctx::test8
