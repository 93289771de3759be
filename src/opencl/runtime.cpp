// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL runtime of the back end (runtime.hpp): errors, devices, contexts, programs.
#include "opencl/runtime.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/atomic_file.hpp"
#include "dctx/types.hpp"

namespace dctx::ocl {

std::string cl_error_name(cl_int err) {
  switch (err) {
#define DCTX_CL_ERR(x) \
  case x: return #x;
    DCTX_CL_ERR(CL_DEVICE_NOT_FOUND)
    DCTX_CL_ERR(CL_DEVICE_NOT_AVAILABLE)
    DCTX_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
    DCTX_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    DCTX_CL_ERR(CL_OUT_OF_RESOURCES)
    DCTX_CL_ERR(CL_OUT_OF_HOST_MEMORY)
    DCTX_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    DCTX_CL_ERR(CL_MEM_COPY_OVERLAP)
    DCTX_CL_ERR(CL_IMAGE_FORMAT_MISMATCH)
    DCTX_CL_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    DCTX_CL_ERR(CL_BUILD_PROGRAM_FAILURE)
    DCTX_CL_ERR(CL_MAP_FAILURE)
    DCTX_CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    DCTX_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    DCTX_CL_ERR(CL_COMPILE_PROGRAM_FAILURE)
    DCTX_CL_ERR(CL_LINKER_NOT_AVAILABLE)
    DCTX_CL_ERR(CL_LINK_PROGRAM_FAILURE)
    DCTX_CL_ERR(CL_INVALID_VALUE)
    DCTX_CL_ERR(CL_INVALID_DEVICE_TYPE)
    DCTX_CL_ERR(CL_INVALID_PLATFORM)
    DCTX_CL_ERR(CL_INVALID_DEVICE)
    DCTX_CL_ERR(CL_INVALID_CONTEXT)
    DCTX_CL_ERR(CL_INVALID_QUEUE_PROPERTIES)
    DCTX_CL_ERR(CL_INVALID_COMMAND_QUEUE)
    DCTX_CL_ERR(CL_INVALID_HOST_PTR)
    DCTX_CL_ERR(CL_INVALID_MEM_OBJECT)
    DCTX_CL_ERR(CL_INVALID_BINARY)
    DCTX_CL_ERR(CL_INVALID_BUILD_OPTIONS)
    DCTX_CL_ERR(CL_INVALID_PROGRAM)
    DCTX_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    DCTX_CL_ERR(CL_INVALID_KERNEL_NAME)
    DCTX_CL_ERR(CL_INVALID_KERNEL_DEFINITION)
    DCTX_CL_ERR(CL_INVALID_KERNEL)
    DCTX_CL_ERR(CL_INVALID_ARG_INDEX)
    DCTX_CL_ERR(CL_INVALID_ARG_VALUE)
    DCTX_CL_ERR(CL_INVALID_ARG_SIZE)
    DCTX_CL_ERR(CL_INVALID_KERNEL_ARGS)
    DCTX_CL_ERR(CL_INVALID_WORK_DIMENSION)
    DCTX_CL_ERR(CL_INVALID_WORK_GROUP_SIZE)
    DCTX_CL_ERR(CL_INVALID_WORK_ITEM_SIZE)
    DCTX_CL_ERR(CL_INVALID_GLOBAL_OFFSET)
    DCTX_CL_ERR(CL_INVALID_EVENT_WAIT_LIST)
    DCTX_CL_ERR(CL_INVALID_EVENT)
    DCTX_CL_ERR(CL_INVALID_OPERATION)
    DCTX_CL_ERR(CL_INVALID_BUFFER_SIZE)
    DCTX_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
    DCTX_CL_ERR(CL_INVALID_PROPERTY)
#undef DCTX_CL_ERR
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "CL error " + std::to_string(err);
  }
}

void fail(const char* call, cl_int err) {
  throw Error("OpenCL: " + std::string(call) + " failed: " + cl_error_name(err) + " (" +
                  std::to_string(err) + ")",
              ErrorKind::DeviceFailure);
}

namespace {

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (clGetDeviceInfo(d, what, n, s.data(), nullptr) != CL_SUCCESS) return {};
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  check(clGetDeviceInfo(d, what, sizeof v, &v, nullptr), "clGetDeviceInfo");
  return v;
}

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}

