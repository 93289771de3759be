// SPDX-License-Identifier: BSD-3-Clause
// The CUDA back end's runtime (runtime.hpp).
#include "cuda/runtime.hpp"

#include <cstdlib>
#include <mutex>

namespace dctx::cu {
namespace {

const char* cufft_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED (out of device memory)";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE (a bad pointer or argument)";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED (no usable device or driver)";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "an unknown cuFFT status";
  }
}

}  // namespace

void check(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  const bool absent = status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver;
  throw Error(
      std::string(call) + ": " + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) + ")",
      absent ? ErrorKind::BackendUnavailable : ErrorKind::DeviceFailure);
}

void check(cufftResult status, const char* call) {
  if (status == CUFFT_SUCCESS) return;
  throw Error(std::string(call) + ": " + cufft_name(status), ErrorKind::DeviceFailure);
}

const std::vector<DeviceInfo>& all_devices(std::string* why) {
  static std::vector<DeviceInfo> devices;
  static std::string reason;
  static std::once_flag once;
  std::call_once(once, [] {
    int count = 0;
    const cudaError_t s = cudaGetDeviceCount(&count);
    if (s != cudaSuccess) {
      (void)cudaGetLastError();
      reason = std::string("no CUDA device (cudaGetDeviceCount: ") + cudaGetErrorString(s) + ")";
      return;
    }
    if (count == 0) reason = "no CUDA device (cudaGetDeviceCount found none)";
    for (int i = 0; i < count; ++i) {
      cudaDeviceProp p{};
      if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
      devices.push_back({i, p.name, p.major, p.minor, p.totalGlobalMem});
    }
  });
  if (why) *why = reason;
  return devices;
}

const DeviceInfo& select_device(const std::string& select) {
  std::string why;
  const auto& devs = all_devices(&why);
  if (devs.empty()) throw Error(why, ErrorKind::BackendUnavailable);
  if (select.empty()) {
    int current = 0;
    check(cudaGetDevice(&current), "cudaGetDevice");
    for (const DeviceInfo& d : devs)
      if (d.index == current) return d;
    return devs.front();
  }
  char* end = nullptr;
  const long index = std::strtol(select.c_str(), &end, 10);
  if (end && *end == '\0') {
    for (const DeviceInfo& d : devs)
      if (d.index == index) return d;
    throw Error("device.select '" + select + "': this machine has CUDA devices 0.." +
                    std::to_string(devs.size() - 1),
                ErrorKind::BackendUnavailable);
  }
  for (const DeviceInfo& d : devs)
    if (d.name.find(select) != std::string::npos) return d;
  throw Error("device.select '" + select + "' names no CUDA device (the first is '" +
                  devs.front().name + "')",
              ErrorKind::BackendUnavailable);
}

DeviceScope::DeviceScope(int device) {
  check(cudaGetDevice(&previous_), "cudaGetDevice");
  if (previous_ != device) check(cudaSetDevice(device), "cudaSetDevice");
}
DeviceScope::~DeviceScope() {
  int now = -1;
  if (cudaGetDevice(&now) == cudaSuccess && now != previous_) (void)cudaSetDevice(previous_);
}

void require_device_pointer(const void* p, int device, const char* what, const char* call) {
  cudaPointerAttributes a{};
  const cudaError_t s = cudaPointerGetAttributes(&a, p);
  if (s != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error(std::string(call) + ": " + what + " is not a pointer CUDA knows (" +
                cudaGetErrorString(s) + "): pass device memory");
  }
  if (a.type == cudaMemoryTypeHost || a.type == cudaMemoryTypeUnregistered)
    throw Error(std::string(call) + ": " + what +
                " is a host pointer where a device pointer is needed (use Plan::execute for host "
                "memory)");
  if (a.type == cudaMemoryTypeDevice && a.device != device)
    throw Error(std::string(call) + ": " + what + " is memory of CUDA device " +
                std::to_string(a.device) + " but the plan runs on device " +
                std::to_string(device));
}

}  // namespace dctx::cu
