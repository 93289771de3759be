// SPDX-License-Identifier: BSD-3-Clause
// DREAMPlace's electrostatic step and its transforms (dctx/electrostatics.hpp) over the public
// plans. Each of DREAMPlace's inverse transforms is a scipy type-3 transform of a reweighted input
// (docs/electrostatics.md): along a cosine axis, IDCT(x) = DCT-III(x with x_0 doubled) / 2; along
// a sine axis, IDXST(x) = DXST-III(x) / 2 (the core's shifted DST, dctx/types.hpp). So every
// output is one mixed DCT-III/DXST-III plan run in place on coefficients that one pass writes
// already reweighted; on the CPU, solve() shares the potential's pass along v with field_x.
#include "dctx/electrostatics.hpp"

#include "core/backend.hpp"
#include "core/electrostatics_backend.hpp"
#include "core/overlap.hpp"
#include "core/thread_pool.hpp"
#include "core/vocabulary.hpp"
#include "dctx/backend.hpp"
#include "spectral/pass_threads.hpp"
#include "spectral/row_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dctx {

namespace {

constexpr AxisTransform kCos{Kind::DCT, 3}, kSin{Kind::DXST, 3};

PlanDesc type3_plan(const Shape& shape, Precision p, const CpuOptions& cpu, AxisTransform t0,
                    AxisTransform t1) {
  ElectrostaticsDesc s;
  s.shape = shape;
  s.precision = p;
  s.cpu = cpu;
  return detail::step_plan(s, t0, t1, BackendKind::Auto);
}

void check_shape(const Shape& s, const char* fn) {
  if (s.size() != 2)
    throw Error(std::string(fn) + ": the bin grid is 2D, not of rank " + std::to_string(s.size()));
  if (s[0] == 0 || s[1] == 0) throw Error(std::string(fn) + ": the bin grid is empty");
}

template <class T>
constexpr Precision precision_of() {
  return std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
}
const char* name(Precision p) { return p == Precision::F32 ? "float32" : "float64"; }

// The type-3 weight of index k along an axis: 1/2, and 1 at index 0 of a cosine axis (its
// doubled x_0 halved); a sine axis's index 0 is unused by DXST-III.
inline double type3_weight(bool sine, std::size_t k) { return (!sine && k == 0) ? 1.0 : 0.5; }

}  // namespace

template <class T>
static void dream_any(DreamTransform t, const ConstView<T>& in, const View<T>& out,
                      const CpuOptions& cpu) {
  check_shape(in.shape(), "dream_transform");
  if (out.shape() != in.shape()) throw Error("dream_transform: out's shape differs from in's");
  if (t != DreamTransform::IdcCt2 && t != DreamTransform::IdxstIdct &&
      t != DreamTransform::IdctIdxst)
    throw Error("dream_transform: unknown transform " + std::to_string(int(t)));
  const bool sin0 = t == DreamTransform::IdxstIdct, sin1 = t == DreamTransform::IdctIdxst;
  const Shape& s = in.shape();
  // The input is read whole before `out` is written (out may be in).
  std::vector<double> c(s[0] * s[1]);
  for (std::size_t i = 0; i < s[0]; ++i)
    for (std::size_t j = 0; j < s[1]; ++j)
      c[i * s[1] + j] = in.data()[static_cast<std::ptrdiff_t>(i) * in.strides()[0] +
                                  static_cast<std::ptrdiff_t>(j) * in.strides()[1]];
  for (std::size_t i = 0; i < s[0]; ++i) {
    T* row = out.data() + static_cast<std::ptrdiff_t>(i) * out.strides()[0];
    const double w0 = type3_weight(sin0, i);
    for (std::size_t j = 0; j < s[1]; ++j)
      row[static_cast<std::ptrdiff_t>(j) * out.strides()[1]] =
          static_cast<T>(c[i * s[1] + j] * w0 * type3_weight(sin1, j));
  }
  cached_plan(type3_plan(s, precision_of<T>(), cpu, sin0 ? kSin : kCos, sin1 ? kSin : kCos))
      ->execute(out);
}
void dream_transform(DreamTransform t, const ConstView<float>& in, const View<float>& out,
                     const CpuOptions& cpu) {
  dream_any(t, in, out, cpu);
}
void dream_transform(DreamTransform t, const ConstView<double>& in, const View<double>& out,
                     const CpuOptions& cpu) {
  dream_any(t, in, out, cpu);
}

struct ElectrostaticSystem::Impl {
  ElectrostaticsDesc desc;
  std::shared_ptr<const Plan> dct2, potential, field_x, field_y;
  // The potential: one 2D plan on a device back end; on the CPU the shared route of solve():
  // the potential's DCT-III along v (axis 1), then DCT-III along u for the potential and
  // DXST-III along u for field_x (each null where the other is used).
  std::shared_ptr<const Plan> pot_rows, pot_cols, fx_cols;
  // The whole step on a device back end that runs it (Backend::make_electrostatics): one upload
  // and one download per array instead of four plans copying in and out.
  std::unique_ptr<const detail::BackendElectrostatics> device_step;
  std::vector<double> wu, wv, wv2;
  std::vector<double> hcos;  // type3_weight(false, j) along the rows

