// SPDX-License-Identifier: BSD-3-Clause
// The seam of the 8x8 block engine: what a back end implements to run block plans
// (dctx::Block8Plan, include/dctx/block8.hpp). The front end (src/block8) validates every view,
// resolves the plane geometry and the overlap, and calls the back end's BackendBlock8Plan; the
// back end (src/cpu/block8 today) owns the kernels and their prepared constants.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/overlap.hpp"
#include "dctx/block8.hpp"

namespace dctx::detail {

/// A normalised block description as a back end receives it: the kernel resolved (Reference,
/// Fast or Int16; Auto for Quantize and Dequantize), the table validated where the operation
/// takes one.
struct Block8Spec {
  Block8PlanDesc desc;
};

/// A validated batch of planes on host memory: plane b, row r, column c is element
/// data + b*plane_stride + r*row_stride + c*col_stride (element strides, any sign).
struct Block8Planes {
  const void* data = nullptr;
  std::size_t count = 1;  ///< planes
  std::ptrdiff_t plane_stride = 0;
  std::size_t rows = 0, cols = 0;
  std::ptrdiff_t row_stride = 0, col_stride = 0;
};

/// One execution (host memory; device memory for BackendBlock8Plan::execute_device): element types
/// follow the plan's operation and data type (float or int16 samples and coefficients, int16
/// levels). The block grid is padded_rows x padded_cols (multiples of 8); `in` may be smaller (its
/// last row and column are replicated) and `out` may be smaller (cropped). Overlap::Partial: the
/// input must be read before the output is written.
struct Block8HostCall {
  Block8Planes in;
  Block8Planes out;  ///< data points to writable memory
  std::size_t padded_rows = 0, padded_cols = 0;
  Overlap overlap = Overlap::Disjoint;
};

/// Element-by-element copy between a batch of planes and a dense one (C order, elements of
/// `bytes` bytes): kGather reads `p` into `dense`, otherwise `dense` is written to `p`. For device
/// back ends that stage host planes.
template <bool kGather>
void copy_planes(const Block8Planes& p, std::size_t bytes, char* dense) {
  char* base = static_cast<char*>(const_cast<void*>(p.data));
  for (std::size_t b = 0; b < p.count; ++b)
    for (std::size_t r = 0; r < p.rows; ++r) {
      const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(b) * p.plane_stride +
                                 static_cast<std::ptrdiff_t>(r) * p.row_stride;
      for (std::size_t c = 0; c < p.cols; ++c, dense += bytes) {
        char* e = base + (row + static_cast<std::ptrdiff_t>(c) * p.col_stride) *
                             static_cast<std::ptrdiff_t>(bytes);
        if constexpr (kGather)
          std::memcpy(dense, e, bytes);
        else
          std::memcpy(e, dense, bytes);
      }
    }
}

/// Set in a block execution's result when a coefficient to quantize to an int16 level was NaN.
inline constexpr std::uint64_t kNaNCoefficient = std::uint64_t{1} << 63;

/// A back end's block plan. Thread-safe: execute() is const.
class BackendBlock8Plan {
 public:
  virtual ~BackendBlock8Plan() = default;
  /// Runs the operation; returns the number of levels that are zero (quantizing operations),
  /// with kNaNCoefficient set when a float coefficient to quantize was NaN (it has no level; the
  /// front end turns that into an Error).
  virtual std::uint64_t execute(const Block8HostCall& call) const = 0;
  /// Enqueues the operation on `queue` with `call`'s pointers in the back end's device memory
  /// and returns without waiting; `counts`: null or the two device words of
  /// Block8Plan::execute_device. Back ends that work on host memory keep this refusal.
  virtual void execute_device(const Block8HostCall& /*call*/, void* /*queue*/,
                              void* /*counts*/) const {
    throw Error("this block plan's back end works on host memory: pass views, not device memory");
  }
  /// e.g. "cpu[AVX3] fast".
  virtual std::string describe() const = 0;
};

}  // namespace dctx::detail
