# SPDX-License-Identifier: BSD-3-Clause
"""Turn bench_dct's JSON output into the markdown tables of docs/benchmarks.md.

usage: python3 bench/ratios.py out/bench_dct.json
Each row: one transform; columns: dctx time and the ratio competitor_time / dctx_time
(> 1 means dctx is faster), all measured in the same run."""
import json
import sys
from collections import OrderedDict


def fmt_time(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def main(path):
    data = json.load(open(path))
    rows = OrderedDict()
    libs = []
    have_median = any(b.get("aggregate_name") == "median" for b in data["benchmarks"])
    for b in data["benchmarks"]:
        if have_median and b.get("aggregate_name") != "median":
            continue  # with --benchmark_repetitions, use the median of the repetitions
        if not have_median and b.get("run_type") == "aggregate":
            continue
        dim, prec, direction, shape, lib = b["run_name"].split("/") if "run_name" in b else b["name"].split("/")
        key = (dim, prec, direction, shape)
        rows.setdefault(key, {})[lib] = b["real_time"] * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
        if lib not in libs:
            libs.append(lib)
    others = [l for l in libs if l != "dctx"]
    groups = OrderedDict()
    for key, r in rows.items():
        groups.setdefault(key[:3], []).append((key[3], r))
    for (dim, prec, direction), items in groups.items():
        cols = [l for l in others if any(l in r for _, r in items)]
        what = "lines along the last axis of a batch" if dim == "lines" else dim.upper()
        print(f"\n#### {what} {prec} {'forward DCT-II' if direction == 'fwd' else 'inverse (DCT-III)'}, norm=ortho, 1 thread\n")
        print("| shape | dctx | " + " | ".join(f"{c} / dctx" for c in cols) + " |")
        print("|---|---|" + "---|" * len(cols))
        for shape, r in items:
            if "dctx" not in r:
                continue
            cells = [f"{r[c] / r['dctx']:.2f}×" if c in r else "–" for c in cols]
            print(f"| {shape} | {fmt_time(r['dctx'])} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
