// SPDX-License-Identifier: BSD-3-Clause
// The dctx command line as a function (run.hpp): the sub-commands that registered themselves, then
// parsing and error reporting. The executable (main.cpp) and the Python package's `dctx` command
// both call it.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "core/vocabulary.hpp"
#include "dctx/dctx.hpp"
#include "run.hpp"

namespace dctx::cli {
namespace {
std::vector<std::pair<int, void (*)(CLI::App&)>>& registry() {
  static std::vector<std::pair<int, void (*)(CLI::App&)>> r;
  return r;
}
}  // namespace

CommandRegistration::CommandRegistration(int order, void (*add)(CLI::App&)) {
  registry().emplace_back(order, add);
}

void add_registered_commands(CLI::App& app) {
  auto r = registry();
  std::sort(r.begin(), r.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& c : r) c.second(app);
}

void add_run_options(CLI::App* c, RunOptions& o, const std::string& verbose_what) {
  c->add_option("--threads", o.threads, "worker threads (0 = all)")->capture_default_str();
  c->add_option("--backend", o.backend, "auto, or a back end of `dctx backends`")
      ->capture_default_str();
  c->add_option("--device", o.device,
                "the device of --backend cuda or opencl: an index (\"1\"), platform:device "
                "(\"0:1\") or part of its name; default: DCTX_OPENCL_DEVICE, else the first GPU");
  c->add_flag("-v,--verbose", o.verbose, verbose_what);
  c->add_flag("--json", o.json,
              "print one JSON object (README, \"JSON output\") once OUT is written");
}

int run(int argc, char** argv) {
  CLI::App app{"dctx: fast discrete cosine transforms (DCT/DST types I-IV, 8x8 blocks)"};
  app.set_version_flag("--version", std::string("dctx ") + dctx::kVersion);
  app.require_subcommand(1);
  dctx::cli::add_registered_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dctx: error: %s\n",
                 detail::in_words_of(e.what(), detail::Vocabulary::CommandLine).c_str());
    return 1;
  }
  return 0;
}

}  // namespace dctx::cli
