// SPDX-License-Identifier: BSD-3-Clause
// Scalar versions of the block kernels: the same flowgraphs as the SIMD code (flowgraphs.inc) on
// plain floats and int32s, in the same order of passes. They serve targets without fixed-size
// vectors (HWY_SCALAR, SVE, RVV) and the tests (the int16 SIMD kernels must match them bit for
// bit).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "block8/constants.hpp"
#include "core/block8_backend.hpp"
#include "cpu/block8/kernels.hpp"

namespace dctx::block8::scalar {

#include "cpu/block8/flowgraphs.inc"

struct OpsF {
  float K(float c) const { return c; }
  float MulAdd(float a, float b, float c) const { return a * b + c; }
  float MulSub(float a, float b, float c) const { return a * b - c; }
  float NegMulAdd(float a, float b, float c) const { return c - a * b; }
  float Add(float a, float b) const { return a + b; }
  float Sub(float a, float b) const { return a - b; }
};
struct OpsI {
  std::int32_t K(std::int32_t c) const { return c; }
  template <int k>
  std::int32_t Sra(std::int32_t v) const {
    return v >> k;
  }
  template <int k>
  std::int32_t Shl(std::int32_t v) const {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << k);
  }
};

/// Round half away from zero, exactly (the SIMD kernels' formula).
inline float RoundHalfAway(float x) { return std::trunc(x + std::copysign(kJustBelowHalf, x)); }

// The element definitions of block8_quantize and block8_dequantize: the driver's element-by-element
// path, the composed passes and these scalar kernels use them; the SIMD kernels equal them (tests).
/// level = round half away from zero (c times the float reciprocal of Q), NaN to 0, saturated.
inline std::int16_t QuantizeValue(float c, float recip) {
  const float level = RoundHalfAway(c * recip);
  return std::isnan(level) ? 0 : static_cast<std::int16_t>(std::clamp(level, -32768.0f, 32767.0f));
}
/// level = round half away from zero (c / Q), exactly: (2|c| + Q) div 2Q with c's sign (fits
/// int16).
inline std::int16_t QuantizeValue(std::int16_t c, int q) {
  const std::int32_t a = c < 0 ? -std::int32_t{c} : c;
  const std::int32_t level = (2 * a + q) / (2 * q);
  return static_cast<std::int16_t>(c < 0 ? -level : level);
}
/// c = level * Q: exact in float; saturated to int16 for int16 coefficients.
inline float DequantizeValue(std::int16_t level, float q) { return static_cast<float>(level) * q; }
inline std::int16_t DequantizeSaturated(std::int16_t level, int q) {
  return static_cast<std::int16_t>(
      std::clamp<std::int64_t>(std::int64_t{level} * q, -32768, 32767));
}

// A block held as b[row][col]. Pass helpers: along columns (vertical) or rows (horizontal).
template <class Fn>
inline void Columns(float (&b)[8][8], Fn fn) {
  for (int j = 0; j < 8; ++j)
    fn(b[0][j], b[1][j], b[2][j], b[3][j], b[4][j], b[5][j], b[6][j], b[7][j]);
}
template <class Fn>
inline void Rows(float (&b)[8][8], Fn fn) {
  for (int i = 0; i < 8; ++i)
    fn(b[i][0], b[i][1], b[i][2], b[i][3], b[i][4], b[i][5], b[i][6], b[i][7]);
}
template <class Fn>
inline void Columns(std::int32_t (&b)[8][8], Fn fn) {
  for (int j = 0; j < 8; ++j)
    fn(b[0][j], b[1][j], b[2][j], b[3][j], b[4][j], b[5][j], b[6][j], b[7][j]);
}
template <class Fn>
inline void Rows(std::int32_t (&b)[8][8], Fn fn) {
  for (int i = 0; i < 8; ++i)
    fn(b[i][0], b[i][1], b[i][2], b[i][3], b[i][4], b[i][5], b[i][6], b[i][7]);
}

