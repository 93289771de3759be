#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CLI checks of the 8x8 block engine: `dctx jpeg` on Barbara reports the NVIDIA whitepaper's 32.777 dB;
# `dctx block8` equals the blockwise orthonormal DCT (scipy) and round-trips; bad inputs fail
# with a clear message and leave no output file.
# Environment: DCTX (the dctx binary), DATA_DIR (folder with barbara.bmp), PYTHON (numpy, scipy).
set -euo pipefail
DCTX=${DCTX:?set DCTX to the dctx binary}
DATA_DIR=${DATA_DIR:?set DATA_DIR to the data folder}
PYTHON=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. The whitepaper's pipeline: PSNR as JSON (stdout holds the one JSON object and nothing else).
"$DCTX" jpeg "$DATA_DIR/barbara.bmp" --table nvidia --json -o "$tmp/out.png" > "$tmp/jpeg.txt"
"$PYTHON" - "$tmp/jpeg.txt" <<'EOF'
import json, sys
r = json.loads(open(sys.argv[1]).read())
for k in ("command", "input", "output", "shape", "dtype", "backend", "target", "psnr_db",
          "zero_fraction", "seconds", "kernel"):
    assert k in r, k
assert abs(r["psnr_db"] - 32.777) <= 0.001, r
assert 0 < r["zero_fraction"] < 1, r
assert r["backend"] == "cpu" and r["shape"] == [512, 512, 3] and r["output"].endswith("out.png"), r
print("jpeg: %.4f dB on %s:%s" % (r["psnr_db"], r["backend"], r["target"]))
EOF
head -c 8 "$tmp/out.png" | od -An -c | grep -q 'P   N   G' || fail "out.png is not a PNG"
"$DCTX" jpeg "$DATA_DIR/barbara.bmp" --int16 --json | "$PYTHON" -c '
import json, sys; r = json.load(sys.stdin); assert abs(r["psnr_db"] - 32.777) <= 0.05, r; assert r["kernel"] == "int16"'
"$DCTX" jpeg "$DATA_DIR/barbara.bmp" --table jpeg --quality 75 --color -o "$tmp/colour.bmp" > /dev/null
test -s "$tmp/colour.bmp" || fail "colour output missing"

