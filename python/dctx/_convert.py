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
        For None, arrays in device memory (DLPack on a non-CPU device), long double and
        complex long double (which dctx does not compute in), and objects that are not numbers.
    ValueError
        For strings and other data numpy cannot read as numbers (as scipy.fft).
    """
    if x is None:  # (numpy would make it a 0-d nan)
        raise TypeError("x must be an array_like of numbers, not None")
    _refuse_device_array(x)
    if isinstance(x, (list, tuple)):
        y = _as_numbers(x, lambda: np.asarray(x))
        if y.dtype.kind not in "fc" or y.dtype == np.float16:
            y = _as_numbers(x, lambda: y.astype(np.float32 if y.dtype == np.float16
                                                else np.float64))
        _refuse_long_double(y.dtype)
        return y, True
    a = x if isinstance(getattr(x, "dtype", None), np.dtype) else \
        _as_numbers(x, lambda: np.asarray(x))
    dt = a.dtype
    if dt == np.float16:
        y = _as_numbers(x, lambda: np.asarray(a, np.float32))
    elif dt.kind not in "fc":
        y = _as_numbers(x, lambda: np.asarray(a, np.float64))
    else:
        _refuse_long_double(dt)
        native = dt.newbyteorder("=")
        aligned = getattr(a, "flags", None) is None or a.flags["ALIGNED"]
        y = _as_numbers(x, lambda: np.asarray(a, dtype=native) if aligned
                        else np.array(a, dtype=native, copy=True))
    copied = y is not x and not np.may_share_memory(y, x)
    return y, copied


def _is_long_double(dt):
    return (dt.kind == "f" and dt.itemsize > 8) or (dt.kind == "c" and dt.itemsize > 16)


def _refuse_long_double(dt):
    if _is_long_double(dt):
        raise TypeError(
            f"dctx does not support dtype {dt} (long double); convert to float64, or use "
            "scipy.fft, which computes in long double")


def _as_numbers(x, convert):
    """convert(), with numpy's conversion errors ("float() argument must be ...", "could not
    convert string to float") reworded to name the argument; the exception class is kept."""
    try:
        return convert()
    except (TypeError, ValueError) as e:
        if isinstance(x, np.ndarray) and x.dtype != object:
            msg = f"x must be an array_like of numbers, not an array of dtype {x.dtype}"
        elif isinstance(x, (list, tuple, np.ndarray)):
            msg = (f"x must be an array_like of numbers; this {type(x).__name__} holds an "
                   "element that is not a number")
        else:
            msg = f"x must be an array_like of numbers, not {type(x).__name__}"
        raise type(e)(msg) from e


# DLPack device types (DLDeviceType), as the lower-case names array libraries print.
_DLPACK_DEVICES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal",
                   9: "vpi", 10: "rocm", 11: "rocm_host", 12: "ext_dev", 13: "cuda_managed",
                   14: "oneapi", 15: "webgpu", 16: "hexagon", 17: "maia"}


def _device_of(x):
    """The DLPack device of `x` when it says it lives off the CPU ("cuda", ...), else None."""
    if isinstance(x, np.ndarray) or not hasattr(type(x), "__dlpack_device__"):
        return None
    try:
        kind = int(x.__dlpack_device__()[0])
    except Exception:  # noqa: BLE001 - not a DLPack producer after all: numpy will judge it
        return None
    if kind == 1:
        return None
    return _DLPACK_DEVICES.get(kind, f"device type {kind}")


def _refuse_device_array(x):
    """TypeError for an array in device memory, naming its device and this build's back ends."""
    device = _device_of(x)
    if device is not None:
        from . import _dctx
        built = [b["name"] for b in _dctx._backends() if b["built"]]
        raise TypeError(f"device arrays ({device}) are not supported by this build of dctx: its "
                        f"back ends are {built}; pass a NumPy array")


def _real_array(x, fn, what):
    """`x` as an ndarray for the spectral applications: float32 stays float32, other real
    dtypes become float64 (a float64 array as it is: the callers only read it); complex and
    other dtypes are a TypeError naming `what`."""
    a = np.asarray(x)
    if a.dtype != np.float32:
        if not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer)):
            raise TypeError(f"{fn}: {what} must be real, not {a.dtype}")
        a = a.astype(np.float64, copy=False)
    return a
