// SPDX-License-Identifier: BSD-3-Clause
// The CUDA 8x8 block engine on a GPU (label cuda): every operation, kernel and data type equal to
// the CPU engine bit for bit on a batch of planes with replicated edges and cropped outputs (plans
// run the shared-memory tiles; the one-block-per-thread layout equals them on device buffers), the
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

#include <cuda_runtime_api.h>

#include "cuda/block8_kernels.hpp"
#include "cuda/block8_tables.hpp"
#include "dctx/backend.hpp"
#include "dctx/block8.hpp"
#include "dctx/cuda.hpp"
#include "expect_error.hpp"
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
  const bool bytes = std::is_same_v<T, std::uint8_t>;  // uint8 samples: 0..255
  std::uniform_real_distribution<double> u(bytes ? 0 : -span, bytes ? 255 : span);
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
  // Coefficients keep their whole blocks (40 x 72); samples are the plane's own 37 x 70.
  const bool coefficients_out = (fwd && d.op != Block8Op::Roundtrip) ||
                                d.op == Block8Op::Quantize || d.op == Block8Op::Dequantize;
  const std::size_t orr = coefficients_out ? 40 : 37, oc = coefficients_out ? 72 : 70;
  const double span = d.op == Block8Op::InverseDequantized ? 12 : fwd ? 128 : 300;
  const auto in = random_plane<TIn>(planes * ir * ic, seed, span);
  std::vector<TOut> a(planes * orr * oc, TOut(-7)), b = a;
  const Block8Stats sa = cpu.execute(ConstView<TIn>(in.data(), {planes, ir, ic}),
                                     View<TOut>(a.data(), {planes, orr, oc}));
  const Block8Stats sb = gpu.execute(ConstView<TIn>(in.data(), {planes, ir, ic}),
                                     View<TOut>(b.data(), {planes, orr, oc}));
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(TOut)), 0) << gpu.describe();
  if (d.data == Block8Data::UInt8) {  // converted in the kernels, not around a float plan
    EXPECT_EQ(gpu.describe().find("through float32"), std::string::npos) << gpu.describe();
  }
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
  const Block8Data u8 = Block8Data::UInt8;  // the kernels' own uint8 loads and stores
  for (Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast}) {
    same_as_cpu<std::uint8_t, float>({.op = Block8Op::Forward, .data = u8, .kernel = k}, seed++);
    same_as_cpu<float, std::uint8_t>({.op = Block8Op::Inverse, .data = u8, .kernel = k}, seed++);
    same_as_cpu<std::uint8_t, std::uint8_t>(
        {.op = Block8Op::Roundtrip, .data = u8, .table = q, .kernel = k}, seed++);
    same_as_cpu<std::uint8_t, std::int16_t>(
        {.op = Block8Op::ForwardQuantized, .data = u8, .table = q, .kernel = k}, seed++);
    same_as_cpu<std::int16_t, std::uint8_t>(
        {.op = Block8Op::InverseDequantized, .data = u8, .table = q, .kernel = k}, seed++);
  }
  same_as_cpu<float, std::int16_t>({.op = Block8Op::Quantize, .table = q}, seed++);
  same_as_cpu<std::int16_t, float>({.op = Block8Op::Dequantize, .table = q}, seed++);
}

