// SPDX-License-Identifier: BSD-3-Clause
// Benchmarks of the 8x8 block engine against what a user would otherwise call, all in one run:
// FFTW (one guru r2r plan over every block, REDFT10/REDFT01, FFTW_MEASURE, plus the pass that
// makes it orthonormal), OpenCV's cv::dct on each 8x8 block, and a plain memory pass over the same
// bytes (read the plane, write a plane). One thread, Mpixel/s (items = pixels).
//
//   build-block8/bin/bench_block8 --benchmark_min_time=1 --benchmark_repetitions=3 \
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include <hwy/targets.h>

#include "cpu/block8/kernels.hpp"
#include "dctx/block8.hpp"

#if defined(DCTX_HAVE_OPENCV)
#include <opencv2/core.hpp>
#endif

namespace {

using namespace dctx;

constexpr std::size_t kBig = 4096;   // 64 MiB float plane: memory bound
constexpr std::size_t kSmall = 512;  // 1 MiB float plane: stays in L2

template <class T>
struct Buffer {  // 64-byte aligned, like fftwf_malloc
  explicit Buffer(std::size_t n)
      : n(n), p(static_cast<T*>(std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64))) {}
  ~Buffer() { std::free(p); }
  std::size_t n;
  T* p;
};

template <class T>
void fill(Buffer<T>& b, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> d(-128, 127);
  for (std::size_t i = 0; i < b.n; ++i) b.p[i] = static_cast<T>(d(g));
}

void rate(benchmark::State& s, std::size_t pixels) {
  s.SetItemsProcessed(std::int64_t(s.iterations()) * std::int64_t(pixels));
  s.counters["Mpix/s"] = benchmark::Counter(double(s.iterations()) * double(pixels) / 1e6,
                                            benchmark::Counter::kIsRate);
}

// ---- memory passes

void BM_MemoryCopy(benchmark::State& s) {  // memcpy of the plane
  const std::size_t n = std::size_t(s.range(0));
  Buffer<float> in(n * n), out(n * n);
  fill(in, 1);
  for (auto _ : s) {
    std::memcpy(out.p, in.p, n * n * sizeof(float));
    benchmark::DoNotOptimize(out.p);
    benchmark::ClobberMemory();
  }
  rate(s, n * n);
}
void BM_MemoryScale(benchmark::State& s) {  // out = 2 * in, an ordinary vectorised loop
  const std::size_t n = std::size_t(s.range(0));
  Buffer<float> in(n * n), out(n * n);
  fill(in, 1);
  for (auto _ : s) {
    float* __restrict o = out.p;
    const float* __restrict i = in.p;
    for (std::size_t k = 0; k < n * n; ++k) o[k] = 2.0f * i[k];
    benchmark::DoNotOptimize(out.p);
    benchmark::ClobberMemory();
  }
  rate(s, n * n);
}
void BM_MemoryCopyInt16(benchmark::State& s) {
  const std::size_t n = std::size_t(s.range(0));
  Buffer<std::int16_t> in(n * n), out(n * n);
  fill(in, 1);
  for (auto _ : s) {
    std::memcpy(out.p, in.p, n * n * sizeof(std::int16_t));
    benchmark::DoNotOptimize(out.p);
    benchmark::ClobberMemory();
  }
  rate(s, n * n);
}

// ---- dctx block8

template <class T, bool kInverse>
void BM_Dctx(benchmark::State& s, Block8Kernel kernel) {
  const std::size_t n = std::size_t(s.range(0));
  Buffer<T> in(n * n), out(n * n);
  fill(in, 2);
  const Block8Options o{kernel};
  const ConstView<T> iv(in.p, {n, n});
  const View<T> ov(out.p, {n, n});
  for (auto _ : s) {
    kInverse ? block8_inverse(iv, ov, o) : block8_forward(iv, ov, o);
    benchmark::DoNotOptimize(out.p);
    benchmark::ClobberMemory();
  }
  s.SetLabel(kernel == Block8Kernel::Reference
                 ? std::string("reference: matrix products in double")
                 : std::string(to_string(kernel)) + " on " + block8_target());
  rate(s, n * n);
}

