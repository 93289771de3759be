// SPDX-License-Identifier: BSD-3-Clause
// The CPU block engine's work functions (works.hpp).
#include "cpu/block8/works.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "block8/constants.hpp"
#include "cpu/block8/scalar.hpp"

namespace dctx::block8 {
namespace {

template <class T, class Block>
void for_each_block(const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os, std::size_t rows,
                    std::size_t cols, Block block) {
  double x[64], y[64];
  for (std::size_t r = 0; r < rows; r += 8)
    for (std::size_t c = 0; c < cols; c += 8) {
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          x[8 * i + j] = in[std::ptrdiff_t(r + i) * is + std::ptrdiff_t(c + j)];
      block(x, y);
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          out[std::ptrdiff_t(r + i) * os + std::ptrdiff_t(c + j)] = static_cast<T>(y[8 * i + j]);
    }
}

double round_half_away(double x) { return x < 0 ? -std::floor(-x + 0.5) : std::floor(x + 0.5); }
double saturate(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

std::uint64_t ref_forward_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                              std::size_t rows, std::size_t cols, const void*) {
  for_each_block(in, is, out, os, rows, cols, reference_forward_block);
  return 0;
}
std::uint64_t ref_inverse_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                              std::size_t rows, std::size_t cols, const void*) {
  for_each_block(in, is, out, os, rows, cols, reference_inverse_block);
  return 0;
}
std::uint64_t ref_forward_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                              std::ptrdiff_t os, std::size_t rows, std::size_t cols, const void*) {
  for_each_block(in, is, out, os, rows, cols, [](const double* x, double* y) {
    reference_forward_block(x, y);
    for (int k = 0; k < 64; ++k) y[k] = saturate(round_half_away(y[k]), -32768, 32767);
  });
  return 0;
}
std::uint64_t ref_inverse_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                              std::ptrdiff_t os, std::size_t rows, std::size_t cols, const void*) {
  for_each_block(in, is, out, os, rows, cols, [](const double* x, double* y) {
    reference_inverse_block(x, y);
    for (int k = 0; k < 64; ++k) y[k] = saturate(round_half_away(y[k]), kInvOutMin, kInvOutMax);
  });
  return 0;
}

std::uint64_t fast_forward_f32_work(const float* in, std::ptrdiff_t is, float* out,
                                    std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                    const void*) {
  fast_forward_f32(in, is, out, os, rows, cols);
  return 0;
}
std::uint64_t fast_inverse_f32_work(const float* in, std::ptrdiff_t is, float* out,
                                    std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                    const void*) {
  fast_inverse_f32(in, is, out, os, rows, cols);
  return 0;
}
std::uint64_t int_forward_i16_work(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                   std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                   const void*) {
  int_forward_i16(in, is, out, os, rows, cols);
  return 0;
}
std::uint64_t int_inverse_i16_work(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                   std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                   const void*) {
  int_inverse_i16(in, is, out, os, rows, cols);
  return 0;
}

// int16 data through the float Fast kernel: widen a strip, transform, round and saturate.
template <bool kInverse>
std::uint64_t fast_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                       std::ptrdiff_t os, std::size_t rows, std::size_t cols, const void*) {
  std::vector<float> buf(8 * cols);
  const float lo = kInverse ? float(kInvOutMin) : -32768.0f;
  const float hi = kInverse ? float(kInvOutMax) : 32767.0f;
  for (std::size_t r = 0; r < rows; r += 8) {
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t c = 0; c < cols; ++c)
        buf[i * cols + c] = in[std::ptrdiff_t(r + i) * is + std::ptrdiff_t(c)];
    if (kInverse)
      fast_inverse_f32(buf.data(), std::ptrdiff_t(cols), buf.data(), std::ptrdiff_t(cols), 8, cols);
    else
      fast_forward_f32(buf.data(), std::ptrdiff_t(cols), buf.data(), std::ptrdiff_t(cols), 8, cols);
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t c = 0; c < cols; ++c)
        out[std::ptrdiff_t(r + i) * os + std::ptrdiff_t(c)] = static_cast<std::int16_t>(
            std::min(std::max(scalar::RoundHalfAway(buf[i * cols + c]), lo), hi));
  }
  return 0;
}

}  // namespace

