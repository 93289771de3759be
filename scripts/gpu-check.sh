#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The device checks of the CUDA and OpenCL back ends on a GPU machine, as one call (docs/cuda.md,
# docs/opencl.md).
#   scripts/gpu-check.sh prepare   here: builds test_cuda, bench_cuda, test_opencl (preset release;
#                                  nvcc makes sm_80 and sm_90 code) and bench_opencl (preset bench)
#                                  and packs them, with the shared libraries a bare machine lacks
#                                  (Debian's OpenCL ICD loader, clFFT, Highway, libstdc++), and
#                                  libdctx.a, the CUDA runtime and nanobind for the Python half,
#                                  and the dctx command, into build-gpu/pack.txz (about 15 MiB;
#                                  cuFFT is the machine's own)
#   scripts/gpu-check.sh run       there (carry build-gpu): the cuda tests, the CUDA benchmark
#                                  against cuFFT, VkFFT and CuPy, the Python CUDA-array tests
#                                  (scripts/gpu-python.sh), `dctx transform/jpeg --backend cuda`
#                                  against the CPU, then the opencl tests (NVIDIA's OpenCL
#                                  driver behind the ICD loader when present) and the benchmark
#                                  against clFFT, memcheck; the CUDA table last. Logs under $OUT
#                                  when set (at most 8 files)
#   scripts/gpu-check.sh run cuda  the same without the OpenCL half
#   DCTX_GPU_PROFILE=1             adds Nsight Compute on five kernels (ncu.txt)
# Under the device tool:  run(command="bash scripts/gpu-check.sh run", carry=["build-gpu"])
set -euo pipefail
cd "$(dirname "$0")/.."
pack=build-gpu
case "${1:-}" in
  prepare)
    cmake --preset release >/dev/null
    cmake --build build --target test_opencl test_cuda bench_cuda -j "${JOBS:-2}"
    # VkFFT's DCT beside it, when libvkfft-dev is installed (a target only then).
    cmake --build build --target bench_cuda_vkfft -j "${JOBS:-2}" 2>/dev/null || true
    cmake --preset bench >/dev/null
    cmake --build build-bench --target bench_opencl -j "${JOBS:-2}"
    cmake --build build --target dctx_cli -j "${JOBS:-2}"
    rm -rf "$pack" && mkdir -p "$pack/bin" "$pack/lib"
    cp build/bin/test_opencl build/bin/test_cuda build/bin/bench_cuda build-bench/bin/bench_opencl \
      build/bin/dctx "$pack/bin/"
    [ -x build/bin/bench_cuda_vkfft ] && cp build/bin/bench_cuda_vkfft "$pack/bin/"
    for lib in libOpenCL.so.1 libclFFT.so.2 libhwy.so.1 libstdc++.so.6 libgcc_s.so.1; do
      path=$(ldd "$pack/bin/bench_opencl" "$pack/bin/test_opencl" "$pack/bin/test_cuda" | awk -v l="$lib" '$1 == l {print $3; exit}')
      [ -n "$path" ] && cp -L "$path" "$pack/lib/"
    done
    # The Python half (scripts/gpu-python.sh builds the extension there for its python3).
    mkdir -p "$pack/py"
    cp build/lib/libdctx.a /usr/local/cuda/lib/libcudart_static.a "$pack/py/"
    cp -r build/include "$pack/py/include"
    nb=$(.venv/bin/python -c 'import nanobind, os; print(os.path.dirname(nanobind.__file__))')
    cp -r "$nb" "$pack/py/nanobind" && rm -rf "$pack/py/nanobind/__pycache__"
    # One xz archive: the device tool carries at most 64 MiB with the working tree, and the
    # binaries' sm_80/sm_90 device code compresses about 4:1.
    tar -C "$pack" -cf - bin lib py | xz -T"${JOBS:-2}" -6 >"$pack.txz.tmp"
    rm -rf "$pack" && mkdir -p "$pack" && mv "$pack.txz.tmp" "$pack/pack.txz"
    du -sh "$pack"
    ;;
  run)
    [ -f "$pack/pack.txz" ] || [ -x "$pack/bin/test_opencl" ] ||
      { echo "gpu-check: no $pack (run 'scripts/gpu-check.sh prepare' here and carry it)"; exit 2; }
    if [ -f "$pack/pack.txz" ]; then  # unpacked beside the archive (tar's xz, else Python's)
      tar -C "$pack" -xJf "$pack/pack.txz" 2>/dev/null ||
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
          "$pack/pack.txz" "$pack"
    fi
    out=${OUT:-$pack/out}
    mkdir -p "$out"
    export LD_LIBRARY_PATH="$PWD/$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export DCTX_DATA_DIR="$PWD/data"  # barbara.bmp for the block tests, wherever this checkout is
    nv=$(ldconfig -p | awk '/libnvidia-opencl\.so\.1/ {print $NF; exit}')
    if [ -n "$nv" ]; then
      mkdir -p /tmp/dctx-icd && echo "$nv" >/tmp/dctx-icd/nvidia.icd
      export OCL_ICD_VENDORS=/tmp/dctx-icd
    fi
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
    # cuFFT (libcufft.so.12): the CUDA toolkit's, else the nvidia-cufft wheel's.
    for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
             "$(env -u LD_LIBRARY_PATH python3 -c 'import nvidia.cufft, os; print(os.path.join(nvidia.cufft.__path__[0], "lib"))' 2>/dev/null)"; do
      [ -n "$d" ] && [ -e "$d/libcufft.so.12" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$d" && break
    done
    status=0
    # The Python extension builds for this machine's python3 meanwhile (other cores).
    bash scripts/gpu-python.sh build "$pack" >"$out/python_build.log" 2>&1 &
    pypid=$!
    timeout 120 "$pack/bin/test_cuda" --gtest_brief=1 >"$out/test_cuda.log" 2>&1 || status=$?
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? ran|Failure" "$out/test_cuda.log" || tail -20 "$out/test_cuda.log"
    timeout 120 "$pack/bin/bench_cuda" >"$out/bench_cuda.txt" 2>&1 || status=$?
    # VkFFT's rows join the table; without NVRTC there, only they are missing.
    [ -x "$pack/bin/bench_cuda_vkfft" ] &&
      { timeout 90 "$pack/bin/bench_cuda_vkfft" >>"$out/bench_cuda.txt" 2>>"$out/errors.log" ||
        echo "gpu-check: bench_cuda_vkfft failed (see $out/errors.log)"; }
    # The CUDA table (PyTorch and CuPy want the machine's own libstdc++, not the packed one).
    timeout 90 env -u LD_LIBRARY_PATH python3 scripts/gpu_bench_cupy.py "$out/bench_cuda.txt" \
      >"$out/bench_cuda.md" 2>>"$out/errors.log" || status=1
    if wait "$pypid"; then
      bash scripts/gpu-python.sh test "$pack" "$out" || { status=1; echo "gpu-check: Python CUDA tests failed"; }
    else
      status=1; echo "gpu-check: the Python extension did not build:"; tail -15 "$out/python_build.log"
    fi
    # The command line on the GPU: `dctx transform --backend cuda` against --backend cpu on a
    # random array (relative L2 difference), and `dctx jpeg --backend cuda` on Barbara.
    cli_check() {
      local d=/tmp/dctx-cli-check
      mkdir -p "$d"
      env -u LD_LIBRARY_PATH "${PYTHON:-python3}" -c 'import numpy as np, sys
np.save(sys.argv[1], np.random.default_rng(7).standard_normal((1080, 1920)).astype(np.float32))' \
        "$d/in.npy"
      "$pack/bin/dctx" transform "$d/in.npy" "$d/cuda.npy" --norm ortho --backend cuda -v &&
        "$pack/bin/dctx" transform "$d/in.npy" "$d/cpu.npy" --norm ortho --backend cpu &&
        "$pack/bin/dctx" transform "$d/cuda.npy" "$d/back.npy" --norm ortho --inverse \
          --backend cuda &&
        env -u LD_LIBRARY_PATH "${PYTHON:-python3}" -c 'import numpy as np, sys
a, b, x, y = (np.load(p).astype(np.float64) for p in sys.argv[1:5])
rel = np.linalg.norm(a - b) / np.linalg.norm(b); back = np.linalg.norm(y - x) / np.linalg.norm(x)
print(f"cli: transform --backend cuda vs cpu: relative L2 {rel:.2e}; round trip {back:.2e}")
sys.exit(0 if rel < 1e-5 and back < 1e-5 else 1)' "$d/cuda.npy" "$d/cpu.npy" "$d/in.npy" \
          "$d/back.npy" &&
        "$pack/bin/dctx" jpeg data/barbara.bmp --backend cuda --json
    }
    cli_check >>"$out/python_cuda.log" 2>&1 || { status=1; echo "gpu-check: the CLI check failed"; }
    grep -E "^cli:|^dctx: cuda" "$out/python_cuda.log" | cut -c1-120 || true
    grep -oE '"backend": "[a-z]+"|"psnr_db": [0-9.]+' "$out/python_cuda.log" | tr '\n' ' ' && echo || true
    if [ "${2:-}" != cuda ]; then  # `run cuda`: the CUDA half alone
      timeout 90 "$pack/bin/test_opencl" --gtest_brief=1 >"$out/test_opencl.log" 2>&1 || status=$?
      grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? ran" "$out/test_opencl.log" || tail -20 "$out/test_opencl.log"
      DCTX_OPENCL_NO_FP64=1 timeout 30 "$pack/bin/test_opencl" --gtest_filter='*Fp64*' --gtest_brief=1 \
        >>"$out/test_opencl.log" 2>&1 || status=$?
      timeout 75 "$pack/bin/bench_opencl" 256x256 1024x1024 2048x2048 4096x4096 480x640 \
        2>>"$out/errors.log" >"$out/bench_opencl.md" || status=$?
      tail -8 "$out/bench_opencl.md"
    fi
    # DCTX_GPU_PROFILE=1: Nsight Compute's throughput and occupancy of the fused route's kernels
    # and the 8x8 tile kernels (one launch each, from bench_cuda --quick), into ncu.txt.
    ncu=$(PATH="$PATH:/usr/local/cuda/bin" command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || true)
    if [ "${DCTX_GPU_PROFILE:-0}" = 1 ] && [ -n "$ncu" ]; then
      # kernel:launches to skip (the 8x8 tile kernel's 40th launch is the JPEG-style round trip)
      for ks in dense_reorder_kernel:3 dense_forward_rotation_kernel:3 \
                dense_inverse_rotation_kernel:3 separable_tile_kernel:3 separable_tile_kernel:40; do
        k=${ks%:*}
        timeout 60 "$ncu" --clock-control none --kernel-name "regex:$k" --launch-skip "${ks#*:}" \
          --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
          --section Occupancy --section LaunchStats "$pack/bin/bench_cuda" --quick \
          >>"$out/ncu.txt" 2>&1 || echo "gpu-check: ncu on $k failed" >>"$out/ncu.txt"
      done
      grep -E "^  [a-z_]+kernel|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Compute \(SM\) Thr" \
        "$out/ncu.txt" | sed -E 's/ +/ /g' | cut -c1-110
    fi
    # compute-sanitizer's memcheck over the CUDA tests, where the machine has it (bounded: a
    # timeout here is reported, not counted as a failure).
    cs=$(PATH="$PATH:/usr/local/cuda/bin" command -v compute-sanitizer || true)
    if [ -n "$cs" ]; then
      rc=0
      timeout 75 "$cs" --tool memcheck --error-exitcode 9 "$pack/bin/test_cuda" --gtest_brief=1 \
        >>"$out/test_cuda.log" 2>&1 || rc=$?
      case $rc in 0) echo "memcheck: no errors in test_cuda" ;; 124) echo "memcheck: stopped at 75 s" ;;
        *) status=1; echo "memcheck: test_cuda under compute-sanitizer exited $rc (test_cuda.log)" ;; esac
    fi
    # The CUDA table last: the reply of a remote run carries the end of the output.
    cat "$out/bench_cuda.md" 2>/dev/null || cat "$out/bench_cuda.txt"
    echo "gpu-check: tests and benchmark finished with status $status (logs in $out)"
    exit "$status"
    ;;
  *) echo "usage: scripts/gpu-check.sh prepare|run [cuda]"; exit 2 ;;
esac
