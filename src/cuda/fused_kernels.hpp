// SPDX-License-Identifier: BSD-3-Clause
// Launchers of the fused route's kernels (fused_kernels.cu), thin loops over fused_math.hpp:
// the reorder before cuFFT's R2C, the orbit rotation after it (forward); the orbit rotation before
// cuFFT's C2R and the reorder back after it (inverse). Asynchronous on `stream`; errors of the
// launch are dctx::Errors naming the kernel. per_thread (0: the default): how many items of a row
// each thread of the dense kernels takes (bench_cuda's stage rows compare settings).
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/fused_math.hpp"

namespace dctx::cu {

template <class T>
void launch_reorder(const cuda_math::FusedGeometry<T>& g, const T* in, T* v, cudaStream_t stream,
                    int per_thread = 0);
template <class T>
void launch_forward_rotation(const cuda_math::FusedGeometry<T>& g, const cuda_math::Cx<T>* V,
                             T* out, cudaStream_t stream, int per_thread = 0);
template <class T>
void launch_inverse_rotation(const cuda_math::FusedGeometry<T>& g, const T* in, cuda_math::Cx<T>* V,
                             cudaStream_t stream, int per_thread = 0);
template <class T>
void launch_reorder_back(const cuda_math::FusedGeometry<T>& g, const T* v, T* out,
                         cudaStream_t stream, int per_thread = 0);

}  // namespace dctx::cu
