# SPDX-License-Identifier: BSD-3-Clause
"""dctx.Plan(planning="measure") and the wisdom functions: the same transform, what was timed
in describe(), the remembered pick round-tripping through a file, and errors naming the
argument."""

import pathlib
import pickle

import numpy as np
import pytest

import dctx
from conftest import assert_close, random_array, scipy_reference


@pytest.fixture(autouse=True)
def empty_wisdom():
    dctx.forget_wisdom()
    yield
    dctx.forget_wisdom()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(8, 8), (64, 48), (131, 64)])
@pytest.mark.parametrize("inverse", [False, True])
def test_measured_plans_match_scipy(dtype, shape, inverse, rng):
    p = dctx.Plan(shape, dtype, norm="ortho", inverse=inverse, planning="measure")
    assert "planning: measured (" in p.describe()
    x = random_array(rng, shape, dtype)
    assert_close(p(x), scipy_reference("idctn" if inverse else "dctn", x, norm="ortho"), dtype, 60)


def test_the_pick_is_remembered_and_saved(tmp_path, rng):
    p = dctx.Plan((64, 64), np.float32, norm="ortho", planning="measure")
    assert dctx.wisdom_size() == 1
    again = dctx.Plan((64, 64), np.float32, norm="ortho", planning="measure")
    assert "planning: from wisdom (" in again.describe()
    path = tmp_path / "wisdom.txt"
    dctx.save_wisdom(path)  # os.PathLike
    assert path.read_text().startswith("# dctx wisdom 1\n")
    dctx.forget_wisdom()
    assert dctx.wisdom_size() == 0
    dctx.load_wisdom(str(path))
    assert dctx.wisdom_size() == 1
    x = random_array(rng, (64, 64), np.float32)
    assert_close(p(x), again(x), np.float32, 8)


def test_estimate_is_the_default_and_pickles_keep_planning():
    plain = dctx.Plan((32, 32), np.float32)
    assert "planning:" not in plain.describe() and dctx.wisdom_size() == 0
    p = dctx.Plan((32, 32), np.float32, planning="measure")
    q = pickle.loads(pickle.dumps(p))
    assert "planning=" in repr(q) and "planning: from wisdom" in q.describe()


def test_errors_name_the_argument(tmp_path):
    with pytest.raises(TypeError, match="planning"):
        dctx.Plan((8, 8), planning=1)
    with pytest.raises(ValueError, match="planning must be \"estimate\" or \"measure\""):
        dctx.Plan((8, 8), planning="fastest")
    with pytest.raises(TypeError, match="save_wisdom: path"):
        dctx.save_wisdom(3)
    with pytest.raises(TypeError, match="load_wisdom: path"):
        dctx.load_wisdom(None)
    with pytest.raises(ValueError, match="cannot read"):
        dctx.load_wisdom(tmp_path / "missing.txt")
    bad = tmp_path / "bad.txt"
    bad.write_text("# dctx wisdom 1\nAVX3\tshape=8x8\n")
    with pytest.raises(ValueError, match="line 2"):
        dctx.load_wisdom(bad)
    with pytest.raises(ValueError, match="save_wisdom"):
        dctx.save_wisdom(pathlib.Path("/nonexistent/dctx/wisdom.txt"))
