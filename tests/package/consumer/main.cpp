// SPDX-License-Identifier: BSD-3-Clause
// The consumer: a 2D DCT-II through the installed or embedded dctx, checked against its
// definition, and the back ends it reports. Exit status 0 when the result is right.
#include <cmath>
#include <cstdio>
#include <vector>

#include <dctx/backend.hpp>
#include <dctx/dctx.hpp>

int main() {
  const std::size_t n1 = 4, n2 = 6;
  std::vector<double> x(n1 * n2), y(n1 * n2);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.9 * double(i)) + 0.25;
  dctx::dctn<double>(dctx::ConstView<double>(x.data(), {n1, n2}),
                     dctx::View<double>(y.data(), {n1, n2}));
  const double pi = std::acos(-1.0);
  double worst = 0;
  for (std::size_t k1 = 0; k1 < n1; ++k1)
    for (std::size_t k2 = 0; k2 < n2; ++k2) {
      double want = 0;  // scipy's DCT-II, norm "backward": 2 sum x cos(pi k (2n+1) / 2N) per axis
      for (std::size_t j1 = 0; j1 < n1; ++j1)
        for (std::size_t j2 = 0; j2 < n2; ++j2)
          want += 4 * x[j1 * n2 + j2] * std::cos(pi * double(k1 * (2 * j1 + 1)) / double(2 * n1)) *
                  std::cos(pi * double(k2 * (2 * j2 + 1)) / double(2 * n2));
      worst = std::fmax(worst, std::fabs(y[k1 * n2 + k2] - want));
    }
  std::printf("dctx %s, max error %.3g, back end %s\n", dctx::kVersion, worst,
              dctx::backend_info(dctx::BackendKind::Auto).description.c_str());
  return worst < 1e-12 ? 0 : 1;
}
