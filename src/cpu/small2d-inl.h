// SPDX-License-Identifier: BSD-3-Clause
// Small 2D transforms (both sides <= 16: the 8x8 and 16x16 blocks of codecs) as two products
// with the axes' transform matrices, Y = M0 X M1^T, accumulated in double (float32 data too: its
// error is then one rounding of the output, where float sums of up to 16 terms lost the margin of
// the electrostatic step's bounds). At these sizes the
// arithmetic is a few hundred vector multiply-adds and the row-column driver's line machinery
// (gathers, scratch, thread dispatch) costs more than the transform. Each matrix is the 1D plan
// of its axis (any kind, type, norm, orthogonalize, direction) applied to the unit vectors, in
// double, at plan time. On AVX2 and better, 8 x 8 and 16 x 16 arrays (both precisions)
// run the square codelets instead (square_codelet-inl.h: the same matrices, folded, in
// registers, in the data's precision). An input holding inf or NaN, or large enough to overflow,
// runs through the row-column plan instead, which carries the range's edges (extremes-inl.h).

#if defined(DCTX_CPU_SMALL2D_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_SMALL2D_INL_H_
#undef DCTX_CPU_SMALL2D_INL_H_
#else
#define DCTX_CPU_SMALL2D_INL_H_
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cpu/nd_driver-inl.h"
#include "cpu/square_codelet-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

inline constexpr std::size_t kSmall2DMax = 16;
/// The square codelets (square_codelet-inl.h) are built for AVX2 and better; older targets
/// keep the products below.
inline constexpr bool kSquareCodelets = HWY_TARGET <= HWY_AVX2;

/// True when `d` (normalised) transforms both axes of a rank-2 array of sides <= kSmall2DMax and
/// leaves the 2D algorithm to the library. float32 stops at 144 points, 16 x 16 excepted (its
/// codelet): below 16 x 16 its row-column plan, with twice the lanes, ties with the double
/// products (docs/benchmarks.md).
inline bool Small2DApplies(const PlanDesc& d) {
  if (d.shape.size() != 2 || d.axes.size() != 2 || d.cpu.algorithm != Algorithm2D::Auto)
    return false;
  if (d.shape[0] > kSmall2DMax || d.shape[1] > kSmall2DMax) return false;
  return d.precision == Precision::F64 || d.shape[0] * d.shape[1] <= 144 ||
         (kSquareCodelets && d.shape[0] == 16 && d.shape[1] == 16);
}

/// Calls f(k, j, M[k][j]) for every entry of the n x n matrix of axis transform `t` of `d` (its
/// 1D plan, in double, applied to the unit vectors); returns the transform's name.
template <class F>
std::string ForEachMatrixEntry(const PlanDesc& d, AxisTransform t, std::size_t n, F&& f) {
  const R2R<double> line({t.kind, detail::effective_type(d, t)}, n, detail::axis_scale(d, t, n),
                         *d.orthogonalize, true);
  std::vector<double> x(n);
  std::vector<Cx<double>> scratch(line.scratch_len());
  for (std::size_t j = 0; j < n; ++j) {
    std::fill(x.begin(), x.end(), 0.0);
    x[j] = 1;
    line.exec(x.data(), scratch.data());  // column j of the matrix
    for (std::size_t k = 0; k < n; ++k) f(k, j, x[k]);
  }
  return line.name();
}

template <class T0>
class Small2DPlan final : public HostPlan<T0, Small2DPlan<T0>> {
  using VD = typename LaneVec<double>::type;
  static constexpr std::size_t kLanes = LaneVec<double>::kLanes;
  // Row length of the padded arrays: kSmall2DMax rounded up to whole vectors.
  static constexpr std::size_t kW = (kSmall2DMax + kLanes - 1) / kLanes * kLanes;

