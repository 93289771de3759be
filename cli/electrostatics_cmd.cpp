// SPDX-License-Identifier: BSD-3-Clause
// `dctx electrostatics DENSITY.npy`: one electrostatic step of DREAMPlace
// (dctx/electrostatics.hpp) on a bin density map: the potential and the two field components as
// .npy files, the energy on stdout.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "commands.hpp"
#include "dctx/electrostatics.hpp"
#include "json.hpp"
#include "npy.hpp"

namespace dctx::cli {
namespace {

struct ElectrostaticsArgs {
  std::string in, potential, field_x, field_y, bin_size = "1,1";
  RunOptions run;
};

// "W,H" or "S" (square bins).
std::pair<double, double> parse_bin_size(const std::string& s) {
  std::vector<double> v;
  std::stringstream ss(s);
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    std::size_t used = 0;
    double x = 0;
    try {
      x = std::stod(tok, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != tok.size())
      throw Error("invalid --bin-size '" + s + "': '" + tok + "' is not a number");
    v.push_back(x);
  }
  if (!s.empty() && s.back() == ',') v.clear();
  if (v.size() == 1) v.push_back(v[0]);
  if (v.size() != 2)
    throw Error("invalid --bin-size '" + s + "': expected WIDTH,HEIGHT or one size for both");
  for (double x : v)
    if (!(x > 0) || !std::isfinite(x))
      throw Error("invalid --bin-size '" + s + "': the sizes must be finite and > 0");
  return {v[0], v[1]};
}

// Every output's folder exists and no file is named twice, checked before any work, so that a
// bad path fails before the first file is written.
void check_outputs(const std::vector<std::pair<const char*, std::string>>& outs) {
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const std::filesystem::path p(outs[i].second);
    const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : ".";
    if (!std::filesystem::is_directory(dir))
      throw Error(std::string(outs[i].first) + ": the folder of '" + outs[i].second +
                  "' does not exist");
    for (std::size_t j = 0; j < i; ++j)
      if (outs[j].second == outs[i].second)
        throw Error(std::string(outs[j].first) + " and " + outs[i].first + " name the same file '" +
                    outs[i].second + "'");
  }
}

template <class T>
double solve(const ElectrostaticSystem& sys, std::vector<T>& density, bool potential,
             std::vector<T>& psi, std::vector<T>& fx, std::vector<T>& fy) {
  const Shape& s = sys.desc().shape;
  psi.assign(potential ? density.size() : 0, T(0));
  fx.assign(density.size(), T(0));
  fy.assign(density.size(), T(0));
  const ConstView<T> rho(density.data(), s);
  if (potential)
    return sys.solve(rho, View<T>(psi.data(), s), View<T>(fx.data(), s), View<T>(fy.data(), s));
  return sys.fields(rho, View<T>(fx.data(), s), View<T>(fy.data(), s));
}

void run(const ElectrostaticsArgs& a) {
  std::vector<std::pair<const char*, std::string>> outs;
  if (!a.potential.empty()) outs.push_back({"--potential", a.potential});
  if (!a.field_x.empty()) outs.push_back({"--field-x", a.field_x});
  if (!a.field_y.empty()) outs.push_back({"--field-y", a.field_y});
  check_outputs(outs);
  NpyArray arr = read_float_npy(a.in);
  if (arr.shape.size() != 2)
    throw Error("'" + a.in + "' holds an array of rank " + std::to_string(arr.shape.size()) +
                ": the bin density map is 2D");
  ElectrostaticsDesc d;
  d.shape = arr.shape;
  std::tie(d.bin_width, d.bin_height) = parse_bin_size(a.bin_size);
  d.precision = arr.single() ? Precision::F32 : Precision::F64;
  d.backend = parse_backend(a.run.backend);
  d.device.select = a.run.device;
  d.cpu.threads = a.run.threads;
  using Clock = std::chrono::steady_clock;
  const auto t_plan = Clock::now();
  const ElectrostaticSystem sys(d);  // validates everything before any output is written
  const auto t_solve = Clock::now();
  const bool potential = !a.potential.empty();
  NpyArray psi, fx, fy;
  psi.shape = fx.shape = fy.shape = arr.shape;
  const double energy = arr.single() ? solve(sys, arr.f32, potential, psi.f32, fx.f32, fy.f32)
                                     : solve(sys, arr.f64, potential, psi.f64, fx.f64, fy.f64);
  const auto t_done = Clock::now();
  if (potential) write_float_npy(a.potential, psi);
  if (!a.field_x.empty()) write_float_npy(a.field_x, fx);
  if (!a.field_y.empty()) write_float_npy(a.field_y, fy);
  if (a.run.verbose)
    std::fprintf(stderr, "dctx: electrostatics on %s: %s\n",
                 std::string(to_string(d.backend)).c_str(),
                 potential ? "potential, fields and energy" : "fields and energy");
  if (!a.run.json) {
    std::printf("energy %.17g\n", energy);
    return;
  }
  std::string written;
  for (const auto& o : outs) written += (written.empty() ? "" : ",") + o.second;
  json_run("electrostatics", a.in, written, arr.shape, arr.single() ? "float32" : "float64",
           d.backend == BackendKind::Auto ? BackendKind::CPU : d.backend)
      .Num("energy", energy, 17)
      .Num("bin_width", d.bin_width)
      .Num("bin_height", d.bin_height)
      .Object("seconds", JsonObject()
                             .Num("plan", seconds_between(t_plan, t_solve))
                             .Num("solve", seconds_between(t_solve, t_done)))
      .Print();
}

}  // namespace

void add_electrostatics_command(CLI::App& app) {
  auto args = std::make_shared<ElectrostaticsArgs>();
  CLI::App* c = app.add_subcommand(
      "electrostatics",
      "DREAMPlace's electrostatic step on a 2D bin density map (.npy): the outputs asked for, "
      "and the energy on stdout (by Parseval's relation; without --potential: one transform "
      "fewer)");
  c->add_option("DENSITY", args->in, "bin density map, .npy (2D; float32 stays float32)")
      ->required();
  c->add_option("--potential", args->potential, "write the potential here (.npy)");
  c->add_option("--field-x", args->field_x, "write the field along axis 0 here (.npy)");
  c->add_option("--field-y", args->field_y, "write the field along axis 1 here (.npy)");
  c->add_option("--bin-size", args->bin_size, "WIDTH,HEIGHT of a bin, or one size for both")
      ->capture_default_str();
  add_run_options(c, args->run, "say which outputs were computed, on stderr");
  c->callback([args] { run(*args); });
}

const CommandRegistration kElectrostatics{16, add_electrostatics_command};

}  // namespace dctx::cli
