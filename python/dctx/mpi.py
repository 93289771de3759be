# SPDX-License-Identifier: BSD-3-Clause
"""Distributed transforms over MPI, on mpi4py communicators and each rank's local NumPy block.

A :class:`Plan` splits the global array over the ranks by slabs or pencils and runs, on every
rank, the serial dctx transforms along the axes the rank holds whole, with global transposes
between them (the C++ library dctx::mpi). Every rank calls the constructor and
:meth:`Plan.execute` together, with the same arguments; an error on any rank (a bad argument,
arguments that differ between ranks, a block of the wrong shape) raises the same exception on
every rank, so that no rank is left waiting::

    from mpi4py import MPI
    import numpy as np, dctx.mpi

    p = dctx.mpi.Plan(MPI.COMM_WORLD, (512, 512, 512), norm="ortho")
    shape, offset = p.in_block          # this rank's part of the global array
    y = p.execute(x_local)              # this rank's part of the result (p.out_block)

Needs dctx built with MPI (the project's own build: ``make build``; the PyPI wheel has no MPI)
and mpi4py on the same MPI library.
"""

import numpy as np

from . import _dctx
from ._plan import _KIND, _flag, _plan_dtype, _shape_tuple, _show

__all__ = ["Plan"]

_DECOMPOSITIONS = {"auto": 0, "slab": 1, "pencil": 2}
_LAYOUTS = {"natural": 0, "transposed": 1}


def _choice(value, table, what):
    if not (isinstance(value, str) and value in table):
        names = ", ".join(f'"{k}"' for k in table)
        raise ValueError(f"dctx.mpi.Plan: {what} must be one of {names}, not {_show(value)}")
    return table[value]


def _per_axis(value, what, convert):
    """A scalar or a sequence of per-axis values, as a list."""
    if isinstance(value, (str, int, np.integer)):
        return [convert(value)]
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"dctx.mpi.Plan: {what} must be a value or a sequence of values, "
                        f"not {_show(value)}") from None
    return [convert(v) for v in items]


def _kind_code(k):
    if not (isinstance(k, str) and k in _KIND):
        raise ValueError(
            f'dctx.mpi.Plan: kind must be "dct", "dst", "dxst" or "rdft", not {_show(k)}')
    return _KIND[k]


def _type_code(t):
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)):
        raise TypeError(f"dctx.mpi.Plan: type must be an int or a sequence of ints, not {_show(t)}")
    return int(t)