# 2. block8 on .npy: forward equals scipy's orthonormal DCT of each 8x8 block; inverse undoes it.
"$PYTHON" - "$tmp" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(8)
np.save(d + "/x32.npy", rng.uniform(-255, 255, (40, 56)).astype(np.float32))
np.save(d + "/x64.npy", rng.uniform(-255, 255, (2, 16, 24)))
np.save(d + "/xi16.npy", rng.integers(-255, 256, (24, 32)).astype(np.int16))
np.save(d + "/odd.npy", rng.uniform(-1, 1, (20, 16)).astype(np.float32))
EOF
"$DCTX" block8 "$tmp/x32.npy" "$tmp/c32.npy"
"$DCTX" block8 "$tmp/c32.npy" "$tmp/y32.npy" --inverse
"$DCTX" block8 "$tmp/x64.npy" "$tmp/c64.npy" --kernel reference
"$DCTX" block8 "$tmp/xi16.npy" "$tmp/ci16.npy" --int16
"$DCTX" block8 "$tmp/odd.npy" "$tmp/codd.npy" --edge replicate
"$PYTHON" - "$tmp" <<'EOF'
import sys, numpy as np
from scipy.fft import dctn
d = sys.argv[1]
def blockwise(x):
    x = np.asarray(x, np.float64)
    h, w = x.shape[-2:]
    b = x.reshape(x.shape[:-2] + (h // 8, 8, w // 8, 8))
    return dctn(b, axes=(-3, -1), norm="ortho").reshape(x.shape)
x, c = np.load(d + "/x32.npy"), np.load(d + "/c32.npy")
assert c.dtype == np.float32 and c.shape == x.shape
err = np.abs(c - blockwise(x)).max()
assert err <= 8 * 255 * 8 * np.finfo(np.float32).eps, err          # float32 accuracy
assert np.abs(np.load(d + "/y32.npy") - x).max() <= 1e-3
x, c = np.load(d + "/x64.npy"), np.load(d + "/c64.npy")
assert c.dtype == np.float64 and np.abs(c - blockwise(x)).max() <= 1e-3
x, c = np.load(d + "/xi16.npy"), np.load(d + "/ci16.npy")
assert c.dtype == np.int16 and np.abs(c - np.round(blockwise(x))).max() <= 1
x, c = np.load(d + "/odd.npy"), np.load(d + "/codd.npy")
assert c.shape == (24, 16)
p = np.pad(x, ((0, 4), (0, 0)), mode="edge")
assert np.abs(c - blockwise(p)).max() <= 1e-4
print("block8: forward/inverse/int16/replicate agree with scipy")
EOF

# 2b. --quantize: forward writes int16 levels round(C / Q) (half away from zero), --inverse turns
# levels back into samples; float and int16 modes.
"$DCTX" block8 "$tmp/x32.npy" "$tmp/l32.npy" --quantize nvidia
"$DCTX" block8 "$tmp/l32.npy" "$tmp/r32.npy" --inverse --quantize nvidia
"$DCTX" block8 "$tmp/xi16.npy" "$tmp/li16.npy" --quantize jpeg --quality 75 --int16
"$DCTX" block8 "$tmp/li16.npy" "$tmp/ri16.npy" --inverse --quantize jpeg --quality 75 --int16
"$PYTHON" - "$tmp" <<'EOF'
import sys, numpy as np
from scipy.fft import dctn, idctn
d = sys.argv[1]
def blockwise(x, f=dctn):
    x = np.asarray(x, np.float64)
    h, w = x.shape[-2:]
    b = x.reshape(x.shape[:-2] + (h // 8, 8, w // 8, 8))
    return f(b, axes=(-3, -1), norm="ortho").reshape(x.shape)
def tiled(q, shape):
    return np.tile(np.asarray(q, np.float64).reshape(8, 8), (shape[0] // 8, shape[1] // 8))
nvidia = [32, 33, 51, 81, 66, 39, 34, 17, 33, 36, 48, 47, 28, 23, 12, 12, 51, 48, 47, 28, 23, 12, 12, 12,
          81, 47, 28, 23, 12, 12, 12, 12, 66, 28, 23, 12, 12, 12, 12, 12, 39, 23, 12, 12, 12, 12, 12, 12,
          34, 12, 12, 12, 12, 12, 12, 12, 17, 12, 12, 12, 12, 12, 12, 12]
luma = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99]
luma75 = [min(max((q * 50 + 50) // 100, 1), 255) for q in luma]  # libjpeg scaling, quality 75
def rha(v):
    return np.sign(v) * np.floor(np.abs(v) + 0.5)
x, lv = np.load(d + "/x32.npy"), np.load(d + "/l32.npy")
assert lv.dtype == np.int16 and lv.shape == x.shape
q = tiled(nvidia, x.shape)
t = blockwise(x) / q
far = np.abs(np.abs(t - np.floor(t)) - 0.5) > 1e-3   # away from a rounding tie
assert far.mean() > 0.99 and np.array_equal(lv[far], rha(t)[far]), np.abs(lv - rha(t)).max()
r = np.load(d + "/r32.npy")
assert r.dtype == np.float32 and np.abs(r - blockwise(lv * q, idctn)).max() <= 1e-3
xi, li = np.load(d + "/xi16.npy"), np.load(d + "/li16.npy")
qi = tiled(luma75, xi.shape)
assert li.dtype == np.int16 and np.abs(li - rha(blockwise(xi) / qi)).max() <= 1
ri = np.load(d + "/ri16.npy")
assert ri.dtype == np.int16 and np.abs(ri - np.clip(rha(blockwise(li * qi, idctn)), -256, 255)).max() <= 1
print("block8 --quantize: levels and reconstructions agree with scipy")
EOF

# 3. Bad inputs: clear error, non-zero exit, no output file.
expect_fail() {  # expect_fail WORD OUTFILE -- command...
  local word=$1 out=$2; shift 3
  if "$@" > "$tmp/stdout" 2> "$tmp/stderr"; then fail "no error from: $*"; fi
  grep -q -- "$word" "$tmp/stderr" || fail "message of '$*' lacks '$word': $(cat "$tmp/stderr")"
  test ! -e "$out" || fail "'$*' left $out behind"
  ! ls "$tmp" | grep -q '\.tmp' || fail "'$*' left a temporary file"
}
expect_fail "multiples of 8" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/odd.npy" "$tmp/bad.npy"
# Messages in the command line's words: flags, not the library's C++ names.
grep -q -- "--edge replicate" "$tmp/stderr" || fail "no --edge replicate hint: $(cat "$tmp/stderr")"
grep -q "Block8Edge" "$tmp/stderr" && fail "a C++ name in: $(cat "$tmp/stderr")"
expect_fail "--threads must be >= 0" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/x32.npy" "$tmp/bad.npy" --threads -1
expect_fail "--threads must be >= 0" "$tmp/bad.npy" -- "$DCTX" transform "$tmp/x32.npy" "$tmp/bad.npy" --threads -1
expect_fail "unknown block8 edge mode 'Replicate'" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/odd.npy" "$tmp/bad.npy" --edge Replicate
expect_fail "int16" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/x32.npy" "$tmp/bad.npy" --int16
expect_fail "float32 or float64" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/xi16.npy" "$tmp/bad.npy"
expect_fail "missing.npy" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/missing.npy" "$tmp/bad.npy"
expect_fail "--kernel int16 transforms int16 data (--int16)" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/x32.npy" "$tmp/bad.npy" --kernel int16
expect_fail "mpeg" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/x32.npy" "$tmp/bad.npy" --quantize mpeg
expect_fail "--quality applies to --quantize" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/x32.npy" "$tmp/bad.npy" --quality 5
expect_fail "1..100" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/x32.npy" "$tmp/bad.npy" --quantize jpeg --quality 101
expect_fail "int16" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/x32.npy" "$tmp/bad.npy" --quantize nvidia --inverse
expect_fail "float32 or float64" "$tmp/bad.npy" -- "$DCTX" block8 "$tmp/xi16.npy" "$tmp/bad.npy" --quantize nvidia
printf 'not an image' > "$tmp/fake.png"
expect_fail "fake.png' is not a BMP, PNG, PGM/PPM or JPEG file" "$tmp/bad.png" -- "$DCTX" jpeg "$tmp/fake.png" -o "$tmp/bad.png"
# The pixel limit (--max-pixels; Barbara has 262144): named in the command line's words.
expect_fail "more than the limit of 1000 (--max-pixels)" "$tmp/bad.png" -- "$DCTX" compress "$DATA_DIR/barbara.bmp" --max-pixels 1000 -o "$tmp/bad.png"
expect_fail "--max-pixels must be at least 1" "$tmp/bad.png" -- "$DCTX" jpeg "$DATA_DIR/barbara.bmp" --max-pixels 0 -o "$tmp/bad.png"
expect_fail "1..100" "$tmp/bad.png" -- "$DCTX" jpeg "$DATA_DIR/barbara.bmp" --quality 0 -o "$tmp/bad.png"
expect_fail "mpeg" "$tmp/bad.png" -- "$DCTX" jpeg "$DATA_DIR/barbara.bmp" --table mpeg -o "$tmp/bad.png"
expect_fail "extension" "$tmp/bad.tiff" -- "$DCTX" jpeg "$DATA_DIR/barbara.bmp" -o "$tmp/bad.tiff"
expect_fail "nodir" "$tmp/nodir/bad.png" -- "$DCTX" jpeg "$DATA_DIR/barbara.bmp" -o "$tmp/nodir/bad.png"
echo "cli.block8: all checks passed"
