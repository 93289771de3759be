// SPDX-License-Identifier: BSD-3-Clause
// The arithmetic of the CUDA back end's 8x8 block engine, in __host__ __device__ functions that the
// kernels (block8_kernels.cu) call once per block and the CPU tests
// (tests/cuda/test_block8_math.cpp) check bit for bit against the CPU engine without a GPU. After
// Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with CUDA" (NVIDIA, 2008):
//  - Reference: C = A X A^T and X = A^T C A as two 8x8 matrix products in double (the
//    whitepaper's kernel by definition);
//  - Fast: the Arai-Agui-Nakajima 8-point flowgraph (Trans. IEICE E71(11), 1988) in float, on
//    the columns and then the rows of the block (the whitepaper's separable kernel);
//  - Int16: the Loeffler-Ligtenberg-Moschytz flowgraph (ICASSP 1989) in 32-bit fixed point;
// with JPEG-style quantization and the fused DCT -> quantize -> dequantize -> IDCT of one block.
// The functions work on one block (the kernels that keep a block in one thread's registers) and
// on its rows, columns and coefficients (the whitepaper's shared-memory kernels, block8_tile.hpp).
// Every floating-point operation is the CPU engine's (src/cpu/block8), in its order: a*b+c is fused
// exactly where its flowgraphs fuse, nothing else (the kernels are compiled with --fmad=false), so
// that levels equal the CPU's.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "block8/constants.hpp"
#include "cuda/hd.hpp"

