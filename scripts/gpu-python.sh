#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Python half of scripts/gpu-check.sh: builds the _dctx extension for the GPU machine's own
# python3 (its version differs from the one the project builds for) from the library archive that
# `gpu-check.sh prepare` packed (libdctx.a with the CUDA kernels, sm_80/sm_90 code), then runs the
# Python tests of CUDA arrays (CuPy, PyTorch) and of CUDA plans against scipy.fft on the host.
#   scripts/gpu-python.sh build PACK   compile and link (CPU only: runs beside the GPU benchmark)
#   scripts/gpu-python.sh test PACK OUT  the tests (after the benchmark: they use the GPU); logs to OUT
# Needs a C++20 compiler and pytest there; nanobind travels in PACK (the version built here).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=$1
pack=$2
py=${PYTHON:-python3}
work=${DCTX_GPU_PY_DIR:-/tmp/dctx-gpu-python}
# gpu-check.sh's LD_LIBRARY_PATH holds the build machine's libstdc++, older than the one PyTorch
# and CuPy need: the extension finds its own libraries through its rpath instead.
unset LD_LIBRARY_PATH
if [ "$mode" = test ]; then
  out=$3
  cd python/tests
  rc=0
  PYTHONPATH="$work" PYTHONUNBUFFERED=1 timeout "${DCTX_GPU_PY_TIMEOUT:-150}" "$py" -m pytest -q \
    -p no:cacheprovider test_cuda_arrays.py test_plan.py test_electrostatics.py >"$out/python_cuda.log" 2>&1 || rc=$?
  tail -12 "$out/python_cuda.log"
  exit $rc
fi
nb=$pack/py/nanobind
rm -rf "$work" && mkdir -p "$work/obj"
cp -r python/dctx "$work/"
rm -f "$work"/dctx/_dctx*.so
inc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -e "$inc/Python.h" ] || { echo "gpu-python: no Python.h under $inc: cannot build the extension"; exit 3; }
ext=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
# cuFFT: the toolkit's, else the nvidia-cufft wheel's (as gpu-check.sh finds it).
cufft=
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib \
         "$("$py" -c 'import nvidia.cufft, os; print(os.path.join(nvidia.cufft.__path__[0], "lib"))' 2>/dev/null)"; do
  [ -n "$d" ] && [ -e "$d/libcufft.so.12" ] && cufft=$d && break
done
[ -n "$cufft" ] || { echo "gpu-python: no libcufft.so.12 found"; exit 2; }
compile() {  # one object per source; run in parallel by xargs below
  local src=$1 obj
  obj="$work/obj/$(basename "$src" .cpp).o"
  local flags=(-O2 -fPIC -fvisibility=hidden -std=c++20 -I"$inc" -I"$nb/include")
  if [[ $src == */nb_combined.cpp ]]; then
    c++ "${flags[@]}" -DNB_BUILD -DNB_COMPACT_ASSERTIONS -fno-strict-aliasing \
      -isystem "$nb/ext/robin_map/include" -c "$src" -o "$obj"
  else
    c++ "${flags[@]}" -DDCTX_PY_HAS_CUDA=1 -Isrc -Iinclude -I"$pack/py/include" \
      -Isrc/cuda/include -Isrc/opencl/include -c "$src" -o "$obj"
  fi
}
export -f compile
export work nb inc pack
srcs=("$nb/src/nb_combined.cpp")
for s in module args arrays r2r plan backends poisson restore electrostatics cli block8; do
  srcs+=("python/src/$s.cpp")
done
printf '%s\n' "${srcs[@]}" | xargs -P "$(nproc)" -I{} bash -c 'compile "$1"' _ {}
cp "$pack/lib/libhwy.so.1" "$pack/lib/libOpenCL.so.1" "$work/dctx/"
c++ -shared -o "$work/dctx/_dctx$ext" "$work"/obj/*.o "$pack/py/libdctx.a" \
  "$work/dctx/libhwy.so.1" "$work/dctx/libOpenCL.so.1" "$pack/py/libcudart_static.a" \
  "$cufft/libcufft.so.12" -ldl -lrt -lpthread -Wl,-rpath,"\$ORIGIN:$cufft" -Wl,--gc-sections -s
echo "gpu-python: built $work/dctx/_dctx$ext for $("$py" --version)"
