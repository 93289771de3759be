// SPDX-License-Identifier: BSD-3-Clause
// DCTX_HD: the qualifiers of the CUDA back end's arithmetic functions, __host__ __device__ under
// nvcc (the kernels call them) and plain inline in the C++ compiler (the CPU tests call them).
#pragma once

#if defined(__CUDACC__)
#define DCTX_HD __host__ __device__ __forceinline__
#else
#define DCTX_HD inline
#endif
