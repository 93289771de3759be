# SPDX-License-Identifier: BSD-3-Clause
"""Exit 0 when every pinned requirement (name==version) is installed at that version."""
import sys
from importlib import metadata

ok = True
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, _, version = line.partition("==")
    try:
        have = metadata.version(name.strip())
    except metadata.PackageNotFoundError:
        print(f"missing Python package {name}")
        ok = False
        continue
    if version and have != version.strip():
        print(f"{name} {have} installed, {version} pinned")
        ok = False
sys.exit(0 if ok else 1)