namespace dctx::cuda_math::b8 {

/// The operations, as dctx::Block8Op.
enum Op : int {
  kForward = 0,
  kInverse = 1,
  kRoundtrip = 2,
  kForwardQuantized = 3,
  kInverseDequantized = 4,
  kQuantize = 5,
  kDequantize = 6,
};
/// The kernels, as dctx::Block8Kernel.
enum Kernel : int { kReference = 1, kFast = 2, kInt16 = 3 };
/// The element types of loads and stores, as dctx::Block8Data.
enum Element : int { kF32 = 0, kI16 = 1, kU8 = 2 };

DCTX_HD bool has_forward(int op) {
  return op == kForward || op == kRoundtrip || op == kForwardQuantized;
}
DCTX_HD bool has_inverse(int op) {
  return op == kInverse || op == kRoundtrip || op == kInverseDequantized;
}

/// The per-coefficient tables of a plan (natural order, entry 8u + v for coefficient (u, v)),
/// passed to the kernels by value. ftab: AAN forward scales, AAN inverse scales, 1/Q rounded to
/// float, Q. itab: Q, floor(Q/2), magic, shift (Granlund and Montgomery's division by Q, as the
/// CPU's int16 kernels). basis: A[u][x] (Reference). llm: the fixed-point constants of the two
/// passes.
struct Tables {
  float ftab[256];
  std::int32_t itab[256];
  double basis[64];
  std::int32_t llm[2][12];
};

// ---- Element rules of the CPU engine (src/cpu/block8/scalar.hpp).

DCTX_HD float fused(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
/// Round half away from zero, exactly, for every float.
DCTX_HD float rha_f(float x) { return truncf(x + copysignf(block8::kJustBelowHalf, x)); }
DCTX_HD float clampf(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }
DCTX_HD std::int32_t clampi(std::int32_t x, std::int32_t lo, std::int32_t hi) {
  return x < lo ? lo : x > hi ? hi : x;
}
/// block8_quantize of a float coefficient: c times the float reciprocal of Q, rounded half away
/// from zero, saturated to int16; NaN gives level 0 (the caller flags it).
DCTX_HD std::int32_t quantize_f(float c, float recip) {
  const float l = rha_f(c * recip);
  return l != l ? 0 : static_cast<std::int32_t>(clampf(l, -32768.0f, 32767.0f));
}
/// block8_quantize of an int16 coefficient, exactly: (2|c| + Q) div 2Q with the sign of c.
DCTX_HD std::int32_t quantize_i(std::int32_t c, std::int32_t q) {
  const std::int32_t a = c < 0 ? -c : c;
  const std::int32_t l = (2 * a + q) / (2 * q);
  return c < 0 ? -l : l;
}
/// block8_dequantize to int16: level times Q, saturated.
DCTX_HD std::int32_t dequantize_sat(std::int32_t l, std::int32_t q) {
  return clampi(l * q, -32768, 32767);
}
/// A float transform's int16 result.
DCTX_HD std::int32_t round_f_sat(float x, float lo, float hi) {
  return static_cast<std::int32_t>(clampf(rha_f(x), lo, hi));
}
/// The Reference kernel's int16 result: half away from zero in double.
DCTX_HD std::int32_t round_d_sat(double x, double lo, double hi) {
  const double r = x < 0 ? -floor(-x + 0.5) : floor(x + 0.5);
  return static_cast<std::int32_t>(fmin(fmax(r, lo), hi));
}

// ---- The 8-point flowgraphs.

/// AAN forward 1D DCT in place: x_k <- sqrt8 s_k X_k (the CPU's AanForward8 with FMA).
DCTX_HD void aan_forward(float* x) {
  using namespace block8;
  const float s07 = x[0] + x[7], d07 = x[0] - x[7];
  const float s16 = x[1] + x[6], d16 = x[1] - x[6];
  const float s25 = x[2] + x[5], d25 = x[2] - x[5];
  const float s34 = x[3] + x[4], d34 = x[3] - x[4];
  const float e0 = s07 + s34, e3 = s07 - s34;
  const float e1 = s16 + s25, e2 = s16 - s25;
  x[0] = e0 + e1;
  x[4] = e0 - e1;
  const float e23 = e2 + e3;
  x[2] = fused(e23, kAanC4, e3);
  x[6] = fused(-e23, kAanC4, e3);
  const float o0 = d34 + d25, o1 = d25 + d16, o2 = d16 + d07;
  const float rot = (o0 - o2) * kAanC6;
  const float z2 = fused(o0, kAanK1, rot);
  const float z4 = fused(o2, kAanK2, rot);
  const float z11 = fused(o1, kAanC4, d07);
  const float z13 = fused(-o1, kAanC4, d07);
  x[5] = z13 + z2;
  x[3] = z13 - z2;
  x[1] = z11 + z4;
  x[7] = z11 - z4;
}
/// AAN inverse 1D DCT in place, from AAN-scaled coefficients (the CPU's AanInverse8).
DCTX_HD void aan_inverse(float* x) {
  using namespace block8;
  const float t10 = x[0] + x[4], t11 = x[0] - x[4];
  const float t13 = x[2] + x[6];
  const float t12 = fused(x[2] - x[6], kAanR2, -t13);
  const float e0 = t10 + t13, e3 = t10 - t13;
  const float e1 = t11 + t12, e2 = t11 - t12;
  const float z13 = x[5] + x[3], z10 = x[5] - x[3];
  const float z11 = x[1] + x[7], z12 = x[1] - x[7];
  const float o7 = z11 + z13;
  const float z5 = (z10 + z12) * kAanA1;
  const float u10 = fused(z12, kAanA2, -z5);
  const float u12 = fused(-z10, kAanA3, z5);
  const float o6 = u12 - o7;
  const float o5 = fused(z11 - z13, kAanR2, -o6);
  const float o4 = u10 + o5;
  x[0] = e0 + o7;
  x[7] = e0 - o7;
  x[1] = e1 + o6;
  x[6] = e1 - o6;
  x[2] = e2 + o5;
  x[5] = e2 - o5;
  x[4] = e3 + o4;
  x[3] = e3 - o4;
}

DCTX_HD std::int32_t shl(std::int32_t v, int s) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << s);
}
/// LL&M forward 1D DCT in fixed point (the CPU's LlmForward8): pass 1 keeps kPass1Bits fraction
/// bits, the final pass rounds to the orthonormal coefficient (halves up).
DCTX_HD void llm_forward(std::int32_t* x, bool final, const std::int32_t* k) {
  using namespace block8;
  const int shift = final ? kConstBits2 + kPass1Bits + 3 : kConstBits1 - kPass1Bits;
  const std::int32_t bias = std::int32_t{1} << (shift - 1);
  const std::int32_t s07 = x[0] + x[7], d07 = x[0] - x[7];
  const std::int32_t s16 = x[1] + x[6], d16 = x[1] - x[6];
  const std::int32_t s25 = x[2] + x[5], d25 = x[2] - x[5];
  const std::int32_t s34 = x[3] + x[4], d34 = x[3] - x[4];
  const std::int32_t e0 = s07 + s34, e3 = s07 - s34;
  const std::int32_t e1 = s16 + s25, e2 = s16 - s25;
  if (final) {
    const std::int32_t e0r = e0 + (1 << (kPass1Bits + 2));
    x[0] = (e0r + e1) >> (kPass1Bits + 3);
    x[4] = (e0r - e1) >> (kPass1Bits + 3);
  } else {
    x[0] = shl(e0 + e1, kPass1Bits);
    x[4] = shl(e0 - e1, kPass1Bits);
  }
  const std::int32_t z1 = (e2 + e3) * k[0] + bias;
  x[2] = (z1 + e3 * k[1]) >> shift;
  x[6] = (z1 - e2 * k[2]) >> shift;
  const std::int32_t z5 = (d34 + d16 + d25 + d07) * k[3] + bias;
  const std::int32_t p1 = (d34 + d07) * -k[8];
  const std::int32_t p2 = (d25 + d16) * -k[9];
  const std::int32_t p3 = (d34 + d16) * -k[10] + z5;
  const std::int32_t p4 = (d25 + d07) * -k[11] + z5;
  x[7] = (d34 * k[4] + p1 + p3) >> shift;
  x[5] = (d25 * k[5] + p2 + p4) >> shift;
  x[3] = (d16 * k[6] + p2 + p3) >> shift;
  x[1] = (d07 * k[7] + p1 + p4) >> shift;
}
/// LL&M inverse 1D DCT in fixed point (the CPU's LlmInverse8).
DCTX_HD void llm_inverse(std::int32_t* x, bool final, const std::int32_t* k) {
  using namespace block8;
  const int bits = final ? kConstBits2 : kConstBits1;
  const int shift = final ? kConstBits2 + kPass1Bits + 3 : kConstBits1 - kPass1Bits;
  const std::int32_t bias = std::int32_t{1} << (shift - 1);
  const std::int32_t z1 = (x[2] + x[6]) * k[0];
  const std::int32_t t2 = z1 - x[6] * k[2];
  const std::int32_t t3 = z1 + x[2] * k[1];
  const std::int32_t t0 = shl(x[0] + x[4], bits) + bias;
  const std::int32_t t1 = shl(x[0] - x[4], bits) + bias;
  const std::int32_t t10 = t0 + t3, t13 = t0 - t3;
  const std::int32_t t11 = t1 + t2, t12 = t1 - t2;
  const std::int32_t z5 = (x[7] + x[3] + x[5] + x[1]) * k[3];
  const std::int32_t p1 = (x[7] + x[1]) * -k[8];
  const std::int32_t p2 = (x[5] + x[3]) * -k[9];
  const std::int32_t p3 = (x[7] + x[3]) * -k[10] + z5;
  const std::int32_t p4 = (x[5] + x[1]) * -k[11] + z5;
  const std::int32_t a0 = x[7] * k[4] + p1 + p3;
  const std::int32_t a1 = x[5] * k[5] + p2 + p4;
  const std::int32_t a2 = x[3] * k[6] + p2 + p3;
  const std::int32_t a3 = x[1] * k[7] + p1 + p4;
  x[0] = (t10 + a3) >> shift;
  x[7] = (t10 - a3) >> shift;
  x[1] = (t11 + a2) >> shift;
  x[6] = (t11 - a2) >> shift;
  x[2] = (t12 + a1) >> shift;
  x[5] = (t12 - a1) >> shift;
  x[3] = (t13 + a0) >> shift;
  x[4] = (t13 - a0) >> shift;
}

