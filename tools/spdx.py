# SPDX-License-Identifier: BSD-3-Clause
"""SPDX licence headers: every source file of the repository starts with one.

usage: python3 tools/spdx.py --check   (exit 1 and list the files without a header)
       python3 tools/spdx.py --fix     (add the header where it is missing)
Source files: what git tracks with a source extension (C, C++, CUDA, OpenCL C, Python, shell,
CMake, TOML) plus Makefile and .ci/run. The header goes on the first line, after a #! line."""
import subprocess
import sys
from pathlib import Path

LICENSE = "BSD-3-Clause"
ROOT = Path(__file__).resolve().parent.parent
SLASH = {".c", ".cc", ".cpp", ".cu", ".cuh", ".cl", ".h", ".hpp", ".inc", ".in"}
HASH = {".py", ".sh", ".cmake", ".toml", ".txt"}
NAMED = {"Makefile": "#", ".ci/run": "#"}


def comment_style(rel):
    p = Path(rel)
    if rel in NAMED:
        return NAMED[rel]
    if p.suffix == ".txt" and p.name != "CMakeLists.txt":
        return None  # data and requirement lists
    if p.suffix in SLASH:
        return "/*" if p.suffix == ".h" and p.name == "dctx.h" else "//"
    if p.suffix in HASH:
        return "#"
    return None


def header(style):
    tag = f"SPDX-License-Identifier: {LICENSE}"
    return f"/* {tag} */" if style == "/*" else f"{style} {tag}"


def files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    for rel in out.stdout.split():
        style = comment_style(rel)
        if style and (ROOT / rel).is_file():
            yield rel, style


def main(mode):
    missing = []
    for rel, style in files():
        path = ROOT / rel
        lines = path.read_text(encoding="utf-8").split("\n")
        first = 1 if lines and lines[0].startswith("#!") else 0
        if len(lines) > first and "SPDX-License-Identifier:" in lines[first]:
            continue
        missing.append(rel)
        if mode == "--fix":
            lines.insert(first, header(style))
            path.write_text("\n".join(lines), encoding="utf-8")
    if mode == "--check" and missing:
        print("files without an SPDX licence header (python3 tools/spdx.py --fix):")
        print("\n".join("  " + m for m in missing))
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("--check", "--fix"):
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
