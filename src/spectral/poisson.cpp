// SPDX-License-Identifier: BSD-3-Clause
// Spectral Poisson solver (dctx/poisson.hpp). Per axis, the second-difference operator with
// mirrored (Neumann) or antisymmetric (Dirichlet) ghost values has the eigenvectors of one DCT or
// DST type; the inverse transform's columns are those eigenvectors, so F = forward transform,
// u = F^-1 (F f / mu) with mu_k = -(sum over axes of 4/h^2 sin^2(theta_k / 2)) - lambda. The
// transforms run unnormalised (scipy's norm="backward", no orthogonalize): only then are the
// inverse's columns the eigenvectors for the non-symmetric operators (vertex-centred Neumann
// sides). Periodic axes take the real DFT in halfcomplex order (Kind::RDFT, FFTW's R2HC and
// HC2R), whose index k holds frequency min(k, n - k): the eigenvalue of bin k. Table and
// derivation: docs/poisson.md.
#include "dctx/poisson.hpp"

#include "core/backend.hpp"
#include "core/thread_pool.hpp"
#include "core/vocabulary.hpp"
#include "spectral/lines.hpp"
#include "spectral/pass_threads.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace dctx {

using spectral::for_lines;
using spectral::lines_of;

namespace {

constexpr long double kPi = 3.141592653589793238462643383279502884L;

// The compatibility check of the pure-Neumann problem: |sum w f| <= c eps log2(N) sum w |f|.
constexpr double kMeanRoundingC = 8;

const char* name(Boundary b) {
  return b == Boundary::Neumann ? "Neumann" : b == Boundary::Dirichlet ? "Dirichlet" : "periodic";
}

// theta_k of the 1D operator on n unknowns (poisson_transform's table).
long double theta(Boundary lower, Boundary upper, Grid grid, std::size_t n, std::size_t k) {
  const long double K = static_cast<long double>(k), N = static_cast<long double>(n);
  if (lower == Boundary::Periodic) return 2 * kPi * K / N;  // the DFT's bins k and n - k
  if (lower != upper) return kPi * (2 * K + 1) / (2 * N);   // a quarter wave, either grid
  if (lower == Boundary::Neumann)
    return grid == Grid::CellCentred ? kPi * K / N : kPi * K / (N - 1);
  return grid == Grid::CellCentred ? kPi * (K + 1) / N : kPi * (K + 1) / (N + 1);
}

// Singular like the pure-Neumann problem: constants are in the kernel.
bool pure_neumann(const PoissonDesc& d) {
  if (d.screening != 0) return false;
  for (const PoissonAxis& a : d.axes)
    if (a.lower == Boundary::Dirichlet || a.upper == Boundary::Dirichlet) return false;
  return true;
}

PoissonDesc normalized(PoissonDesc d) {
  if (d.shape.empty()) throw Error("poisson: shape has no axes");
  if (d.axes.empty()) d.axes.assign(d.shape.size(), PoissonAxis{});
  if (d.axes.size() != d.shape.size())
    throw Error("poisson: PoissonDesc::axes has " + std::to_string(d.axes.size()) +
                " entries but the shape has " + std::to_string(d.shape.size()) + " axes");
  if (d.grid != Grid::CellCentred && d.grid != Grid::VertexCentred)
    throw Error("poisson: unknown grid " + std::to_string(int(d.grid)));
  if (d.neumann_mean != NeumannMean::Error && d.neumann_mean != NeumannMean::Project)
    throw Error("poisson: unknown neumann_mean " + std::to_string(int(d.neumann_mean)));
  if (!(d.screening >= 0) || !std::isfinite(d.screening))
    throw Error("poisson: PoissonDesc::screening must be finite and >= 0, not " +
                detail::number_str(d.screening));
  for (std::size_t i = 0; i < d.axes.size(); ++i) {
    const PoissonAxis& a = d.axes[i];
    const std::string axis = "axis " + std::to_string(i);
    for (Boundary b : {a.lower, a.upper})
      if (b != Boundary::Neumann && b != Boundary::Dirichlet && b != Boundary::Periodic)
        throw Error("poisson: unknown boundary " + std::to_string(int(b)) + " on " + axis);
    if ((a.lower == Boundary::Periodic) != (a.upper == Boundary::Periodic))
      throw Error("poisson: " + axis + " is periodic on one side only (" + name(a.lower) + "/" +
                  name(a.upper) + "); a periodic axis is periodic on both sides");
    if (!(a.spacing > 0) || !std::isfinite(a.spacing))
      throw Error("poisson: the spacing of " + axis + " must be finite and > 0, not " +
                  detail::number_str(a.spacing));
    if (d.shape[i] == 0) throw Error("poisson: " + axis + " has no points");
    if (d.grid == Grid::VertexCentred && a.lower == Boundary::Neumann &&
        a.upper == Boundary::Neumann && d.shape[i] < 2)
      throw Error("poisson: " + axis +
                  " is vertex-centred with Neumann sides, so its two boundary nodes need at "
                  "least 2 points, not 1");
  }
  return d;
}

PlanDesc plan_desc(const PoissonDesc& d, Direction dir) {
  PlanDesc p;
  p.shape = d.shape;
  for (std::size_t i = 0; i < d.axes.size(); ++i) {
    p.axes.push_back(static_cast<int>(i));
    p.transforms.push_back(poisson_transform(d.axes[i].lower, d.axes[i].upper, d.grid));
  }
  p.precision = d.precision;
  p.norm = Norm::Backward;
  p.orthogonalize = false;
  p.direction = dir;
  p.backend = d.backend;
  p.cpu = d.cpu;
  return p;
}

}  // namespace