/// What one block's pass reports: its zero levels, and whether a float coefficient to quantize
/// was NaN.
struct Counts {
  unsigned zeros = 0;
  bool nan = false;
};

// ---- One block, in registers: blk[8 * row + col], in the working type W (double for Reference,
// float for Fast, int32 for Int16), loaded from the input's element type and stored to the
// output's by the kernel (store: int16 outputs take the value as an integer).

/// The Reference kernel's per-coefficient steps, shared by the whole-block function below and the
/// whitepaper's one-thread-per-coefficient kernel (block8_tile.hpp). Matrix products in double,
/// each sum in the same order: x points to the column's first element, rows `pitch` apart.
template <bool kData16>
struct Reference {
  /// The sum of a[k as] b[k bs] over k = 0..7, in that order.
  static DCTX_HD double dot8(const double* a, int as, const double* b, int bs) {
    double s = 0;
    for (int k = 0; k < 8; ++k) s += a[k * as] * b[k * bs];
    return s;
  }
  /// (A X)[i][c]: sum over k of A[i][k] X[k][c].
  static DCTX_HD double forward_first(const Tables& t, int i, const double* x, int pitch) {
    return dot8(t.basis + 8 * i, 1, x, pitch);
  }
  /// (T A^T)[i][v]: sum over j of T[i][j] A[v][j], trow = T's row i.
  static DCTX_HD double forward_second(const Tables& t, int v, const double* trow) {
    return dot8(trow, 1, t.basis + 8 * v, 1);
  }
  /// The coefficient e as op stores it from its exact sum s: as the separate forward pass
  /// stores it, then its level (ForwardQuantized) or its dequantized value (Roundtrip).
  static DCTX_HD double coefficient(int op, const Tables& t, double s, int e, Counts& n) {
    double x = kData16 ? static_cast<double>(round_d_sat(s, -32768, 32767))
                       : static_cast<double>(static_cast<float>(s));
    if (op == kForwardQuantized || op == kRoundtrip) {
      std::int32_t level;
      if (kData16) {
        level = quantize_i(static_cast<std::int32_t>(x), t.itab[e]);
        if (op == kRoundtrip) x = dequantize_sat(level, t.itab[e]);
      } else {
        const float c = static_cast<float>(x);
        level = quantize_f(c, t.ftab[128 + e]);
        if (op == kForwardQuantized && c != c) n.nan = true;
        // A NaN coefficient stays NaN (the CPU's composed passes).
        if (op == kRoundtrip && c == c) x = static_cast<float>(level) * t.ftab[192 + e];
      }
      n.zeros += level == 0;
      if (op == kForwardQuantized) x = level;
    }
    return x;
  }
  /// A loaded element ready for the inverse products (InverseDequantized: its level times Q).
  static DCTX_HD double inverse_input(int op, const Tables& t, double x, int e) {
    if (op != kInverseDequantized) return x;
    return kData16 ? dequantize_sat(static_cast<std::int32_t>(x), t.itab[e])
                   : static_cast<double>(static_cast<float>(x) * t.ftab[192 + e]);
  }
  /// (A^T C)[i][c]: sum over u of A[u][i] C[u][c].
  static DCTX_HD double inverse_first(const Tables& t, int i, const double* c, int pitch) {
    return dot8(t.basis + i, 8, c, pitch);
  }
  /// (T A)[i][v] as the output stores it: sum over w of T[i][w] A[w][v].
  static DCTX_HD double inverse_second(const Tables& t, int v, const double* trow) {
    const double s = dot8(trow, 1, t.basis + v, 8);
    return kData16 ? round_d_sat(s, block8::kInvOutMin, block8::kInvOutMax) : s;
  }
};

