// SPDX-License-Identifier: BSD-3-Clause
// Reflective-boundary blur and Tikhonov deblurring through the 2D DCT-II (dctx/restore.hpp), after
// Ng, Chan and Tang, "A fast algorithm for deblurring models with Neumann boundary conditions"
// (SIAM J. Sci. Comput., 1999): with half-sample reflection (the DCT-II's own symmetry) and a
// PSF symmetric about its centre, A = C^-1 diag(lambda) C, and lambda = (C A e) ./ (C e) for the
// corner impulse e, whose DCT-II 4 cos(pi k / 2M) cos(pi l / 2N) never vanishes.
#include "dctx/restore.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "core/vocabulary.hpp"

namespace dctx {

namespace {

constexpr long double kPi = 3.141592653589793238462643383279502884L;

PlanDesc dct2_desc(const Shape& shape, Precision p, const CpuOptions& cpu, Direction dir) {
  PlanDesc d;
  d.shape = shape;
  d.precision = p;
  d.norm = Norm::Backward;
  d.orthogonalize = false;
  d.direction = dir;
  d.cpu = cpu;
  return d;
}

std::string dims(std::size_t r, std::size_t c) {
  return std::to_string(r) + " x " + std::to_string(c);
}

void check_psf(const Psf& p, const Shape& shape) {
  if (p.rows % 2 == 0 || p.cols % 2 == 0)
    throw Error("restore: the PSF is " + dims(p.rows, p.cols) +
                ": both sides must be odd (centred on the middle element)");
  if (p.weights.size() != p.rows * p.cols)
    throw Error("restore: the PSF has " + std::to_string(p.weights.size()) + " weights for " +
                dims(p.rows, p.cols));
  double scale = 0;
  for (double w : p.weights) {
    if (!std::isfinite(w)) throw Error("restore: the PSF has a weight that is not finite");
    scale = std::max(scale, std::fabs(w));
  }
  const std::size_t hr = p.rows / 2, hc = p.cols / 2;
  for (std::size_t i = 0; i < p.rows; ++i)
    for (std::size_t j = 0; j < p.cols; ++j) {
      const double w = p.weights[i * p.cols + j];
      const double mirrored_rows = p.weights[(p.rows - 1 - i) * p.cols + j];
      const double mirrored_cols = p.weights[i * p.cols + (p.cols - 1 - j)];
      if (std::fabs(w - mirrored_rows) > 1e-12 * scale ||
          std::fabs(w - mirrored_cols) > 1e-12 * scale)
        throw Error("restore: the PSF is not symmetric about its centre (weight (" +
                    std::to_string(i) + ", " + std::to_string(j) +
                    ") differs from its mirror image): the DCT diagonalises only symmetric blurs");
    }
  if (shape.size() != 2)
    throw Error("restore: images are 2D, not of rank " + std::to_string(shape.size()));
  if (shape[0] == 0 || shape[1] == 0) throw Error("restore: the image is empty");
  if (hr >= shape[0] || hc >= shape[1])
    throw Error("restore: the PSF (" + dims(p.rows, p.cols) +
                ") reaches past a reflection of the " + dims(shape[0], shape[1]) +
                " image: its half-size must be below the image's");
}

}  // namespace

Psf gaussian_psf(double sigma, std::size_t radius) {
  if (!(sigma > 0) || !std::isfinite(sigma))
    throw Error("gaussian_psf: sigma must be finite and > 0, not " + detail::number_str(sigma));
  if (radius == 0) radius = static_cast<std::size_t>(std::ceil(3 * sigma));
  if (radius > 4096)
    throw Error("gaussian_psf: radius " + std::to_string(radius) + " is too large");
  Psf p;
  p.rows = p.cols = 2 * radius + 1;
  p.weights.assign(p.rows * p.cols, 0.0);
  long double sum = 0;
  for (std::size_t i = 0; i < p.rows; ++i)
    for (std::size_t j = 0; j < p.cols; ++j) {
      const long double di = static_cast<long double>(i) - radius,
                        dj = static_cast<long double>(j) - radius;
      const long double w = std::exp(-(di * di + dj * dj) / (2.0L * sigma * sigma));
      p.weights[i * p.cols + j] = static_cast<double>(w);
      sum += w;
    }
  for (double& w : p.weights) w = static_cast<double>(w / sum);
  return p;
}

Psf parse_psf(const std::string& spec) {
  const std::string prefix = "gaussian:";
  if (spec.compare(0, prefix.size(), prefix) != 0)
    throw Error("invalid PSF '" + spec + "' (expected gaussian:SIGMA or gaussian:SIGMA:RADIUS)");
  const std::string rest = spec.substr(prefix.size());
  const std::size_t colon = rest.find(':');
  try {
    std::size_t used = 0;
    const std::string s = rest.substr(0, colon);
    const double sigma = std::stod(s, &used);
    if (used != s.size()) throw std::invalid_argument(s);
    std::size_t radius = 0;
    if (colon != std::string::npos) {
      const std::string r = rest.substr(colon + 1);
      const unsigned long v = std::stoul(r, &used);
      if (used != r.size() || r[0] == '-') throw std::invalid_argument(r);
      radius = v;
    }
    return gaussian_psf(sigma, radius);
  } catch (const Error&) {
    throw;
  } catch (const std::exception&) {
    throw Error("invalid PSF '" + spec + "' (expected gaussian:SIGMA or gaussian:SIGMA:RADIUS)");
  }
}

struct ReflectiveBlur::Impl {
  Shape shape;
  Precision precision;
  std::shared_ptr<const Plan> forward, inverse;
  std::vector<double> eigen;  // row-major M x N

