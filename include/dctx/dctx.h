/* SPDX-License-Identifier: BSD-3-Clause */
/* dctx C API: plans over float/double arrays, for use from C and other languages.
   Every call returns 0 on success or a negative code; dctx_last_error() gives the message
   (per thread). */
#ifndef DCTX_H_
#define DCTX_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dctx_plan dctx_plan;

/* DCTX_DXST: DREAMPlace's shifted DST; DCTX_RDFT: the real DFT in FFTW's halfcomplex order
   (type 2 = R2HC, type 3 = HC2R). Both take types 2 and 3 only (dctx/types.hpp). */
enum { DCTX_DCT = 0, DCTX_DST = 1, DCTX_DXST = 2, DCTX_RDFT = 3 };
enum { DCTX_NORM_BACKWARD = 0, DCTX_NORM_ORTHO = 1, DCTX_NORM_FORWARD = 2 };
enum { DCTX_F32 = 0, DCTX_F64 = 1 };
enum { DCTX_FORWARD = 0, DCTX_INVERSE = 1 };
enum { DCTX_OK = 0, DCTX_EINVAL = -1, DCTX_ENOMEM = -2, DCTX_EINTERNAL = -3 };

/* Build a plan over an array of `rank` dimensions `shape`, transforming `naxes` axes `axes`
   (NULL/0: all axes) with `kinds[i]`/`types[i]` per transformed axis (NULL: DCT / type 2 for
   all). orthogonalize: -1 default (norm == ortho), 0 or 1. threads: 0 = all hardware threads. */
int dctx_plan_create(dctx_plan** plan, int rank, const size_t* shape, int naxes, const int* axes,
                     const int* kinds, const int* types, int precision, int norm, int orthogonalize,
                     int direction, int threads);
/* dctx_plan_create with the DCT-domain thresholding of "A New Acceleration Paradigm for Discrete
   Cosine Transform and Other Fourier-Related Transforms" (Algorithm 3) fused into the transform:
   coefficients of magnitude below coefficient_threshold become 0 (a forward plan's outputs, an
   inverse plan's inputs). coefficient_threshold must be finite and >= 0; 0 turns it off. */
int dctx_plan_create_thresholded(dctx_plan** plan, int rank, const size_t* shape, int naxes,
                                 const int* axes, const int* kinds, const int* types, int precision,
                                 int norm, int orthogonalize, int direction, int threads,
                                 double coefficient_threshold);
/* Execute on arrays with element strides (NULL: C order); in == out runs in place. No allocation
   per call. */
int dctx_execute_f32(const dctx_plan* plan, const float* in, const ptrdiff_t* in_strides,
                     float* out, const ptrdiff_t* out_strides);
int dctx_execute_f64(const dctx_plan* plan, const double* in, const ptrdiff_t* in_strides,
                     double* out, const ptrdiff_t* out_strides);
void dctx_plan_destroy(dctx_plan* plan);
const char* dctx_last_error(void);
const char* dctx_version(void);

#ifdef __cplusplus
}
#endif
#endif /* DCTX_H_ */
