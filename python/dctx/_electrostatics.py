# SPDX-License-Identifier: BSD-3-Clause
"""DREAMPlace's electrostatic system and its transforms (docs/electrostatics.md)."""

import numbers

import numpy as np

from . import _cuda, _dctx
from ._convert import _real_array as _real


def idcct2(x, *, workers=None):
    """y[u, v] = sum_p sum_q x[p, q] cos(pi p (2u+1) / 2M) cos(pi q (2v+1) / 2N)."""
    return _dctx._dream_transform(_real(x, "dctx.idcct2", "x"), 0, workers, "dctx.idcct2")


def idxst_idct(x, *, workers=None):
    """y[u, v] = sum_p sum_q x[p, q] sin(pi p (2u+1) / 2M) cos(pi q (2v+1) / 2N)."""
    return _dctx._dream_transform(_real(x, "dctx.idxst_idct", "x"), 1, workers,
                                  "dctx.idxst_idct")


def idct_idxst(x, *, workers=None):
    """y[u, v] = sum_p sum_q x[p, q] cos(pi p (2u+1) / 2M) sin(pi q (2v+1) / 2N)."""
    return _dctx._dream_transform(_real(x, "dctx.idct_idxst", "x"), 2, workers,
                                  "dctx.idct_idxst")


def electrostatics(density, bin_size=(1.0, 1.0), *, potential=True, workers=None, backend=None,
                   out=None):
    """One electrostatic step of DREAMPlace on a bin density map.

    Returns ``(potential, field_x, field_y, energy)`` as DREAMPlace's ElectricPotential
    computes them (Lin et al., DAC 2019): the map divided by the bin area, its 2D DCT
    a[u, v], the weights 1/(w_u^2 + w_v^2) with w_u = 2 pi u / M, w_v = 2 pi v / N (zero at
    (0, 0)), the potential idcct2(a / (w_u^2 + w_v^2)), the fields
    idxst_idct(a w_u / (w_u^2 + w_v^2) / 2) and idct_idxst(a w_v / ... / 2), and the energy
    sum(potential * density / bin area), computed from the coefficients by Parseval's relation
    (equal up to rounding). With ``potential=False`` the potential is not computed (None; one
    transform fewer).
    float32 stays float32; other real dtypes are computed in float64. ``backend`` ("cpu",
    "opencl", ...; default: the CPU) is where the step runs: on OpenCL all of it on the device
    (the density copied there once, each result copied back once), and on CUDA likewise for
    NumPy arrays.
    A CuPy array or PyTorch CUDA tensor of float32 or float64 runs the whole step on its device
    (dctx::cuda::electrostatics), enqueued on that library's current stream: the results are
    arrays of the same library on the same device, and the energy is a 0-d float64 array in
    Parseval's form (equal to the sum above up to rounding), so that no call waits for the GPU.
    ``out=(potential, field_x, field_y)`` (NumPy arrays of the step's dtype and the density's
    shape, writable, separate from the density and from each other; ``potential`` None with
    ``potential=False``) receives the results instead of new arrays and comes back in the
    returned tuple: a placer that calls the step every iteration reuses its buffers.
    """
    fn = "dctx.electrostatics"
    try:
        bw, bh = bin_size
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: bin_size must be a pair (width, height), "
                        f"not {bin_size!r}") from None
    for b in (bw, bh):
        if isinstance(b, bool) or not isinstance(b, numbers.Real):
            raise TypeError(f"{fn}: bin_size must be two numbers, not {bin_size!r}")
    if out is not None:
        if not isinstance(out, tuple) or len(out) != 3:
            raise TypeError(f"{fn}: out must be a tuple (potential, field_x, field_y), "
                            f"not {type(out).__name__}")
        if potential and out[0] is None:
            raise TypeError(f"{fn}: out's potential is None but potential=True")
        if not potential and out[0] is not None:
            raise ValueError(f"{fn}: with potential=False out's potential must be None")
        if _cuda.is_cuda_array(density):
            raise TypeError(f"{fn}: out= takes NumPy arrays; a CUDA density gets new device "
                            "arrays")
    if _cuda.is_cuda_array(density):
        return _cuda.electrostatics(density, bw, bh, bool(potential), backend, fn)
    return _dctx._electrostatics(_real(density, fn, "density"), float(bw), float(bh),
                                 bool(potential), workers, backend, fn, out)
