// SPDX-License-Identifier: BSD-3-Clause
// Device memory on the OpenCL back end (built with DCTX_OPENCL): plans made with
// backend = BackendKind::OpenCL run on cl_mem buffers of the context dctx opened for their
// device, asynchronously on a queue of that context. Host views work on such plans too
// (Plan::execute copies in and out). docs/opencl.md.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstddef>
#include <string>
#include <vector>

#include "dctx/plan.hpp"

namespace dctx {
class ElectrostaticSystem;  // dctx/electrostatics.hpp
}  // namespace dctx

namespace dctx::opencl {

/// One OpenCL device as dctx sees it.
struct DeviceInfo {
  std::string select;  ///< "P:D": what PlanDesc::device.select and DCTX_OPENCL_DEVICE accept
  std::string name, platform, version, driver;
  bool gpu = false;
  bool fp64 = false;  ///< cl_khr_fp64: float64 plans need it
  std::size_t local_memory = 0;
};
/// Every device of every platform (empty when there is none).
std::vector<DeviceInfo> devices();

/// The context and default queue dctx uses for the device `select` names (empty: the default
/// device, as plans choose it). Allocate the buffers of execute() in this context. Owned by
/// dctx for the life of the process: do not release them.
struct Context {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;  ///< in order; the queue of host-memory executions
  cl_device_id device = nullptr;
  DeviceInfo info;
};
Context context(const std::string& select = {});
/// The context of an OpenCL plan's device.
Context context(const Plan& plan);

/// A strided array in a buffer: element i sits at element offset offset + sum_d i_d strides[d]
/// (element strides, any sign; empty strides: C order of the plan's shape).
struct Buffer {
  cl_mem mem = nullptr;
  std::size_t offset = 0;
  std::vector<std::ptrdiff_t> strides;
};

/// Enqueues the plan on `queue` (null: the context's default queue) and returns without waiting.
/// `in` and `out` may be one buffer (in place, or any overlap). `workspace`, when given, holds at
/// least plan.workspace_bytes() bytes; null: the plan allocates its own for the call.
void execute(const Plan& plan, const Buffer& in, const Buffer& out,
             cl_command_queue queue = nullptr, cl_mem workspace = nullptr,
             std::size_t workspace_bytes = 0);

/// DREAMPlace's electrostatic step (dctx/electrostatics.hpp) on device buffers, whole on the
/// device and enqueued on `queue` (null: the context's default queue) without waiting: the
/// DCT-II of `density` into field_x, one weighting kernel (the CPU's pass, in double; in float
/// on a device without cl_khr_fp64; its Parseval sum reduced in a fixed order) and the three
/// type-3 plans in place. The system must
/// be made with backend = BackendKind::OpenCL; the buffers hold its precision's elements in the
/// context of its device, with 2 element strides each or none (C order). A null potential.mem
/// gives the fields alone; a non-null `energy` receives the energy as one double at element
/// `energy_offset`. The outputs must not overlap the density or each other.
void electrostatics(const ElectrostaticSystem& system, const Buffer& density,
                    const Buffer& potential, const Buffer& field_x, const Buffer& field_y,
                    cl_mem energy = nullptr, std::size_t energy_offset = 0,
                    cl_command_queue queue = nullptr);

}  // namespace dctx::opencl
