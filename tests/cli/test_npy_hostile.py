# SPDX-License-Identifier: BSD-3-Clause
"""The .npy reader against hostile and odd files: dctx reads a strict subset of what numpy.load
reads (every header NumPy's writers produce, in any spelling of spaces, quotes, key order and
trailing commas) and refuses everything numpy refuses. Every file of tests/cli/npy_hostile/
(malformed headers, shapes whose sizes overflow) is refused quickly by `dctx transform` and
`dctx block8 --int16` with "dctx: error: ..." naming the file, no output file and no C++ words
(stoull, bad_alloc, _M_...); crafted headers that numpy writes or reads (keys in another order,
shape (), (5,), format 2.0 and 3.0, big-endian, bool, Fortran order, Python 2's 8L) transform as
scipy.fft.dctn does; Python-literal spellings that no writer produces (hex extents, comments,
escapes, repeated keys) are refused with a message naming the field."""
import os
import struct
import subprocess
import tempfile
import time
import warnings

import numpy as np
import scipy.fft as sf

from checks import check, finish

DCTX = os.environ["DCTX"]
HERE = os.path.dirname(os.path.abspath(__file__))
HOSTILE = os.path.join(HERE, "npy_hostile")
# Reproducers that numpy.load reads (0x8 is a Python int literal) but no writer produces: refused.
NUMPY_READS = {"shape_hex.npy"}
# What each reproducer's message must say (besides naming the file).
SAYS = {
    "descr_f4junk.npy": "unsupported dtype '<f4x'",
    "fortran_garbage.npy": "malformed fortran_order 'TrueIsh'",
    "fuzz_wrap_u8_int16.npy": "malformed",
    "huge_1d.npy": "shape (2305843009213693951,) is too large",
    "shape_2e64.npy": "shape extent 18446744073709551616 is too large",
    "shape_8x.npy": "malformed shape '(8x, 8)'",
    "shape_float.npy": "malformed shape '(8.5, 8)'",
    "shape_str.npy": "malformed shape \"'8,8'\"",
    "shape_hex.npy": "malformed shape '(0x8, 8)'",
}
CXX_WORDS = ("stoul", "stoi", "bad_alloc", "_M_", "basic_string", "std::", "length_error")



def run(*args):
    for a in args[2:3]:  # OUT: whatever an earlier run left there goes first
        if os.path.exists(a):
            os.remove(a)
    t = time.monotonic()
    r = subprocess.run([DCTX, *map(str, args)], capture_output=True, text=True, timeout=60)
    return r, time.monotonic() - t


def numpy_reads(path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.load(path)
        return True
    except Exception:
        return False


def npy(header, data=b"", version=(1, 0), pad=True):
    """A .npy file with the header text as given (padded to 64 bytes and ended by a newline as
    numpy writes it, unless pad is False)."""
    pre = 10 if version == (1, 0) else 12
    if pad:
        header += " " * ((64 - (pre + len(header) + 1) % 64) % 64) + "\n"
    h = header.encode("utf-8" if version >= (3, 0) else "latin-1")
    size = struct.pack("<H" if version == (1, 0) else "<I", len(h))
    return b"\x93NUMPY" + bytes(version) + size + h + data


def refused(r, dt, path, out, needle=""):
    err = r.stderr
    return (r.returncode != 0 and err.startswith("dctx: error: ") and path in err
            and needle in err and not os.path.exists(out) and dt < 10
            and not any(w in err for w in CXX_WORDS) and err.count("\n") == 1)


def transformed_right(path, out):
    """dctx transform equals scipy.fft.dctn on what numpy.load reads."""
    r, _ = run("transform", path, out)
    if r.returncode != 0:
        return False, r.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the note on Python 2's 8L
        x = np.load(path)
    single = x.dtype in (np.float16, np.float32)
    want = sf.dctn(x.astype(np.float32 if single else np.float64))
    got = np.load(out)
    os.remove(out)
    err = np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30)
    ok = (got.shape == x.shape and got.dtype == (np.float32 if single else np.float64)
          and err < (1e-5 if single else 1e-12))
    return ok, f"shape {got.shape} dtype {got.dtype} err {err}"


