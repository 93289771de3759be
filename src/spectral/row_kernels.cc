// SPDX-License-Identifier: BSD-3-Clause
// The electrostatic step's row passes (row_kernels.hpp), compiled once per SIMD target by
// Highway's foreach_target and picked at run time. Arithmetic in double on vectors of the
// target's width, float rows widened on load and rounded on store; the Parseval sum keeps eight
// accumulators, lane q taking the elements j with j % 8 == q, as the scalar loop it replaced did.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "spectral/row_kernels.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "spectral/row_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace dctx::spectral::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#undef DCTX_ROW_KERNELS_SIMD
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
#define DCTX_ROW_KERNELS_SIMD 1
#else
#define DCTX_ROW_KERNELS_SIMD 0
#endif

#if DCTX_ROW_KERNELS_SIMD
using DD = hn::CappedTag<double, 8>;  // 8 divides the lane count's multiples: 2, 4 or 8 lanes

template <class T>
HWY_INLINE hn::Vec<DD> LoadWide(const T* p) {
  if constexpr (std::is_same_v<T, double>) {
    return hn::LoadU(DD(), p);
  } else {
    return hn::PromoteTo(DD(), hn::LoadU(hn::Rebind<T, DD>(), p));
  }
}

template <class T>
HWY_INLINE void StoreNarrow(hn::Vec<DD> v, T* p) {
  if constexpr (std::is_same_v<T, double>) {
    hn::StoreU(v, DD(), p);
  } else {
    const hn::Rebind<T, DD> dt;
    hn::StoreU(hn::DemoteTo(dt, v), dt, p);
  }
}

// body(j, acc) over the unit-stride part of a row: whole groups of eight elements on 8 / N
// accumulators, then single vectors on the accumulator of their lanes; returns where it stopped.
// The accumulators are added to acc8 lane by lane.
template <class Body>
HWY_INLINE std::size_t EightLaneRows(std::size_t n, double acc8[8], Body body) {
  const DD dd;
  constexpr std::size_t kN = hn::MaxLanes(dd);
  static_assert(8 % kN == 0, "the accumulators need lane counts that divide 8");
  hn::Vec<DD> acc[8 / kN];
  for (auto& a : acc) a = hn::Zero(dd);
  std::size_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (std::size_t k = 0; k < 8 / kN; ++k) acc[k] = body(j + k * kN, acc[k]);
  for (; j + kN <= n; j += kN) acc[(j % 8) / kN] = body(j, acc[(j % 8) / kN]);
  HWY_ALIGN double lanes[8];
  for (std::size_t k = 0; k < 8 / kN; ++k) hn::Store(acc[k], dd, lanes + k * kN);
  for (std::size_t q = 0; q < 8; ++q) acc8[q] += lanes[q];
  return j;
}
#endif

template <class T>
void WeighRowT(const WeighRow& w, T* x, std::ptrdiff_t xs, T* fy, std::ptrdiff_t ys, T* pot,
               std::ptrdiff_t ps, double acc8[8]) {
  std::size_t j = 0;
#if DCTX_ROW_KERNELS_SIMD
  if (xs == 1 && ys == 1 && (!pot || ps == 1)) {
    const DD dd;
    const auto scale = hn::Set(dd, w.scale), wu2 = hn::Set(dd, w.wu2);
    const auto pot_i = hn::Set(dd, w.pot_i), fy_i = hn::Set(dd, w.fy_i), fx_i = hn::Set(dd, w.fx_i);
    j = EightLaneRows(w.n, acc8, [&](std::size_t k, hn::Vec<DD> acc) HWY_ATTR {
      const auto a = hn::Mul(LoadWide(x + k), scale);
      auto t = hn::Div(a, hn::Add(wu2, hn::LoadU(dd, w.wv2 + k)));
      if (w.zero_first && k == 0) t = hn::IfThenZeroElse(hn::FirstN(dd, 1), t);
      const auto hcos = hn::LoadU(dd, w.hcos + k);
      if (pot) StoreNarrow(hn::Mul(hn::Mul(t, pot_i), hcos), pot + k);
      StoreNarrow(hn::Mul(hn::Mul(t, hn::LoadU(dd, w.wv + k)), fy_i), fy + k);
      if (w.write_x) StoreNarrow(hn::Mul(hn::Mul(t, fx_i), hcos), x + k);
      return hn::Add(acc, hn::Mul(a, t));
    });
  }
#endif
  for (; j < w.n; ++j) {
    const auto at = [j](auto* p, std::ptrdiff_t s) -> auto& {
      return p[static_cast<std::ptrdiff_t>(j) * s];
    };
    const double a = double(at(x, xs)) * w.scale;
    const double t = (w.zero_first && j == 0) ? 0.0 : a / (w.wu2 + w.wv2[j]);
    acc8[j % 8] += a * t;
    if (pot) at(pot, ps) = static_cast<T>(t * w.pot_i * w.hcos[j]);
    at(fy, ys) = static_cast<T>(t * w.wv[j] * w.fy_i);
    if (w.write_x) at(x, xs) = static_cast<T>(t * w.fx_i * w.hcos[j]);
  }
}

