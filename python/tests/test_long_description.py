# SPDX-License-Identifier: BSD-3-Clause
"""docs/python.md is the package's long description on PyPI (pyproject's readme): it must stand
on its own there."""

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

pytestmark = pytest.mark.skipif(not DOC.is_file(), reason="not run from a source checkout")


@pytest.fixture(scope="module")
def text():
    return DOC.read_text(encoding="utf-8")


def test_is_the_readme_of_the_package():
    if PYPROJECT.is_file():
        assert re.search(r'^readme\s*=\s*"docs/python.md"', PYPROJECT.read_text(), re.MULTILINE)


def without_code(text):
    """The text outside fenced code blocks (where "# ..." is a shell comment, not a heading)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)


def test_no_leftover_or_duplicated_sections(text):
    assert "section for the README" not in text
    prose = without_code(text)
    headings = re.findall(r"^#+ +(.+?)\s*$", prose, re.MULTILINE)
    assert len(headings) == len(set(headings)), headings
    assert len(re.findall(r"^# ", prose, re.MULTILINE)) == 1  # one title
    paragraphs = [p.strip() for p in text.split("\n\n") if len(p.strip()) > 80]
    assert len(paragraphs) == len(set(paragraphs)), "a paragraph appears twice"


def test_links_work_on_pypi(text):
    """Markdown links and images are absolute (PyPI shows the file without the repository)."""
    for target in re.findall(r"\]\(([^)\s]+)", text):
        assert re.match(r"https://", target), target
    for target in re.findall(r"^\[[^\]]+\]:\s*(\S+)", text, re.MULTILINE):
        assert re.match(r"https://", target), target


def test_no_internal_references(text):
    assert not re.search(r"(?<![\w&`])#\d+\b|\bissue \d+", text, re.IGNORECASE)
    # Build folders: only those the text itself creates (cmake -B DIR) are named.
    made = set(re.findall(r"-B\s+(\S+)", text))
    for folder in re.findall(r"PYTHONPATH=([^\s/]+)/python", text):
        assert folder in made, f"PYTHONPATH={folder}/python: {folder} is never built here"
    for folder in re.findall(r"(?:--test-dir|-C)\s+([^\s/]+)", text):
        assert folder in made, folder


def test_installation(text):
    assert "pip install ." in text
    assert re.search(r"pip install \S*\.whl", text)
    for pkg in ("libhwy-dev", "libstb-dev", "libcli11-dev"):
        assert pkg in text, pkg
    assert "dctx --help" in text and "python -m dctx" in text
