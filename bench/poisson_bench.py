# SPDX-License-Identifier: BSD-3-Clause
"""A 3D Poisson solve with dctx.PoissonSolver against one dctx 3D transform of the same grid and
against the same solve through scipy.fft, in one run: Dirichlet (dstn, division by the
eigenvalues, idstn) and periodic (rfftn, division, irfftn; dctx reorders each axis around a
DCT-II, docs/poisson.md):
    python bench/poisson_bench.py [N ...]      (default 128 256; cubes of N^3, float64)
Prints best-of-repeats seconds and the ratios (docs/benchmarks.md, "Poisson")."""
import os
import sys

import numpy as np
import scipy.fft as sf

import dctx

sys.path.insert(0, os.path.dirname(__file__))
from best_of import best  # noqa: E402


def scipy_solve(f, lam):
    """Dirichlet cell-centred solve through scipy.fft: DST-II, divide, inverse."""
    c = sf.dstn(f, type=2)
    c /= lam
    return sf.idstn(c, type=2)


def scipy_periodic(f, lam):
    """Periodic solve through scipy.fft's real FFT (zero mode dropped)."""
    c = sf.rfftn(f)
    c /= lam
    return sf.irfftn(c, f.shape)


def row(n, bc):
    """One line of figures: a Dirichlet (against a DST-II) or a periodic (against a DCT-II)
    solve of an N^3 float64 grid."""
    shape = (n, n, n)
    f = np.random.default_rng(0).uniform(-1, 1, shape)
    h = 1.0 / n
    if bc == "dirichlet":
        ev = 4 / h**2 * np.sin(np.pi * np.arange(1, n + 1) / (2 * n)) ** 2
        lam = -(ev[:, None, None] + ev[None, :, None] + ev[None, None, :])
        reference, kind = scipy_solve, "dst"
    else:
        f -= f.mean()
        ev = 4 / h**2 * np.sin(np.pi * np.arange(n) / n) ** 2
        lam = -(ev[:, None, None] + ev[None, :, None] + ev[None, None, : n // 2 + 1])
        lam[0, 0, 0] = np.inf
        reference, kind = scipy_periodic, "dct"
    solver = dctx.PoissonSolver(shape, np.float64, bc=bc, spacing=h)
    out = np.empty_like(f)
    ref = reference(f, lam)
    err = np.linalg.norm(solver.solve(f) - ref) / np.linalg.norm(ref)
    plan = dctx.Plan(shape, np.float64, kind=kind)
    t_solve = best(lambda: solver.solve(f, out=out))
    t_dct = best(lambda: plan(f, out=out))
    t_scipy = best(lambda: reference(f, lam))
    print(f"{shape} {bc}: solve {t_solve * 1e3:.1f} ms, one {kind}n {t_dct * 1e3:.1f} ms "
          f"(solve/transform {t_solve / t_dct:.2f}), scipy.fft solve {t_scipy * 1e3:.1f} ms "
          f"(scipy/dctx {t_scipy / t_solve:.2f}); rel diff {err:.1e}", flush=True)


for n in [int(a) for a in sys.argv[1:]] or [128, 256]:
    row(n, "dirichlet")
    row(n, "periodic")
