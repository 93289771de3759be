# SPDX-License-Identifier: BSD-3-Clause
"""dctx.poisson and dctx.PoissonSolver against a sparse direct solve (scipy.sparse) of the same
finite-difference system, built here from its stencil and ghost rules."""

import itertools
import math

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spl

import dctx

SIDES = ["neumann", "dirichlet"]
# Error bound c * eps * log2(N) * cond relative to the direct solve, c defined once.
C_SOLUTION = 1.0
EPS = {np.dtype(np.float32): 1.19e-7, np.dtype(np.float64): 2.2e-16}


def second_difference(n, lower, upper, grid, h):
    """The 1D operator u[j-1] - 2u[j] + u[j+1] over h^2, ghost values folded in."""
    t = sp.diags([np.ones(n - 1), -2 * np.ones(n), np.ones(n - 1)], [-1, 0, 1]).tolil()
    if lower == "periodic":  # the ghost values wrap around
        t[0, n - 1] += 1
        t[n - 1, 0] += 1
    elif grid == "cell":  # mirrored (Neumann) or antisymmetric (Dirichlet) ghost cells
        t[0, 0] += 1 if lower == "neumann" else -1
        t[n - 1, n - 1] += 1 if upper == "neumann" else -1
    else:  # a Neumann boundary node mirrors its neighbour; a Dirichlet node is 0
        if lower == "neumann":
            t[0, 1] += 1
        if upper == "neumann" and n > 1:
            t[n - 1, n - 2] += 1
    return t.tocsr() / (h * h)


def operator(shape, bcs, spacings, grid, screening):
    a = sp.csr_matrix((math.prod(shape), math.prod(shape)))
    for axis, (n, (lo, hi), h) in enumerate(zip(shape, bcs, spacings)):
        left = sp.identity(math.prod(shape[:axis]))
        right = sp.identity(math.prod(shape[axis + 1:]))
        a = a + sp.kron(sp.kron(left, second_difference(n, lo, hi, grid, h)), right)
    return (a - screening * sp.identity(a.shape[0])).tocsc()


CASES = []
rng_cases = np.random.default_rng(3)
for grid, shape in itertools.product(["cell", "vertex"], [(9, 12), (5, 6, 7), (17,)]):
    for k in range(3):
        bcs = [tuple(rng_cases.choice(SIDES, 2)) if rng_cases.uniform() < 0.7
               else ("periodic", "periodic") for _ in shape]
        spacings = [float(rng_cases.choice([0.5, 1.0, 1.5])) for _ in shape]
        screening = 0.0 if k == 0 else 2.0
        if screening == 0 and all(b[0] != "dirichlet" != b[1] for b in bcs):
            bcs[0] = ("dirichlet", "neumann")
        CASES.append((grid, shape, bcs, spacings, screening))


