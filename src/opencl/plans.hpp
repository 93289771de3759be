// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL back end's plans: the axis passes of r2r_lines.cl (DCT/DST types II-IV), the
// host route for what has no OpenCL kernel yet (type I, more than nine axes), and the 8x8
// block plans of block8.cl.
#pragma once

#include <memory>
#include <vector>

#include "core/backend.hpp"
#include "core/dense_layout.hpp"
#include "core/electrostatics_backend.hpp"
#include "opencl/runtime.hpp"

namespace dctx::ocl {

/// The source of an embedded kernel file, by file name ("r2r_lines.cl"); generated at build
/// time from src/opencl/kernels (CMake's embed step).
const char* kernel_source(const char* file);

/// Whether the kernels of r2r_lines.cl compute `d` (normalised, backend OpenCL).
bool lines_route_applies(const PlanDesc& d);
/// A plan of the axis passes on `device`.
std::unique_ptr<detail::BackendPlan> make_lines_plan(std::shared_ptr<Device> device,
                                                     const PlanDesc& d);
/// The electrostatic step's arrays for a weighted DCT-II (r2r_lines.cl's WEIGH): the potential
/// (null: the fields only) and field_y with element offsets and strides, the weighting tables
/// (w_u, w_v, w_v^2 in double; in float on a device without cl_khr_fp64), 1 / (M N bin area),
/// and room for one partial sum of the energy per work-group of the last pass (at most one per
/// column; of the tables' type).
struct WeighArgs {
  cl_mem pot = nullptr;
  cl_long po = 0, ps0 = 0, ps1 = 0;
  cl_mem fy = nullptr;
  cl_long yo = 0, ys0 = 0, ys1 = 0;
  cl_mem tables = nullptr;
  double scale = 1;
  cl_mem partials = nullptr;
};
/// The 2D forward DCT-II of an M x N grid with DREAMPlace's weighting fused into the stores of
/// its last pass (along axis 0): field_x (`out`) receives its type-3 input, not a, when the
/// potential is null; with the potential, `out` is left unwritten (the step makes field_x from the
/// potential's pass along v).
class WeighedDct2 {
 public:
  virtual ~WeighedDct2() = default;
  /// Enqueues it on q; returns how many partial sums of the energy it writes.
  virtual std::size_t enqueue_weighed(cl_command_queue q, cl_mem in, std::size_t in_off,
                                      const std::ptrdiff_t* is, cl_mem out, std::size_t out_off,
                                      const std::ptrdiff_t* os, cl_mem ws,
                                      const WeighArgs& w) const = 0;
  virtual std::size_t workspace_bytes() const = 0;
};
/// `d` normalised: unnormalised DCT-II over both axes of a 2D grid. The weighting runs in double
/// (the CPU's bits) where the device has cl_khr_fp64, else in float.
std::unique_ptr<WeighedDct2> make_weighed_dct2(std::shared_ptr<Device> device, const PlanDesc& d);

/// A plan that runs `d` on the CPU back end, copying device arrays through host memory; `why`
/// goes into describe().
std::unique_ptr<detail::BackendPlan> make_host_route_plan(std::shared_ptr<Device> device,
                                                          const PlanDesc& d, std::string why);

/// DREAMPlace's electrostatic step whole on the device of `d` for host arrays (electrostatics.cpp).
std::unique_ptr<detail::BackendElectrostatics> make_electrostatics_step(
    const ElectrostaticsDesc& d);

/// An 8x8 block plan on `device` (block8_plan.cpp, kernels/block8.cl); built with DCTX_BLOCK8.
std::unique_ptr<detail::BackendBlock8Plan> make_block8_plan(std::shared_ptr<Device> device,
                                                            const detail::Block8Spec& spec);

/// Refuses, with a dctx::Error "<fn>: <name> ...", a null buffer, one too small for the elements
/// `offset` and `strides` reach (elements of `elem_bytes` bytes), and, when `context` is given,
/// a buffer of another context.
void check_buffer(const char* fn, const char* name, const void* mem, std::size_t offset,
                  const Shape& shape, const std::ptrdiff_t* strides, std::size_t elem_bytes,
                  cl_context context = nullptr);

/// Copies the host array `data` (the `shape` with element `strides`) into the dense buffer `mem`:
/// directly when it is dense, else through `staging`. Blocking, so that an error later in a call
/// cannot leave the driver reading host memory that the unwinding frees or hands back.
template <class T>
void upload_host(cl_command_queue q, cl_mem mem, const Shape& shape, const T* data,
                 const std::ptrdiff_t* strides, std::vector<T>& staging) {
  std::size_t total = 1;
  for (std::size_t e : shape) total *= e;
  if (!detail::is_dense(shape, strides)) {
    staging.resize(total);
    detail::copy_strided<T, true>(shape, const_cast<T*>(data), strides, staging.data());
    data = staging.data();
  }
  check(clEnqueueWriteBuffer(q, mem, CL_TRUE, 0, total * sizeof(T), data, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}
/// The reverse: the dense buffer `mem` into the host array `data`, waiting for the queue.
template <class T>
void download_host(cl_command_queue q, cl_mem mem, const Shape& shape, T* data,
                   const std::ptrdiff_t* strides, std::vector<T>& staging) {
  std::size_t total = 1;
  for (std::size_t e : shape) total *= e;
  const bool dense = detail::is_dense(shape, strides);
  if (!dense) staging.resize(total);
  check(clEnqueueReadBuffer(q, mem, CL_TRUE, 0, total * sizeof(T), dense ? data : staging.data(), 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");
  if (!dense) detail::copy_strided<T, false>(shape, data, strides, staging.data());
}

// Strided host arrays and spans (core/dense_layout.hpp).
using detail::dense_strides;
using detail::element_span;

}  // namespace dctx::ocl
