// SPDX-License-Identifier: BSD-3-Clause
// The arithmetic of the CUDA 8x8 block engine (src/cuda/block8_math.hpp, block8_tables.hpp) on the
// CPU, no GPU needed: the kernels' per-block load, passes and store looped over every block of a
// batch of planes, as the kernels' threads run them, must equal the CPU engine bit for bit (and
// count the same zero levels) for every operation, kernel and data type, with replicated edges
// and cropped outputs. Outputs are poisoned first.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda/block8_tables.hpp"
#include "dctx/block8.hpp"

namespace dctx {
namespace {

namespace b8 = cuda_math::b8;

// The kernels' loop over blocks, on the CPU.
template <class TIn, class TOut>
std::uint64_t emulate(const Block8PlanDesc& d, const TIn* in, const b8::PlaneGeometry& gi,
                      TOut* out, const b8::PlaneGeometry& go, int planes, int prow, int pcol) {
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

template <class T>
std::vector<T> random_plane(std::size_t n, unsigned seed, double lo, double hi) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(std::is_integral_v<T> ? std::round(u(g)) : u(g));
  return v;
}

// One description: 2 planes of 21 x 27 samples (forward; padded to 24 x 32, edges replicated) or
// 24 x 32 coefficients (inverse; output cropped to 21 x 27).
template <class TIn, class TOut>
void check(Block8PlanDesc d, unsigned seed) {
  d.backend = BackendKind::CPU;
  d.edge = Block8Edge::Replicate;
  const Block8Plan cpu(d);
  d = cpu.desc();
  const bool forward = b8::has_forward(static_cast<int>(d.op));
  const int planes = 2, pr = 24, pc = 32, sr = 21, sc = 27;
  const int ir = forward ? sr : pr, ic = forward ? sc : pc;
  const int orr = forward && d.op != Block8Op::Roundtrip ? pr : sr;
  const int oc = forward && d.op != Block8Op::Roundtrip ? pc : sc;
  const bool levels_in = d.op == Block8Op::InverseDequantized;
  const double span = levels_in ? 12 : forward ? 128 : 300;
  const std::vector<TIn> in = random_plane<TIn>(std::size_t(planes * ir * ic), seed, -span, span);
  const TOut poison = std::is_integral_v<TOut> ? TOut(-12345) : TOut(NAN);
  std::vector<TOut> want(std::size_t(planes * orr * oc), poison), got = want;
  const Block8Stats st = cpu.execute(
      ConstView<TIn>(in.data(), {std::size_t(planes), std::size_t(ir), std::size_t(ic)}),
      View<TOut>(want.data(), {std::size_t(planes), std::size_t(orr), std::size_t(oc)}));
  const b8::PlaneGeometry gi{0, ir * ic, ic, 1, ir, ic}, go{0, orr * oc, oc, 1, orr, oc};
  const std::uint64_t zeros = emulate(d, in.data(), gi, got.data(), go, planes, pr, pc);
  const std::string what = cpu.describe();
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
