#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Complete-call timings from Python: dctx.dctn / dctx.idctn (type 2, norm="ortho", one thread)
against scipy.fft (pocketfft), ducc0.fft, pyFFTW (planned FFTW object, FFTW_MEASURE, REDFT10 /
REDFT01 with the ortho scaling counted) and OpenCV's cv2.dct / cv2.idct.

Each entry is the best of several repeats of `timeit` (calls as a user makes them: input array in,
new or library-owned output array out). Prints a markdown table: dctx's time and, per competitor,
competitor time / dctx time (> 1 means dctx is faster).

    PYTHONPATH=build/python python3 bench/bench_python.py            # every size
    PYTHONPATH=build/python python3 bench/bench_python.py --max 1024 # skip the largest

Competitors that are not installed are left out (pip install -r requirements-bench.txt).
"""

import argparse
import math
import os
import sys
import timeit

import numpy as np
import scipy.fft

import dctx

SQUARES = [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
EXTRA = [(480, 640), (1080, 1920), (997, 997)]


def best_time(fn, budget):
    """Best time per call (seconds) over repeats of a number of calls sized to ~budget/5 each."""
    fn()  # warm caches and plans
    t0 = timeit.timeit(fn, number=1)
    number = max(1, int(budget / 5 / max(t0, 1e-7)))
    repeats = 5 if t0 * number * 5 <= budget * 2 else 3
    return min(timeit.repeat(fn, number=number, repeat=repeats)) / number


def ortho_scale(n, dtype, inverse):
    """Factors that make FFTW's unnormalised REDFT10 output (forward) or REDFT01 input (inverse)
    scipy's orthonormal DCT-II / DCT-III along one axis of length n."""
    s = np.full(n, math.sqrt(1.0 / (2 * n)), dtype=dtype)
    s[0] = math.sqrt(1.0 / n) if inverse else math.sqrt(1.0 / (4 * n))
    return s


def make_competitors(shape, dtype, inverse):
    """Callables x -> result for the installed competitors; None where not applicable."""
    comp = {}
    f = scipy.fft.idctn if inverse else scipy.fft.dctn
    comp["scipy"] = lambda x: f(x, type=2, norm="ortho", workers=1)

    try:
        import ducc0
        t = 3 if inverse else 2
        comp["ducc0"] = lambda x: ducc0.fft.dct(x, type=t, inorm=1, nthreads=1)
    except ImportError:
        pass

    try:
        import pyfftw
        kind = "FFTW_REDFT01" if inverse else "FFTW_REDFT10"
        a = pyfftw.empty_aligned(shape, dtype=dtype)
        b = pyfftw.empty_aligned(shape, dtype=dtype)
        plan = pyfftw.FFTW(a, b, axes=(0, 1), direction=(kind, kind), flags=("FFTW_MEASURE",),
                           threads=1)
        scale = np.multiply.outer(ortho_scale(shape[0], dtype, inverse),
                                  ortho_scale(shape[1], dtype, inverse))
        if inverse:
            # DCT-III ortho = REDFT01 of the input pre-scaled by the same factors.
            def fftw_inv(x, plan=plan, a=a, scale=scale):
                np.multiply(x, scale, out=a)
                plan.execute()
                return plan.output_array
            comp["pyfftw"] = fftw_inv
        else:
            def fftw_fwd(x, plan=plan, scale=scale):
                y = plan(x)  # copies x into the aligned input, executes
                np.multiply(y, scale, out=y)
                return y
            comp["pyfftw"] = fftw_fwd
    except ImportError:
        pass

    try:
        import cv2
        cv2.setNumThreads(1)
        if shape[0] % 2 == 0 and shape[1] % 2 == 0:  # OpenCV's DCT needs even sizes
            g = cv2.idct if inverse else cv2.dct
            comp["cv2"] = lambda x: g(x)
        else:
            comp["cv2"] = None
    except ImportError:
        pass
    return comp


def check(name, got, want, dtype):
    err = np.linalg.norm((np.asarray(got, np.float64) - want).ravel()) / np.linalg.norm(want)
    tol = 1e-3 if dtype == np.float32 else 1e-9
    if not err < tol:
        sys.exit(f"{name}: relative error {err:.2e} against scipy; benchmark aborted")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=4096, help="largest square side (default 4096)")
    ap.add_argument("--budget", type=float, default=0.3,
                    help="seconds of timing per entry and library (default 0.3)")
    ap.add_argument("--dtypes", default="float32,float64")
    ap.add_argument("--only-square", action="store_true")
    args = ap.parse_args()

    shapes = [(n, n) for n in SQUARES if n <= args.max]
    if not args.only_square:
        shapes += [s for s in EXTRA if max(s) <= max(args.max, 1920)]
    names = ["scipy", "ducc0", "pyfftw", "cv2"]
    print(f"dctx {dctx.__version__}, numpy {np.__version__}, workers=1, "
          f"type 2, norm='ortho', best of repeats; CPUs: {os.cpu_count()}\n")
    for inverse in (False, True):
        fn_name = "idctn" if inverse else "dctn"
        ours = dctx.idctn if inverse else dctx.dctn
        header = (f"| {fn_name} | dtype | dctx | " +
                  " | ".join(f"{n} (x)" for n in names) + " |")
        print(header)
        print("|" + "---|" * (3 + len(names)))
        for dtype_name in args.dtypes.split(","):
            dtype = np.dtype(dtype_name)
            for shape in shapes:
                rng = np.random.default_rng(1)
                x = rng.standard_normal(shape).astype(dtype)
                ref = scipy.fft.idctn if inverse else scipy.fft.dctn
                want = ref(x.astype(np.float64), norm="ortho")
                check("dctx", ours(x, norm="ortho"), want, dtype)
                t_ours = best_time(lambda: ours(x, type=2, norm="ortho", workers=1), args.budget)
                cells = []
                comp = make_competitors(shape, dtype, inverse)
                for n in names:
                    fn = comp.get(n)
                    if fn is None:
                        cells.append("n/a")
                        continue
                    check(n, fn(x), want, dtype)
                    t = best_time(lambda: fn(x), args.budget)
                    cells.append(f"{t / t_ours:.2f}")
                label = f"{shape[0]}x{shape[1]}"
                print(f"| {label} | {dtype.name} | {fmt(t_ours)} | " + " | ".join(cells) + " |",
                      flush=True)
        print()


def fmt(t):
    if t < 1e-3:
        return f"{t * 1e6:.2f} µs"
    if t < 1:
        return f"{t * 1e3:.2f} ms"
    return f"{t:.2f} s"


if __name__ == "__main__":
    main()
