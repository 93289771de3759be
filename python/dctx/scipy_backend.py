# SPDX-License-Identifier: BSD-3-Clause
"""A scipy.fft back end (uarray protocol) that runs scipy.fft's DCTs and DSTs on dctx.

Use it with ``scipy.fft.set_backend``::

    import scipy.fft, dctx
    with scipy.fft.set_backend(dctx.scipy_backend):
        y = scipy.fft.dct(x)            # dctx
        z = scipy.fft.fft(x)            # not a DCT/DST: scipy's own back end

or ``scipy.fft.set_global_backend(dctx.scipy_backend)``. CUDA arrays (CuPy arrays and PyTorch
CUDA tensors, through ``__cuda_array_interface__``) of float32 or float64 run on dctx's CUDA
back end when this build has one and a device is usable, with results of the same kind (as
``dctx.dctn`` and friends; ``s``/``n`` excepted). Calls dctx cannot serve (FFTs, long double,
CUDA arrays without a usable CUDA back end, other array libraries) return ``NotImplemented``
so scipy, or the next back end, takes them. ``workers=None`` follows ``scipy.fft.set_workers``.
"""

import numpy as _np

from . import _cuda
from . import _realtransforms as _rt
from ._convert import _is_long_double

__ua_domain__ = "numpy.scipy.fft"

_FUNCS = {name: getattr(_rt, name) for name in _rt.__all__}
_ACCEPTED_KINDS = frozenset("biufc")


def _get_workers():
    try:
        import scipy.fft
        return scipy.fft.get_workers()
    except Exception:  # pragma: no cover - scipy absent or too old
        return None


def _cuda_usable():
    from ._backends import backends
    return any(b["name"] == "cuda" and b["usable"] for b in backends())


def _cuda_serves(x, args, kwargs):
    """Whether dctx's CUDA back end takes this call on a CUDA array: a float32 or float64
    CuPy array or PyTorch tensor, no ``s``/``n``, and a usable CUDA back end."""
    if not _cuda.available() or type(x).__module__.split(".")[0] not in ("cupy", "torch"):
        return False
    typestr = x.__cuda_array_interface__.get("typestr")
    if typestr not in ("<f4", "<f8"):
        return False
    # s / n: the second positional argument of dct/dctn and friends, or a keyword.
    if (len(args) > 2 and args[2] is not None) or kwargs.get("n") is not None \
            or kwargs.get("s") is not None:
        return False
    return _cuda_usable()


def __ua_function__(method, args, kwargs):
    """uarray entry point: run `method` (a scipy.fft function) on dctx, or NotImplemented."""
    fn = _FUNCS.get(getattr(method, "__name__", None))
    if fn is None:
        return NotImplemented
    x = args[0] if args else kwargs.get("x")
    if isinstance(x, _np.ndarray):
        dt = x.dtype
    elif isinstance(x, (list, tuple, int, float, complex, _np.generic)):
        dt = _np.asarray(x).dtype
    elif _cuda.is_cuda_array(x):
        if not _cuda_serves(x, args, kwargs):
            return NotImplemented
        return fn(*args, **kwargs)
    else:
        return NotImplemented  # other array libraries: leave them to scipy's array-API path
    if dt.kind not in _ACCEPTED_KINDS or _is_long_double(dt):
        return NotImplemented
    if len(args) < 7 and kwargs.get("workers") is None:
        kwargs = dict(kwargs)
        kwargs["workers"] = _get_workers()
    return fn(*args, **kwargs)
