# SPDX-License-Identifier: BSD-3-Clause
"""dctx.blur and dctx.deblur against scipy.ndimage's convolution with mode="reflect" (the same
half-sample reflection) and a dense least-squares solve of the Tikhonov problem."""

import numpy as np
import pytest
import scipy.ndimage as ndi

import dctx
from conftest import tolerance


def gaussian(sigma, radius):
    i = np.arange(-radius, radius + 1)
    g = np.exp(-(i[:, None] ** 2 + i[None, :] ** 2) / (2 * sigma * sigma))
    return g / g.sum()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(32, 40), (9, 17)])
def test_blur_is_the_reflective_convolution(dtype, shape):
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 255, shape).astype(dtype)
    for psf, weights in [("gaussian:1.5", gaussian(1.5, 5)),
                         (np.array([[1, 2, 1], [4, 5, 4], [1, 2, 1]]) / 21.0, None)]:
        w = weights if weights is not None else psf
        want = ndi.convolve(x.astype(np.float64), w, mode="reflect")
        got = dctx.blur(x, psf)
        assert got.dtype == dtype and got.shape == shape
        err = np.linalg.norm(got - want) / np.linalg.norm(want)
        assert err <= tolerance(dtype, x.size)


def test_deblur_inverts_and_matches_a_dense_tikhonov_solve():
    rng = np.random.default_rng(1)
    shape = (12, 10)
    x = rng.uniform(0, 1, shape)
    psf = "gaussian:0.7"
    assert np.allclose(dctx.deblur(dctx.blur(x, psf), psf), x, atol=1e-12)
    # The dense blur matrix, column by column, and the normal equations.
    n = x.size
    a = np.empty((n, n))
    for k in range(n):
        e = np.zeros(n)
        e[k] = 1
        a[:, k] = ndi.convolve(e.reshape(shape), gaussian(0.7, 3), mode="reflect").ravel()
    b = rng.uniform(0, 1, shape)
    for alpha in [1e-3, 0.1]:
        want = np.linalg.solve(a.T @ a + alpha * np.eye(n), a.T @ b.ravel()).reshape(shape)
        assert np.allclose(dctx.deblur(b, psf, alpha), want, rtol=0, atol=1e-10)


def test_restoration_raises_psnr():
    rng = np.random.default_rng(2)
    yy, xx = np.mgrid[0:64, 0:64]
    img = 128 + 100 * np.sin(xx / 3.0) * np.cos(yy / 5.0)  # detail that blurring removes
    blurred = dctx.blur(img, "gaussian:1.5") + rng.normal(0, 0.5, img.shape)
    restored = dctx.deblur(blurred, "gaussian:1.5", alpha=1e-3)

    def psnr(a):
        return 10 * np.log10(255.0 ** 2 / np.mean((a - img) ** 2))
    assert psnr(restored) > psnr(blurred) + 3


@pytest.mark.parametrize("call,error,match", [
    (lambda x: dctx.blur(x, "box:3"), ValueError, "dctx.blur: invalid PSF 'box:3'"),
    (lambda x: dctx.blur(x, np.ones((2, 3))), ValueError, "both sides must be odd"),
    (lambda x: dctx.blur(x, np.array([[1.0, 2.0, 3.0]])), ValueError, "not symmetric"),
    (lambda x: dctx.blur(x, np.ones(3)), ValueError, "psf must be a 2D array"),
    (lambda x: dctx.blur(x[0], "gaussian:1"), ValueError, "must be 2D"),
    (lambda x: dctx.blur(x.astype(complex), "gaussian:1"), TypeError, "must be real"),
    (lambda x: dctx.deblur(x, "gaussian:1", alpha=-1), ValueError, "alpha must be finite"),
    (lambda x: dctx.deblur(x, "gaussian:1", alpha="0"), TypeError, "alpha must be a number"),
    (lambda x: dctx.deblur(x, np.array([[0.5, 0.0, 0.5]])), ValueError, "singular"),
    (lambda x: dctx.blur(x, "gaussian:4"), ValueError, "half-size must be below"),
])
def test_errors_name_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call(np.ones((8, 8)))
