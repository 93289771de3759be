# SPDX-License-Identifier: BSD-3-Clause
"""dctx against scipy.fft: every function, type, norm, orthogonalize, axis/axes, n/s, dtype,
memory layout and overwrite_x, on seeded random data (property style, hypothesis)."""

import math

import numpy as np
import pytest
import scipy.fft
from hypothesis import given, strategies as st

import dctx
from conftest import FUNCS_1D, FUNCS_ND, assert_close, random_array, scipy_reference

NORMS = [None, "backward", "ortho", "forward"]
DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.float16, np.int32, np.uint8,
          np.bool_]
LAYOUTS = ["C", "F", "reversed", "strided", "transposed"]


def with_layout(a, layout):
    """An array equal to `a` with the given memory layout (no change to the values)."""
    if layout == "C" or a.ndim == 0:
        return np.ascontiguousarray(a)
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "reversed":  # negative strides on every axis
        b = np.ascontiguousarray(a[(slice(None, None, -1),) * a.ndim])
        return b[(slice(None, None, -1),) * a.ndim]
    if layout == "strided":  # every other element along every axis
        big = np.zeros(tuple(2 * s + 1 for s in a.shape), dtype=a.dtype)
        view = big[(slice(1, None, 2),) * a.ndim]
        view[...] = a
        return view
    if layout == "transposed":
        return np.ascontiguousarray(a.T).T
    raise AssertionError(layout)


def is_dct1_of_one(name, type_, lengths):
    return type_ == 1 and "dct" in name and any(n == 1 for n in lengths)


def check_against_scipy(name, x, kwargs, lengths):
    """Run dctx and scipy on the same arguments; compare values, dtype and (for the
    out-of-place case) that the input is untouched."""
    before = np.array(x, copy=True)
    if is_dct1_of_one(name, kwargs.get("type", 2), lengths):
        with pytest.raises(ValueError):
            getattr(dctx, name)(x, **kwargs)
        return
    ref_dtype = getattr(scipy.fft, name)(np.array(x, copy=True), **kwargs).dtype
    y = getattr(dctx, name)(x, **kwargs)
    assert y.dtype == ref_dtype, (y.dtype, ref_dtype)
    ref_kwargs = {k: v for k, v in kwargs.items() if k not in ("overwrite_x", "workers")}
    ref = scipy_reference(name, before, **ref_kwargs)
    assert_close(y, ref, y.dtype, math.prod(lengths))
    if not kwargs.get("overwrite_x"):
        np.testing.assert_array_equal(x, before)


shapes = st.lists(st.integers(1, 12), min_size=1, max_size=3)


@given(name=st.sampled_from(FUNCS_1D), type_=st.integers(1, 4), norm=st.sampled_from(NORMS),
       ortho=st.sampled_from([None, True, False]), dtype=st.sampled_from(DTYPES),
       shape=shapes, axis_i=st.integers(-3, 2), n_delta=st.sampled_from([None, -3, -1, 0, 2, 5]),
       layout=st.sampled_from(LAYOUTS), overwrite=st.booleans(), seed=st.integers(0, 2**31),
       workers=st.sampled_from([None, 1, 2, -1]))
def test_1d_matches_scipy(name, type_, norm, ortho, dtype, shape, axis_i, n_delta, layout,
                          overwrite, seed, workers):
    rng = np.random.default_rng(seed)
    axis = axis_i % len(shape) - (len(shape) if axis_i < 0 else 0)
    x = with_layout(random_array(rng, shape, dtype), layout)
    n = None if n_delta is None else max(1, shape[axis] + n_delta)
    kwargs = dict(type=type_, n=n, axis=axis, norm=norm, orthogonalize=ortho,
                  overwrite_x=overwrite, workers=workers)
    check_against_scipy(name, x, kwargs, [n if n is not None else shape[axis]])


@given(name=st.sampled_from(FUNCS_ND), type_=st.integers(1, 4), norm=st.sampled_from(NORMS),
       ortho=st.sampled_from([None, True, False]), dtype=st.sampled_from(DTYPES),
       shape=shapes, axes_mode=st.sampled_from(["none", "all", "last", "first", "reversed"]),
       s_mode=st.sampled_from(["none", "same", "crop", "pad", "minus1"]),
       layout=st.sampled_from(LAYOUTS), overwrite=st.booleans(), seed=st.integers(0, 2**31))
