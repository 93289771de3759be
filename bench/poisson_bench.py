# SPDX-License-Identifier: BSD-3-Clause
"""A 3D (and 2D) Poisson solve with dctx.PoissonSolver against one dctx.dctn of the same grid and
against the same solve through scipy.fft (dctn, division by the eigenvalues, idctn), in one run:
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


for n in [int(a) for a in sys.argv[1:]] or [128, 256]:
    for shape in [(n, n, n)]:
        f = np.random.default_rng(0).uniform(-1, 1, shape)
        h = 1.0 / n
        k = np.arange(1, n + 1)
        ev = 4 / h**2 * np.sin(np.pi * k / (2 * n)) ** 2
        lam = -(ev[:, None, None] + ev[None, :, None] + ev[None, None, :])
        solver = dctx.PoissonSolver(shape, np.float64, bc="dirichlet", spacing=h)
        out = np.empty_like(f)
        got = solver.solve(f)
        ref = scipy_solve(f, lam)
        err = np.linalg.norm(got - ref) / np.linalg.norm(ref)
        plan = dctx.Plan(shape, np.float64, kind="dst")
        t_solve = best(lambda: solver.solve(f, out=out))
        t_dct = best(lambda: plan(f, out=out))
        t_scipy = best(lambda: scipy_solve(f, lam))
        print(f"{shape}: solve {t_solve * 1e3:.1f} ms, one dstn {t_dct * 1e3:.1f} ms "
              f"(solve/transform {t_solve / t_dct:.2f}), scipy.fft solve {t_scipy * 1e3:.1f} ms "
              f"(scipy/dctx {t_scipy / t_solve:.2f}); rel diff {err:.1e}")