template <class T>
void ScaleRowT(const T* x, std::ptrdiff_t xs, double r, T* y, std::ptrdiff_t ys, std::size_t n) {
  std::size_t j = 0;
#if DCTX_ROW_KERNELS_SIMD
  if (xs == 1 && ys == 1) {
    const DD dd;
    constexpr std::size_t kN = hn::MaxLanes(dd);
    const auto rv = hn::Set(dd, r);
    for (; j + kN <= n; j += kN) StoreNarrow(hn::Mul(LoadWide(x + j), rv), y + j);
  }
#endif
  for (; j < n; ++j)
    y[static_cast<std::ptrdiff_t>(j) * ys] =
        static_cast<T>(double(x[static_cast<std::ptrdiff_t>(j) * xs]) * r);
}

void WeighRowF32(const WeighRow& w, float* x, std::ptrdiff_t xs, float* fy, std::ptrdiff_t ys,
                 float* pot, std::ptrdiff_t ps, double* acc8) {
  WeighRowT(w, x, xs, fy, ys, pot, ps, acc8);
}
void WeighRowF64(const WeighRow& w, double* x, std::ptrdiff_t xs, double* fy, std::ptrdiff_t ys,
                 double* pot, std::ptrdiff_t ps, double* acc8) {
  WeighRowT(w, x, xs, fy, ys, pot, ps, acc8);
}
void ScaleRowF32(const float* x, std::ptrdiff_t xs, double r, float* y, std::ptrdiff_t ys,
                 std::size_t n) {
  ScaleRowT(x, xs, r, y, ys, n);
}
void ScaleRowF64(const double* x, std::ptrdiff_t xs, double r, double* y, std::ptrdiff_t ys,
                 std::size_t n) {
  ScaleRowT(x, xs, r, y, ys, n);
}

}  // namespace dctx::spectral::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace dctx::spectral {

HWY_EXPORT(WeighRowF32);
HWY_EXPORT(WeighRowF64);
HWY_EXPORT(ScaleRowF32);
HWY_EXPORT(ScaleRowF64);

void weigh_row(const WeighRow& w, float* x, std::ptrdiff_t xs, float* fy, std::ptrdiff_t ys,
               float* pot, std::ptrdiff_t ps, double acc[8]) {
  HWY_DYNAMIC_DISPATCH(WeighRowF32)(w, x, xs, fy, ys, pot, ps, acc);
}
void weigh_row(const WeighRow& w, double* x, std::ptrdiff_t xs, double* fy, std::ptrdiff_t ys,
               double* pot, std::ptrdiff_t ps, double acc[8]) {
  HWY_DYNAMIC_DISPATCH(WeighRowF64)(w, x, xs, fy, ys, pot, ps, acc);
}
void scale_row(const float* x, std::ptrdiff_t xs, double r, float* y, std::ptrdiff_t ys,
               std::size_t n) {
  HWY_DYNAMIC_DISPATCH(ScaleRowF32)(x, xs, r, y, ys, n);
}
void scale_row(const double* x, std::ptrdiff_t xs, double r, double* y, std::ptrdiff_t ys,
               std::size_t n) {
  HWY_DYNAMIC_DISPATCH(ScaleRowF64)(x, xs, r, y, ys, n);
}

}  // namespace dctx::spectral
#endif  // HWY_ONCE
