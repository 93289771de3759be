// SPDX-License-Identifier: BSD-3-Clause
// Image restoration in the DCT domain: blurring with reflective (Neumann) boundary conditions and
// Tikhonov-regularised deblurring. For a point-spread function symmetric about its centre, the
// blurring matrix with reflective boundaries is diagonalised by the 2D DCT-II (M. K. Ng, R. H.
// Chan and W.-C. Tang, "A fast algorithm for deblurring models with Neumann boundary conditions",
// SIAM J. Sci. Comput. 21(3), 1999), so each operation is one forward and one inverse 2D DCT with
// a division in between; docs/restoration.md.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "dctx/plan.hpp"
#include "dctx/types.hpp"
#include "dctx/view.hpp"

namespace dctx {

/// A point-spread function: rows x cols weights (both odd), row-major, centred on the middle
/// element and symmetric about it along each axis (p(-i, j) = p(i, j) = p(i, -j)).
struct Psf {
  std::size_t rows = 1, cols = 1;
  std::vector<double> weights{1.0};
};

/// A Gaussian of standard deviation `sigma` pixels, truncated at `radius` (0: ceil(3 sigma)) and
/// normalised to sum 1.
Psf gaussian_psf(double sigma, std::size_t radius = 0);

/// The blur of one PSF on images of one shape (2D), with reflective boundaries: its eigenvalues
/// (the DCT-II of the blur of a corner impulse, divided by the DCT-II of that impulse) and plans
/// are made once; blur() and deblur() are const and may run from many threads at once.
class ReflectiveBlur {
 public:
  ReflectiveBlur(const Shape& shape, const Psf& psf, Precision precision = Precision::F64,
                 const CpuOptions& cpu = {});
  ReflectiveBlur(ReflectiveBlur&&) noexcept;
  ReflectiveBlur& operator=(ReflectiveBlur&&) noexcept;
  ~ReflectiveBlur();

  /// out = A in: the PSF applied with reflective boundaries (out may be in).
  void blur(const ConstView<float>& in, const View<float>& out) const;
  void blur(const ConstView<double>& in, const View<double>& out) const;
  /// x = argmin |A x - b|^2 + alpha |x|^2 = (A^T A + alpha I)^-1 A^T b, alpha >= 0 (alpha = 0:
  /// the plain inverse, refused when A is singular). x may be b.
  void deblur(const ConstView<float>& b, const View<float>& x, double alpha) const;
  void deblur(const ConstView<double>& b, const View<double>& x, double alpha) const;

  /// The eigenvalues of A in the order of the 2D DCT-II coefficients (row-major).
  const std::vector<double>& eigenvalues() const;

 private:
  struct Impl;
  std::unique_ptr<const Impl> impl_;
};

/// Parses "gaussian:SIGMA" (optionally "gaussian:SIGMA:RADIUS") as the command line takes it.
Psf parse_psf(const std::string& spec);

}  // namespace dctx
