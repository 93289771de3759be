// Plan construction (validation, normalisation, back-end choice) and execution (view checks).
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <thread>

#include "core/backend.hpp"
#include "dctx/dctx.hpp"

namespace dctx {
namespace detail {

double axis_scale(const PlanDesc& d, AxisTransform t, std::size_t n) {
  const double m = logical_length(t, n);
  switch (d.norm) {
    case Norm::Ortho: return 1.0 / std::sqrt(m);
    case Norm::Backward: return d.direction == Direction::Forward ? 1.0 : 1.0 / m;
    case Norm::Forward: return d.direction == Direction::Forward ? 1.0 / m : 1.0;
  }
  return 1.0;
}

namespace {

std::string shape_str(const Shape& s) {
  std::ostringstream o;
  o << "(";
  for (std::size_t i = 0; i < s.size(); ++i) o << (i ? ", " : "") << s[i];
  if (s.size() == 1) o << ",";
  o << ")";
  return o.str();
}

// Lowest and highest element offsets a view touches.
std::pair<std::ptrdiff_t, std::ptrdiff_t> span_of(const Shape& shape,
                                                  const std::ptrdiff_t* strides) {
  std::ptrdiff_t lo = 0, hi = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const std::ptrdiff_t e = static_cast<std::ptrdiff_t>(shape[d] - 1) * strides[d];
    (e < 0 ? lo : hi) += e;
  }
  return {lo, hi};
}

// True when no two index tuples map to one element (sufficient test: sorted by |stride|, each
// stride exceeds the span of all smaller ones).
bool non_self_overlapping(const Shape& shape, const std::ptrdiff_t* strides) {
  std::pair<std::size_t, std::size_t> dims[kMaxRank];  // (|stride|, extent), no allocation
  std::size_t nd = 0;
  for (std::size_t d = 0; d < shape.size(); ++d)  // rank <= kMaxRank (normalize)
    if (shape[d] > 1) dims[nd++] = {static_cast<std::size_t>(std::abs(strides[d])), shape[d]};
  std::sort(dims, dims + nd);
  std::size_t span = 0;
  for (std::size_t i = 0; i < nd; ++i) {
    if (dims[i].first <= span) return false;
    span += dims[i].first * (dims[i].second - 1);
  }
  return true;
}

}  // namespace
}  // namespace detail

int hardware_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
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
  if (d.axes.empty())
    for (std::size_t i = 0; i < rank; ++i) d.axes.push_back(static_cast<int>(i));
  std::vector<bool> seen(rank, false);
  for (int& a : d.axes) {
    const int r = static_cast<int>(rank);
    if (a < -r || a >= r)
      throw Error("axis " + std::to_string(a) + " is out of range for an array of rank " +
                  std::to_string(rank));
    if (a < 0) a += r;
    if (seen[static_cast<std::size_t>(a)])
      throw Error("axis " + std::to_string(a) + " is repeated in axes");
    seen[static_cast<std::size_t>(a)] = true;
  }
  if (d.transforms.empty()) d.transforms.assign(d.axes.size(), AxisTransform{d.kind, d.type});
  if (d.transforms.size() != d.axes.size())
    throw Error("got " + std::to_string(d.transforms.size()) + " per-axis transforms for " +
                std::to_string(d.axes.size()) + " axes");
  for (std::size_t i = 0; i < d.axes.size(); ++i) {
    const AxisTransform t = d.transforms[i];
    if (t.kind != Kind::DCT && t.kind != Kind::DST) throw Error("invalid transform kind");
    if (t.type < 1 || t.type > 4)
      throw Error("invalid transform type " + std::to_string(t.type) + " (expected 1, 2, 3 or 4)");
    const std::size_t n = d.shape[static_cast<std::size_t>(d.axes[i])];
    if (t.kind == Kind::DCT && t.type == 1 && n < 2)
      throw Error("DCT-I is not defined for length 1 (axis " + std::to_string(d.axes[i]) +
                  "): it needs at least 2 points");
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
  if (d.threads < 0)
    throw Error("threads must be >= 0 (0 = all hardware threads), got " +
                std::to_string(d.threads));
  if (d.threads == 0) d.threads = hardware_threads();
  if (d.backend == BackendKind::Auto) d.backend = BackendKind::CPU;
  if (d.backend != BackendKind::CPU)
    throw Error("backend '" + std::string(to_string(d.backend)) +
                "' is not available in this build");
  return d;
}

// normalize() has resolved Auto and refused every back end but the CPU's.
Plan::Plan(const PlanDesc& desc) : desc_(normalize(desc)), impl_(detail::make_cpu_plan(desc_)) {}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

std::string Plan::describe() const {
  if (!impl_) throw Error("plan is empty (moved from)");
  return impl_->describe();
}

template <class T>
void Plan::execute_typed(const ConstView<T>& in, const View<T>& out) const {
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
  if (!impl_) throw Error("plan is empty (moved from)");
  constexpr Precision p = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  if (p != desc_.precision)
    throw Error("data is " + std::string(to_string(p)) + " but the plan was built for " +
                std::string(to_string(desc_.precision)));
  if (!in || !out || !is || !os) throw Error("null data or stride pointer");
  const Shape& shape = desc_.shape;
  const std::size_t rank = shape.size();
  if (!detail::non_self_overlapping(shape, os))
    throw Error("output strides make elements overlap (e.g. a zero stride)");
  const bool same = static_cast<const void*>(in) == static_cast<const void*>(out) &&
                    std::equal(is, is + rank, os);
  if (!same) {
    auto [ilo, ihi] = detail::span_of(shape, is);
    auto [olo, ohi] = detail::span_of(shape, os);
    if (!(in + ihi < out + olo || out + ohi < in + ilo)) {
      // Partial overlap: transform from a private C-ordered copy of the input.
      const ConstView<T> copy(nullptr, shape);  // C-order strides
      std::vector<T> tmp(copy.size());
      std::vector<std::size_t> idx(rank, 0);
      for (T& v : tmp) {
        std::ptrdiff_t off = 0;
        for (std::size_t d = 0; d < rank; ++d) off += static_cast<std::ptrdiff_t>(idx[d]) * is[d];
        v = in[off];
        for (std::size_t d = rank; d-- > 0;) {
          if (++idx[d] < shape[d]) break;
          idx[d] = 0;
        }
      }
      impl_->execute(tmp.data(), copy.strides().data(), out, os);
      return;
    }
  }
  impl_->execute(in, is, out, os);
}

void Plan::execute(const ConstView<float>& in, const View<float>& out) const {
  execute_typed<float>(in, out);
}
void Plan::execute(const ConstView<double>& in, const View<double>& out) const {
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

}  // namespace dctx