std::uint64_t fast_roundtrip_f32_work(const float* in, std::ptrdiff_t is, float* out,
                                      std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                      const void* q) {
  return fast_roundtrip_f32(in, is, out, os, rows, cols, *static_cast<const QuantF32*>(q));
}
std::uint64_t int_roundtrip_i16_work(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                     std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                     const void* q) {
  return int_roundtrip_i16(in, is, out, os, rows, cols, *static_cast<const QuantI16*>(q));
}
// ---- Quantization, natural layout (row-major 8x8 table)

// The element definitions (block8/scalar.hpp).
using scalar::DequantizeSaturated;
using scalar::DequantizeValue;
using scalar::QuantizeValue;
std::int16_t quantize_value(float c, int q) {
  return QuantizeValue(c, 1.0f / static_cast<float>(q));
}
std::int16_t quantize_value(std::int16_t c, int q) { return QuantizeValue(c, q); }
float dequantize_value(std::int16_t l, int q) { return DequantizeValue(l, static_cast<float>(q)); }
std::int16_t dequantize_value_i16(std::int16_t l, int q) { return DequantizeSaturated(l, q); }

/// Separate-pass composition (forward, requantize, inverse) for kernels without a fused kernel.
template <class T>
std::uint64_t composed_roundtrip(const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os,
                                 std::size_t rows, std::size_t cols, const void* ctx) {
  const auto& k = *static_cast<const Composed<T>*>(ctx);
  std::vector<T> buf(8 * cols);  // one strip of 8 rows at a time
  const auto bs = std::ptrdiff_t(cols);
  std::uint64_t zeros = 0;
  for (std::size_t r0 = 0; r0 < rows; r0 += 8) {
    k.forward(in + std::ptrdiff_t(r0) * is, is, buf.data(), bs, 8, cols, nullptr);
    for (std::size_t r = 0; r < 8; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        T& v = buf[r * cols + c];
        const int q = k.table->q[8 * r + c % 8];
        const std::int16_t level = quantize_value(v, q);
        zeros += level == 0;
        if constexpr (std::is_same_v<T, float>) {
          if (!std::isnan(v)) v = dequantize_value(level, q);  // NaN stays NaN, as when fused
        } else {
          v = dequantize_value_i16(level, q);
        }
      }
    k.inverse(buf.data(), bs, out + std::ptrdiff_t(r0) * os, os, 8, cols, nullptr);
  }
  return zeros;
}

std::uint64_t fast_forward_quantize_f32_work(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                             std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                             const void* q) {
  return fast_forward_quantize_f32(in, is, out, os, rows, cols, *static_cast<const QuantF32*>(q));
}
std::uint64_t fast_dequantize_inverse_f32_work(const std::int16_t* in, std::ptrdiff_t is,
                                               float* out, std::ptrdiff_t os, std::size_t rows,
                                               std::size_t cols, const void* q) {
  fast_dequantize_inverse_f32(in, is, out, os, rows, cols, *static_cast<const QuantF32*>(q));
  return 0;
}
std::uint64_t int_forward_quantize_i16_work(const std::int16_t* in, std::ptrdiff_t is,
                                            std::int16_t* out, std::ptrdiff_t os, std::size_t rows,
                                            std::size_t cols, const void* q) {
  return int_forward_quantize_i16(in, is, out, os, rows, cols, *static_cast<const QuantI16*>(q));
}
std::uint64_t int_dequantize_inverse_i16_work(const std::int16_t* in, std::ptrdiff_t is,
                                              std::int16_t* out, std::ptrdiff_t os,
                                              std::size_t rows, std::size_t cols, const void* q) {
  int_dequantize_inverse_i16(in, is, out, os, rows, cols, *static_cast<const QuantI16*>(q));
  return 0;
}

