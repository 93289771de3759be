// SPDX-License-Identifier: BSD-3-Clause
// What the CUDA kernels do not compute yet (types I and IV, the real DFT, more than three
// transformed axes) runs on the CPU back end: host arrays directly, device arrays copied to the
// host and back. describe() says so.
#include <vector>

#include "cuda/plans.hpp"

namespace dctx::cu {
namespace {

template <class T>
void through_host(const detail::BackendPlan& cpu, const PlanDesc& d, const detail::DeviceCall& c) {
  const auto stream = static_cast<cudaStream_t>(c.exec.queue);
  std::ptrdiff_t ilo = 0, ihi = 0, olo = 0, ohi = 0;
  detail::element_span(d.shape, c.in.strides, ilo, ihi);
  detail::element_span(d.shape, c.out.strides, olo, ohi);
  std::vector<T> in(static_cast<std::size_t>(ihi - ilo + 1));
  // The output's span is read too: elements between its strided elements stay as they are.
  std::vector<T> out(static_cast<std::size_t>(ohi - olo + 1));
  const T* src = static_cast<const T*>(c.in.buffer) + c.in.offset + ilo;
  T* dst = static_cast<T*>(c.out.buffer) + c.out.offset + olo;
  check(cudaMemcpyAsync(in.data(), src, in.size() * sizeof(T), cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (device to host)");
  check(cudaMemcpyAsync(out.data(), dst, out.size() * sizeof(T), cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (device to host)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  detail::HostCall<T> h{in.data() - ilo, c.in.strides, out.data() - olo, c.out.strides,
                        detail::Overlap::Disjoint};
  cpu.execute(h);
  check(cudaMemcpyAsync(dst, out.data(), out.size() * sizeof(T), cudaMemcpyHostToDevice, stream),
        "cudaMemcpyAsync (host to device)");
  // The host buffer must outlive the copy.
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

class HostRoutePlan final : public detail::BackendPlan {
 public:
  HostRoutePlan(const DeviceInfo& dev, const PlanDesc& d, std::string why)
      : dev_(dev), d_(d), why_(std::move(why)), cpu_(make_cpu_plan(d)) {}
  void execute(const detail::HostCall<float>& c) const override { cpu_->execute(c); }
  void execute(const detail::HostCall<double>& c) const override { cpu_->execute(c); }
  void execute_device(const detail::DeviceCall& c) const override {
    const DeviceScope scope(dev_.index);
    for (const DeviceArray* a : {&c.in, &c.out})
      require_device_pointer(a->buffer, dev_.index, a == &c.in ? "in" : "out",
                             "dctx::cuda::execute");
    run_through_host(*cpu_, d_, c);
  }
  std::string describe() const override {
    return "cuda[" + dev_.name + "] through the CPU (" + why_ + "): " + cpu_->describe();
  }

 private:
  DeviceInfo dev_;
  PlanDesc d_;
  std::string why_;
  std::unique_ptr<detail::BackendPlan> cpu_;
};

}  // namespace

std::unique_ptr<detail::BackendPlan> make_cpu_plan(const PlanDesc& d) {
  PlanDesc cpu = d;
  cpu.backend = BackendKind::CPU;
  return detail::resolve_backend(BackendKind::CPU)->make_plan(cpu);
}

void run_through_host(const detail::BackendPlan& cpu, const PlanDesc& d,
                      const detail::DeviceCall& call) {
  if (call.precision == Precision::F32)
    through_host<float>(cpu, d, call);
  else
    through_host<double>(cpu, d, call);
}

std::unique_ptr<detail::BackendPlan> make_host_route_plan(const DeviceInfo& device,
                                                          const PlanDesc& d, std::string why) {
  return std::make_unique<HostRoutePlan>(device, d, std::move(why));
}

}  // namespace dctx::cu
