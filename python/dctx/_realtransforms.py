# SPDX-License-Identifier: BSD-3-Clause
"""scipy.fft-compatible DCT and DST functions running on dctx.

Each function keeps scipy.fft's exact signature and semantics; the work (argument checks,
cropping/padding, plan lookup and the transform itself) happens in one call into the compiled
extension, which releases the GIL while it computes.
"""

from numpy import ndarray as _ndarray

from . import _cuda, _dctx

__all__ = ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"]

_DCT = 0
_DST = 1
_r2r = _dctx._r2r
# CUDA arrays (CuPy, PyTorch) go to CUDA plans when this build has them (_cuda.py); everything
# else, NumPy arrays first, to the extension (which refuses device arrays it cannot take).
_is_cuda = _cuda.is_cuda_array if _cuda.available() else (lambda x: False)


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
        orthogonalize=None, backend=None):
    if x.__class__ is not _ndarray and _is_cuda(x):
        return _cuda.r2r(x, _DCT, False, type, n, axis, norm, workers, orthogonalize, False,
                         backend, "dctx.dct")
    return _r2r(x, _DCT, False, type, n, axis, norm, overwrite_x, workers, orthogonalize,
                False, backend)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None, backend=None):
    if x.__class__ is not _ndarray and _is_cuda(x):
        return _cuda.r2r(x, _DCT, True, type, n, axis, norm, workers, orthogonalize, False,
                         backend, "dctx.idct")
    return _r2r(x, _DCT, True, type, n, axis, norm, overwrite_x, workers, orthogonalize,
                False, backend)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
        orthogonalize=None, backend=None):
    if x.__class__ is not _ndarray and _is_cuda(x):
        return _cuda.r2r(x, _DST, False, type, n, axis, norm, workers, orthogonalize, False,
                         backend, "dctx.dst")
    return _r2r(x, _DST, False, type, n, axis, norm, overwrite_x, workers, orthogonalize,
                False, backend)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None, backend=None):
    if x.__class__ is not _ndarray and _is_cuda(x):
        return _cuda.r2r(x, _DST, True, type, n, axis, norm, workers, orthogonalize, False,
                         backend, "dctx.idst")
    return _r2r(x, _DST, True, type, n, axis, norm, overwrite_x, workers, orthogonalize,
                False, backend)


def dctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None, backend=None):
    if x.__class__ is not _ndarray and _is_cuda(x):
        return _cuda.r2r(x, _DCT, False, type, s, axes, norm, workers, orthogonalize, True,
                         backend, "dctx.dctn")
    return _r2r(x, _DCT, False, type, s, axes, norm, overwrite_x, workers, orthogonalize,
                True, backend)


def idctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
          orthogonalize=None, backend=None):
    if x.__class__ is not _ndarray and _is_cuda(x):
        return _cuda.r2r(x, _DCT, True, type, s, axes, norm, workers, orthogonalize, True,
                         backend, "dctx.idctn")
    return _r2r(x, _DCT, True, type, s, axes, norm, overwrite_x, workers, orthogonalize,
                True, backend)


def dstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None, backend=None):
    if x.__class__ is not _ndarray and _is_cuda(x):
        return _cuda.r2r(x, _DST, False, type, s, axes, norm, workers, orthogonalize, True,
                         backend, "dctx.dstn")
    return _r2r(x, _DST, False, type, s, axes, norm, overwrite_x, workers, orthogonalize,
                True, backend)


def idstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
          orthogonalize=None, backend=None):
    if x.__class__ is not _ndarray and _is_cuda(x):
        return _cuda.r2r(x, _DST, True, type, s, axes, norm, workers, orthogonalize, True,
                         backend, "dctx.idstn")
    return _r2r(x, _DST, True, type, s, axes, norm, overwrite_x, workers, orthogonalize,
                True, backend)


# --- docstrings (numpydoc), generated from one template per family ---------------------------

_COMMON_PARAMS = """\
norm : {{"backward", "ortho", "forward"}}, optional
    Normalization mode, as in scipy.fft (default ``"backward"``): which direction carries
    the ``1/M`` factor (``M = 2(N-1)`` for DCT-I, ``2(N+1)`` for DST-I, ``2N`` otherwise);
    ``"ortho"`` scales both directions by ``1/sqrt(M)``.
overwrite_x : bool, optional
    If True, the contents of `x` may be destroyed: a writable float32/float64 (or complex)
    array is transformed in its own buffer and returned. Read-only arrays are never written.
workers : int, optional
    Number of threads. Negative values count back from the number of CPUs (``-1`` = all).
    Default 1.
orthogonalize : bool, optional
    Whether to use the orthogonalized DCT/DST variant (types 1, 2, 3). Defaults to
    ``norm == "ortho"``.
backend : {{"cpu", "opencl", "cuda", "auto"}}, optional
    Where to compute (a dctx extension; scipy has no such argument). Default ``None``: the
    usable back end of highest priority, the CPU. A device back end copies the array to the
    device and back within the call. :func:`dctx.backends` lists what this build can use."""

