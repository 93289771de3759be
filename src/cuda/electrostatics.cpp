// SPDX-License-Identifier: BSD-3-Clause
// DREAMPlace's electrostatic step on device arrays (dctx/cuda.hpp): the system's four transforms
// as CUDA plans of the fused route on device pointers, in place, and the weighting kernel
// (electrostatics_kernels.cu) between them, all enqueued on the caller's stream. The plans are
// the descriptions the system's own (src/spectral/electrostatics.cpp) are made from, with
// backend = CUDA, from the plan cache. The back end's make_electrostatics runs the same step for
// ElectrostaticSystem::solve() on host arrays: one upload, one download per output.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "core/dense_layout.hpp"
#include "core/electrostatics_backend.hpp"
#include "core/overlap.hpp"
#include "cuda/electrostatics_kernels.hpp"
#include "cuda/runtime.hpp"
#include "dctx/cuda.hpp"
#include "dctx/electrostatics.hpp"

namespace dctx::cuda {
namespace {

constexpr AxisTransform kCos{Kind::DCT, 3}, kSin{Kind::DXST, 3};
const char* const kFn = "dctx::cuda::electrostatics";

template <class T>
struct Array {
  const char* name;
  T* data;
  std::ptrdiff_t strides[2];
};

template <class T>
Array<T> array_of(const char* name, T* data, const std::vector<std::ptrdiff_t>& strides,
                  const Shape& shape) {
  if (!strides.empty() && strides.size() != 2)
    throw Error(std::string(kFn) + ": " + name + " has " + std::to_string(strides.size()) +
                " strides but the bin grid has 2 axes");
  if (!data) throw Error(std::string(kFn) + ": " + name + " is a null pointer");
  if (strides.empty()) return {name, data, {static_cast<std::ptrdiff_t>(shape[1]), 1}};
  return {name, data, {strides[0], strides[1]}};
}

// The weighting pass's tables on the device, made once per (device, grid) and kept, instead of
// built on the host and uploaded from pageable memory (a synchronising copy) on every step. At
// most kTableSets are kept; a full cache starts over.
constexpr std::size_t kTableSets = 16;
std::shared_ptr<const cu::DeviceBuffer> weight_tables_on(int device, std::size_t m, std::size_t n) {
  static std::mutex mutex;
  static std::map<std::tuple<int, std::size_t, std::size_t>,
                  std::shared_ptr<const cu::DeviceBuffer>>
      sets;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(device, m, n);
  if (const auto it = sets.find(key); it != sets.end()) return it->second;
  if (sets.size() >= kTableSets) sets.clear();  // (cudaFree waits for kernels still reading)
  const std::vector<double> tables = cuda_math::es::weight_tables(m, n);
  auto buffer = std::make_shared<cu::DeviceBuffer>(tables.size() * sizeof(double));
  cu::check(cudaMemcpy(buffer->get(), tables.data(), tables.size() * sizeof(double),
                       cudaMemcpyHostToDevice),
            "cudaMemcpy (the electrostatic tables)");
  sets.emplace(key, buffer);
  return buffer;
}

template <class T>
void run(const ElectrostaticsDesc& d, const DeviceView<const T>& density,
         const DeviceView<T>& potential, const DeviceView<T>& field_x, const DeviceView<T>& field_y,
         double* energy, CUstream_st* stream) {
  if (d.backend != BackendKind::CUDA)
    throw Error(std::string(kFn) + ": the system runs on the " + std::string(to_string(d.backend)) +
                " back end, not cuda (ElectrostaticsDesc::backend)");
  const Precision p = sizeof(T) == 4 ? Precision::F32 : Precision::F64;
  if (p != d.precision)
    throw Error(std::string(kFn) + ": the arrays are " + std::string(to_string(p)) +
                " but the system was made for " + std::string(to_string(d.precision)));
  const Shape& s = d.shape;
  const Array<const T> rho = array_of("density", density.data, density.strides, s);
  const Array<T> fx = array_of("field_x", field_x.data, field_x.strides, s);
  const Array<T> fy = array_of("field_y", field_y.data, field_y.strides, s);
  const bool with_potential = potential.data != nullptr;
  const Array<T> pot = with_potential ? array_of("potential", potential.data, potential.strides, s)
                                      : Array<T>{"potential", nullptr, {0, 0}};
  // The outputs are written in place by the transforms: none may overlap another or the density.
  const auto place = [&](const auto& a) {
    return detail::NamedPlace{
        a.name, {reinterpret_cast<std::uintptr_t>(a.data), sizeof(T), 2, s.data(), a.strides}};
  };
  const detail::NamedPlace outs[] = {place(pot), place(fx), place(fy)};
  detail::check_separate_outputs(kFn, place(rho), with_potential ? outs : outs + 1,
                                 with_potential ? 3 : 2);
  const auto plan = [&](AxisTransform t0, AxisTransform t1) {
    return cached_plan(cuda_math::es::step_plan(d, t0, t1, BackendKind::CUDA));
  };
  const auto dct2 = plan({Kind::DCT, 2}, {Kind::DCT, 2});
  const auto plan_x = plan(kSin, kCos), plan_y = plan(kCos, kSin);
  const auto plan_p = with_potential ? plan(kCos, kCos) : nullptr;
  const int device = cu::select_device(d.device.select).index;
  const cu::DeviceScope scope(device);
  cu::require_device_pointer(rho.data, device, rho.name, kFn);
  for (const Array<T>* a : {&fx, &fy, with_potential ? &pot : nullptr})
    if (a) cu::require_device_pointer(a->data, device, a->name, kFn);
  if (energy) cu::require_device_pointer(energy, device, "energy", kFn);
  const auto view = [](const Array<T>& a) {
    return DeviceView<T>{a.data, {a.strides[0], a.strides[1]}};
  };
  const auto cview = [](const Array<T>& a) {
    return DeviceView<const T>{a.data, {a.strides[0], a.strides[1]}};
  };
  // a = DCT-II(density), unnormalised, into field_x.
  execute(*dct2, DeviceView<const T>{rho.data, {rho.strides[0], rho.strides[1]}}, view(fx), stream);
  // The weighting pass, its tables as the CPU makes them.
  const std::size_t m = s[0], n = s[1];
  const std::shared_ptr<const cu::DeviceBuffer> tables = weight_tables_on(device, m, n);
  const cudaStream_t st = stream;
  if (energy) cu::check(cudaMemsetAsync(energy, 0, sizeof(double), st), "cudaMemsetAsync");
  cuda_math::es::WeightPass<T> w;
  w.m = static_cast<long long>(m);
  w.n = static_cast<long long>(n);
  w.pot = pot.data;
  w.fx = fx.data;
  w.fy = fy.data;
  for (int k = 0; k < 2; ++k) {
    w.ps[k] = pot.strides[k];
    w.xs[k] = fx.strides[k];
    w.ys[k] = fy.strides[k];
  }
  const double* t = static_cast<const double*>(tables->get());
  w.wu = t;
  w.wv = t + m;
  w.wv2 = t + m + n;
  w.scale = 1.0 / (double(m) * double(n) * d.bin_width * d.bin_height);
  cu::launch_weigh(w, double(m) * double(n) / 4, energy, st);
  // The three type-3 transforms, in place.
  execute(*plan_x, cview(fx), view(fx), stream);
  execute(*plan_y, cview(fy), view(fy), stream);
  if (plan_p) execute(*plan_p, cview(pot), view(pot), stream);
}

// The host-memory step of ElectrostaticSystem::solve() and fields() (Backend::make_electrostatics):
// the density copied to the device once (through one dense host buffer when strided), the step
// above there on this thread's default stream, each output and the energy copied back once;
// instead of four plans that each copy in and out with the weighting on the host between them.
class HostMemoryStep final : public detail::BackendElectrostatics {
 public:
  explicit HostMemoryStep(const ElectrostaticsDesc& d)
      : d_(d), device_(cu::select_device(d.device.select).index) {}

