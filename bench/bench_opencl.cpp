// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL back end against clFFT's 2D real-to-complex FFT of the same shape on the same device
// and queue (the transform the DCT of "A New Acceleration Paradigm for Discrete Cosine Transform
// and Other Fourier-Related Transforms" costs about as much as), float32, interleaved in one
// process: rounds alternate the contenders and the medians of the per-call times are compared.
// Also reported: dctx's host-memory call on OpenCL (copies included) and dctx's CPU back end.
// With DCTX_BENCH_VKFFT (vkFFT.h found), two more contenders on the same context, queue and input
// buffer: VkFFT's 2D R2C and its 2D DCT-II (VkFFT's OpenCL back end, VKFFT_BACKEND 3: kernels
// compiled at run time by the OpenCL driver, nothing but OpenCL linked). VkFFT: Dmitrii
// Tolmachev, "VkFFT - A Performant, Cross-Platform and Open-Source GPU FFT Library", IEEE Access
// 2023. Once per shape, VkFFT's DCT-II (not normalised) is checked against a dctx plan of norm
// backward (scipy's 2 sum x cos(...) per axis): the factor between them is fitted (found: 1, so
// VkFFT keeps the 2 per axis, as FFTW's REDFT10) and the max difference after rescaling, relative
// to the largest output, goes to stderr.
//   bench_opencl [N0xN1 ...]   (default 256x256 512x512 1024x1024 2048x2048 480x640)
#define CL_TARGET_OPENCL_VERSION 120
#include <clFFT.h>
#ifdef DCTX_BENCH_VKFFT
#define VKFFT_BACKEND 3
// A system header here, so quiet anyway; were it not: 46 unused parameters, clCreateCommandQueue.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <vkFFT.h>
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "dctx/dctx.hpp"
#include "dctx/opencl.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void cl_ok(cl_int e, const char* what) {
  if (e != CL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, e);
    std::exit(1);
  }
}