@pytest.mark.parametrize("grid,shape,bcs,spacings,screening", CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_against_sparse_direct_solve(grid, shape, bcs, spacings, screening, dtype):
    rng = np.random.default_rng(sum(shape))
    f = rng.uniform(-1, 1, shape)
    a = operator(shape, bcs, spacings, grid, screening)
    want = spl.spsolve(a, f.ravel()).reshape(shape)
    got = dctx.poisson(f.astype(dtype), bc=bcs, spacing=spacings, grid=grid, screening=screening)
    assert got.dtype == dtype and got.shape == shape
    # The solution's error is at most the rounding of f's coefficients times the condition
    # number of the system (the eigenvalues' spread).
    eig = np.abs(np.linalg.eigvals(a.toarray()))
    bound = C_SOLUTION * EPS[np.dtype(dtype)] * math.log2(f.size + 1) * eig.max() / eig.min()
    assert np.linalg.norm(got - want) <= bound * np.linalg.norm(want)


@pytest.mark.parametrize("grid", ["cell", "vertex"])
def test_pure_neumann_mean(grid):
    shape = (10, 7)
    f = np.random.default_rng(1).uniform(-1, 1, shape)
    with pytest.raises(ValueError, match=r'zero mean.*neumann_mean="project"'):
        dctx.poisson(f, grid=grid)
    u = dctx.poisson(f, grid=grid, neumann_mean="project")
    w = [np.ones(n) if grid == "cell" else np.r_[0.5, np.ones(n - 2), 0.5] for n in shape]
    weights = np.outer(w[0], w[1])
    assert abs((weights * u).sum()) < 1e-12 * np.abs(u).sum()
    a = operator(shape, [("neumann", "neumann")] * 2, [1.0, 1.0], grid, 0.0)
    projected = f - (weights * f).sum() / weights.sum()
    assert np.linalg.norm(a @ u.ravel() - projected.ravel()) < 1e-12 * np.linalg.norm(f)


@pytest.mark.parametrize("grid", ["cell", "vertex"])
@pytest.mark.parametrize("shape", [(8, 9), (7, 4, 6)])
def test_periodic_against_numpy_fft(grid, shape):
    """Every axis periodic: the solution through numpy.fft's complex DFT, divided by minus the
    eigenvalues 4/h^2 sin^2(pi k/n) and the screening; the singular unscreened problem with the
    mean refused or projected out (the zero frequency dropped)."""
    spacings = [0.5, 1.25, 0.75][:len(shape)]
    f = np.random.default_rng(7).uniform(-1, 1, shape)
    ev = np.zeros(shape)
    for axis, (n, h) in enumerate(zip(shape, spacings)):
        ev = ev + (4 / h**2 * np.sin(np.pi * np.arange(n) / n) ** 2).reshape(
            [-1 if a == axis else 1 for a in range(len(shape))])
    want = np.fft.ifftn(np.fft.fftn(f) / -(ev + 0.75)).real
    got = dctx.poisson(f, bc="periodic", spacing=spacings, grid=grid, screening=0.75)
    assert np.linalg.norm(got - want) <= 1e-14 * math.log2(f.size) * np.linalg.norm(want)
    with pytest.raises(ValueError, match=r'zero mean.*neumann_mean="project"'):
        dctx.poisson(f, bc="periodic", spacing=spacings, grid=grid)
    got = dctx.poisson(f, bc="periodic", spacing=spacings, grid=grid, neumann_mean="project")
    ev[(0,) * len(shape)] = np.inf
    want = np.fft.ifftn(np.fft.fftn(f) / -ev).real
    assert np.linalg.norm(got - want) <= 1e-14 * math.log2(f.size) * np.linalg.norm(want)


def test_solver_reuse_out_and_in_place():
    s = dctx.PoissonSolver((16, 8), np.float32, bc="dirichlet", spacing=[0.25, 0.5])
    assert s.shape == (16, 8) and s.dtype == np.float32
    f = np.random.default_rng(2).uniform(-1, 1, (16, 8)).astype(np.float32)
    u = s.solve(f)
    out = np.full_like(f, np.nan)
    assert s.solve(f, out=out) is out and np.array_equal(out, u)
    g = f.copy()
    s.solve(g, out=g)
    assert np.array_equal(g, u)
    wide = np.zeros((16, 16), np.float32)
    wide[:, ::2] = f  # strided input
    assert np.array_equal(s.solve(wide[:, ::2]), u)
    assert "DST-II" in s.describe()


def test_backend_keyword():
    """backend= runs the transforms there: OpenCL (where PoCL or a device is) agrees with the CPU
    to rounding; an unknown back end is refused by name."""
    f = np.random.default_rng(5).uniform(-1, 1, (12, 10, 9))
    f -= f.mean()
    bc = ["periodic", ("dirichlet", "neumann"), "periodic"]
    cpu = dctx.poisson(f, bc=bc, spacing=0.3, backend="cpu")
    if any(b["name"] == "opencl" and b["usable"] for b in dctx.backends()):
        s = dctx.PoissonSolver(f.shape, bc=bc, spacing=0.3, backend="opencl")
        assert "opencl" in s.describe() and "RDFT-II" in s.describe()
        got = s.solve(f)
        assert np.linalg.norm(got - cpu) <= 1e-14 * np.linalg.norm(cpu)
    with pytest.raises(ValueError, match="unknown backend 'tpu'"):
        dctx.poisson(f, backend="tpu")
    with pytest.raises(TypeError, match="dctx.PoissonSolver: backend must be a string"):
        dctx.PoissonSolver(f.shape, backend=1)


@pytest.mark.parametrize("call,error,match", [
    (lambda f: dctx.poisson(f, bc="robin"), ValueError, "bc must be one of"),
    (lambda f: dctx.poisson(f, bc=("periodic", "neumann")), ValueError,
     "axis 0 is periodic on one side only"),
    (lambda f: dctx.poisson(f, bc=["neumann"]), ValueError, "bc has 1 entries but f has 2"),
    (lambda f: dctx.poisson(f, spacing=0), ValueError, "spacing must be finite and > 0"),
    (lambda f: dctx.poisson(f, spacing="1"), TypeError, "spacing must be a positive number"),
    (lambda f: dctx.poisson(f, grid="staggered"), ValueError, "grid must be one of"),
    (lambda f: dctx.poisson(f, screening=-1), ValueError, "dctx.poisson: screening must be"),
    (lambda f: dctx.poisson(f, neumann_mean="drop"), ValueError, "neumann_mean must be"),
    (lambda f: dctx.poisson(f.astype(complex)), TypeError, "f must be real"),
    (lambda f: dctx.PoissonSolver((4, 5)).solve(f), ValueError, "made for \\(4, 5\\)"),
    (lambda f: dctx.PoissonSolver((3, 4), np.float32).solve(f), TypeError, "float32"),
    (lambda f: dctx.PoissonSolver((3, 4), np.int16), TypeError, "dtype must be float32"),
])
def test_errors_name_the_keyword(call, error, match):
    with pytest.raises(error, match=match):
        call(np.ones((3, 4)))
