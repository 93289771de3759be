// SPDX-License-Identifier: BSD-3-Clause
// What a plan costs to make: the first Plan of each shape in this process (its twiddle tables
// built) and a second one of the same description, with Planning::Estimate (the default) and
// Planning::Measure (candidates timed once, wisdom remembered: its second plan reuses the
// verdict); float32 DCT-II, norm ortho, one thread. Milliseconds, one line per shape:
//   build-bench/bin/planning_time [SHAPE ...]     e.g. 8x8 1024x1024 997x997 256x256x256
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "dctx/dctx.hpp"
#include "shape_arg.hpp"

namespace {

double plan_ms(const dctx::Shape& shape, dctx::Planning planning, dctx::Direction dir) {
  dctx::PlanDesc d;
  d.shape = shape;
  d.norm = dctx::Norm::Ortho;
  d.precision = dctx::Precision::F32;
  d.direction = dir;
  d.cpu.planning = planning;
  const auto t0 = std::chrono::steady_clock::now();
  const dctx::Plan p(d);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) names.push_back(argv[i]);
  if (names.empty())
    names = {"8x8",       "16x16",       "64x64",      "256x256", "512x512",
             "1024x1024", "2048x2048",   "4096x4096",  "480x640", "1080x1920",
             "997x997",   "128x128x128", "256x256x256"};
  std::printf(
      "| shape | Estimate, first | Estimate, again | Measure, first | Measure, again |\n"
      "|---|---|---|---|---|\n");
  for (const std::string& name : names) {
    const dctx::Shape s = dctx_bench::parse_shape(name, "planning_time");
    // Forward plans: Estimate first (it builds the tables), then Measure on the inverse (tables
    // for the same lengths, so its figure is the timing it adds), each again.
    const double e1 = plan_ms(s, dctx::Planning::Estimate, dctx::Direction::Forward);
    const double e2 = plan_ms(s, dctx::Planning::Estimate, dctx::Direction::Forward);
    const double m1 = plan_ms(s, dctx::Planning::Measure, dctx::Direction::Inverse);
    const double m2 = plan_ms(s, dctx::Planning::Measure, dctx::Direction::Inverse);
    std::printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", name.c_str(), e1, e2, m1, m2);
  }
  return 0;
}
