# SPDX-License-Identifier: BSD-3-Clause
"""Times dctx.electrostatics on one back end, as a placer's loop calls it (float32, reused
outputs: out=), minimum and median milliseconds per grid, on one line; run it alternately with
two builds' PYTHONPATHs (copies of build/python) to compare them.

usage: PYTHONPATH=... python3 bench/ab/electrostatic_step.py [BACKEND] [N ...]
(default: opencl, 64 256 512 1024)"""
import sys
import time

import numpy as np

import dctx

backend = sys.argv[1] if len(sys.argv) > 1 else "opencl"
sizes = [int(a) for a in sys.argv[2:]] or [64, 256, 512, 1024]
for n in sizes:
    rho = np.random.default_rng(0).uniform(0, 1, (n, n)).astype(np.float32)
    bufs = tuple(np.empty_like(rho) for _ in range(3))

    def step():
        dctx.electrostatics(rho, out=bufs, backend=backend)

    step()
    reps = 200 if n <= 64 else 20 if n <= 512 else 8
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        step()
        ts.append(time.perf_counter() - t)
    ts.sort()
    print(f"{n}: {ts[0] * 1e3:.2f} / {ts[len(ts) // 2] * 1e3:.2f} ms", end="  ", flush=True)
print()
