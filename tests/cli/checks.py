# SPDX-License-Identifier: BSD-3-Clause
"""The tally of the CLI test scripts: check(cond, what) counts, and prints what failed; finish()
prints the totals and exits non-zero when anything failed."""
import sys

_counts = {"passed": 0, "failed": 0}


def check(cond, what):
    if cond:
        _counts["passed"] += 1
    else:
        _counts["failed"] += 1
        print("FAIL:", what)


def finish():
    print(f"{_counts['passed']} passed, {_counts['failed']} failed")
    sys.exit(1 if _counts["failed"] else 0)
