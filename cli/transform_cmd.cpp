// SPDX-License-Identifier: BSD-3-Clause
// `dctx transform IN.npy OUT.npy`: scipy.fft.dctn / idctn / dstn / idstn on a .npy file, with
// optional fused thresholding of the coefficients (--threshold).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "commands.hpp"
#include "core/vocabulary.hpp"
#include "dctx/dctx.hpp"
#include "json.hpp"
#include "npy.hpp"

namespace dctx::cli {
namespace {

struct TransformArgs {
  std::string in, out, kind = "dct", norm = "backward", axes, planning = "estimate", wisdom;
  int type = 2;
  bool inverse = false;
  double threshold = 0;
  RunOptions run;
};

std::vector<int> parse_axes(const std::string& s) {
  std::vector<int> axes;
  if (s.empty()) return axes;
  std::stringstream ss(s);
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    try {
      std::size_t used = 0;
      axes.push_back(std::stoi(tok, &used));
      if (used != tok.size()) throw std::invalid_argument(tok);
    } catch (const std::exception&) {
      throw Error("invalid --axes '" + s + "' (expected comma-separated integers such as 0,1)");
    }
  }
  return axes;
}

void run(const TransformArgs& a) {
  PlanDesc d;
  d.kind = parse_kind(a.kind);
  d.type = a.type;
  d.norm = parse_norm(a.norm);
  d.axes = parse_axes(a.axes);
  d.direction = a.inverse ? Direction::Inverse : Direction::Forward;
  if (!(a.threshold >= 0) || !std::isfinite(a.threshold))
    throw Error("--threshold must be finite and >= 0, got " + detail::number_str(a.threshold));
  d.coefficient_threshold = a.threshold;
  d.cpu.threads = a.run.threads;
  try {
    d.cpu.planning = parse_planning(a.planning);
  } catch (const Error& e) {
    throw Error(std::string("--planning: ") + e.what());
  }
  if (!a.wisdom.empty() && std::filesystem::exists(a.wisdom)) {
    try {
      load_wisdom(a.wisdom);
    } catch (const Error& e) {
      throw Error(std::string("--wisdom: ") + e.what());
    }
  }
  d.backend = parse_backend(a.run.backend);
  d.device.select = a.run.device;
  NpyArray arr = read_float_npy(a.in);
  // A 0-d array (shape ()) has no axis to transform: as scipy.fft.dctn, the value is copied. The
  // options are still checked, on a stand-in of one axis.
  const bool scalar = arr.shape.empty();
  if (scalar && !d.axes.empty())
    throw Error("'" + a.in + "' holds a 0-d array: it has no axis for --axes " + a.axes);
  d.shape = scalar ? Shape{2} : arr.shape;
  d.precision = arr.single() ? Precision::F32 : Precision::F64;
  using Clock = std::chrono::steady_clock;
  const auto t_plan = Clock::now();
  const Plan plan(d);  // validates everything before any output is written
  const auto t_execute = Clock::now();
  if (!a.wisdom.empty() && d.cpu.planning == Planning::Measure) {
    try {
      save_wisdom(a.wisdom);
    } catch (const Error& e) {
      throw Error(std::string("--wisdom: ") + e.what());
    }
  }
  if (a.run.verbose)
    std::fprintf(stderr, "dctx: %s\n",
                 scalar ? "0-d array: nothing to transform" : plan.describe().c_str());
  if (!scalar && arr.single())
    plan.execute(View<float>(arr.f32.data(), arr.shape));
  else if (!scalar)
    plan.execute(View<double>(arr.f64.data(), arr.shape));
  const auto t_done = Clock::now();
  write_float_npy(a.out, arr);
  if (!a.run.json) return;
  std::string axes = "[";
  for (std::size_t i = 0; !scalar && i < plan.desc().axes.size(); ++i)
    axes += (i ? ", " : "") + std::to_string(plan.desc().axes[i]);
  json_run("transform", a.in, a.out, arr.shape, arr.single() ? "float32" : "float64",
           plan.backend())
      .Str("kind", to_string(d.kind))
      .Int("type", d.type)
      .Str("norm", to_string(d.norm))
      .Raw("axes", axes + "]")
      .Bool("inverse", a.inverse)
      .Num("threshold", a.threshold)
      .Object("seconds", JsonObject()
                             .Num("plan", seconds_between(t_plan, t_execute))
                             .Num("execute", seconds_between(t_execute, t_done)))
      .Print();
}

}  // namespace

void add_transform_command(CLI::App& app) {
  auto args = std::make_shared<TransformArgs>();
  CLI::App* c = app.add_subcommand(
      "transform", "N-D DCT/DST of a .npy array, as scipy.fft.dctn/idctn/dstn/idstn");
  c->add_option("IN", args->in, "input .npy file")->required();
  c->add_option("OUT", args->out, "output .npy file (float32 stays float32, else float64)")
      ->required();
  c->add_option("--kind", args->kind, "dct, dst, dxst or rdft (the last two: types 2 and 3)")
      ->capture_default_str();
  c->add_option("--type", args->type, "transform type 1..4")->capture_default_str();
  c->add_option("--norm", args->norm, "backward, ortho or forward")->capture_default_str();
  c->add_option("--axes", args->axes, "comma-separated axes (default: all)");
  c->add_flag("--inverse", args->inverse, "inverse transform (idctn/idstn)");
  c->add_option("--threshold", args->threshold,
                "zero the coefficients of magnitude below EPS, fused into the transform (the "
                "outputs of a forward one, the inputs of an inverse one); 0: off")
      ->capture_default_str();
  c->add_option("--planning", args->planning,
                "estimate (a fixed rule) or measure (time the candidate algorithms once, within "
                "about 10 ms, and keep the fastest)")
      ->capture_default_str();
  c->add_option("--wisdom", args->wisdom,
                "file of measured choices: read before planning when it exists, written after "
                "planning with --planning measure");
  add_run_options(c, args->run, "print the plan on stderr");
  c->callback([args] { run(*args); });
}

const CommandRegistration kTransform{10, add_transform_command};

}  // namespace dctx::cli