// Forward: columns, then rows, then the AAN scale (the SIMD order: V, transpose, V, scale).
inline void ForwardBlockF(float (&b)[8][8]) {
  const OpsF o;
  Columns(b, [&](auto&... x) { AanForward8(o, x...); });
  Rows(b, [&](auto&... x) { AanForward8(o, x...); });
  const AanTables& t = aan_tables();
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) b[i][j] *= t.fwd.at(i, j);
}
// Inverse: scale, rows, then columns (the SIMD order: transpose, scale, V, transpose, V).
inline void InverseBlockF(float (&b)[8][8]) {
  const OpsF o;
  const AanTables& t = aan_tables();
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) b[i][j] *= t.inv.at(i, j);
  Rows(b, [&](auto&... x) { AanInverse8(o, x...); });
  Columns(b, [&](auto&... x) { AanInverse8(o, x...); });
}
inline void ForwardBlockI(std::int32_t (&b)[8][8]) {
  const OpsI o;
  for (auto& row : b)
    for (auto& v : row) v = std::clamp(v, kFwdInMin, kFwdInMax);
  Columns(b, [&](auto&... x) { LlmForward8<false>(o, x...); });
  Rows(b, [&](auto&... x) { LlmForward8<true>(o, x...); });
}
inline void InverseBlockI(std::int32_t (&b)[8][8]) {
  const OpsI o;
  for (auto& row : b)
    for (auto& v : row) v = std::clamp(v, kInvInMin, kInvInMax);
  Rows(b, [&](auto&... x) { LlmInverse8<false>(o, x...); });
  Columns(b, [&](auto&... x) { LlmInverse8<true>(o, x...); });
  for (auto& row : b)
    for (auto& v : row) v = std::clamp(v, kInvOutMin, kInvOutMax);
}

/// Quantize-dequantize one float coefficient with the tables of QuantF32 (entry [v][u]).
inline float RequantizeF(float c, const QuantF32& q, int u, int v, std::uint64_t& zeros) {
  const float level = RoundHalfAway(c * q.recip.at(v, u));
  zeros += level == 0.0f;
  return level * q.q.at(v, u);
}
/// Quantize-dequantize one integer coefficient with the tables of QuantI16 (entry [v][u]): the
/// SIMD kernels' integer formula.
inline std::int32_t LevelMagnitudeI(std::int32_t c, const QuantI16& q, int u, int v) {
  const std::int32_t n = std::min(c < 0 ? -c : c, kRequantMaxAbs) + q.half_q.at(v, u);
  return (n * q.magic.at(v, u)) >> q.shift.at(v, u);
}
inline std::int32_t RequantizeI(std::int32_t c, const QuantI16& q, int u, int v,
                                std::uint64_t& zeros) {
  const std::int32_t level = LevelMagnitudeI(c, q, u, v);
  zeros += level == 0;
  const std::int32_t m = std::min(level * q.q.at(v, u), -kInvInMin);
  return std::min(c < 0 ? -m : m, kInvInMax);
}

/// b[u][v] = fn(b[u][v], u, v) on every coefficient of a block.
template <class W, class Fn>
inline void ForEachCoefficient(W (&b)[8][8], Fn fn) {
  for (int u = 0; u < 8; ++u)
    for (int v = 0; v < 8; ++v) b[u][v] = fn(b[u][v], u, v);
}

// Whole regions, block by block (same signatures as the SIMD kernels); blocks are worked on in
// float when either side is float, in int32 otherwise.
template <class TI, class TO, class Fn>
inline void ForEachBlock(const TI* in, std::ptrdiff_t is, TO* out, std::ptrdiff_t os,
                         std::size_t rows, std::size_t cols, Fn fn) {
  for (std::size_t r = 0; r < rows; r += 8)
    for (std::size_t c = 0; c < cols; c += 8) {
      using W = std::conditional_t<std::is_same_v<TI, float> || std::is_same_v<TO, float>, float,
                                   std::int32_t>;
      W b[8][8];
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          b[i][j] = in[std::ptrdiff_t(r + i) * is + std::ptrdiff_t(c + j)];
      fn(b);
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          out[std::ptrdiff_t(r + i) * os + std::ptrdiff_t(c + j)] = static_cast<TO>(b[i][j]);
    }
}

inline void ForwardF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                       std::size_t rows, std::size_t cols) {
  ForEachBlock(in, is, out, os, rows, cols, [](float(&b)[8][8]) { ForwardBlockF(b); });
}
inline void InverseF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                       std::size_t rows, std::size_t cols) {
  ForEachBlock(in, is, out, os, rows, cols, [](float(&b)[8][8]) { InverseBlockF(b); });
}
inline std::uint64_t RoundtripF32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                                  std::size_t rows, std::size_t cols, const QuantF32& q) {
  std::uint64_t zeros = 0;
  ForEachBlock(in, is, out, os, rows, cols, [&](float(&b)[8][8]) {
    ForwardBlockF(b);
    ForEachCoefficient(b, [&](float c, int u, int v) { return RequantizeF(c, q, u, v, zeros); });
    InverseBlockF(b);
  });
  return zeros;
}
inline void ForwardI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
  ForEachBlock(in, is, out, os, rows, cols, [](std::int32_t(&b)[8][8]) { ForwardBlockI(b); });
}
inline void InverseI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols) {
  ForEachBlock(in, is, out, os, rows, cols, [](std::int32_t(&b)[8][8]) { InverseBlockI(b); });
}
inline std::uint64_t RoundtripI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                  std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                  const QuantI16& q) {
  std::uint64_t zeros = 0;
  ForEachBlock(in, is, out, os, rows, cols, [&](std::int32_t(&b)[8][8]) {
    ForwardBlockI(b);
    ForEachCoefficient(
        b, [&](std::int32_t c, int u, int v) { return RequantizeI(c, q, u, v, zeros); });
    InverseBlockI(b);
  });
  return zeros;
}

