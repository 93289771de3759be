// SPDX-License-Identifier: BSD-3-Clause
// The arithmetic of the CUDA 8x8 block engine (src/cuda/block8_math.hpp, block8_tile.hpp,
// block8_tables.hpp) on the CPU, no GPU needed, in both layouts: the per-block load, passes and
// store looped over every block of a batch of planes, and the shared-memory tiles' stages run for
// every thread of a tile before the next stage (what the kernels' barriers guarantee), with the
// shared memory poisoned before each tile. Both must equal the CPU engine bit for bit (and count
// the same zero levels) for every operation, kernel and data type, with replicated edges and
// cropped outputs, on planes of one partial tile and of several; uint8 samples against the CPU's
// conversions around its float plans. Outputs are poisoned first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda/block8_tables.hpp"
#include "cuda/block8_tile.hpp"
#include "dctx/block8.hpp"

namespace dctx {
namespace {

namespace b8 = cuda_math::b8;

// The register kernels' loop over blocks, on the CPU.
template <class TIn, class TOut>
std::uint64_t emulate_blocks(const Block8PlanDesc& d, const TIn* in, const b8::PlaneGeometry& gi,
                             TOut* out, const b8::PlaneGeometry& go, int planes, int prow,
                             int pcol) {
  const b8::Tables t = b8::make_tables(d);
  const int op = static_cast<int>(d.op);
  const bool d16 = d.data == Block8Data::Int16;
  b8::Counts n;
  for (int p = 0; p < planes; ++p)
    for (int r0 = 0; r0 < prow; r0 += 8)
      for (int c0 = 0; c0 < pcol; c0 += 8) {
        const auto run = [&](auto* blk, auto&& pass) {
          b8::load_block(in, gi, p, r0, c0, blk);
          pass(blk);
          b8::store_block(out, go, p, r0, c0, blk);
        };
        if (d.kernel == Block8Kernel::Reference) {
          double blk[64];
          run(blk, [&](double* b) {
            d16 ? b8::reference_block<true>(op, t, b, n) : b8::reference_block<false>(op, t, b, n);
          });
        } else if (d.kernel == Block8Kernel::Int16) {
          std::int32_t blk[64];
          run(blk, [&](std::int32_t* b) { b8::Separable<b8::kInt16, true>::block(op, t, b, n); });
        } else {
          float blk[64];
          run(blk, [&](float* b) {
            d16 ? b8::Separable<b8::kFast, true>::block(op, t, b, n)
                : b8::Separable<b8::kFast, false>::block(op, t, b, n);
          });
        }
      }
  return n.zeros;
}

// Runs stage(tid) for every thread of a tile: one barrier-to-barrier step of a kernel.
template <class Stage>
void each_thread(int threads, Stage&& stage) {
  for (int tid = 0; tid < threads; ++tid) stage(tid);
}

template <class Tile, class TIn, class TOut>
void separable_tiles(int op, const b8::Tables& t, const TIn* in, const b8::PlaneGeometry& gi,
                     TOut* out, const b8::PlaneGeometry& go, std::int64_t tiles, int prow, int pcol,
                     b8::Counts& n) {
  using W = typename Tile::W;
  std::vector<W> sh(Tile::kSharedWords);
  for (std::int64_t i = 0; i < tiles; ++i) {
    const b8::TileAt at = b8::tile_at(i, prow, pcol);
    std::fill(sh.begin(), sh.end(), std::is_integral_v<W> ? W(1 << 30) : W(NAN));
    each_thread(Tile::kThreads, [&](int tid) { Tile::load(tid, op, t, in, gi, at, sh.data()); });
    each_thread(Tile::kThreads, [&](int tid) { Tile::rows(tid, op, t, at, sh.data(), n); });
    each_thread(Tile::kThreads, [&](int tid) { Tile::store(tid, op, t, out, go, at, sh.data()); });
  }
}

template <bool kData16, class TIn, class TOut>
void reference_tiles(int op, const b8::Tables& t, const TIn* in, const b8::PlaneGeometry& gi,
                     TOut* out, const b8::PlaneGeometry& go, std::int64_t tiles, int prow, int pcol,
                     b8::Counts& n) {
  using Tile = b8::ReferenceTile<kData16>;
  std::vector<double> x(Tile::kSharedWords), tmp(Tile::kSharedWords);
  for (std::int64_t i = 0; i < tiles; ++i) {
    const b8::TileAt at = b8::tile_at(i, prow, pcol);
    std::fill(x.begin(), x.end(), NAN);
    std::fill(tmp.begin(), tmp.end(), NAN);
    each_thread(Tile::kThreads, [&](int tid) { Tile::load(tid, op, t, in, gi, at, x.data()); });
    if (b8::has_forward(op)) {
      each_thread(Tile::kThreads,
                  [&](int tid) { Tile::template first<false>(tid, t, at, x.data(), tmp.data()); });
      each_thread(Tile::kThreads, [&](int tid) {
        Tile::template second<false>(tid, op, t, at, tmp.data(), x.data(), n);
      });
    }
    if (b8::has_inverse(op)) {
      each_thread(Tile::kThreads,
                  [&](int tid) { Tile::template first<true>(tid, t, at, x.data(), tmp.data()); });
      each_thread(Tile::kThreads, [&](int tid) {
        Tile::template second<true>(tid, op, t, at, tmp.data(), x.data(), n);
      });
    }
    each_thread(Tile::kThreads, [&](int tid) { Tile::store(tid, out, go, at, x.data()); });
  }
}

// The shared-memory tile kernels, on the CPU.
template <class TIn, class TOut>
std::uint64_t emulate_tiles(const Block8PlanDesc& d, const TIn* in, const b8::PlaneGeometry& gi,
                            TOut* out, const b8::PlaneGeometry& go, int planes, int prow,
                            int pcol) {
  const b8::Tables t = b8::make_tables(d);
  const int op = static_cast<int>(d.op);
  const bool d16 = d.data == Block8Data::Int16;
  const std::int64_t tiles = planes * b8::tiles_per_plane(prow, pcol);
  b8::Counts n;
  if (d.kernel == Block8Kernel::Reference && d16)
    reference_tiles<true>(op, t, in, gi, out, go, tiles, prow, pcol, n);
  else if (d.kernel == Block8Kernel::Reference)
    reference_tiles<false>(op, t, in, gi, out, go, tiles, prow, pcol, n);
  else if (d.kernel == Block8Kernel::Int16)
    separable_tiles<b8::SeparableTile<b8::kInt16, true>>(op, t, in, gi, out, go, tiles, prow, pcol,
                                                         n);
  else if (d16)
    separable_tiles<b8::SeparableTile<b8::kFast, true>>(op, t, in, gi, out, go, tiles, prow, pcol,
                                                        n);
  else
    separable_tiles<b8::SeparableTile<b8::kFast, false>>(op, t, in, gi, out, go, tiles, prow, pcol,
                                                         n);
  return n.zeros;
}

template <class T>
std::vector<T> random_plane(std::size_t n, unsigned seed, double lo, double hi) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(std::is_integral_v<T> ? std::round(u(g)) : u(g));
  return v;
}

// One description in both layouts: 2 planes of sr x sc samples (forward; padded to pr x pc, edges
// replicated) or pr x pc coefficients (inverse; output cropped to sr x sc). 24 x 32 is one
// partial tile per row of blocks, 16 x 264 two whole tiles and a partial one.
template <class TIn, class TOut>
void check_shape(Block8PlanDesc d, unsigned seed, int pr, int pc, int sr, int sc) {
  d.backend = BackendKind::CPU;
  d.edge = Block8Edge::Replicate;
  const Block8Plan cpu(d);
  d = cpu.desc();
  const bool forward = b8::has_forward(static_cast<int>(d.op));
  const int planes = 2;
  const int ir = forward ? sr : pr, ic = forward ? sc : pc;
  const int orr = forward && d.op != Block8Op::Roundtrip ? pr : sr;
  const int oc = forward && d.op != Block8Op::Roundtrip ? pc : sc;
  const bool levels_in = d.op == Block8Op::InverseDequantized;
  const double span = levels_in ? 12 : forward ? 128 : 300;
  const bool bytes = std::is_same_v<TIn, std::uint8_t>;  // uint8 samples: 0..255
  const std::vector<TIn> in =
      random_plane<TIn>(std::size_t(planes * ir * ic), seed, bytes ? 0 : -span, bytes ? 255 : span);
  const TOut poison = std::is_integral_v<TOut> ? TOut(-12345) : TOut(NAN);
  std::vector<TOut> want(std::size_t(planes * orr * oc), poison), got = want;
  const Block8Stats st = cpu.execute(
      ConstView<TIn>(in.data(), {std::size_t(planes), std::size_t(ir), std::size_t(ic)}),
      View<TOut>(want.data(), {std::size_t(planes), std::size_t(orr), std::size_t(oc)}));
  // The emulated kernels write planes kGapRows poisoned rows apart: a store past a plane's last
  // row (or a cropped row written anyway) lands in a gap and shows.
  constexpr int kGapRows = 8;
  const std::size_t plane_stride = std::size_t(orr + kGapRows) * oc;
  std::vector<TOut> gapped(planes * plane_stride);
  const b8::PlaneGeometry gi{0, ir * ic, ic, 1, ir, ic};
  const b8::PlaneGeometry go{0, std::int64_t(plane_stride), oc, 1, orr, oc};
  for (const char* layout : {"registers", "tiles"}) {
    std::fill(gapped.begin(), gapped.end(), poison);
    const std::uint64_t zeros =
        layout[0] == 'r' ? emulate_blocks(d, in.data(), gi, gapped.data(), go, planes, pr, pc)
                         : emulate_tiles(d, in.data(), gi, gapped.data(), go, planes, pr, pc);
    const std::string what =
        cpu.describe() + ", " + layout + ", " + std::to_string(pr) + " x " + std::to_string(pc);
    for (int p = 0; p < planes; ++p) {
      const TOut* plane = gapped.data() + p * plane_stride;
      std::copy(plane, plane + std::size_t(orr) * oc, got.begin() + std::size_t(p) * orr * oc);
      for (std::size_t i = std::size_t(orr) * oc; i < plane_stride; ++i)
        if (std::memcmp(&plane[i], &poison, sizeof(TOut)) != 0) {
          ADD_FAILURE() << what << ": plane " << p << " written past its last row, at "
                        << i - std::size_t(orr) * oc << " after it";
          break;
        }
    }
    EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(TOut)), 0) << what;
    for (std::size_t i = 0; i < got.size(); ++i)
      if (std::memcmp(&got[i], &want[i], sizeof(TOut)) != 0) {
        ADD_FAILURE() << what << ": element " << i << " is " << double(got[i]) << ", the CPU's "
                      << double(want[i]);
        break;
      }
    if (d.op == Block8Op::Roundtrip || d.op == Block8Op::ForwardQuantized) {
      EXPECT_EQ(zeros, st.zeros) << what;
    }
  }
}

