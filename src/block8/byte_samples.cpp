// SPDX-License-Identifier: BSD-3-Clause
// uint8 samples through a float32 block plan (byte_samples.hpp): the uint8 side of a call is
// converted to or from dense float32 planes, which the inner plan reads or writes. The input is
// converted before the inner plan runs, so in-place calls and overlaps stay safe.
#include "block8/byte_samples.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "block8/colour.hpp"

namespace dctx::detail {
namespace {

// The rows of a batch of planes, one call per row: f(row pointer, element stride, columns).
template <class T, class F>
void each_row(const Block8Planes& p, F&& f) {
  T* base = static_cast<T*>(const_cast<void*>(p.data));
  for (std::size_t b = 0; b < p.count; ++b)
    for (std::size_t r = 0; r < p.rows; ++r)
      f(base + static_cast<std::ptrdiff_t>(b) * p.plane_stride +
            static_cast<std::ptrdiff_t>(r) * p.row_stride,
        p.col_stride, p.cols);
}

// Dense float planes of the same batch shape as p.
Block8Planes dense(const Block8Planes& p, float* data) {
  return {data,   p.count, static_cast<std::ptrdiff_t>(p.rows * p.cols),
          p.rows, p.cols,  static_cast<std::ptrdiff_t>(p.cols),
          1};
}

class ByteSamplePlan final : public BackendBlock8Plan {
 public:
  ByteSamplePlan(std::unique_ptr<BackendBlock8Plan> inner, Block8Op op)
      : inner_(std::move(inner)),
        bytes_in_(op == Block8Op::Forward || op == Block8Op::Roundtrip ||
                  op == Block8Op::ForwardQuantized),
        bytes_out_(op == Block8Op::Inverse || op == Block8Op::Roundtrip ||
                   op == Block8Op::InverseDequantized) {}

  std::uint64_t execute(const Block8HostCall& call) const override {
    Block8HostCall f = call;
    std::vector<float> in, out;
    if (bytes_in_) {
      in.resize(call.in.count * call.in.rows * call.in.cols);
      float* d = in.data();
      each_row<const std::uint8_t>(
          call.in, [&](const std::uint8_t* row, std::ptrdiff_t cs, std::size_t n) {
            if (cs == 1) {
              block8::u8_to_centered_f32(row, d, n);
            } else {
              for (std::size_t c = 0; c < n; ++c)
                d[c] = static_cast<float>(row[static_cast<std::ptrdiff_t>(c) * cs]) - 128.0f;
            }
            d += n;
          });
      f.in = dense(call.in, in.data());
    }
    if (bytes_out_) {
      out.resize(call.out.count * call.out.rows * call.out.cols);
      f.out = dense(call.out, out.data());
    }
    // The inner call reads a fresh buffer or writes one: no overlap is left.
    if (bytes_in_ || bytes_out_) f.overlap = Overlap::Disjoint;
    const std::uint64_t counts = inner_->execute(f);
    if (bytes_out_) {
      const float* s = out.data();
      each_row<std::uint8_t>(call.out, [&](std::uint8_t* row, std::ptrdiff_t cs, std::size_t n) {
        if (cs == 1) {
          block8::centered_f32_to_u8(s, row, n);
        } else {
          std::uint8_t tmp[256];
          for (std::size_t c0 = 0; c0 < n; c0 += 256) {
            const std::size_t m = n - c0 < 256 ? n - c0 : 256;
            block8::centered_f32_to_u8(s + c0, tmp, m);
            for (std::size_t c = 0; c < m; ++c)
              row[static_cast<std::ptrdiff_t>(c0 + c) * cs] = tmp[c];
          }
        }
        s += n;
      });
    }
    return counts;
  }

  std::string describe() const override {
    return inner_->describe() + " (uint8 samples through float32)";
  }

 private:
  std::unique_ptr<BackendBlock8Plan> inner_;
  bool bytes_in_, bytes_out_;
};

}  // namespace

std::unique_ptr<BackendBlock8Plan> make_byte_sample_plan(
    std::unique_ptr<BackendBlock8Plan> float_plan, Block8Op op) {
  return std::make_unique<ByteSamplePlan>(std::move(float_plan), op);
}

}  // namespace dctx::detail
