# SPDX-License-Identifier: BSD-3-Clause
# ---- 8x8 block engine benchmark (bench_block8.cpp), included by bench/CMakeLists.txt -----------
# Baselines in the same run: FFTW (PkgConfig::FFTW3 from bench/CMakeLists.txt) and, when found,
# OpenCV's cv::dct (a benchmark-only, optional dependency).
find_package(OpenCV QUIET COMPONENTS core)
add_executable(bench_block8 ${CMAKE_CURRENT_SOURCE_DIR}/bench_block8.cpp)
target_link_libraries(bench_block8 PRIVATE dctx benchmark::benchmark PkgConfig::FFTW3)
if(OpenCV_FOUND)
  target_include_directories(bench_block8 PRIVATE ${OpenCV_INCLUDE_DIRS})
  target_link_libraries(bench_block8 PRIVATE opencv_core)
  target_compile_definitions(bench_block8 PRIVATE DCTX_HAVE_OPENCV=1)
else()
  message(STATUS "bench_block8: OpenCV not found, the cv::dct baseline is left out")
endif()
target_include_directories(bench_block8 PRIVATE ${PROJECT_SOURCE_DIR}/src)  # cpu/block8/kernels.hpp: target list
