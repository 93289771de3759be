# SPDX-License-Identifier: BSD-3-Clause
"""`dctx electrostatics`: the .npy potential and fields and the printed energy against the NumPy
transcription of DREAMPlace's algorithm (python/tests/dreamplace_reference.py); the outputs one
asks for and no others; clear refusals with a non-zero exit and no output file."""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

from checks import check, finish

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python", "tests"))
from dreamplace_reference import synthetic_placement, transcription  # noqa: E402

DCTX = os.environ["DCTX"]


def run(*args):
    return subprocess.run([DCTX, *map(str, args)], capture_output=True, text=True)


def rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b)


with tempfile.TemporaryDirectory() as d:
    rng = np.random.default_rng(8)
    src = os.path.join(d, "density.npy")
    pot, fx, fy = (os.path.join(d, n + ".npy") for n in ("psi", "fx", "fy"))
    for shape, dtype, bins in [((48, 40), np.float64, "2,0.5"), ((33, 64), np.float32, "1.5"),
                               ((64, 64), np.float64, "1,1")]:
        density = (synthetic_placement(*shape, 200, rng) if shape == (64, 64)
                   else rng.uniform(0, 1, shape)).astype(dtype)
        np.save(src, density)
        bw, bh = (float(b) for b in (bins.split(",") * 2)[:2])
        want = transcription(density, bw, bh)
        bound = 2 * np.finfo(dtype).eps * math.log2(density.size)  # the suite's c = 2
        what = f"electrostatics {shape} {np.dtype(dtype).name} --bin-size {bins}"
        r = run("electrostatics", src, "--potential", pot, "--field-x", fx, "--field-y", fy,
                "--bin-size", bins, "--json")
        check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr}")
        if r.returncode:
            continue
        rec = json.loads(r.stdout)
        check(rec["command"] == "electrostatics" and rec["dtype"] == np.dtype(dtype).name,
              f"{what}: JSON {rec}")
        check(abs(rec["energy"] - want[3]) <= bound * abs(want[3]),
              f"{what}: energy {rec['energy']} against {want[3]}")
        for path, w, name in ((pot, want[0], "potential"), (fx, want[1], "field_x"),
                              (fy, want[2], "field_y")):
            got = np.load(path)
            check(got.dtype == dtype and got.shape == shape and rel(got, w) <= bound,
                  f"{what}: {name} error {rel(got, w):.2e}, bound {bound:.2e}")
        # Fields only: no potential file, the energy by Parseval, printed as text.
        for p in (pot, fx, fy):
            os.remove(p)
        r = run("electrostatics", src, "--field-y", fy, "--bin-size", bins, "--threads", 2)
        line = r.stdout.split()
        check(r.returncode == 0 and len(line) == 2 and line[0] == "energy"
              and abs(float(line[1]) - want[3]) <= bound * abs(want[3])
              and rel(np.load(fy), want[2]) <= bound
              and not os.path.exists(pot) and not os.path.exists(fx),
              f"{what} fields only: {r.stdout!r} {r.stderr!r}")

    # Refusals: non-zero exit, the flag or the file named, no output file.
    np.save(src, rng.uniform(0, 1, (8, 8)))
    np.save(os.path.join(d, "cube.npy"), rng.uniform(0, 1, (4, 4, 4)))
    missing = os.path.join(d, "no", "such", "folder", "p.npy")
    for args, words in [
        ((src, "--potential", pot, "--bin-size", "0"), "invalid --bin-size '0'"),
        ((src, "--potential", pot, "--bin-size", "1,x"), "invalid --bin-size '1,x'"),
        ((src, "--potential", pot, "--bin-size", "1,2,3"), "expected WIDTH,HEIGHT"),
        ((src, "--potential", pot, "--field-x", pot), "--potential and --field-x name the same"),
        ((src, "--field-x", missing, "--potential", pot), "--field-x: the folder of"),
        ((os.path.join(d, "cube.npy"), "--potential", pot), "the bin density map is 2D"),
        ((os.path.join(d, "absent.npy"), "--potential", pot), "absent.npy"),
        ((src, "--potential", pot, "--backend", "gpu"), "unknown backend 'gpu'"),
    ]:
        if os.path.exists(pot):
            os.remove(pot)
        r = run("electrostatics", *args)
        check(r.returncode != 0 and words in r.stderr and not os.path.exists(pot),
              f"electrostatics {args}: exit {r.returncode}, stderr {r.stderr!r}")
finish()
