# SPDX-License-Identifier: BSD-3-Clause
"""A/B comparison of two builds' Python modules on whole-array and row DCT-II plans.

usage: python3 bench/ab/python_plans.py A_PYTHONPATH B_PYTHONPATH [ROUNDS]
Each PYTHONPATH holds a built dctx package (a copy of build/python from each tree). The two are
timed in separate processes, alternately (A, B, A, B, ...; ROUNDS rounds, default 2) so that a
noisy machine affects both alike; per case the best time of each over its rounds and the ratio
B/A (below 1: B is faster). Cases: float32 and float64 2D DCT-II of squares and 480 x 640, and
1D DCT-II over the rows of 4096 x n and 2048 x n arrays (lengths of radices 2, 3, 5 and 7)."""
import json
import os
import subprocess
import sys

CASES = [((256, 256), None), ((512, 512), None), ((448, 448), None), ((480, 640), None),
         ((4096, 16), 1), ((4096, 32), 1), ((4096, 64), 1), ((4096, 128), 1), ((1024, 256), 1),
         ((2048, 48), 1), ((2048, 80), 1), ((2048, 112), 1)]

CHILD = r"""
import json, sys, time
import numpy as np
import dctx
def best(f, r=15):
    f()
    ts = []
    for _ in range(r):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)
rng = np.random.default_rng(0)
out = {}
for dt in ("float32", "float64"):
    for shape, axis in json.loads(sys.argv[1]):
        x = rng.standard_normal(shape).astype(dt)
        y = np.empty_like(x)
        axes = None if axis is None else (axis,)
        p = dctx.Plan(tuple(shape), dt, kind="dct", type=2, axes=axes)
        out[f"{dt} {shape[0]}x{shape[1]}" + ("" if axis is None else " rows")] = best(lambda: p(x, out=y))
print(json.dumps(out))
"""


def run(path):
    env = dict(os.environ, PYTHONPATH=path)
    r = subprocess.run([sys.executable, "-c", CHILD, json.dumps(CASES)], env=env, check=True,
                       capture_output=True, text=True)
    return json.loads(r.stdout)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    a_path, b_path = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    best_a, best_b = {}, {}
    for _ in range(rounds):
        for path, best in ((a_path, best_a), (b_path, best_b)):
            for k, t in run(path).items():
                best[k] = min(best.get(k, t), t)
    print("| case | A (µs) | B (µs) | B/A |")
    print("|---|---:|---:|---:|")
    for k in best_a:
        print(f"| {k} | {best_a[k] * 1e6:.1f} | {best_b[k] * 1e6:.1f} | {best_b[k] / best_a[k]:.2f} |")


if __name__ == "__main__":
    main()
