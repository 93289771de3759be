# SPDX-License-Identifier: BSD-3-Clause
"""One electrostatic step of DREAMPlace with dctx.electrostatics against the NumPy/scipy
transcription of the published algorithm (python/tests/dreamplace_reference.py) and against one
dctx 2D DCT-II of the same grid, in one run, one thread each:
    python bench/electrostatics_bench.py [N ...]   (default 512 1024 2048; float32 and float64)
The step is timed returning new arrays and writing into reused ones (out=).
Prints best-of-repeats milliseconds and the ratios (docs/benchmarks.md, "Electrostatics")."""
import os
import sys

import numpy as np

import dctx

sys.path.insert(0, os.path.dirname(__file__))
from best_of import best  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "tests"))
from dreamplace_reference import transcription  # noqa: E402


for n in [int(a) for a in sys.argv[1:]] or [512, 1024, 2048]:
    for dtype in (np.float32, np.float64):
        rho = np.random.default_rng(0).uniform(0, 1, (n, n)).astype(dtype)
        reps = 5 if n <= 1024 else 2
        plan = dctx.Plan((n, n), dtype)
        out = np.empty_like(rho)
        t_dct = best(lambda: plan(rho, out=out), reps)
        t_full = best(lambda: dctx.electrostatics(rho), reps)
        t_fields = best(lambda: dctx.electrostatics(rho, potential=False), reps)
        bufs = tuple(np.empty_like(rho) for _ in range(3))  # reused, as a placer's loop would
        t_out = best(lambda: dctx.electrostatics(rho, out=bufs), reps)
        t_fields_out = best(lambda: dctx.electrostatics(rho, potential=False,
                                                        out=(None,) + bufs[1:]), reps)
        t_np = best(lambda: transcription(rho, 1.0, 1.0), 1 if n >= 2048 else reps)
        print(f"{n}^2 {np.dtype(dtype).name}: step {t_full * 1e3:.1f} ms "
              f"({t_full / t_dct:.2f} x one 2D DCT {t_dct * 1e3:.1f} ms), fields only "
              f"{t_fields * 1e3:.1f} ms ({t_fields / t_dct:.2f} x); with out= step "
              f"{t_out * 1e3:.1f} ms ({t_out / t_dct:.2f} x), fields only {t_fields_out * 1e3:.1f} "
              f"ms ({t_fields_out / t_dct:.2f} x); transcription "
              f"{t_np * 1e3:.1f} ms ({t_np / t_full:.1f} x slower)", flush=True)
