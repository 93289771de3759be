// SPDX-License-Identifier: BSD-3-Clause
// Short lines: one transformed axis of at most 16 points (a lone short vector, or a batch of
// them, e.g. the mel-spectrum frames of audio features) as one matrix-vector product per line,
// y = M x = sum over j of x_j times column j of M, each column a vector of 8 or 16 lanes of the
// data's precision. At these lengths the row-column driver's line gathers, scratch and thread
// dispatch cost several times the n^2 multiply-adds. M is the axis's 1D plan applied to the unit
// vectors in double at plan time (any kind, type, norm, orthogonalize, direction). A line whose
// products are not all finite (inf or NaN inputs, or a sum that overflowed) runs through the
// row-column plan of one line instead, which carries the range's edges (extremes-inl.h).

#if defined(DCTX_CPU_SMALL_LINES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_SMALL_LINES_INL_H_
#undef DCTX_CPU_SMALL_LINES_INL_H_
#else
#define DCTX_CPU_SMALL_LINES_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "core/limits.hpp"
#include "core/overlap.hpp"
#include "cpu/small2d-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

inline constexpr std::size_t kSmallLineMax = 16;
/// Past this many elements a plan with several threads keeps the threaded driver.
inline constexpr std::size_t kSmallLinesSerialElements = std::size_t{1} << 16;

/// True when `d` (normalised) transforms one axis of at most kSmallLineMax points and leaves the
/// algorithm to the library (an explicit RowColumn keeps the driver).
inline bool SmallLinesApplies(const PlanDesc& d) {
  if (d.axes.size() != 1 || d.cpu.algorithm != Algorithm2D::Auto) return false;
  if (d.shape[static_cast<std::size_t>(d.axes[0])] > kSmallLineMax) return false;
  return d.cpu.threads == 1 || TotalSize(d.shape) <= kSmallLinesSerialElements;
}

template <class T0>
class SmallLinesPlan final : public HostPlan<T0, SmallLinesPlan<T0>> {
 public:
  explicit SmallLinesPlan(const PlanDesc& d)
      : shape_(d.shape),
        axis_(static_cast<std::size_t>(d.axes[0])),
        n_(d.shape[axis_]),
        lines_(TotalSize(d.shape) / n_),
        zero_below_(static_cast<T0>(d.coefficient_threshold)),
        threshold_inputs_(d.direction == Direction::Inverse),
        desc_(d) {
    name_ = ForEachMatrixEntry(d, d.transforms[0], n_, [&](std::size_t k, std::size_t j, double v) {
      columns16_[j][k] = static_cast<T0>(v);
      if (n_ <= 8) columns8_[j][k] = static_cast<T0>(v);
    });
  }

  std::string describe() const override {
    return std::string("cpu[") + TargetName() +
           ", threads 1] short lines by transform matrix: axis " + std::to_string(axis_) + ": " +
           name_ + ";";
  }

  void Run(const T0* in, const std::ptrdiff_t* is, T0* out, const std::ptrdiff_t* os) const {
    (this->*run_)(in, is, out, os);
  }

 private:
  friend class HostPlan<T0, SmallLinesPlan<T0>>;
  const Shape& shape() const { return shape_; }

  // f(input offset, output offset) of every line, the other axes in C order.
  template <class F>
  HWY_INLINE void ForEachLine(const std::ptrdiff_t* is, const std::ptrdiff_t* os, F&& f) const {
    const std::size_t rank = shape_.size();
    std::size_t idx[detail::kMaxRank];
    std::fill_n(idx, rank, std::size_t{0});  // (not all kMaxRank: a short call would pay for it)
    std::ptrdiff_t io = 0, oo = 0;
    for (std::size_t l = 0; l < lines_; ++l) {
      f(io, oo);
      for (std::size_t d = rank; d-- > 0;) {
        if (d == axis_) continue;
        io += is[d];
        oo += os[d];
        if (++idx[d] < shape_[d]) break;
        io -= is[d] * static_cast<std::ptrdiff_t>(shape_[d]);
        oo -= os[d] * static_cast<std::ptrdiff_t>(shape_[d]);
        idx[d] = 0;
      }
    }
  }

