// SPDX-License-Identifier: BSD-3-Clause
// Block plans (include/dctx/block8.hpp): a description validated once, then every execution's
// views checked (ranks, batches, shapes per operation, strides) and handed to the back end's
// block engine (core/block8_backend.hpp) with the plane geometry and the overlap resolved.
#include <string>
#include <type_traits>
#include <utility>

#include "block8/byte_samples.hpp"
#include "core/backend.hpp"
#include "core/block8_backend.hpp"
#include "core/thread_pool.hpp"
#include "dctx/block8.hpp"

namespace dctx {
namespace {

using detail::Block8Planes;

std::size_t round_up8(std::size_t n) { return (n + 7) & ~std::size_t{7}; }

std::string dims(std::size_t r, std::size_t c) {
  return std::to_string(r) + " x " + std::to_string(c);
}

bool quantizing(Block8Op op) { return op != Block8Op::Forward && op != Block8Op::Inverse; }
bool elementwise(Block8Op op) { return op == Block8Op::Quantize || op == Block8Op::Dequantize; }

/// The public function an operation is (error messages name it, as the caller knows it).
const char* function_name(Block8Op op) {
  switch (op) {
    case Block8Op::Forward: return "block8_forward";
    case Block8Op::Inverse: return "block8_inverse";
    case Block8Op::Roundtrip: return "block8_roundtrip_quantized";
    case Block8Op::ForwardQuantized: return "block8_forward_quantized";
    case Block8Op::InverseDequantized: return "block8_inverse_dequantized";
    case Block8Op::Quantize: return "block8_quantize";
    case Block8Op::Dequantize: return "block8_dequantize";
  }
  return "block8";
}

/// What an operation reads and writes: samples or coefficients of the data type, or int16 levels.
struct Io {
  Block8Data in, out;  // element types
  const char *in_name, *out_name;
};
Io io_of(Block8Op op, Block8Data data) {
  // uint8 data: uint8 samples, float32 coefficients.
  const Block8Data samples = data, coeffs = data == Block8Data::UInt8 ? Block8Data::Float32 : data;
  const Block8Data levels = Block8Data::Int16;
  switch (op) {
    case Block8Op::Forward: return {samples, coeffs, "in", "out"};
    case Block8Op::Inverse: return {coeffs, samples, "in", "out"};
    case Block8Op::Roundtrip: return {samples, samples, "in", "out"};
    case Block8Op::ForwardQuantized: return {samples, levels, "in", "levels"};
    case Block8Op::InverseDequantized: return {levels, samples, "levels", "out"};
    case Block8Op::Quantize: return {coeffs, levels, "in", "out"};
    case Block8Op::Dequantize: return {levels, coeffs, "in", "out"};
  }
  return {data, data, "in", "out"};
}

std::size_t element_bytes(Block8Data t) {
  return t == Block8Data::Int16 ? 2 : t == Block8Data::UInt8 ? 1 : 4;
}
const char* type_name(Block8Data t) {
  return t == Block8Data::Int16 ? "int16" : t == Block8Data::UInt8 ? "uint8" : "float32";
}
template <class T>
constexpr Block8Data element_of() {
  return std::is_same_v<T, std::int16_t>   ? Block8Data::Int16
         : std::is_same_v<T, std::uint8_t> ? Block8Data::UInt8
                                           : Block8Data::Float32;
}

// The refusals of to_planes, out of line: the checks themselves stay small enough to inline.
[[noreturn, gnu::cold, gnu::noinline]] void bad_rank(const char* fn, const char* name,
                                                     std::size_t rank) {
  throw Error(std::string(fn) + ": " + name +
              " must be a 2D plane or a 3D batch of planes, got a view of rank " +
              std::to_string(rank));
}
[[noreturn, gnu::cold, gnu::noinline]] void null_data(const char* fn, const char* name) {
  throw Error(std::string(fn) + ": " + name + " has no data (null pointer)");
}
[[noreturn, gnu::cold, gnu::noinline]] void zero_stride(const char* fn, const char* name,
                                                        std::size_t axis) {
  throw Error(std::string(fn) + ": " + name + " has a zero stride on axis " + std::to_string(axis) +
              " (outputs must not overlap themselves)");
}

template <class T>
inline Block8Planes to_planes(const ArrayView<T>& v, const char* fn, const char* name,
                              bool output) {
  const std::size_t rank = v.rank();
  if (rank != 2 && rank != 3) bad_rank(fn, name, rank);
  const std::size_t* shape = v.shape().data();
  const std::ptrdiff_t* strides = v.strides().data();
  Block8Planes p;
  const std::size_t o = rank - 2;
  p.data = v.data();
  p.count = o ? shape[0] : 1;
  p.plane_stride = o ? strides[0] : 0;
  p.rows = shape[o];
  p.cols = shape[o + 1];
  p.row_stride = strides[o];
  p.col_stride = strides[o + 1];
  const std::size_t size = p.count * p.rows * p.cols;
  if (size != 0 && v.data() == nullptr) null_data(fn, name);
  if (output && size > 1)
    for (std::size_t i = 0; i < rank; ++i)
      if (shape[i] > 1 && strides[i] == 0) zero_stride(fn, name, i);
  return p;
}

void check_multiple8(std::size_t rows, std::size_t cols, const char* fn, const char* what,
                     bool allow_replicate_hint) {
  if (rows % 8 || cols % 8)
    throw Error(std::string(fn) + ": " + what + " of " + dims(rows, cols) +
                " samples: sides must be multiples of 8" +
                (allow_replicate_hint ? " (or ask for Block8Edge::Replicate)" : ""));
}

/// The overlap of two batches of planes from their addresses (the core's one analysis).
inline detail::Overlap overlap_of(const Block8Planes& in, std::size_t in_bytes,
                                  const Block8Planes& out, std::size_t out_bytes) {
  if (in.count == 0 || in.rows == 0 || in.cols == 0 || out.count == 0 || out.rows == 0 ||
      out.cols == 0)
    return detail::Overlap::Disjoint;
  const std::size_t is[3] = {in.count, in.rows, in.cols}, os[3] = {out.count, out.rows, out.cols};
  const std::ptrdiff_t ist[3] = {in.plane_stride, in.row_stride, in.col_stride};
  const std::ptrdiff_t ost[3] = {out.plane_stride, out.row_stride, out.col_stride};
  const auto addr = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  return detail::classify_overlap({addr(in.data), in_bytes, 3, is, ist},
                                  {addr(out.data), out_bytes, 3, os, ost});
}

}  // namespace

Block8PlanDesc normalize(const Block8PlanDesc& in) {
  Block8PlanDesc d = in;
  if (static_cast<int>(d.op) > static_cast<int>(Block8Op::Dequantize))
    throw Error("block8: unknown operation " + std::to_string(int(d.op)));
  const char* fn = function_name(d.op);
  if (d.data != Block8Data::Float32 && d.data != Block8Data::Int16 && d.data != Block8Data::UInt8)
    throw Error(std::string(fn) + ": unknown data type " + std::to_string(int(d.data)));
  if (d.data == Block8Data::UInt8 && elementwise(d.op))
    throw Error(std::string(fn) +
                ": works on coefficients, which are float32 with uint8 samples: use Float32 data");
  if (quantizing(d.op) && !d.table) throw Error(std::string(fn) + ": needs a quantization table");
  if (!quantizing(d.op) && d.table) throw Error(std::string(fn) + ": takes no quantization table");
  if (d.table) d.table->validate();
  if (d.edge != Block8Edge::Error && d.edge != Block8Edge::Replicate)
    throw Error(std::string(fn) + ": unknown edge mode " + std::to_string(int(d.edge)));
  const bool int16 = d.data == Block8Data::Int16;
  if (elementwise(d.op)) {
    d.kernel = Block8Kernel::Auto;  // quantization alone runs no transform
  } else if (d.kernel == Block8Kernel::Auto) {
    d.kernel = int16 ? Block8Kernel::Int16 : Block8Kernel::Fast;
  } else if (d.kernel == Block8Kernel::Int16 && !int16) {
    throw Error(std::string(fn) + ": the Int16 kernel transforms int16 data; " +
                (d.data == Block8Data::UInt8 ? "uint8" : "float") +
                " data takes Reference or Fast");
  } else if (d.kernel != Block8Kernel::Reference && d.kernel != Block8Kernel::Fast &&
             d.kernel != Block8Kernel::Int16) {
    throw Error(std::string(fn) + ": unknown kernel " + std::to_string(int(d.kernel)));
  }
  if (d.cpu.threads < 0)
    throw Error(std::string(fn) + ": nthreads must be >= 0, got " + std::to_string(d.cpu.threads));
  if (d.cpu.threads == 0) d.cpu.threads = detail::hardware_threads();
  d.backend = detail::resolve_backend(d.backend)->kind();
  return d;
}

Block8Plan::Block8Plan(const Block8PlanDesc& desc) : desc_(normalize(desc)) {
  const auto backend = detail::resolve_backend(desc_.backend);
  impl_ = backend->make_block8_plan(detail::Block8Spec{desc_});
  if (!impl_ && desc_.data == Block8Data::UInt8) {
    // No uint8 path on this back end: its float32 plan, between conversions.
    Block8PlanDesc f = desc_;
    f.data = Block8Data::Float32;
    if (auto inner = backend->make_block8_plan(detail::Block8Spec{f}))
      impl_ = detail::make_byte_sample_plan(std::move(inner), desc_.op);
  }
  if (!impl_)
    throw Error(std::string(function_name(desc_.op)) + ": the " +
                    std::string(to_string(desc_.backend)) +
                    " back end of this build has no 8x8 block engine",
                ErrorKind::BackendUnavailable);
}
Block8Plan::Block8Plan(Block8Plan&&) noexcept = default;
Block8Plan& Block8Plan::operator=(Block8Plan&& other) noexcept {
  if (this != &other) {  // a self-move keeps the plan
    desc_ = std::move(other.desc_);
    impl_ = std::move(other.impl_);
  }
  return *this;
}
Block8Plan::~Block8Plan() = default;

std::string Block8Plan::describe() const {
  if (!impl_) throw Error("block plan is empty (moved from)");
  return impl_->describe() + " " + type_name(desc_.data) + " " + std::string(to_string(desc_.op));
}

void Block8Plan::check_types(Block8Data in, Block8Data out) const {
  const Io io = io_of(desc_.op, desc_.data);
  if (in != io.in || out != io.out)
    throw Error(std::string(function_name(desc_.op)) + ": this plan takes " + type_name(io.in) +
                " " + io.in_name + " and " + type_name(io.out) + " " + io.out_name);
}

void Block8Plan::resolve(detail::Block8HostCall& call) const {
  const char* fn = function_name(desc_.op);
  const Io io = io_of(desc_.op, desc_.data);
  auto& in = call.in;
  auto& out = call.out;
  if (in.count != out.count)
    throw Error(std::string(fn) + ": " + io.in_name + " holds " + std::to_string(in.count) +
                " planes but " + io.out_name + " holds " + std::to_string(out.count));
  const bool replicate = desc_.edge == Block8Edge::Replicate;
  switch (desc_.op) {
    case Block8Op::Forward:
    case Block8Op::ForwardQuantized: {
      // Samples in, coefficients (or levels) out: the output has the padded shape of the input.
      if (!replicate) check_multiple8(in.rows, in.cols, fn, "plane", true);
      call.padded_rows = round_up8(in.rows);
      call.padded_cols = round_up8(in.cols);
      if (out.rows != call.padded_rows || out.cols != call.padded_cols)
        throw Error(std::string(fn) + ": " + io.out_name + " is " + dims(out.rows, out.cols) +
                    " but the " + (desc_.op == Block8Op::Forward ? "coefficients" : "levels") +
                    " of a " + dims(in.rows, in.cols) + " plane need " +
                    dims(call.padded_rows, call.padded_cols));
      break;
    }
    case Block8Op::Inverse:
    case Block8Op::InverseDequantized: {
      // Coefficients (or levels) in, samples out: the same size or, with replicated edges,
      // cropped by up to 7 rows and columns.
      const char* what = desc_.op == Block8Op::Inverse ? "coefficient" : "level";
      if (in.rows % 8 || in.cols % 8)
        check_multiple8(in.rows, in.cols, fn, (std::string(what) + " plane").c_str(), false);
      const bool same = out.rows == in.rows && out.cols == in.cols;
      const bool cropped = round_up8(out.rows) == in.rows && round_up8(out.cols) == in.cols;
      if (!same && !(cropped && replicate))
        throw Error(std::string(fn) + ": out is " + dims(out.rows, out.cols) + " but the " + what +
                    "s are " + dims(in.rows, in.cols) +
                    (cropped ? " (a cropped output needs Block8Edge::Replicate)" : ""));
      call.padded_rows = in.rows;
      call.padded_cols = in.cols;
      break;
    }
    case Block8Op::Roundtrip:
      if (out.rows != in.rows || out.cols != in.cols)
        throw Error(std::string(fn) + ": out is " + dims(out.rows, out.cols) + " but in is " +
                    dims(in.rows, in.cols));
      if (!replicate) check_multiple8(in.rows, in.cols, fn, "plane", true);
      call.padded_rows = round_up8(in.rows);
      call.padded_cols = round_up8(in.cols);
      break;
    case Block8Op::Quantize:
    case Block8Op::Dequantize:
      check_multiple8(in.rows, in.cols, fn, "coefficient plane", false);
      if (out.rows != in.rows || out.cols != in.cols)
        throw Error(std::string(fn) + ": out is " + dims(out.rows, out.cols) + " but in is " +
                    dims(in.rows, in.cols));
      call.padded_rows = in.rows;
      call.padded_cols = in.cols;
      break;
  }
}

template <class TI, class TO>
Block8Stats Block8Plan::run(const ConstView<TI>& inv, const View<TO>& outv) const {
  if (!impl_) throw Error("block plan is empty (moved from)");
  const char* fn = function_name(desc_.op);  // no string built unless an error is thrown
  const Io io = io_of(desc_.op, desc_.data);
  check_types(element_of<TI>(), element_of<TO>());
  detail::Block8HostCall call;
  call.in = to_planes(inv, fn, io.in_name, false);
  call.out = to_planes(outv, fn, io.out_name, true);
  if (inv.rank() != outv.rank())
    throw Error(std::string(fn) + ": " + io.in_name + " has rank " + std::to_string(inv.rank()) +
                " but " + io.out_name + " has rank " + std::to_string(outv.rank()));
  resolve(call);
  const auto& in = call.in;
  const auto& out = call.out;
  call.overlap = overlap_of(in, sizeof(TI), out, sizeof(TO));
  Block8Stats stats;
  // The operations that count zero levels.
  if (desc_.op == Block8Op::Roundtrip || desc_.op == Block8Op::ForwardQuantized)
    stats.coefficients = std::uint64_t(in.count) * call.padded_rows * call.padded_cols;
  if (in.count == 0 || call.padded_rows == 0 || call.padded_cols == 0) return stats;
  stats.zeros = impl_->execute(call);
  if (stats.zeros & detail::kNaNCoefficient) {
    // A NaN has no int16 level; the back end wrote 0 there, which must not pass for a result.
    throw Error(std::string(fn) + (desc_.op == Block8Op::Quantize
                                       ? ": the coefficients hold NaN, which has no quantization "
                                         "level"
                                       : ": a coefficient is NaN (the input holds NaN or infinity, "
                                         "or overflows float), which has no quantization level"));
  }
  return stats;
}

void Block8Plan::execute_device(const Block8DevicePlanes& inp, const Block8DevicePlanes& outp,
                                void* queue, void* counts) const {
  if (!impl_) throw Error("block plan is empty (moved from)");
  const char* fn = function_name(desc_.op);
  const Io io = io_of(desc_.op, desc_.data);
  for (const Block8DevicePlanes* p : {&inp, &outp})
    if (p->backend != desc_.backend)
      throw Error(std::string(fn) + ": " + (p == &inp ? io.in_name : io.out_name) + " is " +
                  std::string(to_string(p->backend)) + " memory but the plan runs on " +
                  std::string(to_string(desc_.backend)));
  check_types(inp.element, outp.element);
  const auto planes = [&](const Block8DevicePlanes& p, const char* name, bool output) {
    const Block8Planes b{p.data, p.count,      p.plane_stride, p.rows,
                         p.cols, p.row_stride, p.col_stride};
    if (b.count * b.rows * b.cols != 0 && !b.data) null_data(fn, name);
    const std::size_t shape[3] = {b.count, b.rows, b.cols};
    const std::ptrdiff_t strides[3] = {b.plane_stride, b.row_stride, b.col_stride};
    if (output && b.count * b.rows * b.cols > 1)
      for (std::size_t i = 0; i < 3; ++i)
        if (shape[i] > 1 && strides[i] == 0) zero_stride(fn, name, i);
    return b;
  };
  detail::Block8HostCall call;
  call.in = planes(inp, io.in_name, false);
  call.out = planes(outp, io.out_name, true);
  resolve(call);
  call.overlap =
      overlap_of(call.in, element_bytes(inp.element), call.out, element_bytes(outp.element));
  if (call.overlap == detail::Overlap::Partial)
    throw Error(std::string(fn) + ": " + io.in_name + " and " + io.out_name +
                " overlap without being the same array: pass the same array (in place) or "
                "separate ones");
  if (call.in.count == 0 || call.padded_rows == 0 || call.padded_cols == 0) return;
  impl_->execute_device(call, queue, counts);
}

Block8Stats Block8Plan::execute(const ConstView<float>& in, const View<float>& out) const {
  return run(in, out);
}
Block8Stats Block8Plan::execute(const ConstView<float>& in, const View<std::int16_t>& out) const {
  return run(in, out);
}
Block8Stats Block8Plan::execute(const ConstView<std::int16_t>& in, const View<float>& out) const {
  return run(in, out);
}
Block8Stats Block8Plan::execute(const ConstView<std::int16_t>& in,
                                const View<std::int16_t>& out) const {
  return run(in, out);
}

std::string_view to_string(Block8Op op) {
  switch (op) {
    case Block8Op::Forward: return "forward";
    case Block8Op::Inverse: return "inverse";
    case Block8Op::Roundtrip: return "roundtrip";
    case Block8Op::ForwardQuantized: return "forward_quantized";
    case Block8Op::InverseDequantized: return "inverse_dequantized";
    case Block8Op::Quantize: return "quantize";
    case Block8Op::Dequantize: return "dequantize";
  }
  return "unknown";
}

Block8Stats Block8Plan::execute(const ConstView<std::uint8_t>& in, const View<float>& out) const {
  return run(in, out);
}
Block8Stats Block8Plan::execute(const ConstView<float>& in, const View<std::uint8_t>& out) const {
  return run(in, out);
}
Block8Stats Block8Plan::execute(const ConstView<std::uint8_t>& in,
                                const View<std::uint8_t>& out) const {
  return run(in, out);
}
Block8Stats Block8Plan::execute(const ConstView<std::uint8_t>& in,
                                const View<std::int16_t>& out) const {
  return run(in, out);
}
Block8Stats Block8Plan::execute(const ConstView<std::int16_t>& in,
                                const View<std::uint8_t>& out) const {
  return run(in, out);
}

}  // namespace dctx
