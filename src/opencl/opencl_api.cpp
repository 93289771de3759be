// SPDX-License-Identifier: BSD-3-Clause
// The public OpenCL API (dctx/opencl.hpp) over the back end's runtime and Plan::execute_device.
#include "dctx/opencl.hpp"

#include "opencl/plans.hpp"

namespace dctx::ocl {

void check_buffer(const char* fn, const char* name, const void* mem, std::size_t offset,
                  const Shape& shape, const std::ptrdiff_t* strides, std::size_t elem_bytes,
                  cl_context context) {
  const std::string where = std::string(fn) + ": " + name;
  if (!mem) throw Error(where + " is a null cl_mem");
  const cl_mem m = static_cast<cl_mem>(const_cast<void*>(mem));
  std::ptrdiff_t lo = 0, hi = 0;
  element_span(shape, strides, lo, hi);
  std::size_t size = 0;
  check(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, nullptr),
        "clGetMemObjectInfo (is it a cl_mem?)");
  const std::ptrdiff_t first = static_cast<std::ptrdiff_t>(offset) + lo;
  if (first < 0 ||
      static_cast<std::size_t>(static_cast<std::ptrdiff_t>(offset) + hi + 1) * elem_bytes > size)
    throw Error(where + " reaches elements " + std::to_string(first) + ".." +
                std::to_string(static_cast<std::ptrdiff_t>(offset) + hi) +
                " but its buffer holds " + std::to_string(size / elem_bytes));
  if (context) {
    cl_context c = nullptr;
    check(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, nullptr), "clGetMemObjectInfo");
    if (c != context)
      throw Error(where +
                  " belongs to another OpenCL context than the device's (allocate it in "
                  "dctx::opencl::context(...).context)");
  }
}

}  // namespace dctx::ocl

namespace dctx::opencl {
namespace {

DeviceInfo public_info(const ocl::DeviceInfo& i) {
  DeviceInfo r;
  r.select = std::to_string(i.platform_index) + ":" + std::to_string(i.device_index);
  r.name = i.name;
  r.platform = i.platform_name;
  r.version = i.version;
  r.driver = i.driver;
  r.gpu = i.gpu;
  r.fp64 = i.fp64;
  r.local_memory = i.local_mem;
  return r;
}

}  // namespace

std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> r;
  for (const ocl::DeviceInfo& i : ocl::all_devices()) r.push_back(public_info(i));
  return r;
}

Context context(const std::string& select) {
  const auto dev = ocl::open_device(select);
  return Context{dev->context(), dev->queue(), dev->info().id, public_info(dev->info())};
}

Context context(const Plan& plan) {
  if (plan.desc().backend != BackendKind::OpenCL)
    throw Error("dctx::opencl::context: the plan runs on the " +
                std::string(to_string(plan.desc().backend)) + " back end, not opencl");
  return context(plan.desc().device.select);
}

void execute(const Plan& plan, const Buffer& in, const Buffer& out, cl_command_queue queue,
             cl_mem workspace, std::size_t workspace_bytes) {
  const Shape& shape = plan.desc().shape;
  const std::vector<std::ptrdiff_t> dense = ocl::dense_strides(shape);
  for (const Buffer* b : {&in, &out})
    if (!b->strides.empty() && b->strides.size() != shape.size())
      throw Error("dctx::opencl::execute: " + std::string(b == &in ? "in" : "out") + " has " +
                  std::to_string(b->strides.size()) + " strides but the plan's arrays have " +
                  std::to_string(shape.size()) + " axes");
  const DeviceArray a{BackendKind::OpenCL, in.mem, in.offset,
                      in.strides.empty() ? dense.data() : in.strides.data()};
  const DeviceArray b{BackendKind::OpenCL, out.mem, out.offset,
                      out.strides.empty() ? dense.data() : out.strides.data()};
  // Buffers must be big enough for every element they are asked to hold.
  const std::size_t es = plan.desc().precision == Precision::F32 ? 4 : 8;
  ocl::check_buffer("dctx::opencl::execute", "in", a.buffer, a.offset, shape, a.strides, es);
  ocl::check_buffer("dctx::opencl::execute", "out", b.buffer, b.offset, shape, b.strides, es);
  plan.execute_device(a, b, plan.desc().precision,
                      DeviceExecution{queue, workspace, workspace ? workspace_bytes : 0});
}

}  // namespace dctx::opencl
