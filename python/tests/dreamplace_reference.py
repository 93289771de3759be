# SPDX-License-Identifier: BSD-3-Clause
"""A NumPy transcription of DREAMPlace's electrostatic step (Lin et al., "DREAMPlace: Deep
Learning Toolkit-Enabled GPU Acceleration for Modern VLSI Placement", DAC 2019; its
electric_potential and discrete_spectral_transform): the DCT through scipy.fft, the inverse
transforms through numpy.fft as the paper's code forms them. The independent reference of the
Python and CLI tests of dctx's electrostatics; it does not import dctx."""

import math

import numpy as np
import scipy.fft as sf


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
