// SPDX-License-Identifier: BSD-3-Clause
// Device memory on the CUDA back end (built with DCTX_CUDA): plans made with
// backend = BackendKind::CUDA run on device pointers, asynchronously on the caller's stream.
// Host views work on such plans too (Plan::execute copies in and out and waits). docs/cuda.md.
// This header needs no CUDA header: a cudaStream_t is a CUstream_st*.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dctx/plan.hpp"

struct CUstream_st;

namespace dctx::cuda {

/// One CUDA device as dctx sees it.
struct DeviceInfo {
  int index = 0;  ///< what PlanDesc::device.select accepts ("0"), as does a substring of `name`
  std::string name;
  int major = 0, minor = 0;  ///< compute capability
  std::size_t memory = 0;    ///< bytes of global memory
};
/// Every CUDA device (empty when there is none, or no driver).
std::vector<DeviceInfo> devices();

/// A strided array in device memory: element i sits at data + sum_d i_d strides[d] (element
/// strides, any sign; empty strides: C order of the plan's shape).
template <class T>
struct DeviceView {
  T* data = nullptr;
  std::vector<std::ptrdiff_t> strides;
};

/// Enqueues the plan on `stream` (null: the legacy default stream) and returns without waiting.
/// `in` and `out` may be the same array (in place) or overlap. `workspace`, when given, is device
/// memory of at least plan.workspace_bytes() bytes, not used by another call at the same time;
/// null: the call takes one from the stream's memory pool (cudaMallocAsync). Executions of one
/// plan from several threads are safe. Descriptions the fused kernels do not cover run through
/// the CPU and wait (Plan::describe() says which).
void execute(const Plan& plan, const DeviceView<const float>& in, const DeviceView<float>& out,
             CUstream_st* stream = nullptr, void* workspace = nullptr,
             std::size_t workspace_bytes = 0);
void execute(const Plan& plan, const DeviceView<const double>& in, const DeviceView<double>& out,
             CUstream_st* stream = nullptr, void* workspace = nullptr,
             std::size_t workspace_bytes = 0);

}  // namespace dctx::cuda