template <class T>
void BM_DctxRoundtrip(benchmark::State& s, Block8Kernel kernel) {
  const std::size_t n = std::size_t(s.range(0));
  Buffer<T> in(n * n), out(n * n);
  fill(in, 3);
  const QuantTable t = quant_table_nvidia();
  const Block8Options o{kernel};
  for (auto _ : s) {
    auto st = block8_roundtrip_quantized(ConstView<T>(in.p, {n, n}), View<T>(out.p, {n, n}), t, o);
    benchmark::DoNotOptimize(st);
    benchmark::ClobberMemory();
  }
  s.SetLabel(std::string(to_string(kernel)) + " fused, on " + block8_target());
  rate(s, n * n);
}

// The codec's halves: samples -> int16 levels (forward DCT and quantization in one pass) and
// levels -> samples, beside the separate calls they replace (block8_forward + block8_quantize,
// block8_dequantize + block8_inverse) in the same run. Levels come from the encoder (NVIDIA table).
template <class T, bool kDecode, bool kSeparate>
void BM_DctxCodecHalf(benchmark::State& s, Block8Kernel kernel) {
  const std::size_t n = std::size_t(s.range(0));
  Buffer<T> samples(n * n), coefficients(n * n);
  Buffer<std::int16_t> levels(n * n);
  fill(samples, 4);
  const QuantTable t = quant_table_nvidia();
  const Block8Options o{kernel};
  const Shape sh{n, n};
  const ConstView<T> x(samples.p, sh);
  const View<T> y(samples.p, sh), c(coefficients.p, sh);
  const View<std::int16_t> lv(levels.p, sh);
  block8_forward_quantized(x, lv, t, o);
  for (auto _ : s) {
    if constexpr (kDecode) {
      if constexpr (kSeparate) {
        block8_dequantize(lv, c, t);
        block8_inverse(c, y, o);
      } else {
        block8_inverse_dequantized(lv, y, t, o);
      }
      benchmark::DoNotOptimize(samples.p);
    } else {
      if constexpr (kSeparate) {
        block8_forward(x, c, o);
        block8_quantize(c, lv, t);
      } else {
        auto st = block8_forward_quantized(x, lv, t, o);
        benchmark::DoNotOptimize(st);
      }
      benchmark::DoNotOptimize(levels.p);
    }
    benchmark::ClobberMemory();
  }
  s.SetLabel(std::string(to_string(kernel)) + (kSeparate ? " separate calls" : " one pass") +
             ", on " + block8_target());
  rate(s, n * n);
}
void BM_DctxEncodeFast(benchmark::State& s) {
  BM_DctxCodecHalf<float, false, false>(s, Block8Kernel::Fast);
}
void BM_DctxDecodeFast(benchmark::State& s) {
  BM_DctxCodecHalf<float, true, false>(s, Block8Kernel::Fast);
}
void BM_SeparateEncodeFast(benchmark::State& s) {
  BM_DctxCodecHalf<float, false, true>(s, Block8Kernel::Fast);
}
void BM_SeparateDecodeFast(benchmark::State& s) {
  BM_DctxCodecHalf<float, true, true>(s, Block8Kernel::Fast);
}
void BM_DctxEncodeInt16(benchmark::State& s) {
  BM_DctxCodecHalf<std::int16_t, false, false>(s, Block8Kernel::Int16);
}
void BM_DctxDecodeInt16(benchmark::State& s) {
  BM_DctxCodecHalf<std::int16_t, true, false>(s, Block8Kernel::Int16);
}
void BM_SeparateEncodeInt16(benchmark::State& s) {
  BM_DctxCodecHalf<std::int16_t, false, true>(s, Block8Kernel::Int16);
}
void BM_SeparateDecodeInt16(benchmark::State& s) {
  BM_DctxCodecHalf<std::int16_t, true, true>(s, Block8Kernel::Int16);
}

