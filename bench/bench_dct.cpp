// SPDX-License-Identifier: BSD-3-Clause
// Whole-array DCT-II (orthonormal, forward and inverse) of dctx beside FFTW's REDFT10/REDFT01
// plans (FFTW_MEASURE, orthonormal scaling pass counted), FFTW's r2c of the same shape,
// pocketfft's C++ header (the engine of scipy.fft) and, for 2D float32 when they are found, Intel
// IPP's ippiDCTFwd/Inv_32f_C1R and OpenCV's cv::dct (both orthonormal; checked against dctx at
// set-up), all in one run. 1D, 2D and 3D, float and double. Every benchmark cycles through four
// input and four output buffers of random data, so that small arrays are not timed on the same
// cache lines every time. Benchmark names: <dim>/<precision>/<fwd|inv>/<shape>/<library>.
// bench/ratios.py turns the JSON output into the tables of docs/benchmarks.md and a plot.
#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "aligned_array.hpp"
#include "dctx/dctx.hpp"
#include POCKETFFT_HEADER
#if defined(DCTX_BENCH_IPP)
#include <ipp.h>
#endif
#if defined(DCTX_BENCH_OPENCV)
#include <opencv2/core.hpp>
#endif

namespace {

using Shape2 = std::vector<std::size_t>;

template <class T>
std::vector<T> random_data(std::size_t n, unsigned seed = 42) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(u(g));
  return v;
}

std::size_t total(const Shape2& s) {
  std::size_t n = 1;
  for (auto e : s) n *= e;
  return n;
}

using dctx_bench::aligned_array;
using dctx_bench::AlignedArray;

// Four inputs of random data and four outputs, 64-byte aligned (FFTW's new-array execute needs
// the alignment its plan saw); each timed call takes the next pair.
template <class T>
class Rotation {
 public:
  static constexpr std::size_t kCount = 4;
  explicit Rotation(std::size_t n) {
    for (std::size_t k = 0; k < kCount; ++k) {
      in_[k] = aligned_array<T>(n);
      out_[k] = aligned_array<T>(n);
      const auto x = random_data<T>(n, 42 + static_cast<unsigned>(k));
      std::copy(x.begin(), x.end(), in_[k].get());
      // Written once here, so that no timed call pays for the first touch of its output's pages
      // (a page fault per 4 KiB: on these virtual machines 16 MiB of fresh output cost more
      // than the transform's own memory traffic).
      std::fill(out_[k].get(), out_[k].get() + n, T(0));
    }
  }
  T* in(std::size_t k) const { return in_[k % kCount].get(); }
  T* out(std::size_t k) const { return out_[k % kCount].get(); }

  // Runs f(in, out, k) once per benchmark iteration, on buffer pair k mod kCount.
  template <class F>
  void Loop(benchmark::State& st, F&& f) const {
    std::size_t k = 0;
    for (auto _ : st) {
      f(in(k), out(k), k);
      benchmark::DoNotOptimize(out(k));
      benchmark::ClobberMemory();
      ++k;
    }
  }

 private:
  AlignedArray<T> in_[kCount], out_[kCount];
};

