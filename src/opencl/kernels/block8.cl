// SPDX-License-Identifier: BSD-3-Clause
// The 8x8 block engine on OpenCL: blockwise orthonormal DCT-II/DCT-III of image planes, JPEG-style
// quantization, and the fused DCT -> quantize -> dequantize -> IDCT pass, after the kernels of
// Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with CUDA" (NVIDIA, 2008):
//  - KERNEL 0, by definition (the whitepaper's first kernel): one work-item per coefficient,
//    C = A X A^T and X = A^T C A as two 8x8 matrix products through local memory, in double
//    (DCTX_FP64) so that the results equal the CPU engine's reference kernel bit for bit; on a
//    device without cl_khr_fp64 in float (within float rounding of it).
//  - KERNEL 1, separable (the whitepaper's second kernel): one work-item per column and then per
//    row of a block running the Arai-Agui-Nakajima 8-point flowgraph (Trans. IEICE E71(11),
//    1988) in float, BPG blocks side by side per work-group, local rows padded by one element
//    against bank conflicts, loads and stores coalesced along rows.
//  - KERNEL 2, the same layout with the Loeffler-Ligtenberg-Moschytz flowgraph (ICASSP 1989) in
//    32-bit fixed point (libjpeg "islow" class), int16 data only.
// Every floating-point operation is the one the CPU engine (src/cpu/block8) performs, in the
// same order: a*b+c is fused (fma) exactly where the CPU's flowgraphs say MulAdd, nothing else is
// contracted (FP_CONTRACT OFF), so that quantization levels equal the CPU's.
//
// Build options: KERNEL, DATA16 (int16 samples and coefficients, else float), BPG (blocks per
// work-group along a row), DCTX_FP64, and the constants of src/block8/constants.hpp: AAN_* (float
// flowgraph constants), JBH (the largest float below 1/2), LLM1/LLM2 (fixed-point constants of
// the two passes), P1BITS, CB1, CB2, FWD_MIN/MAX, INV_MIN/MAX, OUT_MIN/MAX, REQ_MAX.
// Tables (natural order, entry 8u+v for coefficient (u, v)): ftab = AAN forward scales, AAN
// inverse scales, 1/Q rounded to float, Q; itab = Q, floor(Q/2), magic, shift (Granlund and
// Montgomery's division by Q, as the CPU's int16 kernels); basis = A[u][x] (KERNEL 0).
// counts[0] gets bit 0 set when a float coefficient to quantize was NaN; counts[1 + g] the zero
// levels of work-group g.
#pragma OPENCL FP_CONTRACT OFF
#ifdef DCTX_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// The operations (dctx::Block8Op).
#define OP_FORWARD 0
#define OP_INVERSE 1
#define OP_ROUNDTRIP 2
#define OP_FQ 3
#define OP_ID 4

#if KERNEL == 0
#ifdef DCTX_FP64
typedef double W;
#else
typedef float W;
#endif
#define LY 8
#elif KERNEL == 1
typedef float W;
#define LY 1
#else
typedef int W;
#define LY 1
#endif

#define LX (8 * BPG)
#define STRIDE (LX + 1)

// Where the operation starts and ends: with a forward transform, with an inverse one.
#define HAS_FORWARD(op) ((op) == OP_FORWARD || (op) == OP_ROUNDTRIP || (op) == OP_FQ)
#define HAS_INVERSE(op) ((op) == OP_INVERSE || (op) == OP_ROUNDTRIP || (op) == OP_ID)
// Whether the input holds int16 elements (levels or int16 data), and the output.
#define IN16(op) ((op) == OP_ID || DATA16)
#define OUT16(op) ((op) == OP_FQ || DATA16)

// ---- Element rules of the CPU engine (src/cpu/block8/scalar.hpp, works.cpp).

