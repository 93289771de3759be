# SPDX-License-Identifier: BSD-3-Clause
"""Package-level facts: version, public names, signatures and docstrings."""

import inspect
import re

import scipy.fft

import dctx
from conftest import FUNCS_1D, FUNCS_ND


def test_version_matches_library():
    assert dctx.__version__ == dctx._dctx.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", dctx.__version__)


def test_signatures_match_scipy():
    for name in FUNCS_1D + FUNCS_ND:
        ours = inspect.signature(getattr(dctx, name))
        theirs = inspect.signature(getattr(scipy.fft, name))
        assert list(ours.parameters) == list(theirs.parameters), name
        for p in ours.parameters.values():
            assert p.default == theirs.parameters[p.name].default, (name, p.name)


def test_docstrings_are_numpydoc():
    for name in FUNCS_1D + FUNCS_ND + ["Plan"]:
        doc = inspect.getdoc(getattr(dctx, name))
        assert "Parameters\n----------" in doc, name
    for name in FUNCS_1D + FUNCS_ND:
        assert "Returns\n-------" in getattr(dctx, name).__doc__