 public:
  explicit Small2DPlan(const PlanDesc& d)
      : shape_(d.shape), n0_(d.shape[0]), n1_(d.shape[1]), desc_(d) {
    std::size_t axis_of[2];
    for (std::size_t i = 0; i < 2; ++i) axis_of[static_cast<std::size_t>(d.axes[i])] = i;
    double largest = 0;
    // m0_: M0 row by row (M0[k][i] at k * kW + i); m1t_: M1 transposed (M1[k][j] at j * kW + k).
    for (std::size_t axis = 0; axis < 2; ++axis) {
      names_[axis] = ForEachMatrixEntry(d, d.transforms[axis_of[axis]], d.shape[axis],
                                        [&](std::size_t k, std::size_t j, double v) {
                                          (axis == 0 ? m0_[k * kW + j] : m1t_[j * kW + k]) = v;
                                          largest = std::max(largest, std::fabs(v));
                                        });
    }
    // Every output is a sum of n0 n1 products |x| |M0| |M1|: beyond this, fall back.
    safe_max_ = std::numeric_limits<double>::max() /
                (4.0 * double(n0_ * n1_) * std::max(1.0, largest * largest));
    if constexpr (kSquareCodelets) {
      if (n0_ == 8 && n1_ == 8) square8_.emplace(m0_, m1t_, kW);
      if (n0_ == 16 && n1_ == 16) square16_.emplace(m0_, m1t_, kW);
    }
  }

  std::string describe() const override {
    std::string s =
        std::string("cpu[") + TargetName() + ", " + std::to_string(kLanes) +
        " double lanes, threads 1] small 2D by transform matrices: axis 0: " + names_[0] +
        "; axis 1: " + names_[1] + ";";
    if (square8_) s.append(" ").append(square8_->describe()).append(";");
    if (square16_) s.append(" ").append(square16_->describe()).append(";");
    if (codelet_declined_.load(std::memory_order_relaxed))
      s.append(" the codelet has declined an input (inf, NaN or too large) at least once;");
    return s;
  }

  void Run(const T0* in, const std::ptrdiff_t* is, T0* out, const std::ptrdiff_t* os) const {
    if constexpr (kSquareCodelets) {
      if (square8_ && RunSquare(*square8_, in, is, out, os)) return;
      if (square16_ && RunSquare(*square16_, in, is, out, os)) return;
      // (Written only when a codelet declines, so the common path pays nothing; describe()
      // shows it, which is how the tests see that finite inputs stay on the codelet.)
      if ((square8_ || square16_) && !codelet_declined_.load(std::memory_order_relaxed))
        codelet_declined_.store(true, std::memory_order_relaxed);
    }
    RunMatrices(in, is, out, os);
  }

 private:
  friend class HostPlan<T0, Small2DPlan<T0>>;
  const Shape& shape() const { return shape_; }

  // The double matrix products: every shape the codelets do not take, and their fallback. Out of
  // line, so that the codelet calls above do not pay for this function's frame (three arrays of
  // kSmall2DMax rows on the stack).
  HWY_NOINLINE void RunMatrices(const T0* in, const std::ptrdiff_t* is, T0* out,
                                const std::ptrdiff_t* os) const {
    alignas(64) double x[kSmall2DMax * kW];
    alignas(64) double z[kSmall2DMax * kW];
    const std::size_t nv = (n1_ + kLanes - 1) / kLanes;  // vectors per row
    // Load rows (zero padding to whole vectors) and check every entry is finite and
    // within safe_max_, lanes and rows independent (no chain of maxima).
    const VD hi = VD{} + safe_max_, lo = -hi;
    auto ok = hi == hi;  // all lanes true
    for (std::size_t i = 0; i < n0_; ++i) {
      const T0* row = in + static_cast<std::ptrdiff_t>(i) * is[0];
      double* xr = x + i * kW;
      if (is[1] == 1) {
        for (std::size_t j = 0; j < n1_; ++j) xr[j] = double(row[j]);
      } else {
        for (std::size_t j = 0; j < n1_; ++j)
          xr[j] = double(row[static_cast<std::ptrdiff_t>(j) * is[1]]);
      }
      for (std::size_t j = n1_; j < nv * kLanes; ++j) xr[j] = 0;
      for (std::size_t v = 0; v < nv; ++v) {
        const VD a = Load(xr + v * kLanes);
        ok &= (a <= hi) & (a >= lo);
      }
    }
    for (std::size_t l = 0; l < kLanes; ++l)
      if (!ok[l]) return RowColumn().Run(in, is, out, os);         // inf, NaN or huge
    if (zero_below_ > 0 && desc_.direction == Direction::Inverse)  // Algorithm 3, on the inputs
      for (std::size_t i = 0; i < n0_; ++i)
        for (std::size_t j = 0; j < n1_; ++j)
          x[i * kW + j] = double(ZeroBelow(static_cast<T0>(x[i * kW + j]), zero_below_));
    alignas(64) double y[kSmall2DMax * kW];
    switch (nv) {
      case 1: Products<1>(x, z, y); break;
      case 2: Products<2>(x, z, y); break;
      case 3: Products<3>(x, z, y); break;
      case 4: Products<4>(x, z, y); break;
      case 5: Products<5>(x, z, y); break;
      case 6: Products<6>(x, z, y); break;
      case 7: Products<7>(x, z, y); break;
      default: Products<8>(x, z, y); break;
    }
    const T0 eps = desc_.direction == Direction::Forward ? zero_below_ : T0(0);
    for (std::size_t k = 0; k < n0_; ++k) {
      T0* row = out + static_cast<std::ptrdiff_t>(k) * os[0];
      if (eps > 0) {  // Algorithm 3, on the outputs
        for (std::size_t c = 0; c < n1_; ++c)
          row[static_cast<std::ptrdiff_t>(c) * os[1]] =
              ZeroBelow(static_cast<T0>(y[k * kW + c]), eps);
        continue;
      }
      for (std::size_t c = 0; c < n1_; ++c)
        row[static_cast<std::ptrdiff_t>(c) * os[1]] = static_cast<T0>(y[k * kW + c]);
    }
  }

