// SPDX-License-Identifier: BSD-3-Clause
// The public CUDA API (dctx/cuda.hpp) over the back end's runtime and Plan::execute_device.
#include "dctx/cuda.hpp"

#include "cuda/plans.hpp"

namespace dctx::cuda {
namespace {

template <class T>
void execute_typed(const Plan& plan, T* in, const std::vector<std::ptrdiff_t>& in_strides, T* out,
                   const std::vector<std::ptrdiff_t>& out_strides, CUstream_st* stream,
                   void* workspace, std::size_t workspace_bytes) {
  if (plan.desc().backend != BackendKind::CUDA)
    throw Error("dctx::cuda::execute: the plan runs on the " +
                std::string(to_string(plan.desc().backend)) + " back end, not cuda");
  const Shape& shape = plan.desc().shape;
  const std::vector<std::ptrdiff_t> dense = cu::dense_strides(shape);
  for (const auto* s : {&in_strides, &out_strides})
    if (!s->empty() && s->size() != shape.size())
      throw Error("dctx::cuda::execute: " + std::string(s == &in_strides ? "in" : "out") + " has " +
                  std::to_string(s->size()) + " strides but the plan's arrays have " +
                  std::to_string(shape.size()) + " axes");
  if (!in || !out)
    throw Error(std::string("dctx::cuda::execute: ") + (in ? "out" : "in") + " is a null pointer");
  const DeviceArray a{BackendKind::CUDA, in, 0,
                      in_strides.empty() ? dense.data() : in_strides.data()};
  const DeviceArray b{BackendKind::CUDA, out, 0,
                      out_strides.empty() ? dense.data() : out_strides.data()};
  plan.execute_device(a, b, sizeof(T) == 4 ? Precision::F32 : Precision::F64,
                      DeviceExecution{stream, workspace, workspace ? workspace_bytes : 0});
}

}  // namespace

std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> r;
  for (const cu::DeviceInfo& d : cu::all_devices())
    r.push_back({d.index, d.name, d.major, d.minor, d.memory});
  return r;
}

void execute(const Plan& plan, const DeviceView<const float>& in, const DeviceView<float>& out,
             CUstream_st* stream, void* workspace, std::size_t workspace_bytes) {
  execute_typed(plan, const_cast<float*>(in.data), in.strides, out.data, out.strides, stream,
                workspace, workspace_bytes);
}
void execute(const Plan& plan, const DeviceView<const double>& in, const DeviceView<double>& out,
             CUstream_st* stream, void* workspace, std::size_t workspace_bytes) {
  execute_typed(plan, const_cast<double*>(in.data), in.strides, out.data, out.strides, stream,
                workspace, workspace_bytes);
}

}  // namespace dctx::cuda
