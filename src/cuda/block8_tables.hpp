// SPDX-License-Identifier: BSD-3-Clause
// Plan-time side of the CUDA 8x8 block engine (block8_math.hpp): the per-coefficient tables of a
// block description, made as the CPU engine makes them (the AAN scales of src/block8/constants.hpp,
// the reciprocals of Q rounded to float, Granlund and Montgomery's magic numbers, the DCT matrix
// of the Reference kernel, the LL&M constants). Host code only.
#pragma once

#include <cmath>

#include "cuda/block8_math.hpp"
#include "dctx/block8.hpp"

namespace dctx::cuda_math::b8 {

inline Tables make_tables(const Block8PlanDesc& d) {
  Tables t{};
  for (int u = 0; u < 8; ++u)
    for (int v = 0; v < 8; ++v) {
      const int e = 8 * u + v;
      const double s = block8::kAanScale[u] * block8::kAanScale[v];
      t.ftab[e] = static_cast<float>(1.0 / (8.0 * s));
      t.ftab[64 + e] = static_cast<float>(s / 8.0);
      const std::int32_t q = d.table ? d.table->q[static_cast<std::size_t>(e)] : 1;
      t.ftab[128 + e] = 1.0f / static_cast<float>(q);
      t.ftab[192 + e] = static_cast<float>(q);
      int l = 0;
      while ((std::int64_t{1} << l) < q) ++l;
      const int sh = 15 + l;
      t.itab[e] = q;
      t.itab[64 + e] = q / 2;
      t.itab[128 + e] = static_cast<std::int32_t>(((std::int64_t{1} << sh) + q - 1) / q);
      t.itab[192 + e] = sh;
    }
  // A[u][x] = a(u) cos((2x + 1) u pi / 16), computed as the CPU's reference kernel.
  const double pi = std::acos(-1.0);
  for (int u = 0; u < 8; ++u)
    for (int x = 0; x < 8; ++x)
      t.basis[8 * u + x] =
          (u == 0 ? std::sqrt(0.125) : 0.5) * std::cos((2 * x + 1) * u * pi / 16.0);
  for (int pass = 0; pass < 2; ++pass) {
    const block8::LlmConstants& k = pass == 0 ? block8::kLlm1 : block8::kLlm2;
    const std::int32_t v[12] = {k.k0541, k.k0765, k.k1847, k.k1175, k.k0298, k.k2053,
                                k.k3072, k.k1501, k.k0899, k.k2562, k.k1961, k.k0390};
    for (int i = 0; i < 12; ++i) t.llm[pass][i] = v[i];
  }
  return t;
}

}  // namespace dctx::cuda_math::b8
