# SPDX-License-Identifier: BSD-3-Clause
"""None and wrong-typed arguments: every public function raises a TypeError or ValueError whose
message names the keyword (with scipy.fft's exception class where scipy has one), never
nanobind's "incompatible function arguments" or numpy's "float() argument must be ..."."""

import re

import numpy as np
import pytest
import scipy.fft

import dctx
from conftest import FUNCS_1D, FUNCS_ND

# Texts of the layers under the public functions, which a user must never see.
FORBIDDEN = ["incompatible function arguments", "float() argument", "cannot be interpreted as",
             "object is not iterable", "unhashable type", "invalid literal for int()",
             "Invoked with", "::"]


class Opaque:
    """Neither a number nor an array nor a string."""

    def __repr__(self):
        return "Opaque()"


_X_BAD = [None, {"a": 1}, Opaque(), "abc", [1.0, "a"], [1.0, Opaque()]]
_TYPE_BAD = [None, "2", 2.0, [2], Opaque()]
_WORKERS_BAD = ["a", 1.5, [1], Opaque()]
_NORM_BAD = [1, "Ortho", ["ortho"], Opaque()]
_ORTHO_BAD = ["a", [True], Opaque()]

CASES_1D = ([("x", v) for v in _X_BAD] + [("type", v) for v in _TYPE_BAD]
            + [("n", v) for v in ["a", 1.5, [4], Opaque()]]
            + [("axis", v) for v in [None, "a", 1.5, [0], Opaque()]]
            + [("norm", v) for v in _NORM_BAD] + [("workers", v) for v in _WORKERS_BAD]
            + [("orthogonalize", v) for v in _ORTHO_BAD])
CASES_ND = ([("x", v) for v in _X_BAD] + [("type", v) for v in _TYPE_BAD]
            + [("s", v) for v in ["a", 1.5, [None], [1.5], Opaque()]]
            + [("axes", v) for v in ["a", 1.5, [None], [0.0], Opaque()]]
            + [("norm", v) for v in _NORM_BAD] + [("workers", v) for v in _WORKERS_BAD]
            + [("orthogonalize", v) for v in _ORTHO_BAD])


def names_keyword(msg, kw):
    """The message names `kw` as a word of its own (not inside another word or name)."""
    return re.search(rf"(?<![\w.]){re.escape(kw)}(?!\w)", msg) is not None


def check_message(exc, kw):
    msg = str(exc)
    assert names_keyword(msg, kw), f"{kw!r} not named in {msg!r}"
    for bad in FORBIDDEN:
        assert bad not in msg, f"{bad!r} in {msg!r}"


def call(f, kw, value, x):
    if kw == "x":
        return f(value)
    return f(x, **{kw: value})


def check_against_scipy(name, kw, value, x):
    """dctx raises what scipy.fft raises (TypeError or ValueError), when scipy raises one."""
    with pytest.raises((TypeError, ValueError)) as ours:
        call(getattr(dctx, name), kw, value, x)
    check_message(ours.value, kw)
    try:
        call(getattr(scipy.fft, name), kw, value, x)
    except (TypeError, ValueError) as theirs:
        if "unhashable type" in str(theirs):  # scipy's dict lookup of norm, not a check
            return
        cls = ValueError if isinstance(theirs, ValueError) else TypeError
        assert isinstance(ours.value, cls), (type(theirs), theirs, type(ours.value), ours.value)
    except Exception:  # noqa: BLE001 - scipy raises something else (IndexError, RuntimeError)
        pass


@pytest.mark.parametrize("name", FUNCS_1D)
@pytest.mark.parametrize("kw,value", CASES_1D, ids=lambda v: repr(v))
def test_1d_functions(name, kw, value):
    check_against_scipy(name, kw, value, np.ones(8))


@pytest.mark.parametrize("name", FUNCS_ND)
@pytest.mark.parametrize("kw,value", CASES_ND, ids=lambda v: repr(v))
def test_nd_functions(name, kw, value):
    check_against_scipy(name, kw, value, np.ones((4, 8)))


