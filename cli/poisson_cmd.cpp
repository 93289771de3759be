// SPDX-License-Identifier: BSD-3-Clause
// `dctx poisson F.npy U.npy`: the spectral Poisson solver (dctx/poisson.hpp) on a .npy grid.
#include <chrono>
#include <cstdio>
#include <sstream>

#include "commands.hpp"
#include "dctx/poisson.hpp"
#include "json.hpp"
#include "npy.hpp"

namespace dctx::cli {
namespace {

struct PoissonArgs {
  std::string in, out, bc = "neumann", spacing = "1", grid = "cell";
  double screening = 0;
  bool project_mean = false;
  RunOptions run;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  std::string tok;
  while (std::getline(ss, tok, sep)) parts.push_back(tok);
  if (!s.empty() && s.back() == sep) parts.push_back("");
  return parts;
}

// One entry per axis, or one for all.
std::vector<std::string> per_axis(const std::string& s, std::size_t rank, const char* flag) {
  std::vector<std::string> v = split(s, ',');
  if (v.size() == 1) v.assign(rank, v[0]);
  if (v.size() != rank)
    throw Error(std::string(flag) + " '" + s + "' has " + std::to_string(v.size()) +
                " entries but the array has " + std::to_string(rank) + " axes");
  return v;
}

Boundary parse_side(const std::string& s, const std::string& whole) {
  if (s == "neumann") return Boundary::Neumann;
  if (s == "dirichlet") return Boundary::Dirichlet;
  if (s == "periodic") return Boundary::Periodic;
  throw Error("invalid --bc '" + whole +
              "': each axis takes neumann, dirichlet, periodic or LOWER:UPPER of the first two, "
              "not '" +
              s + "'");
}

double parse_spacing(const std::string& s, const std::string& whole) {
  try {
    std::size_t used = 0;
    const double h = std::stod(s, &used);
    if (used == s.size()) return h;
  } catch (const std::exception&) {
  }
  throw Error("invalid --spacing '" + whole + "': '" + s + "' is not a number");
}

void run(const PoissonArgs& a) {
  NpyArray arr = read_float_npy(a.in);
  if (arr.shape.empty()) throw Error("'" + a.in + "' holds a 0-d array: the grid needs an axis");
  PoissonDesc d;
  d.shape = arr.shape;
  const std::size_t rank = arr.shape.size();
  const auto bcs = per_axis(a.bc, rank, "--bc");
  const auto hs = per_axis(a.spacing, rank, "--spacing");
  for (std::size_t i = 0; i < rank; ++i) {
    const auto sides = split(bcs[i], ':');
    if (sides.size() > 2) parse_side(bcs[i], a.bc);  // refuses it
    PoissonAxis ax;
    ax.lower = parse_side(sides.empty() ? "" : sides[0], a.bc);
    ax.upper = sides.size() == 2 ? parse_side(sides[1], a.bc) : ax.lower;
    ax.spacing = parse_spacing(hs[i], a.spacing);
    d.axes.push_back(ax);
  }
  if (a.grid != "cell" && a.grid != "vertex")
    throw Error("invalid --grid '" + a.grid + "' (expected cell or vertex)");
  d.grid = a.grid == "cell" ? Grid::CellCentred : Grid::VertexCentred;
  d.screening = a.screening;
  d.neumann_mean = a.project_mean ? NeumannMean::Project : NeumannMean::Error;
  d.precision = arr.single() ? Precision::F32 : Precision::F64;
  d.backend = parse_backend(a.run.backend);
  if (!a.run.device.empty())
    throw Error(
        "--device: the Poisson solver runs on the back end's default device (for OpenCL, "
        "set DCTX_OPENCL_DEVICE instead)");
  d.cpu.threads = a.run.threads;
  using Clock = std::chrono::steady_clock;
  const auto t_plan = Clock::now();
  const PoissonSolver solver(d);  // validates everything before any output is written
  const auto t_solve = Clock::now();
  if (a.run.verbose) std::fprintf(stderr, "dctx: %s\n", solver.describe().c_str());
  if (arr.single())
    solver.solve(View<float>(arr.f32.data(), arr.shape), View<float>(arr.f32.data(), arr.shape));
  else
    solver.solve(View<double>(arr.f64.data(), arr.shape), View<double>(arr.f64.data(), arr.shape));
  const auto t_done = Clock::now();
  write_float_npy(a.out, arr);
  if (!a.run.json) return;
  json_run("poisson", a.in, a.out, arr.shape, arr.single() ? "float32" : "float64",
           solver.backend())
      .Str("bc", a.bc)
      .Str("grid", a.grid)
      .Num("screening", a.screening)
      .Object("seconds", JsonObject()
                             .Num("plan", seconds_between(t_plan, t_solve))
                             .Num("solve", seconds_between(t_solve, t_done)))
      .Print();
}

}  // namespace

void add_poisson_command(CLI::App& app) {
  auto args = std::make_shared<PoissonArgs>();
  CLI::App* c = app.add_subcommand(
      "poisson", "solve (laplacian - screening) u = f on the grid of a .npy array (spectral)");
  c->add_option("IN", args->in, "right-hand side f, .npy (2D, 3D or any rank)")->required();
  c->add_option("OUT", args->out, "solution u, .npy (float32 stays float32, else float64)")
      ->required();
  c->add_option("--bc", args->bc,
                "neumann, dirichlet or periodic, LOWER:UPPER, or one per axis separated by "
                "commas")
      ->capture_default_str();
  c->add_option("--spacing", args->spacing, "grid step, or one per axis separated by commas")
      ->capture_default_str();
  c->add_option("--grid", args->grid, "cell (unknowns at cell centres) or vertex (on the nodes)")
      ->capture_default_str();
  c->add_option("--screening", args->screening, "lambda >= 0 of (laplacian - lambda) u = f")
      ->capture_default_str();
  c->add_flag("--project-mean", args->project_mean,
              "all-Neumann or periodic without screening: remove f's mean instead of refusing "
              "it");
  add_run_options(c, args->run, "print the solver's plans on stderr");
  c->callback([args] { run(*args); });
}

const CommandRegistration kPoisson{15, add_poisson_command};

}  // namespace dctx::cli