template <class F>
double per_call_us(F&& f, int reps) {
  const auto t0 = Clock::now();
  for (int i = 0; i < reps; ++i) f();
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / reps;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

#ifdef DCTX_BENCH_VKFFT
void vk_ok(VkFFTResult e, const char* what) {
  if (e != VKFFT_SUCCESS) {
    std::fprintf(stderr, "%s failed: VkFFT error %d\n", what, static_cast<int>(e));
    std::exit(1);
  }
}

// A forward VkFFT plan of the row-major n0 x n1 array: VkFFT's size[0] is the contiguous axis.
// Out of place: `in` (n0 x n1 floats, unpadded: isInputFormatted) is read, `out` written: the
// R2C's n0 x (n1/2+1) complex spectrum or the DCT-II's n0 x n1 floats. The pointers the
// configuration holds (device, context, buffers, sizes) must outlive the application.
struct VkPlan {
  VkFFTApplication app = {};
  cl_device_id device;
  cl_context context;
  cl_mem in, out;
  uint64_t in_bytes, out_bytes;
  VkPlan(const dctx::opencl::Context& c, std::size_t n0, std::size_t n1, cl_mem i, cl_mem o,
         bool dct)
      : device(c.device),
        context(c.context),
        in(i),
        out(o),
        in_bytes(n0 * n1 * 4),
        out_bytes(dct ? n0 * n1 * 4 : n0 * (n1 / 2 + 1) * 8) {
    VkFFTConfiguration cfg = {};
    cfg.FFTdim = 2;
    cfg.size[0] = n1;
    cfg.size[1] = n0;
    cfg.device = &device;
    cfg.context = &context;
    if (dct)
      cfg.performDCT = 2;
    else
      cfg.performR2C = 1;
    cfg.isInputFormatted = 1;
    cfg.inputBufferStride[0] = n1;  // R2C's default is n1 + 2 (padded for in place)
    cfg.inputBufferStride[1] = n0 * n1;
    cfg.inputBuffer = &in;
    cfg.inputBufferSize = &in_bytes;
    cfg.buffer = &out;
    cfg.bufferSize = &out_bytes;
    cfg.makeForwardPlanOnly = 1;
    vk_ok(initializeVkFFT(&app, cfg), "initializeVkFFT");
  }
  ~VkPlan() { deleteVkFFT(&app); }
  VkPlan(const VkPlan&) = delete;
  VkPlan& operator=(const VkPlan&) = delete;
  void operator()(cl_command_queue q) {
    VkFFTLaunchParams lp = {};
    lp.commandQueue = &q;
    lp.inputBuffer = &in;
    lp.buffer = &out;
    vk_ok(VkFFTAppend(&app, -1, &lp), "VkFFTAppend");  // -1: forward
    clFinish(q);
  }
};

std::vector<float> read(cl_command_queue q, cl_mem m, std::size_t n) {
  std::vector<float> v(n);
  cl_ok(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * 4, v.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  return v;
}

// VkFFT's DCT-II against dctx's of norm backward on the same input: the least-squares factor
// dctx / VkFFT and max |dctx - factor VkFFT| / max |dctx| to stderr; also that `in` survived.
void check_dct(const dctx::PlanDesc& d, cl_mem in, cl_mem out, VkPlan& vk, cl_command_queue q,
               const std::vector<float>& host) {
  dctx::PlanDesc b = d;
  b.norm = dctx::Norm::Backward;
  const dctx::Plan ref(b);
  const std::size_t n = host.size();
  dctx::opencl::execute(ref, {in, 0, {}}, {out, 0, {}}, q);
  const std::vector<float> x = read(q, out, n);
  const float nan = NAN;  // what VkFFT leaves unwritten turns the factor NaN
  cl_ok(clEnqueueFillBuffer(q, out, &nan, 4, 0, n * 4, 0, nullptr, nullptr), "clEnqueueFillBuffer");
  vk(q);
  const std::vector<float> y = read(q, out, n);
  double xy = 0, yy = 0, big = 0, diff = 0;
  for (std::size_t i = 0; i < n; ++i) {
    xy += double(x[i]) * y[i];
    yy += double(y[i]) * y[i];
    big = std::max(big, std::abs(double(x[i])));
  }
  const double f = xy / yy;
  for (std::size_t i = 0; i < n; ++i) diff = std::max(diff, std::abs(x[i] - f * y[i]));
  const bool intact = read(q, in, n) == host;
  std::fprintf(stderr, "check %zux%zu: dctx(backward) = %.6f x VkFFT DCT-II, max rel diff %.2e%s\n",
               d.shape[0], d.shape[1], f, diff / big, intact ? "" : ", INPUT OVERWRITTEN");
}
#endif

void run(std::size_t n0, std::size_t n1) {
  dctx::PlanDesc d;
  d.shape = {n0, n1};
  d.precision = dctx::Precision::F32;
  d.norm = dctx::Norm::Ortho;
  d.backend = dctx::BackendKind::OpenCL;
  const dctx::Plan plan(d);
  dctx::PlanDesc c = d;
  c.backend = dctx::BackendKind::CPU;
  const dctx::Plan cpu(c);
  const dctx::opencl::Context ctx = dctx::opencl::context(plan);
  const std::size_t n = n0 * n1, nh = n0 * (n1 / 2 + 1);
  std::vector<float> host(n), back(n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  for (float& v : host) v = u(rng);
  cl_int err = CL_SUCCESS;
  cl_mem in = clCreateBuffer(ctx.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4,
                             host.data(), &err);
  cl_ok(err, "clCreateBuffer");
  cl_mem out = clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
  cl_mem spec = clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, nh * 8, nullptr, &err);
  cl_ok(err, "clCreateBuffer");

  clfftPlanHandle fp;
  std::size_t lengths[2] = {n1, n0};
  cl_ok(clfftCreateDefaultPlan(&fp, ctx.context, CLFFT_2D, lengths), "clfftCreateDefaultPlan");
  clfftSetPlanPrecision(fp, CLFFT_SINGLE);
  clfftSetLayout(fp, CLFFT_REAL, CLFFT_HERMITIAN_INTERLEAVED);
  clfftSetResultLocation(fp, CLFFT_OUTOFPLACE);
  std::size_t is[2] = {1, n1}, os[2] = {1, n1 / 2 + 1};
  clfftSetPlanInStride(fp, CLFFT_2D, is);
  clfftSetPlanOutStride(fp, CLFFT_2D, os);
  clfftSetPlanDistance(fp, n, nh);
  cl_command_queue q = ctx.queue;
  cl_ok(clfftBakePlan(fp, 1, &q, nullptr, nullptr), "clfftBakePlan");
  std::size_t tmp_bytes = 0;
  clfftGetTmpBufSize(fp, &tmp_bytes);
  cl_mem tmp = tmp_bytes ? clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, tmp_bytes, nullptr, &err)
                         : nullptr;
#ifdef DCTX_BENCH_VKFFT
  cl_mem vspec = clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, nh * 8, nullptr, &err);
  cl_ok(err, "clCreateBuffer");
  cl_mem vout = clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
  cl_ok(err, "clCreateBuffer");
  VkPlan vk_r2c(ctx, n0, n1, in, vspec, false), vk_dct(ctx, n0, n1, in, vout, true);
  check_dct(d, in, vout, vk_dct, q, host);
#endif

  const auto dctx_device = [&] {
    dctx::opencl::execute(plan, {in, 0, {}}, {out, 0, {}}, q);
    clFinish(q);
  };
  const auto clfft = [&] {
    cl_ok(clfftEnqueueTransform(fp, CLFFT_FORWARD, 1, &q, 0, nullptr, nullptr, &in, &spec, tmp),
          "clfftEnqueueTransform");
    clFinish(q);
  };
  const auto dctx_host = [&] {
    plan.execute(dctx::ConstView<float>(host.data(), d.shape),
                 dctx::View<float>(back.data(), d.shape));
  };
  const auto dctx_cpu = [&] {
    cpu.execute(dctx::ConstView<float>(host.data(), d.shape),
                dctx::View<float>(back.data(), d.shape));
  };
  // Warm up (program builds, clFFT's kernel compiles), then pick repetitions for ~50 ms a round.
  dctx_device();
  clfft();
  dctx_host();
  dctx_cpu();
#ifdef DCTX_BENCH_VKFFT
  vk_r2c(q);
  vk_dct(q);
#endif
  const double est = per_call_us(dctx_device, 2);
  const int reps = std::max(1, static_cast<int>(50000 / std::max(est, 1.0)));
  std::vector<double> a, b, h, p, vr, vd;
  for (int round = 0; round < 7; ++round) {
    a.push_back(per_call_us(dctx_device, reps));
    b.push_back(per_call_us(clfft, reps));
#ifdef DCTX_BENCH_VKFFT
    vr.push_back(per_call_us([&] { vk_r2c(q); }, reps));
    vd.push_back(per_call_us([&] { vk_dct(q); }, reps));
#endif
    h.push_back(per_call_us(dctx_host, reps));
    p.push_back(per_call_us(dctx_cpu, reps));
  }
  const double ma = median(a), mb = median(b), mh = median(h), mp = median(p);
  std::printf("| %zux%zu | %.0f | %.0f | %.2fx |", n0, n1, ma, mb, mb / ma);
#ifdef DCTX_BENCH_VKFFT
  const double mvr = median(vr), mvd = median(vd);
  std::printf(" %.0f | %.0f | %.2fx |", mvr, mvd, mvd / ma);
  clReleaseMemObject(vspec);
  clReleaseMemObject(vout);
#endif
  std::printf(" %.0f | %.0f |\n", mh, mp);
  std::fflush(stdout);
  clfftDestroyPlan(&fp);
  if (tmp) clReleaseMemObject(tmp);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseMemObject(spec);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  for (int i = 1; i < argc; ++i) {
    std::size_t a = 0, b = 0;
    if (std::sscanf(argv[i], "%zux%zu", &a, &b) != 2 || !a || !b) {
      std::fprintf(stderr, "bench_opencl: shapes are N0xN1, not '%s'\n", argv[i]);
      return 2;
    }
    shapes.emplace_back(a, b);
  }
  if (shapes.empty()) shapes = {{256, 256}, {512, 512}, {1024, 1024}, {2048, 2048}, {480, 640}};
  clfftSetupData setup;
  cl_ok(clfftInitSetupData(&setup), "clfftInitSetupData");
  cl_ok(clfftSetup(&setup), "clfftSetup");
  const auto ctx = dctx::opencl::context();
  std::printf("device: %s (%s)\n\n", ctx.info.name.c_str(), ctx.info.version.c_str());
  std::printf("| shape | dctx DCT-II on device (us) | clFFT r2c (us) | dctx speed-up |");
#ifdef DCTX_BENCH_VKFFT
  std::printf(" VkFFT r2c (us) | VkFFT DCT-II (us) | dctx vs VkFFT DCT-II |");
#endif
  std::printf(" dctx host call incl. copies (us) | dctx CPU, 1 thread (us) |\n|---|---|---|---|");
#ifdef DCTX_BENCH_VKFFT
  std::printf("---|---|---|");
#endif
  std::printf("---|---|\n");
  for (auto [a, b] : shapes) run(a, b);
  clfftTeardown();
}
