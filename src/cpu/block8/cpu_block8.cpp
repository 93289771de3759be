// SPDX-License-Identifier: BSD-3-Clause
// The CPU back end's block plans: the kernel's constants prepared once per plan (the AAN scales,
// the quantizer's reciprocals or magic numbers), then each execution walks the planes
// (plane_walk.hpp) with the work of its operation (works.hpp).
#include "cpu/block8/cpu_block8.hpp"

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "block8/constants.hpp"
#include "cpu/block8/kernels.hpp"
#include "cpu/block8/plane_walk.hpp"
#include "cpu/block8/scalar.hpp"
#include "cpu/block8/works.hpp"

namespace dctx {
namespace block8 {

const AanTables& aan_tables() {
  static const AanTables t = [] {
    AanTables r{};
    for (int u = 0; u < 8; ++u)
      for (int v = 0; v < 8; ++v) {
        const double s = kAanScale[u] * kAanScale[v];
        r.fwd.set(u, v, static_cast<float>(1.0 / (8.0 * s)));
        r.inv.set(u, v, static_cast<float>(s / 8.0));
      }
    return r;
  }();
  return t;
}

namespace {

/// The kernels' constants for `table`: transposed (entry [v][u] for coefficient (u, v)) for the
/// fused kernels, which quantize between their passes; natural for quantization alone.
template <class Quant, bool kTransposed>
Quant quant_constants(const QuantTable& table) {
  Quant q;
  for (std::size_t u = 0; u < 8; ++u)
    for (std::size_t v = 0; v < 8; ++v) {
      if constexpr (kTransposed)
        q.set(v, u, table.q[8 * u + v]);
      else
        q.set(u, v, table.q[8 * u + v]);
    }
  return q;
}

/// A SIMD quantization kernel (kernels.hpp: quantize_f32, ...) on a region with unit column stride.
template <class TI, class TO>
using Elementwise = std::uint64_t (*)(const TI*, std::ptrdiff_t, TO*, std::ptrdiff_t, std::size_t,
                                      std::size_t, const QuantF32&);

class CpuBlock8Plan final : public detail::BackendBlock8Plan {
 public:
  explicit CpuBlock8Plan(const Block8PlanDesc& d) : d_(d) {
    if (!d.table) return;
    const QuantTable& t = *d.table;
    const bool int16 = d.data == Block8Data::Int16;
    switch (d.op) {
      case Block8Op::Quantize:
      case Block8Op::Dequantize: natural_ = quant_constants<QuantF32, false>(t); break;
      default:
        if (int16)
          fused_i16_ = quant_constants<QuantI16, true>(t);
        else
          fused_f32_ = quant_constants<QuantF32, true>(t);
    }
  }

  std::uint64_t execute(const detail::Block8HostCall& call) const override {
    const bool int16 = d_.data == Block8Data::Int16;
    switch (d_.op) {
      case Block8Op::Forward:
        return int16 ? Transform<std::int16_t>(call, forward_work<std::int16_t>(d_.kernel))
                     : Transform<float>(call, forward_work<float>(d_.kernel));
      case Block8Op::Inverse:
        return int16 ? Transform<std::int16_t>(call, inverse_work<std::int16_t>(d_.kernel))
                     : Transform<float>(call, inverse_work<float>(d_.kernel));
      case Block8Op::Roundtrip:
        return int16 ? Roundtrip<std::int16_t>(call) : Roundtrip<float>(call);
      case Block8Op::ForwardQuantized:
        return int16 ? ForwardQuantized<std::int16_t>(call) : ForwardQuantized<float>(call);
      case Block8Op::InverseDequantized:
        return int16 ? InverseDequantized<std::int16_t>(call) : InverseDequantized<float>(call);
      case Block8Op::Quantize:
        if (int16)
          return Elementwise_<std::int16_t, std::int16_t>(
              call, quantize_i16, [](std::int16_t c, int q) { return quantize_value(c, q); });
        return Elementwise_<float, std::int16_t>(
            call, quantize_f32, [](float c, int q) { return quantize_value(c, q); });
      case Block8Op::Dequantize:
        if (int16)
          return Elementwise_<std::int16_t, std::int16_t>(
              call, dequantize_i16,
              [](std::int16_t l, int q) { return dequantize_value_i16(l, q); });
        return Elementwise_<std::int16_t, float>(
            call, dequantize_f32, [](std::int16_t l, int q) { return dequantize_value(l, q); });
    }
    return 0;
  }

  std::string describe() const override {
    const bool scalar = d_.kernel == Block8Kernel::Reference;
    return "cpu[" + std::string(scalar ? "scalar" : simd_target_name()) + "] " +
           std::string(to_string(d_.kernel));
  }