  // y = sum over j of x_j times column j, on vectors of W = 8 or 16 lanes (zero padded), the
  // x_j broadcast straight from memory; y is P parts of the target's width L (a vector wider than
  // the registers went through the stack). A line whose y is not finite in every lane (an inf
  // or NaN input, or a sum that overflowed: once a partial sum is infinite the result stays inf
  // or NaN) is not stored; it runs through the one-line row-column plan instead, so the other
  // lines keep exactly the values they have without it.
  template <std::size_t N>
  void RunN(const T0* in, const std::ptrdiff_t* is, T0* out, const std::ptrdiff_t* os) const {
    constexpr std::size_t W = N <= 8 ? 8 : kSmallLineMax;
    constexpr std::size_t L = std::min(W, LaneVec<T0>::kLanes), P = W / L;
    typedef T0 V __attribute__((vector_size(L * sizeof(T0)), may_alias));
    using UnalignedV = typename VectorOf<T0, L>::unaligned;
    const std::ptrdiff_t isa = is[axis_], osa = os[axis_];
    // part p of column j: col[j P + p]
    const V* col = reinterpret_cast<const V*>(Columns(typename VectorOf<T0, W>::type{}));
    const T0 eps_in = threshold_inputs_ ? zero_below_ : T0(0);
    const T0 eps_out = threshold_inputs_ ? T0(0) : zero_below_;
    ForEachLine(is, os, [&](std::ptrdiff_t io, std::ptrdiff_t oo) {
      // Thresholded inputs are copied first, and both kinds of line reach the one call of Dot
      // below: the same instructions, so the same bits as a separate pass before the plan.
      const T0* x = in + io;
      std::ptrdiff_t xs = isa;
      T0 t[N];
      if (eps_in > 0) {
        for (std::size_t j = 0; j < N; ++j)
          t[j] = ZeroBelow(in[io + static_cast<std::ptrdiff_t>(j) * isa], eps_in);
        x = t;
        xs = 1;
      }
      V y[P];
      Dot<N, P>(x, xs, col, y);
      if (!AllLanesFinite(y, P)) return LinePlan().Run(in + io, &isa, out + oo, &osa);
      if (eps_out > 0)
        for (V& part : y) part = ZeroBelow(part, eps_out);
      if (osa == 1 && N == W) {  // whole-vector stores
        for (std::size_t p = 0; p < P; ++p) *reinterpret_cast<UnalignedV*>(out + oo + p * L) = y[p];
      } else if (osa == 1) {
        __builtin_memcpy(out + oo, y, N * sizeof(T0));
      } else {
        for (std::size_t k = 0; k < N; ++k)
          out[oo + static_cast<std::ptrdiff_t>(k) * osa] = y[k / L][k % L];
      }
    });
  }

  const typename VectorOf<T0, 8>::type* Columns(typename VectorOf<T0, 8>::type) const {
    return columns8_;
  }
  const typename VectorOf<T0, kSmallLineMax>::type* Columns(
      typename VectorOf<T0, kSmallLineMax>::type) const {
    return columns16_;
  }

  // y = sum over j < N of x_j col_j, P parts: two chains of multiply-adds (even and odd j) a
  // part, summed at the end (half the latency of one chain).
  template <std::size_t N, std::size_t P, class V>
  static HWY_INLINE void Dot(const T0* x, std::ptrdiff_t stride, const V* col, V* y) {
    const auto at = [&](std::size_t j) { return x[static_cast<std::ptrdiff_t>(j) * stride]; };
    if constexpr (N == 1) {
      for (std::size_t p = 0; p < P; ++p) y[p] = at(0) * col[p];
    } else {
      V even[P], odd[P];
      for (std::size_t p = 0; p < P; ++p) {
        even[p] = at(0) * col[p];
        odd[p] = at(1) * col[P + p];
      }
      for (std::size_t j = 2; j + 1 < N; j += 2)
        for (std::size_t p = 0; p < P; ++p) {
          even[p] += at(j) * col[j * P + p];
          odd[p] += at(j + 1) * col[(j + 1) * P + p];
        }
      if constexpr (N % 2 == 1)
        for (std::size_t p = 0; p < P; ++p) even[p] += at(N - 1) * col[(N - 1) * P + p];
      for (std::size_t p = 0; p < P; ++p) y[p] = even[p] + odd[p];
    }
  }

  // The row-column plan of one line (the driver, which carries the range's edges).
  const CpuPlan<T0>& LinePlan() const {
    std::call_once(line_once_, [this] {
      PlanDesc d = desc_;
      d.shape = {n_};
      d.axes = {0};
      d.cpu.algorithm = Algorithm2D::RowColumn;
      d.cpu.threads = 1;
      line_plan_ = std::make_unique<CpuPlan<T0>>(d);
    });
    return *line_plan_;
  }

  Shape shape_;
  std::size_t axis_, n_, lines_;
  T0 zero_below_;  // (0: off)
  bool threshold_inputs_;
  PlanDesc desc_;
  std::string name_;
  // Column j of M, zero padded: 8 lanes (lines of up to 8 points) and 16 lanes.
  typename VectorOf<T0, 8>::type columns8_[8] = {};
  typename VectorOf<T0, kSmallLineMax>::type columns16_[kSmallLineMax] = {};
  using RunFn = void (SmallLinesPlan::*)(const T0*, const std::ptrdiff_t*, T0*,
                                         const std::ptrdiff_t*) const;
  template <std::size_t... I>
  static RunFn RunOfLength(std::size_t n, std::index_sequence<I...>) {
    static constexpr RunFn table[] = {&SmallLinesPlan::RunN<I + 1>...};
    return table[n - 1];
  }
  RunFn run_ = RunOfLength(n_, std::make_index_sequence<kSmallLineMax>());  // RunN<n_>
  mutable std::once_flag line_once_;
  mutable std::unique_ptr<CpuPlan<T0>> line_plan_;
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
