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
constexpr int kPerThread = 8;  // items of a row per thread in the dense kernels

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

// The dense fast path (fused_math.hpp, dense_side): a 2D grid, x along a row, y over rows; a
// block is 256 threads, as wide as the row asks (32 to 256) and as tall as that leaves, so short
// last axes (3D, batches of short lines) still fill it.
template <class T, bool Back>
__global__ void dense_reorder_kernel(FusedGeometry<T> g, const T* __restrict__ src,
                                     T* __restrict__ dst) {
  const I64 rows = cuda_math::dense_rows(g), pairs = (g.n[2] + 1) / 2;
  for (I64 r = blockIdx.y * I64{blockDim.y} + threadIdx.y; r < rows;
       r += I64{gridDim.y} * blockDim.y) {
    const cuda_math::DenseRow row = cuda_math::dense_row(g, static_cast<std::uint32_t>(r));
    for (I64 t = blockIdx.x * I64{blockDim.x} + threadIdx.x; t < pairs;
         t += I64{gridDim.x} * blockDim.x)
      cuda_math::dense_reorder_pair(g, row, t, src, dst, Back);
  }
}

// f(orbit, at) for every orbit of the dense rotation kernels' share of the grid: x along k2, y
// over the orbit rows; `at` addresses the dense array.
template <class T, class F>
__device__ void each_dense_orbit(const FusedGeometry<T>& g, const F& f) {
  const I64 rows = cuda_math::dense_orbit_rows(g), h = g.half();
  const auto at = [&](I64 b, I64 p0, I64 p1, I64 p2) {
    return cuda_math::dense_offset(g, b, p0, p1, p2);
  };
  for (I64 r = blockIdx.y * I64{blockDim.y} + threadIdx.y; r < rows;
       r += I64{gridDim.y} * blockDim.y) {
    cuda_math::Orbit ob = cuda_math::dense_orbit(g, static_cast<std::uint32_t>(r), 0);
    for (I64 k2 = blockIdx.x * I64{blockDim.x} + threadIdx.x; k2 < h;
         k2 += I64{gridDim.x} * blockDim.x) {
      ob.k[2] = k2;
      f(ob, at);
    }
  }
}

// kPlanar: n[0] = 1 (1D and 2D transforms), the orbit functions without the third axis.
template <class T, bool kPlanar>
__global__ void dense_forward_rotation_kernel(FusedGeometry<T> g, const Cx<T>* __restrict__ V,
                                              T* __restrict__ out) {
  each_dense_orbit(g, [&](const cuda_math::Orbit& o, const auto& at) {
    if constexpr (kPlanar)
      cuda_math::forward_orbit_planar(g, o.batch, o.k[1], o.k[2], V, out, at);
    else
      cuda_math::forward_orbit_at(g, o, V, out, at);
  });
}

template <class T, bool kPlanar>
__global__ void dense_inverse_rotation_kernel(FusedGeometry<T> g, const T* __restrict__ in,
                                              Cx<T>* __restrict__ V) {
  each_dense_orbit(g, [&](const cuda_math::Orbit& o, const auto& at) {
    if constexpr (kPlanar)
      cuda_math::inverse_orbit_planar(g, o.batch, o.k[1], o.k[2], in, V, at);
    else
      cuda_math::inverse_orbit_at(g, o, in, V, at);
  });
}

struct DenseLaunch {
  dim3 grid, block;
};
DenseLaunch dense_launch(I64 per_row, I64 rows, int per_thread) {
  unsigned bx = 32;
  while (bx < static_cast<unsigned>(kThreads) && static_cast<I64>(bx) < per_row) bx *= 2;
  const unsigned by = kThreads / bx;
  // Each thread takes up to kPerThread items of its row: the row's split is paid once for them.
  const I64 span = I64{bx} * (per_thread > 0 ? per_thread : kPerThread);
  const I64 gx = (per_row + span - 1) / span, gy = (rows + by - 1) / by;
  return {dim3(static_cast<unsigned>(gx < (I64{1} << 31) - 1 ? gx : (I64{1} << 31) - 1),
               static_cast<unsigned>(gy < 65535 ? gy : 65535)),
          dim3(bx, by)};
}