template <class T>
struct Fftw;
template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using cpx = fftwf_complex;
  static plan r2r(int rank, const int* n, float* in, float* out, const fftw_r2r_kind* k) {
    return fftwf_plan_r2r(rank, n, in, out, k, FFTW_MEASURE);
  }
  static plan lines(int n, int howmany, float* in, float* out, fftw_r2r_kind k) {
    return fftwf_plan_many_r2r(1, &n, howmany, in, nullptr, 1, n, out, nullptr, 1, n, &k,
                               FFTW_MEASURE);
  }
  static plan r2c(int rank, const int* n, float* in, cpx* out) {
    return fftwf_plan_dft_r2c(rank, n, in, out, FFTW_MEASURE);
  }
  static void exec_r2r(plan p, float* in, float* out) { fftwf_execute_r2r(p, in, out); }
  static void exec_r2c(plan p, float* in, cpx* out) { fftwf_execute_dft_r2c(p, in, out); }
  static void destroy(plan p) { fftwf_destroy_plan(p); }
  static cpx* alloc_c(std::size_t n) { return fftwf_alloc_complex(n); }
  static void free(void* p) { fftwf_free(p); }
};
template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using cpx = fftw_complex;
  static plan r2r(int rank, const int* n, double* in, double* out, const fftw_r2r_kind* k) {
    return fftw_plan_r2r(rank, n, in, out, k, FFTW_MEASURE);
  }
  static plan lines(int n, int howmany, double* in, double* out, fftw_r2r_kind k) {
    return fftw_plan_many_r2r(1, &n, howmany, in, nullptr, 1, n, out, nullptr, 1, n, &k,
                              FFTW_MEASURE);
  }
  static plan r2c(int rank, const int* n, double* in, cpx* out) {
    return fftw_plan_dft_r2c(rank, n, in, out, FFTW_MEASURE);
  }
  static void exec_r2r(plan p, double* in, double* out) { fftw_execute_r2r(p, in, out); }
  static void exec_r2c(plan p, double* in, cpx* out) { fftw_execute_dft_r2c(p, in, out); }
  static void destroy(plan p) { fftw_destroy_plan(p); }
  static cpx* alloc_c(std::size_t n) { return fftw_alloc_complex(n); }
  static void free(void* p) { fftw_free(p); }
};

std::mutex g_fftw_mu;  // FFTW's planner is not thread-safe

// How a dctx benchmark calls Plan::execute: views made per call, views made once and reused,
// or the pointer form.
enum class Call { Views, ReusedViews, Pointers };

template <class T>
void BM_dctx(benchmark::State& st, Shape2 shape, bool inverse, dctx::Algorithm2D algo, Call call) {
  const std::size_t n = total(shape);
  const Rotation<T> bufs(n);
  dctx::PlanDesc d;
  d.shape = shape;
  d.norm = dctx::Norm::Ortho;
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.precision = std::is_same_v<T, float> ? dctx::Precision::F32 : dctx::Precision::F64;
  d.cpu.algorithm = algo;
  const dctx::Plan p(d);
  // C-order strides for the pointer form of execute, which builds no views (their shape and
  // strides vectors cost four allocations per call, which shows at 8x8).
  std::vector<std::ptrdiff_t> strides(shape.size(), 1);
  for (std::size_t a = shape.size() - 1; a-- > 0;)
    strides[a] = strides[a + 1] * static_cast<std::ptrdiff_t>(shape[a + 1]);
  std::vector<dctx::View<T>> in_views, out_views;
  for (std::size_t k = 0; k < Rotation<T>::kCount; ++k) {
    in_views.emplace_back(bufs.in(k), shape);
    out_views.emplace_back(bufs.out(k), shape);
  }
  bufs.Loop(st, [&](T* x, T* y, std::size_t k) {
    if (call == Call::Pointers)
      p.execute(x, strides.data(), y, strides.data());
    else if (call == Call::ReusedViews)
      p.execute(in_views[k % Rotation<T>::kCount], out_views[k % Rotation<T>::kCount]);
    else
      p.execute(dctx::ConstView<T>(x, shape), dctx::View<T>(y, shape));
  });
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  st.SetLabel(p.describe().substr(0, 40));
}

// Orthonormal scale factors of one axis for DCT-II (forward) / DCT-III input (inverse).
template <class T>
std::vector<T> ortho_factors(std::size_t len, bool inverse) {
  std::vector<T> f(len, static_cast<T>(1.0 / std::sqrt(2.0 * len)));
  f[0] = static_cast<T>(inverse ? 1.0 / std::sqrt(len) : 1.0 / std::sqrt(4.0 * len));
  return f;
}

