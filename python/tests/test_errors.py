# SPDX-License-Identifier: BSD-3-Clause
"""Errors are raised as scipy.fft raises them, and no input crashes the interpreter."""

import numpy as np
import pytest
import scipy.fft
from hypothesis import given, strategies as st

import dctx
from dctx._errors import AxisError  # numpy.exceptions.AxisError (numpy.AxisError before 1.25)
from conftest import FUNCS_1D, FUNCS_ND, assert_close

ALL = FUNCS_1D + FUNCS_ND


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("bad", [0, 5, -1, 100])
def test_invalid_type(name, bad):
    x = np.ones((4, 4))
    with pytest.raises(ValueError):
        getattr(scipy.fft, name)(x, type=bad)
    with pytest.raises(ValueError, match="type"):
        getattr(dctx, name)(x, type=bad)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("bad", ["2", 2.0, None, [2]])
def test_non_integer_type(name, bad):
    with pytest.raises(TypeError):
        getattr(dctx, name)(np.ones(4), type=bad)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("bad", ["xx", "Ortho", 1, ""])
def test_invalid_norm(name, bad):
    with pytest.raises(ValueError, match="Invalid norm value"):
        getattr(dctx, name)(np.ones(4), norm=bad)


@pytest.mark.parametrize("name", FUNCS_1D)
def test_invalid_axis(name):
    for axis in (1, -2, 7):
        with pytest.raises(ValueError):  # numpy AxisError: also an IndexError, as scipy's
            getattr(dctx, name)(np.ones(4), axis=axis)
        with pytest.raises(IndexError):
            getattr(dctx, name)(np.ones(4), axis=axis)
    with pytest.raises(TypeError):
        getattr(dctx, name)(np.ones(4), axis=1.0)
    with pytest.raises(IndexError):
        getattr(dctx, name)(np.float64(3.0))  # 0-d: no last axis


@pytest.mark.parametrize("name", FUNCS_ND)
def test_invalid_axes_and_shape(name):
    f = getattr(dctx, name)
    x = np.ones((3, 4))
    with pytest.raises(ValueError, match="exceeds dimensionality"):
        f(x, axes=(2,))
    with pytest.raises(ValueError, match="unique"):
        f(x, axes=(0, 0))
    with pytest.raises(ValueError, match="unique"):
        f(x, axes=(1, -1))
    with pytest.raises(ValueError, match="same length"):
        f(x, s=(5, 6), axes=(0,))
    with pytest.raises(ValueError, match="more axes"):
        f(x, s=(5, 6, 7))
    with pytest.raises(ValueError, match="invalid number of data points"):
        f(x, s=(0, 6))
    with pytest.raises(ValueError, match="invalid number of data points"):
        f(x, s=(-2, 6))
    with pytest.raises(ValueError):
        f(x, axes=("a",))


@pytest.mark.parametrize("name", FUNCS_1D)
@pytest.mark.parametrize("axis,ndim", [(1, 1), (-2, 1), (7, 2), (-3, 2), (2**40, 1), (-2**40, 2)])
def test_axis_error_message(name, axis, ndim):
    """An axis out of range: numpy's AxisError with numpy's wording (scipy: IndexError)."""
    x = np.ones((4,) * ndim)
    msg = f"axis {axis} is out of bounds for array of dimension {ndim}"
    with pytest.raises(AxisError,
                       match=f"^{msg}$"):
        getattr(dctx, name)(x, axis=axis)


@pytest.mark.parametrize("name", FUNCS_ND)
@pytest.mark.parametrize("axes", [(2,), (0, -3), (0, 2**40), [5, 1]])
def test_axes_error_message(name, axes):
    """n-D axes out of range: scipy's message, raised as numpy's AxisError (a ValueError)."""
    x = np.ones((3, 4))
    with pytest.raises(ValueError) as ref:
        getattr(scipy.fft, name)(x, axes=axes)
    with pytest.raises(AxisError,
                       match="^axes exceeds dimensionality of input$") as e:
        getattr(dctx, name)(x, axes=axes)
    assert str(e.value) == str(ref.value)


@pytest.mark.parametrize("name", FUNCS_ND)
@pytest.mark.parametrize("axes", [(0, 0), (1, -1), (-2, 0, 1)])
def test_repeated_axes_message(name, axes):
    x = np.ones((3, 4))
    with pytest.raises(ValueError) as ref:
        getattr(scipy.fft, name)(x, axes=axes)
    with pytest.raises(ValueError, match="^all axes must be unique$") as e:
        getattr(dctx, name)(x, axes=axes)
    assert not isinstance(e.value, IndexError) and str(e.value) == str(ref.value)


@pytest.mark.parametrize("name", FUNCS_ND)
def test_range_is_checked_before_repeats(name):
    """Axes both repeated and out of range: the range error, as scipy (the core checks every
    axis's range before looking for repeats)."""
    x = np.ones((3, 4))
    with pytest.raises(ValueError) as ref:
        getattr(scipy.fft, name)(x, axes=(0, 0, 5))
    with pytest.raises(AxisError, match="^axes exceeds dimensionality of input$") as e:
        getattr(dctx, name)(x, axes=(0, 0, 5))
    assert str(e.value) == str(ref.value)


