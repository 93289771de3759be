// SPDX-License-Identifier: BSD-3-Clause
// The CUDA back end's benchmark (scripts/gpu-check.sh runs it): GPU-time medians from CUDA events
// of dctx's fused 2D DCT-II and its inverse (orthonormal), float32 and float64, and of the mixed
// transforms IDCT_IDXST and IDXST_IDCT, each beside cuFFT's R2C (or C2R) of the same shape measured
// in the same run, and a device-to-device copy of the same bytes; DREAMPlace's electrostatic step
// on device arrays against one DCT-II of its grid; the 8x8 block kernels over an
// 8192 x 8192 plane (float32, and uint8 for the round trip) in both layouts (the whitepaper's
// shared-memory tiles, one block per thread) against a copy of the same bytes. Buffers rotate so
// that each
// timed call reads an array the L2 does not hold. Prints one table; no GoogleTest, no FFTW.
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cuda/fused_kernels.hpp"
#include "cuda/fused_tables.hpp"
#include "dctx/cuda.hpp"
#include "dctx/dctx.hpp"
#ifdef DCTX_CUDA_BLOCK8
#include "cuda/block8_kernels.hpp"
#include "cuda/block8_tables.hpp"
#endif

namespace {

void ok(cudaError_t s, const char* what) {
  if (s != cudaSuccess) {
    std::fprintf(stderr, "bench_cuda: %s: %s\n", what, cudaGetErrorString(s));
    std::exit(1);
  }
}
void ok(cufftResult s, const char* what) {
  if (s != CUFFT_SUCCESS) {
    std::fprintf(stderr, "bench_cuda: %s: cuFFT status %d\n", what, static_cast<int>(s));
    std::exit(1);
  }
}

constexpr int kReps = 15;
constexpr std::size_t kRotateBytes = std::size_t{400} << 20;  // several times the 50-60 MB L2

// Median GPU time in ms of run(i) over kReps calls (after two warm-ups), i the rotation index.
double median_ms(const std::function<void(int)>& run) {
  cudaEvent_t a, b;
  ok(cudaEventCreate(&a), "cudaEventCreate");
  ok(cudaEventCreate(&b), "cudaEventCreate");
  run(0);
  run(1);
  std::vector<float> t;
  for (int r = 0; r < kReps; ++r) {
    ok(cudaEventRecord(a), "cudaEventRecord");
    run(r + 2);
    ok(cudaEventRecord(b), "cudaEventRecord");
    ok(cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    ok(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Buffers {
  std::vector<void*> in, out;
  explicit Buffers(std::size_t bytes, std::size_t complex_bytes) {
    const std::size_t count = std::max<std::size_t>(2, kRotateBytes / bytes);
    for (std::size_t i = 0; i < count; ++i) {
      void *x = nullptr, *y = nullptr;
      ok(cudaMalloc(&x, bytes), "cudaMalloc");
      ok(cudaMalloc(&y, std::max(bytes, complex_bytes)), "cudaMalloc");
      ok(cudaMemset(x, 0x3c, bytes), "cudaMemset");  // finite, non-zero values
      in.push_back(x);
      out.push_back(y);
    }
  }
  ~Buffers() {
    for (void* p : in) cudaFree(p);
    for (void* p : out) cudaFree(p);
  }
  void* at_in(int i) const { return in[static_cast<std::size_t>(i) % in.size()]; }
  void* at_out(int i) const { return out[static_cast<std::size_t>(i) % out.size()]; }
};

template <class T>
void row(const char* label, std::size_t n1, std::size_t n2, dctx::Direction dir,
         std::vector<dctx::AxisTransform> tr = {}) {
  const bool f32 = sizeof(T) == 4;
  dctx::PlanDesc d{.shape = {n1, n2},
                   .transforms = tr,
                   .precision = f32 ? dctx::Precision::F32 : dctx::Precision::F64,
                   .norm = dctx::Norm::Ortho,
                   .direction = dir,
                   .backend = dctx::BackendKind::CUDA};
  const dctx::Plan plan(d);
  const std::size_t bytes = n1 * n2 * sizeof(T), cbytes = n1 * (n2 / 2 + 1) * 2 * sizeof(T);
  Buffers buf(bytes, cbytes);
  void* ws = nullptr;
  ok(cudaMalloc(&ws, plan.workspace_bytes()), "cudaMalloc (workspace)");
  const double dct = median_ms([&](int i) {
    dctx::cuda::execute(plan,
                        dctx::cuda::DeviceView<const T>{static_cast<const T*>(buf.at_in(i)), {}},
                        dctx::cuda::DeviceView<T>{static_cast<T*>(buf.at_out(i)), {}}, nullptr, ws,
                        plan.workspace_bytes());
  });
  cufftHandle h;
  const bool fwd = dir == dctx::Direction::Forward;
  const cufftType type = f32 ? (fwd ? CUFFT_R2C : CUFFT_C2R) : (fwd ? CUFFT_D2Z : CUFFT_Z2D);
  ok(cufftPlan2d(&h, static_cast<int>(n1), static_cast<int>(n2), type), "cufftPlan2d");
  const double fft = median_ms([&](int i) {
    void* x = buf.at_in(i);
    void* y = buf.at_out(i);
    if (f32 && fwd)
      ok(cufftExecR2C(h, static_cast<float*>(x), static_cast<cufftComplex*>(y)), "R2C");
    if (f32 && !fwd)
      ok(cufftExecC2R(h, static_cast<cufftComplex*>(y), static_cast<float*>(x)), "C2R");
    if (!f32 && fwd)
      ok(cufftExecD2Z(h, static_cast<double*>(x), static_cast<cufftDoubleComplex*>(y)), "D2Z");
    if (!f32 && !fwd)
      ok(cufftExecZ2D(h, static_cast<cufftDoubleComplex*>(y), static_cast<double*>(x)), "Z2D");
  });
  cufftDestroy(h);
  const double copy = median_ms([&](int i) {
    ok(cudaMemcpyAsync(buf.at_out(i), buf.at_in(i), bytes, cudaMemcpyDeviceToDevice), "copy");
  });
  cudaFree(ws);
  std::printf("%-12s %5zux%-5zu %-7s %-4s %10.1f %10.1f %7.2f %10.1f\n", label, n1, n2,
              fwd ? "forward" : "inverse", f32 ? "f32" : "f64", dct * 1e3, fft * 1e3, dct / fft,
              copy * 1e3);
}

// The fused route's stages timed apart (float32, C order, forward and inverse): the reorder and
// rotation kernels of a plan, each beside a copy of the bytes it must move, so the table shows
// where a 2D DCT's time over cuFFT's goes.
void stage_rows(std::size_t n1, std::size_t n2) {
  namespace cm = dctx::cuda_math;
  for (dctx::Direction dir : {dctx::Direction::Forward, dctx::Direction::Inverse}) {
    dctx::PlanDesc d{.shape = {n1, n2}, .norm = dctx::Norm::Ortho, .direction = dir};
    d = dctx::normalize(d);
    const cm::FusedLayout L = cm::fused_layout(d);
    std::vector<cm::Cx<float>> rot_h;
    std::vector<float> weight_h;
    std::size_t rot_at[3], weight_at[3];
    for (int j = 0; j < 3; ++j) {
      rot_at[j] = rot_h.size();
      for (auto z : L.axis[j].rot)
        rot_h.push_back({static_cast<float>(z.real()), static_cast<float>(z.imag())});
      weight_at[j] = weight_h.size();
      for (double w : L.axis[j].weight) weight_h.push_back(static_cast<float>(w));
    }
    void *rot_d = nullptr, *weight_d = nullptr;
    ok(cudaMalloc(&rot_d, rot_h.size() * sizeof(rot_h[0])), "cudaMalloc");
    ok(cudaMalloc(&weight_d, weight_h.size() * sizeof(float)), "cudaMalloc");
    ok(cudaMemcpy(rot_d, rot_h.data(), rot_h.size() * sizeof(rot_h[0]), cudaMemcpyHostToDevice),
       "cudaMemcpy");
    ok(cudaMemcpy(weight_d, weight_h.data(), weight_h.size() * sizeof(float),
                  cudaMemcpyHostToDevice),
       "cudaMemcpy");
    const cm::Cx<float>* rot[3];
    const float* weight[3];
    for (int j = 0; j < 3; ++j) {
      rot[j] = static_cast<const cm::Cx<float>*>(rot_d) + rot_at[j];
      weight[j] = static_cast<const float*>(weight_d) + weight_at[j];
    }
    const std::ptrdiff_t strides[2] = {static_cast<std::ptrdiff_t>(n2), 1};
    const cm::FusedGeometry<float> g =
        cm::fused_geometry<float>(L, rot, weight, strides, strides, d.shape);
    const std::size_t bytes = n1 * n2 * sizeof(float), cbytes = n1 * (n2 / 2 + 1) * 8;
    Buffers buf(std::max(bytes, cbytes), std::max(bytes, cbytes));
    const bool fwd = dir == dctx::Direction::Forward;
    const double copy = median_ms([&](int i) {
      ok(cudaMemcpyAsync(buf.at_out(i), buf.at_in(i), bytes, cudaMemcpyDeviceToDevice), "copy");
    });
    // per: the items of a row each thread takes (0: the library's default, 8; 4 beside it).
    for (int per : {0, 4}) {
      const double reorder = median_ms([&](int i) {
        auto* x = static_cast<float*>(buf.at_in(i));
        auto* y = static_cast<float*>(buf.at_out(i));
        if (fwd)
          dctx::cu::launch_reorder<float>(g, x, y, nullptr, per);
        else
          dctx::cu::launch_reorder_back<float>(g, x, y, nullptr, per);
      });
      const double rotation = median_ms([&](int i) {
        auto* x = static_cast<float*>(buf.at_in(i));
        auto* V = static_cast<cm::Cx<float>*>(buf.at_out(i));
        if (fwd)
          dctx::cu::launch_forward_rotation<float>(g, V, x, nullptr, per);
        else
          dctx::cu::launch_inverse_rotation<float>(g, x, V, nullptr, per);
      });
      ok(cudaGetLastError(), "the stage kernels");
      const std::string suffix = per > 0   ? "_per" + std::to_string(per)
                                 : per < 0 ? "_phased" + std::to_string(-per)
                                           : "";
      for (const auto& [name, ms] :
           {std::pair{"stage_reorder", reorder}, {"stage_rotation", rotation}})
        std::printf("%-12s %5zux%-5zu %-7s %-4s %10.1f %10s %7.2f %10.1f\n",
                    (name + suffix).c_str(), n1, n2, fwd ? "forward" : "inverse", "f32", ms * 1e3,
                    "copy", ms / copy, copy * 1e3);
    }
    cudaFree(rot_d);
    cudaFree(weight_d);
  }
}

// One electrostatic step of DREAMPlace on device arrays (potential, fields, energy; and the
// fields alone) against one dctx 2D DCT-II of the same grid (unnormalised, as the step's), both
// timed in this run: the spectral-applications issue asks for a step within 2.5 such DCTs.
template <class T>
void electro_rows(std::size_t n) {
  const bool f32 = sizeof(T) == 4;
  const dctx::Precision prec = f32 ? dctx::Precision::F32 : dctx::Precision::F64;
  const dctx::ElectrostaticSystem sys(
      {.shape = {n, n}, .precision = prec, .backend = dctx::BackendKind::CUDA});
  const std::size_t bytes = n * n * sizeof(T);
  Buffers rho(bytes, bytes), fields(bytes, bytes), pot(bytes, bytes);
  double* energy = nullptr;
  ok(cudaMalloc(reinterpret_cast<void**>(&energy), sizeof(double)), "cudaMalloc");
  const auto at = [](const Buffers& b, int i, bool second) {
    return static_cast<T*>(second ? b.at_out(i) : b.at_in(i));
  };
  const double step = median_ms([&](int i) {
    dctx::cuda::electrostatics(sys, {at(rho, i, false), {}}, {at(pot, i, false), {}},
                               {at(fields, i, false), {}}, {at(fields, i, true), {}}, energy);
  });
  const double only_fields = median_ms([&](int i) {
    dctx::cuda::electrostatics(sys, {at(rho, i, false), {}}, {nullptr, {}},
                               {at(fields, i, false), {}}, {at(fields, i, true), {}}, energy);
  });
  const dctx::Plan dct(dctx::PlanDesc{.shape = {n, n},
                                      .precision = prec,
                                      .orthogonalize = false,
                                      .backend = dctx::BackendKind::CUDA});
  const double one = median_ms([&](int i) {
    dctx::cuda::execute(dct, dctx::cuda::DeviceView<const T>{at(rho, i, false), {}},
                        dctx::cuda::DeviceView<T>{at(fields, i, false), {}});
  });
  for (const auto& [kind, ms] : {std::pair{"step", step}, std::pair{"fields", only_fields}})
    std::printf("%-12s %5zux%-5zu %-7s %-4s %10.1f %10.1f %7.2f %10s\n", "electro", n, n, kind,
                f32 ? "f32" : "f64", ms * 1e3, one * 1e3, ms / one, "dct");
  cudaFree(energy);
}

#ifdef DCTX_CUDA_BLOCK8
// The 8x8 block kernels over an 8192 x 8192 float plane, device to device, against a copy of the
// same bytes: the share of copy bandwidth each reaches.
void block8_rows() {
  namespace b8 = dctx::cuda_math::b8;
  const int n = 8192;
  const std::size_t bytes = std::size_t(n) * n * sizeof(float);
  Buffers buf(bytes, bytes);
  unsigned long long* counts = nullptr;
  ok(cudaMalloc(reinterpret_cast<void**>(&counts), 16), "cudaMalloc");
  const b8::PlaneGeometry g{0, std::int64_t(n) * n, n, 1, n, n};
  const double copy = median_ms([&](int i) {
    ok(cudaMemcpyAsync(buf.at_out(i), buf.at_in(i), bytes, cudaMemcpyDeviceToDevice), "copy");
  });
  struct Row {
    const char* name;
    dctx::Block8Op op;
    dctx::Block8Kernel kernel;
    int layout;
  };
  // _tile: the whitepaper's shared-memory tiles (what plans run); _reg: one block per thread.
  const Row rows[] = {
      {"8x8_fwd_tile", dctx::Block8Op::Forward, dctx::Block8Kernel::Fast, b8::kTiles},
      {"8x8_fwd_reg", dctx::Block8Op::Forward, dctx::Block8Kernel::Fast, b8::kRegisters},
      {"8x8_inv_tile", dctx::Block8Op::Inverse, dctx::Block8Kernel::Fast, b8::kTiles},
      {"8x8_inv_reg", dctx::Block8Op::Inverse, dctx::Block8Kernel::Fast, b8::kRegisters},
      {"8x8_jpeg_tile", dctx::Block8Op::Roundtrip, dctx::Block8Kernel::Fast, b8::kTiles},
      {"8x8_jpeg_reg", dctx::Block8Op::Roundtrip, dctx::Block8Kernel::Fast, b8::kRegisters},
      {"8x8_ref_tile", dctx::Block8Op::Forward, dctx::Block8Kernel::Reference, b8::kTiles},
      {"8x8_ref_reg", dctx::Block8Op::Forward, dctx::Block8Kernel::Reference, b8::kRegisters}};
  for (const Row& r : rows) {
    dctx::Block8PlanDesc d{.op = r.op, .kernel = r.kernel};
    if (r.op == dctx::Block8Op::Roundtrip) d.table = dctx::quant_table_nvidia();
    const b8::Tables t = b8::make_tables(d);
    const int kernel = r.kernel == dctx::Block8Kernel::Reference ? b8::kReference : b8::kFast;
    const double ms = median_ms([&](int i) {
      dctx::cu::launch_block8(t, kernel, r.layout, false, static_cast<int>(r.op), buf.at_in(i),
                              b8::kF32, g, buf.at_out(i), b8::kF32, g, 1, n, n, counts, nullptr);
    });
    std::printf("%-13s %4dx%-5d %-7s %-4s %10.1f %10s %7.2f %10.1f\n", r.name, n, n, "-", "f32",
                ms * 1e3, "copy", copy / ms, copy * 1e3);
    if (r.op == dctx::Block8Op::Roundtrip && r.layout == b8::kTiles) {  // zero levels not counted
      const double bare = median_ms([&](int i) {
        dctx::cu::launch_block8(t, kernel, r.layout, false, static_cast<int>(r.op), buf.at_in(i),
                                b8::kF32, g, buf.at_out(i), b8::kF32, g, 1, n, n, nullptr, nullptr);
      });
      std::printf("%-13s %4dx%-5d %-7s %-4s %10.1f %10s %7.2f %10.1f\n", "8x8_jpeg_nocnt", n, n,
                  "-", "f32", bare * 1e3, "copy", copy / bare, copy * 1e3);
    }
  }
  // The JPEG-style round trip on uint8 planes (level shift and rounding in the kernel), against a
  // copy of the same bytes.
  {
    const std::size_t u8_bytes = std::size_t(n) * n;
    const double u8_copy = median_ms([&](int i) {
      ok(cudaMemcpyAsync(buf.at_out(i), buf.at_in(i), u8_bytes, cudaMemcpyDeviceToDevice), "copy");
    });
    dctx::Block8PlanDesc d{.op = dctx::Block8Op::Roundtrip,
                           .data = dctx::Block8Data::UInt8,
                           .table = dctx::quant_table_nvidia(),
                           .kernel = dctx::Block8Kernel::Fast};
    const b8::Tables t = b8::make_tables(d);
    for (int layout : {b8::kTiles, b8::kRegisters}) {
      const double ms = median_ms([&](int i) {
        dctx::cu::launch_block8(t, b8::kFast, layout, false, static_cast<int>(d.op), buf.at_in(i),
                                b8::kU8, g, buf.at_out(i), b8::kU8, g, 1, n, n, counts, nullptr);
      });
      std::printf("%-13s %4dx%-5d %-7s %-4s %10.1f %10s %7.2f %10.1f\n",
                  layout == b8::kTiles ? "8x8_u8_tile" : "8x8_u8_reg", n, n, "-", "u8", ms * 1e3,
                  "copy", u8_copy / ms, u8_copy * 1e3);
    }
  }
  cudaFree(counts);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  int dev = 0;
  ok(cudaGetDevice(&dev), "cudaGetDevice");
  cudaDeviceProp p{};
  ok(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
  std::printf("# %s, compute capability %d.%d; GPU-time medians of %d calls (CUDA events)\n",
              p.name, p.major, p.minor, kReps);
  std::printf("%-12s %11s %-7s %-4s %10s %10s %7s %10s\n", "transform", "shape", "dir", "prec",
              "dctx us", "cuFFT us", "ratio", "copy us");
  using dctx::Direction;
  std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1024, 1024}, {2048, 2048}, {4096, 4096}, {8192, 8192}, {1080, 1920}};
  if (quick) shapes = {{1024, 1024}};
  for (auto [a, b] : shapes)
    for (Direction dir : {Direction::Forward, Direction::Inverse}) row<float>("dct2", a, b, dir);
  for (Direction dir : {Direction::Forward, Direction::Inverse})
    row<double>("dct2", 4096, 4096, dir);
  const dctx::AxisTransform c{dctx::Kind::DCT, 2}, s{dctx::Kind::DXST, 2};
  row<float>("idct_idxst", 4096, 4096, Direction::Inverse, {c, s});
  row<float>("idxst_idct", 4096, 4096, Direction::Inverse, {s, c});
  // ratio column: the step's time over one DCT-II's (the cuFFT column holds that DCT's)
  stage_rows(4096, 4096);
  if (!quick) stage_rows(8192, 8192);
  for (std::size_t n :
       quick ? std::vector<std::size_t>{1024} : std::vector<std::size_t>{2048, 4096})
    electro_rows<float>(n);
  if (!quick) electro_rows<double>(4096);
#ifdef DCTX_CUDA_BLOCK8
  block8_rows();  // ratio column: the share of a device-to-device copy's bandwidth
#endif
  return 0;
}