  template <class T>
  double run(const ConstView<T>& density, const View<T>* potential_out, const View<T>& fx,
             const View<T>& fy) const {
    if (precision_of<T>() != desc.precision)
      throw Error(std::string("electrostatics: the density map is ") + name(precision_of<T>()) +
                  " but the system was made for " + name(desc.precision));
    const std::size_t m = desc.shape[0], n = desc.shape[1];
    for (const View<T>* v : {potential_out, &fx, &fy})
      if (v && v->shape() != desc.shape)
        throw Error("electrostatics: an output's shape differs from the " + std::to_string(m) +
                    " x " + std::to_string(n) + " bin grid");
    check_places(density, potential_out, fx, fy);
    if (device_step) {
      detail::HostStep<T> h;
      h.density = density.data();
      h.density_strides = density.strides().data();
      if (potential_out) {
        h.potential = potential_out->data();
        h.potential_strides = potential_out->strides().data();
      }
      h.field_x = fx.data();
      h.field_x_strides = fx.strides().data();
      h.field_y = fy.data();
      h.field_y_strides = fy.strides().data();
      return device_step->solve(h);
    }
    // a = DCT2(rho / (bw bh)) = scipy's dctn(rho) / (M N bw bh), computed into field_x, which
    // the weighting pass then overwrites row by row, each row read first. No scratch array.
    dct2->execute(density, fx);
    // The energy: sum psi rho' of the published algorithm equals Parseval's (M N / 4) sum a^2 W
    // (docs/electrostatics.md), whose terms are all >= 0: no cancellation, and no pass over the
    // potential and the density.
    const bool shared = potential_out && pot_rows;
    const long double parseval = weight(potential_out, fx, fy, !shared);
    if (shared) {
      // field_x's coefficients are the potential's times r(i) along u: the potential's pass
      // along v is done once and copied, scaled, into field_x (seven axis passes, not eight).
      const View<T>& pot = *potential_out;
      pot_rows->execute(pot);
      scale_rows(pot, fx);
      pot_cols->execute(pot);
      fx_cols->execute(fx);
    } else {
      field_x->execute(fx);
      if (potential_out) potential->execute(*potential_out);
    }
    field_y->execute(fy);
    return static_cast<double>(parseval * m * n / 4);
  }

  // field_x(i, :) = r(i) potential(i, :), rows split across the threads: r(i) is the weighting
  // pass's field_x factor over its potential factor, (w_u(i) / 4) / h_cos(i).
  template <class T>
  void scale_rows(const View<T>& pot, const View<T>& fx) const {
    const std::size_t m = desc.shape[0], n = desc.shape[1];
    const int threads = spectral::pass_threads(m * n, desc.cpu.threads);
    detail::parallel_for(threads, m, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i)
        spectral::scale_row(pot.data() + static_cast<std::ptrdiff_t>(i) * pot.strides()[0],
                            pot.strides()[1], wu[i] / 4 / type3_weight(false, i),
                            fx.data() + static_cast<std::ptrdiff_t>(i) * fx.strides()[0],
                            fx.strides()[1], n);
    });
  }

  // The outputs are written while each other is still to be transformed, and the density map
  // stays the caller's (an output over it is refused, as over another output).
  template <class T>
  static void check_places(const ConstView<T>& density, const View<T>* pot, const View<T>& fx,
                           const View<T>& fy) {
    const auto place = [](const auto& v) {
      return detail::ArrayPlace{reinterpret_cast<std::uintptr_t>(v.data()), sizeof(T), 2,
                                v.shape().data(), v.strides().data()};
    };
    const detail::NamedPlace outs[] = {{"potential", pot ? place(*pot) : place(fx)},
                                       {"field_x", place(fx)},
                                       {"field_y", place(fy)}};
    detail::check_separate_outputs("electrostatics", {"density map", place(density)},
                                   pot ? outs : outs + 1, pot ? 3 : 2);
  }

  // The weighting pass: from a (in fx), the type-3 inputs of the potential (when wanted),
  // field_x and field_y, row by row in place, with t = a / (w_u^2 + w_v^2) formed once per entry
  // (t(0, 0) = 0) and type3_weight's factors h:
  //   potential(i, j) = t h_cos(i) h_cos(j),  field_x(i, j) = t w_u(i) / 2 h_sin(i) h_cos(j),
  //   field_y(i, j) = t w_v(j) / 2 h_cos(i) h_sin(j).
  // Returns the Parseval sum of a^2 / (w_u^2 + w_v^2).
  template <class T>
  long double weight(const View<T>* pot, const View<T>& fx, const View<T>& fy,
                     bool write_fx) const {
    const std::size_t m = desc.shape[0], n = desc.shape[1];
    const double scale = 1.0 / (double(m) * double(n) * desc.bin_width * desc.bin_height);
    const auto row_of = [](const View<T>& v, std::size_t i) {
      return v.data() + static_cast<std::ptrdiff_t>(i) * v.strides()[0];
    };
    const int threads = spectral::pass_threads(m * n, desc.cpu.threads);
    const std::size_t chunks = std::min<std::size_t>(m, std::size_t(threads));
    std::vector<long double> sums(chunks, 0);
    detail::parallel_for(int(chunks), chunks, [&](std::size_t c0, std::size_t c1) {
      for (std::size_t c = c0; c < c1; ++c) {
        long double total = 0;
        for (std::size_t i = c * m / chunks; i < (c + 1) * m / chunks; ++i) {
          spectral::WeighRow w;
          w.n = n;
          w.scale = scale;
          w.wu2 = wu[i] * wu[i];
          w.zero_first = i == 0;  // the zero-frequency term: t = 0
          w.pot_i = type3_weight(false, i);
          w.fy_i = w.pot_i / 4;
          w.fx_i = wu[i] / 4;  // w_u(i) / 2 h_sin(i)
          w.wv = wv.data();
          w.wv2 = wv2.data();
          w.hcos = hcos.data();
          w.write_x = write_fx;
          double acc[8] = {};
          spectral::weigh_row(w, row_of(fx, i), fx.strides()[1], row_of(fy, i), fy.strides()[1],
                              pot ? row_of(*pot, i) : nullptr, pot ? pot->strides()[1] : 0, acc);
          double sum = 0;
          for (double a : acc) sum += a;
          total += sum;
        }
        sums[c] = total;
      }
    });
    long double parseval = 0;
    for (long double x : sums) parseval += x;
    return parseval;
  }
};

