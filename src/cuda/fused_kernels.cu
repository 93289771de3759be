// SPDX-License-Identifier: BSD-3-Clause
// The fused route's kernels ("A New Acceleration Paradigm for Discrete Cosine Transform and Other
// Fourier-Related Transforms": one reorder kernel, cuFFT, one post-processing kernel using the
// Hermitian symmetry). Each is a grid-stride loop over one function of fused_math.hpp; the
// arithmetic is tested on the CPU (tests/cuda/test_fused_math.cpp).
#include <string>

#include "cuda/fused_kernels.hpp"
#include "cuda/runtime.hpp"

namespace dctx::cu {
namespace {

using cuda_math::Cx;
using cuda_math::FusedGeometry;
using cuda_math::I64;

constexpr int kThreads = 256;

// Threads read the natural array in the logical order (coalesced when the last transformed axis
// is the contiguous one) and scatter into the reordered one.
template <class T>
__global__ void reorder_kernel(FusedGeometry<T> g, const T* __restrict__ in, T* __restrict__ v) {
  const I64 total = g.real_size();
  for (I64 i = blockIdx.x * I64{blockDim.x} + threadIdx.x; i < total;
       i += I64{gridDim.x} * blockDim.x) {
    const cuda_math::ReorderPair p = cuda_math::reorder_pair(g, i, false);
    const T x = in[p.offset];
    v[p.slot] = p.negate ? -x : x;
  }
}

// Threads write the natural array in the logical order and gather from the reordered one.
template <class T>
__global__ void reorder_back_kernel(FusedGeometry<T> g, const T* __restrict__ v,
                                    T* __restrict__ out) {
  const I64 total = g.real_size();
  for (I64 i = blockIdx.x * I64{blockDim.x} + threadIdx.x; i < total;
       i += I64{gridDim.x} * blockDim.x) {
    const cuda_math::ReorderPair p = cuda_math::reorder_pair(g, i, true);
    const T x = v[p.slot];
    out[p.offset] = p.negate ? -x : x;
  }
}

template <class T>
__global__ void forward_rotation_kernel(FusedGeometry<T> g, const Cx<T>* __restrict__ V,
                                        T* __restrict__ out) {
  const I64 total = g.orbits();
  for (I64 o = blockIdx.x * I64{blockDim.x} + threadIdx.x; o < total;
       o += I64{gridDim.x} * blockDim.x)
    cuda_math::forward_orbit(g, o, V, out);
}

template <class T>
__global__ void inverse_rotation_kernel(FusedGeometry<T> g, const T* __restrict__ in,
                                        Cx<T>* __restrict__ V) {
  const I64 total = g.orbits();
  for (I64 o = blockIdx.x * I64{blockDim.x} + threadIdx.x; o < total;
       o += I64{gridDim.x} * blockDim.x)
    cuda_math::inverse_orbit(g, o, in, V);
}

unsigned blocks_for(I64 items) {
  const I64 b = (items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 1 ? 1 : b > (I64{1} << 30) ? (I64{1} << 30) : b);
}

void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

}  // namespace

template <class T>
void launch_reorder(const FusedGeometry<T>& g, const T* in, T* v, cudaStream_t stream) {
  reorder_kernel<T><<<blocks_for(g.real_size()), kThreads, 0, stream>>>(g, in, v);
  check_launch("the reorder kernel (launch)");
}
template <class T>
void launch_forward_rotation(const FusedGeometry<T>& g, const Cx<T>* V, T* out,
                             cudaStream_t stream) {
  forward_rotation_kernel<T><<<blocks_for(g.orbits()), kThreads, 0, stream>>>(g, V, out);
  check_launch("the forward rotation kernel (launch)");
}
template <class T>
void launch_inverse_rotation(const FusedGeometry<T>& g, const T* in, Cx<T>* V,
                             cudaStream_t stream) {
  inverse_rotation_kernel<T><<<blocks_for(g.orbits()), kThreads, 0, stream>>>(g, in, V);
  check_launch("the inverse rotation kernel (launch)");
}
template <class T>
void launch_reorder_back(const FusedGeometry<T>& g, const T* v, T* out, cudaStream_t stream) {
  reorder_back_kernel<T><<<blocks_for(g.real_size()), kThreads, 0, stream>>>(g, v, out);
  check_launch("the reorder-back kernel (launch)");
}

#define DCTX_FUSED_INSTANTIATE(T)                                                       \
  template void launch_reorder<T>(const FusedGeometry<T>&, const T*, T*, cudaStream_t); \
  template void launch_forward_rotation<T>(const FusedGeometry<T>&, const Cx<T>*, T*,   \
                                           cudaStream_t);                               \
  template void launch_inverse_rotation<T>(const FusedGeometry<T>&, const T*, Cx<T>*,   \
                                           cudaStream_t);                               \
  template void launch_reorder_back<T>(const FusedGeometry<T>&, const T*, T*, cudaStream_t);
DCTX_FUSED_INSTANTIATE(float)
DCTX_FUSED_INSTANTIATE(double)
#undef DCTX_FUSED_INSTANTIATE

}  // namespace dctx::cu
