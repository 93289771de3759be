# SPDX-License-Identifier: BSD-3-Clause
"""Shared tolerances, reference helpers and hypothesis settings for the dctx Python tests."""

import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# One constant for every accuracy check: relative L2 error <= C * eps * log2(N).
C = 2.0
EPS = {np.dtype(np.float32): 1.19e-7, np.dtype(np.float64): 2.2e-16}

settings.register_profile(
    "dctx", max_examples=int(os.environ.get("DCTX_HYPOTHESIS_EXAMPLES", "400")),
    derandomize=True, deadline=None, print_blob=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("dctx")

FUNCS_1D = ["dct", "idct", "dst", "idst"]
FUNCS_ND = ["dctn", "idctn", "dstn", "idstn"]


def real_dtype(dt):
    """The real dtype whose eps bounds the error of a result of dtype `dt`."""
    dt = np.dtype(dt)
    return np.dtype(np.float32) if dt in (np.float32, np.complex64) else np.dtype(np.float64)


def tolerance(dtype, n):
    """C * eps * log2(N) for a transform of N points in total (at least one log2 unit)."""
    return C * EPS[real_dtype(dtype)] * max(math.log2(max(n, 2)), 1.0)


def rel_l2(actual, expected):
    """Relative L2 error of `actual` against `expected` (complex aware, in float64)."""
    a = np.asarray(actual, dtype=np.complex128)
    e = np.asarray(expected, dtype=np.complex128)
    den = np.linalg.norm(e.ravel())
    num = np.linalg.norm((a - e).ravel())
    return num / den if den > 0 else num


def assert_close(actual, expected, dtype, n):
    """Assert matching shapes and a relative L2 error within tolerance(dtype, n)."""
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    err = rel_l2(actual, expected)
    tol = tolerance(dtype, n)
    assert err <= tol, f"relative L2 error {err:.3g} > {tol:.3g} (dtype {dtype}, N={n})"


def scipy_reference(name, x, **kw):
    """scipy.fft's result computed in double precision; complex parts transformed separately
    (scipy ignores `orthogonalize` for complex input, dctx honours it)."""
    import scipy.fft
    f = getattr(scipy.fft, name)
    a = np.asarray(x)
    if a.dtype.kind == "c":
        re = f(np.ascontiguousarray(a.real, dtype=np.float64), **kw)
        im = f(np.ascontiguousarray(a.imag, dtype=np.float64), **kw)
        return re + 1j * im
    return f(np.asarray(a, dtype=np.float64), **kw)


def random_array(rng, shape, dtype):
    """Random data of `dtype`, never all zero (integers in [-50, 50], booleans at least one)."""
    dt = np.dtype(dtype)
    size = int(np.prod(shape))
    if dt.kind == "b":
        a = rng.random(shape) < 0.5
        if size:
            a.flat[0] = True
        return a
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -50
        a = rng.integers(lo, 51, size=shape).astype(dt)
        if size:
            a.flat[0] = 7
        return a
    a = rng.standard_normal(shape)
    if dt.kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


@pytest.fixture
def rng():
    return np.random.default_rng(20240601)