template <class TIn, class TOut>
void check(const Block8PlanDesc& d, unsigned seed) {
  check_shape<TIn, TOut>(d, seed, 24, 32, 21, 27);
  check_shape<TIn, TOut>(d, seed + 1000, 16, 264, 13, 259);
}

TEST(CudaBlock8Math, EqualsTheCpuEngineBitForBit) {
  const QuantTable q = quant_table_nvidia();
  unsigned seed = 1;
  for (Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast}) {
    check<float, float>({.op = Block8Op::Forward, .kernel = k}, seed++);
    check<float, float>({.op = Block8Op::Inverse, .kernel = k}, seed++);
    check<float, float>({.op = Block8Op::Roundtrip, .table = q, .kernel = k}, seed++);
    check<float, std::int16_t>({.op = Block8Op::ForwardQuantized, .table = q, .kernel = k}, seed++);
    check<std::int16_t, float>({.op = Block8Op::InverseDequantized, .table = q, .kernel = k},
                               seed++);
  }
  for (Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast}) {
    const Block8Data u8 = Block8Data::UInt8;
    check<std::uint8_t, float>({.op = Block8Op::Forward, .data = u8, .kernel = k}, seed++);
    check<float, std::uint8_t>({.op = Block8Op::Inverse, .data = u8, .kernel = k}, seed++);
    check<std::uint8_t, std::uint8_t>(
        {.op = Block8Op::Roundtrip, .data = u8, .table = q, .kernel = k}, seed++);
    check<std::uint8_t, std::int16_t>(
        {.op = Block8Op::ForwardQuantized, .data = u8, .table = q, .kernel = k}, seed++);
    check<std::int16_t, std::uint8_t>(
        {.op = Block8Op::InverseDequantized, .data = u8, .table = q, .kernel = k}, seed++);
  }
  for (Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast, Block8Kernel::Int16}) {
    const Block8Data i16 = Block8Data::Int16;
    check<std::int16_t, std::int16_t>({.op = Block8Op::Forward, .data = i16, .kernel = k}, seed++);
    check<std::int16_t, std::int16_t>({.op = Block8Op::Inverse, .data = i16, .kernel = k}, seed++);
    check<std::int16_t, std::int16_t>(
        {.op = Block8Op::Roundtrip, .data = i16, .table = q, .kernel = k}, seed++);
    check<std::int16_t, std::int16_t>(
        {.op = Block8Op::ForwardQuantized, .data = i16, .table = q, .kernel = k}, seed++);
    check<std::int16_t, std::int16_t>(
        {.op = Block8Op::InverseDequantized, .data = i16, .table = q, .kernel = k}, seed++);
  }
}

// A test must be able to fail: one wrong flowgraph constant shows.
TEST(CudaBlock8Math, AWrongTableIsCaught) {
  const Block8PlanDesc d{.op = Block8Op::Forward, .kernel = Block8Kernel::Fast};
  b8::Tables t = b8::make_tables(d);
  t.ftab[9] *= 1.001f;
  std::vector<float> blk = random_plane<float>(64, 3, -128, 128), ref = blk;
  b8::Counts n;
  b8::Separable<b8::kFast, false>::block(b8::kForward, t, blk.data(), n);
  const b8::Tables good = b8::make_tables(d);
  b8::Separable<b8::kFast, false>::block(b8::kForward, good, ref.data(), n);
  EXPECT_NE(blk[9], ref[9]);
}

}  // namespace
}  // namespace dctx