  double solve(const detail::HostStep<float>& s) const override { return host(s); }
  double solve(const detail::HostStep<double>& s) const override { return host(s); }

 private:
  template <class T>
  double host(const detail::HostStep<T>& s) const {
    const cu::DeviceScope scope(device_);
    const Shape& shape = d_.shape;
    const std::size_t total = shape[0] * shape[1], bytes = total * sizeof(T);
    const cudaStream_t stream = cudaStreamPerThread;
    // The energy first, then the density and the outputs, each 256-byte aligned.
    const std::size_t stride = (bytes + 255) / 256 * 256, arrays = s.potential ? 4 : 3;
    const cu::StreamScratch data(256 + arrays * stride, stream, "the electrostatic step's arrays");
    char* base = static_cast<char*>(data.p);
    const auto at = [&](std::size_t k) { return reinterpret_cast<T*>(base + 256 + k * stride); };
    double* energy = reinterpret_cast<double*>(base);
    T *rho = at(0), *fx = at(1), *fy = at(2), *pot = s.potential ? at(3) : nullptr;
    std::vector<T> staging;
    const T* src = s.density;
    if (!detail::is_dense(shape, s.density_strides)) {
      staging.resize(total);
      detail::copy_strided<T, true>(shape, const_cast<T*>(s.density), s.density_strides,
                                    staging.data());
      src = staging.data();
    }
    cu::check(cudaMemcpyAsync(rho, src, bytes, cudaMemcpyHostToDevice, stream),
              "cudaMemcpyAsync (the density, host to device)");
    const std::vector<std::ptrdiff_t> dense = detail::dense_strides(shape);
    run<T>(d_, DeviceView<const T>{rho, dense}, DeviceView<T>{pot, dense}, DeviceView<T>{fx, dense},
           DeviceView<T>{fy, dense}, energy, stream);
    const auto download = [&](const T* dev, T* out, const std::ptrdiff_t* strides) {
      const bool dense_out = detail::is_dense(shape, strides);
      if (!dense_out) staging.resize(total);
      cu::check(cudaMemcpyAsync(dense_out ? out : staging.data(), dev, bytes,
                                cudaMemcpyDeviceToHost, stream),
                "cudaMemcpyAsync (an output, device to host)");
      if (dense_out) return;
      cu::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      detail::copy_strided<T, false>(shape, out, strides, staging.data());
    };
    if (pot) download(pot, s.potential, s.potential_strides);
    download(fx, s.field_x, s.field_x_strides);
    download(fy, s.field_y, s.field_y_strides);
    double e = 0;
    cu::check(cudaMemcpyAsync(&e, energy, sizeof e, cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync (the energy, device to host)");
    cu::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return e;
  }

  ElectrostaticsDesc d_;
  int device_;
};

}  // namespace

void electrostatics(const ElectrostaticSystem& system, const DeviceView<const float>& density,
                    const DeviceView<float>& potential, const DeviceView<float>& field_x,
                    const DeviceView<float>& field_y, double* energy, CUstream_st* stream) {
  run(system.desc(), density, potential, field_x, field_y, energy, stream);
}
void electrostatics(const ElectrostaticSystem& system, const DeviceView<const double>& density,
                    const DeviceView<double>& potential, const DeviceView<double>& field_x,
                    const DeviceView<double>& field_y, double* energy, CUstream_st* stream) {
  run(system.desc(), density, potential, field_x, field_y, energy, stream);
}

}  // namespace dctx::cuda

namespace dctx::cu {

std::unique_ptr<detail::BackendElectrostatics> make_electrostatics_step(
    const ElectrostaticsDesc& d) {
  return std::make_unique<cuda::HostMemoryStep>(d);
}

}  // namespace dctx::cu
