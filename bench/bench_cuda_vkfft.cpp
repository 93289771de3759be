// SPDX-License-Identifier: BSD-3-Clause
// VkFFT's DCT-II and DCT-III (Debian's header-only libvkfft-dev, its CUDA back end; benchmark
// only) on the shapes of bench_cuda, GPU-time medians from CUDA events over buffers rotating past
// the L2, in place as VkFFT computes them. A program of its own because VkFFT needs NVRTC and the
// driver API at run time: where they are missing, only this comparison is lost. Prints rows
// "vkfft_dct2 N1xN2 DIR f32 US - - -" that scripts/gpu_bench_cupy.py puts beside dctx's.
#define VKFFT_BACKEND 1
#include <cuda.h>
#include <cuda_runtime.h>
#include <vkFFT.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void ok(bool good, const char* what) {
  if (!good) {
    std::fprintf(stderr, "bench_cuda_vkfft: %s failed\n", what);
    std::exit(1);
  }
}

// One shape and direction: VkFFT's DCT-II (forward) or DCT-III (inverse), float32, in place.
void row(std::size_t n1, std::size_t n2, bool forward) {
  const std::size_t bytes = n1 * n2 * sizeof(float);
  const std::size_t count = std::max<std::size_t>(2, (std::size_t{400} << 20) / bytes);
  std::vector<void*> bufs(count);
  for (void*& b : bufs) {
    ok(cudaMalloc(&b, bytes) == cudaSuccess, "cudaMalloc");
    ok(cudaMemset(b, 0x3c, bytes) == cudaSuccess, "cudaMemset");
  }
  CUdevice dev;
  ok(cuDeviceGet(&dev, 0) == CUDA_SUCCESS, "cuDeviceGet");
  cudaStream_t stream = nullptr;
  ok(cudaStreamCreate(&stream) == cudaSuccess, "cudaStreamCreate");
  VkFFTConfiguration c = {};
  VkFFTApplication app = {};
  c.FFTdim = 2;
  c.size[0] = n2;  // VkFFT's x axis is the contiguous one
  c.size[1] = n1;
  c.performDCT = forward ? 2 : 3;
  c.device = &dev;
  c.stream = &stream;
  c.num_streams = 1;
  std::uint64_t size = bytes;
  c.bufferSize = &size;
  c.buffer = &bufs[0];
  ok(initializeVkFFT(&app, c) == VKFFT_SUCCESS, "initializeVkFFT");
  const auto run = [&](std::size_t i) {
    VkFFTLaunchParams lp = {};
    lp.buffer = &bufs[i % count];
    ok(VkFFTAppend(&app, -1, &lp) == VKFFT_SUCCESS, "VkFFTAppend");
  };
  cudaEvent_t a, b;
  ok(cudaEventCreate(&a) == cudaSuccess && cudaEventCreate(&b) == cudaSuccess, "cudaEventCreate");
  run(0);
  run(1);
  std::vector<float> t;
  for (std::size_t r = 0; r < 15; ++r) {
    cudaEventRecord(a, stream);
    run(r + 2);
    cudaEventRecord(b, stream);
    ok(cudaEventSynchronize(b) == cudaSuccess, "cudaEventSynchronize");
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  std::printf("vkfft_dct2 %zux%zu %s f32 %.1f - - -\n", n1, n2, forward ? "forward" : "inverse",
              t[t.size() / 2] * 1e3);
  deleteVkFFT(&app);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaStreamDestroy(stream);
  for (void* p : bufs) cudaFree(p);
}

}  // namespace

int main() {
  ok(cuInit(0) == CUDA_SUCCESS, "cuInit (no CUDA driver or device)");
  const std::size_t shapes[][2] = {
      {1024, 1024}, {2048, 2048}, {4096, 4096}, {8192, 8192}, {1080, 1920}};
  for (const auto& s : shapes)
    for (bool fwd : {true, false}) row(s[0], s[1], fwd);
  return 0;
}