// The codec's halves (block8_forward_quantized, block8_inverse_dequantized).
/// Level of a float coefficient as block8_quantize makes it (QuantF32 entry [v][u]).
/// NaN coefficients (level 0 here) set detail::kNaNCoefficient in `zeros`.
inline float QuantizeF(float c, const QuantF32& q, int u, int v, std::uint64_t& zeros) {
  const std::int16_t level = QuantizeValue(c, q.recip.at(v, u));
  zeros += level == 0;
  if (std::isnan(c)) zeros |= detail::kNaNCoefficient;
  return level;
}
inline std::uint64_t ForwardQuantizeF32(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                        const QuantF32& q) {
  std::uint64_t zeros = 0;
  ForEachBlock(in, is, out, os, rows, cols, [&](float(&b)[8][8]) {
    ForwardBlockF(b);
    ForEachCoefficient(b, [&](float c, int u, int v) { return QuantizeF(c, q, u, v, zeros); });
  });
  return zeros;
}
inline void DequantizeInverseF32(const std::int16_t* in, std::ptrdiff_t is, float* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantF32& q) {
  ForEachBlock(in, is, out, os, rows, cols, [&](float(&b)[8][8]) {
    ForEachCoefficient(b, [&](float l, int u, int v) { return l * q.q.at(v, u); });
    InverseBlockF(b);
  });
}
inline std::uint64_t ForwardQuantizeI16(const std::int16_t* in, std::ptrdiff_t is,
                                        std::int16_t* out, std::ptrdiff_t os, std::size_t rows,
                                        std::size_t cols, const QuantI16& q) {
  std::uint64_t zeros = 0;
  ForEachBlock(in, is, out, os, rows, cols, [&](std::int32_t(&b)[8][8]) {
    ForwardBlockI(b);
    ForEachCoefficient(b, [&](std::int32_t c, int u, int v) {
      const std::int32_t level = LevelMagnitudeI(c, q, u, v);
      zeros += level == 0;
      return c < 0 ? -level : level;
    });
  });
  return zeros;
}
inline void DequantizeInverseI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantI16& q) {
  ForEachBlock(in, is, out, os, rows, cols, [&](std::int32_t(&b)[8][8]) {
    // |level * Q| < 2^30
    ForEachCoefficient(b, [&](std::int32_t l, int u, int v) { return l * q.q.at(v, u); });
    InverseBlockI(b);  // clamps to [kInvInMin, kInvInMax] first
  });
}

// Quantization alone, natural-order QuantF32 (entry [r % 8][c % 8] for element (r, c)).
template <class TI, class TO, class Fn>
inline void ForEachElement(const TI* in, std::ptrdiff_t is, TO* out, std::ptrdiff_t os,
                           std::size_t rows, std::size_t cols, Fn fn) {
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      out[std::ptrdiff_t(r) * os + std::ptrdiff_t(c)] =
          fn(in[std::ptrdiff_t(r) * is + std::ptrdiff_t(c)], r % 8, c % 8);
}
/// Returns detail::kNaNCoefficient when a coefficient was NaN, else 0.
inline std::uint64_t QuantizeF32(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantF32& q) {
  bool nan = false;
  ForEachElement(in, is, out, os, rows, cols, [&](float c, std::size_t i, std::size_t j) {
    nan |= std::isnan(c);
    return QuantizeValue(c, q.recip.at(i, j));
  });
  return nan ? detail::kNaNCoefficient : 0;
}
inline void QuantizeI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                        std::ptrdiff_t os, std::size_t rows, std::size_t cols, const QuantF32& q) {
  ForEachElement(in, is, out, os, rows, cols, [&](std::int16_t c, std::size_t i, std::size_t j) {
    return QuantizeValue(c, static_cast<int>(q.q.at(i, j)));
  });
}
inline void DequantizeF32(const std::int16_t* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                          std::size_t rows, std::size_t cols, const QuantF32& q) {
  ForEachElement(in, is, out, os, rows, cols, [&](std::int16_t l, std::size_t i, std::size_t j) {
    return DequantizeValue(l, q.q.at(i, j));
  });
}
inline void DequantizeI16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                          std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                          const QuantF32& q) {
  ForEachElement(in, is, out, os, rows, cols, [&](std::int16_t l, std::size_t i, std::size_t j) {
    return DequantizeSaturated(l, static_cast<int>(q.q.at(i, j)));
  });
}

}  // namespace dctx::block8::scalar