template <class T>
void BM_fftw_dct(benchmark::State& st, Shape2 shape, bool inverse) {
  using F = Fftw<T>;
  const std::size_t n = total(shape);
  const Rotation<T> bufs(n);
  std::vector<T> in(n);  // the scaled input of the inverse
  std::vector<int> dims(shape.begin(), shape.end());
  std::vector<fftw_r2r_kind> kinds(shape.size(), inverse ? FFTW_REDFT01 : FFTW_REDFT10);
  typename F::plan p;
  {  // (planned on scratch arrays: MEASURE overwrites them; executed on the rotation's)
    const Rotation<T> scratch(n);
    std::lock_guard<std::mutex> lock(g_fftw_mu);
    p = F::r2r(static_cast<int>(dims.size()), dims.data(), scratch.in(0), scratch.out(0),
               kinds.data());
  }
  const auto f0 = ortho_factors<T>(shape[0], inverse);
  const auto f1 = shape.size() > 1 ? ortho_factors<T>(shape[1], inverse) : std::vector<T>{T(1)};
  const std::size_t cols = shape.size() > 1 ? shape[1] : 1;
  // (Out-of-place r2r plans leave their input alone: no copy is needed.)
  bufs.Loop(st, [&](T* x, T* out, std::size_t) {
    if (inverse) {  // scale the input (orthonormal DCT-III), then REDFT01
      for (std::size_t i = 0; i < shape[0]; ++i)
        for (std::size_t j = 0; j < cols; ++j) in[i * cols + j] = x[i * cols + j] * f0[i] * f1[j];
      F::exec_r2r(p, in.data(), out);
    } else {  // REDFT10, then scale the output
      F::exec_r2r(p, x, out);
      for (std::size_t i = 0; i < shape[0]; ++i)
        for (std::size_t j = 0; j < cols; ++j) out[i * cols + j] *= f0[i] * f1[j];
    }
  });
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  F::destroy(p);
}

template <class T>
void BM_fftw_r2c(benchmark::State& st, Shape2 shape, bool) {
  using F = Fftw<T>;
  const std::size_t n = total(shape);
  const Rotation<T> bufs(n);
  const std::size_t nc = n / shape.back() * (shape.back() / 2 + 1);
  typename F::cpx* out[Rotation<T>::kCount];
  for (auto& o : out) {  // (touched here, as Rotation's outputs are)
    o = F::alloc_c(nc);
    std::fill(reinterpret_cast<T*>(o), reinterpret_cast<T*>(o) + 2 * nc, T(0));
  }
  std::vector<int> dims(shape.begin(), shape.end());
  typename F::plan p;
  {  // (out-of-place r2c leaves its input alone: no copy per call)
    const Rotation<T> scratch(n);
    std::lock_guard<std::mutex> lock(g_fftw_mu);
    p = F::r2c(static_cast<int>(dims.size()), dims.data(), scratch.in(0), out[0]);
  }
  bufs.Loop(st, [&](T* x, T*, std::size_t k) {
    F::exec_r2c(p, x, out[k % Rotation<T>::kCount]);
    benchmark::DoNotOptimize(out[k % Rotation<T>::kCount]);
  });
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  F::destroy(p);
  for (auto* o : out) F::free(o);
}

template <class T>
void BM_pocketfft(benchmark::State& st, Shape2 shape, bool inverse) {
  const std::size_t n = total(shape);
  const Rotation<T> bufs(n);
  pocketfft::shape_t sh(shape.begin(), shape.end());
  pocketfft::stride_t stride(shape.size());
  std::ptrdiff_t s = sizeof(T);
  for (std::size_t d = shape.size(); d-- > 0;) {
    stride[d] = s;
    s *= static_cast<std::ptrdiff_t>(shape[d]);
  }
  pocketfft::shape_t axes;
  double fct = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    axes.push_back(d);
    fct /= std::sqrt(2.0 * shape[d]);
  }
  bufs.Loop(st, [&](T* x, T* y, std::size_t) {
    pocketfft::dct<T>(sh, stride, stride, axes, inverse ? 3 : 2, x, y, static_cast<T>(fct), true,
                      1);
  });
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
}

// Whether `out` is the orthonormal 2D DCT-II (or its inverse) of `in` to float32 rounding, by
// dctx's plan: a competitor whose scaling differs is reported, not timed.
[[maybe_unused]] bool is_ortho_dct(const Shape2& shape, bool inverse, const float* in,
                                   const float* out) {
  dctx::PlanDesc d;
  d.shape = shape;
  d.norm = dctx::Norm::Ortho;
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.precision = dctx::Precision::F32;
  std::vector<float> ref(total(shape));
  dctx::Plan(d).execute(dctx::ConstView<float>(in, shape), dctx::View<float>(ref.data(), shape));
  double err = 0, big = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    err = std::fmax(err, std::fabs(double(out[i]) - ref[i]));
    big = std::fmax(big, std::fabs(double(ref[i])));
  }
  return err <= 1e-4 * big;
}

