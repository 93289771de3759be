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

#ifdef DCTX_CUDA_BLOCK8
template <class T>
Block8DevicePlanes device_planes(const DevicePlanes<T>& p) {
  const std::ptrdiff_t rs = p.row_stride ? p.row_stride : static_cast<std::ptrdiff_t>(p.cols);
  const std::ptrdiff_t ps =
      p.plane_stride ? p.plane_stride : static_cast<std::ptrdiff_t>(p.rows) * rs;
  return {BackendKind::CUDA,
          const_cast<void*>(static_cast<const void*>(p.data)),
          p.planes,
          p.rows,
          p.cols,
          ps,
          rs,
          p.col_stride,
          sizeof(T) == 2};
}
template <class TI, class TO>
void execute_blocks(const Block8Plan& plan, const DevicePlanes<TI>& in, const DevicePlanes<TO>& out,
                    CUstream_st* stream, unsigned long long* counts) {
  plan.execute_device(device_planes(in), device_planes(out), stream, counts);
}
#endif

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

#ifdef DCTX_CUDA_BLOCK8
void execute(const Block8Plan& plan, const DevicePlanes<const float>& in,
             const DevicePlanes<float>& out, CUstream_st* stream, unsigned long long* counts) {
  execute_blocks(plan, in, out, stream, counts);
}
void execute(const Block8Plan& plan, const DevicePlanes<const float>& in,
             const DevicePlanes<std::int16_t>& out, CUstream_st* stream,
             unsigned long long* counts) {
  execute_blocks(plan, in, out, stream, counts);
}
void execute(const Block8Plan& plan, const DevicePlanes<const std::int16_t>& in,
             const DevicePlanes<float>& out, CUstream_st* stream, unsigned long long* counts) {
  execute_blocks(plan, in, out, stream, counts);
}
void execute(const Block8Plan& plan, const DevicePlanes<const std::int16_t>& in,
             const DevicePlanes<std::int16_t>& out, CUstream_st* stream,
             unsigned long long* counts) {
  execute_blocks(plan, in, out, stream, counts);
}
#endif

}  // namespace dctx::cuda