// The output placed `offset` bytes after the input's page offset, input on a page: 64 bytes (on a
// 1024-column plane, rows of 4 KiB) is the layout where every load of a left-to-right walk would
// wait on a just-issued store ("4K aliasing"; the kernels walk right to left there); 16 bytes is
// where numpy and malloc put large arrays (rows 16 bytes into a cache line: the realigned
// non-temporal stores). fn(in, out) runs one pass.
template <class T, class Fn>
void BM_DctxPlaced(benchmark::State& s, std::size_t offset, const char* what, Fn fn) {
  const std::size_t n = std::size_t(s.range(0));
  const std::size_t bytes = (n * n * sizeof(T) + 4095) / 4096 * 4096;
  Buffer<unsigned char> both(2 * bytes + 4096 + offset);
  Buffer<T> in(n * n);
  fill(in, 2);
  unsigned char* page = both.p + (4096 - reinterpret_cast<std::uintptr_t>(both.p) % 4096) % 4096;
  std::memcpy(page, in.p, n * n * sizeof(T));
  T* out = reinterpret_cast<T*>(page + bytes + offset);
  const ConstView<T> iv(reinterpret_cast<const T*>(page), {n, n});
  const View<T> ov(out, {n, n});
  for (auto _ : s) {
    fn(iv, ov);
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  s.SetLabel(std::string(what) + ", on " + block8_target());
  rate(s, n * n);
}
const QuantTable kNvidiaTable = quant_table_nvidia();
template <class T>
void Forward(const ConstView<T>& i, const View<T>& o) {
  block8_forward(i, o);
}
template <class T>
void Roundtrip(const ConstView<T>& i, const View<T>& o) {
  benchmark::DoNotOptimize(block8_roundtrip_quantized(i, o, kNvidiaTable));
}
void BM_DctxForwardFastAliased(benchmark::State& s) {
  BM_DctxPlaced<float>(s, 64, "out - in = 64 B mod 4 KiB", Forward<float>);
}
void BM_DctxRoundtripFastAliased(benchmark::State& s) {
  BM_DctxPlaced<float>(s, 64, "out - in = 64 B mod 4 KiB", Roundtrip<float>);
}
void BM_DctxForwardFastLine16(benchmark::State& s) {
  BM_DctxPlaced<float>(s, 16, "out 16 B into a cache line", Forward<float>);
}
void BM_DctxRoundtripFastLine16(benchmark::State& s) {
  BM_DctxPlaced<float>(s, 16, "out 16 B into a cache line", Roundtrip<float>);
}
void BM_DctxForwardInt16Line16(benchmark::State& s) {
  BM_DctxPlaced<std::int16_t>(s, 16, "out 16 B into a cache line", Forward<std::int16_t>);
}
void BM_DctxRoundtripInt16Line16(benchmark::State& s) {
  BM_DctxPlaced<std::int16_t>(s, 16, "out 16 B into a cache line", Roundtrip<std::int16_t>);
}

void BM_DctxForwardFast(benchmark::State& s) { BM_Dctx<float, false>(s, Block8Kernel::Fast); }
void BM_DctxInverseFast(benchmark::State& s) { BM_Dctx<float, true>(s, Block8Kernel::Fast); }
void BM_DctxRoundtripFast(benchmark::State& s) { BM_DctxRoundtrip<float>(s, Block8Kernel::Fast); }
void BM_DctxForwardInt16(benchmark::State& s) {
  BM_Dctx<std::int16_t, false>(s, Block8Kernel::Int16);
}
void BM_DctxInverseInt16(benchmark::State& s) {
  BM_Dctx<std::int16_t, true>(s, Block8Kernel::Int16);
}
void BM_DctxRoundtripInt16(benchmark::State& s) {
  BM_DctxRoundtrip<std::int16_t>(s, Block8Kernel::Int16);
}
void BM_DctxForwardReference(benchmark::State& s) {
  BM_Dctx<float, false>(s, Block8Kernel::Reference);
}

// ---- FFTW: one guru plan for all blocks, plus the orthonormal scaling pass

template <bool kInverse>
void BM_Fftw(benchmark::State& s) {
  const int n = int(s.range(0));
  float* in = fftwf_alloc_real(std::size_t(n) * n);
  float* out = fftwf_alloc_real(std::size_t(n) * n);
  const fftwf_iodim dims[2] = {{8, n, n}, {8, 1, 1}};                  // one 8x8 block
  const fftwf_iodim many[2] = {{n / 8, 8 * n, 8 * n}, {n / 8, 8, 8}};  // every block
  const fftw_r2r_kind kind = kInverse ? FFTW_REDFT01 : FFTW_REDFT10;
  const fftw_r2r_kind kinds[2] = {kind, kind};
  fftwf_plan p = fftwf_plan_guru_r2r(2, dims, 2, many, in, out, kinds, FFTW_MEASURE);
  Buffer<float> src(std::size_t(n) * n);
  fill(src, 4);
  std::memcpy(in, src.p, sizeof(float) * std::size_t(n) * n);
  // REDFT10 gives 2 sum x cos(...) per axis: orthonormal needs 1/sqrt(32) (k = 0), 1/4 (k > 0).
  // REDFT01 takes x_0 + 2 sum_{k>0}: orthonormal needs 1/sqrt(8) on x_0 and 1/2 on the others,
  // applied to the input here (counted the same way).
  float scale[8][8];
  for (int u = 0; u < 8; ++u)
    for (int v = 0; v < 8; ++v) {
      const double fu = kInverse ? (u ? 0.5 : std::sqrt(0.125)) : (u ? 0.25 : std::sqrt(1.0 / 32));
      const double fv = kInverse ? (v ? 0.5 : std::sqrt(0.125)) : (v ? 0.25 : std::sqrt(1.0 / 32));
      scale[u][v] = float(fu * fv);
    }
  for (auto _ : s) {
    if (kInverse) {  // scaling pass into FFTW's input, then the plan
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
          in[std::size_t(r) * n + c] = src.p[std::size_t(r) * n + c] * scale[r & 7][c & 7];
      fftwf_execute(p);
    } else {  // the plan, then the scaling pass in place
      fftwf_execute(p);
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) out[std::size_t(r) * n + c] *= scale[r & 7][c & 7];
    }
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  fftwf_destroy_plan(p);
  fftwf_free(in);
  fftwf_free(out);
  s.SetLabel(kInverse ? "scaling + guru REDFT01" : "guru REDFT10 + scaling");
  rate(s, std::size_t(n) * n);
}
void BM_FftwForward(benchmark::State& s) { BM_Fftw<false>(s); }
void BM_FftwInverse(benchmark::State& s) { BM_Fftw<true>(s); }

#if defined(DCTX_HAVE_OPENCV)
template <bool kInverse>
void BM_OpenCV(benchmark::State& s) {
  const int n = int(s.range(0));
  cv::setNumThreads(1);
  Buffer<float> in(std::size_t(n) * n), out(std::size_t(n) * n);
  fill(in, 5);
  const std::size_t step = std::size_t(n) * sizeof(float);
  for (auto _ : s) {
    for (int r = 0; r < n; r += 8)
      for (int c = 0; c < n; c += 8) {
        const cv::Mat src(8, 8, CV_32F, in.p + std::size_t(r) * n + c, step);
        cv::Mat dst(8, 8, CV_32F, out.p + std::size_t(r) * n + c, step);
        cv::dct(src, dst, kInverse ? cv::DCT_INVERSE : 0);
      }
    benchmark::DoNotOptimize(out.p);
    benchmark::ClobberMemory();
  }
  s.SetLabel("cv::dct per 8x8 block");
  rate(s, std::size_t(n) * n);
}
void BM_OpenCVForward(benchmark::State& s) { BM_OpenCV<false>(s); }
void BM_OpenCVInverse(benchmark::State& s) { BM_OpenCV<true>(s); }
#endif

#define PLANES Arg(kBig)->Arg(kSmall)->Unit(benchmark::kMillisecond)->UseRealTime()
BENCHMARK(BM_MemoryCopy)->PLANES;
BENCHMARK(BM_MemoryScale)->PLANES;
BENCHMARK(BM_MemoryCopyInt16)->PLANES;
BENCHMARK(BM_DctxForwardFast)->PLANES;
BENCHMARK(BM_DctxInverseFast)->PLANES;
BENCHMARK(BM_DctxRoundtripFast)->PLANES;
BENCHMARK(BM_DctxForwardInt16)->PLANES;
BENCHMARK(BM_DctxInverseInt16)->PLANES;
BENCHMARK(BM_DctxRoundtripInt16)->PLANES;
BENCHMARK(BM_DctxEncodeFast)->PLANES;
BENCHMARK(BM_SeparateEncodeFast)->PLANES;
BENCHMARK(BM_DctxDecodeFast)->PLANES;
BENCHMARK(BM_SeparateDecodeFast)->PLANES;
BENCHMARK(BM_DctxEncodeInt16)->PLANES;
BENCHMARK(BM_SeparateEncodeInt16)->PLANES;
BENCHMARK(BM_DctxDecodeInt16)->PLANES;
BENCHMARK(BM_SeparateDecodeInt16)->PLANES;
// One 8x8 block per call: what a codec calling the library block by block pays per call.
#define ONE_BLOCK Arg(8)->UseRealTime()
BENCHMARK(BM_DctxForwardFast)->ONE_BLOCK;
BENCHMARK(BM_DctxRoundtripFast)->ONE_BLOCK;
BENCHMARK(BM_DctxForwardInt16)->ONE_BLOCK;
BENCHMARK(BM_DctxRoundtripInt16)->ONE_BLOCK;
BENCHMARK(BM_FftwForward)->ONE_BLOCK;
#if defined(DCTX_HAVE_OPENCV)
BENCHMARK(BM_OpenCVForward)->ONE_BLOCK;
#endif
BENCHMARK(BM_DctxForwardFastAliased)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DctxRoundtripFastAliased)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DctxForwardFastLine16)->Arg(kBig)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DctxRoundtripFastLine16)->Arg(kBig)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DctxForwardInt16Line16)->Arg(kBig)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DctxRoundtripInt16Line16)->Arg(kBig)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DctxForwardReference)->Arg(kSmall)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FftwForward)->PLANES;
BENCHMARK(BM_FftwInverse)->PLANES;
#if defined(DCTX_HAVE_OPENCV)
BENCHMARK(BM_OpenCVForward)->PLANES;
BENCHMARK(BM_OpenCVInverse)->PLANES;
#endif