AxisTransform poisson_transform(Boundary lower, Boundary upper, Grid grid) {
  if ((lower == Boundary::Periodic) != (upper == Boundary::Periodic))
    throw Error("poisson_transform: a periodic axis is periodic on both sides");
  if (lower == Boundary::Periodic) return {Kind::RDFT, 2};  // halfcomplex order
  const bool cell = grid == Grid::CellCentred;
  if (lower == Boundary::Neumann && upper == Boundary::Neumann) return {Kind::DCT, cell ? 2 : 1};
  if (lower == Boundary::Dirichlet && upper == Boundary::Dirichlet)
    return {Kind::DST, cell ? 2 : 1};
  if (lower == Boundary::Dirichlet) return {Kind::DST, cell ? 4 : 3};
  return {Kind::DCT, cell ? 4 : 3};
}

std::vector<double> poisson_eigenvalues(const PoissonAxis& axis, std::size_t n, Grid grid) {
  std::vector<double> ev(n);
  const long double h2 = static_cast<long double>(axis.spacing) * axis.spacing;
  for (std::size_t k = 0; k < n; ++k) {
    const long double s = std::sin(theta(axis.lower, axis.upper, grid, n, k) / 2);
    ev[k] = static_cast<double>(4 * s * s / h2);
  }
  return ev;
}

struct PoissonSolver::Impl {
  PoissonDesc desc;
  std::shared_ptr<const Plan> forward, inverse;
  std::vector<std::vector<double>> eigen;  // per axis
  bool pure_neumann = false;

  int threads() const {
    std::size_t n = 1;
    for (std::size_t e : desc.shape) n *= e;
    return spectral::pass_threads(n, desc.cpu.threads);
  }

  template <class T>
  void solve(const ConstView<T>& f, const View<T>& u) const {
    constexpr Precision kPrecision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
    if (kPrecision != desc.precision)
      throw Error(std::string("poisson: f is ") +
                  (kPrecision == Precision::F32 ? "float32" : "float64") +
                  " but the solver was made for " +
                  (desc.precision == Precision::F32 ? "float32" : "float64"));
    check_view_shape(f.shape(), "f");
    check_view_shape(u.shape(), "u");
    if (pure_neumann && desc.neumann_mean == NeumannMean::Error) check_mean(f);
    forward->execute(f, u);
    divide(u);
    inverse->execute(u);
  }

  void check_view_shape(const Shape& s, const char* what) const {
    if (s != desc.shape)
      throw Error(std::string("poisson: ") + what + " has shape " + detail::shape_str(s) +
                  " but the solver was made for " + detail::shape_str(desc.shape));
  }

