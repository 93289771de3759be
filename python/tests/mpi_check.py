# SPDX-License-Identifier: BSD-3-Clause
"""dctx.mpi under mpirun (ctest -L mpi runs it with 1, 2 and 3 ranks; not collected by the
plain pytest run, whose file names start with test_): each rank's block of the result against
scipy.fft on the whole array, and errors that arrive on every rank alike."""

import numpy as np
import pytest
import scipy.fft
from mpi4py import MPI

import dctx
import dctx.mpi

COMM = MPI.COMM_WORLD
SIZE, RANK = COMM.Get_size(), COMM.Get_rank()


def block(a, blk):
    shape, offset = blk
    return a[tuple(slice(o, o + s) for s, o in zip(shape, offset))]


def bound(dtype, n, axes):
    """The serial suite's bound (tests/oracle: c = 2) over `axes` transformed axes."""
    eps = np.finfo(dtype).eps
    return 2 * eps * np.log2(max(n, 2)) * np.sqrt(axes)


def global_rel_err(got, want):
    local = np.array([np.sum((got.astype(np.float64) - want) ** 2), np.sum(want ** 2)])
    total = np.zeros(2)
    COMM.Allreduce(local, total, op=MPI.SUM)
    return np.sqrt(total[0] / total[1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("decomposition,shape", [("slab", (9, 6)), ("slab", (5, 4, 7)),
                                                 ("pencil", (6, 5, 4)), ("auto", (3, 8, 5))])
@pytest.mark.parametrize("norm", [None, "ortho"])
@pytest.mark.parametrize("out_layout", ["natural", "transposed"])
def test_matches_scipy(dtype, decomposition, shape, norm, out_layout):
    x = np.random.default_rng(1).uniform(-1, 1, shape)
    p = dctx.mpi.Plan(COMM, shape, dtype, type=2, norm=norm, decomposition=decomposition,
                      out_layout=out_layout)
    y = p.execute(block(x, p.in_block).astype(dtype))
    assert y.shape == tuple(p.out_block[0]) and y.dtype == dtype
    want = block(scipy.fft.dctn(x, type=2, norm=norm), p.out_block)
    assert global_rel_err(y, want) <= bound(dtype, max(shape), len(shape))
    # And back, from the transposed layout when the forward plan left it.
    q = dctx.mpi.Plan(COMM, shape, dtype, type=2, norm=norm, inverse=True,
                      decomposition=decomposition, in_layout=out_layout)
    z = q.execute(y)
    # Forward then inverse: two transforms' rounding.
    assert global_rel_err(z, block(x, q.out_block)) <= 2 * bound(dtype, max(shape), len(shape))


def test_mixed_kinds_per_axis():
    shape = (7, 6, 5)
    x = np.random.default_rng(2).uniform(-1, 1, shape)
    p = dctx.mpi.Plan(COMM, shape, kind=["dct", "dst", "dct"], type=[2, 1, 4], norm="ortho")
    y = p.execute(block(x, p.in_block))
    want = scipy.fft.dct(scipy.fft.dst(scipy.fft.dct(x, 2, axis=0, norm="ortho"), 1, axis=1,
                                       norm="ortho"), 4, axis=2, norm="ortho")
    assert global_rel_err(y, block(want, p.out_block)) <= bound(np.float64, 7, 3)


def test_errors_on_every_rank():
    # A block of the wrong shape on the last rank only: every rank raises ValueError.
    p = dctx.mpi.Plan(COMM, (8, 6))
    x = np.ones(p.in_block[0])
    bad = np.ones((1, 1)) if RANK == SIZE - 1 else x
    with pytest.raises(ValueError, match="input block is"):
        p.execute(bad)
    with pytest.raises(TypeError, match="x has dtype float32 but the plan was made for float64"):
        p.execute(x.astype(np.float32))
    # Arguments that differ between ranks.
    if SIZE > 1:
        with pytest.raises(ValueError, match="the ranks describe different transforms"):
            dctx.mpi.Plan(COMM, (8, 6 + (RANK == 1)))
    with pytest.raises(ValueError, match="needs .* processes; the communicator has"):
        dctx.mpi.Plan(COMM, (8, 6), process_grid=[SIZE + 1])
    with pytest.raises(ValueError, match='decomposition must be one of "auto", "slab", "pencil"'):
        dctx.mpi.Plan(COMM, (8, 6), decomposition="cubes")
    with pytest.raises(TypeError, match="comm must be an mpi4py communicator"):
        dctx.mpi.Plan(42, (8, 6))
    with pytest.raises(TypeError, match="dtype must be float32 or float64"):
        dctx.mpi.Plan(COMM, (8, 6), np.complex128)
    # Still in step: a collective after the errors completes.
    assert COMM.allreduce(1) == SIZE


def test_reused_output_buffer():
    shape = (6, 9, 4)
    x = np.random.default_rng(3).uniform(-1, 1, shape)
    p = dctx.mpi.Plan(COMM, shape, norm="ortho")
    buf = p.empty_buffer()
    buf[:] = np.nan
    y = p.execute(block(x, p.in_block), out=buf)
    assert np.shares_memory(y, buf)
    want = block(scipy.fft.dctn(x, norm="ortho"), p.out_block)
    assert global_rel_err(y, want) <= bound(np.float64, 9, 3)
    with pytest.raises(ValueError, match="out must be a writable one-dimensional"):
        p.execute(block(x, p.in_block), out=np.empty(p.local_capacity - (RANK == 0)))
