# SPDX-License-Identifier: BSD-3-Clause
# One fuzz test (tests/fuzz/CMakeLists.txt): cmake -DFUZZER=... -DMODE=replay|run -DCORPUS=<seed
# folder in the source tree> -DWORK=<folder in the build tree> -DFLAGS=<libFuzzer flags, |-separated>
# [-DSECONDS=30] -P run_fuzzer.cmake
#   replay  runs every file of CORPUS once (-runs=0: libFuzzer reads the folder, writes nothing)
#   run     fuzzes for SECONDS on WORK/corpus, a copy of CORPUS: the source tree is never written
# Crashing inputs go to WORK/artifacts/ (docs/fuzzing.md: minimise one and add it to the corpus).
string(REPLACE "|" ";" FLAGS "${FLAGS}")
file(MAKE_DIRECTORY ${WORK}/artifacts)
if(NOT IS_DIRECTORY ${CORPUS})  # a harness without seeds starts from the empty input
  set(CORPUS ${WORK}/no-seeds)
  file(MAKE_DIRECTORY ${CORPUS})
endif()
if(MODE STREQUAL "replay")
  set(args -runs=0 ${FLAGS} ${CORPUS})
elseif(MODE STREQUAL "run")
  file(MAKE_DIRECTORY ${WORK}/corpus)
  file(GLOB seeds ${CORPUS}/*)
  if(seeds)
    file(COPY ${seeds} DESTINATION ${WORK}/corpus)
  endif()
  set(args -max_total_time=${SECONDS} -print_final_stats=1 ${FLAGS} ${WORK}/corpus)
else()
  message(FATAL_ERROR "run_fuzzer.cmake: MODE must be replay or run, not '${MODE}'")
endif()
string(REPLACE ";" " " shown "${FUZZER};${args}")
message(STATUS "${shown}")
execute_process(COMMAND ${FUZZER} ${args} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${rc}): see the report above and ${WORK}/artifacts/")
endif()
