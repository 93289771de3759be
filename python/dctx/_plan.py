# SPDX-License-Identifier: BSD-3-Clause
"""Reusable transform plans."""

import math
import numbers
import operator
import os

import numpy as np

from . import _dctx

_ELEM = {np.dtype(np.float32): 0, np.dtype(np.float64): 1,
         np.dtype(np.complex64): 2, np.dtype(np.complex128): 3}
_KIND = {"dct": 0, "dst": 1, "dxst": 2, "rdft": 3}


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
        float32, float64 (default; also what ``None`` means, as in numpy), complex64 or
        complex128. Complex arrays have their real and imaginary parts transformed
        independently.
    axes : int or sequence of ints, optional
        Axes to transform; default: all axes.
    type : {1, 2, 3, 4}, optional
        Transform type (default 2).
    norm : {"backward", "ortho", "forward"}, optional
        Normalization mode, as in scipy.fft.
    kind : {"dct", "dst", "dxst", "rdft"}, optional
        Cosine (default) or sine transform, or DREAMPlace's shifted sine transform (types 2
        and 3 only: ``type=3`` is twice the IDXST of "A New Acceleration Paradigm for Discrete
        Cosine Transform and Other Fourier-Related Transforms"; docs/electrostatics.md), or the
        real DFT in FFTW's halfcomplex order (types 2 and 3 only: ``type=2`` is FFTW's R2HC,
        ``Re X_0 .. Re X_{n/2}, Im X_{(n-1)/2} .. Im X_1`` of ``X = numpy.fft.rfft(x)``, and
        ``type=3`` its HC2R; norms with ``M = n``).
    inverse : bool, optional
        If True, the plan computes scipy's ``idct``/``idst``/``idctn``/``idstn`` instead.
    orthogonalize : bool, optional
        As in scipy.fft; default ``norm == "ortho"``.
    workers : int, optional
        Threads per call; negative values count back from the number of CPUs.
    threshold : float, optional
        Magnitude compression in the DCT domain, fused into the transform (Algorithm 3 of "A
        New Acceleration Paradigm for Discrete Cosine Transform and Other Fourier-Related
        Transforms"): coefficients of magnitude below it count as zero, the outputs of a
        forward plan and the inputs of an inverse one (`x` itself is not changed; for complex
        dtypes, the real and imaginary parts each). The same values as a separate pass
        ``y[abs(y) < threshold] = 0``. Default 0: off.
    backend : {"cpu", "auto", "cuda", "opencl"}, optional
        Where the plan runs (default "cpu"); "auto" picks the best usable back end.
        :func:`dctx.backends` lists the back ends and why one is not usable; asking for one
        that is not built or not usable here raises ValueError naming it and the reason.
    planning : {"estimate", "measure"}, optional
        How a CPU plan picks its algorithm. "estimate" (default): a fixed rule, deterministic
        and cheap. "measure": the candidate algorithms are timed once on scratch data (about
        10 ms at most; arrays too large for that keep the rule's pick) and the fastest is kept
        and remembered for the process (:func:`dctx.save_wisdom` and :func:`dctx.load_wisdom`
        carry it across runs). :meth:`describe` says what was timed.

    Raises
    ------
    numpy.exceptions.AxisError
        For an axis out of range (a ValueError and an IndexError).
    ValueError
        For repeated axes, an invalid type, norm, kind, planning or workers value, a zero extent, a
        DCT-I of length 1 (:class:`dctx.DctxError`), or a back end that is unknown, not built
        or not usable here.
    TypeError
        For an unsupported dtype, a shape, type or workers that is not made of integers, a
        non-bool `inverse` or `orthogonalize`, or a `backend` that is not a string. Every
        message names the argument.

    Notes
    -----
    A plan pickles (and copies with :func:`copy.deepcopy`) as its description: unpickling
    builds the plan again, for example in another process, with ``workers`` and ``backend``
    as they were given (``-1`` and ``"auto"`` are resolved where the plan is rebuilt).

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

    __slots__ = ("_p", "_kind", "_type", "_norm", "_inverse", "_orthogonalize", "_workers",
                 "_backend", "_threshold", "_planning")

    def __init__(self, shape, dtype=np.float64, axes=None, type=2, norm=None, kind="dct",
                 inverse=False, orthogonalize=None, workers=None, backend="cpu", threshold=0.0,
                 planning="estimate"):
        shape = _shape_tuple(shape)
        dt = _plan_dtype(dtype)
        if not (isinstance(kind, str) and kind in _KIND):
            raise ValueError(
                f'dctx.Plan: kind must be "dct", "dst", "dxst" or "rdft", not {_show(kind)}')
        inverse = _flag(inverse, "inverse")
        if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real):
            raise TypeError(f"dctx.Plan: threshold must be a number, not {_show(threshold)}")
        threshold = float(threshold)
        if not (math.isfinite(threshold) and threshold >= 0):
            raise ValueError(f"dctx.Plan: threshold must be finite and >= 0, not {threshold}")
        if not isinstance(planning, str):
            raise TypeError(f"dctx.Plan: planning must be a string, not {_show(planning)}")
        if planning not in _PLANNING:
            raise ValueError(f'dctx.Plan: planning must be "estimate" or "measure", not '
                             f"{planning!r}")
        # Axes, type, norm, orthogonalize, workers and the back end are checked by the extension
        # and the core (numpy's AxisError for an axis out of range, TypeError for a value of the
        # wrong type, ValueError for the rest), each error naming its keyword.
        self._p = _dctx._Plan(list(shape), _ELEM[dt], axes, _KIND[kind], type, norm,
                              orthogonalize, inverse, workers, backend, threshold,
                              _PLANNING[planning])
        self._kind, self._type, self._norm = kind, operator.index(type), norm
        self._inverse = inverse
        self._orthogonalize = None if orthogonalize is None else bool(orthogonalize)
        self._workers = None if workers is None else operator.index(workers)
        self._backend = backend
        self._threshold = threshold
        self._planning = planning

    def __reduce__(self):
        """Pickling (and copy.copy / copy.deepcopy): the plan is rebuilt from its description,
        as it was asked for (``workers=-1`` and ``backend="auto"`` are resolved again where it
        is unpickled)."""
        return (Plan, (self.shape, self.dtype, self.axes, self._type, self._norm, self._kind,
                       self._inverse, self._orthogonalize, self._workers, self._backend,
                       self._threshold, self._planning))

    def __call__(self, x, out=None):
        """Transform `x` (of the plan's shape and dtype; any strides) and return the result.

        Parameters
        ----------
        x : ndarray
            Input of exactly the plan's shape and dtype, in host memory (a NumPy array or any
            DLPack or buffer-protocol array on the CPU).
        out : ndarray, optional
            Writable array of the same shape and dtype to receive the result (any strides);
            ``out=x`` transforms in place. Default: a new C-ordered array.

        Returns
        -------
        out : ndarray

        Raises
        ------
        TypeError
            For `x` or `out` of another dtype (the message names both dtypes), not an array,
            or in device memory.
        ValueError
            For `x` or `out` of another shape (the message names both shapes), or a read-only
            `out`.
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
        extra = "".join(f", {k}={v!r}" for k, v in (("orthogonalize", self._orthogonalize),
                                                   ("workers", self._workers),
                                                   ("backend", self._backend),
                                                   ("threshold", self._threshold),
                                                   ("planning", self._planning))
                        if v != _DEFAULTS[k])
        return (f"dctx.Plan(shape={self.shape}, dtype={self.dtype}, axes={self.axes}, "
                f"kind={self._kind!r}, type={self._type}, norm={self._norm!r}, "
                f"inverse={self._inverse}{extra})")


_DEFAULTS = {"orthogonalize": None, "workers": None, "backend": "cpu", "threshold": 0.0,
             "planning": "estimate"}
_PLANNING = {"estimate": 0, "measure": 1}


def save_wisdom(path):
    """Write the algorithms that ``planning="measure"`` plans have timed in this process (one
    per description and CPU target) to the text file `path` (str or os.PathLike), atomically.

    Raises
    ------
    TypeError
        For a `path` that is not a str or os.PathLike.
    ValueError
        When the file cannot be written (:class:`dctx.DctxError`; the message names the file).
    """
    _dctx._save_wisdom(_path(path, "save_wisdom"))


def load_wisdom(path):
    """Add the entries of a file written by :func:`save_wisdom` to this process's wisdom, so
    that ``planning="measure"`` plans of those descriptions take the remembered algorithm
    instead of timing. A file that cannot be read changes nothing.

    Raises
    ------
    TypeError
        For a `path` that is not a str or os.PathLike.
    ValueError
        For a missing or unreadable file, or one that is not dctx wisdom
        (:class:`dctx.DctxError`; the message names the file and the line).
    """
    _dctx._load_wisdom(_path(path, "load_wisdom"))


def forget_wisdom():
    """Empty this process's wisdom (the next measuring plan times its candidates again)."""
    _dctx._forget_wisdom()


def wisdom_size():
    """The number of entries in this process's wisdom."""
    return _dctx._wisdom_size()


def _path(path, who):
    try:
        path = os.fspath(path)
    except TypeError:
        raise TypeError(f"dctx.{who}: path must be a str or os.PathLike, not {_show(path)}") from None
    if not isinstance(path, str):
        raise TypeError(f"dctx.{who}: path must be a str or os.PathLike of str, not bytes")
    return path


def _shape_tuple(shape):
    """`shape` (an int or a sequence of ints) as a tuple of ints; TypeError naming it otherwise."""
    try:
        if isinstance(shape, (int, np.integer)):
            return (operator.index(shape),)
        if not isinstance(shape, (str, bytes)):
            return tuple(operator.index(s) for s in shape)
    except TypeError:
        pass
    raise TypeError(f"dctx.Plan: shape must be an int or a sequence of ints, not {_show(shape)}")


def _show(value):
    """`value` for a message: its repr when short, else its type."""
    r = repr(value)
    return r if len(r) <= 40 else f"a {type(value).__name__}"


def _plan_dtype(dtype):
    """The dtype of a plan (None: numpy's default, float64); TypeError naming it otherwise."""
    try:
        dt = np.dtype(dtype)
    except (TypeError, ValueError):
        dt = None
    if dt not in _ELEM:
        what = dt if dt is not None else _show(dtype)
        raise TypeError(f"dctx.Plan: dtype must be float32, float64, complex64 or complex128, "
                        f"not {what}")
    return dt


def _flag(value, name):
    """A bool argument: True, False or a number's truth value (numpy.bool_, 0, 1)."""
    if value is None or not hasattr(type(value), "__bool__") or isinstance(value, np.ndarray):
        raise TypeError(f"dctx.Plan: {name} must be True or False, not {_show(value)}")
    return bool(value)
