// SPDX-License-Identifier: BSD-3-Clause
// Batched 1D DCT and DST of types II-IV along one axis of an N-D array, one kernel per axis pass:
// each work-group takes LINES whole lines and keeps them in BUF (local memory, or the global
// workspace for lines too long for it) from the load to the store, so every pass reads and writes
// global memory once.
//  - The DCT through one real FFT is Makhoul's N-point algorithm with the fused pre- and
//    post-processing of "A New Acceleration Paradigm for Discrete Cosine Transform and Other
//    Fourier-Related Transforms": the even/odd reordering is done by the loads, the quarter-wave
//    rotation by the stores.
//  - The real FFT of even length N runs as one complex FFT of M = N/2 points on the packed
//    sequence (even samples as real parts, odd as imaginary parts) and the split formulas recover
//    the N-point spectrum, as in Jia Ge, Peng Xianrong and Zuo Haorui, "基于OpenCL的FFT算法研究"
//    (a 2D real FFT in OpenCL). Each work-item of the split reads Z[k] and Z[M-k] and writes the
//    four outputs they determine. Odd N runs a complex FFT of N points.
//  - The complex FFT is a self-sorting (Stockham) mixed-radix FFT in BUF: one work-item per
//    butterfly of radix 8, 4 or 2, one per output for odd radices, a barrier between stages;
//    twiddles come from the core's double-precision table of exp(-2 pi i t / M). The inverse runs
//    the forward FFT on conjugates.
//  - DST-II(x)_k = DCT-II((-1)^n x_n)_{N-1-k}; DST-III(x)_n = (-1)^n DCT-III(rev x)_n.
//  - DXST (SHIFT, dctx/types.hpp): DST-II with its output shifted up by one (y_0 = 0), DST-III of
//    its input shifted down by one (x_0 unused): the reversed index N-1-i becomes N-i, and the
//    DC entry, which the shift drops, is a zero.
//  - RDFT (the real DFT in halfcomplex order, dctx/types.hpp): the real FFT alone. Type 2 loads
//    the line in memory order (the packed signal of even N) and stores Re V[k] at k, Im V[k] at
//    N-k; type 3 loads V[k] = x_k + i x_{N-k} and stores in memory order. c0 is the scale.
//
// Type IV: one complex FFT of N/2 points on z_j = (x_{2j} + i x_{N-1-2j}) exp(-i pi (4j+1)/(4N))
// and the post-rotation exp(-i pi k/N) for even N, of 2N points for odd N (the CPU's algorithm,
// core/r2r_tables.hpp); DST-IV(x)_k = (-1)^k DCT-IV(rev x)_k.
//
// Specialised by the build options: REAL (float or double), N, M, PACKED (N even), TYPE (2: the
// DCT-II family, 3: DCT-III, 4: DCT-IV), DST, SHIFT (DXST), RDFT, LINES (lines per work-group),
// LINES_FASTEST (the loads and stores step across lines first: the column passes), GLOBAL_BUF
// (BUF is the global workspace), THRESHOLD (1: zero the inputs, 2: the outputs, with magnitude
// below the argument zero_below: PlanDesc::coefficient_threshold, Algorithm 3 of the
// acceleration-paradigm paper fused into the load or the store), NSTAGES and RADIX_LIST (the
// radices of M in stage order), OUTER (the number of other axes), WEIGH (1: the last pass of the
// electrostatic step's DCT-II, below).
//
// WEIGH: DREAMPlace's weighting (Lin et al., "DREAMPlace: Deep Learning Toolkit-Enabled GPU
// Acceleration for Modern VLSI Placement", DAC 2019; docs/electrostatics.md) fused into the stores
// of the forward 2D DCT-II's last pass, along axis 0 of an M x N bin grid: the coefficient a of
// bin (i, j) (i = k along the line, j = the line) is rounded to REAL as the plain store would
// write it, then weighed into the potential, field_x (`out`) and field_y in the CPU's double
// arithmetic (src/spectral/row_kernels.cc; CUDA's weigh_bin), in the same order, not contracted
// (in float on a device without cl_khr_fp64);
// each work-group adds its Parseval terms in a fixed order into one partial sum, which
// electrostatics.cl adds up.
#ifdef DCTX_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double REAL;
typedef double2 CX;
#else
typedef float REAL;
typedef float2 CX;
#endif

