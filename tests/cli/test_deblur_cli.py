# SPDX-License-Identifier: BSD-3-Clause
"""`dctx deblur`: the simulated blur of barbara.bmp is restored with a PSNR gain (the library's
arithmetic is checked in tests/spectral and python/tests/test_restore.py); JSON on request;
refusals with a non-zero exit and no output file."""
import json
import os
import subprocess
import tempfile

from checks import check, finish

DCTX = os.environ["DCTX"]
DATA = os.environ.get("DCTX_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))
BARBARA = os.path.join(DATA, "barbara.bmp")


def run(*args):
    return subprocess.run([DCTX, *map(str, args)], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as d:
    out, blurred = os.path.join(d, "restored.png"), os.path.join(d, "blurred.png")
    r = run("deblur", BARBARA, "--psf", "gaussian:1", "--reg", "0.001", "--simulate", "--json",
            "-o", out, "--blurred-output", blurred)
    check(r.returncode == 0, f"deblur --simulate: exit {r.returncode}: {r.stderr}")
    if r.returncode == 0:
        rec = json.loads(r.stdout)
        check(rec["command"] == "deblur" and rec["psf"] == "gaussian:1", f"JSON {rec}")
        check(rec["psnr_restored_db"] > rec["psnr_blurred_db"] + 5,
              f"restoration gain {rec['psnr_blurred_db']} -> {rec['psnr_restored_db']} dB")
        check(os.path.getsize(out) > 0 and os.path.getsize(blurred) > 0, "outputs written")
    r = run("deblur", BARBARA, "--psf", "gaussian:1.5:3", "--color", "--reg", "0.01", "-o", out)
    check(r.returncode == 0 and "PSNR" not in r.stdout, f"plain deblur: {r.stdout} {r.stderr}")
    for args, words in [
        (("--psf", "box:3"), "invalid --psf 'box:3'"),
        (("--psf", "gaussian:0"), "--psf gaussian:SIGMA: sigma must be finite and > 0, not 0"),
        (("--psf", "gaussian:1:5000"), "--psf gaussian:SIGMA:RADIUS: radius 5000 is too large"),
        (("--reg", "-1"), "--reg (the Tikhonov weight alpha) must be finite and >= 0, not -1"),
        (("--noise", "2"), "--noise adds noise to the simulated blur: it needs --simulate"),
        (("--psf", "gaussian:300"), "half-size must be below"),
    ]:
        if os.path.exists(out):
            os.remove(out)
        r = run("deblur", BARBARA, "-o", out, *args)
        check(r.returncode != 0 and words in r.stderr and not os.path.exists(out),
              f"deblur {args}: exit {r.returncode}, stderr {r.stderr!r}")
finish()
