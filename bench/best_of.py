# SPDX-License-Identifier: BSD-3-Clause
"""The timing rule of the Python benchmarks: one warm-up call, then the best of `repeats`."""
import time


def best(fn, repeats=5):
    fn()
    t = []
    for _ in range(repeats):
        s = time.perf_counter()
        fn()
        t.append(time.perf_counter() - s)
    return min(t)
