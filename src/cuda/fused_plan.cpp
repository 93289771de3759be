// SPDX-License-Identifier: BSD-3-Clause
// The fused route's plan: the rotation tables uploaded once in the plan's precision, one cuFFT
// plan (R2C forward, C2R inverse, over the last one to three axes, the leading ones batched) whose
// work area the caller's workspace holds, and the three launches of fused_kernels.cu per call.
// Device arrays (any strides) run on the caller's stream; host arrays are copied in and out.
#include <cstring>
#include <mutex>

#include "cuda/fused_kernels.hpp"
#include "cuda/fused_tables.hpp"
#include "cuda/plans.hpp"

namespace dctx::cu {
namespace {

using cuda_math::Cx;
using cuda_math::FusedGeometry;
using cuda_math::FusedLayout;

constexpr std::size_t kAlign = 256;
std::size_t round_up(std::size_t b) { return (b + kAlign - 1) / kAlign * kAlign; }

// A cuFFT plan handle destroyed with its owner.
struct FftHandle {
  cufftHandle h = 0;
  FftHandle() { check(cufftCreate(&h), "cufftCreate"); }
  ~FftHandle() { (void)cufftDestroy(h); }
  FftHandle(const FftHandle&) = delete;
  FftHandle& operator=(const FftHandle&) = delete;
};

class FusedPlan final : public detail::BackendPlan {
 public:
  FusedPlan(const DeviceInfo& dev, const PlanDesc& d)
      : dev_(dev), d_(d), layout_(cuda_math::fused_layout(d)) {
    const DeviceScope scope(dev_.index);
    f32_ = d.precision == Precision::F32;
    es_ = f32_ ? sizeof(float) : sizeof(double);
    // The tables: rot[0..2] then weight[0..2], each aligned.
    std::vector<unsigned char> host;
    std::size_t offsets[6];
    for (int j = 0; j < 6; ++j) {
      const auto& A = layout_.axis[j % 3];
      offsets[j] = host.size();
      const std::size_t bytes = j < 3 ? A.rot.size() * 2 * es_ : A.weight.size() * es_;
      host.resize(round_up(host.size() + bytes));
      unsigned char* at = host.data() + offsets[j];
      for (std::size_t k = 0; k < (j < 3 ? A.rot.size() : A.weight.size()); ++k) {
        const double v[2] = {j < 3 ? A.rot[k].real() : A.weight[k], j < 3 ? A.rot[k].imag() : 0};
        for (int c = 0; c < (j < 3 ? 2 : 1); ++c) {
          if (f32_) {
            const float x = static_cast<float>(v[c]);
            std::memcpy(at + (k * (j < 3 ? 2 : 1) + c) * es_, &x, es_);
          } else {
            std::memcpy(at + (k * (j < 3 ? 2 : 1) + c) * es_, &v[c], es_);
          }
        }
      }
    }
    tables_ = std::make_unique<DeviceBuffer>(host.size());
    check(cudaMemcpy(tables_->get(), host.data(), host.size(), cudaMemcpyHostToDevice),
          "cudaMemcpy (the plan's tables)");
    for (int j = 0; j < 6; ++j)
      table_at_[j] = static_cast<unsigned char*>(tables_->get()) + offsets[j];

    fft_ = std::make_unique<FftHandle>();
    check(cufftSetAutoAllocation(fft_->h, 0), "cufftSetAutoAllocation");
    std::vector<long long> dims = layout_.fft_dims();
    const cufftType type = f32_ ? (layout_.forward ? CUFFT_R2C : CUFFT_C2R)
                                : (layout_.forward ? CUFFT_D2Z : CUFFT_Z2D);
    std::size_t work = 0;
    check(cufftMakePlanMany64(fft_->h, layout_.rank, dims.data(), nullptr, 1, 0, nullptr, 1, 0,
                              type, layout_.batch, &work),
          "cufftMakePlanMany64");
    const auto dense = dense_strides(d.shape);
    const FusedGeometry<float> g = geometry<float>(dense.data(), dense.data());
    real_bytes_ = round_up(static_cast<std::size_t>(g.real_size()) * es_);
    complex_bytes_ = round_up(static_cast<std::size_t>(g.complex_size()) * 2 * es_);
    fft_work_bytes_ = round_up(work);
  }
  ~FusedPlan() override {
    if (own_done_) (void)cudaEventDestroy(own_done_);
  }
  FusedPlan(const FusedPlan&) = delete;
  FusedPlan& operator=(const FusedPlan&) = delete;
  void execute(const detail::HostCall<float>& c) const override { host<float>(c); }
  void execute(const detail::HostCall<double>& c) const override { host<double>(c); }

