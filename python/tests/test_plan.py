# SPDX-License-Identifier: BSD-3-Clause
"""dctx.Plan: build once, call many times, from several threads at once."""

import pickle
import threading

import numpy as np
import pytest

import dctx
from conftest import assert_close, random_array, scipy_reference


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("kind,inverse,name", [("dct", False, "dctn"), ("dct", True, "idctn"),
                                               ("dst", False, "dstn"), ("dst", True, "idstn")])
def test_plan_matches_functions(dtype, kind, inverse, name, rng):
    p = dctx.Plan((6, 10), dtype, type=3, norm="ortho", kind=kind, inverse=inverse)
    for _ in range(3):
        x = random_array(rng, (6, 10), dtype)
        y = p(x)
        assert y.dtype == np.dtype(dtype) and y.flags.c_contiguous
        assert_close(y, scipy_reference(name, x, type=3, norm="ortho"), dtype, 60)


def test_plan_axes_out_and_layouts(rng):
    p = dctx.Plan((5, 7, 4), np.float64, axes=(0, -1), type=2, norm="forward")
    x = random_array(rng, (5, 7, 4), np.float64)
    ref = scipy_reference("dctn", x, axes=(0, 2), norm="forward")
    out = np.full((4, 7, 5), np.nan).T  # Fortran-ordered output
    assert p(x, out=out) is out
    assert_close(out, ref, np.float64, 20)
    xr = np.ascontiguousarray(x[::-1, :, ::-1])[::-1, :, ::-1]  # negative strides in
    assert_close(p(xr), ref, np.float64, 20)
    inplace = x.copy()
    assert p(inplace, out=inplace) is inplace
    assert_close(inplace, ref, np.float64, 20)
    assert p.axes == (0, 2) and p.shape == (5, 7, 4) and p.dtype == np.float64
    assert "Plan" in repr(p) and isinstance(p.describe(), str)


def test_plan_rejects_mismatches(rng):
    p = dctx.Plan((4, 4), np.float32)
    with pytest.raises(ValueError, match="shape"):
        p(np.ones((4, 5), np.float32))
    with pytest.raises(TypeError, match="dtype"):
        p(np.ones((4, 4), np.float64))
    with pytest.raises(ValueError, match="out"):
        ro = np.ones((4, 4), np.float32)
        ro.flags.writeable = False
        p(np.ones((4, 4), np.float32), out=ro)
    with pytest.raises(TypeError):
        p([[1, 2], [3, 4]])
    with pytest.raises(TypeError):
        dctx.Plan((4,), np.int32)
    with pytest.raises(ValueError):
        dctx.Plan((4,), kind="fft")
    with pytest.raises(ValueError):
        dctx.Plan((4,), type=5)
    with pytest.raises(ValueError):
        dctx.Plan((0, 4))
    with pytest.raises(ValueError):
        dctx.Plan((1, 4), type=1)
    if not any(b["name"] == "cuda" and b["usable"] for b in dctx.backends()):
        with pytest.raises(ValueError, match="backend"):  # no device: a clear error
            dctx.Plan((4,), backend="cuda")
    with pytest.raises(ValueError):
        dctx.Plan((4, 4), axes=(0, 0))