#if THRESHOLD == 1
#define KEEP_IN(x) (fabs(x) < zb ? (REAL)0 : (x))
#else
#define KEEP_IN(x) (x)
#endif
#if THRESHOLD == 2
#define KEEP_OUT(x) (fabs(x) < zb ? (REAL)0 : (x))
#else
#define KEEP_OUT(x) (x)
#endif

#if WEIGH
// WIDE: the weighting's arithmetic, double as on the CPU; float on a device without cl_khr_fp64
// (WEIGH_FP64 0), within float rounding of the CPU's instead of its bits.
#if WEIGH_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double WIDE;
#else
typedef float WIDE;
#endif
// The weighting's arrays and tables (src/opencl/electrostatics.cpp): w_u (N entries: the pass's
// axis), w_v and w_v^2 (one per line).
typedef struct {
  __global REAL* pot;
  long po, ps0, ps1;
  __global REAL* fy;
  long yo, ys0, ys1;
  __global const WIDE* tables;
  WIDE scale;
  long lines;
} Weigh;

inline WIDE cosine_weight(long k) { return k == 0 ? (WIDE)1 : (WIDE)1 / 2; }

// Bin (i, j) with coefficient v: writes the three type-3 inputs (field_x at fx) and returns the
// Parseval term. t = a / (w_u^2 + w_v^2) (0 at (0, 0)); potential t h(i) h(j), field_y
// t w_v(j) (h(i) / 4), field_x t (w_u(i) / 4) h(j), with h(k) = 1 at k = 0, else 1/2. With the
// potential, field_x's input is not stored: the step makes field_x from the potential's pass
// along v (electrostatics.cl, scale_rows).
__attribute__((always_inline)) inline WIDE weigh_bin(const Weigh* w, __global REAL* fx, long i,
                                                     long j, REAL v) {
#pragma OPENCL FP_CONTRACT OFF
  WIDE t = 0, term = 0;
  const WIDE wu = w->tables[i];
  if (i != 0 || j != 0) {
    const WIDE a = (WIDE)v * w->scale;
    t = a / (wu * wu + w->tables[N + w->lines + j]);
    term = a * t;
  }
  const WIDE hi = cosine_weight(i);
  if (w->pot) w->pot[w->po + i * w->ps0 + j * w->ps1] = (REAL)(t * hi * cosine_weight(j));
  w->fy[w->yo + i * w->ys0 + j * w->ys1] = (REAL)(t * w->tables[N + j] * (hi / 4));
  if (!w->pot) *fx = (REAL)(t * (wu / 4) * cosine_weight(j));
  return term;
}
#endif

#if GLOBAL_BUF
#define BUF __global
#else
#define BUF __local
#endif

#if NSTAGES > 0
__constant int kRadix[NSTAGES] = {RADIX_LIST};
#endif