  // A square codelet (any strides: the same results for every layout); false when it declines.
  template <class Codelet>
  bool RunSquare(const Codelet& codelet, const T0* in, const std::ptrdiff_t* is, T0* out,
                 const std::ptrdiff_t* os) const {
    const bool forward = desc_.direction == Direction::Forward;
    return codelet.Execute(in, is[0], is[1], out, os[0], os[1], forward ? T0(0) : zero_below_,
                           forward ? zero_below_ : T0(0));
  }

  // z = X M1^T, then y = M0 z; rows of NV vectors (zero padding past n1 in M1^T).
  template <std::size_t NV>
  void Products(const double* x, double* z, double* y) const {
    if constexpr (NV * kLanes <= kW) {
      Combine<NV>(x, n0_, n1_, m1t_, z);
      Combine<NV>(m0_, n0_, n0_, z, y);
    }
  }

  // Row r of c = sum over j < inner of a(r, j) times row j of b, for r < rows. R rows of NV
  // vectors at once: R NV independent accumulators, so the multiply-adds pipeline instead of
  // waiting on each other's latency.
  template <std::size_t NV>
  static void Combine(const double* a, std::size_t rows, std::size_t inner, const double* b,
                      double* c) {
    constexpr std::size_t R = NV >= 8 ? 1 : 8 / NV;
    std::size_t r = 0;
    for (; r + R <= rows; r += R) CombineRows<NV, R>(a, r, inner, b, c);
    for (; r < rows; ++r) CombineRows<NV, 1>(a, r, inner, b, c);
  }
  template <std::size_t NV, std::size_t R>
  static void CombineRows(const double* a, std::size_t r0, std::size_t inner, const double* b,
                          double* c) {
    VD acc[R][NV] = {};
    for (std::size_t j = 0; j < inner; ++j) {
      VD bj[NV];
      for (std::size_t v = 0; v < NV; ++v) bj[v] = Load(b + j * kW + v * kLanes);
      for (std::size_t q = 0; q < R; ++q) {
        const double s = a[(r0 + q) * kW + j];
        for (std::size_t v = 0; v < NV; ++v) acc[q][v] += s * bj[v];
      }
    }
    for (std::size_t q = 0; q < R; ++q)
      for (std::size_t v = 0; v < NV; ++v) Store(acc[q][v], c + (r0 + q) * kW + v * kLanes);
  }

  static VD Load(const double* p) {
    VD v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
  }
  static void Store(const VD& v, double* p) { __builtin_memcpy(p, &v, sizeof v); }

  const CpuPlan<T0>& RowColumn() const {
    std::call_once(rowcol_once_, [this] { rowcol_ = std::make_unique<CpuPlan<T0>>(desc_); });
    return *rowcol_;
  }

  Shape shape_;
  std::size_t n0_, n1_;
  PlanDesc desc_;
  std::string names_[2];
  alignas(64) double m0_[kSmall2DMax * kW] = {};
  alignas(64) double m1t_[kSmall2DMax * kW] = {};
  double safe_max_ = 0;
  std::optional<SquareCodelet<T0, 8>> square8_;                   // both sides 8
  std::optional<SquareCodelet<T0, 16>> square16_;                 // both sides 16
  T0 zero_below_ = static_cast<T0>(desc_.coefficient_threshold);  // (0: off)
  mutable std::atomic<bool> codelet_declined_{false};
  mutable std::once_flag rowcol_once_;
  mutable std::unique_ptr<CpuPlan<T0>> rowcol_;
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
