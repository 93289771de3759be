// SPDX-License-Identifier: BSD-3-Clause
// Internal interface between the block engine's driver (block8.cpp) and its kernels. Every kernel
// transforms a region of `rows` x `cols` samples (both multiples of 8) with unit column stride and
// the given row strides (elements); `out` may equal `in` (each block is read before it is written).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dctx::block8 {

/// Per-coefficient tables in the layout the SIMD kernels use: 8 rows of 16 floats, each row of the
/// 8x8 table stored twice so that a 16-lane vector covers two blocks side by side.
inline constexpr std::size_t kTableStride = 16;
struct alignas(64) Table8x16 {
  float v[8 * kTableStride];
  float at(std::size_t row, std::size_t col) const { return v[row * kTableStride + col]; }
  void set(std::size_t row, std::size_t col, float x) {
    v[row * kTableStride + col] = x;
    v[row * kTableStride + col + 8] = x;
  }
};

/// AAN output/input scales (symmetric in u, v): fwd = 1/(8 s_u s_v), inv = s_u s_v / 8.
struct AanTables {
  Table8x16 fwd, inv;
};
const AanTables& aan_tables();

/// Quantization constants of the fused float pass. Stored transposed (entry [v][u] for
/// coefficient C(u, v)): the fused kernels quantize between the row and column passes, where the
/// block is transposed.
struct QuantF32 {
  Table8x16 recip;  ///< 1/Q rounded to float
  Table8x16 q;      ///< Q
  /// Sets entry (row, col) for quantizer q in 1..32767.
  void set(std::size_t row, std::size_t col, std::int32_t q_value) {
    recip.set(row, col, 1.0f / static_cast<float>(q_value));
    q.set(row, col, static_cast<float>(q_value));
  }
};
/// An 8x8 table of int32 for the int16 kernels' split layout: the 4-entry row piece (row, 4j..4j+3)
/// stored four times at v[(2 row + j) * 16], once per 128-bit part of a 16-lane vector, so that a
/// kernel loads it as a whole vector (a memory operand) rather than broadcasting it.
struct alignas(64) Table8x8Quads {
  std::int32_t v[8 * 2 * 16];
  std::int32_t at(std::size_t row, std::size_t col) const {
    return v[(2 * row + col / 4) * 16 + col % 4];
  }
  void set(std::size_t row, std::size_t col, std::int32_t x) {
    for (std::size_t k = 0; k < 4; ++k) v[(2 * row + col / 4) * 16 + 4 * k + col % 4] = x;
  }
};

/// Quantization constants of the fused int16 pass (transposed like QuantF32), all integer:
///   level = floor((|c| + floor(Q/2)) / Q)       (= round half away from zero of c / Q)
///         = ((|c| + floor(Q/2)) * magic) >> shift,
/// Granlund and Montgomery's division by an invariant integer ("Division by invariant integers
/// using multiplication", PLDI 1994, theorem 4.2): with l = ceil(log2 Q), shift = 15 + l and
/// magic = ceil(2^shift / Q), exact for every numerator below 2^15, i.e. |c| <= kRequantMaxAbs;
/// the product stays below 2^31.
/// The AVX-512 kernel computes the same integers in 16-bit lanes: with n2 = 2 (|c| + floor(Q/2)) <
/// 2^16 and magic < 2^16, (n2 * magic) >> 16 (unsigned mulhi) >> l equals (n * magic) >> (15 + l).
inline constexpr std::int32_t kRequantMaxAbs = 16384;

/// An 8x8 table of 16-bit entries for 16-bit lanes, one block row per 128-bit part: row r stored
/// four times at v[32 r] (once per block of a 32-lane tile).
struct alignas(64) Table8x8Rows16 {
  std::uint16_t v[8 * 32];
  std::uint16_t at(std::size_t row, std::size_t col) const { return v[32 * row + col]; }
  void set(std::size_t row, std::size_t col, std::uint16_t x) {
    for (std::size_t k = 0; k < 4; ++k) v[32 * row + 8 * k + col] = x;
  }
};

