# SPDX-License-Identifier: BSD-3-Clause
"""The 8x8 block engine: blockwise orthonormal DCTs of images and a JPEG-style round trip, after
the NVIDIA whitepaper by Anton Obukhov and Alexander Kharlamov, "Discrete Cosine Transform for 8x8
Blocks with CUDA" (2008)."""

import operator

import numpy as np

from . import _dctx
from ._convert import _refuse_device_array
from ._errors import DctxError

_KERNELS = ("auto", "reference", "fast", "int16")
_EDGES = ("error", "replicate")
_TABLES = ("nvidia", "jpeg", "luma", "chroma")
_JPEG_TABLES = ("nvidia", "jpeg")


def _show(value):
    """`value` for a message: its repr when short, else its type."""
    r = repr(value)
    return r if len(r) <= 40 else f"a {type(value).__name__}"


def _one_of(choices):
    quoted = [f'"{c}"' for c in choices]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _choice(value, name, choices, fn):
    """A string option; ValueError naming it and the choices otherwise (as scipy's `norm`)."""
    if isinstance(value, str) and value in choices:
        return value
    raise ValueError(f"dctx.{fn}: {name} must be {_one_of(choices)}, not {_show(value)}")


def _quality(quality, fn, default=None):
    """`quality` as an int in 1..100 (None: `default`, when there is one)."""
    if quality is None and default is not None:
        return default
    try:
        q = operator.index(quality)
    except TypeError:
        raise TypeError(f"dctx.{fn}: quality must be an integer in 1..100, not "
                        f"{_show(quality)}") from None
    if not 1 <= q <= 100:
        raise DctxError(f"dctx.{fn}: quality must lie in 1..100, got {q}")
    return q


def _flag(value, name, fn):
    """A bool argument: True, False or a number's truth value (numpy.bool_, 0, 1)."""
    if value is None or not hasattr(type(value), "__bool__") or isinstance(value, np.ndarray):
        raise TypeError(f"dctx.{fn}: {name} must be True or False, not {_show(value)}")
    return bool(value)


def _host_array(x, name, fn):
    """np.asarray(x), refusing None and device arrays with messages that name the argument."""
    _refuse_device_array(x)
    if x is None:
        raise TypeError(f"dctx.{fn}: {name} must be an array, not None")
    try:
        return np.asarray(x)
    except (TypeError, ValueError) as e:
        raise type(e)(f"dctx.{fn}: {name} must be an array, not {_show(x)}") from e


def _as_block_input(x, name, fn):
    a = _host_array(x, name, fn)
    if a.dtype in (np.float32, np.int16):
        return a
    if a.dtype.kind == "f" and a.dtype.itemsize <= 8:
        return a.astype(np.float32)
    what = a.dtype if isinstance(x, np.ndarray) or a.dtype != object else type(x).__name__
    extra = ", or uint8 samples" if fn == "block8" else ""
    raise TypeError(f"dctx.{fn}: {name} must be float32 or int16 data{extra}, not {what}")


def _table_entries(table, quality, fn):
    """64 quantizers, row-major, from a table name or an 8x8 array (scaled when a quality is
    given)."""
    if isinstance(table, str):
        _choice(table, "table", _TABLES, fn)
        return _dctx._quant_table(table, _quality(quality, fn, 50), f"dctx.{fn}")
    t = np.asarray(table)
    if t.shape not in ((8, 8), (64,)) or t.dtype.kind not in "iu":
        what = f"an array of {t.dtype} of shape {t.shape}" if t.ndim else _show(table)
        names = ", ".join(f'"{n}"' for n in _TABLES)
        raise ValueError(f"dctx.{fn}: table must be {names} or an 8x8 array of integers, "
                         f"not {what}")
    entries = [int(v) for v in t.reshape(64)]
    if quality is not None:  # libjpeg's scaling (dctx::quant_table_scaled), clamped to 1..255
        entries = _dctx._quant_table_scaled(entries, _quality(quality, fn), f"dctx.{fn}")
    return entries


def _block_options(kernel, edge, fn):
    return _choice(kernel, "kernel", _KERNELS, fn), _choice(edge, "edge", _EDGES, fn)


