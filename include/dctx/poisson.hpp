// SPDX-License-Identifier: BSD-3-Clause
// Spectral Poisson solvers on rectangular grids: (nabla^2 - lambda) u = f with the standard
// second-order finite-difference Laplacian, homogeneous Neumann or Dirichlet conditions per axis
// and side or periodic axes, on a cell-centred or a vertex-centred grid. Each combination is
// diagonalised by one DCT or DST type per axis (docs/poisson.md has the table and the
// eigenvalues), so a solve is a forward transform, one division per coefficient and the inverse
// transform, through the plans of any back end.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dctx/plan.hpp"
#include "dctx/types.hpp"
#include "dctx/view.hpp"

namespace dctx {

/// A homogeneous boundary condition on one side of an axis: du/dn = 0 or u = 0; or Periodic,
/// given on both sides of an axis: u(j + n) = u(j), n unknowns per period n h on either grid.
/// A periodic axis is solved through the real DFT in halfcomplex order (Kind::RDFT): its entry k
/// holds the DFT's bin k (k <= n/2) or n - k, which share an eigenvalue (docs/poisson.md).
enum class Boundary : unsigned char { Neumann = 0, Dirichlet = 1, Periodic = 2 };

/// Where the unknowns sit. CellCentred: at (j + 1/2) h, j < n, the boundary on the faces 0 and
/// n h (conditions through mirrored ghost cells). VertexCentred: on the nodes; a Neumann side's
/// boundary node is an unknown (mirror about it), a Dirichlet side's boundary node is not stored
/// (u = 0 there), so n unknowns span (n - 1) h between two Neumann sides and (n + 1) h between
/// two Dirichlet sides.
enum class Grid : unsigned char { CellCentred = 0, VertexCentred = 1 };

/// The pure-Neumann problem (every side Neumann or periodic, lambda = 0) has a solution only when
/// f has zero mean (the grid's own quadrature weights; uniform along a periodic axis). Error:
/// refuse an f whose mean is not zero to rounding. Project: solve with f minus its mean. Either way
/// u has zero mean.
enum class NeumannMean : unsigned char { Error = 0, Project = 1 };

/// One axis of the grid.
struct PoissonAxis {
  Boundary lower = Boundary::Neumann, upper = Boundary::Neumann;
  double spacing = 1.0;  ///< grid step h > 0
  friend bool operator==(const PoissonAxis&, const PoissonAxis&) = default;
};

struct PoissonDesc {
  Shape shape;                    ///< every axis is solved along (rank >= 1)
  std::vector<PoissonAxis> axes;  ///< one per axis of `shape`; empty: Neumann, spacing 1
  Grid grid = Grid::CellCentred;
  double screening = 0;  ///< lambda >= 0 in (nabla^2 - lambda) u = f
  NeumannMean neumann_mean = NeumannMean::Error;
  Precision precision = Precision::F64;
  BackendKind backend = BackendKind::Auto;
  CpuOptions cpu;  ///< threads of the transforms
  friend bool operator==(const PoissonDesc&, const PoissonDesc&) = default;
};

/// The transform that diagonalises the Laplacian on one axis with these conditions and grid (for
/// a periodic axis: RDFT-II, the real DFT in halfcomplex order).
AxisTransform poisson_transform(Boundary lower, Boundary upper, Grid grid);

/// The eigenvalues of the 1D second-difference operator (-d^2/dx^2, non-negative) on an axis of
/// n unknowns, in the order of that transform's coefficients: 4/h^2 sin^2(theta_k / 2), with
/// theta_k = 2 pi k / n on a periodic axis.
std::vector<double> poisson_eigenvalues(const PoissonAxis& axis, std::size_t n, Grid grid);

/// A reusable solver: its forward and inverse plans and per-axis eigenvalues are made once;
/// solve() is const and may run from many threads at once.
class PoissonSolver {
 public:
  explicit PoissonSolver(const PoissonDesc& desc);
  PoissonSolver(PoissonSolver&&) noexcept;
  PoissonSolver& operator=(PoissonSolver&&) noexcept;
  ~PoissonSolver();

  /// u such that (nabla^2 - lambda) u = f on the grid; `u` may be `f` itself (same view). On an
  /// error (dtype, shape, a pure-Neumann f of non-zero mean) u's contents are unspecified.
  void solve(const ConstView<float>& f, const View<float>& u) const;
  void solve(const ConstView<double>& f, const View<double>& u) const;

  /// The normalised description (axes filled in).
  const PoissonDesc& desc() const;
  /// The plans' own description, e.g. "cpu[AVX2, ...] axis 0: DCT-II; ...".
  std::string describe() const;
  /// The back end the plans run on.
  BackendKind backend() const;

 private:
  struct Impl;
  std::unique_ptr<const Impl> impl_;
};

/// One solve with a solver made for f's shape (cached plans underneath).
void poisson(const ConstView<double>& f, const View<double>& u, PoissonDesc desc = {});
void poisson(const ConstView<float>& f, const View<float>& u, PoissonDesc desc = {});

}  // namespace dctx
