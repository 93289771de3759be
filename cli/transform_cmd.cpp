// SPDX-License-Identifier: BSD-3-Clause
// `dctx transform IN.npy OUT.npy`: scipy.fft.dctn / idctn / dstn / idstn on a .npy file.
#include <chrono>
#include <cstdio>
#include <sstream>

#include "commands.hpp"
#include "dctx/dctx.hpp"
#include "json.hpp"
#include "npy.hpp"

namespace dctx::cli {
namespace {

struct TransformArgs {
  std::string in, out, kind = "dct", norm = "backward", axes, backend = "auto";
  int type = 2, threads = 1;
  bool inverse = false, verbose = false, json = false;
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
  d.cpu.threads = a.threads;
  d.backend = parse_backend(a.backend);
  std::string note;
  NpyArray arr = read_npy(a.in, &note);
  if (!note.empty()) std::fprintf(stderr, "dctx: note: %s\n", note.c_str());
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
  if (a.verbose)
    std::fprintf(stderr, "dctx: %s\n",
                 scalar ? "0-d array: nothing to transform" : plan.describe().c_str());
  if (!scalar && arr.single())
    plan.execute(View<float>(arr.f32.data(), arr.shape));
  else if (!scalar)
    plan.execute(View<double>(arr.f64.data(), arr.shape));
  const auto t_done = Clock::now();
  if (arr.single())
    write_npy(a.out, arr.shape, arr.f32.data());
  else
    write_npy(a.out, arr.shape, arr.f64.data());
  if (!a.json) return;
  std::string axes = "[";
  for (std::size_t i = 0; !scalar && i < plan.desc().axes.size(); ++i)
    axes += (i ? ", " : "") + std::to_string(plan.desc().axes[i]);
  const auto secs = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  json_run("transform", a.in, a.out, arr.shape, arr.single() ? "float32" : "float64",
           plan.backend())
      .Str("kind", to_string(d.kind))
      .Int("type", d.type)
      .Str("norm", to_string(d.norm))
      .Raw("axes", axes + "]")
      .Bool("inverse", a.inverse)
      .Object(
          "seconds",
          JsonObject().Num("plan", secs(t_plan, t_execute)).Num("execute", secs(t_execute, t_done)))
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
  c->add_option("--kind", args->kind, "dct or dst")->capture_default_str();
  c->add_option("--type", args->type, "transform type 1..4")->capture_default_str();
  c->add_option("--norm", args->norm, "backward, ortho or forward")->capture_default_str();
  c->add_option("--axes", args->axes, "comma-separated axes (default: all)");
  c->add_flag("--inverse", args->inverse, "inverse transform (idctn/idstn)");
  c->add_option("--threads", args->threads, "worker threads (0 = all)")->capture_default_str();
  c->add_option("--backend", args->backend, "auto, or a back end of `dctx backends`")
      ->capture_default_str();
  c->add_flag("-v,--verbose", args->verbose, "print the plan on stderr");
  c->add_flag("--json", args->json,
              "print one JSON object (README, \"JSON output\") once OUT is written");
  c->callback([args] { run(*args); });
}

const CommandRegistration kTransform{10, add_transform_command};

}  // namespace dctx::cli
