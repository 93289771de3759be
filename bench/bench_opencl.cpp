// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL back end against clFFT's 2D real-to-complex FFT of the same shape on the same device
// and queue (the transform the DCT of "A New Acceleration Paradigm for Discrete Cosine Transform
// and Other Fourier-Related Transforms" costs about as much as), float32, interleaved in one
// process: rounds alternate the contenders and the medians of the per-call times are compared.
// Also reported: dctx's host-memory call on OpenCL (copies included) and dctx's CPU back end.
//   bench_opencl [N0xN1 ...]   (default 256x256 512x512 1024x1024 2048x2048 480x640)
#include <clFFT.h>

#include <algorithm>
#include <chrono>
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
  const double est = per_call_us(dctx_device, 2);
  const int reps = std::max(1, static_cast<int>(50000 / std::max(est, 1.0)));
  std::vector<double> a, b, h, p;
  for (int round = 0; round < 7; ++round) {
    a.push_back(per_call_us(dctx_device, reps));
    b.push_back(per_call_us(clfft, reps));
    h.push_back(per_call_us(dctx_host, reps));
    p.push_back(per_call_us(dctx_cpu, reps));
  }
  const double ma = median(a), mb = median(b), mh = median(h), mp = median(p);
  std::printf("| %zux%zu | %.0f | %.0f | %.2fx | %.0f | %.0f |\n", n0, n1, ma, mb, mb / ma, mh, mp);
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
  std::printf(
      "| shape | dctx DCT-II on device (us) | clFFT r2c (us) | dctx speed-up | dctx host call "
      "incl. copies (us) | dctx CPU, 1 thread (us) |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (auto [a, b] : shapes) run(a, b);
  clfftTeardown();
}