/// The Reference kernel on one block: op's passes, its quantizing step, its rounding.
template <bool kData16>
DCTX_HD void reference_block(int op, const Tables& t, double* blk, Counts& n) {
  using R = Reference<kData16>;
  double tmp[64];
  if (has_forward(op)) {
    for (int i = 0; i < 8; ++i)  // T = A X
      for (int c = 0; c < 8; ++c) tmp[8 * i + c] = R::forward_first(t, i, blk + c, 8);
    for (int i = 0; i < 8; ++i)  // C = T A^T
      for (int v = 0; v < 8; ++v)
        blk[8 * i + v] = R::coefficient(op, t, R::forward_second(t, v, tmp + 8 * i), 8 * i + v, n);
  } else {
    for (int e = 0; e < 64; ++e) blk[e] = R::inverse_input(op, t, blk[e], e);
  }
  if (has_inverse(op)) {
    for (int i = 0; i < 8; ++i)  // T = A^T C
      for (int c = 0; c < 8; ++c) tmp[8 * i + c] = R::inverse_first(t, i, blk + c, 8);
    for (int i = 0; i < 8; ++i)  // X = T A
      for (int v = 0; v < 8; ++v) blk[8 * i + v] = R::inverse_second(t, v, tmp + 8 * i);
  }
}