  // The weights of the zero mode's row of the forward transform on one axis: 2 everywhere
  // (DCT-II, also of a periodic axis), or 1 at the two boundary nodes and 2 inside (DCT-I: the
  // trapezoidal rule).
  double weight(std::size_t axis, std::size_t j) const {
    const std::size_t n = desc.shape[axis];
    const bool trapezoid =
        desc.grid == Grid::VertexCentred && desc.axes[axis].lower != Boundary::Periodic;
    return trapezoid && (j == 0 || j + 1 == n) ? 1.0 : 2.0;
  }

  // The sums of one line of the last axis, the weights of weight(): 2 sum v minus the two
  // boundary nodes of a trapezoid. Eight double accumulators (the compiler vectorises them): a
  // line's rounding is about sqrt(n / 8) eps_double sum |v|, far below the check's tolerance.
  template <class T>
  void line_sums(const T* v, std::ptrdiff_t s, std::size_t n, double& sum, double& abs_sum) const {
    double acc[8] = {}, abs_acc[8] = {};
    std::size_t j = 0;
    if (s == 1)
      for (; j + 8 <= n; j += 8)
        for (std::size_t q = 0; q < 8; ++q) {
          const double x = static_cast<double>(v[j + q]);
          acc[q] += x;
          abs_acc[q] += std::fabs(x);
        }
    for (; j < n; ++j) {
      const double x = static_cast<double>(v[static_cast<std::ptrdiff_t>(j) * s]);
      acc[j % 8] += x;
      abs_acc[j % 8] += std::fabs(x);
    }
    sum = abs_sum = 0;
    for (std::size_t q = 0; q < 8; ++q) {
      sum += acc[q];
      abs_sum += abs_acc[q];
    }
    sum *= 2;
    abs_sum *= 2;
    const std::size_t last = desc.shape.size() - 1;
    if (n > 0 && weight(last, 0) == 1.0) {  // the trapezoid's ends (one node if n == 1)
      const double a = static_cast<double>(v[0]);
      const double b = n > 1 ? static_cast<double>(v[static_cast<std::ptrdiff_t>(n - 1) * s]) : 0;
      sum -= a + b;
      abs_sum -= std::fabs(a) + std::fabs(b);
    }
  }

  // |sum w f| <= c eps log2(N) sum w |f|: lines in double (line_sums), lines accumulated in long
  // double over a fixed set of chunks split across the threads, so the verdict does not depend
  // on the thread count.
  template <class T>
  void check_mean(const ConstView<T>& f) const {
    const std::size_t r = desc.shape.size(), last = r - 1, n = desc.shape[last];
    const std::size_t lines = lines_of(f.shape());
    const std::size_t chunks = std::min<std::size_t>(lines, 64);
    std::vector<long double> sums(chunks, 0), abs_sums(chunks, 0), weights(chunks, 0);
    const long double line_weight = 2.0L * static_cast<long double>(n) -
                                    (weight(last, 0) == 1.0 ? (n > 1 ? 2.0L : 1.0L) : 0.0L);
    detail::parallel_for(threads(), chunks, [&](std::size_t c0, std::size_t c1) {
      for (std::size_t c = c0; c < c1; ++c) {
        const std::size_t l0 = lines * c / chunks, l1 = lines * (c + 1) / chunks;
        for_lines(f.shape(), f.strides(), l0, l1,
                  [&](std::ptrdiff_t off, const std::vector<std::size_t>& idx) {
                    long double w_outer = 1;
                    for (std::size_t a = 0; a < last; ++a) w_outer *= weight(a, idx[a]);
                    double s = 0, as = 0;
                    line_sums(f.data() + off, f.strides()[last], n, s, as);
                    sums[c] += w_outer * s;
                    abs_sums[c] += w_outer * as;
                    weights[c] += w_outer * line_weight;
                  });
      }
    });
    long double sum = 0, abs_sum = 0, weight_sum = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
      sum += sums[c];
      abs_sum += abs_sums[c];
      weight_sum += weights[c];
    }
    std::size_t total = 1;
    for (std::size_t e : desc.shape) total *= e;
    const long double tol = kMeanRoundingC * std::numeric_limits<T>::epsilon() *
                            std::log2(static_cast<long double>(total) + 1) * abs_sum;
    if (!(std::fabs(sum) <= tol))
      throw Error(
          "poisson: every side is Neumann or periodic and the screening is 0, so f must have "
          "zero mean, but its mean is " +
          detail::number_str(static_cast<double>(sum / weight_sum)) +
          " (pass NeumannMean::Project to solve with the mean removed)");
  }

  // u_hat /= -(sum_a lambda_a(k_a) + screening), lines of the last axis split across the
  // threads; the pure-Neumann zero mode (a zero denominator) gets 0.
  template <class T>
  void divide(const View<T>& u) const {
    const std::size_t last = desc.shape.size() - 1, n = desc.shape[last];
    const std::size_t lines = lines_of(desc.shape);
    const std::vector<double>& ev_last = eigen[last];
    const std::ptrdiff_t s = u.strides()[last];
    detail::parallel_for(threads(), lines, [&](std::size_t l0, std::size_t l1) {
      for_lines(u.shape(), u.strides(), l0, l1,
                [&](std::ptrdiff_t off, const std::vector<std::size_t>& idx) {
                  double outer = desc.screening;
                  for (std::size_t a = 0; a < last; ++a) outer += eigen[a][idx[a]];
                  T* v = u.data() + off;
                  if (s == 1) {  // unit stride: a loop the compiler vectorises
                    for (std::size_t k = 0; k < n; ++k)
                      v[k] = static_cast<T>(static_cast<double>(v[k]) / -(outer + ev_last[k]));
                    return;
                  }
                  for (std::size_t k = 0; k < n; ++k) {
                    T& x = v[static_cast<std::ptrdiff_t>(k) * s];
                    x = static_cast<T>(static_cast<double>(x) / -(outer + ev_last[k]));
                  }
                });
    });
    if (pure_neumann) u.data()[0] = T(0);  // the zero mode: 0 / 0 above
  }
};