#if defined(DCTX_BENCH_IPP)
// Intel IPP's 2D DCT, ippiDCTFwd_32f_C1R / ippiDCTInv_32f_C1R (orthonormal; IPP's non-"_tl"
// libraries run on the calling thread), its specification and work buffer made once.
void BM_ipp(benchmark::State& st, Shape2 shape, bool inverse) {
  const std::size_t n = total(shape);
  const Rotation<float> bufs(n);
  const IppiSize roi{static_cast<int>(shape[1]), static_cast<int>(shape[0])};
  const int step = static_cast<int>(shape[1] * sizeof(float));
  int spec_bytes = 0, init_bytes = 0, work_bytes = 0;
  IppStatus status = inverse ? ippiDCTInvGetSize_32f(roi, &spec_bytes, &init_bytes, &work_bytes)
                             : ippiDCTFwdGetSize_32f(roi, &spec_bytes, &init_bytes, &work_bytes);
  const auto spec = aligned_array<Ipp8u>(static_cast<std::size_t>(spec_bytes) + 1);
  const auto init = aligned_array<Ipp8u>(static_cast<std::size_t>(init_bytes) + 1);
  const auto work = aligned_array<Ipp8u>(static_cast<std::size_t>(work_bytes) + 1);
  if (status == ippStsNoErr)
    status = inverse ? ippiDCTInvInit_32f(reinterpret_cast<IppiDCTInvSpec_32f*>(spec.get()), roi,
                                          init.get())
                     : ippiDCTFwdInit_32f(reinterpret_cast<IppiDCTFwdSpec_32f*>(spec.get()), roi,
                                          init.get());
  const auto run = [&](const float* x, float* y) {
    return inverse ? ippiDCTInv_32f_C1R(x, step, y, step,
                                        reinterpret_cast<const IppiDCTInvSpec_32f*>(spec.get()),
                                        work.get())
                   : ippiDCTFwd_32f_C1R(x, step, y, step,
                                        reinterpret_cast<const IppiDCTFwdSpec_32f*>(spec.get()),
                                        work.get());
  };
  if (status == ippStsNoErr) status = run(bufs.in(0), bufs.out(0));
  if (status != ippStsNoErr) {
    st.SkipWithError(ippGetStatusString(status));
    return;
  }
  if (!is_ortho_dct(shape, inverse, bufs.in(0), bufs.out(0))) {
    st.SkipWithError("IPP's result is not the orthonormal DCT");
    return;
  }
  bufs.Loop(st, [&](float* x, float* y, std::size_t) { run(x, y); });
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  st.SetLabel(ippiGetLibVersion()->Name);
}
#endif

#if defined(DCTX_BENCH_OPENCV)
// OpenCV's cv::dct of the whole array (orthonormal; even sizes only), on one thread.
void BM_opencv(benchmark::State& st, Shape2 shape, bool inverse) {
  cv::setNumThreads(1);
  const std::size_t n = total(shape);
  const Rotation<float> bufs(n);
  const int rows = static_cast<int>(shape[0]), cols = static_cast<int>(shape[1]);
  const auto run = [&](float* x, float* y) {
    const cv::Mat src(rows, cols, CV_32F, x);
    cv::Mat dst(rows, cols, CV_32F, y);  // (the right size and type: cv::dct writes into it)
    cv::dct(src, dst, inverse ? cv::DCT_INVERSE : 0);
  };
  run(bufs.in(0), bufs.out(0));
  if (!is_ortho_dct(shape, inverse, bufs.in(0), bufs.out(0))) {
    st.SkipWithError("cv::dct's result is not the orthonormal DCT");
    return;
  }
  bufs.Loop(st, [&](float* x, float* y, std::size_t) { run(x, y); });
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
}
#endif