_DOC_1D = """\
{summary}

Drop-in replacement for ``scipy.fft.{name}`` computed by dctx.

Parameters
----------
x : array_like
    The input array. float32 stays float32, float16 is computed in float32, integers and
    booleans become float64, complex input transforms the real and imaginary parts.
type : {{1, 2, 3, 4}}, optional
    Type of the {fam} (default 2).{typenote}
n : int, optional
    Length of the transform. The input is cropped, or padded with zeros, to `n` along `axis`.
axis : int, optional
    Axis along which the transform is computed; the default is the last axis.
{common}

Returns
-------
y : ndarray
    The transformed array, of the input's floating or complex dtype.

Raises
------
ValueError
    For an invalid `type`, `norm`, `axis` (numpy ``AxisError``), `n` < 1, `workers` == 0 or a
    DCT-I of length 1 (``dctx.DctxError``, also a RuntimeError as scipy raises there).
TypeError
    For a `type`, `n`, `axis` or `workers` that is not an integer (None included), an
    `orthogonalize` that is not None or a bool, an `x` that is not an array of numbers or lives
    in device memory, and dtypes dctx cannot compute in (long double, complex long double).
    Every message names the argument at fault.

See Also
--------
{see_also}

Examples
--------
>>> import numpy as np, dctx
>>> x = np.array([4., 3., 5., 10.])
>>> np.allclose(dctx.{inv}(dctx.{fwd}(x)), x)
True
"""

_DOC_ND = """\
{summary}

Drop-in replacement for ``scipy.fft.{name}`` computed by dctx.

Parameters
----------
x : array_like
    The input array (dtypes as for the 1-D functions).
type : {{1, 2, 3, 4}}, optional
    Type of the {fam} (default 2).{typenote}
s : int or sequence of ints, optional
    Shape of the result along `axes`; the input is cropped or zero-padded to it. ``-1`` keeps
    that axis's length. Without `axes`, the last ``len(s)`` axes are used.
axes : int or sequence of ints, optional
    Axes over which to compute the transform. Default: all axes (or the last ``len(s)``).
{common}

Returns
-------
y : ndarray
    The transformed array.

Raises
------
ValueError
    For an invalid `type`, `norm`, repeated or out-of-range `axes`, `s` or `axes` that are not
    integers, `s` entries < 1, ``len(s) != len(axes)``, `workers` == 0 or DCT-I of length 1.
TypeError
    For a `type` or `workers` that is not an integer (None included), an `orthogonalize` that
    is not None or a bool, an `x` that is not an array of numbers or lives in device memory,
    and dtypes dctx cannot compute in (long double, complex long double). Every message names
    the argument at fault.

See Also
--------
{see_also}

Examples
--------
>>> import numpy as np, dctx
>>> x = np.arange(12.0).reshape(3, 4)
>>> np.allclose(dctx.{inv}(dctx.{fwd}(x, norm="ortho"), norm="ortho"), x)
True
"""

_SUMMARY = {
    "dct": "Return the Discrete Cosine Transform of an array along one axis.",
    "idct": "Return the inverse Discrete Cosine Transform of an array along one axis.",
    "dst": "Return the Discrete Sine Transform of an array along one axis.",
    "idst": "Return the inverse Discrete Sine Transform of an array along one axis.",
    "dctn": "Return the multidimensional Discrete Cosine Transform along the given axes.",
    "idctn": "Return the multidimensional inverse Discrete Cosine Transform.",
    "dstn": "Return the multidimensional Discrete Sine Transform along the given axes.",
    "idstn": "Return the multidimensional inverse Discrete Sine Transform.",
}


def _fill_docs():
    g = globals()
    for name, summary in _SUMMARY.items():
        fam = "DCT" if "dct" in name else "DST"
        inverse = name.startswith("i")
        base = name[1:] if inverse else name
        fwd, inv = base, "i" + base
        nd = name.endswith("n")
        typenote = (" The inverse of type 2 is type 3 and vice versa; types 1 and 4 are their "
                    "own inverses (up to scale)." if inverse else "")
        others = [o for o in (fwd, inv) if o != name]
        see_also = "\n".join([f"{o} : The {'inverse' if not inverse else 'forward'} transform."
                              for o in others] + [f"scipy.fft.{name} : The reference."])
        template = _DOC_ND if nd else _DOC_1D
        g[name].__doc__ = template.format(
            summary=summary, name=name, fam=fam, typenote=typenote, fwd=fwd, inv=inv,
            common=_COMMON_PARAMS.format(), see_also=see_also)


_fill_docs()