struct QuantI16 {
  Table8x8Quads half_q;  ///< floor(Q / 2)
  Table8x8Quads magic;   ///< ceil(2^shift / Q), below 2^16
  Table8x8Quads shift;   ///< 15 + ceil(log2 Q)
  Table8x8Quads q;       ///< Q
  // The same for 16-bit lanes.
  Table8x8Rows16 half2_16;  ///< 2 floor(Q / 2)
  Table8x8Rows16 magic_16;  ///< magic
  Table8x8Rows16 l_16;      ///< ceil(log2 Q)
  Table8x8Rows16 q_16;      ///< Q
  /// Sets entry (row, col) for quantizer q in 1..32767.
  void set(std::size_t row, std::size_t col, std::int32_t q_value) {
    int l = 0;
    while ((std::int64_t{1} << l) < q_value) ++l;
    const int sh = 15 + l;
    const auto m = static_cast<std::int32_t>(((std::int64_t{1} << sh) + q_value - 1) / q_value);
    half_q.set(row, col, q_value / 2);
    magic.set(row, col, m);
    shift.set(row, col, sh);
    q.set(row, col, q_value);
    half2_16.set(row, col, static_cast<std::uint16_t>(2 * (q_value / 2)));
    magic_16.set(row, col, static_cast<std::uint16_t>(m));
    l_16.set(row, col, static_cast<std::uint16_t>(l));
    q_16.set(row, col, static_cast<std::uint16_t>(q_value));
  }
};

// Highway-dispatched kernels (simd_f32.cc, simd_i16.cc, simd_quantize.cc). The float ones run
// Arai–Agui–Nakajima, the int16 ones Loeffler–Ligtenberg–Moschytz in 32-bit fixed point.
void fast_forward_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                      std::size_t rows, std::size_t cols);
void fast_inverse_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                      std::size_t rows, std::size_t cols);
/// Returns the number of coefficients quantized to zero.
std::uint64_t fast_roundtrip_f32(const float* in, std::ptrdiff_t is, float* out, std::ptrdiff_t os,
                                 std::size_t rows, std::size_t cols, const QuantF32& quant);
void int_forward_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                     std::ptrdiff_t os, std::size_t rows, std::size_t cols);
void int_inverse_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                     std::ptrdiff_t os, std::size_t rows, std::size_t cols);
std::uint64_t int_roundtrip_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                const QuantI16& quant);
/// Encoder half of the fused pass: forward DCT, levels as block8_quantize makes them (natural
/// order, int16); returns the number of zero levels, with detail::kNaNCoefficient set when a
/// coefficient was NaN.
std::uint64_t fast_forward_quantize_f32(const float* in, std::ptrdiff_t is, std::int16_t* out,
                                        std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                        const QuantF32& quant);
/// Decoder half: levels times Q, inverse DCT (as block8_dequantize then block8_inverse).
void fast_dequantize_inverse_f32(const std::int16_t* in, std::ptrdiff_t is, float* out,
                                 std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                 const QuantF32& quant);
std::uint64_t int_forward_quantize_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                       std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                       const QuantI16& quant);
void int_dequantize_inverse_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                                std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                                const QuantI16& quant);
/// block8_quantize / block8_dequantize on a region (rows x cols, multiples of 8, unit column
/// stride) with `quant` in natural order (entry [r][c] for coefficient (r, c), not transposed).
/// Each returns detail::kNaNCoefficient when it met a NaN coefficient to quantize, else 0.
std::uint64_t quantize_f32(const float* in, std::ptrdiff_t is, std::int16_t* out, std::ptrdiff_t os,
                           std::size_t rows, std::size_t cols, const QuantF32& quant);
std::uint64_t quantize_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                           std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                           const QuantF32& quant);
std::uint64_t dequantize_f32(const std::int16_t* in, std::ptrdiff_t is, float* out,
                             std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                             const QuantF32& quant);
std::uint64_t dequantize_i16(const std::int16_t* in, std::ptrdiff_t is, std::int16_t* out,
                             std::ptrdiff_t os, std::size_t rows, std::size_t cols,
                             const QuantF32& quant);
/// Name of the target the kernels dispatch to now ("AVX3", ...).
const char* simd_target_name();
/// The HWY_TARGETS bit set this library's block kernels were compiled for (tests iterate it).
std::int64_t simd_compiled_targets();

// Reference kernel (reference.cpp): the whitepaper's first kernel, C = A X A^T in double.
void reference_forward_block(const double* x, double* c);  // 64 in, 64 out, row-major
void reference_inverse_block(const double* c, double* x);

}  // namespace dctx::block8
