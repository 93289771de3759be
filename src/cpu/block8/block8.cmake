# SPDX-License-Identifier: BSD-3-Clause
# The CPU back end's 8x8 block engine (included by src/cpu/CMakeLists.txt with DCTX_BLOCK8): the
# plan and its walk over planes, the Reference kernel, the scalar fallback, and three SIMD
# translation units (float32 AAN, int16 LL&M, quantization alone) compiled for the targets of
# simd_targets.h.
set(DCTX_CPU_BLOCK8_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/cpu_block8.cpp
  ${CMAKE_CURRENT_LIST_DIR}/works.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reference.cpp
  ${CMAKE_CURRENT_LIST_DIR}/simd_f32.cc
  ${CMAKE_CURRENT_LIST_DIR}/simd_i16.cc
  ${CMAKE_CURRENT_LIST_DIR}/simd_quantize.cc)
target_sources(dctx_cpu PRIVATE ${DCTX_CPU_BLOCK8_SOURCES})
# Same float results whatever the compiler may contract: the fused pass must equal the separate
# passes bit for bit, so a*b+c is fused only where the code says MulAdd.
set_source_files_properties(${DCTX_CPU_BLOCK8_SOURCES} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
if(DCTX_SANITIZE)
  # Fewer SIMD targets under the sanitizers (simd_targets.h): each costs minutes of compile time.
  set_property(SOURCE ${DCTX_CPU_BLOCK8_SOURCES} APPEND PROPERTY COMPILE_DEFINITIONS
               DCTX_FEW_SIMD_TARGETS=1)
endif()
