// SPDX-License-Identifier: BSD-3-Clause
// Reference 8x8 DCT by definition (Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks
// with CUDA", section 3, "Implementing DCT by definition", the first kernel; the slides "A Simple
// 8x8 Discrete Cosine Transform (DCT) in CUDA"): C = A X A^T and X = A^T C A with A[u][x] = a(u)
// cos((2x+1) u pi / 16), in double.
#include <cmath>

#include "cpu/block8/kernels.hpp"

namespace dctx::block8 {
namespace {

struct Basis {
  double a[8][8];
  Basis() {
    const double pi = std::acos(-1.0);
    for (int u = 0; u < 8; ++u)
      for (int x = 0; x < 8; ++x)
        a[u][x] = (u == 0 ? std::sqrt(0.125) : 0.5) * std::cos((2 * x + 1) * u * pi / 16.0);
  }
};
const Basis& basis() {
  static const Basis b;
  return b;
}

}  // namespace

void reference_forward_block(const double* x, double* c) {
  const auto& a = basis().a;
  double t[8][8];  // t = A X
  for (int u = 0; u < 8; ++u)
    for (int j = 0; j < 8; ++j) {
      double s = 0;
      for (int i = 0; i < 8; ++i) s += a[u][i] * x[8 * i + j];
      t[u][j] = s;
    }
  for (int u = 0; u < 8; ++u)  // C = t A^T
    for (int v = 0; v < 8; ++v) {
      double s = 0;
      for (int j = 0; j < 8; ++j) s += t[u][j] * a[v][j];
      c[8 * u + v] = s;
    }
}

void reference_inverse_block(const double* c, double* x) {
  const auto& a = basis().a;
  double t[8][8];  // t = A^T C
  for (int i = 0; i < 8; ++i)
    for (int v = 0; v < 8; ++v) {
      double s = 0;
      for (int u = 0; u < 8; ++u) s += a[u][i] * c[8 * u + v];
      t[i][v] = s;
    }
  for (int i = 0; i < 8; ++i)  // X = t A
    for (int j = 0; j < 8; ++j) {
      double s = 0;
      for (int v = 0; v < 8; ++v) s += t[i][v] * a[v][j];
      x[8 * i + j] = s;
    }
}

}  // namespace dctx::block8