PoissonSolver::PoissonSolver(const PoissonDesc& desc) {
  auto impl = std::make_unique<Impl>();
  impl->desc = normalized(desc);
  impl->forward = cached_plan(plan_desc(impl->desc, Direction::Forward));
  impl->inverse = cached_plan(plan_desc(impl->desc, Direction::Inverse));
  for (std::size_t a = 0; a < impl->desc.shape.size(); ++a)
    impl->eigen.push_back(
        poisson_eigenvalues(impl->desc.axes[a], impl->desc.shape[a], impl->desc.grid));
  impl->pure_neumann = pure_neumann(impl->desc);
  impl_ = std::move(impl);
}
PoissonSolver::PoissonSolver(PoissonSolver&&) noexcept = default;
PoissonSolver& PoissonSolver::operator=(PoissonSolver&&) noexcept = default;
PoissonSolver::~PoissonSolver() = default;

void PoissonSolver::solve(const ConstView<float>& f, const View<float>& u) const {
  if (!impl_) throw Error("poisson: the solver is empty (moved from)");
  impl_->solve(f, u);
}
void PoissonSolver::solve(const ConstView<double>& f, const View<double>& u) const {
  if (!impl_) throw Error("poisson: the solver is empty (moved from)");
  impl_->solve(f, u);
}
const PoissonDesc& PoissonSolver::desc() const {
  if (!impl_) throw Error("poisson: the solver is empty (moved from)");
  return impl_->desc;
}
BackendKind PoissonSolver::backend() const {
  if (!impl_) throw Error("poisson: the solver is empty (moved from)");
  return impl_->forward->backend();
}
std::string PoissonSolver::describe() const {
  if (!impl_) throw Error("poisson: the solver is empty (moved from)");
  std::string r = impl_->forward->describe();
  for (std::size_t a = 0; a < impl_->desc.axes.size(); ++a) {
    const PoissonAxis& ax = impl_->desc.axes[a];
    r += " | axis " + std::to_string(a) + ": " + name(ax.lower) + "/" + name(ax.upper);
  }
  return r;
}

namespace {
template <class T>
void poisson_any(const ConstView<T>& f, const View<T>& u, PoissonDesc desc) {
  desc.shape = f.shape();
  desc.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  PoissonSolver(desc).solve(f, u);
}
}  // namespace

void poisson(const ConstView<double>& f, const View<double>& u, PoissonDesc desc) {
  poisson_any(f, u, std::move(desc));
}
void poisson(const ConstView<float>& f, const View<float>& u, PoissonDesc desc) {
  poisson_any(f, u, std::move(desc));
}

}  // namespace dctx