std::vector<DeviceInfo> enumerate(std::string& why) {
  std::vector<DeviceInfo> r;
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &np);
  if (err != CL_SUCCESS || np == 0) {
    why = err == CL_SUCCESS || err == -1001
              ? "no OpenCL platform (install a driver, e.g. pocl-opencl-icd)"
              : "no OpenCL platform: clGetPlatformIDs failed: " + cl_error_name(err);
    return r;
  }
  std::vector<cl_platform_id> platforms(np);
  check(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");
  const bool mask_fp64 = env_flag("DCTX_OPENCL_NO_FP64");
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS) continue;
    std::vector<cl_device_id> ids(nd);
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, ids.data(), nullptr) != CL_SUCCESS)
      continue;
    std::size_t pn = 0;
    std::string pname;
    if (clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, 0, nullptr, &pn) == CL_SUCCESS && pn) {
      pname.resize(pn);
      clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, pn, pname.data(), nullptr);
      while (!pname.empty() && pname.back() == '\0') pname.pop_back();
    }
    for (std::size_t d = 0; d < ids.size(); ++d) {
      DeviceInfo i;
      i.platform_index = p;
      i.device_index = d;
      i.platform = platforms[p];
      i.id = ids[d];
      i.name = device_string(ids[d], CL_DEVICE_NAME);
      i.platform_name = pname;
      i.version = device_string(ids[d], CL_DEVICE_VERSION);
      i.driver = device_string(ids[d], CL_DRIVER_VERSION);
      i.gpu = (device_value<cl_device_type>(ids[d], CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0;
      std::string ext = device_string(ids[d], CL_DEVICE_EXTENSIONS);
      ext.insert(ext.begin(), ' ');
      ext.push_back(' ');
      i.fp64 = ext.find(" cl_khr_fp64 ") != std::string::npos && !mask_fp64;
      i.local_mem =
          static_cast<std::size_t>(device_value<cl_ulong>(ids[d], CL_DEVICE_LOCAL_MEM_SIZE));
      i.max_work_group = device_value<std::size_t>(ids[d], CL_DEVICE_MAX_WORK_GROUP_SIZE);
      i.max_alloc = device_value<cl_ulong>(ids[d], CL_DEVICE_MAX_MEM_ALLOC_SIZE);
      r.push_back(std::move(i));
    }
  }
  if (r.empty()) why = "no OpenCL device on " + std::to_string(np) + " platform(s)";
  return r;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string list_devices(const std::vector<DeviceInfo>& all) {
  std::string s;
  for (const DeviceInfo& i : all)
    s += (s.empty() ? "" : ", ") + std::to_string(i.platform_index) + ":" +
         std::to_string(i.device_index) + " '" + i.name + "'";
  return s;
}

std::size_t pick(const std::vector<DeviceInfo>& all, const std::string& select,
                 const char* origin) {
  const auto refuse = [&](const std::string& what) -> std::size_t {
    throw Error(std::string(origin) + " '" + select + "' " + what + "; the devices are " +
                    list_devices(all),
                ErrorKind::BackendUnavailable);
  };
  const auto all_digits = [](const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
  };
  const std::size_t colon = select.find(':');
  if (colon != std::string::npos && all_digits(select.substr(0, colon)) &&
      all_digits(select.substr(colon + 1))) {
    const unsigned long p = std::stoul(select.substr(0, colon));
    const unsigned long d = std::stoul(select.substr(colon + 1));
    for (std::size_t k = 0; k < all.size(); ++k)
      if (all[k].platform_index == p && all[k].device_index == d) return k;
    return refuse("names no device (platform:device)");
  }
  if (all_digits(select)) {
    const unsigned long k = std::stoul(select);
    if (k < all.size()) return k;
    return refuse("is past the last device index " + std::to_string(all.size() - 1));
  }
  const std::string want = lower(select);
  for (std::size_t k = 0; k < all.size(); ++k)
    if (lower(all[k].name).find(want) != std::string::npos) return k;
  return refuse("matches no device name");
}

struct Opened {
  std::mutex mutex;
  std::map<std::size_t, std::shared_ptr<Device>> devices;
};
Opened& opened() {
  static Opened* o = new Opened;  // lives for the process: kernels may run at exit
  return *o;
}

std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string hex(std::uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = digits[v & 15];
  return s;
}

}  // namespace

const std::vector<DeviceInfo>& all_devices(std::string* why) {
  static std::string reason;
  static const std::vector<DeviceInfo> devices = [] {
    try {
      return enumerate(reason);
    } catch (const Error& e) {
      reason = e.what();
      return std::vector<DeviceInfo>{};
    }
  }();
  if (why) *why = reason;
  return devices;
}

Device::Device(const DeviceInfo& info) : info_(info) {
  cl_int err = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(info.platform), 0};
  context_ = clCreateContext(props, 1, &info_.id, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  queue_ = clCreateCommandQueue(context_, info_.id, 0, &err);
  if (err != CL_SUCCESS) {
    clReleaseContext(context_);
    fail("clCreateCommandQueue", err);
  }
}

