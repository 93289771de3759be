# SPDX-License-Identifier: BSD-3-Clause
"""dctx.electrostatics and DREAMPlace's transforms against a NumPy transcription of the published
algorithm (Lin et al., DAC 2019; DREAMPlace's electric_potential and discrete_spectral_transform):
its DCT through scipy.fft, its inverse transforms through numpy.fft as the paper's code forms
them (idxt: multiply by 2 exp(i pi u / 2N), zero-pad to 2N, inverse FFT, times N), on random
densities and on a synthetic placement."""

import math

import numpy as np
import pytest
import scipy.fft as sf

import dctx

C = 1.0  # relative error <= C * eps * log2(N)
EPS = {np.dtype(np.float32): 1.19e-7, np.dtype(np.float64): 2.2e-16}


def idxt(x, sine, axis):
    """DREAMPlace's idxt along `axis`: y_k = sum_u x_u cos|sin(pi u (2k+1) / 2N)."""
    x = np.moveaxis(np.asarray(x, dtype=np.float64), axis, -1)
    n = x.shape[-1]
    expk = 2 * np.exp(1j * np.pi * np.arange(n) / (2 * n))
    padded = np.concatenate([x * expk, np.zeros_like(x)], axis=-1)
    y = np.fft.ifft(padded, axis=-1)[..., :n] * n
    return np.moveaxis(y.imag if sine else y.real, -1, axis)


def transcription(density, bw, bh):
    m, n = density.shape
    rho = density.astype(np.float64) / (bw * bh)
    auv = sf.dctn(rho, type=2) / (m * n)       # DREAMPlace's dct2: (2/N) sum ... per axis
    wu = (2 * np.pi / m * np.arange(m))[:, None]
    wv = (2 * np.pi / n * np.arange(n))[None, :]
    w2 = wu ** 2 + wv ** 2
    w2[0, 0] = 1.0
    inv = 1.0 / w2
    inv[0, 0] = 0.0
    potential = idxt(idxt(auv * inv, False, 1), False, 0)
    field_x = idxt(idxt(auv * wu * inv / 2, False, 1), True, 0)   # idxst_idct
    field_y = idxt(idxt(auv * wv * inv / 2, True, 1), False, 0)   # idct_idxst
    return potential, field_x, field_y, float((potential * rho).sum())


def synthetic_placement(m, n, cells, rng):
    """Rectangular cells of random sizes at random places, their overlap with each bin added up
    (as a density map is built), bins of 1 x 1."""
    d = np.zeros((m, n))
    for _ in range(cells):
        w, h = rng.uniform(0.5, 4, 2)
        x, y = rng.uniform(0, m - w), rng.uniform(0, n - h)
        for i in range(int(x), min(m, int(math.ceil(x + w)))):
            for j in range(int(y), min(n, int(math.ceil(y + h)))):
                d[i, j] += (min(i + 1, x + w) - max(i, x)) * (min(j + 1, y + h) - max(j, y))
    return d


def rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape,kind", [((64, 48), "random"), ((33, 20), "random"),
                                        ((64, 64), "placement")])
def test_against_the_published_algorithm(shape, kind, dtype):
    rng = np.random.default_rng(sum(shape))
    density = (rng.uniform(0, 1, shape) if kind == "random"
               else synthetic_placement(*shape, 300, rng)).astype(dtype)
    bw, bh = 2.0, 0.5
    want = transcription(density, bw, bh)
    got = dctx.electrostatics(density, (bw, bh))
    bound = C * EPS[np.dtype(dtype)] * math.log2(density.size)
    for g, w in zip(got[:3], want[:3]):
        assert g.dtype == dtype and g.shape == shape
        assert rel(g, w) <= bound
    assert abs(got[3] - want[3]) <= bound * abs(want[3])
    # Without the potential: the same fields, the energy by Parseval.
    fast = dctx.electrostatics(density, (bw, bh), potential=False)
    assert fast[0] is None
    assert np.array_equal(fast[1], got[1]) and np.array_equal(fast[2], got[2])
    assert abs(fast[3] - want[3]) <= bound * abs(want[3])


@pytest.mark.parametrize("fn,s0,s1", [(dctx.idcct2, False, False), (dctx.idxst_idct, True, False),
                                      (dctx.idct_idxst, False, True)])
def test_transforms_against_the_published_ones(fn, s0, s1):
    x = np.random.default_rng(3).uniform(-1, 1, (24, 17))
    want = idxt(idxt(x, s1, 1), s0, 0)
    assert rel(fn(x), want) <= C * EPS[np.dtype(np.float64)] * math.log2(x.size)


@pytest.mark.parametrize("call,error,match", [
    (lambda: dctx.electrostatics(np.ones(8)), ValueError, "density must be 2D"),
    (lambda: dctx.electrostatics(np.ones((4, 4)), (1, 0)), ValueError, "bin sizes must be"),
    (lambda: dctx.electrostatics(np.ones((4, 4)), 1.0), TypeError, "bin_size must be a pair"),
    (lambda: dctx.electrostatics(np.ones((4, 4)).astype(complex)), TypeError, "must be real"),
    (lambda: dctx.idxst_idct(np.ones((2, 2, 2))), ValueError, "x must be 2D"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
