// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL back end's runtime: driver errors as dctx::Errors that name the call and the CL
// error, the devices of every platform and the choice among them (by API, by the
// DCTX_OPENCL_DEVICE environment variable, else the first GPU), one context and default queue
// per device, and the program cache (per device, source name and build options in memory; with
// the source's hash on disk under DCTX_OPENCL_CACHE_DIR when that is set).
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dctx::ocl {

/// "CL_OUT_OF_RESOURCES" for -5, "CL error -9999" for codes it does not know.
std::string cl_error_name(cl_int err);
/// Throws dctx::Error (ErrorKind::DeviceFailure): "OpenCL: <call> failed: <name> (<code>)".
[[noreturn]] void fail(const char* call, cl_int err);
inline void check(cl_int err, const char* call) {
  if (err != CL_SUCCESS) fail(call, err);
}

/// Owns one OpenCL object and releases it (clRelease*).
template <class H, cl_int (*Release)(H)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(H h) : h_(h) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = o.h_;
      o.h_ = nullptr;
    }
    return *this;
  }
  ~Handle() { reset(); }
  void reset() {
    if (h_) Release(h_);
    h_ = nullptr;
  }
  H get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }

 private:
  H h_ = nullptr;
};
using Mem = Handle<cl_mem, clReleaseMemObject>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Program = Handle<cl_program, clReleaseProgram>;
using Event = Handle<cl_event, clReleaseEvent>;

/// What enumeration found about one device.
struct DeviceInfo {
  std::size_t platform_index = 0, device_index = 0;  ///< "P:D" in DCTX_OPENCL_DEVICE
  cl_platform_id platform = nullptr;
  cl_device_id id = nullptr;
  std::string name, platform_name, version, driver;
  bool gpu = false;
  bool fp64 = false;          ///< cl_khr_fp64 (masked by DCTX_OPENCL_NO_FP64=1, for tests)
  std::size_t local_mem = 0;  ///< CL_DEVICE_LOCAL_MEM_SIZE
  std::size_t max_work_group = 0;
  std::uint64_t max_alloc = 0;  ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE
};

/// Every device of every platform, enumerated once. Empty with `why` set when there is none
/// (no ICD loader, no platform, no device).
const std::vector<DeviceInfo>& all_devices(std::string* why = nullptr);

/// An opened device: its context, a default in-order queue, and its programs.
class Device {
 public:
  explicit Device(const DeviceInfo& info);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const { return info_; }
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }

  /// The program built from `source` with `options`, from the cache when it was built before
  /// (in memory; on disk under DCTX_OPENCL_CACHE_DIR). A failed build throws dctx::Error with the
  /// build log. `name` names the source ("r2r_lines.cl"): one name, one source in a process (the
  /// kernels are compiled in), so the in-memory cache is keyed by name and options and a lookup
  /// does not read the source.
  cl_program program(const char* name, const char* source, const std::string& options);

  /// A fresh kernel of `program` (kernels are not shared: clSetKernelArg is not thread-safe).
  Kernel kernel(cl_program program, const char* kernel_name) const;
  /// A buffer of `bytes` bytes (at least 1) in this device's context.
  Mem buffer(std::size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE,
             const void* host = nullptr) const;

 private:
  DeviceInfo info_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::mutex mutex_;
  std::map<std::string, cl_program> programs_;
};

/// The device `select` names (empty: DCTX_OPENCL_DEVICE, else the first GPU, else the first
/// device): "P:D" (platform and device index), "D" (index among all devices), or a
/// case-insensitive substring of the device name. Opened once and kept for the process's life.
/// Throws dctx::Error (BackendUnavailable) naming what was asked and what exists.
std::shared_ptr<Device> open_device(const std::string& select);

/// The device of `context` (a context dctx made), or nullptr.
std::shared_ptr<Device> device_of_context(cl_context context);

}  // namespace dctx::ocl
