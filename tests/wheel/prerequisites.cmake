# SPDX-License-Identifier: BSD-3-Clause
# The wheel's build prerequisites that pip cannot fetch, checked all at once right after
# project(dctx): pyproject.toml includes this file through CMAKE_PROJECT_dctx_INCLUDE, so that
# `pip install .` / `pip wheel .` on a machine without them stops with one error that names every
# missing Debian package, instead of failing on the first find_package of the build.
# (pip fetches the rest: scikit-build-core, nanobind, CMake and Ninja when the system's are
# missing or too old, numpy at run time.)
set(DCTX_WHEEL_MISSING "")
set(DCTX_WHEEL_PACKAGES "")

if(NOT "cxx_std_20" IN_LIST CMAKE_CXX_COMPILE_FEATURES)
  list(APPEND DCTX_WHEEL_MISSING
       "a C++20 compiler (found ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}, Debian: g++)")
  list(APPEND DCTX_WHEEL_PACKAGES g++)
endif()

find_package(HWY QUIET)
if(NOT HWY_FOUND)
  list(APPEND DCTX_WHEEL_MISSING "Highway, the SIMD library (hwy-config.cmake, Debian: libhwy-dev)")
  list(APPEND DCTX_WHEEL_PACKAGES libhwy-dev)
endif()

find_path(DCTX_STB_INCLUDE_DIR stb/stb_image.h)  # the cache entry src/image_io then uses
if(NOT DCTX_STB_INCLUDE_DIR)
  list(APPEND DCTX_WHEEL_MISSING "stb, the image file library (stb/stb_image.h, Debian: libstb-dev)")
  list(APPEND DCTX_WHEEL_PACKAGES libstb-dev)
endif()

find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  list(APPEND DCTX_WHEEL_MISSING
       "CLI11, the command-line parser of the `dctx` command (CLI11Config.cmake, Debian: libcli11-dev)")
  list(APPEND DCTX_WHEEL_PACKAGES libcli11-dev)
endif()

if(DCTX_WHEEL_MISSING)
  list(JOIN DCTX_WHEEL_MISSING "\n  - " DCTX_WHEEL_MISSING_TEXT)
  list(JOIN DCTX_WHEEL_PACKAGES " " DCTX_WHEEL_PACKAGES_TEXT)
  message(FATAL_ERROR
          "Building the dctx wheel needs what pip cannot install. Missing:\n"
          "  - ${DCTX_WHEEL_MISSING_TEXT}\n"
          "On Debian or Ubuntu:\n"
          "  sudo apt-get install ${DCTX_WHEEL_PACKAGES_TEXT}\n"
          "Elsewhere, install them and name their prefix to CMake, e.g.:\n"
          "  pip install . -C cmake.define.CMAKE_PREFIX_PATH=/opt/hwy")
endif()
