// SPDX-License-Identifier: BSD-3-Clause
// The shared-memory layouts of Obukhov and Kharlamov's "Discrete Cosine Transform for 8x8 Blocks
// with CUDA" (NVIDIA, 2008): a thread block owns a tile of 8 rows by kTileCols columns (16 blocks
// side by side) in shared memory, loaded and stored a row of the tile at a time so that a warp's
// accesses are contiguous, with the rows padded by one element so that the threads of a warp that
// walk different rows hit different banks.
//  - SeparableTile (the whitepaper's fast kernel): one thread per column of the tile for the
//    column passes, then one per row of a block for the row passes and the quantizing step;
//  - ReferenceTile (the kernel by definition): one thread per coefficient, each output one row of
//    an 8x8 matrix times one column, in double.
// Each stage is a __host__ __device__ function of the thread's index: the kernels
// (block8_kernels.cu) call them between barriers, and the CPU tests run every thread of a stage
// before the next stage, which is what the barriers guarantee. The arithmetic is block8_math.hpp's,
// so results equal the one-block-per-thread kernels' and the CPU engine's bit for bit.
#pragma once

#include <cstdint>

#include "cuda/block8_math.hpp"

namespace dctx::cuda_math::b8 {

/// Which layout runs a transform: the whitepaper's shared-memory tiles, or one whole block in each
/// thread's registers.
enum Layout : int { kTiles = 0, kRegisters = 1 };

inline constexpr int kTileCols = 128;             // 16 blocks of a plane's row of blocks
inline constexpr int kTilePitch = kTileCols + 1;  // padded: row r starts in bank r (mod 32)

/// One tile: plane p, rows r0 .. r0+7 and columns c0 .. c0+cols-1 of the padded block grid.
struct TileAt {
  std::int64_t p = 0;
  int r0 = 0, c0 = 0, cols = 0;
};
/// The tiles of one plane of prow x pcol padded elements (multiples of 8).
DCTX_HD std::int64_t tiles_per_plane(int prow, int pcol) {
  return std::int64_t{prow / 8} * ((pcol + kTileCols - 1) / kTileCols);
}
/// Tile i of a batch, in the order plane, row of blocks, columns.
DCTX_HD TileAt tile_at(std::int64_t i, int prow, int pcol) {
  const std::int64_t across = (pcol + kTileCols - 1) / kTileCols, per = tiles_per_plane(prow, pcol);
  const std::int64_t rest = i % per;
  TileAt at;
  at.p = i / per;
  at.r0 = static_cast<int>(rest / across) * 8;
  at.c0 = static_cast<int>(rest % across) * kTileCols;
  at.cols = pcol - at.c0 < kTileCols ? pcol - at.c0 : kTileCols;
  return at;
}

/// Element (r, c) of plane p with the last row and column replicated past the edge.
template <class TIn>
DCTX_HD TIn load_element(const TIn* in, const PlaneGeometry& g, std::int64_t p, int r, int c) {
  r = r < g.rows ? r : g.rows - 1;
  c = c < g.cols ? c : g.cols - 1;
  return in[g.off + p * g.ps + r * g.rs + c * g.cs];
}

/// The separable kernels (Fast, Int16) on a tile of kTileCols threads: W sh[8 * kTilePitch].
template <int kKernel, bool kData16>
struct SeparableTile {
  using S = Separable<kKernel, kData16>;
  using W = typename S::W;
  static constexpr int kThreads = kTileCols;
  static constexpr int kSharedWords = 8 * kTilePitch;