def test_nd_matches_scipy(name, type_, norm, ortho, dtype, shape, axes_mode, s_mode, layout,
                          overwrite, seed):
    rng = np.random.default_rng(seed)
    nd = len(shape)
    x = with_layout(random_array(rng, shape, dtype), layout)
    axes = {"none": None, "all": tuple(range(nd)), "last": (-1,), "first": (0,),
            "reversed": tuple(range(nd))[::-1]}[axes_mode]
    used = list(range(nd)) if axes is None else [a % nd for a in axes]
    s = None
    if s_mode != "none":
        delta = {"same": 0, "crop": -2, "pad": 3, "minus1": 0}[s_mode]
        s = [max(1, shape[a] + delta) for a in used]
        if s_mode == "minus1":
            s[0] = -1
    lengths = [shape[a] if (s is None or s[i] == -1) else s[i] for i, a in enumerate(used)]
    kwargs = dict(type=type_, s=s, axes=axes, norm=norm, orthogonalize=ortho,
                  overwrite_x=overwrite)
    check_against_scipy(name, x, kwargs, lengths)


@pytest.mark.parametrize("name", FUNCS_1D + FUNCS_ND)
@pytest.mark.parametrize("type_", [1, 2, 3, 4])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("ortho", [None, True, False])
def test_every_combination_2d(name, type_, norm, ortho, rng):
    """The full (function, type, norm, orthogonalize) grid on one 2-D array in two dtypes."""
    for dtype in (np.float64, np.float32):
        x = random_array(rng, (6, 9), dtype)
        y = getattr(dctx, name)(x, type=type_, norm=norm, orthogonalize=ortho)
        ref = scipy_reference(name, x, type=type_, norm=norm, orthogonalize=ortho)
        assert y.dtype == dtype
        assert_close(y, ref, y.dtype, 54 if name.endswith("n") else 9)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 16, 17, 64, 97, 128, 255, 256, 1000, 1024, 4096])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lengths(n, dtype, rng):
    """Powers of two, primes and smooth composites, for all four DCT and DST types."""
    x = random_array(rng, (n,), dtype)
    for name in ("dct", "dst", "idct", "idst"):
        for type_ in (1, 2, 3, 4):
            if type_ == 1 and name.endswith("dct") and n == 1:
                continue
            y = getattr(dctx, name)(x, type=type_, norm="ortho")
            ref = scipy_reference(name, x, type=type_, norm="ortho")
            assert_close(y, ref, dtype, n)


