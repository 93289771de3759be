# SPDX-License-Identifier: BSD-3-Clause
"""`dctx poisson`: the .npy solution against a dense solve of the finite-difference system built
here from its stencil and ghost values; the flags per axis; clear refusals with a non-zero exit
and no output file."""
import json
import os
import subprocess
import tempfile

import numpy as np

from checks import check, finish

DCTX = os.environ["DCTX"]


def run(*args):
    return subprocess.run([DCTX, *map(str, args)], capture_output=True, text=True)


def laplacian_1d(u, axis, lower, upper, grid, h):
    """u[j-1] - 2u[j] + u[j+1] over h^2 along `axis`, with the ghost values of each side."""
    u = np.moveaxis(u, axis, 0)
    if lower == "periodic":
        lo, hi = u[-1:], u[:1]
    elif grid == "cell":
        lo = u[:1] if lower == "neumann" else -u[:1]
        hi = u[-1:] if upper == "neumann" else -u[-1:]
    else:
        lo = u[1:2] if lower == "neumann" else np.zeros_like(u[:1])
        hi = u[-2:-1] if upper == "neumann" else np.zeros_like(u[:1])
    p = np.concatenate([lo, u, hi])
    return np.moveaxis((p[:-2] - 2 * p[1:-1] + p[2:]) / (h * h), 0, axis)


with tempfile.TemporaryDirectory() as d:
    rng = np.random.default_rng(4)
    src, out = os.path.join(d, "f.npy"), os.path.join(d, "u.npy")
    cases = [
        ((12, 9), "dirichlet", "0.5", "cell", 0.0, np.float64),
        ((12, 9), "dirichlet:neumann,neumann", "0.5,2", "cell", 1.5, np.float32),
        ((6, 7, 5), "neumann:dirichlet", "1", "vertex", 0.0, np.float64),
        ((16,), "dirichlet", "0.25", "vertex", 0.0, np.float64),
        ((10, 7), "periodic,dirichlet:neumann", "1,0.5", "vertex", 0.0, np.float64),
        ((5, 6, 4), "periodic", "0.5", "cell", 2.0, np.float32),
    ]
    for shape, bc, spacing, grid, screening, dtype in cases:
        what = f"poisson {shape} --bc {bc} --grid {grid}"
        f = rng.uniform(-1, 1, shape).astype(dtype)
        np.save(src, f)
        r = run("poisson", src, out, "--bc", bc, "--spacing", spacing, "--grid", grid,
                "--screening", screening, "--json")
        check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr}")
        if r.returncode:
            continue
        rec = json.loads(r.stdout)
        check(rec["command"] == "poisson" and rec["bc"] == bc and rec["grid"] == grid,
              f"{what}: JSON {rec}")
        u = np.load(out)
        check(u.dtype == dtype and u.shape == shape, f"{what}: dtype/shape {u.dtype} {u.shape}")
        bcs = bc.split(",") * (len(shape) if "," not in bc else 1)
        hs = [float(h) for h in spacing.split(",")] * (len(shape) if "," not in spacing else 1)

        def operator(v):
            lap = -screening * v
            for axis in range(len(shape)):
                sides = bcs[axis].split(":") * (2 if ":" not in bcs[axis] else 1)
                lap = lap + laplacian_1d(v, axis, sides[0], sides[1], grid, hs[axis])
            return lap

        # The system as a dense matrix, column by column; its solution and condition number
        # bound the error: c eps log2(N) cond with c = 1, as python/tests/test_poisson.py.
        a = np.stack([operator(e.reshape(shape)).ravel() for e in np.eye(f.size)], axis=1)
        want = np.linalg.solve(a, f.ravel().astype(np.float64))
        eig = np.abs(np.linalg.eigvals(a))
        bound = np.finfo(dtype).eps * np.log2(f.size) * eig.max() / eig.min()
        err = np.linalg.norm(u.ravel() - want) / np.linalg.norm(want)
        check(err <= bound, f"{what}: error {err:.2e} against a dense solve, bound {bound:.2e}")

    # Refusals: non-zero exit, the flag named, no output file.
    np.save(src, rng.uniform(-1, 1, (8, 8)))
    for args, words in [
        ((), "pass --project-mean"),
        (("--bc", "robin"), "invalid --bc 'robin'"),
        (("--bc", "periodic:neumann"), "axis 0 is periodic on one side only"),
        (("--bc", "neumann,neumann,neumann"), "--bc 'neumann,neumann,neumann' has 3 entries"),
        (("--spacing", "x"), "invalid --spacing 'x'"),
        (("--spacing", "0"), "--spacing of axis 0 must be finite and > 0, not 0"),
        (("--spacing", "1,nan"), "--spacing of axis 1 must be finite and > 0, not nan"),
        (("--screening", "-1.5"), "--screening must be finite and >= 0, not -1.5"),
        (("--grid", "staggered"), "invalid --grid 'staggered'"),
    ]:
        if os.path.exists(out):
            os.remove(out)
        r = run("poisson", src, out, *args)
        check(r.returncode != 0 and words in r.stderr and not os.path.exists(out),
              f"poisson {args}: exit {r.returncode}, stderr {r.stderr!r}")
    r = run("poisson", src, out, "--project-mean")
    u = np.load(out) if r.returncode == 0 else None
    check(u is not None and abs(u.mean()) < 1e-12, f"--project-mean: {r.stderr}")
finish()
