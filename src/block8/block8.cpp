// SPDX-License-Identifier: BSD-3-Clause
// The 8x8 block engine's functions, thin over block plans (block8_plan.cpp): each thread keeps the
// plans of the descriptions it used last, so that a codec calling block by block with one table
// plans once (its constants included) and then only executes.
#include <array>
#include <memory>
#include <string>
#include <utility>

#include "dctx/block8.hpp"

namespace dctx {
namespace {

/// What a call asked for, as the functions receive it: a hit compares these fields and builds
/// no description.
struct CallKey {
  Block8Op op;
  Block8Data data;
  Block8Options options;
  bool has_table;
  QuantTable table;
  bool Matches(Block8Op o, Block8Data t, const Block8Options& opt, const QuantTable* q) const {
    return op == o && data == t && options.kernel == opt.kernel && options.edge == opt.edge &&
           options.nthreads == opt.nthreads && options.backend == opt.backend &&
           has_table == (q != nullptr) && (!q || table == *q);
  }
};

/// The plan for this call from this thread's most recently used ones (kSlots of them).
const Block8Plan& thread_plan(Block8Op op, Block8Data data, const Block8Options& o,
                              const QuantTable* table = nullptr) {
  constexpr std::size_t kSlots = 8;
  struct Slot {
    CallKey key;
    std::unique_ptr<Block8Plan> plan;
  };
  thread_local std::array<Slot, kSlots> slots;
  for (std::size_t i = 0; i < kSlots && slots[i].plan; ++i)
    if (slots[i].key.Matches(op, data, o, table)) {
      if (i != 0) std::swap(slots[i], slots[0]);
      return *slots[0].plan;
    }
  Block8PlanDesc d;  // a miss: plan it (a bad description throws here, nothing is cached)
  d.op = op;
  d.data = data;
  if (table) d.table = *table;
  d.kernel = o.kernel;
  d.edge = o.edge;
  d.backend = o.backend;
  d.cpu.threads = o.nthreads;
  auto plan = std::make_unique<Block8Plan>(d);
  for (std::size_t i = kSlots - 1; i > 0; --i) slots[i] = std::move(slots[i - 1]);
  slots[0] =
      Slot{CallKey{op, data, o, table != nullptr, table ? *table : QuantTable{}}, std::move(plan)};
  return *slots[0].plan;
}

constexpr Block8Data kF32 = Block8Data::Float32;
constexpr Block8Data kI16 = Block8Data::Int16;

}  // namespace

void block8_forward(const ConstView<float>& in, const View<float>& out, const Block8Options& o) {
  thread_plan(Block8Op::Forward, kF32, o).execute(in, out);
}
void block8_inverse(const ConstView<float>& in, const View<float>& out, const Block8Options& o) {
  thread_plan(Block8Op::Inverse, kF32, o).execute(in, out);
}
void block8_forward(const ConstView<std::int16_t>& in, const View<std::int16_t>& out,
                    const Block8Options& o) {
  thread_plan(Block8Op::Forward, kI16, o).execute(in, out);
}
void block8_inverse(const ConstView<std::int16_t>& in, const View<std::int16_t>& out,
                    const Block8Options& o) {
  thread_plan(Block8Op::Inverse, kI16, o).execute(in, out);
}

Block8Stats block8_roundtrip_quantized(const ConstView<float>& in, const View<float>& out,
                                       const QuantTable& table, const Block8Options& o) {
  return thread_plan(Block8Op::Roundtrip, kF32, o, &table).execute(in, out);
}
Block8Stats block8_roundtrip_quantized(const ConstView<std::int16_t>& in,
                                       const View<std::int16_t>& out, const QuantTable& table,
                                       const Block8Options& o) {
  return thread_plan(Block8Op::Roundtrip, kI16, o, &table).execute(in, out);
}

Block8Stats block8_forward_quantized(const ConstView<float>& in, const View<std::int16_t>& levels,
                                     const QuantTable& table, const Block8Options& o) {
  return thread_plan(Block8Op::ForwardQuantized, kF32, o, &table).execute(in, levels);
}
Block8Stats block8_forward_quantized(const ConstView<std::int16_t>& in,
                                     const View<std::int16_t>& levels, const QuantTable& table,
                                     const Block8Options& o) {
  return thread_plan(Block8Op::ForwardQuantized, kI16, o, &table).execute(in, levels);
}
void block8_inverse_dequantized(const ConstView<std::int16_t>& levels, const View<float>& out,
                                const QuantTable& table, const Block8Options& o) {
  thread_plan(Block8Op::InverseDequantized, kF32, o, &table).execute(levels, out);
}
void block8_inverse_dequantized(const ConstView<std::int16_t>& levels,
                                const View<std::int16_t>& out, const QuantTable& table,
                                const Block8Options& o) {
  thread_plan(Block8Op::InverseDequantized, kI16, o, &table).execute(levels, out);
}

void block8_quantize(const ConstView<float>& coeffs, const View<std::int16_t>& levels,
                     const QuantTable& table) {
  thread_plan(Block8Op::Quantize, kF32, Block8Options{}, &table).execute(coeffs, levels);
}
void block8_quantize(const ConstView<std::int16_t>& coeffs, const View<std::int16_t>& levels,
                     const QuantTable& table) {
  thread_plan(Block8Op::Quantize, kI16, Block8Options{}, &table).execute(coeffs, levels);
}
void block8_dequantize(const ConstView<std::int16_t>& levels, const View<float>& coeffs,
                       const QuantTable& table) {
  thread_plan(Block8Op::Dequantize, kF32, Block8Options{}, &table).execute(levels, coeffs);
}
void block8_dequantize(const ConstView<std::int16_t>& levels, const View<std::int16_t>& coeffs,
                       const QuantTable& table) {
  thread_plan(Block8Op::Dequantize, kI16, Block8Options{}, &table).execute(levels, coeffs);
}

std::string_view to_string(Block8Kernel k) {
  switch (k) {
    case Block8Kernel::Auto: return "auto";
    case Block8Kernel::Reference: return "reference";
    case Block8Kernel::Fast: return "fast";
    case Block8Kernel::Int16: return "int16";
  }
  return "unknown";
}
std::string_view to_string(QuantTableKind k) {
  switch (k) {
    case QuantTableKind::Nvidia: return "nvidia";
    case QuantTableKind::Jpeg: return "jpeg";
  }
  return "unknown";
}
Block8Kernel parse_block8_kernel(std::string_view s) {
  for (auto k :
       {Block8Kernel::Auto, Block8Kernel::Reference, Block8Kernel::Fast, Block8Kernel::Int16})
    if (s == to_string(k)) return k;
  throw Error("unknown block8 kernel '" + std::string(s) +
              "' (use auto, reference, fast or int16)");
}
Block8Edge parse_block8_edge(std::string_view s) {
  if (s == "error") return Block8Edge::Error;
  if (s == "replicate") return Block8Edge::Replicate;
  throw Error("unknown block8 edge mode '" + std::string(s) + "' (use error or replicate)");
}
QuantTableKind parse_quant_table_kind(std::string_view s) {
  for (auto k : {QuantTableKind::Nvidia, QuantTableKind::Jpeg})
    if (s == to_string(k)) return k;
  throw Error("unknown quantization table '" + std::string(s) + "' (use nvidia or jpeg)");
}

}  // namespace dctx