def block8(x, kernel="auto", edge="error", workers=None, table=None, quality=None,
           backend=None):
    """Forward orthonormal 2-D DCT-II of every 8x8 block of a plane or a batch of planes.

    Parameters
    ----------
    x : array_like
        A plane (rows, cols) or a batch (planes, rows, cols) of float32 or int16 samples (other
        float types are converted to float32), or uint8 samples with JPEG's level shift (the
        transform sees x - 128; float32 coefficients, or int16 levels with a table; the "fast"
        and "reference" kernels). Any strides.
    kernel : {"auto", "reference", "fast", "int16"}, optional
        "reference": by definition in double; "fast": Arai-Agui-Nakajima in float32 SIMD;
        "int16": Loeffler-Ligtenberg-Moschytz fixed point (int16 data). "auto" picks "fast"
        for float32 and "int16" for int16.
    edge : {"error", "replicate"}, optional
        Sides that are not multiples of 8: raise, or pad by repeating the last row/column (the
        output then has the padded shape).
    workers : int, optional
        Threads; negative values count back from the number of CPUs.
    backend : {"cpu", "opencl", "auto"}, optional
        The back end whose block engine runs (default None: "auto", the CPU); "opencl" copies
        the array to the device and back within the call.
    table : {"nvidia", "jpeg", "luma", "chroma"} or 8x8 array of int, optional
        Quantize in the same pass: return the int16 levels round(C / Q), half away from zero
        (the encoder's half of a JPEG-style codec). Names: "nvidia", the table of the NVIDIA
        whitepaper (Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with
        CUDA"); the ITU-T T.81 Annex K luminance ("jpeg", "luma") or chrominance ("chroma")
        table.
    quality : int, optional
        1..100, libjpeg scaling of `table` (default 50: named tables unchanged; arrays are used
        as given unless a quality is passed).

    Returns
    -------
    coeffs : ndarray
        Coefficients, same dtype as the (converted) input; int16 results are rounded and
        saturated. With `table`: int16 quantization levels.

    Raises
    ------
    ValueError
        For sides that are not multiples of 8 with ``edge="error"`` (the message suggests
        ``edge="replicate"``), an array that is not 2-D or 3-D, an unknown `kernel`, `edge` or
        `table`, a table entry outside 1..32767, a `quality` outside 1..100 or
        ``kernel="int16"`` on float32 data (:class:`dctx.DctxError` where the core refuses).
    TypeError
        For data other than float32, int16 (or other floats), for arrays in device memory, and
        for a `quality` or `workers` that is not an integer.

    Examples
    --------
    >>> import numpy as np, dctx, scipy.fft
    >>> x = np.random.default_rng(0).random((16, 16), dtype=np.float32)
    >>> c = dctx.block8(x)
    >>> np.allclose(c[:8, :8], scipy.fft.dctn(x[:8, :8], norm="ortho"), atol=1e-4)
    True
    """
    a = _host_array(x, "x", "block8")
    if a.dtype == np.uint8:  # JPEG's level shift: the transform sees x - 128
        kernel, edge = _block_options(kernel, edge, "block8")
        entries = [] if table is None else _table_entries(table, quality, "block8")
        if table is None and quality is not None:
            _quality(quality, "block8")
        return _dctx._block8_u8(a, False, entries, kernel, edge, workers, None, backend)
    a = _as_block_input(a, "x", "block8")
    kernel, edge = _block_options(kernel, edge, "block8")
    if table is not None:
        return _dctx._block8_quantized(a, False, _table_entries(table, quality, "block8"),
                                       kernel, edge, workers, None, False, backend)
    if quality is not None:
        _quality(quality, "block8")
    return _dctx._block8(a, False, kernel, edge, workers, None, backend)


