// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL back end and its registration: plans on the device that the description's
// `device.select` (or DCTX_OPENCL_DEVICE) names; buffers are cl_mem handles.
#include <algorithm>

#include "opencl/plans.hpp"
#ifdef DCTX_OPENCL_BLOCK8
#include "core/block8_backend.hpp"
#endif

namespace dctx {
namespace detail {
namespace {

class OpenClBackend final : public Backend {
 public:
  BackendKind kind() const override { return BackendKind::OpenCL; }
  std::string unusable_reason() const override {
    std::string why;
    return ocl::all_devices(&why).empty() ? why : std::string{};
  }
  std::string description() const override {
    try {
      const auto dev = ocl::open_device({});
      const ocl::DeviceInfo& i = dev->info();
      return i.name + " (" + i.platform_name + ", " + i.version + (i.fp64 ? ", fp64" : "") + ")";
    } catch (const Error& e) {
      return e.what();
    }
  }
  MemoryModel memory() const override { return MemoryModel::DeviceHandles; }
  int auto_priority() const override { return 10; }
  std::unique_ptr<BackendPlan> make_plan(const PlanDesc& d) const override {
    auto dev = ocl::open_device(d.device.select);
    if (ocl::lines_route_applies(d)) return ocl::make_lines_plan(std::move(dev), d);
    const bool types = std::any_of(d.transforms.begin(), d.transforms.end(),
                                   [](const AxisTransform& t) { return t.type == 1; });
    return ocl::make_host_route_plan(
        std::move(dev), d, types ? "type I has no OpenCL kernel yet" : "more than nine axes");
  }
  std::unique_ptr<BackendElectrostatics> make_electrostatics(
      const ElectrostaticsDesc& d) const override {
    return ocl::make_electrostatics_step(d);
  }
#ifdef DCTX_OPENCL_BLOCK8
  // A block plan names no device: DCTX_OPENCL_DEVICE, else the first GPU, else the first device.
  std::unique_ptr<BackendBlock8Plan> make_block8_plan(const Block8Spec& spec) const override {
    return ocl::make_block8_plan(ocl::open_device({}), spec);
  }
#endif
};

}  // namespace

std::shared_ptr<const Backend> make_opencl_backend() { return std::make_shared<OpenClBackend>(); }

}  // namespace detail
}  // namespace dctx
