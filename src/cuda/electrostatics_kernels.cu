// SPDX-License-Identifier: BSD-3-Clause
// The electrostatic step's weighting kernel on CUDA: a grid-stride loop over the bins calling
// electrostatics_math.hpp's weigh_bin, each warp adding its Parseval terms, scaled, to the
// energy once. Compiled with --fmad=false, as the CPU's pass has no fused multiply-adds.
#include "cuda/electrostatics_kernels.hpp"
#include "cuda/runtime.hpp"

namespace dctx::cu {
namespace {

namespace es = cuda_math::es;
constexpr int kThreads = 256;

template <class T>
__global__ void weigh_kernel(es::WeightPass<T> w, double energy_factor, double* energy) {
  const es::I64 total = w.m * w.n;
  double sum = 0;
  for (es::I64 k = blockIdx.x * es::I64{blockDim.x} + threadIdx.x; k < total;
       k += es::I64{gridDim.x} * blockDim.x)
    sum += es::weigh_bin(w, k / w.n, k % w.n);
  if (!energy) return;  // the same for every thread
  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
  if ((threadIdx.x & 31) == 0 && sum != 0) atomicAdd(energy, sum * energy_factor);
}

}  // namespace

template <class T>
void launch_weigh(const es::WeightPass<T>& w, double energy_factor, double* energy,
                  cudaStream_t stream) {
  const long long items = w.m * w.n, b = (items + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(b < 1 ? 1 : b > 65536 ? 65536 : b);
  weigh_kernel<T><<<blocks, kThreads, 0, stream>>>(w, energy_factor, energy);
  check(cudaGetLastError(), "the electrostatic weighting kernel (launch)");
}
template void launch_weigh<float>(const es::WeightPass<float>&, double, double*, cudaStream_t);
template void launch_weigh<double>(const es::WeightPass<double>&, double, double*, cudaStream_t);

}  // namespace dctx::cu