@pytest.mark.parametrize("name", FUNCS_1D + FUNCS_ND)
def test_none_input_is_refused(name):
    """scipy.fft.dctn(None) computes on nan; dctx says what it expects."""
    with pytest.raises(TypeError, match=r"^x must be an array_like of numbers, not None$"):
        getattr(dctx, name)(None)


def test_type_none_message():
    with pytest.raises(TypeError, match=r"^type must be an integer, not None$"):
        dctx.dct(np.ones(4), type=None)
    with pytest.raises(TypeError, match=r"^n must be an integer, not str$"):
        dctx.dct(np.ones(4), n="a")
    with pytest.raises(TypeError, match=r"^orthogonalize must be None or a bool, not str$"):
        dctx.dctn(np.ones(4), orthogonalize="a")


@pytest.mark.parametrize("name", FUNCS_1D + FUNCS_ND)
def test_accepted_none_and_truth_values(name):
    """None where scipy takes it (n/s, axes, norm, workers, orthogonalize), any truth value for
    overwrite_x (as scipy), and bools or numbers for orthogonalize."""
    f = getattr(dctx, name)
    x = np.arange(8.0)
    ref = f(x)
    key = "s" if name.endswith("n") else "n"
    kws = [{key: None}, {"norm": None}, {"workers": None}, {"orthogonalize": None},
           {"overwrite_x": None}, {"overwrite_x": "yes"}, {"orthogonalize": np.False_},
           {"orthogonalize": 0}]
    if name.endswith("n"):
        kws.append({"axes": None})
    for kw in kws:
        np.testing.assert_allclose(f(x.copy(), **kw), ref, err_msg=str(kw))


PLAN_CASES = ([("shape", v) for v in [None, "ab", 1.5, [None], [1.5], Opaque()]]
              + [("dtype", v) for v in ["nonsense", Opaque(), np.int32, "int64", str]]
              + [("axes", v) for v in ["a", 1.5, [None], Opaque()]]
              + [("type", v) for v in _TYPE_BAD]
              + [("norm", v) for v in _NORM_BAD]
              + [("kind", v) for v in [None, 1, "fft", [], Opaque()]]
              + [("inverse", v) for v in [None, "a", [], Opaque()]]
              + [("orthogonalize", v) for v in _ORTHO_BAD]
              + [("workers", v) for v in _WORKERS_BAD]
              + [("backend", v) for v in [1, [], Opaque(), "tpu"]])


@pytest.mark.parametrize("kw,value", PLAN_CASES, ids=lambda v: repr(v))
def test_plan_arguments(kw, value):
    args = {"shape": (4, 4)}
    args[kw] = value
    with pytest.raises((TypeError, ValueError)) as e:
        dctx.Plan(**args)
    check_message(e.value, kw)


def test_plan_none_shape():
    with pytest.raises(TypeError, match=r"^dctx.Plan: shape must be an int or a sequence of ints, "
                                        r"not None$"):
        dctx.Plan(None)


def test_plan_accepted_none():
    """dtype=None is numpy's default (float64); None axes, norm, workers, backend as documented."""
    p = dctx.Plan((4, 4), None, axes=None, norm=None, orthogonalize=None, workers=None,
                  backend=None)
    assert p.dtype == np.float64
    x = np.arange(16.0).reshape(4, 4)
    np.testing.assert_allclose(p(x), dctx.dctn(x))
    assert dctx.Plan(4, inverse=np.True_).shape == (4,)


@pytest.mark.parametrize("kw,value", [("x", None), ("x", "a"), ("x", [[1.0] * 4] * 4),
                                      ("x", Opaque()), ("out", "a"), ("out", 1), ("out", []),
                                      ("out", Opaque()), ("out", np.ones((4, 4), np.int32))],
                         ids=lambda v: repr(v)[:20])
def test_plan_call_arguments(kw, value):
    p = dctx.Plan((4, 4), np.float32)
    x = np.ones((4, 4), np.float32)
    with pytest.raises((TypeError, ValueError)) as e:
        if kw == "x":
            p(value)
        else:
            p(x, out=value)
    check_message(e.value, kw)
    assert isinstance(e.value, TypeError)


