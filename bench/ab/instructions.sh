#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Instructions per execution (valgrind's callgrind; deterministic, unlike times):
#   bench/ab/instructions.sh PROGRAM N ARGS... runs PROGRAM ARGS 1 and PROGRAM ARGS N+1 and prints
#   the difference divided by N (planning and start-up cancel out).
bin=$1; n=$2; shift 2
c() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | awk '/Collected/ {print $NF}'; }
a=$(c ./$bin "$@" 1); b=$(c ./$bin "$@" $((n+1)))
echo $(( (b - a) / n ))
