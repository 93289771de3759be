// SPDX-License-Identifier: BSD-3-Clause
// The CUDA back end's runtime: every CUDA and cuFFT status turned into a dctx::Error naming the
// call, the devices of this machine, device selection (PlanDesc::device.select) and the check
// that a pointer given as device memory is device memory of the plan's device.
#pragma once

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstddef>
#include <string>
#include <vector>

#include "dctx/types.hpp"

namespace dctx::cu {

/// Throws dctx::Error (DeviceFailure; BackendUnavailable for a missing device or driver) naming
/// `call` and CUDA's own message when `status` is not cudaSuccess.
void check(cudaError_t status, const char* call);
/// Likewise for cuFFT.
void check(cufftResult status, const char* call);

struct DeviceInfo {
  int index = 0;
  std::string name;
  int major = 0, minor = 0;  ///< compute capability
  std::size_t memory = 0;    ///< bytes of global memory
};
/// Every CUDA device (empty when there is none; `why` then says why: no driver, no device).
/// Probed once per process.
const std::vector<DeviceInfo>& all_devices(std::string* why = nullptr);
/// The device `select` names: empty, the current device; a number, that index; otherwise the
/// first device whose name contains it. Throws dctx::Error naming `select` when none matches.
const DeviceInfo& select_device(const std::string& select);

/// Makes `device` current for a scope and restores the caller's device after.
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = -1;
};

/// Device memory (cudaMalloc) freed with its owner.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) {
    check(cudaMalloc(&p_, bytes ? bytes : 16), "cudaMalloc");
  }
  ~DeviceBuffer() { (void)cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
};

/// Stream-ordered scratch of one call (cudaMallocAsync), freed on the stream after the call.
/// `what` names it in the error ("the plan's workspace").
struct StreamScratch {
  void* p = nullptr;
  cudaStream_t stream;
  StreamScratch(std::size_t bytes, cudaStream_t s, const char* what = "the plan's workspace")
      : stream(s) {
    const cudaError_t status = cudaMallocAsync(&p, bytes, s);
    if (status != cudaSuccess)
      check(status, (std::string("cudaMallocAsync (") + what + ")").c_str());
  }
  ~StreamScratch() { (void)cudaFreeAsync(p, stream); }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
};

/// Throws dctx::Error unless `p` points to memory that `device` can use as device memory
/// (device or managed allocations): a host pointer is named as such. `what` is the argument's
/// name ("in", "out"), `call` the API function.
void require_device_pointer(const void* p, int device, const char* what, const char* call);

}  // namespace dctx::cu
