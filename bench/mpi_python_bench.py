# SPDX-License-Identifier: BSD-3-Clause
"""dctx.mpi against mpi4py-fft's distributed DCT-II (float64, every axis, FFTW underneath) on the
same arrays and ranks, in one process per rank, each timed over whole forward calls. mpi4py-fft
leaves its output in the transposed layout, so dctx is timed with out_layout="transposed" too.

    PYTHONPATH=build/python mpirun -n 2 /usr/bin/python3 bench/mpi_python_bench.py \
        [--reps N] 1024x1024 4096x4096 256x256x256

(Debian's python3-mpi4py-fft runs on Debian's /usr/bin/python3; the project's build of dctx loads
there when both are CPython 3.11.) Times are the slowest rank's, median of --reps.
"""

import argparse
import functools
import sys

import numpy as np
from mpi4py import MPI
from mpi4py_fft import PFFT, newDistArray
from mpi4py_fft.fftw import dctn, idctn

import dctx.mpi

COMM = MPI.COMM_WORLD


def timed(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        COMM.Barrier()
        t0 = MPI.Wtime()
        fn()
        times.append(COMM.allreduce(MPI.Wtime() - t0, op=MPI.MAX) * 1e3)
    return sorted(times)[len(times) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("shapes", nargs="*", default=["1024x1024", "4096x4096", "256x256x256"])
    a = ap.parse_args()
    rank = COMM.Get_rank()
    if rank == 0:
        print("| shape | ranks | dctx.mpi transposed out (ms) | mpi4py-fft (ms) | ratio | "
              "dctx.mpi natural out (ms) | max difference / max |")
        print("|---|---|---|---|---|---|---|")
    for s in a.shapes:
        shape = tuple(int(e) for e in s.split("x"))
        axes = tuple(range(len(shape)))
        dct2 = functools.partial(dctn, type=2)
        idct2 = functools.partial(idctn, type=2)
        # One serial transform per axis (a key per axis; a key of several axes would leave the
        # last one to the default real FFT), unnormalised as dctx's default.
        fft = PFFT(COMM, shape, axes=axes, dtype=float, grid=(-1,),
                   transforms={(ax,): (dct2, idct2) for ax in axes})
        u = newDistArray(fft, False)
        u[:] = np.random.default_rng(rank).uniform(-1, 1, u.shape)
        u_hat = newDistArray(fft, True)
        t_m4f = timed(lambda: fft.forward(u, u_hat, normalize=False), a.reps)
        results = {}
        for layout in ("transposed", "natural"):
            p = dctx.mpi.Plan(COMM, shape, decomposition="slab", out_layout=layout)
            x = np.array(u) if tuple(u.shape) == p.in_block[0] else None
            x = np.random.default_rng(rank).uniform(-1, 1, p.in_block[0]) if x is None else x
            buf = p.empty_buffer()  # reused, as mpi4py-fft's u_hat
            results[layout] = timed(lambda: p.execute(x, buf), a.reps)
            if layout == "transposed":  # the same numbers where the blocks coincide
                y = p.execute(x, buf)
                same = y.shape == u_hat.shape and np.array_equal(x, np.asarray(u))
                err = np.abs(y - np.asarray(u_hat)).max() / np.abs(u_hat).max() if same else -1
                err = COMM.allreduce(err, op=MPI.MAX)
        if rank == 0:
            print(f"| {s} | {COMM.Get_size()} | {results['transposed']:.2f} | {t_m4f:.2f} | "
                  f"{t_m4f / results['transposed']:.2f}x | {results['natural']:.2f} | "
                  f"{err:.1e} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
