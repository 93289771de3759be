# SPDX-License-Identifier: BSD-3-Clause
"""Papers are cited by title and authors, never by the number of a file in the project's private
reading folder (the word "seed" and a three-digit number, or a path into that folder), which a
reader of dctx cannot find.

usage: python3 tools/citations.py   (exit 1 and list each offending line of the tracked files)"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BAD = re.compile(r"\bseeds?[ _/]?0\d\d\b|\bseeds/", re.IGNORECASE)

out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
found = []
for rel in out.stdout.split():
    path = ROOT / rel
    if not path.is_file():
        continue
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        continue  # binary data
    for no, line in enumerate(text.splitlines(), 1):
        if BAD.search(line):
            found.append(f"{rel}:{no}: {line.strip()}")
for f in found:
    print(f)
if found:
    print(f"{len(found)} line(s) cite a paper by a seed number: cite it by title and authors")
sys.exit(1 if found else 0)