// Device memory that frees itself.
template <class T>
struct Device {
  T* p = nullptr;
  std::size_t n = 0;
  explicit Device(std::size_t count) : n(count) {
    EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&p), count * sizeof(T)), cudaSuccess);
  }
  Device(const std::vector<T>& v) : Device(v.size()) {
    EXPECT_EQ(cudaMemcpy(p, v.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~Device() { cudaFree(p); }
  std::vector<T> get() const {
    std::vector<T> v(n);
    EXPECT_EQ(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
};

// dctx::cuda::execute on block plans: device planes (a pitched output, in place, levels and their
// counts) give the CPU's bits on the caller's stream; what it refuses, it names.
TEST_F(CudaBlock8, DevicePlanesOnTheCallersStream) {
  const QuantTable q = quant_table_nvidia();
  const std::size_t planes = 2, rows = 37, cols = 70, pr = 40, pc = 72, pitch = 80;
  const auto in = random_plane<float>(planes * rows * cols, 11, 128);
  const ConstView<float> host_in(in.data(), {planes, rows, cols});
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  const Device<float> din(in);
  const cuda::DevicePlanes<const float> dev_in{din.p, planes, rows, cols};

  // Forward into a pitched output, against the CPU.
  Block8PlanDesc d{.op = Block8Op::Forward, .edge = Block8Edge::Replicate};
  std::vector<float> want(planes * pr * pc, -7.0f);
  Block8Plan(Block8PlanDesc(d)).execute(host_in, View<float>(want.data(), {planes, pr, pc}));
  d.backend = BackendKind::CUDA;
  const Block8Plan fwd(d);
  Device<float> dout(std::vector<float>(planes * pr * pitch, -7.0f));
  cuda::execute(fwd, dev_in, cuda::DevicePlanes<float>{dout.p, planes, pr, pc, 0, pitch}, stream);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  const std::vector<float> got = dout.get();
  for (std::size_t b = 0; b < planes; ++b)
    for (std::size_t r = 0; r < pr; ++r)
      ASSERT_EQ(std::memcmp(&got[(b * pr + r) * pitch], &want[(b * pr + r) * pc], pc * 4), 0)
          << "plane " << b << " row " << r;
  EXPECT_EQ(got[pc], -7.0f);  // the pitch's gap is untouched

  // Levels and their zero count in two device words.
  d = {.op = Block8Op::ForwardQuantized, .table = q, .edge = Block8Edge::Replicate};
  std::vector<std::int16_t> levels(planes * pr * pc, -1);
  const Block8Stats st = Block8Plan(Block8PlanDesc(d))
                             .execute(host_in, View<std::int16_t>(levels.data(), {planes, pr, pc}));
  d.backend = BackendKind::CUDA;
  Device<std::int16_t> dlev(std::vector<std::int16_t>(levels.size(), -1));
  Device<unsigned long long> counts(std::vector<unsigned long long>{0, 0});
  cuda::execute(Block8Plan(d), dev_in, cuda::DevicePlanes<std::int16_t>{dlev.p, planes, pr, pc},
                stream, counts.p);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(dlev.get(), levels);
  EXPECT_EQ(counts.get(), (std::vector<unsigned long long>{st.zeros, 0}));

  // The JPEG-style round trip in place.
  d = {.op = Block8Op::Roundtrip, .table = q, .edge = Block8Edge::Replicate};
  std::vector<float> trip(in.size());
  Block8Plan(Block8PlanDesc(d)).execute(host_in, View<float>(trip.data(), {planes, rows, cols}));
  d.backend = BackendKind::CUDA;
  const Block8Plan rt(d);
  Device<float> dio(in);
  cuda::execute(rt, cuda::DevicePlanes<const float>{dio.p, planes, rows, cols},
                cuda::DevicePlanes<float>{dio.p, planes, rows, cols}, stream);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(std::memcmp(dio.get().data(), trip.data(), trip.size() * 4), 0);

  // uint8 samples in place, level-shifted and rounded in the kernel.
  d = {.op = Block8Op::Roundtrip,
       .data = Block8Data::UInt8,
       .table = q,
       .edge = Block8Edge::Replicate};
  const auto bytes = random_plane<std::uint8_t>(planes * rows * cols, 12, 0);
  std::vector<std::uint8_t> bytes_want = bytes;
  Block8Plan(Block8PlanDesc(d))
      .execute(ConstView<std::uint8_t>(bytes_want.data(), {planes, rows, cols}),
               View<std::uint8_t>(bytes_want.data(), {planes, rows, cols}));
  d.backend = BackendKind::CUDA;
  Device<std::uint8_t> dbytes(bytes);
  cuda::execute(Block8Plan(d), cuda::DevicePlanes<const std::uint8_t>{dbytes.p, planes, rows, cols},
                cuda::DevicePlanes<std::uint8_t>{dbytes.p, planes, rows, cols}, stream);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(dbytes.get(), bytes_want);

  using testing_support::expect_error;
  expect_error(
      [&] {
        cuda::execute(rt, cuda::DevicePlanes<const float>{in.data(), planes, rows, cols},
                      cuda::DevicePlanes<float>{dio.p, planes, rows, cols});
      },
      "in is a host pointer");
  expect_error(
      [&] {
        cuda::execute(rt, cuda::DevicePlanes<const float>{dio.p, planes, rows, cols},
                      cuda::DevicePlanes<float>{dio.p + 3, planes, rows, cols});
      },
      "overlap without being the same array");
  expect_error(
      [&] {
        cuda::execute(fwd, dev_in, cuda::DevicePlanes<float>{dout.p, planes, rows, cols});
      },
      "out is 37 x 70 but the coefficients of a 37 x 70 plane need 40 x 72");
  cudaStreamDestroy(stream);
}

// The two layouts of the transforms on device buffers, launched directly: the same bits and the
// same zero-level counts, on planes of whole and partial tiles with replicated edges.
TEST_F(CudaBlock8, RegisterLayoutEqualsTheTiles) {
  namespace b8 = cuda_math::b8;
  const int planes = 2, rows = 45, cols = 300, prow = 48, pcol = 304;
  const std::vector<float> in = random_plane<float>(std::size_t(planes) * rows * cols, 5, 128);
  const std::size_t in_bytes = in.size() * sizeof(float);
  const std::size_t out_bytes = std::size_t(planes) * prow * pcol * sizeof(float);
  void *din = nullptr, *dout = nullptr, *dcounts = nullptr;
  ASSERT_EQ(cudaMalloc(&din, in_bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dout, out_bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dcounts, 16), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(din, in.data(), in_bytes, cudaMemcpyHostToDevice), cudaSuccess);
  const b8::PlaneGeometry gi{0, rows * cols, cols, 1, rows, cols};
  const b8::PlaneGeometry go{0, prow * pcol, pcol, 1, prow, pcol};
  const QuantTable q = quant_table_nvidia();
  for (const Block8PlanDesc& d :
       {Block8PlanDesc{.op = Block8Op::Forward, .kernel = Block8Kernel::Fast},
        Block8PlanDesc{.op = Block8Op::Roundtrip, .table = q, .kernel = Block8Kernel::Fast},
        Block8PlanDesc{.op = Block8Op::Forward, .kernel = Block8Kernel::Reference},
        Block8PlanDesc{.op = Block8Op::Roundtrip, .table = q, .kernel = Block8Kernel::Reference}}) {
    const b8::Tables t = b8::make_tables(d);
    const int kernel = d.kernel == Block8Kernel::Reference ? b8::kReference : b8::kFast;
    std::vector<float> got[2];
    unsigned long long counts[2][2] = {};
    for (int layout : {b8::kTiles, b8::kRegisters}) {
      ASSERT_EQ(cudaMemset(dout, 0xff, out_bytes), cudaSuccess);  // NaN everywhere
      ASSERT_EQ(cudaMemset(dcounts, 0, 16), cudaSuccess);
      cu::launch_block8(t, kernel, layout, false, static_cast<int>(d.op), din, b8::kF32, gi, dout,
                        b8::kF32, go, planes, prow, pcol, static_cast<unsigned long long*>(dcounts),
                        nullptr);
      got[layout].resize(out_bytes / sizeof(float));
      ASSERT_EQ(cudaMemcpy(got[layout].data(), dout, out_bytes, cudaMemcpyDeviceToHost),
                cudaSuccess);
      ASSERT_EQ(cudaMemcpy(counts[layout], dcounts, 16, cudaMemcpyDeviceToHost), cudaSuccess);
    }
    EXPECT_EQ(std::memcmp(got[0].data(), got[1].data(), out_bytes), 0) << to_string(d.kernel);
    EXPECT_EQ(counts[0][0], counts[1][0]) << to_string(d.kernel);
    EXPECT_FALSE(std::isnan(got[0][0]) || std::isnan(got[0].back())) << to_string(d.kernel);
  }
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dcounts);
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
