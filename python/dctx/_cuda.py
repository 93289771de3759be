# SPDX-License-Identifier: BSD-3-Clause
"""CUDA device arrays (CuPy arrays, PyTorch CUDA tensors) in the scipy.fft-style functions.

An array that exposes ``__cuda_array_interface__`` (version 2 or 3) runs on a CUDA plan without a
host copy: its pointer and strides go to the plan, which enqueues the transform on the array
library's current stream, and the result is a new array of the same library on the same device.
Plans are cached by description. ``s``/``n`` crop or zero-pad as scipy.fft does: into a new
array of the same library (on its current stream), which the plan then transforms in place.
"""

import functools

import numpy as np

from . import _dctx
from ._plan import Plan

_DTYPES = {"<f4": np.dtype(np.float32), "<f8": np.dtype(np.float64)}
_KIND_NAMES = {0: "dct", 1: "dst"}


def is_cuda_array(x):
    """Whether `x` is an array in CUDA memory (not a NumPy array)."""
    return type(x) is not np.ndarray and hasattr(x, "__cuda_array_interface__")


@functools.lru_cache(maxsize=64)
def _plan(shape, dtype, axes, type, norm, kind, inverse, orthogonalize):
    return Plan(shape, dtype, axes=axes, type=type, norm=norm, kind=kind, inverse=inverse,
                orthogonalize=orthogonalize, backend="cuda")


def _module_of(x):
    mod = type(x).__module__.split(".")[0]
    if mod not in ("cupy", "torch"):
        raise TypeError(f"x is a CUDA array of {type(x).__module__}.{type(x).__name__}; dctx makes "
                        "its results as CuPy arrays or PyTorch tensors only (pass one of those)")
    return mod


def _new_like(x, mod, shape, dtype):
    if mod == "cupy":
        import cupy
        with cupy.cuda.Device(x.device.id):
            return cupy.empty(shape, dtype=dtype)
    import torch
    return torch.empty(shape, dtype=x.dtype, device=x.device)


def _current_stream(x, mod):
    if mod == "cupy":
        import cupy
        return cupy.cuda.get_current_stream().ptr
    import torch
    return torch.cuda.current_stream(x.device).cuda_stream


def transform_lengths(shape, n, axes, nd):
    """The transformed axes and their lengths (scipy.fft's rules for `n`/`axis` and `s`/`axes`),
    with the CPU path's checks and messages: the same C++ function answers both."""
    return _dctx._transform_lengths(tuple(shape), n, axes, nd)


def resized(x, shape, zeros):
    """`x` cropped or zero-padded to `shape` (scipy.fft's `s`/`n`): a new array from
    zeros(shape) with the common region copied in."""
    y = zeros(shape)
    region = tuple(slice(0, min(int(a), b)) for a, b in zip(x.shape, shape))
    y[region] = x[region]
    return y


def _zeros(x, mod, shape):
    if mod == "cupy":
        import cupy
        with cupy.cuda.Device(x.device.id):
            return cupy.zeros(shape, dtype=x.dtype)
    import torch
    return torch.zeros(shape, dtype=x.dtype, device=x.device)