  void execute_device(const detail::DeviceCall& c) const override {
    const DeviceScope scope(dev_.index);
    for (const DeviceArray* a : {&c.in, &c.out})
      require_device_pointer(a->buffer, dev_.index, a == &c.in ? "in" : "out",
                             "dctx::cuda::execute");
    const auto stream = static_cast<cudaStream_t>(c.exec.queue);
    if (f32_)
      device_run<float>(c, stream);
    else
      device_run<double>(c, stream);
  }

  std::size_t workspace_bytes() const override {
    return real_bytes_ + complex_bytes_ + fft_work_bytes_;
  }

  std::string describe() const override {
    std::string s =
        "cuda[" + dev_.name + "] fused " + std::to_string(layout_.rank) + "D " +
        (layout_.forward ? "reorder + cuFFT R2C + rotation" : "rotation + cuFFT C2R + reorder");
    if (layout_.batch > 1) s += ", " + std::to_string(layout_.batch) + " batched";
    return s;
  }

 private:
  template <class T>
  FusedGeometry<T> geometry(const std::ptrdiff_t* in_strides,
                            const std::ptrdiff_t* out_strides) const {
    const Cx<T>* rot[3];
    const T* weight[3];
    for (int j = 0; j < 3; ++j) {
      rot[j] = reinterpret_cast<const Cx<T>*>(table_at_[j]);
      weight[j] = reinterpret_cast<const T*>(table_at_[3 + j]);
    }
    return cuda_math::fused_geometry<T>(layout_, rot, weight, in_strides, out_strides, d_.shape);
  }

  template <class T>
  void device_run(const detail::DeviceCall& c, cudaStream_t stream) const {
    const T* in = static_cast<const T*>(c.in.buffer) + c.in.offset;
    T* out = static_cast<T*>(c.out.buffer) + c.out.offset;
    if (c.exec.workspace)
      return run<T>(in, c.in.strides, out, c.out.strides, c.exec.workspace, stream);
    // No workspace given: the plan's own, made at the first such call and kept (a stream-ordered
    // allocation per call costs as much as the transform: the pool hands its memory back at
    // every synchronisation). A call waits on the stream for the previous call's use of it.
    std::lock_guard<std::mutex> lock(own_mutex_);
    if (!own_workspace_) {
      own_workspace_ = std::make_unique<DeviceBuffer>(workspace_bytes());
      check(cudaEventCreateWithFlags(&own_done_, cudaEventDisableTiming),
            "cudaEventCreateWithFlags (the plan's workspace)");
    } else {
      check(cudaStreamWaitEvent(stream, own_done_, 0),
            "cudaStreamWaitEvent (the plan's workspace)");
    }
    run<T>(in, c.in.strides, out, c.out.strides, own_workspace_->get(), stream);
    check(cudaEventRecord(own_done_, stream), "cudaEventRecord (the plan's workspace)");
  }

