# SPDX-License-Identifier: BSD-3-Clause
"""Reusable transform plans."""

import operator

import numpy as np

from . import _dctx

_ELEM = {np.dtype(np.float32): 0, np.dtype(np.float64): 1,
         np.dtype(np.complex64): 2, np.dtype(np.complex128): 3}
_KIND = {"dct": 0, "dst": 1}


class Plan:
    """A DCT/DST over a fixed shape and dtype, built once and called many times.

    Building a plan does the expensive work (factorisations, twiddle tables, algorithm
    choice) once; each call then only transforms. A plan is immutable and may be called from
    several threads at once (the GIL is released while it computes).

    Parameters
    ----------
    shape : int or sequence of ints
        Shape of the arrays the plan transforms (every extent >= 1).
    dtype : dtype, optional
        float32, float64 (default), complex64 or complex128. Complex arrays have their real
        and imaginary parts transformed independently.
    axes : int or sequence of ints, optional
        Axes to transform; default: all axes.
    type : {1, 2, 3, 4}, optional
        Transform type (default 2).
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode, as in scipy.fft.
    kind : {"dct", "dst"}, optional
        Cosine (default) or sine transform.
    inverse : bool, optional
        If True, the plan computes scipy's ``idct``/``idst``/``idctn``/``idstn`` instead.
    orthogonalize : bool, optional
        As in scipy.fft; default ``norm == "ortho"``.
    workers : int, optional
        Threads per call; negative values count back from the number of CPUs.
    backend : {"cpu", "auto", "cuda", "opencl"}, optional
        Where the plan runs (default "cpu"); "auto" picks the best usable back end.
        :func:`dctx.backends` lists the back ends and why one is not usable; asking for one
        that is not built or not usable here raises ValueError naming it and the reason.

    Raises
    ------
    numpy.exceptions.AxisError
        For an axis out of range (a ValueError and an IndexError).
    ValueError
        For repeated axes, an invalid type, norm or workers value, a zero extent, a DCT-I of
        length 1 (:class:`dctx.DctxError`), or a back end that is unknown, not built or not
        usable here.
    TypeError
        For an unsupported dtype or a non-integer shape, axis or type.

    Examples
    --------
    >>> import numpy as np, dctx, scipy.fft
    >>> p = dctx.Plan((8, 8), np.float32, norm="ortho")
    >>> x = np.random.default_rng(0).random((8, 8), dtype=np.float32)
    >>> out = np.empty_like(x)
    >>> _ = p(x, out=out)
    >>> np.allclose(out, scipy.fft.dctn(x, norm="ortho"), atol=1e-5)
    True
    """

    __slots__ = ("_p", "_kind", "_type", "_norm", "_inverse")

    def __init__(self, shape, dtype=np.float64, axes=None, type=2, norm=None, kind="dct",
                 inverse=False, orthogonalize=None, workers=None, backend="cpu"):
        if isinstance(shape, (int, np.integer)):
            shape = (shape,)
        shape = tuple(operator.index(s) for s in shape)
        try:
            dt = np.dtype(dtype)
        except TypeError as e:
            raise TypeError(f"dctx.Plan: unsupported dtype {dtype!r}") from e
        if dt not in _ELEM:
            raise TypeError(f"dctx.Plan: unsupported dtype {dt} "
                            "(float32, float64, complex64 or complex128)")
        if kind not in _KIND:
            raise ValueError(f"dctx.Plan: kind must be 'dct' or 'dst', not {kind!r}")
        if axes is not None:
            axes = [operator.index(axes)] if isinstance(axes, (int, np.integer)) else \
                [operator.index(a) for a in axes]
        type = operator.index(type)
        # Axes, type, shape and back end are checked by the core (numpy's AxisError for an axis
        # out of range, ValueError for the rest).
        self._p = _dctx._Plan(list(shape), _ELEM[dt], axes, _KIND[kind], type, norm,
                              orthogonalize, bool(inverse), workers, backend)
        self._kind, self._type, self._norm, self._inverse = kind, type, norm, bool(inverse)

    def __call__(self, x, out=None):
        """Transform `x` (of the plan's shape and dtype; any strides) and return the result.

        Parameters
        ----------
        x : ndarray
            Input of exactly the plan's shape and dtype.
        out : ndarray, optional
            Writable array of the same shape and dtype to receive the result (any strides);
            ``out=x`` transforms in place. Default: a new C-ordered array.

        Returns
        -------
        out : ndarray
        """
        return self._p(x, out)

    execute = __call__

    @property
    def shape(self):
        """The shape the plan transforms."""
        return self._p.shape

    @property
    def dtype(self):
        """The dtype the plan transforms."""
        return self._p.dtype

    @property
    def axes(self):
        """The transformed axes (non-negative)."""
        return self._p.axes

    @property
    def backend(self):
        """The back end the plan runs on ("cpu", ...; never "auto")."""
        return self._p.backend

    def describe(self):
        """One line naming the back end and the algorithm of every axis."""
        return self._p.describe()

    def __repr__(self):
        return (f"dctx.Plan(shape={self.shape}, dtype={self.dtype}, axes={self.axes}, "
                f"kind={self._kind!r}, type={self._type}, norm={self._norm!r}, "
                f"inverse={self._inverse})")