def _geometry(x, fn):
    """dtype, shape, element strides and C-order strides of a CUDA array."""
    cai = x.__cuda_array_interface__
    typestr = cai["typestr"]
    if typestr not in _DTYPES:
        raise TypeError(f"{fn}: x on the GPU must be float32 or float64, not {typestr!r} "
                        f"({getattr(x, 'dtype', typestr)})")
    dtype = _DTYPES[typestr]
    shape = tuple(int(e) for e in cai["shape"])
    if not shape:
        raise ValueError(f"{fn}: x must have at least one axis")
    item = dtype.itemsize
    c = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        c[i] = c[i + 1] * shape[i + 1]
    if cai.get("strides") is None:
        strides = c
    else:
        if any(s % item for s in cai["strides"]):
            raise ValueError(f"{fn}: x has strides that are not whole elements")
        strides = [s // item for s in cai["strides"]]
    return dtype, shape, strides, c


def r2r(x, kind, inverse, type, n, axes, norm, workers, orthogonalize, nd, backend, fn):
    """The transform of a CUDA array `x` (arguments as dctx._dctx._r2r takes them)."""
    if backend not in (None, "auto", "cuda"):
        raise ValueError(f"{fn}: x is a CUDA array but backend={backend!r}; pass a NumPy array "
                         "for that back end, or backend='cuda'")
    del workers  # threads of the CPU back end
    mod = _module_of(x)
    dtype, shape, strides, c = _geometry(x, fn)
    ax, lens = transform_lengths(shape, n, axes, nd)
    if not ax:
        return x  # no axis to transform: x as it is, as scipy and the CPU path return it
    new_shape = list(shape)
    for a, v in zip(ax, lens):
        new_shape[a] = v
    new_shape = tuple(new_shape)
    t = 2 if type is None else int(type)
    p = _plan(new_shape, dtype, tuple(ax), t, norm, _KIND_NAMES[kind], bool(inverse),
              None if orthogonalize is None else bool(orthogonalize))
    stream = _current_stream(x, mod)
    if new_shape != shape:  # crop or pad into a new array, transformed in place
        out = resized(x, new_shape, lambda s: _zeros(x, mod, s))
        optr = int(out.__cuda_array_interface__["data"][0])
        _, _, _, c = _geometry(out, fn)
        p._p._call_cuda(optr, c, optr, c, stream)
        return out
    out = _new_like(x, mod, shape, dtype)
    ptr = int(x.__cuda_array_interface__["data"][0])
    optr = int(out.__cuda_array_interface__["data"][0])
    p._p._call_cuda(ptr, strides, optr, c, stream)
    return out


def available():
    """Whether this build passes CUDA arrays to CUDA plans."""
    return hasattr(_dctx._Plan, "_call_cuda")


def electrostatics(density, bw, bh, potential, backend, fn):
    """dctx.electrostatics on a CUDA array: the step on the device, enqueued on the array
    library's current stream; returns (potential or None, field_x, field_y, energy) as arrays of
    that library on its device, the energy a 0-d float64 array (no host synchronisation)."""
    if backend not in (None, "auto", "cuda"):
        raise ValueError(f"{fn}: density is a CUDA array but backend={backend!r}; pass a NumPy "
                         "array for that back end, or backend='cuda'")
    if not hasattr(_dctx, "_electrostatics_cuda"):
        raise ValueError(f"{fn}: this build of dctx has no CUDA back end for CUDA arrays")
    mod = _module_of(density)
    cai = density.__cuda_array_interface__
    typestr = cai["typestr"]
    if typestr not in _DTYPES:
        raise TypeError(f"{fn}: density on the GPU must be float32 or float64, not {typestr!r}")
    dtype = _DTYPES[typestr]
    shape = tuple(int(e) for e in cai["shape"])
    if len(shape) != 2:
        raise ValueError(f"{fn}: the bin grid is 2D, not of rank {len(shape)}")
    item = dtype.itemsize
    if cai.get("strides") is None:
        strides = [shape[1], 1]
    else:
        if any(s % item for s in cai["strides"]):
            raise ValueError(f"{fn}: density has strides that are not whole elements")
        strides = [s // item for s in cai["strides"]]
    fx = _new_like(density, mod, shape, dtype)
    fy = _new_like(density, mod, shape, dtype)
    pot = _new_like(density, mod, shape, dtype) if potential else None
    energy = _new_scalar_f64(density, mod)
    ptr = lambda a: int(a.__cuda_array_interface__["data"][0])  # noqa: E731
    _dctx._electrostatics_cuda(ptr(density), strides, shape[0], shape[1], dtype == np.float32,
                               ptr(pot) if pot is not None else 0, ptr(fx), ptr(fy), ptr(energy),
                               float(bw), float(bh), _current_stream(density, mod), fn)
    return pot, fx, fy, energy


def _new_scalar_f64(x, mod):
    if mod == "cupy":
        import cupy
        with cupy.cuda.Device(x.device.id):
            return cupy.empty((), dtype=cupy.float64)
    import torch
    return torch.empty((), dtype=torch.float64, device=x.device)
