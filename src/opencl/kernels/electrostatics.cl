// SPDX-License-Identifier: BSD-3-Clause
// The energy of DREAMPlace's electrostatic step on OpenCL (Lin et al., "DREAMPlace: Deep Learning
// Toolkit-Enabled GPU Acceleration for Modern VLSI Placement", DAC 2019; dctx/electrostatics.hpp,
// docs/electrostatics.md). The weighting itself runs in the stores of the forward DCT-II's last
// pass (r2r_lines.cl, WEIGH), each of whose work-groups writes one partial sum of the Parseval
// terms; sum_partials adds them, in a fixed order, in one work-group of GROUP work-items (a power
// of two): energy[energy_off] = factor * sum.
// WIDE: double as on the CPU; float on a device without cl_khr_fp64 (WIDE_FP64 0), where the
// energy's double is written as its IEEE binary64 bits (ulong), converted from the float sum.
#if WIDE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double WIDE;
typedef double ENERGY;
#else
typedef float WIDE;
typedef ulong ENERGY;

// The binary64 bits of the float x (exact: every float is a double).
ulong binary64_bits(float x) {
  const uint b = as_uint(x);
  const ulong sign = (ulong)(b >> 31) << 63;
  const uint e = (b >> 23) & 0xff;
  uint f = b & 0x7fffff;
  if (e == 0xff) return sign | ((ulong)0x7ff << 52) | ((ulong)f << 29);  // inf, NaN
  if (e != 0) return sign | ((ulong)(e - 127 + 1023) << 52) | ((ulong)f << 29);
  if (f == 0) return sign;
  int exponent = -126;  // a subnormal 0.f 2^-126: normalised to 1.f' 2^exponent
  while (!(f & 0x800000)) {
    f <<= 1;
    --exponent;
  }
  return sign | ((ulong)(exponent + 1023) << 52) | ((ulong)(f & 0x7fffff) << 29);
}
#endif

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void sum_partials(
    __global const WIDE* partials, long count, WIDE factor, __global ENERGY* energy,
    long energy_off) {
  __local WIDE sums[GROUP];
  const int l = get_local_id(0);
  WIDE sum = 0;
  for (long k = l; k < count; k += GROUP) sum += partials[k];
  sums[l] = sum;
  for (int width = GROUP / 2; width > 0; width /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < width) sums[l] += sums[l + width];
  }
#if WIDE_FP64
  if (l == 0) energy[energy_off] = sums[0] * factor;
#else
  if (l == 0) energy[energy_off] = binary64_bits(sums[0] * factor);
#endif
}

// field_x(i, j) = potential(i, j) r(i), r(i) = (w_u(i) / 4) / h(i) with h(0) = 1, else 1/2:
// after the potential's type-3 pass along v, field_x's coefficients are the potential's times
// r(i) per row. The product in WIDE and rounded once, as the CPU's scale_row. wu: w_u(i); n:
// the row length (the launch rounds it up to whole work-groups).
__kernel void scale_rows(__global const REAL* pot, long po, long ps0, long ps1, __global REAL* fx,
                         long xo, long xs0, long xs1, __global const WIDE* wu, long n) {
  const long j = get_global_id(0), i = get_global_id(1);
  if (j >= n) return;
  const WIDE r = wu[i] / 4 / (i == 0 ? (WIDE)1 : (WIDE)1 / 2);
  fx[xo + i * xs0 + j * xs1] = (REAL)((WIDE)pot[po + i * ps0 + j * ps1] * r);
}
