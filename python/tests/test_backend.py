# SPDX-License-Identifier: BSD-3-Clause
"""dctx.scipy_backend: the uarray protocol that routes scipy.fft's DCT/DST calls to dctx."""

import numpy as np
import pytest
import scipy.fft

import dctx
import dctx._realtransforms as rt
from conftest import FUNCS_1D, FUNCS_ND, assert_close, random_array, scipy_reference


def test_protocol_attributes():
    assert dctx.scipy_backend.__ua_domain__ == "numpy.scipy.fft"
    assert callable(dctx.scipy_backend.__ua_function__)


@pytest.mark.parametrize("name", FUNCS_1D + FUNCS_ND)
def test_set_backend_routes_to_dctx(name, monkeypatch, rng):
    calls = []
    orig = getattr(rt, name)

    def spy(*args, **kwargs):
        calls.append(name)
        return orig(*args, **kwargs)

    monkeypatch.setitem(dctx.scipy_backend._FUNCS, name, spy)
    x = random_array(rng, (6, 10), np.float32)
    with scipy.fft.set_backend(dctx.scipy_backend, only=True):
        y = getattr(scipy.fft, name)(x, type=3, norm="ortho")
    assert calls == [name]
    assert y.dtype == np.float32
    assert_close(y, scipy_reference(name, x, type=3, norm="ortho"), np.float32,
                 60 if name.endswith("n") else 10)


def test_keyword_and_positional_arguments(rng):
    x = random_array(rng, (5, 7), np.float64)
    with scipy.fft.set_backend(dctx.scipy_backend):
        a = scipy.fft.dct(x, 4, 9, 0, "forward")
        b = scipy.fft.dctn(x=x, type=1, s=(6, 8), axes=(0, 1), norm="ortho", workers=2,
                           orthogonalize=False)
    assert_close(a, scipy_reference("dct", x, type=4, n=9, axis=0, norm="forward"),
                 np.float64, 9)
    assert_close(b, scipy_reference("dctn", x, type=1, s=(6, 8), axes=(0, 1), norm="ortho",
                                    orthogonalize=False), np.float64, 48)


def test_falls_back_for_what_dctx_does_not_handle(rng):
    x = random_array(rng, (16,), np.float64)
    with scipy.fft.set_backend(dctx.scipy_backend):
        np.testing.assert_allclose(scipy.fft.fft(x), np.fft.fft(x))  # not a DCT: scipy's
        if np.dtype(np.longdouble).itemsize > 8:
            y = scipy.fft.dct(x.astype(np.longdouble))
            assert y.dtype == np.longdouble
    assert dctx.scipy_backend.__ua_function__(scipy.fft.fft, (x,), {}) is NotImplemented


def test_errors_propagate(rng):
    with scipy.fft.set_backend(dctx.scipy_backend, only=True):
        with pytest.raises(ValueError):
            scipy.fft.dct(np.ones(4), type=7)


def test_set_workers_is_followed(monkeypatch, rng):
    seen = []
    orig = rt.dctn

    def spy(*args, **kwargs):
        seen.append(kwargs.get("workers"))
        return orig(*args, **kwargs)

    monkeypatch.setitem(dctx.scipy_backend._FUNCS, "dctn", spy)
    x = random_array(rng, (32, 32), np.float64)
    with scipy.fft.set_backend(dctx.scipy_backend), scipy.fft.set_workers(2):
        scipy.fft.dctn(x)
    assert seen == [2]


def test_global_backend(rng):
    x = random_array(rng, (12,), np.float32)
    try:
        scipy.fft.set_global_backend(dctx.scipy_backend)
        y = scipy.fft.idst(x, type=2)
    finally:
        scipy.fft.set_global_backend("scipy")
    assert_close(y, scipy_reference("idst", x, type=2), np.float32, 12)
