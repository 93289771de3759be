# SPDX-License-Identifier: BSD-3-Clause
"""CUDA device arrays (``__cuda_array_interface__``: CuPy, PyTorch) in the scipy.fft-style
functions: routed to CUDA plans without a host copy when the build has the CUDA back end. Without
a GPU the routing and its argument checks are tested with a stand-in array; with one (CuPy or
PyTorch installed), the results against scipy.fft on the host."""

import re

import numpy as np
import pytest

import dctx
from dctx import _cuda

pytestmark = pytest.mark.skipif(not _cuda.available(), reason="this build has no CUDA back end")


def cuda_usable():
    return any(b["name"] == "cuda" and b["usable"] for b in dctx.backends())


class FakeCudaArray:
    """What CuPy's arrays look like to dctx: __cuda_array_interface__ (no memory behind it)."""

    def __init__(self, shape=(8, 8), typestr="<f4", strides=None):
        self.shape = tuple(shape)
        self.__cuda_array_interface__ = {"shape": self.shape, "typestr": typestr,
                                         "data": (0x1000, False), "strides": strides,
                                         "version": 3, "stream": 1}


FakeCudaArray.__module__ = "cupy._core.fake"  # a CuPy array, as far as dctx can tell


@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"])
def test_integer_arrays_are_refused_by_dtype(name):
    with pytest.raises(TypeError, match=f"dctx.{name}: x on the GPU must be float32 or float64"):
        getattr(dctx, name)(FakeCudaArray(typestr="<i2"))


@pytest.mark.parametrize("shape,s,axes", [
    ((6, 9), (4, 12), None), ((6, 9), (8,), None), ((6, 9), (3,), (0,)),
    ((5, 4, 7), (-1, 2), (2, 0)), ((5, 4, 7), (7, 4, 5), None), ((6, 9), (6, 9), None)])
def test_s_crops_and_pads_as_scipy(shape, s, axes):
    """The crop/pad of CUDA arrays (the same code, on NumPy arrays here) against scipy.fft's s."""
    import scipy.fft as sf
    x = np.random.default_rng(len(shape)).standard_normal(shape)
    ax, lens = _cuda.transform_lengths(shape, s, axes, True)
    new = list(shape)
    for a, v in zip(ax, lens):
        new[a] = v
    y = _cuda.resized(x, tuple(new), np.zeros)
    want = sf.dctn(x, s=s, axes=axes)
    np.testing.assert_allclose(sf.dctn(y, axes=ax), want, rtol=1e-13, atol=1e-12)
    # n of the 1D functions, along any axis.
    for axis, n in ((0, 3), (-1, 11), (1, 9)):
        ax, lens = _cuda.transform_lengths(shape, n, axis, False)
        new = list(shape)
        new[ax[0]] = lens[0]
        y = _cuda.resized(x, tuple(new), np.zeros)
        np.testing.assert_allclose(sf.dct(y, axis=ax[0]), sf.dct(x, n=n, axis=axis), rtol=1e-13,
                                   atol=1e-12)