  /// Stage 1, thread tid: loads column c0 + tid (a row of the tile per step: contiguous across a
  /// warp), runs the column pass and writes it to shared memory.
  template <class TIn>
  static DCTX_HD void load(int tid, int op, const Tables& t, const TIn* in, const PlaneGeometry& g,
                           const TileAt& at, W* sh) {
    if (tid >= at.cols) return;
    W x[8];
    for (int i = 0; i < 8; ++i)
      x[i] = load_as<W>(load_element(in, g, at.p, at.r0 + i, at.c0 + tid));
    S::column_in(op, t, x);
    for (int i = 0; i < 8; ++i) sh[i * kTilePitch + tid] = x[i];
  }
  /// Stage 2, thread tid: row tid % 8 of block tid / 8 (a warp's 32 rows start in 32 banks).
  static DCTX_HD void rows(int tid, int op, const Tables& t, const TileAt& at, W* sh, Counts& n) {
    const int r = tid % 8, b = tid / 8;
    if (8 * b >= at.cols) return;
    W* s = sh + r * kTilePitch + 8 * b;
    W x[8];
    for (int k = 0; k < 8; ++k) x[k] = s[k];
    S::row(op, t, x, r, n);
    for (int k = 0; k < 8; ++k) s[k] = x[k];
  }
  /// Stage 3, thread tid: column c0 + tid from shared memory through the inverse column pass to
  /// the output, cropped (a row of the tile per step).
  template <class TOut>
  static DCTX_HD void store(int tid, int op, const Tables& t, TOut* out, const PlaneGeometry& g,
                            const TileAt& at, const W* sh) {
    const int c = at.c0 + tid;
    if (tid >= at.cols || c >= g.cols) return;
    W x[8];
    for (int i = 0; i < 8; ++i) x[i] = sh[i * kTilePitch + tid];
    S::column_out(op, t, x);
    TOut* q = out + g.off + at.p * g.ps + std::int64_t{at.r0} * g.rs + c * g.cs;
    const int rows = g.rows - at.r0 < 8 ? g.rows - at.r0 : 8;
    for (int i = 0; i < rows; ++i, q += g.rs) *q = store_as<TOut>(x[i]);
  }
};

/// The Reference kernel on a tile of 8 x kTileCols threads, one per coefficient: thread tid owns
/// row tid / kTileCols and column tid % kTileCols of the tile. Shared: double x[8 * kTilePitch]
/// (the block, then its coefficients) and tmp[8 * kTilePitch] (the first product).
template <bool kData16>
struct ReferenceTile {
  using R = Reference<kData16>;
  static constexpr int kThreads = 8 * kTileCols;
  static constexpr int kSharedWords = 8 * kTilePitch;

  /// Stage 1: the element, as the inverse products take it for the inverse-only operations.
  template <class TIn>
  static DCTX_HD void load(int tid, int op, const Tables& t, const TIn* in, const PlaneGeometry& g,
                           const TileAt& at, double* x) {
    const int i = tid / kTileCols, c = tid % kTileCols;
    if (c >= at.cols) return;
    const double v = load_as<double>(load_element(in, g, at.p, at.r0 + i, at.c0 + c));
    x[i * kTilePitch + c] = has_forward(op) ? v : R::inverse_input(op, t, v, 8 * i + c % 8);
  }
  /// Stages 2 (first product into tmp) and 3 (second product back into x) of the forward
  /// transform, then its quantizing step; kInverse: the same for the inverse transform.
  template <bool kInverse>
  static DCTX_HD void first(int tid, const Tables& t, const TileAt& at, const double* x,
                            double* tmp) {
    const int i = tid / kTileCols, c = tid % kTileCols;
    if (c >= at.cols) return;
    tmp[i * kTilePitch + c] = kInverse ? R::inverse_first(t, i, x + c, kTilePitch)
                                       : R::forward_first(t, i, x + c, kTilePitch);
  }
  template <bool kInverse>
  static DCTX_HD void second(int tid, int op, const Tables& t, const TileAt& at, const double* tmp,
                             double* x, Counts& n) {
    const int i = tid / kTileCols, c = tid % kTileCols;
    if (c >= at.cols) return;
    const int v = c % 8;
    const double* trow = tmp + i * kTilePitch + (c - v);
    x[i * kTilePitch + c] =
        kInverse ? R::inverse_second(t, v, trow)
                 : R::coefficient(op, t, R::forward_second(t, v, trow), 8 * i + v, n);
  }
  /// The last stage: the element to the output, cropped.
  template <class TOut>
  static DCTX_HD void store(int tid, TOut* out, const PlaneGeometry& g, const TileAt& at,
                            const double* x) {
    const int i = tid / kTileCols, c = tid % kTileCols;
    if (c >= at.cols || at.c0 + c >= g.cols || at.r0 + i >= g.rows) return;
    out[g.off + at.p * g.ps + (at.r0 + i) * g.rs + (at.c0 + c) * g.cs] =
        store_as<TOut>(x[i * kTilePitch + c]);
  }
};

}  // namespace dctx::cuda_math::b8