// Batches of short lines: a {lines, n} array transformed along its last axis (orthonormal
// DCT-II, or DCT-III with inverse), e.g. per-frame DCTs of audio features.
template <class T>
void BM_dctx_lines(benchmark::State& st, Shape2 shape, bool inverse, dctx::Algorithm2D algo) {
  const std::size_t n = total(shape);
  const Rotation<T> bufs(n);
  dctx::PlanDesc d;
  d.shape = shape;
  d.axes = {-1};
  d.norm = dctx::Norm::Ortho;
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.precision = std::is_same_v<T, float> ? dctx::Precision::F32 : dctx::Precision::F64;
  d.cpu.algorithm = algo;  // RowColumn: the driver instead of the short-line products
  const dctx::Plan p(d);
  const std::ptrdiff_t strides[2] = {static_cast<std::ptrdiff_t>(shape[1]), 1};
  bufs.Loop(st, [&](T* x, T* y, std::size_t) { p.execute(x, strides, y, strides); });
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  st.SetLabel(p.describe().substr(0, 40));
}

template <class T>
void BM_fftw_lines(benchmark::State& st, Shape2 shape, bool inverse) {
  using F = Fftw<T>;
  const std::size_t n = total(shape), len = shape[1];
  const Rotation<T> bufs(n);
  std::vector<T> in(n);  // the scaled input of the inverse
  typename F::plan p;
  {
    const Rotation<T> scratch(n);
    std::lock_guard<std::mutex> lock(g_fftw_mu);
    p = F::lines(static_cast<int>(len), static_cast<int>(shape[0]), scratch.in(0), scratch.out(0),
                 inverse ? FFTW_REDFT01 : FFTW_REDFT10);
  }
  const auto f = ortho_factors<T>(len, inverse);
  bufs.Loop(st, [&](T* x, T* out, std::size_t) {
    if (inverse) {  // scale the input (orthonormal DCT-III), then REDFT01
      for (std::size_t r = 0; r < n; r += len)
        for (std::size_t k = 0; k < len; ++k) in[r + k] = x[r + k] * f[k];
      F::exec_r2r(p, in.data(), out);
    } else {  // REDFT10, then scale the output
      F::exec_r2r(p, x, out);
      for (std::size_t r = 0; r < n; r += len)
        for (std::size_t k = 0; k < len; ++k) out[r + k] *= f[k];
    }
  });
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  F::destroy(p);
}

template <class T>
void BM_pocketfft_lines(benchmark::State& st, Shape2 shape, bool inverse) {
  const std::size_t n = total(shape);
  const Rotation<T> bufs(n);
  pocketfft::shape_t sh(shape.begin(), shape.end());
  pocketfft::stride_t stride{static_cast<std::ptrdiff_t>(shape[1] * sizeof(T)),
                             static_cast<std::ptrdiff_t>(sizeof(T))};
  const T fct = static_cast<T>(1 / std::sqrt(2.0 * shape[1]));
  bufs.Loop(st, [&](T* x, T* y, std::size_t) {
    pocketfft::dct<T>(sh, stride, stride, {1}, inverse ? 3 : 2, x, y, fct, true, 1);
  });
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
}

std::string shape_name(const Shape2& s) {
  std::string r;
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? "x" : "") + std::to_string(s[i]);
  return r;
}

