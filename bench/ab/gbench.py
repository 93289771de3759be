# SPDX-License-Identifier: BSD-3-Clause
"""A/B comparison of two builds of one benchmark program, from alternating runs.

usage: python3 bench/ab/gbench.py A_RUN1.json [A_RUN2.json ...] -- B_RUN1.json [B_RUN2.json ...]
Each file is one Google Benchmark --benchmark_format=json run of the same program built from
two trees (A: before, B: after), the runs taken alternately (A, B, A, B, ...) so that a noisy
machine affects both alike. For every benchmark present in both it prints the best (lowest) real
time of each build over its runs and the ratio B/A (below 1: B is faster)."""
import json
import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
from ratios import fmt_time as fmt  # noqa: E402  (bench/ratios.py)


def best_times(paths):
    best = {}
    for path in paths:
        for b in json.load(open(path))["benchmarks"]:
            if b.get("run_type") == "aggregate":
                continue
            name = b.get("run_name", b["name"])
            t = b["real_time"] * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            best[name] = min(best.get(name, float("inf")), t)
    return best


def main(argv):
    if "--" not in argv:
        sys.exit(__doc__)
    cut = argv.index("--")
    a, b = best_times(argv[:cut]), best_times(argv[cut + 1:])
    print(f"| benchmark | A (best of {cut}) | B (best of {len(argv) - cut - 1}) | B / A |")
    print("|---|---:|---:|---:|")
    for name in a:
        if name in b:
            print(f"| {name} | {fmt(a[name])} | {fmt(b[name])} | {b[name] / a[name]:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