/// The encoder's and decoder's halves as separate passes through a strip of 8 rows, for kernels
/// without a fused kernel (Reference; Fast on int16 data): the definition the fused ones equal.
template <class T>
std::uint64_t composed_forward_quantize(const T* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                        const void* ctx) {
  const auto& k = *static_cast<const ComposedHalf<T>*>(ctx);
  std::vector<T> buf(8 * cols);
  std::uint64_t zeros = 0;
  for (std::size_t r0 = 0; r0 < rows; r0 += 8) {
    k.transform(in + std::ptrdiff_t(r0) * is, is, buf.data(), std::ptrdiff_t(cols), 8, cols,
                nullptr);
    for (std::size_t r = 0; r < 8; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        const T coefficient = buf[r * cols + c];
        const std::int16_t level = quantize_value(coefficient, k.table->q[8 * r + c % 8]);
        zeros += level == 0;
        if constexpr (std::is_same_v<T, float>) {
          if (std::isnan(coefficient)) zeros |= detail::kNaNCoefficient;
        }
        out[std::ptrdiff_t(r0 + r) * os + std::ptrdiff_t(c)] = level;
      }
  }
  return zeros;
}
template <class T>
std::uint64_t composed_dequantize_inverse(const std::int16_t* in, std::ptrdiff_t is, T* out,
                                          std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                          const void* ctx) {
  const auto& k = *static_cast<const ComposedHalf<T>*>(ctx);
  std::vector<T> buf(8 * cols);
  for (std::size_t r0 = 0; r0 < rows; r0 += 8) {
    for (std::size_t r = 0; r < 8; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        const std::int16_t level = in[std::ptrdiff_t(r0 + r) * is + std::ptrdiff_t(c)];
        const int q = k.table->q[8 * r + c % 8];
        if constexpr (std::is_same_v<T, float>)
          buf[r * cols + c] = dequantize_value(level, q);
        else
          buf[r * cols + c] = dequantize_value_i16(level, q);
      }
    k.transform(buf.data(), std::ptrdiff_t(cols), out + std::ptrdiff_t(r0) * os, os, 8, cols,
                nullptr);
  }
  return 0;
}

template <class T>
Work<T> forward_work(Block8Kernel k) {
  if constexpr (std::is_same_v<T, float>) {
    return k == Block8Kernel::Reference ? ref_forward_f32 : fast_forward_f32_work;
  } else {
    return k == Block8Kernel::Reference ? ref_forward_i16
           : k == Block8Kernel::Fast    ? fast_i16<false>
                                        : int_forward_i16_work;
  }
}
template <class T>
Work<T> inverse_work(Block8Kernel k) {
  if constexpr (std::is_same_v<T, float>) {
    return k == Block8Kernel::Reference ? ref_inverse_f32 : fast_inverse_f32_work;
  } else {
    return k == Block8Kernel::Reference ? ref_inverse_i16
           : k == Block8Kernel::Fast    ? fast_i16<true>
                                        : int_inverse_i16_work;
  }
}

template Work<float> forward_work<float>(Block8Kernel);
template Work<std::int16_t> forward_work<std::int16_t>(Block8Kernel);
template Work<float> inverse_work<float>(Block8Kernel);
template Work<std::int16_t> inverse_work<std::int16_t>(Block8Kernel);
template std::uint64_t composed_roundtrip<float>(const float*, std::ptrdiff_t, float*,
                                                 std::ptrdiff_t, std::size_t, std::size_t,
                                                 const void*);
template std::uint64_t composed_roundtrip<std::int16_t>(const std::int16_t*, std::ptrdiff_t,
                                                        std::int16_t*, std::ptrdiff_t, std::size_t,
                                                        std::size_t, const void*);
template std::uint64_t composed_forward_quantize<float>(const float*, std::ptrdiff_t, std::int16_t*,
                                                        std::ptrdiff_t, std::size_t, std::size_t,
                                                        const void*);
template std::uint64_t composed_forward_quantize<std::int16_t>(const std::int16_t*, std::ptrdiff_t,
                                                               std::int16_t*, std::ptrdiff_t,
                                                               std::size_t, std::size_t,
                                                               const void*);
template std::uint64_t composed_dequantize_inverse<float>(const std::int16_t*, std::ptrdiff_t,
                                                          float*, std::ptrdiff_t, std::size_t,
                                                          std::size_t, const void*);
template std::uint64_t composed_dequantize_inverse<std::int16_t>(const std::int16_t*,
                                                                 std::ptrdiff_t, std::int16_t*,
                                                                 std::ptrdiff_t, std::size_t,
                                                                 std::size_t, const void*);

}  // namespace dctx::block8