ElectrostaticSystem::ElectrostaticSystem(const ElectrostaticsDesc& desc) {
  check_shape(desc.shape, "electrostatics");
  for (double b : {desc.bin_width, desc.bin_height})
    if (!(b > 0) || !std::isfinite(b))
      throw Error("electrostatics: the bin sizes must be finite and > 0, not " +
                  detail::number_str(b));
  auto impl = std::make_unique<Impl>();
  impl->desc = desc;
  const Shape& s = desc.shape;
  const auto plan = [&](AxisTransform t0, AxisTransform t1) {
    return cached_plan(detail::step_plan(desc, t0, t1, desc.backend));
  };
  impl->dct2 = plan({Kind::DCT, 2}, {Kind::DCT, 2});
  impl->field_x = plan(kSin, kCos);
  impl->field_y = plan(kCos, kSin);
  const std::vector<double> tables = detail::weight_tables(s[0], s[1]);
  impl->wu.assign(tables.begin(), tables.begin() + std::ptrdiff_t(s[0]));
  impl->wv.assign(tables.begin() + std::ptrdiff_t(s[0]),
                  tables.begin() + std::ptrdiff_t(s[0] + s[1]));
  impl->wv2.assign(tables.begin() + std::ptrdiff_t(s[0] + s[1]), tables.end());
  for (std::size_t v = 0; v < s[1]; ++v) impl->hcos.push_back(type3_weight(false, v));
  const std::shared_ptr<const detail::Backend> backend = detail::resolve_backend(desc.backend);
  if (backend->kind() != BackendKind::CPU) {
    impl->potential = plan(kCos, kCos);
    impl->device_step = backend->make_electrostatics(desc);
  } else {
    const auto axis_plan = [&](int axis, AxisTransform t) {
      return cached_plan(detail::step_axis_plan(desc, axis, t, BackendKind::CPU));
    };
    impl->pot_rows = axis_plan(1, kCos);
    impl->pot_cols = axis_plan(0, kCos);
    impl->fx_cols = axis_plan(0, kSin);
  }
  impl_ = std::move(impl);
}
ElectrostaticSystem::ElectrostaticSystem(ElectrostaticSystem&&) noexcept = default;
ElectrostaticSystem& ElectrostaticSystem::operator=(ElectrostaticSystem&&) noexcept = default;
ElectrostaticSystem::~ElectrostaticSystem() = default;

namespace {
const char* kMoved = "electrostatics: the system is empty (moved from)";
}

double ElectrostaticSystem::solve(const ConstView<float>& density, const View<float>& potential,
                                  const View<float>& field_x, const View<float>& field_y) const {
  if (!impl_) throw Error(kMoved);
  return impl_->run(density, &potential, field_x, field_y);
}
double ElectrostaticSystem::solve(const ConstView<double>& density, const View<double>& potential,
                                  const View<double>& field_x, const View<double>& field_y) const {
  if (!impl_) throw Error(kMoved);
  return impl_->run(density, &potential, field_x, field_y);
}
double ElectrostaticSystem::fields(const ConstView<float>& density, const View<float>& field_x,
                                   const View<float>& field_y) const {
  if (!impl_) throw Error(kMoved);
  return impl_->run<float>(density, nullptr, field_x, field_y);
}
double ElectrostaticSystem::fields(const ConstView<double>& density, const View<double>& field_x,
                                   const View<double>& field_y) const {
  if (!impl_) throw Error(kMoved);
  return impl_->run<double>(density, nullptr, field_x, field_y);
}
const ElectrostaticsDesc& ElectrostaticSystem::desc() const {
  if (!impl_) throw Error(kMoved);
  return impl_->desc;
}

}  // namespace dctx
