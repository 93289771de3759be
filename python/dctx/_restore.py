# SPDX-License-Identifier: BSD-3-Clause
"""Image restoration in the DCT domain: reflective-boundary blur and Tikhonov deblurring."""

import numbers

import numpy as np

from . import _dctx
from ._convert import _real_array


def _psf(psf, fn):
    """(rows, cols, weights) from "gaussian:SIGMA[:RADIUS]" or a 2D array of weights."""
    if isinstance(psf, str):
        return _dctx._parse_psf(psf, fn)
    try:
        a = np.asarray(psf, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: psf must be 'gaussian:SIGMA' or a 2D array of weights, "
                        f"not {type(psf).__name__}") from None
    if a.ndim != 2:
        raise ValueError(f"{fn}: psf must be a 2D array of weights, not {a.ndim}D")
    return a.shape[0], a.shape[1], a.ravel().tolist()


def blur(image, psf, *, workers=None):
    """The image blurred by a symmetric point-spread function with reflective boundaries.

    `psf` is "gaussian:SIGMA" (or "gaussian:SIGMA:RADIUS") or an odd-sized 2D array symmetric
    about its centre. float32 stays float32; other real dtypes are computed in float64. One
    forward and one inverse 2D DCT (Ng, Chan and Tang, SIAM J. Sci. Comput. 1999).
    """
    rows, cols, w = _psf(psf, "dctx.blur")
    return _dctx._restore(_real_array(image, "dctx.blur", "the image"), rows, cols, w, None, workers, "dctx.blur")


def deblur(image, psf, alpha=0.0, *, workers=None):
    """Tikhonov-regularised deblurring with reflective boundaries.

    Returns argmin |A x - image|^2 + alpha |x|^2 for the blur A of :func:`blur` with `psf`;
    alpha = 0 inverts A (refused when A is singular).
    """
    fn = "dctx.deblur"
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"{fn}: alpha must be a number, not {type(alpha).__name__}")
    rows, cols, w = _psf(psf, fn)
    return _dctx._restore(_real_array(image, fn, "the image"), rows, cols, w, float(alpha), workers, fn)
