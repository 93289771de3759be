// SPDX-License-Identifier: BSD-3-Clause
// The CUDA 8x8 block kernels (Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks
// with CUDA"): the kernel by definition, the separable AAN kernel and the fixed-point LL&M
// kernel, each with the fused quantizing round trip, in two layouts: the whitepaper's
// shared-memory tiles (grid-stride loops over the tiles of block8_tile.hpp, its stages between
// barriers) and one block per thread in registers (grid-stride loops over the per-block functions
// of block8_math.hpp). Both are tested on the CPU against the CPU engine, bit for bit. Compiled
// with --fmad=false: the only fused multiply-adds are those the flowgraphs ask for.
#include "cuda/block8_kernels.hpp"

#include <type_traits>

#include "cuda/block8_tile.hpp"
#include "cuda/runtime.hpp"

namespace dctx::cu {
namespace {

namespace b8 = cuda_math::b8;
using I64 = long long;

constexpr int kThreads = 128;  // 16 blocks of a row per warp pair

// The zero levels and the NaN flag of a warp, added once per warp (counts null: not wanted).
__device__ void add_counts(const b8::Counts& n, unsigned long long* counts) {
  if (!counts) return;  // the same for every thread
  const unsigned zeros = __reduce_add_sync(0xffffffffu, n.zeros);
  const unsigned nan = __reduce_or_sync(0xffffffffu, n.nan ? 1u : 0u);
  if ((threadIdx.x & 31) == 0) {
    if (zeros) atomicAdd(counts, static_cast<unsigned long long>(zeros));
    if (nan) atomicOr(counts + 1, 1ull);
  }
}

// f(p) with the input or output pointer p of its element type (b8::Element).
template <class F>
__device__ void typed_in(int type, const void* p, F&& f) {
  if (type == b8::kI16)
    f(static_cast<const short*>(p));
  else if (type == b8::kU8)
    f(static_cast<const unsigned char*>(p));
  else
    f(static_cast<const float*>(p));
}
template <class F>
__device__ void typed_out(int type, void* p, F&& f) {
  if (type == b8::kI16)
    f(static_cast<short*>(p));
  else if (type == b8::kU8)
    f(static_cast<unsigned char*>(p));
  else
    f(static_cast<float*>(p));
}

template <class W, class Pass>
__device__ void each_block(const void* in, int in_type, b8::PlaneGeometry gi, void* out,
                           int out_type, b8::PlaneGeometry go, I64 planes, int prow, int pcol,
                           Pass pass) {
  const I64 bx = pcol / 8, per_plane = I64{prow / 8} * bx, total = planes * per_plane;
  for (I64 i = blockIdx.x * I64{blockDim.x} + threadIdx.x; i < total;
       i += I64{gridDim.x} * blockDim.x) {
    const I64 p = i / per_plane, rest = i % per_plane;
    const int r0 = static_cast<int>(rest / bx) * 8, c0 = static_cast<int>(rest % bx) * 8;
    W blk[64];
    typed_in(in_type, in, [&](auto* x) { b8::load_block(x, gi, p, r0, c0, blk); });
    pass(blk);
    typed_out(out_type, out, [&](auto* y) { b8::store_block(y, go, p, r0, c0, blk); });
  }
}

template <bool kData16>
__global__ void reference_kernel(b8::Tables t, int op, const void* in, int in_type,
                                 b8::PlaneGeometry gi, void* out, int out_type,
                                 b8::PlaneGeometry go, I64 planes, int prow, int pcol,
                                 unsigned long long* counts) {
  b8::Counts n;
  each_block<double>(in, in_type, gi, out, out_type, go, planes, prow, pcol,
                     [&](double* blk) { b8::reference_block<kData16>(op, t, blk, n); });
  add_counts(n, counts);
}

template <int kKernel, bool kData16>
__global__ void separable_kernel(b8::Tables t, int op, const void* in, int in_type,
                                 b8::PlaneGeometry gi, void* out, int out_type,
                                 b8::PlaneGeometry go, I64 planes, int prow, int pcol,
                                 unsigned long long* counts) {
  using S = b8::Separable<kKernel, kData16>;
  b8::Counts n;
  each_block<typename S::W>(in, in_type, gi, out, out_type, go, planes, prow, pcol,
                            [&](typename S::W* blk) { S::block(op, t, blk, n); });
  add_counts(n, counts);
}

// Whether an operation quantizes: its kernels then read several tables per element.
__host__ __device__ bool quantizing(int op) {
  return op == b8::kRoundtrip || op == b8::kForwardQuantized || op == b8::kInverseDequantized;
}

// The tables into shared memory, once per thread block: the kernels index them per thread (by
// the element's place in its block), which from the kernel's parameter space serialises a warp's
// distinct addresses in the constant cache. The copy itself is serialised the same way, so it
// pays only where a block runs many tiles and reads several tables per element.
__device__ void tables_to_shared(const b8::Tables& t, b8::Tables& st) {
  const auto* src = reinterpret_cast<const unsigned*>(&t);
  auto* dst = reinterpret_cast<unsigned*>(&st);
  for (int w = threadIdx.x; w < static_cast<int>(sizeof(b8::Tables) / 4); w += blockDim.x)
    dst[w] = src[w];
}

// A tile's first stage from int16 or float input.
template <class Tile, class Shared>
__device__ void load_tile(int tid, int op, const b8::Tables& t, const void* in, int in_type,
                          const b8::PlaneGeometry& gi, const b8::TileAt& at, Shared* sh) {
  typed_in(in_type, in, [&](auto* x) { Tile::load(tid, op, t, x, gi, at, sh); });
}

// The whitepaper's fast kernel: a tile of 8 x kTileCols elements in shared memory, a thread per
// column for the column passes and a thread per block row for the row passes.
template <int kKernel, bool kData16>
__global__ void __launch_bounds__(b8::kTileCols, 16)
    separable_tile_kernel(const __grid_constant__ b8::Tables tables, int op, const void* in,
                          int in_type, b8::PlaneGeometry gi, void* out, int out_type,
                          b8::PlaneGeometry go, I64 planes, int prow, int pcol,
                          unsigned long long* counts) {
  using Tile = b8::SeparableTile<kKernel, kData16>;
  __shared__ typename Tile::W sh[Tile::kSharedWords];
  b8::Counts n;
  const int tid = threadIdx.x;
  const I64 total = planes * b8::tiles_per_plane(prow, pcol);
  const auto tiles = [&](const b8::Tables& t) {
    for (I64 i = blockIdx.x; i < total; i += gridDim.x) {
      const b8::TileAt at = b8::tile_at(i, prow, pcol);
      load_tile<Tile>(tid, op, t, in, in_type, gi, at, sh);
      __syncthreads();
      Tile::rows(tid, op, t, at, sh, n);
      __syncthreads();
      typed_out(out_type, out, [&](auto* y) { Tile::store(tid, op, t, y, go, at, sh); });
      __syncthreads();  // before the next tile's loads
    }
  };
  if (quantizing(op)) {  // a persistent grid (launch_block8): the copy is paid once per block
    __shared__ b8::Tables st;
    tables_to_shared(tables, st);
    __syncthreads();
    tiles(st);
  } else {
    tiles(tables);
  }
  add_counts(n, counts);
}

// The whitepaper's kernel by definition: a tile in shared memory, a thread per coefficient.
template <bool kData16>
__global__ void __launch_bounds__(8 * b8::kTileCols)
    reference_tile_kernel(const __grid_constant__ b8::Tables tables, int op, const void* in,
                          int in_type, b8::PlaneGeometry gi, void* out, int out_type,
                          b8::PlaneGeometry go, I64 planes, int prow, int pcol,
                          unsigned long long* counts) {
  using Tile = b8::ReferenceTile<kData16>;
  __shared__ double x[Tile::kSharedWords], tmp[Tile::kSharedWords];
  __shared__ b8::Tables t;
  tables_to_shared(tables, t);
  __syncthreads();
  b8::Counts n;
  const int tid = threadIdx.x;
  const I64 total = planes * b8::tiles_per_plane(prow, pcol);
  for (I64 i = blockIdx.x; i < total; i += gridDim.x) {
    const b8::TileAt at = b8::tile_at(i, prow, pcol);
    load_tile<Tile>(tid, op, t, in, in_type, gi, at, x);
    __syncthreads();
    if (b8::has_forward(op)) {
      Tile::template first<false>(tid, t, at, x, tmp);
      __syncthreads();
      Tile::template second<false>(tid, op, t, at, tmp, x, n);
      __syncthreads();
    }
    if (b8::has_inverse(op)) {
      Tile::template first<true>(tid, t, at, x, tmp);
      __syncthreads();
      Tile::template second<true>(tid, op, t, at, tmp, x, n);
      __syncthreads();
    }
    typed_out(out_type, out, [&](auto* y) { Tile::store(tid, y, go, at, x); });
    __syncthreads();  // before the next tile's loads
  }
  add_counts(n, counts);
}

// Quantization alone: one thread per element.
template <bool kData16>
__global__ void element_kernel(b8::Tables t, int op, const void* in, b8::PlaneGeometry gi,
                               void* out, b8::PlaneGeometry go, I64 planes, int prow, int pcol,
                               unsigned long long* counts) {
  b8::Counts n;
  const I64 per_plane = I64{prow} * pcol, total = planes * per_plane;
  for (I64 i = blockIdx.x * I64{blockDim.x} + threadIdx.x; i < total;
       i += I64{gridDim.x} * blockDim.x) {
    const I64 p = i / per_plane;
    const int r = static_cast<int>((i % per_plane) / pcol), c = static_cast<int>(i % pcol);
    const int e = 8 * (r & 7) + (c & 7);
    const I64 at = gi.off + p * gi.ps + r * gi.rs + c * gi.cs;
    const I64 to = go.off + p * go.ps + r * go.rs + c * go.cs;
    if (op == b8::kQuantize) {
      const float v =
          kData16 ? static_cast<const short*>(in)[at] : static_cast<const float*>(in)[at];
      static_cast<short*>(out)[to] = static_cast<short>(b8::quantize_element<kData16>(v, e, t, n));
    } else {
      const float v = b8::dequantize_element<kData16>(static_cast<const short*>(in)[at], e, t);
      if (kData16)
        static_cast<short*>(out)[to] = static_cast<short>(v);
      else
        static_cast<float*>(out)[to] = v;
    }
  }
  add_counts(n, counts);
}

unsigned grid_for(I64 items) {
  const I64 b = (items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 1 ? 1 : b > (I64{1} << 30) ? (I64{1} << 30) : b);
}

}  // namespace

void launch_block8(const b8::Tables& t, int kernel, int layout, bool d16, int op, const void* in,
                   int in_type, const b8::PlaneGeometry& gi, void* out, int out_type,
                   const b8::PlaneGeometry& go, long long planes, int prow, int pcol,
                   unsigned long long* counts, cudaStream_t s) {
  if (op == b8::kQuantize || op == b8::kDequantize) {
    const unsigned g = grid_for(planes * prow * pcol);
    if (d16)
      element_kernel<true>
          <<<g, kThreads, 0, s>>>(t, op, in, gi, out, go, planes, prow, pcol, counts);
    else
      element_kernel<false>
          <<<g, kThreads, 0, s>>>(t, op, in, gi, out, go, planes, prow, pcol, counts);
  } else {
    // The kernel's template arguments: Int16 runs on int16 data only.
    const auto by_kernel = [&](auto&& launch) {
      using Fast = std::integral_constant<int, b8::kFast>;
      if (kernel == b8::kReference && d16)
        launch(std::integral_constant<int, b8::kReference>(), std::true_type());
      else if (kernel == b8::kReference)
        launch(std::integral_constant<int, b8::kReference>(), std::false_type());
      else if (kernel == b8::kInt16)
        launch(std::integral_constant<int, b8::kInt16>(), std::true_type());
      else if (d16)
        launch(Fast(), std::true_type());
      else
        launch(Fast(), std::false_type());
    };
#define DCTX_ARGS t, op, in, in_type, gi, out, out_type, go, planes, prow, pcol, counts
    if (layout == b8::kTiles) {
      const I64 tiles = planes * b8::tiles_per_plane(prow, pcol);
      I64 cap = I64{1} << 30;
      // A persistent grid (as many blocks as fit at once) where the kernel copies its tables to
      // shared memory: the kernel by definition, and the quantizing separable ones.
      if (kernel == b8::kReference || quantizing(op)) {
        int dev = 0, sms = 0;
        check(cudaGetDevice(&dev), "cudaGetDevice");
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev),
              "cudaDeviceGetAttribute");
        cap = I64{kernel == b8::kReference ? 2 : 16} * (sms > 0 ? sms : 1);
      }
      const unsigned g = static_cast<unsigned>(tiles < cap ? tiles : cap);
      by_kernel([&](auto k, auto d16c) {
        if constexpr (k == b8::kReference)
          reference_tile_kernel<d16c><<<g, 8 * b8::kTileCols, 0, s>>>(DCTX_ARGS);
        else
          separable_tile_kernel<k, d16c><<<g, b8::kTileCols, 0, s>>>(DCTX_ARGS);
      });
    } else {  // b8::kRegisters
      const unsigned g = grid_for(planes * (prow / 8) * (pcol / 8));
      by_kernel([&](auto k, auto d16c) {
        if constexpr (k == b8::kReference)
          reference_kernel<d16c><<<g, kThreads, 0, s>>>(DCTX_ARGS);
        else
          separable_kernel<k, d16c><<<g, kThreads, 0, s>>>(DCTX_ARGS);
      });
    }
#undef DCTX_ARGS
  }
  check(cudaGetLastError(), "the 8x8 block kernel (launch)");
}

}  // namespace dctx::cu