/// The separable kernels on one block: Fast (W = float, AAN) and Int16 (W = int32, LL&M).
template <int kKernel, bool kData16>
struct Separable {
  using W = std::conditional_t<kKernel == kInt16, std::int32_t, float>;

  static DCTX_HD void forward(W* x, bool final, const Tables& t) {
    if constexpr (kKernel == kInt16)
      llm_forward(x, final, t.llm[final ? 1 : 0]);
    else
      aan_forward(x);
  }
  static DCTX_HD void inverse(W* x, bool final, const Tables& t) {
    if constexpr (kKernel == kInt16)
      llm_inverse(x, final, t.llm[final ? 1 : 0]);
    else
      aan_inverse(x);
  }
  // The coefficient as the separate forward pass stores it: times the AAN scale (float),
  // rounded to int16 for int16 data; LL&M's result as it is.
  static DCTX_HD W coefficient(W x, int e, const Tables& t) {
    if constexpr (kKernel == kInt16) {
      return x;
    } else {
      const float c = x * t.ftab[e];
      return kData16 ? static_cast<W>(round_f_sat(c, -32768.0f, 32767.0f)) : c;
    }
  }
  // The quantizing step: the level (ForwardQuantized) or the dequantized coefficient ready for the
  // inverse passes (Roundtrip; AAN-scaled for Fast).
  static DCTX_HD W requantize(int op, W x, int e, const Tables& t, Counts& n) {
    if constexpr (kKernel == kInt16) {
      // The CPU's integer requantizer (Granlund-Montgomery division): |level| exact.
      const std::int32_t a = x < 0 ? -x : x;
      const std::int32_t level = static_cast<std::int32_t>(
          (static_cast<std::int64_t>((a < 16384 ? a : 16384) + t.itab[64 + e]) * t.itab[128 + e]) >>
          t.itab[192 + e]);
      n.zeros += level == 0;
      if (op == kForwardQuantized) return x < 0 ? -level : level;
      const std::int32_t m0 = level * t.itab[e];
      const std::int32_t m = m0 < -block8::kInvInMin ? m0 : -block8::kInvInMin;
      const std::int32_t r = x < 0 ? -m : m;
      return r < block8::kInvInMax ? r : block8::kInvInMax;
    } else if constexpr (kData16) {
      const std::int32_t level = quantize_i(static_cast<std::int32_t>(x), t.itab[e]);
      n.zeros += level == 0;
      if (op == kForwardQuantized) return static_cast<W>(level);
      return static_cast<float>(dequantize_sat(level, t.itab[e])) * t.ftab[64 + e];
    } else {
      const float quotient = x * t.ftab[128 + e];
      if (op == kForwardQuantized) {
        if (quotient != quotient) n.nan = true;
        const std::int32_t level = quantize_f(x, t.ftab[128 + e]);
        n.zeros += level == 0;
        return static_cast<W>(level);
      }
      // The CPU's fused pass: the level stays a float (a NaN stays NaN).
      const float level = rha_f(quotient);
      n.zeros += level == 0.0f;
      return (level * t.ftab[192 + e]) * t.ftab[64 + e];
    }
  }
  // A loaded coefficient or level ready for the inverse passes.
  static DCTX_HD W inverse_input(int op, W x, int e, const Tables& t) {
    if constexpr (kKernel == kInt16) {
      if (op == kInverseDequantized) x = x * t.itab[e];  // |level Q| < 2^30
      return clampi(x, block8::kInvInMin, block8::kInvInMax);
    } else if constexpr (kData16) {
      if (op == kInverseDequantized)
        x = static_cast<W>(dequantize_sat(static_cast<std::int32_t>(x), t.itab[e]));
      return x * t.ftab[64 + e];
    } else {
      if (op == kInverseDequantized) x = x * t.ftab[192 + e];
      return x * t.ftab[64 + e];
    }
  }
  // An inverse pass's sample as the output stores it.
  static DCTX_HD W sample(W x) {
    if constexpr (kKernel == kInt16)
      return clampi(x, block8::kInvOutMin, block8::kInvOutMax);
    else if constexpr (kData16)
      return static_cast<W>(round_f_sat(x, block8::kInvOutMin, block8::kInvOutMax));
    else
      return x;
  }

