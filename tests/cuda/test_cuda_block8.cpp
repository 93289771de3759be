// SPDX-License-Identifier: BSD-3-Clause
// The CUDA 8x8 block engine on a GPU (label cuda): every operation, kernel and data type equal to
// the CPU engine bit for bit on a batch of planes with replicated edges and cropped outputs, the
// zero-level counts equal, and the whitepaper's JPEG-style pipeline on Barbara (within 50 dB of
// the CPU's image, 32.777 dB against the original). Skips without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dctx/backend.hpp"
#include "dctx/block8.hpp"
#ifdef DCTX_DATA_DIR
#include "dctx/image.hpp"
#include "dctx/image_io.hpp"
#endif

namespace dctx {
namespace {

class CudaBlock8 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!backend_info(BackendKind::CUDA).usable)
      GTEST_SKIP() << backend_info(BackendKind::CUDA).reason;
  }
};

template <class T>
std::vector<T> random_plane(std::size_t n, unsigned seed, double span) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-span, span);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(std::is_integral_v<T> ? std::round(u(g)) : u(g));
  return v;
}

template <class TIn, class TOut>
void same_as_cpu(Block8PlanDesc d, unsigned seed) {
  d.edge = Block8Edge::Replicate;
  d.backend = BackendKind::CPU;
  const Block8Plan cpu(d);
  d.backend = BackendKind::CUDA;
  const Block8Plan gpu(d);
  const bool fwd = d.op == Block8Op::Forward || d.op == Block8Op::Roundtrip ||
                   d.op == Block8Op::ForwardQuantized;
  const std::size_t planes = 3, ir = fwd ? 37 : 40, ic = fwd ? 70 : 72;
  const std::size_t orr = fwd && d.op != Block8Op::Roundtrip ? 40 : 37;
  const std::size_t oc = fwd && d.op != Block8Op::Roundtrip ? 72 : 70;
  const double span = d.op == Block8Op::InverseDequantized ? 12 : fwd ? 128 : 300;
  const auto in = random_plane<TIn>(planes * ir * ic, seed, span);
  std::vector<TOut> a(planes * orr * oc, TOut(-7)), b = a;
  const Block8Stats sa = cpu.execute(ConstView<TIn>(in.data(), {planes, ir, ic}),
                                     View<TOut>(a.data(), {planes, orr, oc}));
  const Block8Stats sb = gpu.execute(ConstView<TIn>(in.data(), {planes, ir, ic}),
                                     View<TOut>(b.data(), {planes, orr, oc}));
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(TOut)), 0) << gpu.describe();
  EXPECT_EQ(sa.zeros, sb.zeros) << gpu.describe();
}

TEST_F(CudaBlock8, EveryOperationEqualsTheCpuBitForBit) {
  const QuantTable q = quant_table_nvidia();
  unsigned seed = 1;
  for (Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast}) {
    same_as_cpu<float, float>({.op = Block8Op::Forward, .kernel = k}, seed++);
    same_as_cpu<float, float>({.op = Block8Op::Inverse, .kernel = k}, seed++);
    same_as_cpu<float, float>({.op = Block8Op::Roundtrip, .table = q, .kernel = k}, seed++);
    same_as_cpu<float, std::int16_t>({.op = Block8Op::ForwardQuantized, .table = q, .kernel = k},
                                     seed++);
    same_as_cpu<std::int16_t, float>({.op = Block8Op::InverseDequantized, .table = q, .kernel = k},
                                     seed++);
  }
  const Block8Data i16 = Block8Data::Int16;
  for (Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast, Block8Kernel::Int16}) {
    same_as_cpu<std::int16_t, std::int16_t>({.op = Block8Op::Forward, .data = i16, .kernel = k},
                                            seed++);
    same_as_cpu<std::int16_t, std::int16_t>({.op = Block8Op::Inverse, .data = i16, .kernel = k},
                                            seed++);
    same_as_cpu<std::int16_t, std::int16_t>(
        {.op = Block8Op::Roundtrip, .data = i16, .table = q, .kernel = k}, seed++);
  }
  same_as_cpu<float, std::int16_t>({.op = Block8Op::Quantize, .table = q}, seed++);
  same_as_cpu<std::int16_t, float>({.op = Block8Op::Dequantize, .table = q}, seed++);
}

#ifdef DCTX_DATA_DIR
// The whitepaper's pipeline (section 4) with backend = CUDA against the same call on the CPU.
TEST_F(CudaBlock8, BarbaraPipeline) {
  const char* env = std::getenv("DCTX_DATA_DIR");
  const Image rgb = read_image(std::string(env && *env ? env : DCTX_DATA_DIR) + "/barbara.bmp");
  for (Block8Kernel k : {Block8Kernel::Fast, Block8Kernel::Reference, Block8Kernel::Int16}) {
    JpegOptions jo;
    jo.kernel = k;
    const JpegResult cpu = jpeg_roundtrip(rgb, jo);
    jo.backend = BackendKind::CUDA;
    const JpegResult gpu = jpeg_roundtrip(rgb, jo);
    const double vs_cpu = psnr(cpu.image, gpu.image);
    std::printf(
        "[ CUDA8 ] Barbara %s: %.6f dB against the original (cpu %.6f), %.2f dB against "
        "the cpu\n",
        std::string(to_string(k)).c_str(), gpu.psnr_db, cpu.psnr_db, vs_cpu);
    EXPECT_GE(vs_cpu, 50.0) << to_string(k);
    if (k != Block8Kernel::Int16) {
      EXPECT_EQ(std::lround(gpu.psnr_db * 1000), 32777);
    }
    EXPECT_EQ(gpu.zero_fraction, cpu.zero_fraction) << to_string(k);
  }
}
#endif

}  // namespace
}  // namespace dctx