with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "out.npy")
    has_block8 = "block8" in subprocess.run([DCTX, "--help"], capture_output=True, text=True).stdout
    # 1. The reproducers.
    files = sorted(f for f in os.listdir(HOSTILE) if f.endswith(".npy"))
    check(len(files) >= 9, f"reproducers in {HOSTILE}: {files}")
    for f in files:
        path = os.path.join(HOSTILE, f)
        reads = f in NUMPY_READS
        check(numpy_reads(path) == reads, f"{f}: numpy.load {'refuses' if reads else 'reads'} it")
        r, dt = run("transform", path, out)
        check(refused(r, dt, path, out, SAYS.get(f, "")),
              f"{f}: transform rc={r.returncode} {dt:.1f}s stderr={r.stderr!r}")
        if has_block8:
            r, dt = run("block8", path, out, "--int16")
            check(refused(r, dt, path, out), f"{f}: block8 --int16 rc={r.returncode} "
                  f"{dt:.1f}s stderr={r.stderr!r}")

    # 2. Crafted headers that numpy reads: dctx reads them and transforms them right.
    rng = np.random.default_rng(7)
    base = "{'descr': '<f4', 'fortran_order': False, 'shape': (8, 8), }"
    f32 = rng.uniform(-1, 1, (8, 8)).astype("<f4").tobytes()
    good = {
        "numpy's own": (base, f32),
        "keys in another order": ("{'shape': (8, 8), 'fortran_order': False, 'descr': '<f4'}", f32),
        "double quotes, no spaces": ('{"descr":"<f4","fortran_order":False,"shape":(8,8)}', f32),
        "shape ()": ("{'descr': '<f8', 'fortran_order': False, 'shape': ()}", struct.pack("<d", 2.5)),
        "shape (5,)": ("{'descr': '<f8', 'fortran_order': False, 'shape': (5,)}",
                       np.arange(5.0).tobytes()),
        "shape (64,), trailing comma": ("{'descr': '<f4', 'fortran_order': False, 'shape': (64,),}",
                                        f32),
        "shape (8, 8,)": ("{'descr': '<f4', 'fortran_order': False, 'shape': (8, 8,)}", f32),
        "descr f4, no byte order": ("{'descr': 'f4', 'fortran_order': False, 'shape': (8, 8)}",
                                    f32),
        "descr =f4": ("{'descr': '=f4', 'fortran_order': False, 'shape': (8, 8)}", f32),
        "Python 2 longs (8L)": ("{'descr': '<f4', 'fortran_order': False, 'shape': (8L, 8L), }",
                                f32),
        "data after the array": (base, f32 + b"trailing bytes"),
        "|u1": ("{'descr': '|u1', 'fortran_order': False, 'shape': (8, 8)}", bytes(range(64))),
        "<b1": ("{'descr': '<b1', 'fortran_order': False, 'shape': (4, 4)}", bytes([0, 1] * 8)),
        ">i2 Fortran": ("{'descr': '>i2', 'fortran_order': True, 'shape': (4, 6)}",
                        np.arange(-12, 12, dtype=">i2").tobytes()),
        "<f2": ("{'descr': '<f2', 'fortran_order': False, 'shape': (8, 8)}",
                rng.uniform(-1, 1, 64).astype("<f2").tobytes()),
        ">f8 Fortran": ("{'descr': '>f8', 'fortran_order': True, 'shape': (3, 5, 4)}",
                        rng.uniform(-1, 1, 60).astype(">f8").tobytes()),
    }
    for name, (header, data) in good.items():
        path = os.path.join(d, "good.npy")
        with open(path, "wb") as fh:
            fh.write(npy(header, data))
        check(numpy_reads(path), f"{name}: numpy.load reads it (the test's premise)")
        ok, why = transformed_right(path, out)
        check(ok, f"{name}: {header!r}: {why}")
    for version in [(2, 0), (3, 0)]:
        path = os.path.join(d, "v.npy")
        with open(path, "wb") as fh:
            fh.write(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (8, 8), }",
                         f32, version))
        ok, why = transformed_right(path, out)
        check(numpy_reads(path) and ok, f"format {version}: {why}")

    # 3. Crafted files that numpy refuses: refused, with the file named and the problem said.
    bad = {
        "(8, True)": ("{'descr': '<f4', 'fortran_order': False, 'shape': (8, True)}", "shape"),
        "(-8, 8)": ("{'descr': '<f4', 'fortran_order': False, 'shape': (-8, 8)}", "negative"),
        "[8, 8]": ("{'descr': '<f4', 'fortran_order': False, 'shape': [8, 8]}", "malformed shape"),
        "(64)": ("{'descr': '<f4', 'fortran_order': False, 'shape': (64)}", "malformed shape"),
        "(8,, 8)": ("{'descr': '<f4', 'fortran_order': False, 'shape': (8,, 8)}", "malformed shape"),
        "(08, 8)": ("{'descr': '<f4', 'fortran_order': False, 'shape': (08, 8)}", "malformed shape"),
        "(1__6, 4)": ("{'descr': '<f4', 'fortran_order': False, 'shape': (1__6, 4)}", "shape"),
        "(16l, 4)": ("{'descr': '<f4', 'fortran_order': False, 'shape': (16l, 4)}", "shape"),
        "--8": ("{'descr': '<f4', 'fortran_order': False, 'shape': (--8, 8)}", "shape"),
        "'<f4 '": ("{'descr': '<f4 ', 'fortran_order': False, 'shape': (8, 8)}", "dtype"),
        "b'<f4'": ("{'descr': b'<f4', 'fortran_order': False, 'shape': (8, 8)}", "dtype"),
        "fortran_order 1": ("{'descr': '<f4', 'fortran_order': 1, 'shape': (8, 8)}",
                            "malformed fortran_order '1'"),
        "fortran_order true": ("{'descr': '<f4', 'fortran_order': true, 'shape': (8, 8)}",
                               "fortran_order"),
        "an extra key": ("{'descr': '<f4', 'fortran_order': False, 'shape': (8, 8), 'x': 1}",
                         "'x'"),
        "a missing key": ("{'descr': '<f4', 'shape': (8, 8)}", "keys"),
        "not a dict": ("[('descr', '<f4')]", "not a dict"),
        "indented": ("\n  {'descr': '<f4', 'fortran_order': False, 'shape': (8, 8)}", "not a dict"),
        "a vertical tab": ("{'descr': '<f4',\v'fortran_order': False, 'shape': (8, 8)}", "\\x0b"),
        "a NUL": ("{'descr': '<f4', 'fortran_order': False, 'shape': (8, 8)}\0", "NUL"),
        "an unterminated string": ("{'descr': '<f4, 'fortran_order': False, 'shape': (8, 8)}",
                                   "malformed"),
        "an f-string": ("{'descr': f'<f4', 'fortran_order': False, 'shape': (8, 8)}", "descr"),
        "bytes joined to str": ("{'descr': '<f' b'4', 'fortran_order': False, 'shape': (8, 8)}",
                                "descr"),
        "an unhashable key": ("{'descr': '<f4', 'fortran_order': False, 'shape': (8, 8), [1]: 2}",
                              "expected a quoted key"),
        "201 nested brackets": ("{'descr': '<f4', 'fortran_order': False, 'shape': " + "(" * 201
                                + "8, 8" + ")" * 201 + "}", "shape"),
        "2^32 x 2^32 elements": ("{'descr': '<f4', 'fortran_order': False, "
                                 "'shape': (4294967296, 4294967296)}", "too large"),
        "2^63 - 1 float64 values": ("{'descr': '<f8', 'fortran_order': False, "
                                    "'shape': (9223372036854775807,)}", "too large"),
        "2^61 - 1 uint64 values (the offset wraps)": ("{'descr': '>u8', 'fortran_order': False, "
                                                      "'shape': (2305843009213693951,)}",
                                                      "too large"),
        "2^40 bytes in a small file": ("{'descr': '|u1', 'fortran_order': False, "
                                       "'shape': (1099511627776,)}", "truncated"),
        "extent 2^63": ("{'descr': '<f4', 'fortran_order': False, "
                        "'shape': (9223372036854775808, 1)}", "shape extent 9223372036854775808"),
        "65 axes": ("{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, " * 65 + ")}",
                    "64"),
        "truncated data": (base, "truncated"),
        "over 10000 characters": ("{'descr': '<f4', 'fortran_order': False, 'shape': (8, 8)}"
                                  + " " * 10050, "10000"),
    }
    raw = {
        "format 4.0": b"\x93NUMPY\x04\x00" + npy(base, f32)[8:],
        "format 1.1": b"\x93NUMPY\x01\x01" + npy(base, f32)[8:],
        "L in format 3.0": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (8L, 8)}",
                               f32, (3, 0)),
        "invalid UTF-8 in format 3.0": npy(base + " #", f32, (3, 0)).replace(b"#", b"#\xff"),
        "a header length of 2^32 - 1": b"\x93NUMPY\x02\x00\xff\xff\xff\xff{",
        "a header cut short": npy(base, f32)[:40],
        "seven bytes": b"\x93NUMPY\x01",
    }
    refusals = {name: (npy(header, f32[:100] if name == "truncated data" else f32,
                           (2, 0) if "10000" in needle else (1, 0)), needle)
                for name, (header, needle) in bad.items()}
    refusals.update({name: (blob, "") for name, blob in raw.items()})
    for name, (blob, needle) in refusals.items():
        path = os.path.join(d, "bad.npy")
        with open(path, "wb") as fh:
            fh.write(blob)
        check(not numpy_reads(path), f"{name}: numpy.load refuses it (the test's premise)")
        r, dt = run("transform", path, out)
        check(refused(r, dt, path, out, needle), f"{name}: rc={r.returncode} {dt:.1f}s "
              f"stderr={r.stderr!r}")

    # 4. What numpy reads but dctx does not, by design: a clear refusal naming the field.
    by_design = {
        "a zero extent": ("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 8)}",
                          "empty array"),
        "complex": ("{'descr': '<c8', 'fortran_order': False, 'shape': (4, 4)}",
                    "unsupported dtype '<c8'"),
        "a dtype name": ("{'descr': 'float32', 'fortran_order': False, 'shape': (8, 8)}",
                         "unsupported dtype 'float32'"),
        # Python-literal spellings that numpy.load reads but no writer produces.
        "a comment": ("{'descr': '<f4', # c\n 'fortran_order': False, 'shape': (8, 8)}",
                      "expected a quoted key"),
        "hex, octal, binary, +, _": ("{'descr': '<f4', 'fortran_order': False, "
                                     "'shape': (0x2, 0o2, +0b1_0, 8)}", "malformed shape"),
        "parentheses": ("{'descr': ('<f4'), 'fortran_order': (False), 'shape': ((8), (8))}",
                        "malformed descr"),
        "descr escapes": ("{'descr': '<f\\x34', 'fortran_order': False, 'shape': (8, 8)}",
                          "malformed descr"),
        "a key twice": ("{'descr': '<f8', 'fortran_order': False, 'shape': (8, 4), "
                        "'descr': '<f4'}", "(repeated)"),
        "a leading line break": ("\n{'descr': '<f4', 'fortran_order': False, 'shape': (8, 8)}",
                                 "not a dict"),
    }
    for name, (header, needle) in by_design.items():
        path = os.path.join(d, "design.npy")
        with open(path, "wb") as fh:
            fh.write(npy(header, f32))
        check(numpy_reads(path), f"{name}: numpy.load reads it (the test's premise)")
        r, dt = run("transform", path, out)
        check(refused(r, dt, path, out, needle), f"{name}: rc={r.returncode} stderr={r.stderr!r}")

finish()
