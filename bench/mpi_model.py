# SPDX-License-Identifier: BSD-3-Clause
"""The scaling model of docs/mpi.md: time of one distributed 3D DCT (float64) on P ranks,
slabs against pencils, from the measured serial compute of this machine and a fabric model.

    python3 bench/mpi_model.py [--serial-ms MS --serial-n N] [--rank-speed S]

time = compute + transposes, where
  compute    = c * (n^3 / P) * log2(n^3) / S: c from one measured serial transform on one core
               (the default: bench_mpi's serial dctx time of 512^3, docs/benchmarks.md), S the
               speed of a rank in such cores (1: a rank per core; 64: a 64-core node at linear
               speed-up, an optimistic bound that makes the network matter more)
  transpose  = volume / B + alpha * messages, per rank, for each global transpose:
               volume   = 8 n^3 / P bytes (each rank sends all but its own share)
               messages = peers in the sub-communicator (slab: P - 1; pencil: sqrt(P) - 1 each)
  slabs: 1 transpose (transposed output) or 2 (natural); at most n ranks.
  pencils: 2 transposes (transposed output) or 4 (natural); at most n^2 ranks.
Fabric: B = 200 Gb/s = 25 GB/s injection per rank (full-bisection fat tree, so the bisection
does not bind below injection), alpha = 2 us per message.
"""

import argparse
import math

B = 200e9 / 8  # bytes/s per rank
ALPHA = 2e-6   # s per message


def model(n, P, pencil, natural, c, speed=1.0):
    pts = n ** 3
    compute = c * pts / P * math.log2(pts) / speed
    vol = 8 * pts / P * (1 - 1 / P)
    if pencil:
        side = math.isqrt(P)
        transposes, peers = 2, side - 1
    else:
        transposes, peers = 1, P - 1
    if natural:
        transposes *= 2
    comm = transposes * (vol / B + ALPHA * peers)
    return compute, comm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--serial-ms", type=float, default=3721.44)
    ap.add_argument("--serial-n", type=int, default=512)
    ap.add_argument("--rank-speed", type=float, nargs="*", default=[1, 64])
    a = ap.parse_args()
    pts = a.serial_n ** 3
    c = a.serial_ms / 1e3 / (pts * math.log2(pts))
    print(f"c = {c:.3e} s per point and log2 (serial {a.serial_n}^3 in {a.serial_ms} ms)\n")
    for speed in a.rank_speed:
        print(f"Ranks of {speed:g} core(s) each, transposed output:\n")
        print("| n^3 | ranks | compute (s) | slab comm (s) | slab total (s) | pencil comm (s) | "
              "pencil total (s) | faster |")
        print("|---|---|---|---|---|---|---|---|")
        for n in (2048, 8192):
            for P in (64, 256, 1024, 4096):
                comp, slab = model(n, P, False, False, c, speed)
                _, pen = model(n, P, True, False, c, speed)
                slab_ok = P <= n
                slab_total = comp + slab if slab_ok else float("nan")
                best = "pencil" if not slab_ok or comp + pen < slab_total else "slab"
                st = f"{slab:.4f}" if slab_ok else "n/a (P > n)"
                stt = f"{slab_total:.4f}" if slab_ok else "n/a"
                print(f"| {n}^3 | {P} | {comp:.4f} | {st} | {stt} | {pen:.4f} | "
                      f"{comp + pen:.4f} | {best} |")
        print()
    # Where pencils overtake slabs on communication alone (process grids of powers of two).
    for n in (2048, 8192):
        cross = next((P for P in (2 ** k for k in range(6, 16))
                      if P > n or model(n, P, True, False, c)[1] < model(n, P, False, False, c)[1]),
                     None)
        print(f"{n}^3: pencils communicate faster than slabs from P = {cross} ranks "
              f"(slabs stop at P = {n})")

if __name__ == "__main__":
    main()
