# SPDX-License-Identifier: BSD-3-Clause
"""backend="opencl" from Python: the one-shot functions and dctx.Plan on NumPy arrays (copied to
the device and back within the call) against scipy.fft, with the suite's bound c eps log2 N
(c = 2, times sqrt(number of axes)). Skipped when this build has no usable OpenCL device. On a
device without cl_khr_fp64 (ctest python.opencl_fp64_masked masks it: DCTX_OPENCL_NO_FP64=1)
the float32 half runs and each float64 call on the device is checked to be refused."""

import math

import numpy as np
import pytest
import scipy.fft as sf

import dctx

_OPENCL = next(b for b in dctx.backends() if b["name"] == "opencl")
pytestmark = pytest.mark.skipif(not _OPENCL["usable"],
                                reason=f"no OpenCL here: {_OPENCL['reason']}")


def _device_fp64():
    """Whether the OpenCL device runs float64 (a tiny float64 plan there is refused if not)."""
    if not _OPENCL["usable"]:
        return False
    try:
        dctx.Plan((2,), np.float64, backend="opencl")
    except dctx.DctxError as e:
        assert "has no cl_khr_fp64" in str(e)
        return False
    return True


_FP64 = _device_fp64()


def _refused_without_fp64(call):
    """True, having checked the refusal, where the device lacks fp64 (the caller stops there)."""
    if _FP64:
        return False
    with pytest.raises(dctx.DctxError, match="has no cl_khr_fp64"):
        call()
    return True


def _bound(dtype, shape, axes):
    n = max(max(shape[a] for a in axes), 2)
    return 2 * np.finfo(dtype).eps * math.log2(n) * math.sqrt(len(axes))


def _rel(y, r):
    return np.linalg.norm(y - r) / np.linalg.norm(r)


@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(16, 24), (7, 13), (1, 30), (5, 4, 6)])
def test_one_shot_matches_scipy(name, dtype, shape):
    rng = np.random.default_rng(len(shape) * 100 + shape[0])
    x = rng.standard_normal(shape).astype(dtype)
    if dtype == np.float64 and _refused_without_fp64(
            lambda: getattr(dctx, name)(x, backend="opencl")):
        return
    for t in (2, 3):
        for norm in (None, "ortho", "forward"):
            y = getattr(dctx, name)(x, type=t, norm=norm, backend="opencl")
            r = getattr(sf, name)(x.astype(np.float64), type=t, norm=norm)
            assert y.dtype == dtype and y.shape == r.shape
            axes = range(len(shape)) if name.endswith("n") else [len(shape) - 1]
            assert _rel(y, r) <= max(_bound(dtype, shape, list(axes)), 1e-15)


def test_other_types_and_keywords():
    # float32 where the device has no fp64.
    dtype, tol = (np.float64, 1e-12) if _FP64 else (np.float32, 2e-5)
    x = np.random.default_rng(3).standard_normal((9, 20)).astype(dtype)
    # Type 1 runs through the CPU, type 4 on the device; s= and axes= pad and select as scipy's.
    for t in (1, 4):
        np.testing.assert_allclose(dctx.dctn(x, type=t, backend="opencl"), sf.dctn(x, type=t),
                                   rtol=tol, atol=tol)
    np.testing.assert_allclose(dctx.dctn(x, s=(12, 25), axes=(0, 1), backend="opencl"),
                               sf.dctn(x, s=(12, 25), axes=(0, 1)), rtol=tol, atol=10 * tol)
    np.testing.assert_allclose(dctx.dst(x, axis=0, orthogonalize=False, norm="ortho",
                                        backend="opencl"),
                               sf.dst(x, axis=0, orthogonalize=False, norm="ortho"),
                               rtol=tol, atol=tol)


