# SPDX-License-Identifier: BSD-3-Clause
# dctx: the two set-up commands of the README.
#   make demo   installs what is missing, builds, and runs the main demo
#   make test   installs what is missing, builds, and runs every test, then the CPU tests again
#               under AddressSanitizer + UndefinedBehaviorSanitizer and the concurrency tests
#               under ThreadSanitizer
# Other targets: build, bench, asan, tsan, clean.

SHELL := /bin/bash
PYTHON ?= python3
JOBS ?= $(shell nproc)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need; the benchmarks need BENCH_PACKAGES too.
APT_PACKAGES := build-essential cmake ninja-build pkg-config libhwy-dev libgtest-dev \
                libcli11-dev libpng-dev libstb-dev
BENCH_PACKAGES := libbenchmark-dev libfftw3-dev python3-pythran libopencv-dev

.PHONY: all deps bench-deps build demo test asan tsan bench clean

all: build

# Install only what is missing (apt), and the pinned Python packages (pip) when absent.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi
	@$(PYTHON) tools/check_requirements.py requirements-dev.txt || $(PYTHON) -m pip install -q -r requirements-dev.txt

bench-deps: deps
	@missing=""; for p in $(BENCH_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

build: deps
	cmake --preset release -DPython_EXECUTABLE=$$(command -v $(PYTHON)) -DPython3_EXECUTABLE=$$(command -v $(PYTHON))
	cmake --build --preset release -j $(JOBS)

demo: build
	@bash tools/demo.sh build/bin/dctx

test: build
	ctest --preset release -j $(JOBS)
	$(MAKE) --no-print-directory asan
	$(MAKE) --no-print-directory tsan

asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --preset asan -j $(JOBS)

tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --preset tsan -j $(JOBS)

bench: bench-deps
	cmake --preset bench
	cmake --build --preset bench -j $(JOBS)
	@echo "run: build-bench/bin/bench_dct --benchmark_format=json > out/bench.json && $(PYTHON) bench/ratios.py out/bench.json"

clean:
	rm -rf build build-asan build-tsan build-bench out