  // out = C^-1 (factor(lambda) .* C in), factor applied in double.
  template <class T, class Factor>
  void filter(const ConstView<T>& in, const View<T>& out, Factor factor, const char* fn) const {
    constexpr Precision kP = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
    if (kP != precision)
      throw Error(std::string(fn) + ": the image is " +
                  (kP == Precision::F32 ? "float32" : "float64") + " but the blur was made for " +
                  (precision == Precision::F32 ? "float32" : "float64"));
    forward->execute(in, out);  // checks both views against the shape
    const std::size_t m = shape[0], n = shape[1];
    for (std::size_t i = 0; i < m; ++i) {
      T* row = out.data() + static_cast<std::ptrdiff_t>(i) * out.strides()[0];
      for (std::size_t j = 0; j < n; ++j) {
        T& v = row[static_cast<std::ptrdiff_t>(j) * out.strides()[1]];
        v = static_cast<T>(static_cast<double>(v) * factor(eigen[i * n + j]));
      }
    }
    inverse->execute(out);
  }

  template <class T>
  void deblur(const ConstView<T>& b, const View<T>& x, double alpha) const {
    if (!(alpha >= 0) || !std::isfinite(alpha))
      throw Error("deblur: the Tikhonov weight alpha must be finite and >= 0, not " +
                  detail::number_str(alpha));
    if (alpha == 0)
      for (std::size_t k = 0; k < eigen.size(); ++k)
        if (eigen[k] == 0)
          throw Error("deblur: the blur is singular (eigenvalue " + std::to_string(k) +
                      " is 0), so it has no inverse: give a Tikhonov weight alpha > 0");
    filter(
        b, x, [alpha](double l) { return l / (l * l + alpha); }, "deblur");
  }
};

ReflectiveBlur::ReflectiveBlur(const Shape& shape, const Psf& psf, Precision precision,
                               const CpuOptions& cpu) {
  check_psf(psf, shape);
  auto impl = std::make_unique<Impl>();
  impl->shape = shape;
  impl->precision = precision;
  impl->forward = cached_plan(dct2_desc(shape, precision, cpu, Direction::Forward));
  impl->inverse = cached_plan(dct2_desc(shape, precision, cpu, Direction::Inverse));
  // A e for the corner impulse e: with half-sample reflection only the offsets (a, b) with
  // i - a and j - b in {0, -1} reach it, so (A e)(i, j) = sum of p(a, b), a in {i, i+1},
  // b in {j, j+1} (offsets from the PSF's centre; zero outside it).
  const std::size_t m = shape[0], n = shape[1];
  const long hr = static_cast<long>(psf.rows / 2), hc = static_cast<long>(psf.cols / 2);
  const auto p = [&](long a, long b) {
    if (a < -hr || a > hr || b < -hc || b > hc) return 0.0;
    return psf
        .weights[static_cast<std::size_t>(a + hr) * psf.cols + static_cast<std::size_t>(b + hc)];
  };
  std::vector<double> ae(m * n, 0.0), c(m * n);
  for (long i = 0; i <= hr && i < static_cast<long>(m); ++i)
    for (long j = 0; j <= hc && j < static_cast<long>(n); ++j)
      ae[static_cast<std::size_t>(i) * n + static_cast<std::size_t>(j)] =
          p(i, j) + p(i + 1, j) + p(i, j + 1) + p(i + 1, j + 1);
  cached_plan(dct2_desc(shape, Precision::F64, cpu, Direction::Forward))
      ->execute(ConstView<double>(ae.data(), shape), View<double>(c.data(), shape));
  impl->eigen.resize(m * n);
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t l = 0; l < n; ++l) {
      const long double corner =
          4 * std::cos(kPi * k / (2.0L * m)) * std::cos(kPi * l / (2.0L * n));
      impl->eigen[k * n + l] = static_cast<double>(c[k * n + l] / corner);
    }
  impl_ = std::move(impl);
}
ReflectiveBlur::ReflectiveBlur(ReflectiveBlur&&) noexcept = default;
ReflectiveBlur& ReflectiveBlur::operator=(ReflectiveBlur&&) noexcept = default;
ReflectiveBlur::~ReflectiveBlur() = default;

namespace {
const char* kMoved = "restore: the blur is empty (moved from)";
}

void ReflectiveBlur::blur(const ConstView<float>& in, const View<float>& out) const {
  if (!impl_) throw Error(kMoved);
  impl_->filter(
      in, out, [](double l) { return l; }, "blur");
}
void ReflectiveBlur::blur(const ConstView<double>& in, const View<double>& out) const {
  if (!impl_) throw Error(kMoved);
  impl_->filter(
      in, out, [](double l) { return l; }, "blur");
}
void ReflectiveBlur::deblur(const ConstView<float>& b, const View<float>& x, double alpha) const {
  if (!impl_) throw Error(kMoved);
  impl_->deblur(b, x, alpha);
}
void ReflectiveBlur::deblur(const ConstView<double>& b, const View<double>& x, double alpha) const {
  if (!impl_) throw Error(kMoved);
  impl_->deblur(b, x, alpha);
}
const std::vector<double>& ReflectiveBlur::eigenvalues() const {
  if (!impl_) throw Error(kMoved);
  return impl_->eigen;
}

}  // namespace dctx