unsigned blocks_for(I64 items) {
  const I64 b = (items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 1 ? 1 : b > (I64{1} << 30) ? (I64{1} << 30) : b);
}

void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

}  // namespace

template <class T>
void launch_reorder(const FusedGeometry<T>& g, const T* in, T* v, cudaStream_t stream,
                    int per_thread) {
  if (cuda_math::dense_side(g, false)) {
    const DenseLaunch l = dense_launch((g.n[2] + 1) / 2, cuda_math::dense_rows(g), per_thread);
    dense_reorder_kernel<T, false><<<l.grid, l.block, 0, stream>>>(g, in, v);
    return check_launch("the reorder kernel (launch)");
  }
  reorder_kernel<T><<<blocks_for(g.real_size()), kThreads, 0, stream>>>(g, in, v);
  check_launch("the reorder kernel (launch)");
}
template <class T>
void launch_forward_rotation(const FusedGeometry<T>& g, const Cx<T>* V, T* out, cudaStream_t stream,
                             int per_thread) {
  if (cuda_math::dense_side(g, true)) {
    const DenseLaunch l = dense_launch(g.half(), cuda_math::dense_orbit_rows(g), per_thread);
    if (g.n[0] == 1)
      dense_forward_rotation_kernel<T, true><<<l.grid, l.block, 0, stream>>>(g, V, out);
    else
      dense_forward_rotation_kernel<T, false><<<l.grid, l.block, 0, stream>>>(g, V, out);
    return check_launch("the forward rotation kernel (launch)");
  }
  forward_rotation_kernel<T><<<blocks_for(g.orbits()), kThreads, 0, stream>>>(g, V, out);
  check_launch("the forward rotation kernel (launch)");
}
template <class T>
void launch_inverse_rotation(const FusedGeometry<T>& g, const T* in, Cx<T>* V, cudaStream_t stream,
                             int per_thread) {
  if (cuda_math::dense_side(g, false)) {
    const DenseLaunch l = dense_launch(g.half(), cuda_math::dense_orbit_rows(g), per_thread);
    if (g.n[0] == 1)
      dense_inverse_rotation_kernel<T, true><<<l.grid, l.block, 0, stream>>>(g, in, V);
    else
      dense_inverse_rotation_kernel<T, false><<<l.grid, l.block, 0, stream>>>(g, in, V);
    return check_launch("the inverse rotation kernel (launch)");
  }
  inverse_rotation_kernel<T><<<blocks_for(g.orbits()), kThreads, 0, stream>>>(g, in, V);
  check_launch("the inverse rotation kernel (launch)");
}
template <class T>
void launch_reorder_back(const FusedGeometry<T>& g, const T* v, T* out, cudaStream_t stream,
                         int per_thread) {
  if (cuda_math::dense_side(g, true)) {
    const DenseLaunch l = dense_launch((g.n[2] + 1) / 2, cuda_math::dense_rows(g), per_thread);
    dense_reorder_kernel<T, true><<<l.grid, l.block, 0, stream>>>(g, v, out);
    return check_launch("the reorder-back kernel (launch)");
  }
  reorder_back_kernel<T><<<blocks_for(g.real_size()), kThreads, 0, stream>>>(g, v, out);
  check_launch("the reorder-back kernel (launch)");
}

#define DCTX_FUSED_INSTANTIATE(T)                                                            \
  template void launch_reorder<T>(const FusedGeometry<T>&, const T*, T*, cudaStream_t, int); \
  template void launch_forward_rotation<T>(const FusedGeometry<T>&, const Cx<T>*, T*,        \
                                           cudaStream_t, int);                               \
  template void launch_inverse_rotation<T>(const FusedGeometry<T>&, const T*, Cx<T>*,        \
                                           cudaStream_t, int);                               \
  template void launch_reorder_back<T>(const FusedGeometry<T>&, const T*, T*, cudaStream_t, int);
DCTX_FUSED_INSTANTIATE(float)
DCTX_FUSED_INSTANTIATE(double)
#undef DCTX_FUSED_INSTANTIATE

}  // namespace dctx::cu
