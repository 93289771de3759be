// SPDX-License-Identifier: BSD-3-Clause
// Plans: one immutable, reusable object per transform description.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dctx/device.hpp"
#include "dctx/types.hpp"
#include "dctx/view.hpp"

namespace dctx {

namespace detail {
class BackendPlan;
}

/// Settings that only the CPU back end reads (other back ends ignore them).
struct CpuOptions {
  int threads = 1;  ///< worker threads; 0 = all hardware threads (hardware_threads())
  Algorithm2D algorithm = Algorithm2D::Auto;  ///< for two transformed axes: row-column or fused 2D
  /// How Algorithm2D::Auto is resolved: by the fixed rule, or by timing the candidates once.
  Planning planning = Planning::Estimate;
  friend bool operator==(const CpuOptions&, const CpuOptions&) = default;
};

/// Which device a device back end (CUDA, OpenCL) plans for. The CPU ignores it.
struct DeviceOptions {
  /// Empty: the back end's default (CUDA: the current device; OpenCL: the DCTX_OPENCL_DEVICE
  /// environment variable, else the first GPU). Otherwise a device index ("1"), a
  /// platform:device pair for OpenCL ("0:1") or a substring of the device name ("H200").
  std::string select;
  friend bool operator==(const DeviceOptions&, const DeviceOptions&) = default;
};

/// What to transform. Validated and normalised by the Plan constructor.
struct PlanDesc {
  Shape shape;                            ///< full array shape; every extent >= 1
  std::vector<int> axes;                  ///< axes to transform; empty = all; negative from the end
  std::vector<AxisTransform> transforms;  ///< per axis of `axes`; empty = {kind, type} everywhere
  Kind kind = Kind::DCT;                  ///< used when `transforms` is empty
  int type = 2;                           ///< used when `transforms` is empty
  Precision precision = Precision::F64;
  Norm norm = Norm::Backward;
  std::optional<bool> orthogonalize;  ///< scipy's `orthogonalize`; default: norm == Ortho
  Direction direction = Direction::Forward;
  /// Magnitude compression in the DCT domain fused into the transform (Algorithm 3 of "A New
  /// Acceleration Paradigm for Discrete Cosine Transform and Other Fourier-Related Transforms"):
  /// every coefficient c with |c| < coefficient_threshold, compared in the data's precision,
  /// counts as 0: the outputs of a forward plan as they are stored, the inputs of an inverse plan
  /// as they are read (the caller's array is not changed). The results equal a transform followed
  /// (forward) or preceded (inverse) by a separate thresholding pass. 0 (default): off. Finite,
  /// >= 0.
  double coefficient_threshold = 0;
  BackendKind backend = BackendKind::Auto;
  CpuOptions cpu;        ///< threads and the 2D algorithm of the CPU back end
  DeviceOptions device;  ///< the device of a CUDA or OpenCL plan

  friend bool operator==(const PlanDesc&, const PlanDesc&) = default;
};

/// An immutable transform plan. Build once (twiddles, factorisations, algorithm choice, device
/// uploads), then execute as often as you like, from any number of threads at once: execute() is
/// const. Plans are move-only. The shape is fixed by the plan; strides are free at every call
/// (element strides, negative allowed), and in == out (same pointer and strides) runs in place.
///
/// Host memory (views, pointers) works with every back end: a CUDA or OpenCL plan copies the data
/// to its device and back. Device memory goes through execute_device(), which the typed headers of
/// those back ends wrap (dctx/cuda.hpp, dctx/opencl.hpp; docs/design.md).
class Plan {
 public:
  explicit Plan(const PlanDesc& desc);
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan();

  void execute(const ConstView<float>& in, const View<float>& out) const;
  void execute(const ConstView<double>& in, const View<double>& out) const;
  /// The same with a view of mutable input (taken as it is: converting it to a ConstView
  /// would copy its shape and strides).
  void execute(const View<float>& in, const View<float>& out) const;
  void execute(const View<double>& in, const View<double>& out) const;
  /// In place on `data`.
  void execute(const View<float>& data) const { execute(data, data); }
  void execute(const View<double>& data) const { execute(data, data); }
  /// Low-level form for bindings: arrays of the plan's shape given by a pointer and rank()
  /// element strides each (no view objects, no allocation). Same checks and semantics.
  void execute(const float* in, const std::ptrdiff_t* in_strides, float* out,
               const std::ptrdiff_t* out_strides) const;
  void execute(const double* in, const std::ptrdiff_t* in_strides, double* out,
               const std::ptrdiff_t* out_strides) const;

  /// Execute on the memory of the plan's own device back end, asynchronously on `exec.queue`.
  /// `precision` is the element type of both arrays. Throws dctx::Error when the plan runs on
  /// host memory (the CPU), when the arrays belong to another back end, when the precision or a
  /// stride is wrong, or when the workspace is too small.
  void execute_device(const DeviceArray& in, const DeviceArray& out, Precision precision,
                      const DeviceExecution& exec = {}) const;

  /// Bytes of device workspace execute_device() needs (0: none; the CPU back end keeps per-thread
  /// scratch of its own). Callers may pass that much in DeviceExecution::workspace; otherwise the
  /// back end uses a workspace of its own.
  std::size_t workspace_bytes() const;

  /// The normalised description: axes non-negative, one transform per axis, orthogonalize and
  /// threads resolved, back end chosen.
  const PlanDesc& desc() const { return desc_; }
  /// The back end the plan runs on (never Auto).
  BackendKind backend() const { return desc_.backend; }
  /// One line naming the back end and the algorithm of every axis, e.g. for logs and the CLI.
  std::string describe() const;

 private:
  template <class T, class In>
  void execute_typed(const ArrayView<In>& in, const View<T>& out) const;
  template <class T>
  void execute_strided(const T* in, const std::ptrdiff_t* is, T* out,
                       const std::ptrdiff_t* os) const;
  const detail::BackendPlan& impl() const;
  PlanDesc desc_;
  std::unique_ptr<detail::BackendPlan> impl_;
};

/// Validate and normalise a description without building a plan (throws dctx::Error).
PlanDesc normalize(const PlanDesc& desc);

/// Resolve `axes` of an array of rank `rank` as normalize() does: empty means every axis,
/// negative ones count from the end. Throws dctx::Error with ErrorKind::AxisOutOfRange or
/// ErrorKind::RepeatedAxis.
std::vector<int> resolve_axes(std::size_t rank, const std::vector<int>& axes);

/// The shared plan cache behind the one-shot functions: thread-safe, LRU, keyed by the whole
/// description (two descriptions that normalise to the same one share a plan). capacity 0
/// disables caching.
std::shared_ptr<const Plan> cached_plan(const PlanDesc& desc);
/// The cached plan for `desc` if there is one (no planning, no allocation), else nullptr.
std::shared_ptr<const Plan> find_cached_plan(const PlanDesc& desc);
void set_plan_cache_capacity(std::size_t capacity);
std::size_t plan_cache_capacity();

/// Wisdom: the algorithms that Planning::Measure timed, one per description and CPU target,
/// kept for the process (thread-safe). save_wisdom writes them to a text file (atomically);
/// load_wisdom adds a file's entries (a later entry for the same description wins) and throws
/// dctx::Error naming the file and line for anything it cannot read; plans then take those
/// entries instead of timing. Entries of another CPU target are kept but never used here.
void save_wisdom(const std::string& path);
void load_wisdom(const std::string& path);
void forget_wisdom();
std::size_t wisdom_size();

}  // namespace dctx