def iblock8(c, kernel="auto", edge="error", shape=None, workers=None, table=None, quality=None,
            backend=None, dtype=None):
    """Inverse of :func:`block8`: orthonormal 2-D DCT-III of every 8x8 block.

    Parameters
    ----------
    c : array_like
        Coefficients (rows, cols) or (planes, rows, cols), float32 or int16.
    kernel : {"auto", "reference", "fast", "int16"}, optional
        As for :func:`block8`.
    edge : {"error", "replicate"}, optional
        With "replicate", `shape` may crop the output by up to 7 rows/columns (undoing the
        padding of ``block8(..., edge="replicate")``).
    shape : tuple of 2 ints, optional
        (rows, cols) of the output planes; default: those of `c`.
    workers : int, optional
        Threads; negative values count back from the number of CPUs.
    backend : {"cpu", "opencl", "auto"}, optional
        The back end whose block engine runs (default None: "auto", the CPU); "opencl" copies
        the array to the device and back within the call.
    table, quality : optional
        As for :func:`block8`: `c` holds int16 quantization levels, dequantized (times Q) in the
        same pass (the decoder's half). The samples are float32, or int16 with kernel="int16".

    dtype : None or "uint8", optional
        "uint8": 8-bit samples with JPEG's level shift (x + 128, rounded half up and clamped to
        0..255; the inverse of :func:`block8` on uint8 data), from float32 coefficients or,
        with a table, int16 levels; the "fast" and "reference" kernels.

    Returns
    -------
    samples : ndarray
        int16 results are rounded and saturated to [-256, 255].
    """
    if dtype is not None:
        try:
            want = np.dtype(dtype)
        except TypeError:
            want = None
        if want != np.uint8:
            raise ValueError(f'dctx.iblock8: dtype must be None or "uint8", not {_show(dtype)}')
        a = _host_array(c, "c", "iblock8")
        if table is None and a.dtype.kind == "f" and a.dtype.itemsize <= 8:
            a = a.astype(np.float32, copy=False)
        kernel, edge = _block_options(kernel, edge, "iblock8")
        entries = [] if table is None else _table_entries(table, quality, "iblock8")
        if table is None and quality is not None:
            _quality(quality, "iblock8")
        return _dctx._block8_u8(a, True, entries, kernel, edge, workers, shape, backend)
    if table is not None:
        a = _host_array(c, "c", "iblock8")
        if a.dtype != np.int16:
            what = a.dtype if isinstance(c, np.ndarray) or a.dtype != object else type(c).__name__
            raise TypeError(f"dctx.iblock8: with a table, c holds int16 quantization levels, "
                            f"not {what}")
        kernel, edge = _block_options(kernel, edge, "iblock8")
        return _dctx._block8_quantized(a, True, _table_entries(table, quality, "iblock8"),
                                       kernel, edge, workers, shape, kernel == "int16",
                                       backend)
    a = _as_block_input(c, "c", "iblock8")
    kernel, edge = _block_options(kernel, edge, "iblock8")
    if quality is not None:
        _quality(quality, "iblock8")
    return _dctx._block8(a, True, kernel, edge, workers, shape, backend)


def jpeg_roundtrip(image, table="nvidia", quality=50, kernel="auto", color=False, workers=None,
                   backend=None):
    """JPEG-style compression round trip of an 8-bit image; returns the image and its PSNR.

    Level shift by -128, forward 8x8 DCT, quantization and dequantization with `table`
    scaled by `quality`, inverse DCT, +128, rounding and clamping: the pipeline of the NVIDIA
    whitepaper (Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with CUDA").

    Parameters
    ----------
    image : array_like of uint8
        (rows, cols) gray, or (rows, cols, 3) RGB. Sides need not be multiples of 8.
    table : {"nvidia", "jpeg"}, optional
        The whitepaper's table (for every plane), or the ITU-T T.81 Annex K luminance and
        chrominance tables.
    quality : int, optional
        1..100, libjpeg scaling of the table; 50 leaves it unchanged.
    kernel : {"auto", "reference", "fast", "int16"}, optional
        The 8x8 kernel ("int16": the fixed-point path).
    color : bool, optional
        False: the luma pipeline (gray output). True: YCbCr, each plane through the pipeline,
        RGB output.
    workers : int, optional
        Threads; negative values count back from the number of CPUs.
    backend : {"cpu", "opencl", "auto"}, optional
        The back end whose block engine runs (default None: "auto", the CPU); "opencl" copies
        the array to the device and back within the call.

    Returns
    -------
    image : ndarray of uint8
        The reconstruction, (rows, cols) or (rows, cols, 3).
    psnr : float
        PSNR in dB against the original luma (gray) or RGB samples (color).
    """
    fn = "jpeg_roundtrip"
    a = _host_array(image, "image", fn)
    if a.dtype != np.uint8:
        what = a.dtype if isinstance(image, np.ndarray) or a.dtype != object \
            else type(image).__name__
        raise TypeError(f"dctx.jpeg_roundtrip: image must hold uint8 pixels, not {what}")
    return _dctx._jpeg_roundtrip(a, _choice(table, "table", _JPEG_TABLES, fn),
                                 _quality(quality, fn), _choice(kernel, "kernel", _KERNELS, fn),
                                 _flag(color, "color", fn), workers, backend)
