# SPDX-License-Identifier: BSD-3-Clause
"""Turn bench_dct's JSON output into the markdown tables of docs/benchmarks.md.

usage: python3 bench/ratios.py out/bench_dct.json [--plot ratios.png]
Each row: one transform; columns: dctx time and the ratio competitor_time / dctx_time
(> 1 means dctx is faster), all measured in the same run. With --plot, also a PNG (matplotlib) of
those ratios against the number of elements, one panel per table of 2D or 3D transforms."""
import argparse
import json
from collections import OrderedDict


def fmt_time(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def load(path):
    """{(dim, prec, direction): [(shape, {library: ns})]} in the file's order (medians when the
    run had repetitions)."""
    data = json.load(open(path))
    rows = OrderedDict()
    libs = []
    have_median = any(b.get("aggregate_name") == "median" for b in data["benchmarks"])
    for b in data["benchmarks"]:
        if have_median and b.get("aggregate_name") != "median":
            continue  # with --benchmark_repetitions, use the median of the repetitions
        if not have_median and b.get("run_type") == "aggregate":
            continue
        if b.get("error_occurred"):
            continue  # skipped (e.g. a competitor whose scaling did not check out)
        dim, prec, direction, shape, lib = b["run_name"].split("/") if "run_name" in b else b["name"].split("/")
        key = (dim, prec, direction, shape)
        rows.setdefault(key, {})[lib] = b["real_time"] * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
        if lib not in libs:
            libs.append(lib)
    groups = OrderedDict()
    for key, r in rows.items():
        groups.setdefault(key[:3], []).append((key[3], r))
    return groups, [l for l in libs if l != "dctx"]


def elements(shape):
    n = 1
    for e in shape.split("x"):
        n *= int(e)
    return n


def is_pow2_cube(shape):
    sides = [int(e) for e in shape.split("x")]
    return len(set(sides)) == 1 and sides[0] & (sides[0] - 1) == 0


def plot(groups, others, png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [(k, items) for k, items in groups.items() if k[0] in ("2d", "3d")]
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), squeeze=False)
    for ax, ((dim, prec, direction), items) in zip(axes[0], panels):
        for lib in others:
            if lib.startswith("dctx_"):
                continue  # dctx's own variants stay in the tables
            pts = [(shape, elements(shape), r[lib] / r["dctx"]) for shape, r in items
                   if lib in r and "dctx" in r]
            # Power-of-two cubes and squares as a line; other shapes as labelled points.
            line = sorted((n, q) for shape, n, q in pts if is_pow2_cube(shape))
            if not line:
                continue
            drawn = ax.plot([p[0] for p in line], [p[1] for p in line], marker="o", label=lib)
            for shape, n, q in pts:
                if not is_pow2_cube(shape):
                    ax.plot([n], [q], marker="s", color=drawn[0].get_color())
                    ax.annotate(shape, (n, q), fontsize=6, xytext=(3, 2), textcoords="offset points")
        ax.axhline(1, color="black", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("elements (squares: lines; other shapes: labelled points)")
        ax.set_ylabel("their time / dctx time (> 1: dctx faster)")
        ax.set_title(f"{dim.upper()} {prec} {'DCT-II' if direction == 'fwd' else 'DCT-III'}, ortho, 1 thread")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main(path, png=None):
    groups, others = load(path)
    if png:
        plot(groups, others, png)
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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="bench_dct --benchmark_format=json output")
    ap.add_argument("--plot", metavar="PNG", help="also write a PNG of the ratios (matplotlib)")
    args = ap.parse_args()
    main(args.json, args.plot)
