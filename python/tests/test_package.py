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
        # scipy's parameters in scipy's order and with its defaults, then dctx's one extension.
        assert list(ours.parameters) == list(theirs.parameters) + ["backend"], name
        for p in ours.parameters.values():
            default = None if p.name == "backend" else theirs.parameters[p.name].default
            assert p.default == default, (name, p.name)


def test_docstrings_are_numpydoc():
    for name in FUNCS_1D + FUNCS_ND + ["Plan"]:
        doc = inspect.getdoc(getattr(dctx, name))
        assert "Parameters\n----------" in doc, name
    for name in FUNCS_1D + FUNCS_ND:
        assert "Returns\n-------" in getattr(dctx, name).__doc__


WHITEPAPER = 'Discrete Cosine Transform for 8x8 Blocks with CUDA'


def _public_docs():
    """Every public docstring: the package, its functions, classes and their methods."""
    yield "dctx", dctx.__doc__
    yield "dctx.scipy_backend", dctx.scipy_backend.__doc__
    for name in dctx.__all__:
        obj = getattr(dctx, name)
        if callable(obj):
            yield name, obj.__doc__
        if isinstance(obj, type):
            for attr, member in vars(obj).items():
                if not attr.startswith("_") or attr == "__call__":
                    yield f"{name}.{attr}", getattr(member, "__doc__", None)


def test_docstrings_speak_to_users():
    """No internal names (seeds, work items, C++ enumerators, the CUDA sample's directory name);
    the NVIDIA whitepaper is cited by its title wherever a docstring refers to it."""
    internal = re.compile(r"\bseed\b|\bDCT8x8\b|Block8(Edge|Kernel)::|\bnthreads\b|"
                          r"(?<![\w&])#\d+\b|\bissue \d+", re.IGNORECASE)
    seen_nvidia = 0
    for name, doc in _public_docs():
        if not doc:
            continue
        assert not internal.search(doc), (name, internal.search(doc).group(0))
        if re.search(r"nvidia|whitepaper", doc, re.IGNORECASE):
            seen_nvidia += 1
            assert WHITEPAPER in " ".join(doc.split()), name
    assert seen_nvidia >= (3 if dctx._dctx.has_block8 else 0)
