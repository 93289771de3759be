# SPDX-License-Identifier: BSD-3-Clause
"""Input conversion for the slow path: everything that is not already a float32, float64,
complex64 or complex128 array of native byte order in host memory."""

import numpy as np


def _asfarray(x):
    """Return ``(array, copied)``: `x` as an array dctx computes on, following scipy.fft's rules.

    float16 becomes float32; booleans, integers and other non-inexact types become float64;
    non-native byte order and unaligned data are copied. `copied` is True only when the array
    shares no memory with `x`, so that the caller may transform it in place.

    Raises
    ------
    TypeError
        For long double and complex long double, which dctx does not compute in.
    """
    if isinstance(x, (list, tuple)):
        y = np.asarray(x)
        if y.dtype.kind not in "fc" or y.dtype == np.float16:
            y = y.astype(np.float32 if y.dtype == np.float16 else np.float64)
        _refuse_long_double(y.dtype)
        return y, True
    a = x if hasattr(x, "dtype") else np.asarray(x)
    dt = a.dtype
    if dt == np.float16:
        y = np.asarray(a, np.float32)
    elif dt.kind not in "fc":
        y = np.asarray(a, np.float64)
    else:
        _refuse_long_double(dt)
        native = dt.newbyteorder("=")
        aligned = getattr(a, "flags", None) is None or a.flags["ALIGNED"]
        y = np.asarray(a, dtype=native) if aligned else np.array(a, dtype=native, copy=True)
    copied = y is not x and not np.may_share_memory(y, x)
    return y, copied


def _is_long_double(dt):
    return (dt.kind == "f" and dt.itemsize > 8) or (dt.kind == "c" and dt.itemsize > 16)


def _refuse_long_double(dt):
    if _is_long_double(dt):
        raise TypeError(
            f"dctx does not support dtype {dt} (long double); convert to float64, or use "
            "scipy.fft, which computes in long double")
