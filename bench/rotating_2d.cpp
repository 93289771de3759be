// SPDX-License-Identifier: BSD-3-Clause
// One float32 DCT-II (forward) or DCT-III (inverse), norm ortho, one thread (or THREADS), through
// Plan::execute on `buffers` input/output pairs taken in turn (4: the data comes from L3 or
// memory, as in bench_dct; 1: the same pair, hot), 64-byte aligned or OFFSET elements past it
// (4 floats: the 16 bytes of a std::vector's or large NumPy array's data; IN:OUT sets the two
// apart, e.g. 4:0 for a NumPy input and the 64-byte aligned output dctx's Python layer makes;
// up to 1023 elements, to move the output against the input within a 4 KiB page).
// SHAPE is N (N x N) or ROWSxCOLS; AXIS -1 (the default) transforms both axes, 0 or 1 one of them
// (1: a batch of lines along the rows, as bench_dct's "lines"). Prints the minimum and the median
// time of the calls. Small enough to build twice (two versions of the library) and run alternately,
// for before/after comparisons on a noisy machine:
//   build-bench/bin/rotating_2d SHAPE DIRECTION [BUFFERS [OFFSET [AXIS [CALLS [THREADS]]]]]
//   e.g. 4096 0 4 (0 forward), 4096x1024 0 4 0 1 (the rows of a 4096 x 1024 array)
// DCTX_BENCH_TARGET=AVX2 (or another of the SIMD targets compiled in and supported here, by
// Highway's name) runs that target's code instead of the best: an AVX-512 machine measures the
// AVX2 code too.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <hwy/targets.h>

#include "aligned_array.hpp"
#include "cpu/cpu_backend.hpp"
#include "dctx/dctx.hpp"
#include "shape_arg.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: rotating_2d SHAPE(N or ROWSxCOLS) DIRECTION(0 forward, 1 inverse) "
                 "[BUFFERS [OFFSET [AXIS(-1 both, 0, 1) [CALLS [THREADS]]]]]\n");
    return 2;
  }
  dctx::Shape shape = dctx_bench::parse_shape(argv[1], "rotating_2d");
  if (shape.size() == 1) shape.push_back(shape[0]);
  if (shape.size() != 2) {
    std::fprintf(stderr, "rotating_2d: SHAPE is N or ROWSxCOLS, not %s\n", argv[1]);
    return 2;
  }
  const std::size_t elements = shape[0] * shape[1];
  using dctx_bench::int_arg;
  const bool inverse = int_arg("rotating_2d", "DIRECTION", argv[2], 0, 1) != 0;
  const int buffers = argc > 3 ? int(int_arg("rotating_2d", "BUFFERS", argv[3], 1, 64)) : 4;
  std::size_t in_offset = 0, out_offset = 0;  // OFFSET is N (both) or IN:OUT, elements
  if (argc > 4) {
    const std::string o = argv[4];
    const std::size_t colon = o.find(':');
    const auto elements_of = [&](const std::string& part) {
      if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos ||
          part.size() > 4 || std::stoul(part) > 1023) {
        std::fprintf(stderr,
                     "rotating_2d: OFFSET is N or IN:OUT, each 0 to 1023 elements, not %s\n",
                     argv[4]);
        std::exit(2);
      }
      return std::stoul(part);
    };
    in_offset = elements_of(o.substr(0, colon));
    out_offset = colon == std::string::npos ? in_offset : elements_of(o.substr(colon + 1));
  }
  const int axis = argc > 5 ? int(int_arg("rotating_2d", "AXIS", argv[5], -1, 1)) : -1;
  const int calls = argc > 6 ? int(int_arg("rotating_2d", "CALLS", argv[6], 1, 1000000))
                    : elements >= (1u << 24) ? 24
                    : elements >= (1u << 22) ? 100
                                             : 400;
  const int threads = argc > 7 ? int(int_arg("rotating_2d", "THREADS", argv[7], 1, 1024)) : 1;
  if (const char* name = std::getenv("DCTX_BENCH_TARGET"); name && *name) {
    std::string names;
    std::int64_t target = 0;
    for (const std::int64_t t : dctx::detail::cpu_available_targets()) {
      if (std::string(hwy::TargetName(t)) == name) target = t;
      names += std::string(names.empty() ? "" : ", ") + hwy::TargetName(t);
    }
    if (target == 0) {
      std::fprintf(stderr, "rotating_2d: DCTX_BENCH_TARGET=%s is none of this CPU's targets (%s)\n",
                   name, names.c_str());
      return 2;
    }
    dctx::detail::cpu_force_target(target);
  }
  std::vector<dctx_bench::AlignedArray<float>> in, out;
  for (int b = 0; b < buffers; ++b) {
    in.push_back(dctx_bench::aligned_array<float>(elements + in_offset));
    out.push_back(dctx_bench::aligned_array<float>(elements + out_offset));
    for (std::size_t i = 0; i < elements; ++i) {
      in.back()[in_offset + i] = float(((i + b) * 7919 % 1000) / 1000.0 - 0.5);
      out.back()[out_offset + i] = 0;
    }
  }
  dctx::PlanDesc d;
  d.shape = shape;
  if (axis >= 0) d.axes = {axis};
  d.norm = dctx::Norm::Ortho;
  d.precision = dctx::Precision::F32;
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.cpu.threads = threads;
  const dctx::Plan plan(d);
  std::vector<double> t;
  for (int r = 0; r < calls; ++r) {
    const int b = r % buffers;
    const auto t0 = std::chrono::steady_clock::now();
    plan.execute(dctx::ConstView<float>(in[b].get() + in_offset, shape),
                 dctx::View<float>(out[b].get() + out_offset, shape));
    t.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  std::printf(
      "%zux%zu%s %s, %d buffer(s), offset %zu:%zu, %d thread(s): min %.1f us, median %.1f us\n",
      shape[0], shape[1], axis >= 0 ? (axis == 0 ? " axis 0" : " axis 1") : "",
      inverse ? "inverse" : "forward", buffers, in_offset, out_offset, threads, t.front(),
      t[t.size() / 2]);
  return 0;
}