Device::~Device() {
  for (auto& [key, p] : programs_) clReleaseProgram(p);
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

cl_program Device::program(const char* name, const char* source, const std::string& options) {
  std::string key = options + '\n' + name;
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;

  // The disk cache: one binary per device, driver, options and source.
  std::string cache_file;
  if (const char* dir = std::getenv("DCTX_OPENCL_CACHE_DIR"); dir && *dir)
    cache_file = std::string(dir) + "/dctx-" +
                 hex(fnv1a(info_.name + '\n' + info_.driver + '\n' + info_.version + '\n' +
                           options + '\n' + hex(fnv1a(source)) + '\n' + name)) +
                 ".clbin";
  cl_int err = CL_SUCCESS;
  cl_program prog = nullptr;
  if (!cache_file.empty()) {
    std::ifstream f(cache_file, std::ios::binary);
    const std::string bin((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (!bin.empty()) {
      const auto* data = reinterpret_cast<const unsigned char*>(bin.data());
      const std::size_t len = bin.size();
      cl_int status = CL_SUCCESS;
      prog = clCreateProgramWithBinary(context_, 1, &info_.id, &len, &data, &status, &err);
      if (err != CL_SUCCESS || status != CL_SUCCESS ||
          clBuildProgram(prog, 1, &info_.id, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        if (prog) clReleaseProgram(prog);
        prog = nullptr;  // a stale or foreign binary: build from source below
      }
    }
  }
  const bool from_source = prog == nullptr;
  if (from_source) {
    const char* src = source;
    const std::size_t len = std::strlen(source);
    prog = clCreateProgramWithSource(context_, 1, &src, &len, &err);
    check(err, "clCreateProgramWithSource");
    err = clBuildProgram(prog, 1, &info_.id, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
      std::size_t n = 0;
      clGetProgramBuildInfo(prog, info_.id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
      std::string log(n, '\0');
      if (n) clGetProgramBuildInfo(prog, info_.id, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
      clReleaseProgram(prog);
      throw Error("OpenCL: building " + std::string(name) + " for '" + info_.name + "' failed: " +
                      cl_error_name(err) + " (options: " + options + ")\nbuild log:\n" + log,
                  ErrorKind::DeviceFailure);
    }
  }
  if (from_source && !cache_file.empty()) {
    std::size_t size = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) ==
            CL_SUCCESS &&
        size > 0) {
      std::string bin(size, '\0');
      unsigned char* ptr = reinterpret_cast<unsigned char*>(bin.data());
      if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) == CL_SUCCESS) {
        try {
          detail::write_file_atomic(cache_file, bin);
        } catch (const Error&) {
          // A cache that cannot be written only costs the next process a build.
        }
      }
    }
  }
  programs_.emplace(std::move(key), prog);
  return prog;
}

Kernel Device::kernel(cl_program program, const char* kernel_name) const {
  cl_int err = CL_SUCCESS;
  Kernel k(clCreateKernel(program, kernel_name, &err));
  check(err, "clCreateKernel");
  return k;
}

Mem Device::buffer(std::size_t bytes, cl_mem_flags flags, const void* host) const {
  if (bytes > info_.max_alloc)
    throw Error("OpenCL: a buffer of " + std::to_string(bytes) + " bytes exceeds the " +
                    std::to_string(info_.max_alloc) + "-byte allocation limit of '" + info_.name +
                    "'",
                ErrorKind::DeviceFailure);
  cl_int err = CL_SUCCESS;
  Mem m(clCreateBuffer(context_, flags, bytes == 0 ? 1 : bytes, const_cast<void*>(host), &err));
  check(err, "clCreateBuffer");
  return m;
}

std::shared_ptr<Device> open_device(const std::string& select) {
  std::string why;
  const std::vector<DeviceInfo>& all = all_devices(&why);
  if (all.empty()) throw Error("OpenCL: " + why, ErrorKind::BackendUnavailable);
  std::size_t k = 0;
  if (!select.empty()) {
    k = pick(all, select, "OpenCL device");
  } else if (const char* env = std::getenv("DCTX_OPENCL_DEVICE"); env && *env) {
    k = pick(all, env, "DCTX_OPENCL_DEVICE");
  } else {
    const auto gpu =
        std::find_if(all.begin(), all.end(), [](const DeviceInfo& i) { return i.gpu; });
    k = gpu == all.end() ? 0 : static_cast<std::size_t>(gpu - all.begin());
  }
  Opened& o = opened();
  std::lock_guard<std::mutex> lock(o.mutex);
  auto& slot = o.devices[k];
  if (!slot) slot = std::make_shared<Device>(all[k]);
  return slot;
}

std::shared_ptr<Device> device_of_context(cl_context context) {
  Opened& o = opened();
  std::lock_guard<std::mutex> lock(o.mutex);
  for (auto& [k, d] : o.devices)
    if (d->context() == context) return d;
  return nullptr;
}

}  // namespace dctx::ocl
