# SPDX-License-Identifier: BSD-3-Clause
"""The 8x8 block engine: blockwise orthonormal DCTs of images and a JPEG-style round trip."""

import numpy as np

from . import _dctx


def _as_block_input(x):
    a = np.asarray(x)
    if a.dtype in (np.float32, np.int16):
        return a
    if a.dtype.kind == "f" and a.dtype.itemsize <= 8:
        return a.astype(np.float32)
    raise TypeError(f"block8 works on float32 or int16 data, not {a.dtype} "
                    "(convert 8-bit images with x.astype(np.int16) - 128 or np.float32)")


def _table_entries(table, quality):
    """64 quantizers, row-major, from a table name or an 8x8 array (scaled when quality is given)."""
    if isinstance(table, str):
        return _dctx._quant_table(table, 50 if quality is None else int(quality))
    t = np.asarray(table)
    if t.shape not in ((8, 8), (64,)) or t.dtype.kind not in "iu":
        raise ValueError(f"a quantization table is an 8x8 array of integers, not {t.dtype} "
                         f"of shape {t.shape}")
    entries = [int(v) for v in t.reshape(64)]
    if quality is not None:  # libjpeg's scaling (dctx::quant_table_scaled), clamped to 1..255
        entries = _dctx._quant_table_scaled(entries, int(quality))
    return entries


def block8(x, kernel="auto", edge="error", workers=None, table=None, quality=None):
    """Forward orthonormal 2-D DCT-II of every 8x8 block of a plane or a batch of planes.

    Parameters
    ----------
    x : array_like
        A plane (rows, cols) or a batch (planes, rows, cols) of float32 or int16 samples (other
        float types are converted to float32). Any strides.
    kernel : {"auto", "reference", "fast", "int16"}, optional
        "reference": by definition in double; "fast": Arai-Agui-Nakajima in float32 SIMD;
        "int16": Loeffler-Ligtenberg-Moschytz fixed point (int16 data). "auto" picks "fast"
        for float32 and "int16" for int16.
    edge : {"error", "replicate"}, optional
        Sides that are not multiples of 8: raise, or pad by repeating the last row/column (the
        output then has the padded shape).
    workers : int, optional
        Threads; negative values count back from the number of CPUs.
    table : {"nvidia", "jpeg", "luma", "chroma"} or 8x8 array of int, optional
        Quantize in the same pass: return the int16 levels round(C / Q), half away from zero
        (the encoder's half of a JPEG-style codec). Names: NVIDIA's DCT8x8 table, the ITU-T T.81
        Annex K luminance ("jpeg", "luma") or chrominance table.
    quality : int, optional
        1..100, libjpeg scaling of `table` (default 50: named tables unchanged; arrays are used
        as given unless a quality is passed).

    Returns
    -------
    coeffs : ndarray
        Coefficients, same dtype as the (converted) input; int16 results are rounded and
        saturated. With `table`: int16 quantization levels.

    Examples
    --------
    >>> import numpy as np, dctx, scipy.fft
    >>> x = np.random.default_rng(0).random((16, 16), dtype=np.float32)
    >>> c = dctx.block8(x)
    >>> np.allclose(c[:8, :8], scipy.fft.dctn(x[:8, :8], norm="ortho"), atol=1e-4)
    True
    """
    if table is not None:
        return _dctx._block8_quantized(_as_block_input(x), False, _table_entries(table, quality),
                                       kernel, edge, workers, None, False)
    return _dctx._block8(_as_block_input(x), False, kernel, edge, workers, None)


def iblock8(c, kernel="auto", edge="error", shape=None, workers=None, table=None, quality=None):
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
    table, quality : optional
        As for :func:`block8`: `c` holds int16 quantization levels, dequantized (times Q) in the
        same pass (the decoder's half). The samples are float32, or int16 with kernel="int16".

    Returns
    -------
    samples : ndarray
        int16 results are rounded and saturated to [-256, 255].
    """
    if table is not None:
        a = np.asarray(c)
        if a.dtype != np.int16:
            raise TypeError(f"iblock8 with a table takes int16 quantization levels, not {a.dtype}")
        return _dctx._block8_quantized(a, True, _table_entries(table, quality), kernel, edge,
                                       workers, shape, kernel == "int16")
    return _dctx._block8(_as_block_input(c), True, kernel, edge, workers, shape)


def jpeg_roundtrip(image, table="nvidia", quality=50, kernel="auto", color=False, workers=None):
    """JPEG-style compression round trip of an 8-bit image; returns the image and its PSNR.

    Level shift by -128, forward 8x8 DCT, quantization and dequantization with `table`
    scaled by `quality`, inverse DCT, +128, rounding and clamping (NVIDIA's DCT8x8 pipeline).

    Parameters
    ----------
    image : array_like of uint8
        (rows, cols) gray, or (rows, cols, 3) RGB. Sides need not be multiples of 8.
    table : {"nvidia", "jpeg"}, optional
        NVIDIA's sample table, or the ITU-T T.81 Annex K luminance/chrominance tables.
    quality : int, optional
        1..100, libjpeg scaling of the table; 50 leaves it unchanged.
    kernel : {"auto", "reference", "fast", "int16"}, optional
        The 8x8 kernel ("int16": the fixed-point path).
    color : bool, optional
        False: the luma pipeline (gray output). True: YCbCr, each plane through the pipeline,
        RGB output.
    workers : int, optional
        Threads.

    Returns
    -------
    image : ndarray of uint8
        The reconstruction, (rows, cols) or (rows, cols, 3).
    psnr : float
        PSNR in dB against the original luma (gray) or RGB samples (color).
    """
    a = np.asarray(image)
    if a.dtype != np.uint8:
        raise TypeError(f"jpeg_roundtrip expects uint8 pixels, not {a.dtype}")
    return _dctx._jpeg_roundtrip(a, table, int(quality), kernel, bool(color), workers)
