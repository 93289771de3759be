// SPDX-License-Identifier: BSD-3-Clause
// Inputs at the edge of the floating-point range, for the line transforms of the N-D driver.
//
// A transform line whose output holds a non-finite value is computed again, from its input:
//  - all finite: the FFT's partial sums can overflow where the scaled result does not (a float32
//    DCT-II ortho of x0 = 3e38 is 1.06e38 at most, but its unnormalised sums reach 6e38). The
//    line is scaled by a power of two 2^-e that bounds every partial sum (|sum| <= 8 m max|x|
//    for an FFT of m <= 2n + 2 points), transformed, and scaled back by 2^e: exact, since
//    powers of two only move the exponent, so the result overflows only where the true one does;
//  - +-inf (no NaN): the finite values are transformed as above with the infinities replaced
//    by 0, then each output that an infinity reaches becomes +-inf as IEEE arithmetic on the
//    definition would give it (NaN where infinities of both signs meet; an exact zero of the
//    matrix, r2r_coefficient_sign, carries none), instead of the inf - inf = NaN of the FFT;
//  - NaN: the output stays NaN.
// Lines with finite outputs cost one pass over the output (NonFiniteLanes) and nothing else; rows
// scattered by transposes out of place, one multiply-add per vector in the scatter.

#if defined(DCTX_CPU_EXTREMES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_EXTREMES_INL_H_
#undef DCTX_CPU_EXTREMES_INL_H_
#else
#define DCTX_CPU_EXTREMES_INL_H_
#endif

#include <cmath>
#include <limits>
#include <vector>

#include "core/r2r_tables.hpp"
#include "cpu/complex-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// The lanes l < cnt of a sum of products v * 0 (0 where every v was finite, NaN otherwise)
/// that are not 0, as a bit mask.
template <class V>
unsigned NonFiniteLanesOf(const V& acc, std::size_t cnt) {
  unsigned bad = 0;
  for (std::size_t l = 0; l < cnt; ++l)
    if (!(acc[l] == 0)) bad |= 1u << l;
  return bad;
}

/// Bit l set when lane l (l < cnt) of the lane-interleaved line buf[0..n) holds a value that is
/// not finite (x * 0 is 0 for finite x and NaN otherwise; one fused multiply-add per vector).
template <class V>
unsigned NonFiniteLanes(const V* buf, std::size_t n, std::size_t cnt) {
  // Four accumulators: the loads, not the latency of one chain of additions, set the pace.
  V acc0{}, acc1{}, acc2{}, acc3{};
  const V zero{};
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    acc0 += buf[i] * zero;
    acc1 += buf[i + 1] * zero;
    acc2 += buf[i + 2] * zero;
    acc3 += buf[i + 3] * zero;
  }
  for (; i < n; ++i) acc0 += buf[i] * zero;
  return NonFiniteLanesOf((acc0 + acc1) + (acc2 + acc3), cnt);
}

/// True when the scalar line x[0..n) holds a value that is not finite.
template <class T0>
bool AnyNonFinite(const T0* x, std::size_t n) {
  T0 acc = 0;
  for (std::size_t i = 0; i < n; ++i) acc += x[i] - x[i];
  return !(acc == 0);
}

/// What a line's input holds at the edges of the range.
template <class T0>
struct LineRange {
  T0 max_finite = 0;  ///< largest finite magnitude
  std::size_t infinities = 0;
  bool nan = false;
};

template <class T0>
LineRange<T0> ScanLine(const T0* x, std::ptrdiff_t s, std::size_t n) {
  LineRange<T0> r;
  for (std::size_t i = 0; i < n; ++i) {
    const T0 v = x[static_cast<std::ptrdiff_t>(i) * s];
    if (std::isnan(v))
      r.nan = true;
    else if (std::isinf(v))
      ++r.infinities;
    else
      r.max_finite = std::max(r.max_finite, std::fabs(v));
  }
  return r;
}

/// The e >= 0 for which max_finite * 2^-e * 8 (2n + 2) stays finite: the prescale of a line.
template <class T0>
int PrescaleExponent(T0 max_finite, std::size_t n) {
  const long double bound = static_cast<long double>(max_finite) * 8.0L * (2.0L * n + 2.0L);
  const long double limit = std::numeric_limits<T0>::max();
  int e = 0;
  while (bound > std::ldexp(limit, e)) ++e;
  return e;
}

