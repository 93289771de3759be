// SPDX-License-Identifier: BSD-3-Clause
// Plan construction (validation, normalisation, back-end choice) and execution (view checks,
// overlap analysis), host and device memory alike; the back ends do the arithmetic.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <type_traits>

#include "core/backend.hpp"
#include "core/limits.hpp"
#include "core/thread_pool.hpp"
#include "core/vocabulary.hpp"
#include "dctx/dctx.hpp"

namespace dctx {
namespace detail {

std::string shape_str(const Shape& s) {
  std::ostringstream o;
  o << "(";
  for (std::size_t i = 0; i < s.size(); ++i) o << (i ? ", " : "") << s[i];
  if (s.size() == 1) o << ",";
  o << ")";
  return o.str();
}

}  // namespace detail

int hardware_threads() { return detail::hardware_threads(); }

std::vector<int> resolve_axes(std::size_t rank, const std::vector<int>& axes) {
  std::vector<int> r;
  if (axes.empty()) {
    for (std::size_t i = 0; i < rank; ++i) r.push_back(static_cast<int>(i));
    return r;
  }
  // Every axis's range first, then repeats (as numpy and scipy report them).
  const int n = static_cast<int>(rank);
  for (int a : axes)
    if (a < -n || a >= n)
      throw Error("axis " + std::to_string(a) + " is out of range for an array of rank " +
                      std::to_string(rank),
                  ErrorKind::AxisOutOfRange);
  std::vector<bool> seen(rank, false);
  for (int a : axes) {
    if (a < 0) a += n;
    if (seen[static_cast<std::size_t>(a)])
      throw Error("axis " + std::to_string(a) + " is repeated in axes", ErrorKind::RepeatedAxis);
    seen[static_cast<std::size_t>(a)] = true;
    r.push_back(a);
  }
  return r;
}

PlanDesc normalize(const PlanDesc& in) {
  PlanDesc d = in;
  const std::size_t rank = d.shape.size();
  if (rank == 0) throw Error("shape is empty: the array needs at least one axis");
  if (rank > detail::kMaxRank)
    throw Error("rank " + std::to_string(rank) + " exceeds the maximum of " +
                std::to_string(detail::kMaxRank));
  std::size_t total = 1;
  const std::size_t limit =
      static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / 8;
  for (std::size_t i = 0; i < rank; ++i) {
    if (d.shape[i] == 0)
      throw Error("shape " + detail::shape_str(d.shape) + " has a zero extent on axis " +
                  std::to_string(i));
    if (d.shape[i] > limit || total > limit / d.shape[i])
      throw Error("shape " + detail::shape_str(d.shape) +
                  " is too large: its byte count overflows");
    total *= d.shape[i];
  }
  d.axes = resolve_axes(rank, d.axes);
  if (d.transforms.empty()) d.transforms.assign(d.axes.size(), AxisTransform{d.kind, d.type});
  if (d.transforms.size() != d.axes.size())
    throw Error("got " + std::to_string(d.transforms.size()) + " per-axis transforms for " +
                std::to_string(d.axes.size()) + " axes");
  for (std::size_t i = 0; i < d.axes.size(); ++i) {
    const AxisTransform t = d.transforms[i];
    if (t.kind != Kind::DCT && t.kind != Kind::DST && t.kind != Kind::DXST && t.kind != Kind::RDFT)
      throw Error("invalid transform kind");
    if (t.type < 1 || t.type > 4)
      throw Error("invalid transform type " + std::to_string(t.type) + " (expected 1, 2, 3 or 4)");
    if (t.kind == Kind::DXST && t.type != 2 && t.type != 3)
      throw Error("invalid transform type " + std::to_string(t.type) +
                  " for dxst (expected 2 or 3)");
    if (t.kind == Kind::RDFT && t.type != 2 && t.type != 3)
      throw Error("invalid transform type " + std::to_string(t.type) +
                  " for rdft (expected 2, the real DFT to halfcomplex order, or 3, its inverse)");
    const std::size_t n = d.shape[static_cast<std::size_t>(d.axes[i])];
    if (t.kind == Kind::DCT && t.type == 1 && n < 2)
      throw Error("DCT-I is not defined for length 1 (axis " + std::to_string(d.axes[i]) +
                  "): it needs at least 2 points");
  }
  // A plan whose tables no memory of this machine could hold fails here, before any allocation
  // (not after minutes of planning and a bad_alloc): an axis of n points needs at least 32 n
  // bytes of twiddles and coefficients (more with Bluestein's padded FFT).
  const std::size_t memory = detail::physical_memory_bytes();
  for (int a : d.axes) {
    const std::size_t n = d.shape[static_cast<std::size_t>(a)];
    if (memory && n > memory / 32)
      throw Error("an axis of " + std::to_string(n) + " points (axis " + std::to_string(a) +
                  " of shape " + detail::shape_str(d.shape) + ") needs at least " +
                  std::to_string(n / (std::size_t{1} << 30) * 32) +
                  " GiB of plan tables; this machine has " + std::to_string(memory >> 30) + " GiB");
  }
  d.kind = d.transforms[0].kind;
  d.type = d.transforms[0].type;
  if (d.precision != Precision::F32 && d.precision != Precision::F64)
    throw Error("unsupported precision");
  if (d.norm != Norm::Backward && d.norm != Norm::Ortho && d.norm != Norm::Forward)
    throw Error("invalid norm");
  if (d.direction != Direction::Forward && d.direction != Direction::Inverse)
    throw Error("invalid direction");
  if (!d.orthogonalize) d.orthogonalize = d.norm == Norm::Ortho;
  if (!(d.coefficient_threshold >= 0) || !std::isfinite(d.coefficient_threshold))
    throw Error("coefficient_threshold must be finite and >= 0, got " +
                detail::number_str(d.coefficient_threshold));
  if (d.cpu.threads < 0)
    throw Error("threads must be >= 0 (0 = all hardware threads), got " +
                std::to_string(d.cpu.threads));
  if (d.cpu.threads == 0) d.cpu.threads = hardware_threads();
  if (d.cpu.algorithm != Algorithm2D::Auto && d.cpu.algorithm != Algorithm2D::RowColumn &&
      d.cpu.algorithm != Algorithm2D::Fused)
    throw Error("invalid 2D algorithm");
  if (d.cpu.planning != Planning::Estimate && d.cpu.planning != Planning::Measure)
    throw Error("invalid planning (expected estimate or measure)");
  d.backend = detail::resolve_backend(d.backend)->kind();
  return d;
}

Plan::Plan(const PlanDesc& desc)
    : desc_(normalize(desc)), impl_(detail::resolve_backend(desc_.backend)->make_plan(desc_)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&& other) noexcept {
  if (this != &other) {  // a self-move keeps the plan (a defaulted one would empty its shape)
    desc_ = std::move(other.desc_);
    impl_ = std::move(other.impl_);
  }
  return *this;
}
Plan::~Plan() = default;

const detail::BackendPlan& Plan::impl() const {
  if (!impl_) throw Error("plan is empty (moved from)");
  return *impl_;
}

std::string Plan::describe() const {
  std::string s = impl().describe();
  if (desc_.coefficient_threshold > 0) {
    std::ostringstream o;
    o << " coefficients below " << desc_.coefficient_threshold << " zeroed ("
      << (desc_.direction == Direction::Forward ? "outputs" : "inputs") << ");";
    s += o.str();
  }
  return s;
}
std::size_t Plan::workspace_bytes() const { return impl().workspace_bytes(); }

template <class T, class In>
void Plan::execute_typed(const ArrayView<In>& in, const View<T>& out) const {
  static_assert(std::is_same_v<std::remove_const_t<In>, T>);
  if (!impl_) throw Error("plan is empty (moved from)");
  if (in.shape() != desc_.shape)
    throw Error("input shape " + detail::shape_str(in.shape()) + " does not match the plan shape " +
                detail::shape_str(desc_.shape));
  if (out.shape() != desc_.shape)
    throw Error("output shape " + detail::shape_str(out.shape()) +
                " does not match the plan shape " + detail::shape_str(desc_.shape));
  execute_strided(in.data(), in.strides().data(), out.data(), out.strides().data());
}

template <class T>
void Plan::execute_strided(const T* in, const std::ptrdiff_t* is, T* out,
                           const std::ptrdiff_t* os) const {
  const detail::BackendPlan& plan = impl();
  constexpr Precision p = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  if (p != desc_.precision)
    throw Error("data is " + std::string(to_string(p)) + " but the plan was built for " +
                std::string(to_string(desc_.precision)));
  if (!in || !out || !is || !os) throw Error("null data or stride pointer");
  const Shape& shape = desc_.shape;
  const std::size_t out_dense = detail::c_ordered_elements(shape.size(), shape.data(), os);
  if (!out_dense && !detail::non_self_overlapping(shape.size(), shape.data(), os))
    throw Error("output strides make elements overlap (e.g. a zero stride)");
  const auto addr = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q); };
  detail::HostCall<T> call{in, is, out, os, detail::Overlap::Disjoint};
  if (out_dense && in != out &&
      detail::c_ordered_elements(shape.size(), shape.data(), is) == out_dense) {
    // Two C-ordered arrays at different addresses (the common call): each covers its
    // elements from its first one.
    const std::uintptr_t a = addr(in), b = addr(out), bytes = out_dense * sizeof(T);
    call.overlap =
        a + bytes <= b || b + bytes <= a ? detail::Overlap::Disjoint : detail::Overlap::Partial;
  } else {
    call.overlap = detail::classify_overlap({addr(in), sizeof(T), shape.size(), shape.data(), is},
                                            {addr(out), sizeof(T), shape.size(), shape.data(), os});
  }
  plan.execute(call);
}

