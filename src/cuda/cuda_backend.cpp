// SPDX-License-Identifier: BSD-3-Clause
// The CUDA back end and its registration: plans on the device that the description's
// `device.select` names (empty: the current device); arrays are device pointers of one address
// space. What the fused route computes runs there; the rest goes through the CPU (describe()
// says which).
#include "cuda/fused_tables.hpp"
#include "cuda/plans.hpp"
#ifdef DCTX_CUDA_BLOCK8
#include "core/block8_backend.hpp"
#endif

namespace dctx {
namespace detail {
namespace {

class CudaBackend final : public Backend {
 public:
  BackendKind kind() const override { return BackendKind::CUDA; }
  std::string unusable_reason() const override {
    std::string why;
    return cu::all_devices(&why).empty() ? why : std::string{};
  }
  std::string description() const override {
    try {
      const cu::DeviceInfo& d = cu::select_device({});
      return d.name + " (compute capability " + std::to_string(d.major) + "." +
             std::to_string(d.minor) + ")";
    } catch (const Error& e) {
      return e.what();
    }
  }
  MemoryModel memory() const override { return MemoryModel::DeviceAddresses; }
  int auto_priority() const override { return 10; }
  std::unique_ptr<BackendPlan> make_plan(const PlanDesc& d) const override {
    const cu::DeviceInfo& dev = cu::select_device(d.device.select);
    std::string why;
    if (cuda_math::fused_route_applies(d, &why)) return cu::make_fused_plan(dev, d);
    return cu::make_host_route_plan(dev, d, why);
  }
  std::unique_ptr<BackendElectrostatics> make_electrostatics(
      const ElectrostaticsDesc& d) const override {
    return cu::make_electrostatics_step(d);
  }
#ifdef DCTX_CUDA_BLOCK8
  // A block plan names no device: the current one.
  std::unique_ptr<BackendBlock8Plan> make_block8_plan(const Block8Spec& spec) const override {
    return cu::make_block8_plan(cu::select_device({}), spec);
  }
#endif
};

}  // namespace

std::shared_ptr<const Backend> make_cuda_backend() { return std::make_shared<CudaBackend>(); }

}  // namespace detail
}  // namespace dctx