inline CX cmul(CX a, CX b) { return (CX)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
inline CX conj_cx(CX a) { return (CX)(a.x, -a.y); }
inline CX mul_neg_i(CX a) { return (CX)(a.y, -a.x); }  // a * (-i)

// Radix-4 forward butterfly in place.
inline void dft4(CX* a0, CX* a1, CX* a2, CX* a3) {
  const CX s0 = *a0 + *a2, d0 = *a0 - *a2, s1 = *a1 + *a3, d1 = mul_neg_i(*a1 - *a3);
  *a0 = s0 + s1;
  *a2 = s0 - s1;
  *a1 = d0 + d1;
  *a3 = d0 - d1;
}

// One Stockham stage of radix 2, 4 or 8 for butterfly j: inputs src[j + r M/R], twiddles
// w^(r k) with w = exp(-2 pi i / (Ns R)) and k = j mod Ns, outputs dst[(j/Ns) Ns R + k + r Ns].
inline void butterfly_pow2(const BUF CX* src, BUF CX* dst, int R, int Ns, int j,
                           __global const CX* roots) {
  const int k = j % Ns, q = M / R, tstep = (M / (Ns * R)) * k;
  CX v[8];
  for (int r = 0; r < R; ++r) {
    const CX x = src[j + r * q];
    v[r] = r == 0 ? x : cmul(x, roots[(r * tstep) % M]);
  }
  if (R == 2) {
    const CX a = v[0];
    v[0] = a + v[1];
    v[1] = a - v[1];
  } else if (R == 4) {
    dft4(&v[0], &v[1], &v[2], &v[3]);
  } else {
    dft4(&v[0], &v[2], &v[4], &v[6]);
    dft4(&v[1], &v[3], &v[5], &v[7]);
    const REAL h = (REAL)0.70710678118654752440084436210484903928;
    const CX o1 = (CX)(h * (v[3].x + v[3].y), h * (v[3].y - v[3].x));   // * exp(-i pi/4)
    const CX o2 = mul_neg_i(v[5]);                                       // * exp(-i pi/2)
    const CX o3 = (CX)(h * (v[7].y - v[7].x), -h * (v[7].x + v[7].y));  // * exp(-3i pi/4)
    // Outputs of the even DFT4 are in v[0], v[2], v[4], v[6] (in order 0, 1, 2, 3), of the odd
    // one in v[1], v[3], v[5], v[7].
    const CX e0 = v[0], e1 = v[2], e2 = v[4], e3 = v[6], ob0 = v[1];
    v[0] = e0 + ob0;
    v[4] = e0 - ob0;
    v[1] = e1 + o1;
    v[5] = e1 - o1;
    v[2] = e2 + o2;
    v[6] = e2 - o2;
    v[3] = e3 + o3;
    v[7] = e3 - o3;
  }
  const int base = (j / Ns) * Ns * R + k;
  for (int r = 0; r < R; ++r) dst[base + r * Ns] = v[r];
}

// One output of a Stockham stage of odd radix R: output r2 of butterfly j is the sum over r of
// src[j + r M/R] exp(-2 pi i (r k / (Ns R) + r r2 / R)).
inline void output_odd(const BUF CX* src, BUF CX* dst, int R, int Ns, int j, int r2,
                       __global const CX* roots) {
  const int k = j % Ns, q = M / R;
  const long step = (long)(M / (Ns * R)) * k + (long)r2 * q;
  CX acc = (CX)(0, 0);
  long e = 0;
  for (int r = 0; r < R; ++r, e += step) acc += cmul(src[j + r * q], roots[e % M]);
  dst[(j / Ns) * Ns * R + k + r2 * Ns] = acc;
}

// Element offset of line `line` from the outer axes (extents e, strides st; the last outer axis
// varies fastest).
inline long line_base(long line, const long* e, const long* st) {
  long b = 0;
  for (int d = OUTER - 1; d >= 0; --d) {
    b += (line % e[d]) * st[d];
    line /= e[d];
  }
  return b;
}

#define UNPACK8(v, a) const long a[8] = {v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6, v.s7}

// Element (l, t) of the group's flat index f over LINES x count: across lines first in the column
// passes, so that neighbouring work-items touch neighbouring columns.
#if LINES_FASTEST
#define SPLIT_FLAT(f, count, l, t) \
  l = (f) % LINES;                 \
  t = (f) / LINES
#else
#define SPLIT_FLAT(f, count, l, t) \
  l = (f) / (count);               \
  t = (f) % (count)
#endif

// The split of a packed real FFT: V[k] from Z[k] and Z[M-k] (split[k] = exp(-2 pi i k / N)).
inline CX split_forward(CX a, CX b, CX w) {
  const CX e = (a + conj_cx(b)) * (REAL)0.5;
  const CX o = mul_neg_i(a - conj_cx(b)) * (REAL)0.5;
  return e + cmul(w, o);
}

#if TYPE == 2
// Output k of the DCT-II from V[k] (rot[k] = 2 s exp(-i pi k / (2N)), c0 the DC factor). With
// WEIGH, the outputs are weighed (line j) and the Parseval terms added to *sum.
// (Inlined with WEIGH: PoCL left it and weigh_bin out of line, one call per element.)
#if WEIGH
#define STORE2_INLINE __attribute__((always_inline))
#define WEIGH_ARGS , const Weigh *w, long j, WIDE *sum
#define STORE(i, v) *sum += weigh_bin(w, &out[ob + (long)(i) * os], (i), j, (REAL)(v))
#else
#define STORE2_INLINE
#define WEIGH_ARGS
#define STORE(i, v) out[ob + (long)(i) * os] = KEEP_OUT(v)
#endif
STORE2_INLINE inline void store2(__global REAL* out, long ob, long os, int k, CX V,
                                 __global const CX* rot, REAL c0, REAL zb WEIGH_ARGS) {
#if RDFT
  out[ob + (long)k * os] = KEEP_OUT(V.x * c0);
  if (k != 0 && N - k != k) out[ob + (long)(N - k) * os] = KEEP_OUT(V.y * c0);
  return;
#endif
#if SHIFT
#define OUT_AT(i) out[ob + (long)(N - (i)) * os]
#elif DST
#define OUT_AT(i) out[ob + (long)(N - 1 - (i)) * os]
#else
#define OUT_AT(i) out[ob + (long)(i) * os]
#endif
  if (k == 0) {
#if SHIFT
    out[ob] = 0;
#elif WEIGH
    STORE(0, V.x * c0);
#else
    OUT_AT(0) = KEEP_OUT(V.x * c0);
#endif
  } else {
    const CX z = cmul(V, rot[k]);
#if WEIGH
    STORE(k, z.x);
    if (N - k != k) STORE(N - k, -z.y);
#else
    OUT_AT(k) = KEEP_OUT(z.x);
    if (N - k != k) OUT_AT(N - k) = KEEP_OUT(-z.y);
#endif
  }
#undef OUT_AT
}
#elif TYPE == 3
// Input k of the DCT-III as the rotated spectrum V[k] = (x_k - i x_{N-k}) rot[k], k <= N/2.
inline CX load3(__global const REAL* in, long ib, long is, int k, __global const CX* rot,
                REAL c0, REAL zb) {
#if RDFT
  const REAL re = KEEP_IN(in[ib + (long)k * is]);
  const REAL im = k == 0 || N - k == k ? (REAL)0 : KEEP_IN(in[ib + (long)(N - k) * is]);
  return (CX)(re * c0, im * c0);
#endif
#if SHIFT
#define IN_AT(i) KEEP_IN(in[ib + (long)(N - (i)) * is])
#elif DST
#define IN_AT(i) KEEP_IN(in[ib + (long)(N - 1 - (i)) * is])
#else
#define IN_AT(i) KEEP_IN(in[ib + (long)(i) * is])
#endif
#if SHIFT
  if (k == 0) return (CX)(0, 0);
#else
  if (k == 0) return (CX)(IN_AT(0) * c0, 0);
#endif
  const REAL b = N - k == k ? IN_AT(k) : IN_AT(N - k);
  return cmul((CX)(IN_AT(k), -b), rot[k]);
#undef IN_AT
}
#endif

__kernel void r2r_lines(__global const REAL* in, long in_off, long in_stride, long8 in_outer,
                        __global REAL* out, long out_off, long out_stride, long8 out_outer,
                        long8 outer_ext, long first_line, long nlines,
                        __global const CX* roots, __global const CX* split,
                        __global const CX* rot, REAL c0, BUF CX* buf, REAL zb
#if WEIGH
                        ,
                        __global REAL* w_pot, long w_po, long w_ps0, long w_ps1,
                        __global REAL* w_fy, long w_yo, long w_ys0, long w_ys1,
                        __global const WIDE* w_tables, WIDE w_scale,
                        __global WIDE* w_partials
#endif
) {
  const int lid = get_local_id(0), wg = get_local_size(0);
#if GLOBAL_BUF
  buf += (long)get_group_id(0) * 2 * M * LINES;
#endif
  UNPACK8(outer_ext, ext);
  UNPACK8(in_outer, ist);
  UNPACK8(out_outer, ost);
  const long line0 = first_line + (long)get_group_id(0) * LINES;
  BUF CX* A = buf;
  BUF CX* B = buf + M * LINES;
  // Each line's first input and output element, computed once per work-group.
  __local long in_base[LINES], out_base[LINES];
  for (int l = lid; l < LINES; l += wg) {
    const long line = min(line0 + l, nlines - 1);
    in_base[l] = in_off + line_base(line, ext, ist);
    out_base[l] = out_off + line_base(line, ext, ost);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

#if TYPE == 2
  // Load with the even/odd reordering: v[t/2] = x[t] (t even), v[N-1-(t-1)/2] = x[t] (t odd).
  for (int f = lid; f < LINES * N; f += wg) {
    int l, t;
    SPLIT_FLAT(f, N, l, t);
    const long line = line0 + l;
    if (line < nlines) {
      REAL x = KEEP_IN(in[in_base[l] + (long)t * in_stride]);
#if DST
      if (t & 1) x = -x;
#endif
#if RDFT
      const int p = t;
#else
      const int p = (t & 1) ? N - 1 - (t >> 1) : (t >> 1);
#endif
#if PACKED
      ((BUF REAL*)(A + l * M))[p] = x;
#else
      A[l * M + p] = (CX)(x, 0);
#endif
    }
  }
#elif TYPE == 3
  // Load with the pre-rotation and, when packed, the inverse split: Z[k] and Z[M-k] from the
  // four inputs k, N-k, M-k and N-M+k. The conjugate goes in, for the inverse FFT.
#if PACKED
  const int H = M / 2 + 1;
#else
  const int H = N;
#endif
  for (int f = lid; f < LINES * H; f += wg) {
    int l, k;
    SPLIT_FLAT(f, H, l, k);
    const long line = line0 + l;
    if (line < nlines) {
      const long ib = in_base[l];
#if PACKED
      const CX va = load3(in, ib, in_stride, k, rot, c0, zb);
      const CX vb = load3(in, ib, in_stride, M - k, rot, c0, zb);
      // Z[k] = (V[k] + conj V[M-k]) + i conj(w_k) (V[k] - conj V[M-k]), w_k = exp(-2 pi i k/N).
      const CX wa = conj_cx(split[k]), wb = conj_cx(split[M - k]);
      const CX da = va - conj_cx(vb), db = vb - conj_cx(va);
      const CX za = va + conj_cx(vb) + cmul((CX)(-wa.y, wa.x), da);
      const CX zb = vb + conj_cx(va) + cmul((CX)(-wb.y, wb.x), db);
      if (k < M) A[l * M + k] = conj_cx(za);
      if (M - k != k && M - k < M) A[l * M + M - k] = conj_cx(zb);
#else
      // Odd N: the whole Hermitian spectrum, V[N-k] = conj V[k].
      const CX v = 2 * k <= N ? load3(in, ib, in_stride, k, rot, c0, zb)
                              : conj_cx(load3(in, ib, in_stride, N - k, rot, c0, zb));
      A[l * M + k] = conj_cx(v);
#endif
    }
  }
#else
  // DCT-IV: even N, z_j = (x_{2j} + i x_{N-1-2j}) rot[j], M = N/2; odd N, z_j = x_j rot[j] for
  // j < N and 0 up to M = 2N. DST-IV reads the input reversed.
  for (int f = lid; f < LINES * M; f += wg) {
    int l, j;
    SPLIT_FLAT(f, M, l, j);
    const long line = line0 + l;
    if (line < nlines) {
      const long ib = in_base[l];
#if DST
#define IN_AT(i) KEEP_IN(in[ib + (long)(N - 1 - (i)) * in_stride])
#else
#define IN_AT(i) KEEP_IN(in[ib + (long)(i) * in_stride])
#endif
#if N % 2 == 0
      A[l * M + j] = cmul((CX)(IN_AT(2 * j), IN_AT(N - 1 - 2 * j)), rot[j]);
#else
      A[l * M + j] = j < N ? rot[j] * IN_AT(j) : (CX)(0, 0);
#endif
#undef IN_AT
    }
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

  // The complex FFT of M points on each line, A and B in turn.
  int Ns = 1;
#if NSTAGES > 0
  // Unrolled, so that every stage's radix is a constant.
#pragma unroll
  for (int s = 0; s < NSTAGES; ++s) {
    const int R = kRadix[s];
    if (R == 2 || R == 4 || R == 8) {
      const int nb = M / R;
      for (int f = lid; f < LINES * nb; f += wg) {
        const int l = f / nb, j = f % nb;
        butterfly_pow2(A + l * M, B + l * M, R, Ns, j, roots);
      }
    } else {
      for (int f = lid; f < LINES * M; f += wg) {
        const int l = f / M, o = f % M, nb = M / R;
        output_odd(A + l * M, B + l * M, R, Ns, o % nb, o / nb, roots);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    BUF CX* t = A;
    A = B;
    B = t;
    Ns *= R;
  }
#endif

#if TYPE == 2
  // The split and the rotation: a work-item takes k and M-k.
#if PACKED
  const int H = M / 2 + 1;
#else
  const int H = (N - 1) / 2 + 1;
#endif
#if WEIGH
  const Weigh weigh = {w_pot, w_po, w_ps0, w_ps1, w_fy, w_yo, w_ys0, w_ys1, w_tables, w_scale,
                       nlines};
  WIDE wsum = 0;
#define MORE_ARGS , &weigh, line, &wsum
#else
#define MORE_ARGS
#endif
  for (int f = lid; f < LINES * H; f += wg) {
    int l, k;
    SPLIT_FLAT(f, H, l, k);
    const long line = line0 + l;
    if (line < nlines) {
      const long ob = out_base[l];
      const BUF CX* Z = A + l * M;
#if PACKED
      const CX a = Z[k % M], b = Z[(M - k) % M];
      store2(out, ob, out_stride, k, split_forward(a, b, split[k]), rot, c0, zb MORE_ARGS);
      if (M - k != k)
        store2(out, ob, out_stride, M - k, split_forward(b, a, split[M - k]), rot, c0,
               zb MORE_ARGS);
#else
      store2(out, ob, out_stride, k, Z[k], rot, c0, zb MORE_ARGS);
#endif
    }
  }
#undef MORE_ARGS
#if WEIGH
  // The group's Parseval terms, added pairwise in local memory (the work-group size is a power
  // of two, at most WEIGH_GROUP); one partial sum per group of the whole launch sequence.
  __local WIDE wsums[WEIGH_GROUP];
  wsums[lid] = wsum;
  for (int width = wg / 2; width > 0; width /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < width) wsums[lid] += wsums[lid + width];
  }
  if (lid == 0) w_partials[line0 / LINES] = wsums[0];
#endif
#elif TYPE == 3
  // Undo the reordering: x[2j] = v[j], x[2j+1] = v[N-1-j]; the FFT left conj(z).
  for (int f = lid; f < LINES * N; f += wg) {
    int l, t;
    SPLIT_FLAT(f, N, l, t);
    const long line = line0 + l;
    if (line < nlines) {
#if RDFT
      const int p = t;
#else
      const int p = (t & 1) ? N - 1 - (t >> 1) : (t >> 1);
#endif
#if PACKED
      const CX z = A[l * M + (p >> 1)];
      REAL x = (p & 1) ? -z.y : z.x;
#else
      REAL x = A[l * M + p].x;
#endif
#if DST
      if (t & 1) x = -x;
#endif
      out[out_base[l] + (long)t * out_stride] = KEEP_OUT(x);
    }
  }
#else
  // DCT-IV: the post-rotation (split holds post[k]); even N writes x_{2k} and x_{N-1-2k} from
  // z_k, odd N writes x_k. DST-IV negates the odd outputs.
#if N % 2 == 0
  const int H = M;
#else
  const int H = N;
#endif
  for (int f = lid; f < LINES * H; f += wg) {
    int l, k;
    SPLIT_FLAT(f, H, l, k);
    const long line = line0 + l;
    if (line < nlines) {
      const long ob = out_base[l];
      const CX w = cmul(A[l * M + k], split[k]);
#if DST
#define SIGN(i) (((i) & 1) ? (REAL)-1 : (REAL)1)
#else
#define SIGN(i) (REAL)1
#endif
#if N % 2 == 0
      out[ob + (long)(2 * k) * out_stride] = KEEP_OUT(SIGN(2 * k) * w.x);
      out[ob + (long)(N - 1 - 2 * k) * out_stride] = KEEP_OUT(-SIGN(N - 1 - 2 * k) * w.y);
#else
      out[ob + (long)k * out_stride] = KEEP_OUT(SIGN(k) * w.x);
#endif
#undef SIGN
    }
  }
#endif
}
