// SPDX-License-Identifier: BSD-3-Clause
// The energy of DREAMPlace's electrostatic step on OpenCL (Lin et al., "DREAMPlace: Deep Learning
// Toolkit-Enabled GPU Acceleration for Modern VLSI Placement", DAC 2019; dctx/electrostatics.hpp,
// docs/electrostatics.md). The weighting itself runs in the stores of the forward DCT-II's last
// pass (r2r_lines.cl, WEIGH), each of whose work-groups writes one partial sum of the Parseval
// terms; sum_partials adds them, in a fixed order, in one work-group of GROUP work-items (a power
// of two): energy[energy_off] = factor * sum.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void sum_partials(
    __global const double* partials, long count, double factor, __global double* energy,
    long energy_off) {
  __local double sums[GROUP];
  const int l = get_local_id(0);
  double sum = 0;
  for (long k = l; k < count; k += GROUP) sum += partials[k];
  sums[l] = sum;
  for (int width = GROUP / 2; width > 0; width /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < width) sums[l] += sums[l + width];
  }
  if (l == 0) energy[energy_off] = sums[0] * factor;
}

// field_x(i, j) = potential(i, j) r(i), r(i) = (w_u(i) / 4) / h(i) with h(0) = 1, else 1/2:
// after the potential's type-3 pass along v, field_x's coefficients are the potential's times
// r(i) per row. The product in double and rounded once, as the CPU's scale_row. wu: w_u(i); n:
// the row length (the launch rounds it up to whole work-groups).
__kernel void scale_rows(__global const REAL* pot, long po, long ps0, long ps1, __global REAL* fx,
                         long xo, long xs0, long xs1, __global const double* wu, long n) {
  const long j = get_global_id(0), i = get_global_id(1);
  if (j >= n) return;
  const double r = wu[i] / 4 / (i == 0 ? 1.0 : 0.5);
  fx[xo + i * xs0 + j * xs1] = (REAL)((double)pot[po + i * ps0 + j * ps1] * r);
}