@pytest.mark.parametrize("call,error,match", [
    (lambda: dctx.dctn(FakeCudaArray(), s=(4, 4, 4)), ValueError, "shape requires more axes"),
    (lambda: dctx.dctn(FakeCudaArray(), s=(4,), axes=(0, 1)), ValueError, "the same length"),
    (lambda: dctx.dctn(FakeCudaArray(), s=(4, 0)), ValueError, r"data points \(\[4, 0\]\)"),
    (lambda: dctx.dctn(FakeCudaArray(), s=(4,), axes=(2,)), ValueError, "axes exceeds"),
    (lambda: dctx.dct(FakeCudaArray(), n=0), ValueError, r"data points \(0\)"),
    (lambda: dctx.dct(FakeCudaArray(), n=2.5), TypeError, "n must be an integer, not float"),
    (lambda: dctx.dctn(FakeCudaArray(), axes=(0, 0)), ValueError, "all axes must be unique"),
    (lambda: dctx.dct(FakeCudaArray(), n=4, axis=3), ValueError, "axis 3 is out of bounds"),
])
def test_bad_s_and_n_are_refused_as_on_the_cpu(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("call,error", [
    (lambda x: dctx.dctn(x, s=(4, 12)), None), (lambda x: dctx.dctn(x, s=(4,), axes=()), None),
    (lambda x: dctx.dctn(x, s=(), axes=()), None), (lambda x: dctx.dctn(x, s=()), None),
    (lambda x: dctx.dctn(x, axes=[]), None), (lambda x: dctx.dstn(x, s=(-1, 3)), None),
    (lambda x: dctx.dct(x, n=5, axis=0), None), (lambda x: dctx.dctn(x, s=(4, 4, 4)), ValueError),
    (lambda x: dctx.dctn(x, s=(4,), axes=(0, 1)), ValueError),
    (lambda x: dctx.dctn(x, s=(4, 0)), ValueError), (lambda x: dctx.dctn(x, axes=(2,)), ValueError),
    (lambda x: dctx.dct(x, n=4, axis=-3), ValueError), (lambda x: dctx.dct(x, n=2.5), TypeError),
    (lambda x: dctx.dctn(x, s="ab"), ValueError)])
def test_axes_and_lengths_are_those_of_the_cpu_path(call, error, monkeypatch):
    """One C++ function decides the axes and lengths for NumPy and CUDA arrays: the CUDA path
    plans the shape of the CPU path's result, or raises its error with the same message."""
    class Planned(Exception):
        pass

    def record_plan(shape, dtype, axes, *rest):  # the CUDA plan the call would make
        raise Planned(tuple(shape), tuple(axes))

    monkeypatch.setattr(_cuda, "_plan", record_plan)
    x = np.random.default_rng(3).standard_normal((6, 9))
    try:
        want = call(x)
    except (ValueError, TypeError) as e:
        assert error is not None and isinstance(e, error), e
        with pytest.raises(type(e), match=re.escape(str(e))):
            call(FakeCudaArray(shape=(6, 9), typestr="<f8"))
        return
    assert error is None
    fake = FakeCudaArray(shape=(6, 9), typestr="<f8")
    if want is x:  # no axis transformed: the same array back, on either path
        assert call(fake) is fake
        return
    with pytest.raises(Planned) as planned:
        call(fake)
    shape, axes = planned.value.args
    assert shape == want.shape
    assert axes  # (an empty tuple would mean every axis to the core)


@pytest.mark.skipif(cuda_usable(), reason="this machine has a CUDA device")
def test_s_without_a_device_fails_before_any_copy():
    with pytest.raises(ValueError, match="no CUDA device"):  # not an ImportError of cupy
        dctx.dctn(FakeCudaArray(), s=(4, 12))


def test_another_backend_is_refused():
    with pytest.raises(ValueError, match="x is a CUDA array but backend='cpu'"):
        dctx.dctn(FakeCudaArray(), backend="cpu")


def test_partial_element_strides_are_refused():
    with pytest.raises(ValueError, match="strides that are not whole elements"):
        dctx.dctn(FakeCudaArray(strides=(34, 4)))


def test_other_libraries_are_named():
    class Other(FakeCudaArray):
        pass

    Other.__module__ = "numba.cuda"
    with pytest.raises(TypeError, match="CuPy arrays or PyTorch tensors only"):
        dctx.dctn(Other())


@pytest.mark.skipif(cuda_usable(), reason="this machine has a CUDA device")
def test_without_a_device_the_plan_says_why():
    with pytest.raises(ValueError, match="no CUDA device"):
        dctx.dctn(FakeCudaArray())


@pytest.mark.skipif(not cuda_usable(), reason="no CUDA device")
@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cupy_matches_scipy(name, dtype):
    cp = pytest.importorskip("cupy")
    scipy_fft = pytest.importorskip("scipy.fft")
    x = np.random.default_rng(1).standard_normal((48, 40)).astype(dtype)
    got = getattr(dctx, name)(cp.asarray(x), norm="ortho")
    assert isinstance(got, cp.ndarray)
    want = getattr(scipy_fft, name)(x, norm="ortho")
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.skipif(not cuda_usable(), reason="no CUDA device")
@pytest.mark.parametrize("name", ["dct", "idst", "dctn", "idctn"])
def test_cupy_s_and_n_match_scipy(name):
    cp = pytest.importorskip("cupy")
    scipy_fft = pytest.importorskip("scipy.fft")
    x = np.random.default_rng(3).standard_normal((48, 40))
    kw = {"s": (30, 64)} if name.endswith("n") else {"n": 57, "axis": 0}
    got = getattr(dctx, name)(cp.asarray(x), norm="ortho", **kw)
    assert isinstance(got, cp.ndarray)
    want = getattr(scipy_fft, name)(x, norm="ortho", **kw)
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-12, atol=1e-12)