// The fast and int16 kernels on every compiled SIMD target this CPU supports (cache-resident
// plane).
template <class T, bool kInverse>
void BM_DctxOnTarget(benchmark::State& s, std::int64_t target, Block8Kernel kernel) {
  hwy::SetSupportedTargetsForTest(target);
  BM_Dctx<T, kInverse>(s, kernel);
  hwy::SetSupportedTargetsForTest(0);
}
template <class T>
void BM_DctxRoundtripOnTarget(benchmark::State& s, std::int64_t target, Block8Kernel kernel) {
  hwy::SetSupportedTargetsForTest(target);
  BM_DctxRoundtrip<T>(s, kernel);
  hwy::SetSupportedTargetsForTest(0);
}
void RegisterPerTarget() {
  const std::int64_t bits = block8::simd_compiled_targets() & hwy::SupportedTargets();
  for (int i = 0; i < 63; ++i) {
    const std::int64_t t = std::int64_t{1} << i;
    if (!(bits & t)) continue;
    const std::string name = hwy::TargetName(t);
    benchmark::RegisterBenchmark(("BM_Target_ForwardFast/" + name).c_str(),
                                 BM_DctxOnTarget<float, false>, t, Block8Kernel::Fast)
        ->Arg(kSmall)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_Target_InverseFast/" + name).c_str(),
                                 BM_DctxOnTarget<float, true>, t, Block8Kernel::Fast)
        ->Arg(kSmall)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_Target_ForwardInt16/" + name).c_str(),
                                 BM_DctxOnTarget<std::int16_t, false>, t, Block8Kernel::Int16)
        ->Arg(kSmall)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_Target_RoundtripFast/" + name).c_str(),
                                 BM_DctxRoundtripOnTarget<float>, t, Block8Kernel::Fast)
        ->Arg(kSmall)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_Target_RoundtripInt16/" + name).c_str(),
                                 BM_DctxRoundtripOnTarget<std::int16_t>, t, Block8Kernel::Int16)
        ->Arg(kSmall)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  RegisterPerTarget();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
