# SPDX-License-Identifier: BSD-3-Clause
"""dctx.backends(): the library's back-end registry, and Plan(..., backend=...) going through it."""

import numpy as np
import pytest

import dctx

KEYS = {"name", "built", "usable", "reason", "description", "host_memory"}


def test_backends_lists_every_known_back_end():
    bs = dctx.backends()
    assert isinstance(bs, list) and [b["name"] for b in bs] == ["cpu", "cuda", "opencl"]
    for b in bs:
        assert set(b) == KEYS
        assert all(isinstance(b[k], bool) for k in ("built", "usable", "host_memory"))
        assert all(isinstance(b[k], str) for k in ("name", "reason", "description"))
        assert b["usable"] == (b["reason"] == "")
    assert "backends" in dctx.__all__


def test_cpu_is_usable():
    cpu = dctx.backends()[0]
    assert cpu["built"] and cpu["usable"] and cpu["host_memory"]
    assert cpu["reason"] == "" and cpu["description"]


@pytest.mark.parametrize("name", ["cuda", "opencl"])
def test_device_back_ends_say_what_they_are(name):
    (b,) = [b for b in dctx.backends() if b["name"] == name]
    assert not b["host_memory"]
    if not b["built"]:
        assert not b["usable"]
        assert b["reason"].startswith("not built") and b["description"] == ""
    else:  # built: usable with a description, or not usable with the reason
        assert b["usable"] == (b["reason"] == "")
        assert bool(b["description"]) == b["usable"]


@pytest.mark.parametrize("name", ["cuda", "opencl"])
def test_plan_on_a_device_back_end(name):
    (b,) = [b for b in dctx.backends() if b["name"] == name]
    if b["usable"]:
        assert dctx.Plan((8, 8), np.float32, backend=name).backend == name
        return
    with pytest.raises(ValueError, match="not built" if not b["built"] else "not usable") as e:
        dctx.Plan((8, 8), np.float32, backend=name)
    assert name in str(e.value)


def test_plan_backend_names():
    assert dctx.Plan((8,), backend="auto").backend == "cpu"
    assert dctx.Plan((8,), backend="cpu").backend == "cpu"
    assert dctx.Plan((8,), backend=None).backend == "cpu"
    with pytest.raises(ValueError, match="unknown backend 'tpu'"):
        dctx.Plan((8,), backend="tpu")
    # Names are case-sensitive, as scipy's string arguments are.
    for name in ["CPU", "Cuda"]:
        with pytest.raises(ValueError, match=f"unknown backend '{name}'"):
            dctx.Plan((8,), backend=name)
    with pytest.raises(TypeError):
        dctx.Plan((8,), backend=1)