@pytest.mark.parametrize("name", ALL)
def test_empty_results_still_check_the_transform(name):
    """A zero-size result makes no plan, but a bad type or a DCT-I of length 1 is still refused."""
    nd = name.endswith("n")
    x = np.zeros((0, 4))
    kw = dict(axes=(1,)) if nd else dict(axis=1)
    with pytest.raises(dctx.DctxError, match="invalid transform type"):
        getattr(dctx, name)(x, type=7, **kw)
    if "dct" in name:
        with pytest.raises(dctx.DctxError, match="DCT-I"):
            getattr(dctx, name)(np.zeros((0, 1)), type=1, **kw)
    assert getattr(dctx, name)(x, type=2, **kw).shape == (0, 4)


def test_plan_axes_errors():
    with pytest.raises(AxisError, match="exceeds dimensionality"):
        dctx.Plan((4, 4), axes=(2,))
    with pytest.raises(AxisError):
        dctx.Plan((4, 4), axes=-3)
    with pytest.raises(ValueError, match="^all axes must be unique$"):
        dctx.Plan((4, 4), axes=(0, -2))
    assert dctx.Plan((4, 5, 6), axes=(-1, 0)).axes == (2, 0)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("bad", [0, 5, -1, 2**40, -2**40])
def test_invalid_type_is_the_cores_error(name, bad):
    """The core refuses the type: dctx.DctxError (a ValueError) naming it."""
    with pytest.raises(dctx.DctxError, match="invalid transform type"):
        getattr(dctx, name)(np.ones((4, 4)), type=bad)


@pytest.mark.parametrize("bad", [0, 5, 2**40])
def test_plan_invalid_type(bad):
    with pytest.raises(ValueError, match="type"):
        dctx.Plan((4, 4), type=bad)


def test_plan_invalid_shape():
    with pytest.raises(ValueError, match="zero extent"):
        dctx.Plan((4, 0))
    with pytest.raises(ValueError, match="negative"):
        dctx.Plan((4, -2))


@pytest.mark.parametrize("name", FUNCS_1D)
@pytest.mark.parametrize("n", [0, -1, -5])
def test_invalid_n(name, n):
    with pytest.raises(ValueError, match="invalid number of data points"):
        getattr(dctx, name)(np.ones(4), n=n)


@pytest.mark.parametrize("name", ["dct", "idct", "dctn", "idctn"])
def test_dct1_of_length_one(name):
    for x in (np.ones(1), np.ones((1, 5)) if name.endswith("n") else np.ones(1)):
        with pytest.raises(ValueError):
            getattr(dctx, name)(x, type=1)
        with pytest.raises(RuntimeError):  # scipy raises RuntimeError here; DctxError is both
            getattr(dctx, name)(x, type=1)
    kw = dict(s=(1,)) if name.endswith("n") else dict(n=1)
    with pytest.raises(dctx.DctxError, match="DCT-I is not defined for length 1"):
        getattr(dctx, name)(np.ones(5), type=1, **kw)


def test_dst1_of_length_one_is_fine():
    np.testing.assert_allclose(dctx.dst(np.ones(1), type=1), scipy.fft.dst(np.ones(1), type=1))


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("dtype", [np.longdouble, np.clongdouble])
def test_long_double_refused(name, dtype):
    if np.dtype(dtype).itemsize <= (8 if np.dtype(dtype).kind == "f" else 16):
        pytest.skip("long double is double on this platform")
    with pytest.raises(TypeError, match="long double"):
        getattr(dctx, name)(np.ones(4, dtype=dtype))


@pytest.mark.parametrize("name", ALL)
def test_unconvertible_inputs(name):
    f = getattr(dctx, name)
    with pytest.raises(ValueError):
        f(np.array(["a", "b"]))
    with pytest.raises((TypeError, ValueError)):
        f(np.array([object(), object()], dtype=object))
    with pytest.raises((TypeError, ValueError)):
        f(None)
    with pytest.raises((TypeError, ValueError)):
        f({"a": 1})


@pytest.mark.parametrize("workers", [0, -10_000])
def test_invalid_workers(workers):
    with pytest.raises(ValueError, match="workers"):
        dctx.dct(np.ones(8), workers=workers)


def test_workers_all_cpus():
    x = np.random.default_rng(1).random((64, 64))
    assert_close(dctx.dctn(x, workers=-1), scipy.fft.dctn(x), np.float64, 4096)


def test_dctx_error_is_value_error():
    assert issubclass(dctx.DctxError, ValueError)
    assert issubclass(dctx.DctxError, RuntimeError)


_WEIRD = [None, "x", 1.5, -1, 0, 2**70, [], [1.5], object(), (0, 0), {"a": 1}, np.nan, True]


@given(name=st.sampled_from(ALL), x=st.sampled_from(["float", "int", "empty", "0d", "obj", "str"]),
       arg=st.sampled_from(["type", "n_or_s", "axis_or_axes", "norm", "workers",
                            "orthogonalize", "overwrite_x"]),
       value=st.sampled_from(range(len(_WEIRD))))
def test_no_crash_on_odd_arguments(name, x, arg, value):
    """Whatever the arguments, dctx returns or raises an ordinary Python exception."""
    arrays = {"float": np.ones((3, 4)), "int": np.arange(12).reshape(3, 4),
              "empty": np.zeros((0, 4)), "0d": np.array(2.0),
              "obj": np.array([[1, None]], dtype=object), "str": np.array(["a"])}
    nd = name.endswith("n")
    key = {"n_or_s": "s" if nd else "n", "axis_or_axes": "axes" if nd else "axis"}.get(arg, arg)
    try:
        getattr(dctx, name)(arrays[x], **{key: _WEIRD[value]})
    except (TypeError, ValueError, IndexError, OverflowError, MemoryError):
        pass
