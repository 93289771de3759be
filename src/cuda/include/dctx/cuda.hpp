// SPDX-License-Identifier: BSD-3-Clause
// Device memory on the CUDA back end (built with DCTX_CUDA): plans made with
// backend = BackendKind::CUDA run on device pointers, asynchronously on the caller's stream.
// Host views work on such plans too (Plan::execute copies in and out and waits). docs/cuda.md.
// This header needs no CUDA header: a cudaStream_t is a CUstream_st*.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "dctx/block8.hpp"
#include "dctx/electrostatics.hpp"
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

/// A batch of 8x8-block planes in device memory: plane b, row r, column c at
/// data + b*plane_stride + r*row_stride + c*col_stride (element strides, any sign). Left 0,
/// row_stride is cols and plane_stride rows*row_stride (C order).
template <class T>
struct DevicePlanes {
  T* data = nullptr;
  std::size_t planes = 1, rows = 0, cols = 0;
  std::ptrdiff_t plane_stride = 0, row_stride = 0, col_stride = 1;
};

/// Enqueues a block plan made with backend = BackendKind::CUDA on `stream` (null: the legacy
/// default stream) and returns without waiting. The element types (float, std::int16_t,
/// std::uint8_t) and shapes are those of Block8Plan::execute, checked the same way (dctx::Error
/// names the argument). `in` may be `out` (in place) but must not overlap it otherwise.
/// `counts`: null, or two device words to which the kernels add the levels that are zero ([0])
/// and OR 1 when a float coefficient to quantize was NaN ([1]; its level is written as 0) — the
/// checks the host entry makes after its call.
template <class TI, class TO>
void execute(const Block8Plan& plan, const DevicePlanes<const TI>& in, const DevicePlanes<TO>& out,
             CUstream_st* stream = nullptr, unsigned long long* counts = nullptr) {
  const auto planes = [](const auto& p, auto* data) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(data)>>;
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, std::int16_t> ||
                      std::is_same_v<T, std::uint8_t>,
                  "block planes hold float, std::int16_t or std::uint8_t");
    const std::ptrdiff_t rs = p.row_stride ? p.row_stride : static_cast<std::ptrdiff_t>(p.cols);
    const std::ptrdiff_t ps =
        p.plane_stride ? p.plane_stride : static_cast<std::ptrdiff_t>(p.rows) * rs;
    return Block8DevicePlanes{BackendKind::CUDA,
                              const_cast<void*>(static_cast<const void*>(data)),
                              p.planes,
                              p.rows,
                              p.cols,
                              ps,
                              rs,
                              p.col_stride,
                              std::is_same_v<T, float>          ? Block8Data::Float32
                              : std::is_same_v<T, std::int16_t> ? Block8Data::Int16
                                                                : Block8Data::UInt8};
  };
  plan.execute_device(planes(in, in.data), planes(out, out.data), stream, counts);
}

/// One electrostatic step of `system` (made with ElectrostaticsDesc::backend = CUDA) on device
/// arrays of its M x N bin grid, enqueued on `stream` (null: the legacy default stream) without
/// waiting: the DCT-II of the density into field_x, the weighting pass of
/// ElectrostaticSystem::solve in one kernel, then the three type-3 transforms in place. Strides
/// as DeviceView's (empty: C order); the outputs must not overlap each other or the density.
/// potential.data null: the fields only. `energy`: null, or one device double that receives the
/// energy in Parseval's form, (M N / 4) sum a^2 / (w_u^2 + w_v^2), which equals sum psi rho' up
/// to rounding (ElectrostaticSystem::fields' form; solve() on the host sums psi rho').
void electrostatics(const ElectrostaticSystem& system, const DeviceView<const float>& density,
                    const DeviceView<float>& potential, const DeviceView<float>& field_x,
                    const DeviceView<float>& field_y, double* energy = nullptr,
                    CUstream_st* stream = nullptr);
void electrostatics(const ElectrostaticSystem& system, const DeviceView<const double>& density,
                    const DeviceView<double>& potential, const DeviceView<double>& field_x,
                    const DeviceView<double>& field_y, double* energy = nullptr,
                    CUstream_st* stream = nullptr);

}  // namespace dctx::cuda