  /// Stage 1 on one column of a block (x[i]: row i): the forward column pass, its inputs
  /// clamped for Int16; nothing for the inverse-only operations.
  static DCTX_HD void column_in(int op, const Tables& t, W* x) {
    if (!has_forward(op)) return;
    if constexpr (kKernel == kInt16)
      for (int i = 0; i < 8; ++i) x[i] = clampi(x[i], block8::kFwdInMin, block8::kFwdInMax);
    forward(x, false, t);
  }
  /// Stage 2 on row r of a block: the forward row pass and the quantizing step (then, for
  /// Roundtrip, the inverse row pass straight from the registers); for the inverse-only
  /// operations the loaded coefficients or levels and the inverse row pass.
  static DCTX_HD void row(int op, const Tables& t, W* x, int r, Counts& n) {
    if (has_forward(op)) {
      forward(x, true, t);
      for (int k = 0; k < 8; ++k) {
        x[k] = coefficient(x[k], 8 * r + k, t);
        if (op != kForward) x[k] = requantize(op, x[k], 8 * r + k, t, n);
      }
      if (op == kRoundtrip) inverse(x, false, t);
    } else {
      for (int k = 0; k < 8; ++k) x[k] = inverse_input(op, x[k], 8 * r + k, t);
      inverse(x, false, t);
    }
  }
  /// Stage 3 on one column: the inverse column pass and the samples as the output stores them;
  /// nothing for the forward-only operations.
  static DCTX_HD void column_out(int op, const Tables& t, W* x) {
    if (!has_inverse(op)) return;
    inverse(x, true, t);
    for (int i = 0; i < 8; ++i) x[i] = sample(x[i]);
  }

  /// op's passes on one block: the three stages over its columns, rows and columns.
  static DCTX_HD void block(int op, const Tables& t, W* blk, Counts& n) {
    W x[8];
    for (int c = 0; c < 8 && has_forward(op); ++c) {
      for (int i = 0; i < 8; ++i) x[i] = blk[8 * i + c];
      column_in(op, t, x);
      for (int i = 0; i < 8; ++i) blk[8 * i + c] = x[i];
    }
    for (int r = 0; r < 8; ++r) row(op, t, blk + 8 * r, r, n);
    for (int c = 0; c < 8 && has_inverse(op); ++c) {
      for (int i = 0; i < 8; ++i) x[i] = blk[8 * i + c];
      column_out(op, t, x);
      for (int i = 0; i < 8; ++i) blk[8 * i + c] = x[i];
    }
  }
};

