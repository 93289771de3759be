# SPDX-License-Identifier: BSD-3-Clause
# dctx: the two set-up commands of the README.
#   make demo   installs what is missing, builds the dctx command and runs the main demo
#   make test   installs what is missing, builds, and runs every test, then the CPU and OpenCL
#               tests again under AddressSanitizer + UndefinedBehaviorSanitizer, the concurrency tests
#               under ThreadSanitizer, and the fuzz harnesses (make fuzz)
# Other targets: build, bench, asan, tsan, fuzz, clean.
#
# Python packages go into a virtual environment of the project (.venv, made from $(PYTHON)), never
# into the system's interpreter, so that Debian's own /usr/bin/python3 (PEP 668) works as well as
# any other python3 >= 3.10. Debian packages are installed only when missing
# (tools/apt_install.sh: as root, or through sudo when it needs no password; otherwise it says
# which packages to install).

SHELL := /bin/bash
PYTHON ?= python3
JOBS ?= $(shell nproc)
VENV := .venv
VPY := $(CURDIR)/$(VENV)/bin/python

# What the dctx command needs (make demo); what the tests add; what the benchmarks add.
DEMO_PACKAGES := build-essential cmake ninja-build pkg-config libhwy-dev libcli11-dev libstb-dev
TEST_PACKAGES := $(DEMO_PACKAGES) libgtest-dev clang libclang-rt-14-dev libopenmpi-dev openmpi-bin \
                 ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
BENCH_PACKAGES := libbenchmark-dev libfftw3-dev python3-pythran libopencv-dev libfftw3-mpi-dev python3-mpi4py-fft \
                  libclfft-dev libvkfft-dev

.PHONY: all deps demo-deps bench-deps venv build demo test asan tsan fuzz bench clean

all: build

demo-deps:
	@bash tools/apt_install.sh $(DEMO_PACKAGES)

# The interpreter's own packages for a venv and for building extensions (Debian splits them off).
deps:
	@extra=""; \
	$(PYTHON) -c "import ensurepip" 2>/dev/null || extra="$$extra python3-venv"; \
	$(PYTHON) -c "import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" \
	  || extra="$$extra python3-dev"; \
	bash tools/apt_install.sh $(TEST_PACKAGES) $$extra
	@$(MAKE) --no-print-directory venv

# The project's virtual environment with the pinned packages of requirements-dev.txt.
venv:
	@$(PYTHON) -c "import sys; sys.exit(sys.version_info < (3, 10))" || \
	  { echo "dctx: $(PYTHON) is Python $$($(PYTHON) -c 'import platform; print(platform.python_version())'); the tests need 3.10 or later (make test PYTHON=python3.11)" >&2; exit 1; }
	@[ -x $(VPY) ] || $(PYTHON) -m venv $(VENV)
	@$(VPY) tools/check_requirements.py requirements-dev.txt >/dev/null 2>&1 || \
	  ($(VPY) -m pip install -q --upgrade pip && $(VPY) -m pip install -q -r requirements-dev.txt)

build: deps
	cmake --preset release -DPython_EXECUTABLE=$(VPY) -DPython3_EXECUTABLE=$(VPY)
	cmake --build --preset release -j $(JOBS)

# The demo needs the dctx command only: no Python, no tests.
demo: demo-deps
	cmake --preset demo
	cmake --build --preset demo -j $(JOBS)
	@bash tools/demo.sh build-demo/bin/dctx

test: build
	ctest --preset release -j $(JOBS)
	$(MAKE) --no-print-directory asan
	$(MAKE) --no-print-directory tsan
	$(MAKE) --no-print-directory fuzz

# The OpenCL tests add LSAN_OPTIONS of their own (tests/opencl/lsan.supp says why).
asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --preset asan -j $(JOBS)

tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --preset tsan -j $(JOBS)

# The libFuzzer harnesses (tests/fuzz, docs/fuzzing.md; clang): each replays its corpus, then
# fuzzes for DCTX_FUZZ_SECONDS seconds (make fuzz DCTX_FUZZ_SECONDS=600; 30 by default).
fuzz: deps
	cmake --preset fuzz $(if $(DCTX_FUZZ_SECONDS),-DDCTX_FUZZ_SECONDS=$(DCTX_FUZZ_SECONDS))
	cmake --build --preset fuzz -j $(JOBS)
	ctest --preset fuzz

bench-deps: deps
	@bash tools/apt_install.sh $(BENCH_PACKAGES)
	@$(VPY) tools/check_requirements.py requirements-bench.txt >/dev/null 2>&1 || \
	  $(VPY) -m pip install -q -r requirements-bench.txt

bench: bench-deps
	cmake --preset bench
	cmake --build --preset bench -j $(JOBS)
	@echo "run: build-bench/bin/bench_dct --benchmark_format=json > out/bench.json && $(VPY) bench/ratios.py out/bench.json --plot out/ratios.png"

clean:
	rm -rf build build-demo build-asan build-tsan build-bench out
