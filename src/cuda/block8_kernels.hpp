// SPDX-License-Identifier: BSD-3-Clause
// Launchers of the CUDA 8x8 block kernels (block8_kernels.cu), thin loops over block8_tile.hpp
// (the whitepaper's shared-memory tiles) and block8_math.hpp (one thread per 8x8 block from load
// to store, several blocks per thread block along a row so that a warp's loads of one row are
// contiguous). Asynchronous on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/block8_tile.hpp"

namespace dctx::cu {

/// One block operation over `planes` planes of prow x pcol (multiples of 8) blocks' worth of
/// elements: `in` is read with replicated edges (gi), `out` written cropped (go). Element types
/// in_type and out_type: b8::kF32, kI16 or kU8 (uint8 samples, level-shifted). counts: null, or
/// two device words: counts[0] += zero levels, counts[1] |= 1 when a float coefficient to
/// quantize was NaN.
/// kernel: b8::kReference, kFast or kInt16; layout: b8::kTiles or b8::kRegisters (both ignored by
/// Quantize and Dequantize).
void launch_block8(const cuda_math::b8::Tables& tables, int kernel, int layout, bool data16, int op,
                   const void* in, int in_type, const cuda_math::b8::PlaneGeometry& gi, void* out,
                   int out_type, const cuda_math::b8::PlaneGeometry& go, long long planes, int prow,
                   int pcol, unsigned long long* counts, cudaStream_t stream);

}  // namespace dctx::cu
