# SPDX-License-Identifier: BSD-3-Clause
"""CLI tests: `dctx transform` equals scipy.fft.dctn/idctn/dstn/idstn for every kind, type, norm
and axes choice (prime lengths included), .npy dtypes are handled as documented, and bad inputs
give a clear message, a non-zero exit and no output file; `dctx compress` keeps what --keep
says, reports it as JSON on request and refuses an invalid --keep."""
import itertools
import json
import os
import re
import subprocess
import tempfile

import numpy as np
import scipy.fft as sf

from checks import check, finish

DCTX = os.environ["DCTX"]
C = 2.0  # same constant as tests/oracle/oracle.hpp kErrorC


def tol(dtype, n):
    eps = np.finfo(dtype).eps
    return min(C * eps * np.log2(max(n, 2)), 1e-6 if dtype == np.float32 else 1e-13)


def run(*args):
    return subprocess.run([DCTX, *map(str, args)], capture_output=True, text=True)




# The one schema of every --json (README, "JSON output"): stdout is exactly one JSON object, with
# these fields whatever the command, then the command's own.
RUN_FIELDS = {"command", "input", "output", "shape", "dtype", "backend", "target", "seconds"}


def json_of(r, command):
    """The JSON object that `r` printed, or None when stdout is anything else or lacks a field."""
    try:
        rec = json.loads(r.stdout)
    except ValueError:
        return None
    if not (isinstance(rec, dict) and RUN_FIELDS <= rec.keys() and rec["command"] == command
            and isinstance(rec["seconds"], dict) and rec["backend"] == "cpu"
            and all(isinstance(v, float) and v >= 0 for v in rec["seconds"].values())
            and not any(v is None for k, v in rec.items() if k != "output")):
        return None
    return rec


def rel(a, b):
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300)