template <class T>
void register_all(const char* prec) {
  std::vector<Shape2> shapes;
  for (std::size_t n = 8; n <= 4096; n *= 2) shapes.push_back({n});
  for (std::size_t n : {480, 997, 1080}) shapes.push_back({n});
  for (std::size_t n = 8; n <= 4096; n *= 2) shapes.push_back({n, n});
  shapes.push_back({480, 640});
  shapes.push_back({1080, 1920});
  shapes.push_back({997, 997});
  for (const auto& s : shapes)
    for (bool inv : {false, true}) {
      const std::string base = std::string(s.size() == 1 ? "1d/" : "2d/") + prec +
                               (inv ? "/inv/" : "/fwd/") + shape_name(s) + "/";
      benchmark::RegisterBenchmark((base + "dctx").c_str(), BM_dctx<T>, s, inv,
                                   dctx::Algorithm2D::Auto, Call::Views);
      if (s.size() == 2) {
        benchmark::RegisterBenchmark((base + "dctx_rowcol").c_str(), BM_dctx<T>, s, inv,
                                     dctx::Algorithm2D::RowColumn, Call::Views);
        benchmark::RegisterBenchmark((base + "dctx_fused").c_str(), BM_dctx<T>, s, inv,
                                     dctx::Algorithm2D::Fused, Call::Views);
        if (s[0] <= 32) {
          benchmark::RegisterBenchmark((base + "dctx_pointers").c_str(), BM_dctx<T>, s, inv,
                                       dctx::Algorithm2D::Auto, Call::Pointers);
          benchmark::RegisterBenchmark((base + "dctx_reused_views").c_str(), BM_dctx<T>, s, inv,
                                       dctx::Algorithm2D::Auto, Call::ReusedViews);
        }
      }
      if constexpr (std::is_same_v<T, float>) {
        if (s.size() == 2) {
#if defined(DCTX_BENCH_IPP)
          benchmark::RegisterBenchmark((base + "ipp").c_str(), BM_ipp, s, inv);
#endif
#if defined(DCTX_BENCH_OPENCV)
          if (s[0] % 2 == 0 && s[1] % 2 == 0)
            benchmark::RegisterBenchmark((base + "opencv").c_str(), BM_opencv, s, inv);
#endif
        }
      }
      if (s.size() == 1 && s[0] <= 32)
        benchmark::RegisterBenchmark((base + "dctx_pointers").c_str(), BM_dctx<T>, s, inv,
                                     dctx::Algorithm2D::Auto, Call::Pointers);
      benchmark::RegisterBenchmark((base + "pocketfft").c_str(), BM_pocketfft<T>, s, inv);
      benchmark::RegisterBenchmark((base + "fftw_dct").c_str(), BM_fftw_dct<T>, s, inv);
      if (!inv) benchmark::RegisterBenchmark((base + "fftw_r2c").c_str(), BM_fftw_r2c<T>, s, inv);
    }
  // 3D cubes (FFTW's DCT comparison scales two axes only, so it is left out here).
  for (std::size_t n : {128, 256})
    for (bool inv : {false, true}) {
      const Shape2 s{n, n, n};
      const std::string base =
          std::string("3d/") + prec + (inv ? "/inv/" : "/fwd/") + shape_name(s) + "/";
      benchmark::RegisterBenchmark((base + "dctx").c_str(), BM_dctx<T>, s, inv,
                                   dctx::Algorithm2D::Auto, Call::Views);
      benchmark::RegisterBenchmark((base + "pocketfft").c_str(), BM_pocketfft<T>, s, inv);
      if (!inv) benchmark::RegisterBenchmark((base + "fftw_r2c").c_str(), BM_fftw_r2c<T>, s, inv);
    }
  // Batches of lines along the last axis: short ones, and the rows of a 4096 x 1024 array.
  for (const Shape2& s : {Shape2{1000, 4}, Shape2{1000, 8}, Shape2{1000, 13}, Shape2{1000, 16},
                          Shape2{1000, 40}, Shape2{4096, 1024}})
    for (bool inv : {false, true}) {
      const std::string base =
          std::string("lines/") + prec + (inv ? "/inv/" : "/fwd/") + shape_name(s) + "/";
      benchmark::RegisterBenchmark((base + "dctx").c_str(), BM_dctx_lines<T>, s, inv,
                                   dctx::Algorithm2D::Auto);
      benchmark::RegisterBenchmark((base + "dctx_driver").c_str(), BM_dctx_lines<T>, s, inv,
                                   dctx::Algorithm2D::RowColumn);
      benchmark::RegisterBenchmark((base + "pocketfft").c_str(), BM_pocketfft_lines<T>, s, inv);
      benchmark::RegisterBenchmark((base + "fftw_dct").c_str(), BM_fftw_lines<T>, s, inv);
    }
}

}  // namespace

int main(int argc, char** argv) {
#if defined(DCTX_BENCH_IPP)
  ippInit();  // the CPU dispatch (AVX-512 here), once
#endif
  register_all<float>("f32");
  register_all<double>("f64");
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