@pytest.mark.parametrize("shape", [(8, 8), (16, 16), (480, 640), (997, 31), (3, 4, 5)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dctn_images(shape, dtype, rng):
    x = random_array(rng, shape, dtype)
    for name in FUNCS_ND:
        y = getattr(dctx, name)(x, norm="ortho")
        assert_close(y, scipy_reference(name, x, norm="ortho"), dtype, math.prod(shape))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_overwrite_x_in_place(dtype, rng):
    """overwrite_x=True on a writable array of a kernel dtype writes into x's buffer."""
    x = random_array(rng, (7, 10), dtype)
    ref = scipy_reference("dctn", x, norm="ortho")
    y = dctx.dctn(x, norm="ortho", overwrite_x=True)
    assert np.shares_memory(x, y)
    assert_close(y, ref, dtype, 70)
    xs = random_array(rng, (12, 10), dtype)[::-2, ::3]  # strided in place
    ref = scipy_reference("dct", xs, type=3)
    y = dctx.dct(xs, type=3, overwrite_x=True)
    assert np.shares_memory(xs, y)
    assert_close(y, ref, dtype, 4)


def test_overwrite_x_read_only_is_safe(rng):
    x = random_array(rng, (5, 8), np.float64)
    x.flags.writeable = False
    before = x.copy()
    y = dctx.dct(x, overwrite_x=True)
    np.testing.assert_array_equal(x, before)
    assert_close(y, scipy_reference("dct", before), np.float64, 8)


def test_unaligned_and_byteswapped(rng):
    x = random_array(rng, (33,), np.float64)
    buf = np.zeros(33 * 8 + 1, dtype=np.uint8)
    un = buf[1:].view(np.float64)
    un[:] = x
    assert not un.flags["ALIGNED"]
    assert_close(dctx.dct(un), scipy_reference("dct", x), np.float64, 33)
    be = x.astype(">f8")
    y = dctx.dst(be, type=4)
    assert y.dtype == np.float64
    assert_close(y, scipy_reference("dst", x, type=4), np.float64, 33)


def test_lists_scalars_and_objects():
    ref = scipy.fft.dct([1.0, 2.0, 3.0])
    assert_close(dctx.dct([1.0, 2.0, 3.0]), ref, np.float64, 3)
    assert_close(dctx.dct((1, 2, 3)), ref, np.float64, 3)
    assert_close(dctx.dct(np.array([1, 2, 3], dtype=object)), ref, np.float64, 3)
    assert_close(dctx.dctn([[1, 2], [3, 4]]), scipy.fft.dctn([[1, 2], [3, 4]]), np.float64, 4)
    y = dctx.dct([1 + 1j, 2, 3])
    assert y.dtype == np.complex128
    assert_close(y, scipy.fft.dct([1 + 1j, 2, 3]), np.float64, 3)
    z = dctx.dctn(np.array(3.0))  # no axes: returned as is, like scipy
    assert z.shape == () and z == 3.0


@pytest.mark.parametrize("name", FUNCS_1D + FUNCS_ND)
def test_zero_size_arrays(name):
    """Zero-size arrays: an empty axis that is not transformed gives an empty result; an empty
    transformed axis without n/s is an error (both as scipy)."""
    nd = name.endswith("n")
    for dtype in (np.float32, np.float64, np.int64, np.complex64):
        x = np.zeros((0, 4), dtype=dtype)
        ref = getattr(scipy.fft, name)(x, axes=(1,)) if nd else getattr(scipy.fft, name)(x)
        y = getattr(dctx, name)(x, axes=(1,)) if nd else getattr(dctx, name)(x)
        assert y.shape == ref.shape and y.dtype == ref.dtype
        with pytest.raises(ValueError):
            getattr(dctx, name)(np.zeros((3, 0), dtype=dtype))
        kw = dict(s=(1, 5), axes=(0, 1)) if nd else dict(n=5, axis=1)
        x2 = np.zeros((0, 3), dtype=dtype)
        ref = getattr(scipy.fft, name)(x2, **kw)
        y = getattr(dctx, name)(x2, **kw)
        assert y.shape == ref.shape and y.dtype == ref.dtype
        np.testing.assert_allclose(y, ref)


def test_many_dimensions(rng):
    """Ten dimensions (more than the 2-D/3-D paths see) go through the same plan cache."""
    x = random_array(rng, (2,) * 10, np.float64)
    assert_close(dctx.dctn(x), scipy_reference("dctn", x), np.float64, 1024)


def test_broadcast_input(rng):
    """Zero strides on input (np.broadcast_to) are read directly, and never written."""
    row = random_array(rng, (9,), np.float64)
    x = np.broadcast_to(row, (4, 9))
    for name in ("dct", "dctn", "idst", "idstn"):
        y = getattr(dctx, name)(x, type=2, overwrite_x=True)
        assert_close(y, scipy_reference(name, np.array(x), type=2), np.float64, 36)
    np.testing.assert_array_equal(x[0], row)


@pytest.mark.parametrize("func", ["dct", "dst", "dctn", "idstn"])
def test_overwrite_x_on_a_self_overlapping_view(func):
    # A writable view whose elements share memory cannot hold its own result: like scipy, compute
    # into a new array (the view and its base stay as they were).
    base = np.arange(1.0, 6.0)
    x = np.lib.stride_tricks.as_strided(base, shape=(3, 4), strides=(8, 8))
    assert x.flags.writeable
    want = getattr(scipy.fft, func)(x.copy())
    got = getattr(dctx, func)(x, overwrite_x=True)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(base, np.arange(1.0, 6.0))


@pytest.mark.parametrize("shape,dtype", [((128, 128), np.float32), ((96, 200), np.float64),
                                         ((64, 64, 8), np.complex64)])
def test_large_outputs_are_64_byte_aligned_and_ordinary(shape, dtype):
    """From 64 KiB up the result is a 64-byte aligned view of a slightly longer buffer: still
    C-contiguous, writable, of the input's shape and dtype, with scipy's values; smaller results
    are plain arrays that own their data."""
    x = random_array(np.random.default_rng(7), shape, dtype)
    y = dctx.dctn(x, norm="ortho")
    assert y.ctypes.data % 64 == 0
    assert y.shape == x.shape and y.dtype == x.dtype
    assert y.flags.c_contiguous and y.flags.writeable
    assert_close(y, scipy.fft.dctn(x, norm="ortho"), dtype, max(shape))
    y[...] = 1  # the view is the caller's to write
    assert np.all(y == 1)
    small = dctx.dctn(x[:8, :8], norm="ortho")
    assert small.flags.owndata