def test_plan_backend_keyword():
    x = np.arange(8.0)
    for b in ("cpu", "auto", None):
        np.testing.assert_allclose(dctx.Plan((8,), backend=b)(x), dctx.dct(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_plan_from_many_threads(dtype):
    """One plan, eight threads, each checking its own results against a serial reference."""
    shape = (64, 48)
    p = dctx.Plan(shape, dtype, norm="ortho")
    rng = np.random.default_rng(7)
    inputs = [random_array(rng, shape, dtype) for _ in range(8)]
    expected = [p(x) for x in inputs]
    errors = []
    barrier = threading.Barrier(8)

    def work(i):
        try:
            barrier.wait()
            out = np.empty(shape, dtype)
            for _ in range(30):
                p(inputs[i], out=out)
                if not np.array_equal(out, expected[i]):
                    errors.append(i)
                    return
        except Exception as e:  # pragma: no cover - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_functions_from_many_threads():
    """The module functions share the plan cache; concurrent callers must not interfere."""
    rng = np.random.default_rng(3)
    shapes = [(8, 8), (16, 16), (9, 13), (32, 8)]
    inputs = [random_array(rng, s, np.float32) for s in shapes * 2]
    expected = [dctx.dctn(x, norm="ortho") for x in inputs]
    errors = []

    def work(i):
        for _ in range(50):
            if not np.array_equal(dctx.dctn(inputs[i], norm="ortho"), expected[i]):
                errors.append(i)
                return

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_plan_mismatch_messages_name_both():
    p = dctx.Plan((4, 4), np.float32)
    x = np.ones((4, 4), np.float32)
    with pytest.raises(ValueError) as e:
        p(np.ones((4, 5), np.float32))
    assert str(e.value) == "dctx.Plan: x has shape (4, 5) but the plan was made for (4, 4)"
    with pytest.raises(TypeError) as e:
        p(np.ones((4, 4), np.float64))
    assert str(e.value) == "dctx.Plan: x has dtype float64 but the plan was made for float32"
    with pytest.raises(TypeError) as e:
        p(np.ones((4, 4), np.int32))
    assert str(e.value) == "dctx.Plan: x has dtype int32 but the plan was made for float32"
    with pytest.raises(ValueError) as e:
        p(x, out=np.ones((2, 4, 4), np.float32))
    assert str(e.value) == "dctx.Plan: out has shape (2, 4, 4) but the plan was made for (4, 4)"
    with pytest.raises(TypeError) as e:
        p(x, out=np.ones((4, 4), np.complex64))
    assert str(e.value) == "dctx.Plan: out has dtype complex64 but the plan was made for float32"
    with pytest.raises(ValueError) as e:
        dctx.Plan(8)(np.ones((8, 1)))
    assert str(e.value) == "dctx.Plan: x has shape (8, 1) but the plan was made for (8,)"
    ro = np.ones((4, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="^dctx.Plan: out is read-only$"):
        p(x, out=ro)


PICKLE_PLANS = [
    dict(shape=(6, 10)),
    dict(shape=(6, 10), dtype=np.float32, type=3, norm="ortho", kind="dst", inverse=True),
    dict(shape=(5, 7, 4), dtype=np.complex64, axes=(0, -1), norm="forward", workers=2),
    dict(shape=9, dtype=np.complex128, type=1, norm="ortho", orthogonalize=False),
    dict(shape=(8, 8), dtype=np.float64, type=4, kind="dst", backend="auto", workers=-1),
    dict(shape=(3, 4), dtype="float32", axes=1, type=2, norm="backward", orthogonalize=True,
         inverse=False, workers=None, backend="cpu"),
]


@pytest.mark.parametrize("kw", PICKLE_PLANS, ids=range(len(PICKLE_PLANS)))
def test_plan_pickles_and_copies(kw, rng):
    import copy
    import pickle

    p = dctx.Plan(**kw)
    x = random_array(rng, p.shape, p.dtype)
    y = p(x)
    copies = [pickle.loads(pickle.dumps(p, protocol=proto))
              for proto in range(pickle.HIGHEST_PROTOCOL + 1)]
    copies += [copy.deepcopy(p), copy.copy(p)]
    for q in copies:
        assert isinstance(q, dctx.Plan)
        assert (q.shape, q.dtype, q.axes, q.backend) == (p.shape, p.dtype, p.axes, p.backend)
        assert repr(q) == repr(p) and q.describe() == p.describe()
        assert q.__reduce__() == p.__reduce__()
        assert np.array_equal(q(x), y)


def test_plan_pickle_keeps_the_request():
    """workers=-1 and backend="auto" travel as asked, so another machine resolves them itself."""
    import pickle

    p = dctx.Plan((4, 4), workers=-1, backend="auto", norm="ortho", orthogonalize=False)
    cls, args = p.__reduce__()[:2]
    assert cls is dctx.Plan
    q = cls(*args)
    assert repr(q) == repr(p)
    assert "workers=-1" in repr(p) and "backend='auto'" in repr(p)
    assert "orthogonalize=False" in repr(p)
    assert pickle.loads(pickle.dumps(p)).__reduce__() == p.__reduce__()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape,axes", [((48, 40), None), ((8, 8), None), ((5, 30), (-1,))])
def test_threshold_equals_a_separate_pass(dtype, shape, axes):
    """threshold= (Algorithm 3, fused): a forward plan's outputs, an inverse plan's inputs, the
    same values as numpy's y[abs(y) < t] = 0 around the plain plan, bit for bit."""
    rng = np.random.default_rng(len(shape) + shape[0])
    x = rng.uniform(-1, 1, shape).astype(dtype)
    if np.iscomplexobj(x):
        x = x + 1j * rng.uniform(-1, 1, shape)

    def zero_below(a, t):
        a = a.copy()
        if np.iscomplexobj(a):
            a.real[np.abs(a.real) < t] = 0
            a.imag[np.abs(a.imag) < t] = 0
        else:
            a[np.abs(a) < t] = 0
        return a

    t = 0.5
    fwd = dctx.Plan(shape, dtype, axes=axes, norm="ortho")
    inv = dctx.Plan(shape, dtype, axes=axes, norm="ortho", inverse=True)
    want_f, want_i = zero_below(fwd(x), t), inv(zero_below(x, t))
    got_f = dctx.Plan(shape, dtype, axes=axes, norm="ortho", threshold=t)(x)
    before = x.copy()
    tinv = dctx.Plan(shape, dtype, axes=axes, norm="ortho", inverse=True, threshold=t)
    got_i = tinv(x)
    assert np.array_equal(got_f, want_f) and np.array_equal(got_i, want_i)
    assert np.array_equal(x, before)
    assert np.count_nonzero(got_f == 0) > 0
    assert "zeroed" in tinv.describe()
    again = pickle.loads(pickle.dumps(tinv))
    assert np.array_equal(again(x), got_i) and "threshold=0.5" in repr(again)


@pytest.mark.parametrize("bad,error,match", [
    (-1.0, ValueError, "threshold must be finite and >= 0"),
    (float("nan"), ValueError, "threshold must be finite and >= 0"),
    ("0.5", TypeError, "threshold must be a number"),
    (True, TypeError, "threshold must be a number"),
])
def test_threshold_errors(bad, error, match):
    with pytest.raises(error, match=match):
        dctx.Plan((8,), threshold=bad)


def _halfcomplex(X, n):
    """numpy.fft.rfft's spectrum in FFTW's halfcomplex order (R2HC), along the last axis."""
    h = np.concatenate([X.real, X.imag[..., 1:(n + 1) // 2][..., ::-1]], axis=-1)
    return h[..., :n]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 12, 17, 64, 97, 100, 256, 1000])
def test_rdft_is_numpys_rfft_in_halfcomplex_order(dtype, n, rng):
    x = random_array(rng, (3, n), dtype)
    want = _halfcomplex(np.fft.rfft(x.astype(np.float64), axis=-1), n)
    for norm, scale in ((None, 1.0), ("ortho", n ** -0.5), ("forward", 1.0 / n)):
        got = dctx.Plan(x.shape, dtype, axes=-1, kind="rdft", type=2, norm=norm)(x)
        assert got.dtype == dtype
        assert_close(got, want * scale, dtype, 60)
    # HC2R (type 3) is the unnormalised inverse: n x.
    back = dctx.Plan(x.shape, dtype, axes=-1, kind="rdft", type=3)(want.astype(dtype))
    assert_close(back, n * x.astype(np.float64), dtype, 60)
    # The inverse plan (HC2R with 1/n) gives x back.
    inv = dctx.Plan(x.shape, dtype, axes=-1, kind="rdft", type=2, inverse=True)
    assert_close(inv(want.astype(dtype)), x, dtype, 60)


def test_rdft_on_several_axes_beside_a_dct(rng):
    """A separable R2HC on axes 0 and 2 with a DCT-II on axis 1, through numpy and scipy."""
    import scipy.fft
    x = random_array(rng, (6, 7, 9), np.float64)
    want = scipy.fft.dct(x, type=2, axis=1)
    want = np.moveaxis(_halfcomplex(np.fft.rfft(np.moveaxis(want, 0, -1), axis=-1), 6), -1, 0)
    want = _halfcomplex(np.fft.rfft(want, axis=-1), 9)
    for axis in (0, 2):
        x1 = dctx.Plan(x.shape, np.float64, axes=axis, kind="rdft")(x)
        assert_close(x1, np.moveaxis(_halfcomplex(np.fft.rfft(np.moveaxis(x, axis, -1)),
                                                  x.shape[axis]), -1, axis), np.float64, 20)
    y = dctx.Plan(x.shape, np.float64, axes=1, kind="dct")(x)
    y = dctx.Plan(x.shape, np.float64, axes=(0, 2), kind="rdft")(y)
    assert_close(y, want, np.float64, 40)
    with pytest.raises(ValueError, match="type 4 for rdft"):
        dctx.Plan((4,), kind="rdft", type=4)
