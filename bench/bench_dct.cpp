// SPDX-License-Identifier: BSD-3-Clause
// Whole-array DCT-II (orthonormal, forward and inverse) of dctx beside FFTW's REDFT10/REDFT01
// plans (FFTW_MEASURE, orthonormal scaling pass counted), FFTW's r2c of the same shape, and
// pocketfft's C++ header (the engine of scipy.fft), all in one run. 1D and 2D, float and double.
// Benchmark names: <dim>/<precision>/<fwd|inv>/<shape>/<library>. bench/ratios.py turns the JSON
// output into the table of docs/benchmarks.md.
#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <cmath>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "dctx/dctx.hpp"
#include POCKETFFT_HEADER

namespace {

using Shape2 = std::vector<std::size_t>;

template <class T>
std::vector<T> random_data(std::size_t n) {
  std::mt19937 g(42);
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
  static void exec(plan p) { fftwf_execute(p); }
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
  static void exec(plan p) { fftw_execute(p); }
  static void destroy(plan p) { fftw_destroy_plan(p); }
  static cpx* alloc_c(std::size_t n) { return fftw_alloc_complex(n); }
  static void free(void* p) { fftw_free(p); }
};

std::mutex g_fftw_mu;  // FFTW's planner is not thread-safe

template <class T>
void BM_dctx(benchmark::State& st, Shape2 shape, bool inverse, dctx::Algorithm2D algo,
             bool pointers) {
  const std::size_t n = total(shape);
  auto x = random_data<T>(n);
  std::vector<T> y(n);
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
  for (auto _ : st) {
    if (pointers)
      p.execute(x.data(), strides.data(), y.data(), strides.data());
    else
      p.execute(dctx::ConstView<T>(x.data(), shape), dctx::View<T>(y.data(), shape));
    benchmark::DoNotOptimize(y.data());
  }
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
  auto x = random_data<T>(n);
  std::vector<T> in(n), out(n);
  std::vector<int> dims(shape.begin(), shape.end());
  std::vector<fftw_r2r_kind> kinds(shape.size(), inverse ? FFTW_REDFT01 : FFTW_REDFT10);
  typename F::plan p;
  {
    std::lock_guard<std::mutex> lock(g_fftw_mu);
    p = F::r2r(static_cast<int>(dims.size()), dims.data(), in.data(), out.data(), kinds.data());
  }
  const auto f0 = ortho_factors<T>(shape[0], inverse);
  const auto f1 = shape.size() > 1 ? ortho_factors<T>(shape[1], inverse) : std::vector<T>{T(1)};
  const std::size_t cols = shape.size() > 1 ? shape[1] : 1;
  for (auto _ : st) {
    if (inverse) {  // scale the input (orthonormal DCT-III), then REDFT01
      for (std::size_t i = 0; i < shape[0]; ++i)
        for (std::size_t j = 0; j < cols; ++j) in[i * cols + j] = x[i * cols + j] * f0[i] * f1[j];
      F::exec(p);
    } else {  // REDFT10, then scale the output
      std::copy(x.begin(), x.end(), in.begin());
      F::exec(p);
      for (std::size_t i = 0; i < shape[0]; ++i)
        for (std::size_t j = 0; j < cols; ++j) out[i * cols + j] *= f0[i] * f1[j];
    }
    benchmark::DoNotOptimize(out.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  F::destroy(p);
}

template <class T>
void BM_fftw_r2c(benchmark::State& st, Shape2 shape, bool) {
  using F = Fftw<T>;
  const std::size_t n = total(shape);
  auto x = random_data<T>(n);
  std::vector<T> in(n);
  const std::size_t nc = n / shape.back() * (shape.back() / 2 + 1);
  auto* out = F::alloc_c(nc);
  std::vector<int> dims(shape.begin(), shape.end());
  typename F::plan p;
  {
    std::lock_guard<std::mutex> lock(g_fftw_mu);
    p = F::r2c(static_cast<int>(dims.size()), dims.data(), in.data(), out);
  }
  for (auto _ : st) {
    std::copy(x.begin(), x.end(), in.begin());
    F::exec(p);
    benchmark::DoNotOptimize(out);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  F::destroy(p);
  F::free(out);
}

template <class T>
void BM_pocketfft(benchmark::State& st, Shape2 shape, bool inverse) {
  const std::size_t n = total(shape);
  auto x = random_data<T>(n);
  std::vector<T> y(n);
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
  for (auto _ : st) {
    pocketfft::dct<T>(sh, stride, stride, axes, inverse ? 3 : 2, x.data(), y.data(),
                      static_cast<T>(fct), true, 1);
    benchmark::DoNotOptimize(y.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
}

// Batches of short lines: a {lines, n} array transformed along its last axis (orthonormal
// DCT-II, or DCT-III with inverse), e.g. per-frame DCTs of audio features.
template <class T>
void BM_dctx_lines(benchmark::State& st, Shape2 shape, bool inverse, dctx::Algorithm2D algo) {
  const std::size_t n = total(shape);
  auto x = random_data<T>(n);
  std::vector<T> y(n);
  dctx::PlanDesc d;
  d.shape = shape;
  d.axes = {-1};
  d.norm = dctx::Norm::Ortho;
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.precision = std::is_same_v<T, float> ? dctx::Precision::F32 : dctx::Precision::F64;
  d.cpu.algorithm = algo;  // RowColumn: the driver instead of the short-line products
  const dctx::Plan p(d);
  const std::ptrdiff_t strides[2] = {static_cast<std::ptrdiff_t>(shape[1]), 1};
  for (auto _ : st) {
    p.execute(x.data(), strides, y.data(), strides);
    benchmark::DoNotOptimize(y.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  st.SetLabel(p.describe().substr(0, 40));
}

template <class T>
void BM_fftw_lines(benchmark::State& st, Shape2 shape, bool inverse) {
  using F = Fftw<T>;
  const std::size_t n = total(shape), len = shape[1];
  auto x = random_data<T>(n);
  std::vector<T> in(n), out(n);
  typename F::plan p;
  {
    std::lock_guard<std::mutex> lock(g_fftw_mu);
    p = F::lines(static_cast<int>(len), static_cast<int>(shape[0]), in.data(), out.data(),
                 inverse ? FFTW_REDFT01 : FFTW_REDFT10);
  }
  const auto f = ortho_factors<T>(len, inverse);
  for (auto _ : st) {
    if (inverse) {  // scale the input (orthonormal DCT-III), then REDFT01
      for (std::size_t r = 0; r < n; r += len)
        for (std::size_t k = 0; k < len; ++k) in[r + k] = x[r + k] * f[k];
      F::exec(p);
    } else {  // REDFT10, then scale the output
      std::copy(x.begin(), x.end(), in.begin());
      F::exec(p);
      for (std::size_t r = 0; r < n; r += len)
        for (std::size_t k = 0; k < len; ++k) out[r + k] *= f[k];
    }
    benchmark::DoNotOptimize(out.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(n));
  F::destroy(p);
}

template <class T>
void BM_pocketfft_lines(benchmark::State& st, Shape2 shape, bool inverse) {
  const std::size_t n = total(shape);
  auto x = random_data<T>(n);
  std::vector<T> y(n);
  pocketfft::shape_t sh(shape.begin(), shape.end());
  pocketfft::stride_t stride{static_cast<std::ptrdiff_t>(shape[1] * sizeof(T)),
                             static_cast<std::ptrdiff_t>(sizeof(T))};
  const T fct = static_cast<T>(1 / std::sqrt(2.0 * shape[1]));
  for (auto _ : st) {
    pocketfft::dct<T>(sh, stride, stride, {1}, inverse ? 3 : 2, x.data(), y.data(), fct, true, 1);
    benchmark::DoNotOptimize(y.data());
  }
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
                                   dctx::Algorithm2D::Auto, false);
      if (s.size() == 2) {
        benchmark::RegisterBenchmark((base + "dctx_rowcol").c_str(), BM_dctx<T>, s, inv,
                                     dctx::Algorithm2D::RowColumn, false);
        benchmark::RegisterBenchmark((base + "dctx_fused").c_str(), BM_dctx<T>, s, inv,
                                     dctx::Algorithm2D::Fused, false);
        if (s[0] <= 32)
          benchmark::RegisterBenchmark((base + "dctx_pointers").c_str(), BM_dctx<T>, s, inv,
                                       dctx::Algorithm2D::Auto, true);
      }
      if (s.size() == 1 && s[0] <= 32)
        benchmark::RegisterBenchmark((base + "dctx_pointers").c_str(), BM_dctx<T>, s, inv,
                                     dctx::Algorithm2D::Auto, true);
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
                                   dctx::Algorithm2D::Auto, false);
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
  register_all<float>("f32");
  register_all<double>("f64");
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