def test_plan_on_opencl_and_views():
    x = np.random.default_rng(4).standard_normal((20, 30)).astype(np.float32)
    p = dctx.Plan(x.shape, np.float32, norm="ortho", backend="opencl")
    assert p.backend == "opencl"
    want = sf.dctn(x.astype(np.float64), norm="ortho")
    assert _rel(p(x), want) < 1e-6
    # A transposed, strided input; an output array given.
    xt = np.asfortranarray(x)
    out = np.full(x.shape, np.nan, np.float32)
    p(xt, out=out)
    assert _rel(out, want) < 1e-6


@pytest.mark.parametrize("n", [7, 16])
def test_real_dft_on_opencl(n):
    """kind="rdft" runs in the lines kernel: numpy's rfft in halfcomplex order, and back."""
    dtype, tol = (np.float64, 1e-14) if _FP64 else (np.float32, 1e-6)
    x = np.random.default_rng(n).standard_normal((5, n))
    X = np.fft.rfft(x, axis=1)
    want = np.concatenate([X.real, X.imag[:, 1:(n + 1) // 2][:, ::-1]], axis=1)
    p = dctx.Plan(x.shape, dtype, axes=1, kind="rdft", backend="opencl")
    assert "RDFT-II" in p.describe() and "through the CPU" not in p.describe()
    assert _rel(p(x.astype(dtype)), want) < tol
    back = dctx.Plan(x.shape, dtype, axes=1, kind="rdft", inverse=True, backend="opencl")
    assert _rel(back(want.astype(dtype)), x) < tol


def test_backend_keyword_errors():
    x = np.ones((4, 4))
    with pytest.raises(TypeError, match="dctx.idstn: backend must be a string"):
        dctx.idstn(x, backend=1)
    with pytest.raises(ValueError, match="unknown backend 'gpu'"):
        dctx.dct(x, backend="gpu")


@pytest.mark.skipif(not hasattr(dctx, "block8"), reason="built without the block engine")
def test_block8_functions_on_opencl_equal_the_cpu():
    rng = np.random.default_rng(5)
    x = rng.uniform(-128, 127, (40, 24)).astype(np.float32)
    for kw in ({}, {"table": "nvidia"}, {"kernel": "reference"}):
        a = dctx.block8(x, backend="opencl", **kw)
        if _FP64 or kw.get("kernel") != "reference":
            assert np.array_equal(a, dctx.block8(x, **kw))
        else:  # the kernel by definition in float: within float rounding of the CPU's double
            b = dctx.block8(x, **kw)
            assert np.max(np.abs(a - b)) <= 1e-5 * np.max(np.abs(b))
    levels = dctx.block8(x, table="jpeg", quality=75)
    assert np.array_equal(dctx.iblock8(levels, table="jpeg", quality=75, backend="opencl"),
                          dctx.iblock8(levels, table="jpeg", quality=75))
    img = rng.uniform(0, 255, (30, 41)).astype(np.uint8)
    got, psnr = dctx.jpeg_roundtrip(img, backend="opencl")
    want, psnr_cpu = dctx.jpeg_roundtrip(img)
    assert np.array_equal(got, want) and psnr == psnr_cpu
    with pytest.raises(TypeError, match="dctx.block8: backend must be a string"):
        dctx.block8(x, backend=2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_electrostatics_on_opencl(dtype):
    """DREAMPlace's step with its four transforms (DCT-II, DCT-III and the shifted DXST-III) on the
    device agrees with the CPU's."""
    density = np.random.default_rng(5).uniform(0, 1, (40, 56)).astype(dtype)
    if dtype == np.float64 and _refused_without_fp64(
            lambda: dctx.electrostatics(density, backend="opencl")):
        return
    dev = dctx.electrostatics(density, (2.0, 0.5), backend="opencl")
    cpu = dctx.electrostatics(density, (2.0, 0.5), backend="cpu")
    bound = 2 * _bound(dtype, density.shape, [0, 1])
    for g, w in zip(dev[:3], cpu[:3]):
        assert g.dtype == dtype and _rel(g, w) <= bound
    assert abs(dev[3] - cpu[3]) <= bound * abs(cpu[3])
    with pytest.raises(TypeError, match="backend must be a string"):
        dctx.electrostatics(density, backend=3)
