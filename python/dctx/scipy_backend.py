# SPDX-License-Identifier: BSD-3-Clause
"""A scipy.fft back end (uarray protocol) that runs scipy.fft's DCTs and DSTs on dctx.

Use it with ``scipy.fft.set_backend``::

    import scipy.fft, dctx
    with scipy.fft.set_backend(dctx.scipy_backend):
        y = scipy.fft.dct(x)            # dctx
        z = scipy.fft.fft(x)            # not a DCT/DST: scipy's own back end

or ``scipy.fft.set_global_backend(dctx.scipy_backend)``. Calls dctx cannot serve (FFTs,
long double, arrays that are not NumPy arrays) return ``NotImplemented`` so scipy falls back.
``workers=None`` follows ``scipy.fft.set_workers``.
"""

import numpy as _np

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
    else:
        return NotImplemented  # other array libraries: leave them to scipy's array-API path
    if dt.kind not in _ACCEPTED_KINDS or _is_long_double(dt):
        return NotImplemented
    if len(args) < 7 and kwargs.get("workers") is None:
        kwargs = dict(kwargs)
        kwargs["workers"] = _get_workers()
    return fn(*args, **kwargs)
