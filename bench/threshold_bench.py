# SPDX-License-Identifier: BSD-3-Clause
"""PlanDesc::coefficient_threshold from Python: a plan with threshold= against the plain plan
and against the plain plan with a NumPy thresholding pass (y[abs(y) < t] = 0), orthonormal 2D
DCT-II and its inverse, one thread, best of 15 (5 at 2048²). Prints a Markdown table
(docs/benchmarks.md). Usage: PYTHONPATH=build/python python bench/threshold_bench.py"""
import time, numpy as np, dctx
def best(f, reps):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
    return min(ts)
print("| shape | dtype | direction | plain plan | fused (threshold=0.5) | fused / plain | plain + NumPy pass | that / fused |")
print("|---|---|---|---|---|---|---|---|")
for n in (512, 1024, 2048):
    for dt in (np.float32, np.float64):
        x = np.random.default_rng(n).uniform(-1, 1, (n, n)).astype(dt)
        out = np.empty_like(x)
        for inv in (False, True):
            plain = dctx.Plan((n, n), dt, norm="ortho", inverse=inv)
            fused = dctx.Plan((n, n), dt, norm="ortho", inverse=inv, threshold=0.5)
            reps = 15 if n < 2048 else 5
            if not inv:
                def sep():
                    plain(x, out); out[np.abs(out) < 0.5] = 0
            else:
                tmp = np.empty_like(x)
                def sep():
                    np.copyto(tmp, x); tmp[np.abs(tmp) < 0.5] = 0; plain(tmp, out)
            tf = best(lambda: fused(x, out), reps); ts = best(sep, reps); tp = best(lambda: plain(x, out), reps)
            print(f"| {n}² | {np.dtype(dt).name} | {'inverse' if inv else 'forward'} | {tp*1e3:.2f} ms | {tf*1e3:.2f} ms | {tf/tp:.2f} | {ts*1e3:.2f} ms | {ts/tf:.2f} |")
