// SPDX-License-Identifier: BSD-3-Clause
// Planning::Measure: time the candidate algorithms of one description once, in the spirit of
// FFTW's FFTW_MEASURE but bounded (kMeasureBudgetSeconds in all, planning included), keep the
// fastest, and remember it in the wisdom table (core/wisdom.hpp).
#include "cpu/measured_plan.hpp"

#include <chrono>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include "core/dense_layout.hpp"
#include "core/wisdom.hpp"

namespace dctx::detail {
namespace {

using Clock = std::chrono::steady_clock;

/// The chosen plan, saying how it was chosen in describe().
class ChosenPlan final : public BackendPlan {
 public:
  ChosenPlan(std::unique_ptr<BackendPlan> inner, std::string how)
      : inner_(std::move(inner)), how_(std::move(how)) {}
  void execute(const HostCall<float>& call) const override { inner_->execute(call); }
  void execute(const HostCall<double>& call) const override { inner_->execute(call); }
  std::string describe() const override { return inner_->describe() + " planning: " + how_ + ";"; }

 private:
  std::unique_ptr<BackendPlan> inner_;
  std::string how_;
};

std::unique_ptr<BackendPlan> build(const PlanDesc& d, Algorithm2D a, MakeCpuPlan make) {
  PlanDesc c = d;
  c.cpu.algorithm = a;
  return std::unique_ptr<BackendPlan>(make(c));
}

std::string seconds_text(double s) {
  char b[32];
  if (s < 1e-3)
    std::snprintf(b, sizeof b, "%.3g us", s * 1e6);
  else
    std::snprintf(b, sizeof b, "%.3g ms", s * 1e3);
  return b;
}

// Best time of up to five runs of `plan` on scratch data, stopping before a run would end past
// `deadline` (at least one run). `first` gets the first run's time (the cold one, the longest).
template <class T>
double best_time(const BackendPlan& plan, const std::vector<T>& in, std::vector<T>& out,
                 const std::vector<std::ptrdiff_t>& strides, Clock::time_point deadline,
                 Clock::duration& first) {
  const HostCall<T> call{in.data(), strides.data(), out.data(), strides.data(), Overlap::Disjoint};
  double best = 1e300;
  for (int run = 0; run < 5; ++run) {
    const auto t0 = Clock::now();
    plan.execute(call);
    const auto t1 = Clock::now();
    if (run == 0) first = t1 - t0;
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    if (t1 + (t1 - t0) > deadline) break;
  }
  return best;
}

template <class T>
std::unique_ptr<BackendPlan> measure(const PlanDesc& d, std::size_t n, MakeCpuPlan make,
                                     const std::string& target, const std::string& key,
                                     Clock::time_point start) {
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(kMeasureBudgetSeconds));
  const std::vector<std::ptrdiff_t> strides = dense_strides(d.shape);
  std::vector<T> in(n), out(n);
  std::mt19937 g(12345);
  std::uniform_real_distribution<double> u(-1, 1);
  for (T& x : in) x = static_cast<T>(u(g));

  std::unique_ptr<BackendPlan> best;
  Algorithm2D best_alg = Algorithm2D::Auto;
  double best_s = 0;
  std::string report, seen;
  Clock::duration longest_first{};  // the slowest first run so far: another may take twice that
  for (Algorithm2D a : {Algorithm2D::Auto, Algorithm2D::RowColumn, Algorithm2D::Fused}) {
    if (best && Clock::now() + 2 * longest_first > deadline) break;  // the rule's pick is timed
    auto plan = build(d, a, make);
    const std::string what = plan->describe();
    if (seen.find(what + "\n") != std::string::npos) continue;  // the same algorithm again
    seen += what + "\n";
    Clock::duration first{};
    const double t = best_time<T>(*plan, in, out, strides, deadline, first);
    longest_first = std::max(longest_first, first);
    report += std::string(report.empty() ? "" : ", ") + wisdom_name(a) + " " + seconds_text(t);
    if (!best || t < best_s) {
      best = std::move(plan);
      best_alg = a;
      best_s = t;
    }
  }
  wisdom_remember(target, key, best_alg);
  const double spent = std::chrono::duration<double>(Clock::now() - start).count();
  return std::make_unique<ChosenPlan>(std::move(best), std::string("measured (") + report +
                                                           "; kept " + wisdom_name(best_alg) +
                                                           "; " + seconds_text(spent) + " in all)");
}

}  // namespace

std::unique_ptr<BackendPlan> make_measured_cpu_plan(const PlanDesc& d, MakeCpuPlan make,
                                                    const std::string& target) {
  const auto start = Clock::now();
  if (d.cpu.algorithm != Algorithm2D::Auto)  // the caller chose: nothing to measure
    return build(d, d.cpu.algorithm, make);
  const std::string key = wisdom_key(d);
  if (const auto known = wisdom_find(target, key))
    return std::make_unique<ChosenPlan>(build(d, *known, make),
                                        std::string("from wisdom (") + wisdom_name(*known) + ")");
  std::size_t n = 1;
  for (std::size_t e : d.shape) n *= e;
  if (n > kMeasureMaxElements)
    return std::make_unique<ChosenPlan>(
        build(d, Algorithm2D::Auto, make),
        "estimated (" + std::to_string(n) + " elements are too many to time within the budget)");
  return d.precision == Precision::F32 ? measure<float>(d, n, make, target, key, start)
                                       : measure<double>(d, n, make, target, key, start);
}

}  // namespace dctx::detail
