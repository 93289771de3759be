# SPDX-License-Identifier: BSD-3-Clause
"""dctx.electrostatics and DREAMPlace's transforms against a NumPy transcription of the published
algorithm (Lin et al., DAC 2019; DREAMPlace's electric_potential and discrete_spectral_transform):
its DCT through scipy.fft, its inverse transforms through numpy.fft as the paper's code forms
them (idxt: multiply by 2 exp(i pi u / 2N), zero-pad to 2N, inverse FFT, times N), on random
densities and on a synthetic placement."""

import math

import numpy as np
import pytest

import dctx
from conftest import EPS, tolerance
from dreamplace_reference import idxt, synthetic_placement, transcription


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
    bound = tolerance(dtype, density.size)
    for g, w in zip(got[:3], want[:3]):
        assert g.dtype == dtype and g.shape == shape
        assert rel(g, w) <= bound
    assert abs(got[3] - want[3]) <= bound * abs(want[3])
    # Without the potential: field_y's bits (field_x is computed on its own: with the potential,
    # the CPU shares the potential's pass along v with it), the same Parseval energy.
    fast = dctx.electrostatics(density, (bw, bh), potential=False)
    assert fast[0] is None
    assert rel(fast[1], want[1]) <= bound and np.array_equal(fast[2], got[2])
    assert fast[3] == got[3]


@pytest.mark.parametrize("fn,s0,s1", [(dctx.idcct2, False, False), (dctx.idxst_idct, True, False),
                                      (dctx.idct_idxst, False, True)])
def test_transforms_against_the_published_ones(fn, s0, s1):
    x = np.random.default_rng(3).uniform(-1, 1, (24, 17))
    want = idxt(idxt(x, s1, 1), s0, 0)
    assert rel(fn(x), want) <= tolerance(np.float64, x.size)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [1, 2, 7, 16, 33])
def test_dxst_kind_is_the_papers_idxst(n, dtype):
    """kind="dxst": type 3 is twice DREAMPlace's IDXST (its FFT transcription above), type 2 its
    transpose (the definition as a matrix), and the inverse plans swap them."""
    x = np.random.default_rng(n).uniform(-1, 1, (5, n)).astype(dtype)
    bound = 4 * EPS[np.dtype(dtype)] * math.log2(max(n, 2))
    k = np.arange(n)
    sin = np.sin(np.pi * np.outer(2 * k + 1, k) / (2 * n))    # sin(pi n (2k+1) / 2N), [k, n]
    want3 = 2 * idxt(x, True, 1)
    want2 = 2 * x.astype(np.float64) @ sin                     # y_k = 2 sum_n x_n sin(pi k (2n+1)/2N)
    for typ, want in ((3, want3), (2, want2)):
        got = dctx.Plan(x.shape, dtype, axes=-1, type=typ, kind="dxst")(x)
        assert got.dtype == dtype
        assert np.linalg.norm(got - want) <= bound * max(np.linalg.norm(want), 1e-300)
        inv = dctx.Plan(x.shape, dtype, axes=-1, type=5 - typ, kind="dxst", inverse=True)(x)
        assert np.linalg.norm(inv - want / (2 * n)) <= bound * max(np.linalg.norm(want) / n, 1e-300)
    with pytest.raises(ValueError, match="type 4 for dxst"):
        dctx.Plan((4,), kind="dxst", type=4)
    with pytest.raises(ValueError, match='kind must be "dct", "dst", "dxst" or "rdft"'):
        dctx.Plan((4,), kind="dxt")


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


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("potential", [True, False])
def test_out_arrays_receive_the_same_results(dtype, potential):
    """out= gets the bits of the allocating call, in strided views too, and is what returns."""
    rho = np.random.default_rng(3).uniform(0, 1, (12, 10)).astype(dtype)
    want = dctx.electrostatics(rho, (0.5, 2.0), potential=potential)
    base = np.full((3, 24, 20), np.nan, dtype)
    pot = base[0, ::2, ::2] if potential else None
    fx, fy = base[1, ::2, ::2], base[2, 1::2, 1::2]
    got = dctx.electrostatics(rho, (0.5, 2.0), potential=potential, out=(pot, fx, fy))
    assert got[0] is pot and got[1] is fx and got[2] is fy
    for g, w in zip(got[:3], want[:3]):
        if w is None:
            assert g is None
        else:
            np.testing.assert_array_equal(g, w)
    assert got[3] == want[3]
    assert np.isnan(base[1, 1::2]).all()  # the rows between the views are not written


def test_out_errors_name_the_problem():
    rho = np.random.default_rng(4).uniform(0, 1, (6, 8))
    ok = [np.empty((6, 8)) for _ in range(3)]
    ro = np.empty((6, 8))
    ro.flags.writeable = False
    cases = [
        (dict(out=ok[:2]), TypeError, r"out must be a tuple \(potential, field_x, field_y\)"),
        (dict(out=(None, ok[1], ok[2])), TypeError, "out's potential is None but potential=True"),
        (dict(out=tuple(ok), potential=False), ValueError,
         "with potential=False out's potential must be None"),
        (dict(out=(ok[0], ok[1].astype(np.float32), ok[2])), TypeError,
         "out's field_x must be a float64 NumPy array"),
        (dict(out=(ok[0], ok[1], np.empty((8, 6)))), ValueError,
         r"out's field_y has shape \(8, 6\) but density has \(6, 8\)"),
        (dict(out=(ro, ok[1], ok[2])), ValueError, "out's potential is read-only"),
        (dict(out=(ok[0], rho, ok[2])), ValueError, "field_x overlaps the density map"),
        (dict(out=(ok[0], ok[1], ok[1])), ValueError, "field_x and field_y overlap"),
    ]
    for kw, error, match in cases:
        with pytest.raises(error, match=match):
            dctx.electrostatics(rho, **kw)
    assert np.isfinite(rho).all()
