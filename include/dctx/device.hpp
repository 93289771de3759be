// SPDX-License-Identifier: BSD-3-Clause
// Device memory as the core sees it: opaque handles that only the owning back end dereferences.
// Users do not fill these by hand: the typed headers of the device back ends do
// (dctx/cuda.hpp: dctx::cuda::execute(plan, DeviceView, DeviceView, cudaStream_t);
// dctx/opencl.hpp: dctx::opencl::execute(plan, Buffer, Buffer, cl_command_queue)), so that a host
// view cannot be passed where device memory is expected (a compile-time error). See
// docs/design.md, "Device memory".
#pragma once

#include <cstddef>

#include "dctx/types.hpp"

namespace dctx {

/// One array on a back end's own memory: element i sits at element offset
/// offset + sum_d i_d * strides[d] from the start of `buffer`.
struct DeviceArray {
  BackendKind backend = BackendKind::Auto;  ///< whose memory this is (CUDA or OpenCL)
  void* buffer = nullptr;                   ///< CUDA: a device pointer; OpenCL: a cl_mem
  std::size_t offset = 0;                   ///< elements from `buffer` to element 0
  const std::ptrdiff_t* strides = nullptr;  ///< element strides, one per axis of the plan
};

/// How a device execution runs: the caller's stream or queue and an optional workspace.
struct DeviceExecution {
  void* queue = nullptr;            ///< cudaStream_t or cl_command_queue; null: the default one
  void* workspace = nullptr;        ///< CUDA: device pointer; OpenCL: cl_mem; null: the plan's own
  std::size_t workspace_bytes = 0;  ///< size of `workspace`: at least Plan::workspace_bytes()
};

}  // namespace dctx