def test_plan_call_none():
    p = dctx.Plan((4, 4), np.float32)
    with pytest.raises(TypeError, match=r"^dctx.Plan: x must be an array of dtype float32 and "
                                        r"shape \(4, 4\), not None$"):
        p(None)
    # out=None is the default: a new array.
    assert p(np.ones((4, 4), np.float32), out=None).shape == (4, 4)


needs_block8 = pytest.mark.skipif(not dctx._dctx.has_block8,
                                  reason="library built without the 8x8 block engine")

_KERNEL_BAD = [None, 1, "magic", Opaque()]
_EDGE_BAD = [None, 1, "wrap", Opaque()]
_QUALITY_BAD = ["a", 1.5, [50], Opaque()]
BLOCK8_CASES = ([("x", v) for v in [None, "a", Opaque(), {"a": 1}]]
                + [("kernel", v) for v in _KERNEL_BAD] + [("edge", v) for v in _EDGE_BAD]
                + [("workers", v) for v in _WORKERS_BAD]
                + [("table", v) for v in [1, "mpeg", Opaque(), np.ones((4, 4), int), "",
                                          np.ones((8, 8))]]
                + [("quality", v) for v in _QUALITY_BAD])
IBLOCK8_CASES = ([("c", v) for v in [None, "a", Opaque()]]
                 + [("kernel", v) for v in _KERNEL_BAD] + [("edge", v) for v in _EDGE_BAD]
                 + [("workers", v) for v in _WORKERS_BAD]
                 + [("shape", v) for v in ["a", [1.5], (8,), 1.5, Opaque()]]
                 + [("table", v) for v in [1, "mpeg", Opaque()]]
                 + [("quality", v) for v in _QUALITY_BAD])
JPEG_CASES = ([("image", v) for v in [None, "a", Opaque(), np.ones((8, 8), np.float32)]]
              + [("table", v) for v in [None, 1, "mpeg", "chroma", Opaque()]]
              + [("quality", v) for v in [None] + _QUALITY_BAD]
              + [("kernel", v) for v in _KERNEL_BAD]
              + [("color", v) for v in [None, "a", [], Opaque()]]
              + [("workers", v) for v in _WORKERS_BAD])


def _block8_call(f, first, kw, value, x, extra):
    if kw == first:
        return f(value)
    kws = dict(extra)
    kws[kw] = value
    return f(x, **kws)


@needs_block8
@pytest.mark.parametrize("name,kw,value",
                         [("block8", kw, v) for kw, v in BLOCK8_CASES]
                         + [("iblock8", kw, v) for kw, v in IBLOCK8_CASES],
                         ids=lambda v: repr(v)[:20])
def test_block8_and_iblock8_arguments(name, kw, value):
    # block8 takes samples x (float32), iblock8 coefficients or levels c (int16).
    arg, data = ("x", np.ones((8, 8), np.float32)) if name == "block8" else \
        ("c", np.ones((8, 8), np.int16))
    extra = {"table": "jpeg"} if kw == "quality" else {}
    with pytest.raises((TypeError, ValueError)) as e:
        _block8_call(getattr(dctx, name), arg, kw, value, data, extra)
    check_message(e.value, kw)


@needs_block8
@pytest.mark.parametrize("kw,value", JPEG_CASES, ids=lambda v: repr(v)[:20])
def test_jpeg_roundtrip_arguments(kw, value):
    img = np.full((8, 8), 100, np.uint8)
    with pytest.raises((TypeError, ValueError)) as e:
        _block8_call(dctx.jpeg_roundtrip, "image", kw, value, img, {})
    check_message(e.value, kw)


@needs_block8
def test_block8_accepted_none():
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    c = dctx.block8(x, workers=None, table=None, quality=None)
    np.testing.assert_array_equal(dctx.iblock8(c, shape=None, workers=None, table=None,
                                               quality=None).shape, (8, 8))
    img = np.full((8, 8), 100, np.uint8)
    assert dctx.jpeg_roundtrip(img, workers=None, color=np.False_)[0].shape == (8, 8)


def test_backends_takes_no_arguments():
    with pytest.raises(TypeError, match="positional argument"):
        dctx.backends(None)
