#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds and runs tests/package/consumer against dctx one way:
#   check_consumer.sh installed BUILD_DIR WORK_DIR   cmake --install BUILD_DIR into WORK_DIR/prefix,
#                                                    then find_package(dctx) from there (and, when
#                                                    it has dctx::mpi, an MPI consumer on 2 ranks)
#   check_consumer.sh subproject SOURCE_DIR WORK_DIR add_subdirectory(SOURCE_DIR), the library built
#                                                    with the consumer (only its core and CPU parts)
set -euo pipefail
mode=$1 from=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
case "$mode" in
  installed)
    cmake --install "$from" --prefix "$work/prefix" >/dev/null
    test -f "$work/prefix/lib/cmake/dctx/dctxConfig.cmake" || test -f "$work/prefix/lib64/cmake/dctx/dctxConfig.cmake"
    test -f "$work/prefix/include/dctx/dctx.hpp"
    cmake -S "$here/consumer" -B "$work/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
    ;;
  subproject)
    cmake -S "$here/consumer" -B "$work/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DDCTX_SOURCE_DIR="$from" -DDCTX_BLOCK8=OFF -DDCTX_IMAGE_IO=OFF >/dev/null
    # As a subproject dctx builds no tests, no CLI and leaves the parent's output folders alone.
    if grep -q "add_test\|dctx_cli" "$work/build/build.ninja" 2>/dev/null; then
      echo "the subproject build contains dctx's tests or CLI"; exit 1
    fi
    ;;
  *) echo "usage: $0 installed|subproject DIR WORK_DIR"; exit 2 ;;
esac
cmake --build "$work/build" -j "${JOBS:-2}" >/dev/null
"$work/build/consumer"

# An installation with the distributed plans: a consumer of the component mpi, run on 2 ranks.
if [ "$mode" = installed ] && ls "$work"/prefix/lib*/cmake/dctx/dctxMpiTargets.cmake >/dev/null 2>&1; then
  cmake -S "$here/mpi_consumer" -B "$work/build-mpi" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
  cmake --build "$work/build-mpi" -j "${JOBS:-2}" >/dev/null
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpiexec -n 2 "$work/build-mpi/mpi_consumer"
fi
