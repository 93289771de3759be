# SPDX-License-Identifier: BSD-3-Clause
"""Paired A/B timing of two builds of one timer program (plan_timer or block8_timer).

usage: PROG=plan_timer python3 bench/ab/pairs.py ROUNDS ITERS "CONFIG" ["CONFIG" ...]
with ./PROG_base and ./PROG_main built against the two trees. For each config, ROUNDS pairs of
processes (base then main, main then base, alternately), each timing ITERS executions and reporting
its fastest; prints both builds' best times and the median of the per-pair ratios main/base, which
cancels the drift of a noisy machine better than comparing best times alone."""
import os
import statistics
import subprocess
import sys

PROG = os.environ.get("PROG", "plan_timer")
rounds, iters = int(sys.argv[1]), int(sys.argv[2])
def run(b, cfg):
    out = subprocess.run([f"./{PROG}_{b}", *cfg.split(), str(iters)], capture_output=True, text=True).stdout
    return float(out.split()[0])
print("| config | base best | main best | median main/base over pairs |")
print("|---|---:|---:|---:|")
for cfg in sys.argv[3:]:
    ratios, bb, mb = [], [], []
    for r in range(rounds):
        order = ["base", "main"] if r % 2 == 0 else ["main", "base"]
        t = {b: run(b, cfg) for b in order}
        ratios.append(t["main"] / t["base"]); bb.append(t["base"]); mb.append(t["main"])
    f = lambda s: f"{s*1e9:.0f} ns" if s < 1e-6 else f"{s*1e6:.1f} µs" if s < 1e-3 else f"{s*1e3:.3f} ms"
    print(f"| {cfg} | {f(min(bb))} | {f(min(mb))} | {statistics.median(ratios):.3f} |", flush=True)