/// Quantization alone, one element: the level of coefficient v at table entry e.
template <bool kData16>
DCTX_HD std::int32_t quantize_element(float v, int e, const Tables& t, Counts& n) {
  if (kData16) return quantize_i(static_cast<std::int32_t>(v), t.itab[e]);
  if (v != v) n.nan = true;
  return quantize_f(v, t.ftab[128 + e]);
}
/// Dequantization alone, one element (int16 data: saturated).
template <bool kData16>
DCTX_HD float dequantize_element(std::int32_t l, int e, const Tables& t) {
  if (kData16) return static_cast<float>(dequantize_sat(l, t.itab[e]));
  return static_cast<float>(l) * t.ftab[192 + e];
}

// ---- The kernels' loads and stores of one block.

/// A uint8 sample as the transforms see it: JPEG's level shift (the CPU's u8_to_centered_f32).
DCTX_HD float centered(std::uint8_t v) { return static_cast<float>(v) - 128.0f; }
/// A sample as a uint8 output stores it (the CPU's centered_f32_to_u8): x + 128 clamped to
/// 0..255 (NaN: 0) and rounded half up.
DCTX_HD std::uint8_t byte_of(float x) {
  float v = x + 128.0f;
  v = v > 0.0f ? v : 0.0f;
  v = (v < 255.0f ? v : 255.0f) + block8::kJustBelowHalf;
  return static_cast<std::uint8_t>(static_cast<int>(v));
}
/// An input element in the working type W (uint8: level-shifted).
template <class W, class TIn>
DCTX_HD W load_as(TIn x) {
  if constexpr (std::is_same_v<TIn, std::uint8_t>)
    return static_cast<W>(centered(x));
  else
    return static_cast<W>(x);
}
/// A result as an output element (int16 outputs take the value, an integer already, as it is;
/// uint8 ones round the float value, as the CPU's float plans store it before converting).
template <class TOut, class W>
DCTX_HD TOut store_as(W x) {
  if constexpr (std::is_same_v<TOut, std::uint8_t>)
    return byte_of(static_cast<float>(x));
  else
    return static_cast<TOut>(x);
}

/// A batch of planes as the kernels address it: element (p, r, c) at
/// data + off + p ps + r rs + c cs (element strides, any sign); rows x cols valid elements.
struct PlaneGeometry {
  std::int64_t off = 0, ps = 0, rs = 0, cs = 0;
  int rows = 0, cols = 0;
};
/// Loads the block at (r0, c0) of plane p, replicating the last row and column past the edge.
template <class TIn, class W>
DCTX_HD void load_block(const TIn* in, const PlaneGeometry& g, std::int64_t p, int r0, int c0,
                        W* blk) {
  for (int i = 0; i < 8; ++i) {
    const int r = r0 + i < g.rows ? r0 + i : g.rows - 1;
    const TIn* row = in + g.off + p * g.ps + r * g.rs;
    for (int j = 0; j < 8; ++j) {
      const int c = c0 + j < g.cols ? c0 + j : g.cols - 1;
      blk[8 * i + j] = load_as<W>(row[c * g.cs]);
    }
  }
}
/// Stores the block at (r0, c0) of plane p, cropped to the output's rows and columns (int16
/// outputs take the value, an integer already, as it is).
template <class TOut, class W>
DCTX_HD void store_block(TOut* out, const PlaneGeometry& g, std::int64_t p, int r0, int c0,
                         const W* blk) {
  for (int i = 0; i < 8 && r0 + i < g.rows; ++i) {
    TOut* row = out + g.off + p * g.ps + (r0 + i) * g.rs;
    for (int j = 0; j < 8 && c0 + j < g.cols; ++j)
      row[(c0 + j) * g.cs] = store_as<TOut>(blk[8 * i + j]);
  }
}

}  // namespace dctx::cuda_math::b8