// Round half away from zero, exactly, for every float.
inline float rha_f(float x) { return trunc(x + copysign(JBH, x)); }
// block8_quantize of a float coefficient: c times the float reciprocal of Q, rounded half away
// from zero, saturated to int16; NaN gives level 0 (and is flagged by the caller).
inline int quantize_f(float c, float recip) {
  const float l = rha_f(c * recip);
  return isnan(l) ? 0 : (int)clamp(l, -32768.0f, 32767.0f);
}
// block8_quantize of an int16 coefficient, exactly: (2|c| + Q) div 2Q with the sign of c.
inline int quantize_i(int c, int q) {
  const int a = c < 0 ? -c : c;
  const int l = (2 * a + q) / (2 * q);
  return c < 0 ? -l : l;
}
// block8_dequantize to int16: level times Q, saturated.
inline int dequantize_sat(int l, int q) { return clamp(l * q, -32768, 32767); }
// A float transform's int16 result (the Fast kernel on int16 data).
inline int round_f_sat(float x, float lo, float hi) { return (int)min(max(rha_f(x), lo), hi); }
#ifdef DCTX_FP64
inline int round_w_sat(double x, double lo, double hi) {
  const double r = x < 0 ? -floor(-x + 0.5) : floor(x + 0.5);
  return (int)min(max(r, lo), hi);
}
#else
inline int round_w_sat(float x, float lo, float hi) {
  const float r = x < 0 ? -floor(-x + 0.5f) : floor(x + 0.5f);
  return (int)min(max(r, lo), hi);
}
#endif

inline W load_el(const int op, __global const uchar* p, long i) {
  if (IN16(op)) return (W)((__global const short*)p)[i];
  return (W)((__global const float*)p)[i];
}
inline void store_el(const int op, __global uchar* p, long i, W v) {
  if (OUT16(op))
    ((__global short*)p)[i] = (short)v;
  else
    ((__global float*)p)[i] = (float)v;
}

