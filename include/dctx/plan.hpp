// Plans: one immutable, reusable object per transform description.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dctx/types.hpp"
#include "dctx/view.hpp"

namespace dctx {

namespace detail {
class BackendPlan;
}

/// What to transform. Validated and normalised by the Plan constructor.
struct PlanDesc {
  Shape shape;            ///< full array shape; every extent >= 1
  std::vector<int> axes;  ///< axes to transform; empty = all; negative counts from the end
  std::vector<AxisTransform>
      transforms;         ///< per axis of `axes`; empty = {kind, type} on every axis
  Kind kind = Kind::DCT;  ///< used when `transforms` is empty
  int type = 2;           ///< used when `transforms` is empty
  Precision precision = Precision::F64;
  Norm norm = Norm::Backward;
  std::optional<bool> orthogonalize;  ///< scipy's `orthogonalize`; default: norm == Ortho
  Direction direction = Direction::Forward;
  int threads = 1;  ///< worker threads; 0 = all hardware threads
  BackendKind backend = BackendKind::Auto;
  Algorithm2D algorithm = Algorithm2D::Auto;  ///< for two transformed axes: row-column or fused 2D

  friend bool operator==(const PlanDesc&, const PlanDesc&) = default;
};

/// An immutable transform plan. Build once (twiddles, factorisations, algorithm choice), then
/// execute as often as you like, from any number of threads at once: execute() is const.
/// Plans are move-only. The shape is fixed by the plan; strides are free at every call
/// (element strides, negative allowed), and in == out (same pointer and strides) runs in place.
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
  /// In place on `data`.
  void execute(View<float> data) const { execute(ConstView<float>(data), data); }
  void execute(View<double> data) const { execute(ConstView<double>(data), data); }
  /// Low-level form for bindings: arrays of the plan's shape given by a pointer and rank()
  /// element strides each (no view objects, no allocation). Same checks and semantics.
  void execute(const float* in, const std::ptrdiff_t* in_strides, float* out,
               const std::ptrdiff_t* out_strides) const;
  void execute(const double* in, const std::ptrdiff_t* in_strides, double* out,
               const std::ptrdiff_t* out_strides) const;

  /// The normalised description: axes non-negative, one transform per axis, orthogonalize and
  /// threads resolved, backend chosen.
  const PlanDesc& desc() const { return desc_; }
  /// One line naming the back end and the algorithm of every axis, e.g. for logs and the CLI.
  std::string describe() const;

 private:
  template <class T>
  void execute_typed(const ConstView<T>& in, const View<T>& out) const;
  template <class T>
  void execute_strided(const T* in, const std::ptrdiff_t* is, T* out,
                       const std::ptrdiff_t* os) const;
  PlanDesc desc_;
  std::unique_ptr<detail::BackendPlan> impl_;
};

/// Validate and normalise a description without building a plan (throws dctx::Error).
PlanDesc normalize(const PlanDesc& desc);

/// The shared plan cache behind the one-shot functions: thread-safe, LRU, keyed by the whole
/// normalised description. capacity 0 disables caching.
std::shared_ptr<const Plan> cached_plan(const PlanDesc& desc);
void set_plan_cache_capacity(std::size_t capacity);
std::size_t plan_cache_capacity();

}  // namespace dctx