void Plan::execute(const ConstView<float>& in, const View<float>& out) const {
  execute_typed<float>(in, out);
}
void Plan::execute(const ConstView<double>& in, const View<double>& out) const {
  execute_typed<double>(in, out);
}
void Plan::execute(const View<float>& in, const View<float>& out) const {
  execute_typed<float>(in, out);
}
void Plan::execute(const View<double>& in, const View<double>& out) const {
  execute_typed<double>(in, out);
}
void Plan::execute(const float* in, const std::ptrdiff_t* is, float* out,
                   const std::ptrdiff_t* os) const {
  execute_strided<float>(in, is, out, os);
}
void Plan::execute(const double* in, const std::ptrdiff_t* is, double* out,
                   const std::ptrdiff_t* os) const {
  execute_strided<double>(in, is, out, os);
}

void Plan::execute_device(const DeviceArray& in, const DeviceArray& out, Precision precision,
                          const DeviceExecution& exec) const {
  const detail::BackendPlan& plan = impl();
  const auto backend = detail::find_backend(desc_.backend);
  if (!backend || backend->memory() == detail::MemoryModel::Host)
    throw Error("execute_device: this plan runs on the " + std::string(to_string(desc_.backend)) +
                " back end, which works on host memory: pass views or host pointers");
  const std::string mine(to_string(desc_.backend));
  for (const DeviceArray* a : {&in, &out})
    if (a->backend != desc_.backend)
      throw Error("execute_device: " + std::string(a == &in ? "in" : "out") + " is " +
                  std::string(to_string(a->backend)) + " memory but the plan runs on " + mine);
  if (precision != desc_.precision)
    throw Error("execute_device: data is " + std::string(to_string(precision)) +
                " but the plan was built for " + std::string(to_string(desc_.precision)));
  if (!in.buffer || !out.buffer || !in.strides || !out.strides)
    throw Error("execute_device: null buffer or stride pointer");
  const Shape& shape = desc_.shape;
  if (!detail::non_self_overlapping(shape.size(), shape.data(), out.strides))
    throw Error("execute_device: output strides make elements overlap (e.g. a zero stride)");
  const std::size_t need = plan.workspace_bytes();
  if (exec.workspace && exec.workspace_bytes < need)
    throw Error("execute_device: the workspace holds " + std::to_string(exec.workspace_bytes) +
                " bytes but the plan needs " + std::to_string(need));
  const std::size_t es = precision == Precision::F32 ? sizeof(float) : sizeof(double);
  const auto place = [&](const DeviceArray& a, std::uintptr_t base) {
    return detail::ArrayPlace{base + a.offset * es, es, shape.size(), shape.data(), a.strides};
  };
  detail::DeviceCall call{in, out, precision, exec, detail::Overlap::Disjoint};
  // Pointers of one address space compare as addresses; buffer handles only within one buffer.
  const bool comparable =
      backend->memory() == detail::MemoryModel::DeviceAddresses || in.buffer == out.buffer;
  if (comparable) {
    const auto base = [&](const DeviceArray& a) {
      return backend->memory() == detail::MemoryModel::DeviceAddresses
                 ? reinterpret_cast<std::uintptr_t>(a.buffer)
                 : std::uintptr_t{0};
    };
    call.overlap = detail::classify_overlap(place(in, base(in)), place(out, base(out)));
  }
  plan.execute_device(call);
}

}  // namespace dctx