// The zero levels of the work-group into counts[1 + group], NaN into counts[0].
inline void reduce_counts(const int op, __local uint* red, uint zeros, int nan,
                          __global uint* counts) {
  if (op != OP_ROUNDTRIP && op != OP_FQ) return;
  const bool lead = get_local_id(0) == 0 && get_local_id(1) == 0;
  if (lead) *red = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (zeros) atomic_add(red, zeros);
  if (nan) atomic_or(counts, 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t g =
      (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
  if (lead) counts[1 + g] = *red;
}

#define BLOCK_ARGS                                                                                \
  __global const uchar *in, long in_off, long in_ps, long in_rs, long in_cs, int in_rows,         \
      int in_cols, __global uchar *out, long out_off, long out_ps, long out_rs, long out_cs,      \
      int out_rows, int out_cols, int pc, __constant float *ftab, __constant int *itab,           \
      __constant W *basis, __global uint *counts
#define BLOCK_PASS                                                                          \
  in, in_off, in_ps, in_rs, in_cs, in_rows, in_cols, out, out_off, out_ps, out_rs, out_cs, \
      out_rows, out_cols, pc, ftab, itab, basis, counts

#if KERNEL == 0
// ---- By definition: work-item (t, i) of a work-group holds element (i, t) of a tile of 8 rows
// and LX columns (BPG blocks); block columns start at t & ~7.

// The forward coefficient as the separate forward pass stores it (float, or int16 rounded).
inline W ref_coefficient(W c) {
#if DATA16
  return (W)round_w_sat(c, -32768, 32767);
#else
  return (W)(float)c;
#endif
}

inline void block_body(const int op, __local W* tile, __local uint* red, BLOCK_ARGS) {
  const int t = get_local_id(0), i = get_local_id(1);
  const int col = (int)get_group_id(0) * LX + t, row = (int)get_group_id(1) * 8 + i;
  const long plane = get_group_id(2);
  const int b8 = t & ~7, v = t & 7, e = 8 * i + v;  // e: this coefficient's table entry
  const bool live = col < pc;
  uint zeros = 0;
  int nan = 0;
  const long at = in_off + plane * in_ps + min(row, in_rows - 1) * in_rs;  // replicated edges
  W x = load_el(op, in, at + min(col, in_cols - 1) * in_cs);
  __local W* const mine = tile + i * STRIDE + t;
  if (HAS_FORWARD(op)) {
    *mine = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    W s = 0;  // T = A X: T[i][t] = sum_k A[i][k] X[k][t]
    for (int k = 0; k < 8; ++k) s += basis[8 * i + k] * tile[k * STRIDE + t];
    barrier(CLK_LOCAL_MEM_FENCE);
    *mine = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    s = 0;  // C = T A^T: C[i][v] = sum_j T[i][j] A[v][j]
    for (int j = 0; j < 8; ++j) s += tile[i * STRIDE + b8 + j] * basis[8 * v + j];
    x = ref_coefficient(s);
    if (op == OP_FQ || op == OP_ROUNDTRIP) {
#if DATA16
      const int level = quantize_i((int)x, itab[e]);
      if (op == OP_ROUNDTRIP) x = (W)dequantize_sat(level, itab[e]);
#else
      const float c = (float)x;
      const int level = quantize_f(c, ftab[128 + e]);
      if (op == OP_FQ) nan |= live && isnan(c);
      // A NaN coefficient stays NaN (the CPU's composed passes).
      if (op == OP_ROUNDTRIP) x = isnan(c) ? x : (W)((float)level * ftab[192 + e]);
#endif
      zeros += live && level == 0;
      if (op == OP_FQ) x = (W)level;
    }
  } else if (op == OP_ID) {
#if DATA16
    x = (W)dequantize_sat((int)x, itab[e]);
#else
    x = (W)((float)x * ftab[192 + e]);
#endif
  }
  if (HAS_INVERSE(op)) {
    if (HAS_FORWARD(op)) barrier(CLK_LOCAL_MEM_FENCE);
    *mine = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    W s = 0;  // T = A^T C: T[i][t] = sum_u A[u][i] C[u][t]
    for (int u = 0; u < 8; ++u) s += basis[8 * u + i] * tile[u * STRIDE + t];
    barrier(CLK_LOCAL_MEM_FENCE);
    *mine = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    s = 0;  // X = T A: X[i][v] = sum_w T[i][w] A[w][v]
    for (int w = 0; w < 8; ++w) s += tile[i * STRIDE + b8 + w] * basis[8 * w + v];
#if DATA16
    x = (W)round_w_sat(s, OUT_MIN, OUT_MAX);
#else
    x = s;
#endif
  }
  if (row < out_rows && col < out_cols)
    store_el(op, out, out_off + plane * out_ps + row * out_rs + col * out_cs, x);
  reduce_counts(op, red, zeros, nan, counts);
}

#else
// ---- Separable: work-item t of a work-group runs column t of a tile of 8 rows and LX columns,
// then row t & 7 of the block that starts at column t & ~7.

#if KERNEL == 1
// AAN forward 1D DCT in place: x_k <- sqrt8 s_k X_k (the CPU's AanForward8 with FMA).
inline void pass_forward(float* x, bool final) {
  (void)final;
  const float s07 = x[0] + x[7], d07 = x[0] - x[7];
  const float s16 = x[1] + x[6], d16 = x[1] - x[6];
  const float s25 = x[2] + x[5], d25 = x[2] - x[5];
  const float s34 = x[3] + x[4], d34 = x[3] - x[4];
  const float e0 = s07 + s34, e3 = s07 - s34;
  const float e1 = s16 + s25, e2 = s16 - s25;
  x[0] = e0 + e1;
  x[4] = e0 - e1;
  const float e23 = e2 + e3;
  x[2] = fma(e23, AAN_C4, e3);
  x[6] = fma(-e23, AAN_C4, e3);
  const float o0 = d34 + d25, o1 = d25 + d16, o2 = d16 + d07;
  const float rot = (o0 - o2) * AAN_C6;
  const float z2 = fma(o0, AAN_K1, rot);
  const float z4 = fma(o2, AAN_K2, rot);
  const float z11 = fma(o1, AAN_C4, d07);
  const float z13 = fma(-o1, AAN_C4, d07);
  x[5] = z13 + z2;
  x[3] = z13 - z2;
  x[1] = z11 + z4;
  x[7] = z11 - z4;
}
// AAN inverse 1D DCT in place, from AAN-scaled coefficients (the CPU's AanInverse8).
inline void pass_inverse(float* x, bool final) {
  (void)final;
  const float t10 = x[0] + x[4], t11 = x[0] - x[4];
  const float t13 = x[2] + x[6];
  const float t12 = fma(x[2] - x[6], AAN_R2, -t13);
  const float e0 = t10 + t13, e3 = t10 - t13;
  const float e1 = t11 + t12, e2 = t11 - t12;
  const float z13 = x[5] + x[3], z10 = x[5] - x[3];
  const float z11 = x[1] + x[7], z12 = x[1] - x[7];
  const float o7 = z11 + z13;
  const float z5 = (z10 + z12) * AAN_A1;
  const float u10 = fma(z12, AAN_A2, -z5);
  const float u12 = fma(-z10, AAN_A3, z5);
  const float o6 = u12 - o7;
  const float o5 = fma(z11 - z13, AAN_R2, -o6);
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
#else
__constant int kLlm1[12] = {LLM1};
__constant int kLlm2[12] = {LLM2};
// LL&M constants: 0541 0765 1847 1175 0298 2053 3072 1501 0899 2562 1961 0390.
#define K(n) k[n]
inline int shl(int v, int s) { return (int)((uint)v << s); }
// LL&M forward 1D DCT in fixed point (the CPU's LlmForward8): pass 1 keeps P1BITS fraction bits,
// the final pass rounds to the orthonormal coefficient (halves up).
inline void pass_forward(int* x, bool final) {
  __constant const int* k = final ? kLlm2 : kLlm1;
  const int shift = final ? CB2 + P1BITS + 3 : CB1 - P1BITS, bias = 1 << (shift - 1);
  const int s07 = x[0] + x[7], d07 = x[0] - x[7];
  const int s16 = x[1] + x[6], d16 = x[1] - x[6];
  const int s25 = x[2] + x[5], d25 = x[2] - x[5];
  const int s34 = x[3] + x[4], d34 = x[3] - x[4];
  const int e0 = s07 + s34, e3 = s07 - s34;
  const int e1 = s16 + s25, e2 = s16 - s25;
  if (final) {
    const int e0r = e0 + (1 << (P1BITS + 2));
    x[0] = (e0r + e1) >> (P1BITS + 3);
    x[4] = (e0r - e1) >> (P1BITS + 3);
  } else {
    x[0] = shl(e0 + e1, P1BITS);
    x[4] = shl(e0 - e1, P1BITS);
  }
  const int z1 = (e2 + e3) * K(0) + bias;
  x[2] = (z1 + e3 * K(1)) >> shift;
  x[6] = (z1 - e2 * K(2)) >> shift;
  const int z5 = (d34 + d16 + d25 + d07) * K(3) + bias;
  const int p1 = (d34 + d07) * -K(8);
  const int p2 = (d25 + d16) * -K(9);
  const int p3 = (d34 + d16) * -K(10) + z5;
  const int p4 = (d25 + d07) * -K(11) + z5;
  x[7] = (d34 * K(4) + p1 + p3) >> shift;
  x[5] = (d25 * K(5) + p2 + p4) >> shift;
  x[3] = (d16 * K(6) + p2 + p3) >> shift;
  x[1] = (d07 * K(7) + p1 + p4) >> shift;
}
// LL&M inverse 1D DCT in fixed point (the CPU's LlmInverse8).
inline void pass_inverse(int* x, bool final) {
  __constant const int* k = final ? kLlm2 : kLlm1;
  const int bits = final ? CB2 : CB1;
  const int shift = final ? CB2 + P1BITS + 3 : CB1 - P1BITS, bias = 1 << (shift - 1);
  const int z1 = (x[2] + x[6]) * K(0);
  const int t2 = z1 - x[6] * K(2);
  const int t3 = z1 + x[2] * K(1);
  const int t0 = shl(x[0] + x[4], bits) + bias;
  const int t1 = shl(x[0] - x[4], bits) + bias;
  const int t10 = t0 + t3, t13 = t0 - t3;
  const int t11 = t1 + t2, t12 = t1 - t2;
  const int z5 = (x[7] + x[3] + x[5] + x[1]) * K(3);
  const int p1 = (x[7] + x[1]) * -K(8);
  const int p2 = (x[5] + x[3]) * -K(9);
  const int p3 = (x[7] + x[3]) * -K(10) + z5;
  const int p4 = (x[5] + x[1]) * -K(11) + z5;
  const int a0 = x[7] * K(4) + p1 + p3;
  const int a1 = x[5] * K(5) + p2 + p4;
  const int a2 = x[3] * K(6) + p2 + p3;
  const int a3 = x[1] * K(7) + p1 + p4;
  x[0] = (t10 + a3) >> shift;
  x[7] = (t10 - a3) >> shift;
  x[1] = (t11 + a2) >> shift;
  x[6] = (t11 - a2) >> shift;
  x[2] = (t12 + a1) >> shift;
  x[5] = (t12 - a1) >> shift;
  x[3] = (t13 + a0) >> shift;
  x[4] = (t13 - a0) >> shift;
}
#undef K
#endif

// The coefficient (u, v) = x as the separate forward pass stores it, in the working type: x
// times the AAN scale (float), rounded to int16 too for int16 data; LL&M's result as it is.
inline W coefficient(W x, int e, __constant float* ftab) {
#if KERNEL == 1
  const float c = x * ftab[e];
#if DATA16
  return (W)round_f_sat(c, -32768.0f, 32767.0f);
#else
  return c;
#endif
#else
  (void)e;
  (void)ftab;
  return x;
#endif
}
// The quantizing step on coefficient x (u, v) of a live block: the level (FQ), or the
// dequantized coefficient ready for the inverse passes (ROUNDTRIP: AAN-scaled for KERNEL 1).
inline W requantize(const int op, W x, int e, __constant float* ftab, __constant int* itab,
                    uint* zeros, int* nan, bool live) {
#if KERNEL == 2
  // The CPU's integer requantizer (Granlund-Montgomery division): |level| exact.
  const int a = x < 0 ? -x : x;
  const int level = ((min(a, REQ_MAX) + itab[64 + e]) * itab[128 + e]) >> itab[192 + e];
  *zeros += live && level == 0;
  if (op == OP_FQ) return x < 0 ? -level : level;
  const int m = min(level * itab[e], -(INV_MIN));
  return min(x < 0 ? -m : m, INV_MAX);
#elif DATA16
  const int level = quantize_i((int)x, itab[e]);
  *zeros += live && level == 0;
  if (op == OP_FQ) return (W)level;
  return (float)dequantize_sat(level, itab[e]) * ftab[64 + e];
#else
  const float quotient = x * ftab[128 + e];
  if (op == OP_FQ) {
    *nan |= live && isnan(quotient);
    const int level = quantize_f(x, ftab[128 + e]);
    *zeros += live && level == 0;
    return (W)level;
  }
  // The CPU's fused pass: the level stays a float (a NaN stays NaN).
  const float level = rha_f(quotient);
  *zeros += live && level == 0.0f;
  return (level * ftab[192 + e]) * ftab[64 + e];
#endif
}
// A loaded coefficient or level (u, v) ready for the inverse passes.
inline W inverse_input(const int op, W x, int e, __constant float* ftab, __constant int* itab) {
#if KERNEL == 2
  if (op == OP_ID) x = x * itab[e];  // |level Q| < 2^30
  (void)ftab;
  return clamp(x, INV_MIN, INV_MAX);
#elif DATA16
  if (op == OP_ID) x = (W)dequantize_sat((int)x, itab[e]);
  return x * ftab[64 + e];
#else
  (void)itab;
  if (op == OP_ID) x = x * ftab[192 + e];
  return x * ftab[64 + e];
#endif
}
// An inverse pass's sample as the output stores it.
inline W sample(W x) {
#if KERNEL == 2
  return clamp(x, OUT_MIN, OUT_MAX);
#elif DATA16
  return (W)round_f_sat(x, OUT_MIN, OUT_MAX);
#else
  return x;
#endif
}

inline void block_body(const int op, __local W* tile, __local uint* red, BLOCK_ARGS) {
  (void)basis;
  const int t = get_local_id(0);
  const int col0 = (int)get_group_id(0) * LX, row0 = (int)get_group_id(1) * 8, col = col0 + t;
  const long plane = get_group_id(2);
  const int r = t & 7, b8 = t & ~7;  // the row this work-item runs in the row passes
  const bool live = col0 + b8 < pc;
  __local W* const my_col = tile + t;
  __local W* const my_row = tile + r * STRIDE + b8;
  uint zeros = 0;
  int nan = 0;
  W x[8];
  const long in_base = in_off + plane * in_ps + min(col, in_cols - 1) * in_cs;
  for (int i = 0; i < 8; ++i) x[i] = load_el(op, in, in_base + min(row0 + i, in_rows - 1) * in_rs);
  if (HAS_FORWARD(op)) {
#if KERNEL == 2
    for (int i = 0; i < 8; ++i) x[i] = clamp(x[i], FWD_MIN, FWD_MAX);
#endif
    pass_forward(x, false);  // columns
    for (int i = 0; i < 8; ++i) my_col[i * STRIDE] = x[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 8; ++k) x[k] = my_row[k];
    pass_forward(x, true);  // rows
    for (int k = 0; k < 8; ++k) {
      x[k] = coefficient(x[k], 8 * r + k, ftab);
      if (op != OP_FORWARD)
        x[k] = requantize(op, x[k], 8 * r + k, ftab, itab, &zeros, &nan, live);
    }
    if (op == OP_ROUNDTRIP) pass_inverse(x, false);  // rows, straight from the registers
    for (int k = 0; k < 8; ++k) my_row[k] = x[k];
  } else {
    for (int i = 0; i < 8; ++i) my_col[i * STRIDE] = x[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 8; ++k) x[k] = inverse_input(op, my_row[k], 8 * r + k, ftab, itab);
    pass_inverse(x, false);  // rows
    for (int k = 0; k < 8; ++k) my_row[k] = x[k];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < 8; ++i) x[i] = my_col[i * STRIDE];
  if (HAS_INVERSE(op)) {
    pass_inverse(x, true);  // columns
    for (int i = 0; i < 8; ++i) x[i] = sample(x[i]);
  }
  if (col < out_cols) {
    const long out_base = out_off + plane * out_ps + col * out_cs;
    for (int i = 0; i < 8 && row0 + i < out_rows; ++i)
      store_el(op, out, out_base + (row0 + i) * out_rs, x[i]);
  }
  reduce_counts(op, red, zeros, nan, counts);
}
#endif

#define BLOCK_KERNEL(name, op)                                                            \
  __kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void name(BLOCK_ARGS) {       \
    __local W tile[8 * STRIDE];                                                           \
    __local uint red;                                                                     \
    block_body(op, tile, &red, BLOCK_PASS);                                               \
  }
BLOCK_KERNEL(block8_forward, OP_FORWARD)
BLOCK_KERNEL(block8_inverse, OP_INVERSE)
BLOCK_KERNEL(block8_roundtrip, OP_ROUNDTRIP)  // the fused pass: no intermediate global array
BLOCK_KERNEL(block8_forward_quantized, OP_FQ)
BLOCK_KERNEL(block8_inverse_dequantized, OP_ID)

// ---- Quantization alone (block8_quantize, block8_dequantize): one work-item per element.
#define ELEMENT_ARGS                                                                            \
  __global const uchar *in, long in_off, long in_ps, long in_rs, long in_cs, __global uchar *out, \
      long out_off, long out_ps, long out_rs, long out_cs, int cols, __constant float *ftab,      \
      __constant int *itab, __global uint *counts
#define ELEMENT_INDEX                                                                 \
  const int c = get_global_id(0), r = get_global_id(1);                               \
  const long p = get_global_id(2);                                                    \
  if (c >= cols) return;                                                              \
  const int e = 8 * (r & 7) + (c & 7);                                                \
  const long i = in_off + p * in_ps + r * in_rs + c * in_cs;                          \
  const long o = out_off + p * out_ps + r * out_rs + c * out_cs;

__kernel void block8_quantize(ELEMENT_ARGS) {
  ELEMENT_INDEX
#if DATA16
  (void)ftab;
  (void)counts;
  ((__global short*)out)[o] = (short)quantize_i(((__global const short*)in)[i], itab[e]);
#else
  (void)itab;
  const float v = ((__global const float*)in)[i];
  if (isnan(v)) atomic_or(counts, 1u);
  ((__global short*)out)[o] = (short)quantize_f(v, ftab[128 + e]);
#endif
}

__kernel void block8_dequantize(ELEMENT_ARGS) {
  ELEMENT_INDEX
  (void)counts;
  const int l = ((__global const short*)in)[i];
#if DATA16
  (void)ftab;
  ((__global short*)out)[o] = (short)dequantize_sat(l, itab[e]);
#else
  (void)itab;
  ((__global float*)out)[o] = (float)l * ftab[192 + e];
#endif
}
