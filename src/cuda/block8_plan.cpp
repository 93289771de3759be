// SPDX-License-Identifier: BSD-3-Clause
// The CUDA back end's 8x8 block plans (core/block8_backend.hpp) over the kernels of
// block8_kernels.cu: a batch of host planes is gathered densely, copied to the device, run by one
// launch (replicated edges, cropped output) and copied back; the zero levels and the NaN flag come
// back in two device words. Results equal the CPU engine's bit for bit (tests/cuda).
#include <algorithm>
#include <vector>

#include "core/block8_backend.hpp"
#include "cuda/block8_kernels.hpp"
#include "cuda/block8_tables.hpp"
#include "cuda/plans.hpp"

namespace dctx::cu {
namespace {

namespace b8 = cuda_math::b8;
using detail::Block8HostCall;
using detail::Block8Planes;

constexpr std::size_t kMaxSide = std::size_t{1} << 30;  // rows and columns index as int

class CudaBlock8Plan final : public detail::BackendBlock8Plan {
 public:
  CudaBlock8Plan(const DeviceInfo& dev, const Block8PlanDesc& d)
      : dev_(dev), d_(d), tables_(b8::make_tables(d)) {
    const bool data16 = d.data == Block8Data::Int16;
    kernel_ = d.kernel == Block8Kernel::Reference ? b8::kReference
              : d.kernel == Block8Kernel::Int16   ? b8::kInt16
                                                  : b8::kFast;
    if (d.op == Block8Op::Quantize || d.op == Block8Op::Dequantize)
      kernel_ = data16 ? b8::kInt16 : b8::kFast;
  }

  std::uint64_t execute(const Block8HostCall& call) const override {
    const Io io = io_of(call);
    const std::size_t ib = io.ib, ob = io.ob;
    const DeviceScope scope(dev_.index);
    const cudaStream_t s = cudaStreamPerThread;
    // The input is gathered and on the device before any output is written, so any overlap of
    // the host arrays is safe.
    std::vector<char> in(call.in.count * call.in.rows * call.in.cols * ib);
    detail::copy_planes<true>(call.in, ib, in.data());
    std::vector<char> out(call.out.count * call.out.rows * call.out.cols * ob);
    const DeviceBuffer din(in.size()), dout(out.size()), counts(2 * sizeof(unsigned long long));
    check(cudaMemcpyAsync(din.get(), in.data(), in.size(), cudaMemcpyHostToDevice, s),
          "cudaMemcpyAsync (host to device)");
    check(cudaMemsetAsync(counts.get(), 0, 2 * sizeof(unsigned long long), s), "cudaMemsetAsync");
    const auto dense = [](const Block8Planes& p) {
      return b8::PlaneGeometry{0,
                               static_cast<std::int64_t>(p.rows * p.cols),
                               static_cast<std::int64_t>(p.cols),
                               1,
                               static_cast<int>(p.rows),
                               static_cast<int>(p.cols)};
    };
    launch_block8(tables_, kernel_, b8::kTiles, io.data16, static_cast<int>(d_.op), din.get(),
                  io.in, dense(call.in), dout.get(), io.out, dense(call.out),
                  static_cast<long long>(call.in.count), static_cast<int>(call.padded_rows),
                  static_cast<int>(call.padded_cols),
                  static_cast<unsigned long long*>(counts.get()), s);
    unsigned long long n[2] = {0, 0};
    check(cudaMemcpyAsync(out.data(), dout.get(), out.size(), cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync (device to host)");
    check(cudaMemcpyAsync(n, counts.get(), sizeof n, cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync (device to host)");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (the 8x8 block kernel)");
    detail::copy_planes<false>(call.out, ob, out.data());
    return n[0] | (n[1] ? detail::kNaNCoefficient : 0);
  }

  void execute_device(const Block8HostCall& call, void* queue, void* counts) const override {
    const char* fn = "dctx::cuda::execute (8x8 blocks)";
    const Io io = io_of(call);
    const DeviceScope scope(dev_.index);
    require_device_pointer(call.in.data, dev_.index, "in", fn);
    require_device_pointer(call.out.data, dev_.index, "out", fn);
    if (counts) require_device_pointer(counts, dev_.index, "counts", fn);
    const auto strided = [](const Block8Planes& p) {
      return b8::PlaneGeometry{0,
                               static_cast<std::int64_t>(p.plane_stride),
                               static_cast<std::int64_t>(p.row_stride),
                               static_cast<std::int64_t>(p.col_stride),
                               static_cast<int>(p.rows),
                               static_cast<int>(p.cols)};
    };
    launch_block8(tables_, kernel_, b8::kTiles, io.data16, static_cast<int>(d_.op), call.in.data,
                  io.in, strided(call.in), const_cast<void*>(call.out.data), io.out,
                  strided(call.out), static_cast<long long>(call.in.count),
                  static_cast<int>(call.padded_rows), static_cast<int>(call.padded_cols),
                  static_cast<unsigned long long*>(counts), static_cast<cudaStream_t>(queue));
  }

  std::string describe() const override {
    return "cuda[" + dev_.name + "] " + std::string(to_string(d_.kernel)) +
           (d_.op == Block8Op::Quantize || d_.op == Block8Op::Dequantize ? ""
                                                                         : ", shared-memory tiles");
  }

 private:
  struct Io {
    bool data16;
    int in, out;         // b8::Element
    std::size_t ib, ob;  // their sizes in bytes
  };
  // The element types of a call, after checking that its sides fit the kernels' int indices.
  Io io_of(const Block8HostCall& call) const {
    if (std::max({call.padded_rows, call.padded_cols, call.in.rows, call.in.cols}) > kMaxSide)
      throw Error("CUDA block plan: planes of " + std::to_string(call.padded_rows) + " x " +
                  std::to_string(call.padded_cols) + " exceed the kernels' int indices");
    const int samples = static_cast<int>(d_.data);
    const int coeffs = d_.data == Block8Data::UInt8 ? b8::kF32 : samples;
    int in = samples, out = coeffs;
    switch (d_.op) {
      case Block8Op::Forward: break;
      case Block8Op::Inverse: in = coeffs, out = samples; break;
      case Block8Op::Roundtrip: out = samples; break;
      case Block8Op::ForwardQuantized: out = b8::kI16; break;
      case Block8Op::InverseDequantized: in = b8::kI16, out = samples; break;
      case Block8Op::Quantize: in = coeffs, out = b8::kI16; break;
      case Block8Op::Dequantize: in = b8::kI16, out = coeffs; break;
    }
    const auto bytes = [](int e) -> std::size_t {
      return e == b8::kI16 ? 2 : e == b8::kU8 ? 1 : 4;
    };
    return {d_.data == Block8Data::Int16, in, out, bytes(in), bytes(out)};
  }

  DeviceInfo dev_;
  Block8PlanDesc d_;
  b8::Tables tables_;
  int kernel_ = b8::kFast;
};

}  // namespace

std::unique_ptr<detail::BackendBlock8Plan> make_block8_plan(const DeviceInfo& device,
                                                            const detail::Block8Spec& spec) {
  return std::make_unique<CudaBlock8Plan>(device, spec.desc);
}

}  // namespace dctx::cu