class Plan:
    """A distributed DCT/DST over a global shape, built once per communicator and reused.

    Parameters
    ----------
    comm : mpi4py.MPI.Comm
        The communicator (duplicated by the plan; its messages never meet yours).
    shape : sequence of ints
        The global shape (rank 2 or more).
    dtype : float32 or float64, optional
    axes, norm, inverse, orthogonalize, workers, backend :
        As for :class:`dctx.Plan` (``workers``: threads of each rank's local plans).
    type : int or sequence of ints, optional
        Transform type, one for all axes or one per axis of `axes`.
    kind : "dct", "dst", "dxst", "rdft" or a sequence of them, optional
        One for all axes or one per axis (DCT on some axes, DST on others: the spectral
        Poisson pairs).
    decomposition : "auto", "slab" or "pencil", optional
    process_grid : sequence of ints, optional
        One extent (slabs) or two (pencils) whose product is the communicator's size.
    in_layout, out_layout : "natural" or "transposed", optional
        Natural splits axes 0..g-1 over a grid of g dimensions, transposed axes 1..g (what a
        forward plan's last transpose leaves: an output in it saves the transposes back, and an
        inverse plan takes it as input).

    Raises
    ------
    ValueError, TypeError
        As :class:`dctx.Plan`, on every rank alike, and :class:`dctx.DctxError` for descriptions
        that differ between ranks or a process grid that does not fit the communicator.
    """

    __slots__ = ("_p", "_dtype")

    def __init__(self, comm, shape, dtype=np.float64, axes=None, type=2, norm=None, kind="dct",
                 inverse=False, orthogonalize=None, workers=None, backend="cpu",
                 decomposition="auto", process_grid=None, in_layout="natural",
                 out_layout="natural"):
        if not getattr(_dctx, "has_mpi", False):
            raise ImportError("dctx.mpi: this dctx was built without MPI (build it from source "
                              "with an MPI library installed, e.g. libopenmpi-dev)")
        if not hasattr(comm, "py2f"):
            raise TypeError(f"dctx.mpi.Plan: comm must be an mpi4py communicator, not "
                            f"{_show(comm)}")
        shape = _shape_tuple(shape)
        dt = _plan_dtype(dtype)
        if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise TypeError(f"dctx.mpi.Plan: dtype must be float32 or float64, not {dt}")
        kinds = _per_axis(kind, "kind", _kind_code)
        types = _per_axis(type, "type", _type_code)
        grid = [] if process_grid is None else [int(e) for e in process_grid]
        if not isinstance(backend, str):
            raise TypeError(f"dctx.mpi.Plan: backend must be a string, not {_show(backend)}")
        self._dtype = dt
        self._p = _dctx._MpiPlan(
            comm.py2f(), list(shape), 0 if dt == np.float32 else 1, axes, kinds, types, norm,
            orthogonalize, _flag(inverse, "inverse"), workers, backend,
            _choice(decomposition, _DECOMPOSITIONS, "decomposition"), grid,
            _choice(in_layout, _LAYOUTS, "in_layout"), _choice(out_layout, _LAYOUTS, "out_layout"))

    @property
    def in_block(self):
        """This rank's input block: (shape, offset) in the global array."""
        return self._p.in_block

    @property
    def out_block(self):
        """This rank's output block: (shape, offset) in the global array."""
        return self._p.out_block

    @property
    def decomposition(self):
        """"slab" or "pencil"."""
        return self._p.decomposition

    @property
    def process_grid(self):
        """The process grid's extents."""
        return self._p.process_grid

    @property
    def dtype(self):
        """float32 or float64."""
        return self._dtype

    @property
    def local_capacity(self):
        """Elements of the buffer :meth:`execute` writes (at least the output block's size)."""
        return self._p.local_capacity

    def describe(self):
        """One line: decomposition, grid, stages and the local plans' back end."""
        return self._p.describe()

    def empty_buffer(self):
        """A new buffer for :meth:`execute`'s `out`: local_capacity elements of the plan's
        dtype."""
        return np.empty(self._p.local_capacity, dtype=self._dtype)

    def execute(self, x, out=None):
        """Transform this rank's input block and return this rank's output block.

        Collective: every rank calls it.

        Parameters
        ----------
        x : ndarray
            This rank's input block: shape ``in_block[0]``, the plan's dtype, any strides.
        out : ndarray, optional
            A buffer to write into and reuse across calls: one-dimensional, C-contiguous, the
            plan's dtype, at least ``local_capacity`` elements (:meth:`empty_buffer` makes one;
            the rest is workspace of the transposes). Default: a new buffer per call.

        Returns
        -------
        ndarray
            Shape ``out_block[0]``, C-ordered: a view of the start of `out` (or of the new
            buffer).
        """
        shape = self.in_block[0]
        error = ""  # "T" + message for a TypeError, "V" + message for a ValueError
        if not hasattr(x, "shape") or not hasattr(x, "dtype"):
            error = f"Tdctx.mpi.Plan: x must be an array, not {_show(x)}"
        elif np.dtype(x.dtype) != self._dtype:
            error = (f"Tdctx.mpi.Plan: x has dtype {x.dtype} but the plan was made for "
                     f"{self._dtype}")
        elif tuple(x.shape) != tuple(shape):
            error = (f"Vdctx.mpi.Plan: x has shape {tuple(x.shape)} but this rank's input block "
                     f"is {tuple(shape)}")
        elif out is not None and not (isinstance(out, np.ndarray) and out.ndim == 1
                                      and out.dtype == self._dtype and out.flags.c_contiguous
                                      and out.flags.writeable
                                      and out.size >= self._p.local_capacity):
            error = (f"Vdctx.mpi.Plan: out must be a writable one-dimensional C-contiguous "
                     f"{self._dtype} array of at least local_capacity = "
                     f"{self._p.local_capacity} elements (empty_buffer() makes one)")
        agreed = self._p.agree(error)  # the same on every rank: "rank R: T..." or "T..."
        if agreed:
            rank, sep, rest = (agreed.partition(": ") if agreed.startswith("rank ")
                               else ("", "", agreed))
            code, message = rest[0], rank + sep + rest[1:]
            raise (TypeError if code == "T" else ValueError)(message)
        if out is None:
            out = self.empty_buffer()
        self._p.run(np.ascontiguousarray(x), out)
        oshape = self.out_block[0]
        return out[:int(np.prod(oshape, dtype=np.int64))].reshape(oshape)

    __call__ = execute

    def __repr__(self):
        return (f"dctx.mpi.Plan({self.describe()!r})")
