// SPDX-License-Identifier: BSD-3-Clause
// What the OpenCL kernels do not compute yet (DCT/DST type I, arrays of more than nine
// axes) runs on the CPU back end: host arrays directly, device arrays copied to the host and
// back. describe() says so.
#include <vector>

#include "opencl/plans.hpp"

namespace dctx::ocl {
namespace {

class HostRoutePlan final : public detail::BackendPlan {
 public:
  HostRoutePlan(std::shared_ptr<Device> dev, const PlanDesc& d, std::string why)
      : dev_(std::move(dev)), d_(d), why_(std::move(why)) {
    PlanDesc cpu = d;
    cpu.backend = BackendKind::CPU;
    cpu_ = detail::resolve_backend(BackendKind::CPU)->make_plan(cpu);
  }
  void execute(const detail::HostCall<float>& c) const override { cpu_->execute(c); }
  void execute(const detail::HostCall<double>& c) const override { cpu_->execute(c); }

  void execute_device(const detail::DeviceCall& c) const override {
    if (c.precision == Precision::F32)
      device<float>(c);
    else
      device<double>(c);
  }
  std::string describe() const override {
    return "opencl[" + dev_->info().name + "] through the CPU (" + why_ + "): " + cpu_->describe();
  }

 private:
  // Reads the span an array occupies; element 0 of the array is at index -lo of the result.
  template <class T>
  std::vector<T> read_span(cl_command_queue q, const DeviceArray& a, std::ptrdiff_t& lo) const {
    std::ptrdiff_t hi = 0;
    element_span(d_.shape, a.strides, lo, hi);
    std::vector<T> v(static_cast<std::size_t>(hi - lo + 1));
    check(clEnqueueReadBuffer(q, static_cast<cl_mem>(a.buffer), CL_TRUE,
                              (a.offset + static_cast<std::size_t>(lo)) * sizeof(T),
                              v.size() * sizeof(T), v.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    return v;
  }
  template <class T>
  void device(const detail::DeviceCall& c) const {
    cl_command_queue q = c.exec.queue ? static_cast<cl_command_queue>(c.exec.queue) : dev_->queue();
    std::ptrdiff_t ilo = 0, olo = 0;
    const std::vector<T> in = read_span<T>(q, c.in, ilo);
    // The output's span is read too: elements between its strided elements stay as they are.
    std::vector<T> out = read_span<T>(q, c.out, olo);
    detail::HostCall<T> h{in.data() - ilo, c.in.strides, out.data() - olo, c.out.strides,
                          detail::Overlap::Disjoint};
    cpu_->execute(h);
    check(clEnqueueWriteBuffer(q, static_cast<cl_mem>(c.out.buffer), CL_TRUE,
                               (c.out.offset + static_cast<std::size_t>(olo)) * sizeof(T),
                               out.size() * sizeof(T), out.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
  }

  std::shared_ptr<Device> dev_;
  PlanDesc d_;
  std::string why_;
  std::unique_ptr<detail::BackendPlan> cpu_;
};

}  // namespace

std::unique_ptr<detail::BackendPlan> make_host_route_plan(std::shared_ptr<Device> device,
                                                          const PlanDesc& d, std::string why) {
  return std::make_unique<HostRoutePlan>(std::move(device), d, std::move(why));
}

}  // namespace dctx::ocl