with tempfile.TemporaryDirectory() as d:
    rng = np.random.default_rng(1)
    src, out = os.path.join(d, "in.npy"), os.path.join(d, "out.npy")
    funcs = {("dct", False): sf.dctn, ("dct", True): sf.idctn, ("dst", False): sf.dstn, ("dst", True): sf.idstn}
    shapes = [(7, 12), (13,), (5, 4, 3)]
    for shape, dtype in itertools.product(shapes, [np.float32, np.float64]):
        x = rng.uniform(-1, 1, shape).astype(dtype)
        np.save(src, x)
        axes_choices = [None, (0,), (-1,)] + ([(0, 2)] if len(shape) == 3 else [])
        for (kind, inv), t, norm, axes in itertools.product(funcs, [1, 2, 3, 4], ["backward", "ortho", "forward"], axes_choices):
            args = ["transform", src, out, "--kind", kind, "--type", t, "--norm", norm]
            if axes is not None:
                args += ["--axes", ",".join(map(str, axes))]
            if inv:
                args.append("--inverse")
            r = run(*args)
            want = funcs[(kind, inv)](x.astype(np.float64), type=t, axes=axes, norm=norm)
            if r.returncode != 0:
                check(False, f"{args}: {r.stderr}")
                continue
            y = np.load(out)
            n = max(shape) if axes is None else max(shape[a] for a in axes)
            check(y.dtype == dtype and rel(y, want) <= tol(dtype, n), f"{shape} {dtype} {args} err={rel(y, want)}")
    # DREAMPlace's shifted DST (--kind dxst): type 3 is twice the paper's IDXST, by definition.
    x = rng.uniform(-1, 1, (4, 9))
    np.save(src, x)
    r = run("transform", src, out, "--kind", "dxst", "--type", 3, "--axes", "1")
    k = np.arange(9)
    want = 2 * x @ np.sin(np.pi * np.outer(k, 2 * k + 1) / 18)  # [n, k]: sin(pi n (2k+1) / 2N)
    check(r.returncode == 0 and rel(np.load(out), want) < 1e-13, f"dxst: {r.stderr}")
    r = run("transform", src, out, "--kind", "dxst", "--type", 4)
    check(r.returncode != 0 and "type 4 for dxst" in r.stderr, f"dxst type 4: {r.stderr}")
    # The real DFT in halfcomplex order (--kind rdft): numpy's rfft, real parts then imaginary
    # parts backwards, along the last axis.
    r = run("transform", src, out, "--kind", "rdft", "--axes", "1")
    X = np.fft.rfft(x, axis=1)
    want = np.concatenate([X.real, X.imag[:, 1:5][:, ::-1]], axis=1)
    check(r.returncode == 0 and rel(np.load(out), want) < 1e-13, f"rdft: {r.stderr}")
    # A prime length through Bluestein, float64.
    x = rng.uniform(-1, 1, 1009)
    np.save(src, x)
    r = run("transform", src, out, "--type", 4, "--norm", "ortho")
    check(r.returncode == 0 and rel(np.load(out), sf.dct(x, 4, norm="ortho")) < 1e-13, "prime 1009")
    # Integer input becomes float64 (with a note); Fortran order is honoured.
    xi = rng.integers(-50, 50, (6, 8)).astype(np.int16)
    np.save(src, xi)
    r = run("transform", src, out)
    check(r.returncode == 0 and "note" in r.stderr and np.load(out).dtype == np.float64
          and rel(np.load(out), sf.dctn(xi.astype(np.float64))) < 1e-13, "int16 input")
    xf = np.asfortranarray(rng.uniform(-1, 1, (5, 9)))
    np.save(src, xf)
    r = run("transform", src, out, "--norm", "ortho")
    check(r.returncode == 0 and rel(np.load(out), sf.dctn(xf, norm="ortho")) < 1e-13, "Fortran order")
    # --threshold: the fused thresholding equals the transform followed (forward) or preceded
    # (inverse) by zeroing the coefficients below it; a bad value is refused by name.
    x = rng.uniform(-1, 1, (12, 10))
    np.save(src, x)
    r = run("transform", src, out, "--norm", "ortho", "--threshold", 0.3, "--json")
    want = sf.dctn(x, norm="ortho")
    want[np.abs(want) < 0.3] = 0
    rec = json_of(r, "transform")
    check(r.returncode == 0 and rel(np.load(out), want) < 1e-13 and rec is not None
          and rec["threshold"] == 0.3, f"--threshold forward: {r.stderr}")
    r = run("transform", src, out, "--norm", "ortho", "--inverse", "--threshold", 0.3)
    xt = x.copy()
    xt[np.abs(xt) < 0.3] = 0
    check(r.returncode == 0 and rel(np.load(out), sf.idctn(xt, norm="ortho")) < 1e-13,
          f"--threshold inverse: {r.stderr}")
    os.remove(out)
    r = run("transform", src, out, "--threshold", -1)
    check(r.returncode != 0 and "--threshold" in r.stderr and not os.path.exists(out),
          f"--threshold -1: {r.stderr}")
    # --planning measure with --wisdom: the same transform, the pick written to the file and
    # taken from it the next time; bad values and bad files are refused by flag name.
    x = rng.uniform(-1, 1, (40, 24)).astype(np.float32)
    np.save(src, x)
    wisdom = os.path.join(d, "wisdom.txt")
    r = run("transform", src, out, "--norm", "ortho", "--planning", "measure", "--wisdom", wisdom, "-v")
    check(r.returncode == 0 and rel(np.load(out), sf.dctn(x.astype(np.float64), norm="ortho")) < 1e-6
          and "planning: measured" in r.stderr and open(wisdom).read().startswith("# dctx wisdom 1"),
          f"--planning measure: {r.stderr}")
    r = run("transform", src, out, "--norm", "ortho", "--planning", "measure", "--wisdom", wisdom, "-v")
    check(r.returncode == 0 and "planning: from wisdom" in r.stderr, f"--wisdom reused: {r.stderr}")
    os.remove(out)
    r = run("transform", src, out, "--planning", "fastest")
    check(r.returncode != 0 and "--planning" in r.stderr and not os.path.exists(out),
          f"--planning fastest: {r.stderr}")
    with open(wisdom, "w") as f:
        f.write("# dctx wisdom 1\nAVX3\tbroken\n")
    r = run("transform", src, out, "--planning", "measure", "--wisdom", wisdom)
    check(r.returncode != 0 and "--wisdom" in r.stderr and "line 2" in r.stderr
          and not os.path.exists(out), f"--wisdom malformed: {r.stderr}")
    # Round trip.
    x = rng.uniform(-1, 1, (16, 10)).astype(np.float32)
    np.save(src, x)
    run("transform", src, out, "--norm", "ortho")
    r = run("transform", out, out, "--norm", "ortho", "--inverse")
    check(r.returncode == 0 and rel(np.load(out), x) < 1e-6, "round trip float32")
    # Bad inputs: message, non-zero exit, no output file.
    bad = os.path.join(d, "bad.npy")
    with open(bad, "wb") as f:
        f.write(b"not a numpy file at all")
    np.save(os.path.join(d, "one.npy"), np.ones(1))
    np.save(os.path.join(d, "c.npy"), np.ones(4, dtype=np.complex128))
    np.save(os.path.join(d, "x.npy"), np.ones((4, 4)))
    trunc = os.path.join(d, "trunc.npy")
    with open(os.path.join(d, "x.npy"), "rb") as f:
        data = f.read()
    with open(trunc, "wb") as f:
        f.write(data[:-8])
    cases = [
        ([os.path.join(d, "missing.npy")], "cannot open"),
        ([bad], "not a .npy file"),
        ([trunc], "truncated"),
        ([os.path.join(d, "c.npy")], "unsupported dtype"),
        ([os.path.join(d, "one.npy"), "--type", "1"], "DCT-I"),
        ([os.path.join(d, "x.npy"), "--type", "5"], "invalid --type 5"),
        ([os.path.join(d, "x.npy"), "--axes", "0,0"], "axis 0 is repeated in --axes"),
        ([os.path.join(d, "x.npy"), "--axes", "2"], "axis 2 (in --axes) is out of range"),
        ([os.path.join(d, "x.npy"), "--axes", "a"], "invalid --axes"),
        ([os.path.join(d, "x.npy"), "--norm", "orto"], "invalid norm"),
        ([os.path.join(d, "x.npy"), "--norm", "Ortho"], "invalid norm 'Ortho'"),
        ([os.path.join(d, "x.npy"), "--kind", "DCT"], "unknown transform kind 'DCT'"),
        ([os.path.join(d, "x.npy"), "--kind", "fft"], "unknown transform kind"),
        ([os.path.join(d, "x.npy"), "--backend", "cuda"], "backend 'cuda' is not"),
        ([os.path.join(d, "x.npy"), "--backend", "gpu"], "unknown backend 'gpu'"),
    ]
    for extra, needle in cases:
        target = os.path.join(d, "never.npy")
        r = run("transform", extra[0], target, *extra[1:])
        check(r.returncode != 0 and needle in r.stderr and not os.path.exists(target),
              f"bad input {extra}: rc={r.returncode} stderr={r.stderr!r}")
    # compress (built with image I/O): a smooth gray test image (PGM, so the luma is the image).
    if "compress" not in run("--help").stdout:
        print("note: this dctx has no compress command (DCTX_IMAGE_IO=OFF); its checks are skipped")
    else:
        yy, xx = np.mgrid[0:40, 0:56]
        img = np.clip(128 + 60 * np.sin(xx / 6.0) * np.cos(yy / 4.0) + rng.normal(0, 3, xx.shape), 0, 255)
        img = img.astype(np.uint8)
        pgm, cout = os.path.join(d, "img.pgm"), os.path.join(d, "cout.pgm")
        with open(pgm, "wb") as f:
            f.write(b"P5\n%d %d\n255\n" % (img.shape[1], img.shape[0]) + img.tobytes())

        def read_pgm(path):
            with open(path, "rb") as f:
                data = f.read()
            magic, w, h, maxval, pix = data.split(maxsplit=4)
            assert magic == b"P5" and maxval == b"255"
            return np.frombuffer(pix[: int(w) * int(h)], np.uint8).reshape(int(h), int(w))

        def psnr(a, b):
            mse = np.mean((a.astype(float) - b.astype(float)) ** 2)
            return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)

        # --keep 1 keeps every coefficient: the image comes back (all but) exactly.
        r = run("compress", pgm, "--keep", 1, "-o", cout)
        m = re.search(r"PSNR (\S+) dB", r.stdout)
        ok = r.returncode == 0 and m is not None and float(m.group(1)) >= 60 and os.path.exists(cout)
        check(ok and psnr(read_pgm(cout), img) >= 60, f"compress --keep 1: rc={r.returncode} {r.stdout!r} {r.stderr!r}")
        # The same as JSON: valid even when nothing is lost (an infinite PSNR is left out, since
        # JSON has no infinity; a finite one is a number).
        r = run("compress", pgm, "--keep", 1, "--json")
        rec = json_of(r, "compress")
        check(r.returncode == 0 and rec is not None and rec["output"] is None
              and rec.get("psnr_db", 99) >= 60, f"compress --keep 1 --json: {r.stdout!r}")
        # --keep 0.1 --json: the one JSON object, PSNR as measured on the output.
        if os.path.exists(cout):
            os.remove(cout)
        r = run("compress", pgm, "--keep", 0.1, "--json", "-o", cout)
        rec = json_of(r, "compress")
        ok = (r.returncode == 0 and rec is not None and rec["keep"] == 0.1
              and rec["input"] == pgm and rec["output"] == cout and rec["shape"] == [40, 56, 1]
              and rec["dtype"] == "uint8"
              and {"forward", "threshold", "inverse"} <= rec["seconds"].keys()
              and 15 < rec["psnr_db"] < 60 and rec["roundtrip_max_error"] < 1e-3
              and os.path.exists(cout) and abs(psnr(read_pgm(cout), img) - rec["psnr_db"]) < 1e-3)
        check(ok, f"compress --keep 0.1 --json: rc={r.returncode} {r.stdout!r} {r.stderr!r}")
        # --threshold (fused into the forward transform): the image that scipy.fft's orthonormal
        # DCT, the same threshold and the inverse give, to one grey level at rounding ties; the
        # kept fraction as counted there; --keep with that fraction lands on the same image.
        import scipy.fft as sf
        coef = sf.dctn(img.astype(np.float64), norm="ortho")
        thr = float(np.sort(np.abs(coef).ravel())[-224])  # keeps about 10 %
        kept = coef * (np.abs(coef) >= thr)
        want = np.clip(np.rint(sf.idctn(kept, norm="ortho")), 0, 255)
        r = run("compress", pgm, "--threshold", thr * (1 - 1e-6), "--json", "-o", cout)
        rec = json_of(r, "compress")
        got = read_pgm(cout) if r.returncode == 0 else None
        ok = (rec is not None and "keep" not in rec and abs(rec["kept"] - 224 / img.size) < 1e-9
              and got is not None and np.abs(got.astype(int) - want).max() <= 1
              and abs(psnr(got, img) - rec["psnr_db"]) < 1e-3)
        check(ok, f"compress --threshold: {r.stdout!r} {r.stderr!r} "
                  f"{None if got is None else np.abs(got.astype(int) - want).max()}")
        r = run("compress", pgm, "--keep", 224 / img.size, "-o", os.path.join(d, "k.pgm"))
        check(r.returncode == 0 and got is not None
              and np.array_equal(read_pgm(os.path.join(d, "k.pgm")), got),
              f"compress --keep vs --threshold: {r.stdout!r} {r.stderr!r}")
        for args, words in [(("--threshold", -1), "--threshold must be finite and >= 0"),
                            (("--threshold", 1, "--keep", 0.2), "--keep excludes --threshold")]:
            target = os.path.join(d, "never.pgm")
            r = run("compress", pgm, *args, "-o", target)
            check(r.returncode != 0 and words in r.stderr and not os.path.exists(target),
                  f"compress {args}: rc={r.returncode} stderr={r.stderr!r}")
        # jpeg --json: the same schema (the same field names, the same spelling of the back end),
        # and nothing but the object on stdout.
        if "jpeg" in run("--help").stdout:
            r = run("jpeg", pgm, "--json", "--kernel", "fast")
            rec = json_of(r, "jpeg")
            check(r.returncode == 0 and rec is not None and rec["shape"] == [40, 56, 1]
                  and rec["kernel"] == "fast" and 20 < rec["psnr_db"] < 60
                  and "pipeline" in rec["seconds"], f"jpeg --json: {r.stdout!r} {r.stderr!r}")
            for q in ["0", "101"]:
                r = run("jpeg", pgm, "--quality", q)
                check(r.returncode != 0 and f"--quality must lie in 1..100, got {q}" in r.stderr,
                      f"jpeg --quality {q}: rc={r.returncode} stderr={r.stderr!r}")
        # Help texts list every input format that works.
        for cmd in ["compress", "jpeg"]:
            h = run(cmd, "--help").stdout
            check(not h or "JPEG" in h, f"{cmd} --help names JPEG input: {h!r}")
        # An invalid --keep: message, non-zero exit, no output file.
        for keep in ["0", "1.5"]:
            target = os.path.join(d, "never.pgm")
            r = run("compress", pgm, "--keep", keep, "-o", target)
            check(r.returncode != 0 and "--keep must be in (0, 1]" in r.stderr and not os.path.exists(target),
                  f"compress --keep {keep}: rc={r.returncode} stderr={r.stderr!r}")
    # backends: every known back end, the CPU usable, as text and as JSON.
    r = run("backends")
    check(r.returncode == 0 and re.search(r"^cpu +usable", r.stdout, re.M)
          and "opencl" in r.stdout and "cuda" in r.stdout, f"backends: {r.stdout!r} {r.stderr!r}")
    r = run("backends", "--json")
    try:
        rec = json.loads(r.stdout)
        assert rec["command"] == "backends"
        listed = {b["name"]: b for b in rec["backends"]}
        ok = (listed["cpu"]["usable"] and listed["cpu"]["host_memory"]
              and (listed["cuda"]["usable"] or listed["cuda"]["reason"])
              and (listed["cuda"]["built"] or "not built" in listed["cuda"]["reason"]))
    except (ValueError, KeyError, TypeError, AssertionError):
        ok = False
    check(r.returncode == 0 and ok, f"backends --json: {r.stdout!r}")
    # transform --json: the schema, with the transform's own fields.
    x = rng.uniform(-1, 1, (6, 5)).astype(np.float32)
    np.save(src, x)
    r = run("transform", src, out, "--kind", "dst", "--type", 3, "--axes", "1", "--json")
    rec = json_of(r, "transform")
    check(r.returncode == 0 and rec is not None and rec["input"] == src and rec["output"] == out
          and rec["shape"] == [6, 5] and rec["dtype"] == "float32" and rec["kind"] == "dst"
          and rec["type"] == 3 and rec["norm"] == "backward" and rec["axes"] == [1]
          and rec["inverse"] is False and {"plan", "execute"} <= rec["seconds"].keys()
          and rel(np.load(out), sf.dstn(x.astype(np.float64), type=3, axes=[1])) < 1e-5,
          f"transform --json: {r.stdout!r} {r.stderr!r}")
    np.save(src, rng.uniform(-1, 1, (6, 5)))
    r = run("transform", src, out, "--backend", "cpu", "--norm", "ortho")
    check(r.returncode == 0 and np.allclose(np.load(out), sf.dctn(np.load(src), norm="ortho")),
          f"--backend cpu: {r.stderr!r}")
    # --backend opencl and --device, when this build has a usable OpenCL device.
    listed = {b["name"]: b for b in json.loads(run("backends", "--json").stdout)["backends"]}
    if listed["opencl"]["usable"]:
        # A device without cl_khr_fp64 (ctest cli.opencl_fp64_masked masks it) refuses float64
        # with the reason; its description then does not end in "fp64)".
        fp64 = listed["opencl"]["description"].endswith("fp64)")
        for dtype in (np.float32, np.float64):
            x = rng.uniform(-1, 1, (9, 14)).astype(dtype)
            np.save(src, x)
            for kind, t, inv in (("dct", 2, False), ("dst", 3, True)):
                r = run("transform", src, out, "--backend", "opencl", "--device", "0", "--kind",
                        kind, "--type", t, *(["--inverse"] if inv else []), "--norm", "ortho", "-v")
                if dtype == np.float64 and not fp64:
                    check(r.returncode != 0 and "has no cl_khr_fp64" in r.stderr,
                          f"--backend opencl float64 without fp64: {r.stderr!r}")
                    continue
                want = funcs[(kind, inv)](x.astype(np.float64), type=t, norm="ortho")
                check(r.returncode == 0 and "opencl[" in r.stderr
                      and rel(np.load(out), want) < tol(dtype, 14) * 2,
                      f"--backend opencl {kind} {t} {np.dtype(dtype).name}: {r.stderr!r}")
        # The 8x8 block engine on OpenCL: the CPU's coefficients exactly.
        b = rng.uniform(-128, 127, (24, 40)).astype(np.float32)
        np.save(src, b)
        cpu_out = os.path.join(d, "cpu.npy")
        r1 = run("block8", src, out, "--backend", "opencl")
        r2 = run("block8", src, cpu_out, "--backend", "cpu")
        check(r1.returncode == 0 and r2.returncode == 0
              and np.array_equal(np.load(out), np.load(cpu_out)),
              f"block8 --backend opencl: {r1.stderr!r}")
        r = run("transform", src, out, "--backend", "opencl", "--device", "no-such-device")
        check(r.returncode != 0 and "matches no device name" in r.stderr,
              f"--device no-such-device: {r.stderr!r}")
    r = run("--version")
    check(r.returncode == 0 and "dctx" in r.stdout, "--version")
    r = run("--help")
    check(r.returncode == 0 and "transform" in r.stdout, "--help")

finish()