  // Device arrays with any strides (and any overlap: the first kernel reads all of `in` before
  // the last one writes `out`), a workspace of workspace_bytes().
  template <class T>
  void run(const T* in, const std::ptrdiff_t* in_strides, T* out, const std::ptrdiff_t* out_strides,
           void* workspace, cudaStream_t stream) const {
    const FusedGeometry<T> g = geometry<T>(in_strides, out_strides);
    auto* base = static_cast<unsigned char*>(workspace);
    T* v = reinterpret_cast<T*>(base);
    auto* V = reinterpret_cast<Cx<T>*>(base + real_bytes_);
    void* fft_work = base + real_bytes_ + complex_bytes_;
    // One cuFFT handle serves every call: its stream and work area are set and its execution
    // enqueued under the lock, so calls from several threads on several streams stay apart.
    std::lock_guard<std::mutex> lock(fft_mutex_);
    check(cufftSetStream(fft_->h, stream), "cufftSetStream");
    check(cufftSetWorkArea(fft_->h, fft_work), "cufftSetWorkArea");
    if (layout_.forward) {
      launch_reorder<T>(g, in, v, stream);
      if constexpr (sizeof(T) == 4)
        check(cufftExecR2C(fft_->h, v, reinterpret_cast<cufftComplex*>(V)), "cufftExecR2C");
      else
        check(cufftExecD2Z(fft_->h, v, reinterpret_cast<cufftDoubleComplex*>(V)), "cufftExecD2Z");
      launch_forward_rotation<T>(g, V, out, stream);
    } else {
      launch_inverse_rotation<T>(g, in, V, stream);
      if constexpr (sizeof(T) == 4)
        check(cufftExecC2R(fft_->h, reinterpret_cast<cufftComplex*>(V), v), "cufftExecC2R");
      else
        check(cufftExecZ2D(fft_->h, reinterpret_cast<cufftDoubleComplex*>(V), v), "cufftExecZ2D");
      launch_reorder_back<T>(g, v, out, stream);
    }
  }

  // Host arrays: copied to the device as they are when C-ordered, else through one dense host
  // buffer; transformed in place there and copied back, on this thread's default stream. The
  // input is on the device before any output is written, so any overlap is safe.
  template <class T>
  void host(const detail::HostCall<T>& c) const {
    const DeviceScope scope(dev_.index);
    const Shape& shape = d_.shape;
    std::size_t total = 1;
    for (std::size_t e : shape) total *= e;
    const bool dense_in = is_dense(shape, c.in_strides), dense_out = is_dense(shape, c.out_strides);
    std::vector<T> buf(dense_in && dense_out ? 0 : total);
    const T* src = c.in;
    if (!dense_in) {
      detail::copy_strided<T, true>(shape, const_cast<T*>(c.in), c.in_strides, buf.data());
      src = buf.data();
    }
    const cudaStream_t stream = cudaStreamPerThread;
    const StreamScratch data(total * sizeof(T), stream);
    const StreamScratch ws(workspace_bytes(), stream);
    T* dev = static_cast<T*>(data.p);
    check(cudaMemcpyAsync(dev, src, total * sizeof(T), cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync (host to device)");
    const auto dense = dense_strides(shape);
    run<T>(dev, dense.data(), dev, dense.data(), ws.p, stream);
    T* dst = dense_out ? c.out : buf.data();
    check(cudaMemcpyAsync(dst, dev, total * sizeof(T), cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync (device to host)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    if (!dense_out) detail::copy_strided<T, false>(shape, c.out, c.out_strides, buf.data());
  }

  DeviceInfo dev_;
  PlanDesc d_;
  FusedLayout layout_;
  bool f32_ = true;
  std::size_t es_ = 4;
  std::unique_ptr<DeviceBuffer> tables_;
  const void* table_at_[6] = {};
  std::unique_ptr<FftHandle> fft_;
  mutable std::mutex fft_mutex_;
  // The workspace of calls that bring none, and the event that marks the end of its last use
  // (taken before fft_mutex_).
  mutable std::mutex own_mutex_;
  mutable std::unique_ptr<DeviceBuffer> own_workspace_;
  mutable cudaEvent_t own_done_ = nullptr;
  std::size_t real_bytes_ = 0, complex_bytes_ = 0, fft_work_bytes_ = 0;
};

}  // namespace

std::unique_ptr<detail::BackendPlan> make_fused_plan(const DeviceInfo& device, const PlanDesc& d) {
  return std::make_unique<FusedPlan>(device, d);
}

}  // namespace dctx::cu
