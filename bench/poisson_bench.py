# SPDX-License-Identifier: BSD-3-Clause
"""A 3D Poisson solve with dctx.PoissonSolver against one dctx 3D transform of the same grid and
against the same solve through scipy.fft, in one run: Dirichlet (dstn, division by the
eigenvalues, idstn) and periodic (rfftn, division, irfftn; dctx runs the real DFT in halfcomplex
order along each periodic axis, docs/poisson.md), the periodic solve also against one 3D DCT-II:
    python bench/poisson_bench.py [--interleaved] [N ...]   (default 128 256; N^3, float64)
Prints best-of-repeats seconds and the ratios (docs/benchmarks.md, "Poisson"). --interleaved
instead alternates one DCT-II and one periodic solve for 15 rounds (9 from 256^3 up) and prints
the median and quartiles of the per-round ratios, which a noisy machine moves less."""
import os
import statistics
import sys
import time

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


def interleaved(n):
    """Median (and quartiles) of solve / DCT-II over rounds that run one of each in turn."""
    shape = (n, n, n)
    f = np.random.default_rng(0).uniform(-1, 1, shape)
    f -= f.mean()
    out = np.empty_like(f)
    plan = dctx.Plan(shape, np.float64, kind="dct")
    solver = dctx.PoissonSolver(shape, np.float64, bc="periodic", spacing=1.0 / n)
    ratios = []
    for _ in range(15 if n < 256 else 9):
        t0 = time.perf_counter()
        plan(f, out=out)
        t1 = time.perf_counter()
        solver.solve(f, out=out)
        ratios.append((time.perf_counter() - t1) / (t1 - t0))
    ratios.sort()
    q = len(ratios) // 4
    print(f"{shape} periodic, interleaved: solve / one dctn median {statistics.median(ratios):.2f} "
          f"(quartiles {ratios[q]:.2f}-{ratios[-1 - q]:.2f}, {len(ratios)} rounds)", flush=True)


args = sys.argv[1:]
mode = "--interleaved" in args
for n in [int(a) for a in args if a != "--interleaved"] or [128, 256]:
    if mode:
        interleaved(n)
    else:
        row(n, "dirichlet")
        row(n, "periodic")
