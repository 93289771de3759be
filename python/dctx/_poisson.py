# SPDX-License-Identifier: BSD-3-Clause
"""Spectral Poisson solvers: (nabla^2 - screening) u = f on rectangular grids."""

import numbers

import numpy as np

from . import _dctx
from ._convert import _real_array

_SIDES = {"neumann": 0, "dirichlet": 1, "periodic": 2}
_GRIDS = {"cell": 0, "vertex": 1}
_MEANS = {"error": 0, "project": 1}


def _pick(value, name, choices, fn):
    if not isinstance(value, str) or value.lower() not in choices:
        raise ValueError(f"{fn}: {name} must be one of {', '.join(map(repr, choices))}, "
                         f"not {value!r}")
    return choices[value.lower()]


def _per_axis(value, ndim, name, fn):
    """A value for every axis, or a sequence of one per axis."""
    if isinstance(value, (str, numbers.Real)) or (isinstance(value, tuple) and len(value) == 2
                                                  and all(isinstance(v, str) for v in value)):
        return [value] * ndim
    try:
        values = list(value)
    except TypeError:
        raise TypeError(f"{fn}: {name} must be a value or a sequence of one per axis, "
                        f"not {type(value).__name__}") from None
    if len(values) != ndim:
        raise ValueError(f"{fn}: {name} has {len(values)} entries but f has {ndim} axes")
    return values


def _sides(bc, ndim, fn):
    lower, upper = [], []
    for b in _per_axis(bc, ndim, "bc", fn):
        lo, hi = (b, b) if isinstance(b, str) else tuple(b) if len(b) == 2 else (None, None)
        lower.append(_pick(lo, "bc", _SIDES, fn))
        upper.append(_pick(hi, "bc", _SIDES, fn))
    return lower, upper


def _spacings(spacing, ndim, fn):
    out = []
    for h in _per_axis(spacing, ndim, "spacing", fn):
        if isinstance(h, bool) or not isinstance(h, numbers.Real):
            raise TypeError(f"{fn}: spacing must be a positive number or one per axis, "
                            f"not {type(h).__name__}")
        if not (float(h) > 0 and np.isfinite(float(h))):
            raise ValueError(f"{fn}: spacing must be finite and > 0, not {h!r}")
        out.append(float(h))
    return out


def _solver(shape, dtype, bc, spacing, grid, screening, neumann_mean, workers, backend, fn):
    """The compiled solver for the keywords of `fn` (dctx.PoissonSolver or dctx.poisson)."""
    dt = np.dtype(dtype)
    if dt not in (np.float32, np.float64):
        raise TypeError(f"{fn}: dtype must be float32 or float64, not {dt}")
    lower, upper = _sides(bc, len(shape), fn)
    if isinstance(screening, bool) or not isinstance(screening, numbers.Real):
        raise TypeError(f"{fn}: screening must be a number, not {type(screening).__name__}")
    return _dctx._PoissonSolver(list(shape), 0 if dt == np.float32 else 1, lower, upper,
                                _spacings(spacing, len(shape), fn),
                                _pick(grid, "grid", _GRIDS, fn), float(screening),
                                _pick(neumann_mean, "neumann_mean", _MEANS, fn), workers, backend,
                                fn)


class PoissonSolver:
    """A reusable solver of (nabla^2 - screening) u = f on a fixed grid.

    The Laplacian is the standard second-order finite-difference one; each axis has a
    homogeneous Neumann (du/dn = 0) or Dirichlet (u = 0) condition on each side, or is
    periodic, on a cell-centred or a vertex-centred grid, and one DCT or DST type diagonalises
    it (a periodic axis: the real DFT in halfcomplex order, ``kind="rdft"``; docs/poisson.md).
    A solve is one forward transform, one division per coefficient and one inverse transform;
    the plans and eigenvalues are made once.

    Parameters
    ----------
    shape : sequence of ints
        The grid (any number of axes).
    dtype : float32 or float64, optional
        Default float64.
    bc : str, pair of str, or a sequence of one per axis
        "neumann" (default), "dirichlet" or "periodic" for both sides of every axis, a pair
        ``(lower, upper)``, or one such entry per axis. "periodic" is on both sides of an
        axis or neither; a periodic axis of n points has period n * spacing on either grid.
    spacing : float or sequence of floats
        Grid step per axis (default 1).
    grid : {"cell", "vertex"}
        Unknowns at cell centres (default) or on the nodes. On the vertex grid a Neumann
        side's boundary node is an unknown and a Dirichlet side's is not stored.
    screening : float
        lambda >= 0 of (nabla^2 - lambda) u = f (default 0).
    neumann_mean : {"error", "project"}
        The pure-Neumann problem (every side Neumann or periodic, no screening) needs f of
        zero mean:
        "error" (default) refuses another f, "project" removes its mean. u then has zero mean.
    workers : int, optional
        Threads of the transforms.
    backend : {"cpu", "auto", "cuda", "opencl"}, optional
        Where the transforms run (default: the CPU); f and u stay NumPy arrays, copied to the
        device and back by each transform on a device back end.
    """

    __slots__ = ("_s", "_shape", "_dtype")

    def __init__(self, shape, dtype=np.float64, *, bc="neumann", spacing=1.0, grid="cell",
                 screening=0.0, neumann_mean="error", workers=None, backend=None):
        shape = tuple(int(s) for s in np.atleast_1d(np.asarray(shape, dtype=np.int64)))
        self._s = _solver(shape, dtype, bc, spacing, grid, screening, neumann_mean, workers,
                          backend, "dctx.PoissonSolver")
        self._shape, self._dtype = shape, np.dtype(dtype)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    def solve(self, f, out=None):
        """u with (nabla^2 - screening) u = f; `out` (may be `f`) receives it if given."""
        return self._s.solve(f, out, "dctx.PoissonSolver.solve")

    def describe(self):
        return self._s.describe()


def poisson(f, *, bc="neumann", spacing=1.0, grid="cell", screening=0.0, neumann_mean="error",
            workers=None, backend=None):
    """Solve (nabla^2 - screening) u = f on f's grid; see :class:`PoissonSolver`.

    float32 input stays float32; anything else is computed in float64.

    Examples
    --------
    >>> import numpy as np, dctx
    >>> n = 64; h = 1.0 / n; x = (np.arange(n) + 0.5) * h
    >>> u = np.sin(np.pi * x)[:, None] * np.sin(np.pi * x)
    >>> got = dctx.poisson(-2 * np.pi**2 * u, bc="dirichlet", spacing=h)
    >>> bool(np.abs(got - u).max() < 1e-3)
    True
    """
    a = _real_array(f, "dctx.poisson", "f")
    if a.ndim == 0:
        raise ValueError("dctx.poisson: f must have at least one axis")
    return _solver(a.shape, a.dtype, bc, spacing, grid, screening, neumann_mean, workers,
                   backend, "dctx.poisson").solve(a, None, "dctx.poisson")
