// SPDX-License-Identifier: BSD-3-Clause
// The CPU block engine's work functions (plane_walk.hpp's Work): the kernels per data type and
// kernel choice, and for kernels without a fused kernel the separate passes composed strip by
// strip (the definition the fused kernels equal).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpu/block8/kernels.hpp"
#include "cpu/block8/plane_walk.hpp"
#include "dctx/block8.hpp"

namespace dctx::block8 {

/// The forward / inverse transform of `kernel` (resolved) for data T.
template <class T>
Work<T> forward_work(Block8Kernel kernel);
template <class T>
Work<T> inverse_work(Block8Kernel kernel);

// The fused SIMD works: ctx is the QuantF32 (float) or QuantI16 (int16) constants, transposed.
std::uint64_t fast_roundtrip_f32_work(const float* in, std::ptrdiff_t is, float* out,
                                      std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                      const void* ctx);
std::uint64_t int_roundtrip_i16_work(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                     std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                     const void* ctx);
std::uint64_t fast_forward_quantize_f32_work(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                             std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                             const void* ctx);
std::uint64_t fast_dequantize_inverse_f32_work(const std::int16_t* in, std::ptrdiff_t is,
                                               float* out, std::ptrdiff_t os, std::size_t rows,
                                               std::size_t cols, const void* ctx);
std::uint64_t int_forward_quantize_i16_work(const std::int16_t* in, std::ptrdiff_t is,
                                            std::int16_t* out, std::ptrdiff_t os, std::size_t rows,
                                            std::size_t cols, const void* ctx);
std::uint64_t int_dequantize_inverse_i16_work(const std::int16_t* in, std::ptrdiff_t is,
                                              std::int16_t* out, std::ptrdiff_t os,
                                              std::size_t rows, std::size_t cols, const void* ctx);

/// The separate passes composed (ctx: the struct below).
template <class T>
struct Composed {
  Work<T> forward, inverse;
  const QuantTable* table;
};
template <class T>
std::uint64_t composed_roundtrip(const T* in, std::ptrdiff_t is, T* out, std::ptrdiff_t os,
                                 std::size_t rows, std::size_t cols, const void* ctx);
template <class T>
struct ComposedHalf {
  Work<T> transform;  // forward for the encoder, inverse for the decoder
  const QuantTable* table;
};
template <class T>
std::uint64_t composed_forward_quantize(const T* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                        const void* ctx);
template <class T>
std::uint64_t composed_dequantize_inverse(const std::int16_t* in, std::ptrdiff_t is, T* out,
                                          std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                          const void* ctx);

/// One element of block8_quantize / block8_dequantize (scalar.hpp's definitions) with entry q.
std::int16_t quantize_value(float c, int q);
std::int16_t quantize_value(std::int16_t c, int q);
float dequantize_value(std::int16_t l, int q);
std::int16_t dequantize_value_i16(std::int16_t l, int q);

}  // namespace dctx::block8