/// Writes +-inf (or NaN) into the outputs y[k * ys], k < n, that the infinities of the input
/// x[j * s] reach through the matrix of transform `t`. O(n) per infinity; a line with more than
/// kMaxInfinityTerms / n of them gets NaN everywhere instead (no quadratic cost on all-inf data).
template <class T0>
void AddInfiniteTerms(AxisTransform t, std::size_t n, const T0* x, std::ptrdiff_t s, T0* y,
                      std::ptrdiff_t ys) {
  constexpr std::size_t kMaxInfinityTerms = std::size_t{1} << 24;
  std::vector<std::size_t> at;
  for (std::size_t j = 0; j < n; ++j)
    if (std::isinf(x[static_cast<std::ptrdiff_t>(j) * s])) at.push_back(j);
  const T0 inf = std::numeric_limits<T0>::infinity();
  const T0 nan = std::numeric_limits<T0>::quiet_NaN();
  const bool too_many = at.size() > kMaxInfinityTerms / n;
  for (std::size_t k = 0; k < n; ++k) {
    T0& out = y[static_cast<std::ptrdiff_t>(k) * ys];
    if (too_many) {
      out = nan;
      continue;
    }
    bool plus = false, minus = false;
    for (std::size_t j : at) {
      const int sign = detail::r2r_coefficient_sign(t, n, k, j) *
                       (x[static_cast<std::ptrdiff_t>(j) * s] > 0 ? 1 : -1);
      plus |= sign > 0;
      minus |= sign < 0;
    }
    if (plus && minus)
      out = nan;
    else if (plus)
      out = inf;
    else if (minus)
      out = -inf;
  }
}

/// Lane l of a lane-interleaved buffer as a strided scalar line.
template <class T0, class V>
T0* LanePointer(V* buf, std::size_t l) {
  return reinterpret_cast<T0*>(buf) + l;
}

/// Recomputes the lanes `bad` of buf (lane l: the line of n values at in + off[l], stride s) as
/// the header says; the other lanes are computed again unchanged. `r2r` runs on vectors. Inputs
/// of magnitude below `zero_below` count as 0 (PlanDesc::coefficient_threshold of an inverse plan).
template <class T0, class V, class R2RT, class CxV>
void RedoLanes(const R2RT& r2r, const T0* in, std::ptrdiff_t s, const std::ptrdiff_t* off,
               std::size_t cnt, std::size_t n, unsigned bad, V* buf, CxV* scratch,
               T0 zero_below = 0) {
  constexpr std::size_t kLanes = sizeof(V) / sizeof(T0);
  V down, up;
  unsigned with_inf = 0;
  bool change = false;
  for (std::size_t l = 0; l < kLanes; ++l) {
    down[l] = up[l] = T0(1);
    if (l >= cnt || !(bad >> l & 1u)) continue;
    const LineRange<T0> r = ScanLine(in + off[l], s, n);
    if (r.nan) continue;
    const int e = PrescaleExponent(r.max_finite, n);
    down[l] = std::ldexp(T0(1), -e);
    up[l] = std::ldexp(T0(1), e);
    if (r.infinities) with_inf |= 1u << l;
    change |= e > 0 || r.infinities > 0;
  }
  if (!change) return;  // the true results overflow, or NaN came in
  for (std::size_t i = 0; i < n; ++i) {
    V v{};
    const std::ptrdiff_t si = static_cast<std::ptrdiff_t>(i) * s;
    for (std::size_t l = 0; l < cnt; ++l) {
      const T0 x = in[off[l] + si];
      v[l] = ((with_inf >> l & 1u) && std::isinf(x)) || std::abs(x) < zero_below ? T0(0) : x;
    }
    buf[i] = v * down;
  }
  r2r.exec(buf, scratch);
  for (std::size_t i = 0; i < n; ++i) buf[i] *= up;
  for (std::size_t l = 0; l < cnt; ++l)
    if (with_inf >> l & 1u)
      AddInfiniteTerms(r2r.computed(), n, in + off[l], s, LanePointer<T0>(buf, l),
                       static_cast<std::ptrdiff_t>(kLanes));
}

/// The same for one scalar line (the driver's single-line path).
template <class T0, class R2RT>
void RedoLine(const R2RT& r2r, const T0* in, std::ptrdiff_t s, std::size_t n, T0* line,
              Cx<T0>* scratch, T0 zero_below = 0) {
  const LineRange<T0> r = ScanLine(in, s, n);
  if (r.nan) return;
  const int e = PrescaleExponent(r.max_finite, n);
  if (e == 0 && r.infinities == 0) return;
  const T0 down = std::ldexp(T0(1), -e), up = std::ldexp(T0(1), e);
  for (std::size_t i = 0; i < n; ++i) {
    const T0 x = in[static_cast<std::ptrdiff_t>(i) * s];
    line[i] = std::isinf(x) || std::abs(x) < zero_below ? T0(0) : x * down;
  }
  r2r.exec(line, scratch);
  for (std::size_t i = 0; i < n; ++i) line[i] *= up;
  if (r.infinities) AddInfiniteTerms(r2r.computed(), n, in, s, line, 1);
}

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
