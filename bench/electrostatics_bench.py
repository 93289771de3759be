# SPDX-License-Identifier: BSD-3-Clause
"""One electrostatic step of DREAMPlace with dctx.electrostatics against the NumPy/scipy
transcription of the published algorithm (python/tests/dreamplace_reference.py) and against one
dctx 2D DCT-II of the same grid, in one run, one thread each:
    python bench/electrostatics_bench.py [--backend NAME] [--dtypes float32,float64] [N ...]
(default: the CPU, both dtypes, 512 1024 2048). The step is timed returning new arrays and
writing into reused ones (out=); --backend runs it and the one DCT on that back end (opencl:
the whole step on the device, each array copied once).
Prints best-of-repeats milliseconds and the ratios (docs/benchmarks.md, "Electrostatics")."""
import argparse
import os
import sys

import numpy as np

import dctx

sys.path.insert(0, os.path.dirname(__file__))
from best_of import best  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "tests"))
from dreamplace_reference import transcription  # noqa: E402


ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--backend", default=None, help="cpu (default), opencl, ...")
ap.add_argument("--dtypes", default="float32,float64")
ap.add_argument("sizes", nargs="*", type=int)
args = ap.parse_args()
be = args.backend

for n in args.sizes or [512, 1024, 2048]:
    for dtype in [np.dtype(d).type for d in args.dtypes.split(",")]:
        rho = np.random.default_rng(0).uniform(0, 1, (n, n)).astype(dtype)
        reps = 5 if n <= 1024 else 2
        plan = dctx.Plan((n, n), dtype, backend=be)
        out = np.empty_like(rho)
        t_dct = best(lambda: plan(rho, out=out), reps)
        t_full = best(lambda: dctx.electrostatics(rho, backend=be), reps)
        t_fields = best(lambda: dctx.electrostatics(rho, potential=False, backend=be), reps)
        bufs = tuple(np.empty_like(rho) for _ in range(3))  # reused, as a placer's loop would
        t_out = best(lambda: dctx.electrostatics(rho, out=bufs, backend=be), reps)
        t_fields_out = best(lambda: dctx.electrostatics(rho, potential=False, backend=be,
                                                        out=(None,) + bufs[1:]), reps)
        t_np = best(lambda: transcription(rho, 1.0, 1.0), 1 if n >= 2048 else reps)
        print(f"{n}^2 {np.dtype(dtype).name}: step {t_full * 1e3:.1f} ms "
              f"({t_full / t_dct:.2f} x one 2D DCT {t_dct * 1e3:.1f} ms), fields only "
              f"{t_fields * 1e3:.1f} ms ({t_fields / t_dct:.2f} x); with out= step "
              f"{t_out * 1e3:.1f} ms ({t_out / t_dct:.2f} x), fields only {t_fields_out * 1e3:.1f} "
              f"ms ({t_fields_out / t_dct:.2f} x); transcription "
              f"{t_np * 1e3:.1f} ms ({t_np / t_full:.1f} x slower)", flush=True)
