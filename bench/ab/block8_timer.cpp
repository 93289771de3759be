// SPDX-License-Identifier: BSD-3-Clause
// A/B timer of the 8x8 block functions, built against each of two trees' libdctx.a:
//   block8_timer OP TYPE N ITERS -> best seconds per call on an N x N plane (64-byte aligned
//   buffers, one thread; planes of at most 64 x 64 are timed as loops of 2000 calls), and values
//   that must agree between the builds. OP: fwd inv rt enc dec (pfwd penc: a Block8Plan, with
//   HAVE_PLAN); TYPE: f32 i16.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include "dctx/block8.hpp"
using namespace dctx;
template <class T>
T* alloc(std::size_t n) {
  return static_cast<T*>(std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64));
}
int main(int argc, char** argv) {
  const std::string op = argv[1], ty = argv[2];
  const std::size_t n = std::atoi(argv[3]);
  const int it = std::atoi(argv[4]);
  const Shape s{n, n};
  float* xf = alloc<float>(n * n);
  float* yf = alloc<float>(n * n);
  std::int16_t* xi = alloc<std::int16_t>(n * n);
  std::int16_t* yi = alloc<std::int16_t>(n * n);
  std::int16_t* lv = alloc<std::int16_t>(n * n);
  for (std::size_t i = 0; i < n * n; ++i) {
    xf[i] = float(int((i * 7919) % 255) - 128);
    xi[i] = std::int16_t(xf[i]);
    lv[i] = std::int16_t((i * 31) % 7) - 3;
  }
  const QuantTable t = quant_table_nvidia();
#ifdef HAVE_PLAN
  const Block8Plan pf(Block8PlanDesc{});
  const Block8Plan pe(Block8PlanDesc{.op = Block8Op::ForwardQuantized, .table = t});
#endif
  double best = 1e30;
  long check = 0;
  const int inner = n <= 64 ? 2000 : 1;  // small planes: time loops of calls, not single calls
  for (int k = 0; k < it; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int m = 0; m < inner; ++m) {
      if (ty == "f32") {
        if (op == "fwd") block8_forward(ConstView<float>(xf, s), View<float>(yf, s));
#ifdef HAVE_PLAN
        else if (op == "pfwd")
          pf.execute(ConstView<float>(xf, s), View<float>(yf, s));
        else if (op == "penc")
          check += pe.execute(ConstView<float>(xf, s), View<std::int16_t>(lv, s)).zeros;
#endif
        else if (op == "inv")
          block8_inverse(ConstView<float>(xf, s), View<float>(yf, s));
        else if (op == "rt")
          check += block8_roundtrip_quantized(ConstView<float>(xf, s), View<float>(yf, s), t).zeros;
        else if (op == "enc")
          check +=
              block8_forward_quantized(ConstView<float>(xf, s), View<std::int16_t>(lv, s), t).zeros;
        else
          block8_inverse_dequantized(ConstView<std::int16_t>(lv, s), View<float>(yf, s), t);
      } else {
        if (op == "fwd")
          block8_forward(ConstView<std::int16_t>(xi, s), View<std::int16_t>(yi, s));
        else if (op == "inv")
          block8_inverse(ConstView<std::int16_t>(xi, s), View<std::int16_t>(yi, s));
        else if (op == "rt")
          check += block8_roundtrip_quantized(ConstView<std::int16_t>(xi, s),
                                              View<std::int16_t>(yi, s), t)
                       .zeros;
        else if (op == "enc")
          check +=
              block8_forward_quantized(ConstView<std::int16_t>(xi, s), View<std::int16_t>(lv, s), t)
                  .zeros;
        else
          block8_inverse_dequantized(ConstView<std::int16_t>(lv, s), View<std::int16_t>(yi, s), t);
      }
    }
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / inner);
  }
  std::printf("%.9f %ld %g %d\n", best, check, double(yf[9]), int(yi[9]));
}