 private:
  // The fused SIMD kernel applies: Fast on float data, Int16 on int16 data.
  bool Fused() const {
    return d_.kernel == (d_.data == Block8Data::Int16 ? Block8Kernel::Int16 : Block8Kernel::Fast);
  }
  const void* FusedConstants() const {
    return d_.data == Block8Data::Int16 ? static_cast<const void*>(&fused_i16_)
                                        : static_cast<const void*>(&fused_f32_);
  }

  template <class TI, class TO>
  std::uint64_t Run(const detail::Block8HostCall& call, Work<TI, TO> work, const void* ctx) const {
    const auto out = typed_planes<TO>(call.out);
    if (call.overlap == detail::Overlap::Partial) {
      std::vector<TI> keep;
      const auto in = readable_input(typed_planes<const TI>(call.in), call.overlap, keep);
      return run_planes<TI, TO>(in, out, call.padded_rows, call.padded_cols, work, ctx,
                                d_.cpu.threads);
    }
    return run_planes<TI, TO>(typed_planes<const TI>(call.in), out, call.padded_rows,
                              call.padded_cols, work, ctx, d_.cpu.threads);
  }

  template <class T>
  std::uint64_t Transform(const detail::Block8HostCall& call, Work<T> work) const {
    return Run<T, T>(call, work, nullptr);
  }

  template <class T>
  std::uint64_t Roundtrip(const detail::Block8HostCall& call) const {
    if (Fused()) {
      if constexpr (std::is_same_v<T, float>)
        return Run<T, T>(call, fast_roundtrip_f32_work, FusedConstants());
      else
        return Run<T, T>(call, int_roundtrip_i16_work, FusedConstants());
    }
    const Composed<T> composed{forward_work<T>(d_.kernel), inverse_work<T>(d_.kernel), &*d_.table};
    return Run<T, T>(call, composed_roundtrip<T>, &composed);
  }

  template <class T>
  std::uint64_t ForwardQuantized(const detail::Block8HostCall& call) const {
    if (Fused()) {
      if constexpr (std::is_same_v<T, float>)
        return Run<T, std::int16_t>(call, fast_forward_quantize_f32_work, FusedConstants());
      else
        return Run<T, std::int16_t>(call, int_forward_quantize_i16_work, FusedConstants());
    }
    const ComposedHalf<T> composed{forward_work<T>(d_.kernel), &*d_.table};
    return Run<T, std::int16_t>(call, composed_forward_quantize<T>, &composed);
  }

  template <class T>
  std::uint64_t InverseDequantized(const detail::Block8HostCall& call) const {
    if (Fused()) {
      if constexpr (std::is_same_v<T, float>)
        return Run<std::int16_t, T>(call, fast_dequantize_inverse_f32_work, FusedConstants());
      else
        return Run<std::int16_t, T>(call, int_dequantize_inverse_i16_work, FusedConstants());
    }
    const ComposedHalf<T> composed{inverse_work<T>(d_.kernel), &*d_.table};
    return Run<std::int16_t, T>(call, composed_dequantize_inverse<T>, &composed);
  }

  /// Quantize or dequantize every element with its table entry: `simd` on planes with unit column
  /// stride, f(value, Q) element by element otherwise (both give the same values).
  template <class TI, class TO, class Fn>
  std::uint64_t Elementwise_(const detail::Block8HostCall& call, Elementwise<TI, TO> simd,
                             Fn f) const {
    std::vector<TI> keep;
    const auto in = readable_input(typed_planes<const TI>(call.in), call.overlap, keep);
    const auto out = typed_planes<TO>(call.out);
    std::uint64_t flags = 0;
    if (in.cs == 1 && out.cs == 1) {
      for (std::size_t b = 0; b < in.count; ++b)
        flags |= simd(in.plane(b), in.rs, out.plane(b), out.rs, in.rows, in.cols, natural_);
      return flags;
    }
    const QuantTable& t = *d_.table;
    for (std::size_t b = 0; b < in.count; ++b)
      for (std::size_t r = 0; r < in.rows; ++r)
        for (std::size_t k = 0; k < in.cols; ++k) {
          const TI value = *in.at(b, r, k);
          if constexpr (std::is_same_v<TI, float> && std::is_same_v<TO, std::int16_t>) {
            if (std::isnan(value)) flags = detail::kNaNCoefficient;
          }
          *out.at(b, r, k) = f(value, t.q[8 * (r % 8) + k % 8]);
        }
    return flags;
  }

  Block8PlanDesc d_;
  QuantF32 fused_f32_{}, natural_{};
  QuantI16 fused_i16_{};
};

}  // namespace
}  // namespace block8

namespace detail {

std::unique_ptr<BackendBlock8Plan> make_cpu_block8_plan(const Block8Spec& spec) {
  return std::make_unique<block8::CpuBlock8Plan>(spec.desc);
}

}  // namespace detail

std::string block8_target() { return block8::simd_target_name(); }

}  // namespace dctx
