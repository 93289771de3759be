#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Markdown table of a bench_block8 JSON run, with ratios against the baselines of the same run.

    build-block8/bin/bench_block8 --benchmark_min_time=0.5 --benchmark_repetitions=3 \\
        --benchmark_report_aggregates_only=true --benchmark_format=json > run.json
    python3 bench/block8_table.py run.json
"""
import json
import sys


def is_codec_half(name):
    return any(k in name for k in ("Encode", "Decode"))


def main(path):
    runs = json.load(open(path))
    rate = {}  # (name, size) -> Mpixel/s, medians when the run has repetitions
    label = {}
    for b in runs["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        parts = b["run_name"].split("/") if "run_name" in b else b["name"].split("/")
        name, size = parts[0], parts[-2] if parts[-1] == "real_time" else parts[-1]
        if name.startswith("BM_Target_"):
            name, size = name + "/" + parts[1], parts[2]
        rate[(name, size)] = b["Mpix/s"]
        label[(name, size)] = b.get("label", "")
    ctx = runs["context"]
    print(f"Host: {ctx.get('num_cpus')} CPUs at {ctx.get('mhz_per_cpu')} MHz, "
          f"load average {', '.join('%.2f' % x for x in ctx.get('load_avg', []))}; "
          f"{ctx.get('date')}\n")
    for size in ("4096", "512"):
        mem = max(rate.get(("BM_MemoryCopy", size), 0), rate.get(("BM_MemoryScale", size), 0))
        fftw = {"Forward": rate.get(("BM_FftwForward", size)), "Inverse": rate.get(("BM_FftwInverse", size))}
        cv = {"Forward": rate.get(("BM_OpenCVForward", size)), "Inverse": rate.get(("BM_OpenCVInverse", size))}
        print(f"**{size} x {size} plane, one thread** (memory pass = the faster of memcpy and "
              f"out = 2 in: {mem:.0f} Mpixel/s)\n")
        print("| benchmark | Mpixel/s | / memory pass | / FFTW | / OpenCV | notes |")
        print("|---|---:|---:|---:|---:|---|")
        for (name, sz), v in rate.items():
            if (sz != size or name.startswith("BM_Target_") or is_codec_half(name)
                    or name.endswith("Aliased") or name.endswith("Line16")):
                continue
            direction = "Forward" if "Forward" in name else "Inverse" if "Inverse" in name else None
            f = fftw.get(direction) if direction else None
            c = cv.get(direction) if direction else None
            ratio = lambda base: f"{v / base:.2f}" if base else ""
            print(f"| {name[3:]} | {v:.0f} | {ratio(mem)} | {ratio(f)} | {ratio(c)} | {label[(name, sz)]} |")
        print()
    halves = [(n, s) for (n, s) in rate if n.startswith("BM_Dctx") and is_codec_half(n)]
    if halves:
        print("**Codec halves, one thread (Mpixel/s)**: the encoder (samples -> int16 levels, "
              "block8_forward_quantized) and decoder (levels -> samples, "
              "block8_inverse_dequantized) against the separate calls they replace in the same run "
              "(block8_forward + block8_quantize, block8_dequantize + block8_inverse)\n")
        print("| pass | plane | one pass | separate calls | one pass / separate | notes |")
        print("|---|---|---:|---:|---:|---|")
        for (n, s) in halves:
            sep = rate.get((n.replace("BM_Dctx", "BM_Separate"), s))
            ratio = f"{rate[(n, s)] / sep:.2f}" if sep else ""
            print(f"| {n[7:]} | {s} x {s} | {rate[(n, s)]:.0f} | {sep or 0:.0f} | {ratio} | {label[(n, s)]} |")
        print()
    one = [(n, s) for (n, s) in rate if s == "8" and not n.startswith("BM_Target_")]
    if one:
        print("**One 8x8 block per call, one thread** (ns per call)\n")
        print("| benchmark | ns per call | notes |")
        print("|---|---:|---|")
        for (n, s) in one:
            print(f"| {n[3:]} | {64e3 / rate[(n, s)]:.0f} | {label[(n, s)]} |")
        print()
    placed = [(n, s) for (n, s) in rate if n.endswith("Aliased") or n.endswith("Line16")]
    if placed:
        print("**Placed outputs, one thread (Mpixel/s)**: Aliased = output 64 bytes after the input "
              "modulo 4 KiB (4K aliasing); Line16 = output rows 16 bytes into a cache line (numpy, "
              "malloc)\n")
        print("| benchmark | plane | Mpixel/s | notes |")
        print("|---|---|---:|---|")
        for (n, s) in sorted(placed):
            print(f"| {n[3:]} | {s} x {s} | {rate[(n, s)]:.0f} | {label[(n, s)]} |")
        print()
    targets = sorted({n.split('/')[1] for (n, s) in rate if n.startswith("BM_Target_")})
    if targets:
        print("**Per SIMD target, 512 x 512 (Mpixel/s)**\n")
        print("| target | forward fast | inverse fast | fused fast | forward int16 | fused int16 |")
        print("|---|---:|---:|---:|---:|---:|")
        for t in targets:
            row = [rate.get((f"BM_Target_{k}/{t}", "512"), 0)
                   for k in ("ForwardFast", "InverseFast", "RoundtripFast", "ForwardInt16", "RoundtripInt16")]
            print(f"| {t} | " + " | ".join(f"{x:.0f}" for x in row) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
