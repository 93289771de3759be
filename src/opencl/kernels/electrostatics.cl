// SPDX-License-Identifier: BSD-3-Clause
// The weighting pass of DREAMPlace's electrostatic step on OpenCL (Lin et al., "DREAMPlace: Deep
// Learning Toolkit-Enabled GPU Acceleration for Modern VLSI Placement", DAC 2019;
// dctx/electrostatics.hpp, docs/electrostatics.md). Per bin (i, j) of the M x N grid, from the
// DCT-II coefficient a, which sits in field_x: t = a scale / (w_u^2 + w_v^2) (0 at (0, 0)), and
//   potential = t h(i) h(j),  field_y = t w_v(j) (h(i) / 4),  field_x = t (w_u(i) / 4) h(j),
// with h(k) = 1 at k = 0, else 1/2 (the type-3 weight of a cosine axis): the inputs of the three
// type-3 transforms, and a t, the bin's term of the energy's Parseval sum. The same double
// arithmetic in the same order as the CPU's pass (src/spectral/row_kernels.cc) and CUDA's
// (src/cuda/electrostatics_math.hpp), not contracted into fused multiply-adds.
//  - weigh: a work-group per GROUP x ITEMS bins of a row; each work-group reduces its terms in
//    local memory in a fixed order and writes one partial sum.
//  - sum_partials: one work-group adds the partial sums, in a fixed order, into the energy.
// Specialised by the build options: DCTX_FP64 (the arrays are double, else float), GROUP (the
// work-group size, a power of two), ITEMS (bins per work-item), WITH_POTENTIAL (0: the fields only).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#ifdef DCTX_FP64
typedef double REAL;
#else
typedef float REAL;
#endif

inline double cosine_weight(long k) { return k == 0 ? 1.0 : 0.5; }

// Adds the group's values in `sums` pairwise; work-item 0 ends with the total in sums[0].
inline void reduce_group(__local double* sums) {
  const int l = get_local_id(0);
  for (int width = GROUP / 2; width > 0; width /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < width) sums[l] += sums[l + width];
  }
}

// Work-item l of a work-group takes bins j = j0 + l + k GROUP (k < ITEMS) of row i =
// get_global_id(1), j0 = get_group_id(0) GROUP ITEMS: neighbouring items touch neighbouring
// bins. tables: w_u (M entries), w_v (N), w_v^2 (N). Offsets and strides in elements. Partial
// sums by work-group, row-major over the groups.
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void weigh(
    __global REAL* pot, long pot_off, long ps0, long ps1, __global REAL* fx, long fx_off,
    long xs0, long xs1, __global REAL* fy, long fy_off, long ys0, long ys1, long m, long n,
    __global const double* tables, double scale, __global double* partials) {
  __local double sums[GROUP];
  const long i = get_global_id(1);
  const double hi = cosine_weight(i), wu = tables[i], wu2 = wu * wu;
  double sum = 0;
  for (int k = 0; k < ITEMS; ++k) {
    const long j = get_group_id(0) * (GROUP * ITEMS) + k * GROUP + get_local_id(0);
    if (j >= n) break;
    __global REAL* x = fx + fx_off + i * xs0 + j * xs1;
    double t = 0;
    if (i != 0 || j != 0) {
      const double a = (double)(*x) * scale;
      t = a / (wu2 + tables[m + n + j]);
      sum += a * t;
    }
#if WITH_POTENTIAL
    pot[pot_off + i * ps0 + j * ps1] = (REAL)(t * hi * cosine_weight(j));
#endif
    fy[fy_off + i * ys0 + j * ys1] = (REAL)(t * tables[m + j] * (hi / 4));
    *x = (REAL)(t * (wu / 4) * cosine_weight(j));
  }
  sums[get_local_id(0)] = sum;
  reduce_group(sums);
  if (get_local_id(0) == 0)
    partials[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = sums[0];
}

// energy[energy_off] = factor * (the sum of count partial sums).
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void sum_partials(
    __global const double* partials, long count, double factor, __global double* energy,
    long energy_off) {
  __local double sums[GROUP];
  double sum = 0;
  for (long k = get_local_id(0); k < count; k += GROUP) sum += partials[k];
  sums[get_local_id(0)] = sum;
  reduce_group(sums);
  if (get_local_id(0) == 0) energy[energy_off] = sums[0] * factor;
}