@pytest.mark.skipif(not cuda_usable(), reason="no CUDA device")
def test_torch_matches_scipy():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    scipy_fft = pytest.importorskip("scipy.fft")
    x = np.random.default_rng(2).standard_normal((32, 24, 16))
    got = dctx.dctn(torch.from_numpy(x).cuda(), axes=(1, 2), norm="ortho")
    assert got.is_cuda
    np.testing.assert_allclose(got.cpu().numpy(), scipy_fft.dctn(x, axes=(1, 2), norm="ortho"),
                               rtol=1e-12, atol=1e-12)


def test_scipy_backend_leaves_what_it_cannot_serve():
    from dctx import scipy_backend
    scipy_fft = pytest.importorskip("scipy.fft")

    class Other(FakeCudaArray):
        pass

    Other.__module__ = "numba.cuda"
    ua = scipy_backend.__ua_function__
    assert ua(scipy_fft.dctn, (FakeCudaArray(typestr="<i2"),), {}) is NotImplemented
    assert ua(scipy_fft.dctn, (FakeCudaArray(),), {"s": (4, 4)}) is NotImplemented
    assert ua(scipy_fft.dct, (FakeCudaArray(), 2, 4), {}) is NotImplemented
    assert ua(scipy_fft.dctn, (Other(),), {}) is NotImplemented
    if not cuda_usable():  # a CuPy array, but no device to run it on
        assert ua(scipy_fft.dctn, (FakeCudaArray(),), {}) is NotImplemented


@pytest.mark.skipif(not cuda_usable(), reason="no CUDA device")
@pytest.mark.parametrize("name", ["dct", "idct", "dstn", "idctn"])
def test_scipy_backend_serves_cupy(name):
    cp = pytest.importorskip("cupy")
    scipy_fft = pytest.importorskip("scipy.fft")
    from dctx import scipy_backend
    x = np.random.default_rng(2).standard_normal((32, 24)).astype(np.float32)
    with scipy_fft.set_backend(scipy_backend, only=True):
        got = getattr(scipy_fft, name)(cp.asarray(x), norm="ortho")
    assert isinstance(got, cp.ndarray)
    want = getattr(scipy_fft, name)(x, norm="ortho")
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-5, atol=1e-5 * np.abs(want).max())


def test_electrostatics_on_a_cuda_array_checks_first():
    with pytest.raises(ValueError, match="density is a CUDA array but backend='cpu'"):
        dctx.electrostatics(FakeCudaArray(), backend="cpu")
    with pytest.raises(TypeError, match="density on the GPU must be float32 or float64"):
        dctx.electrostatics(FakeCudaArray(typestr="<i4"))
    with pytest.raises(ValueError, match="the bin grid is 2D, not of rank 1"):
        dctx.electrostatics(FakeCudaArray(shape=(8,)))


@pytest.mark.skipif(not cuda_usable(), reason="no CUDA device")
@pytest.mark.parametrize("potential", [True, False])
def test_electrostatics_on_cupy_matches_the_host(potential):
    cp = pytest.importorskip("cupy")
    rho = np.random.default_rng(3).random((64, 48))
    want = dctx.electrostatics(rho, (0.5, 2.0), potential=potential)
    got = dctx.electrostatics(cp.asarray(rho), (0.5, 2.0), potential=potential)
    assert isinstance(got[1], cp.ndarray) and got[3].shape == ()
    for g, w in zip(got[:3], want[:3]):
        if w is None:
            assert g is None
        else:
            np.testing.assert_allclose(cp.asnumpy(g), w, rtol=1e-10, atol=1e-12 * np.abs(w).max())
    assert float(got[3]) == pytest.approx(want[3], rel=1e-9)
