// SPDX-License-Identifier: BSD-3-Clause
// The dctx CLI: each sub-command is a file of its own that registers itself (CommandRegistration);
// cli/CMakeLists.txt compiles the ones whose parts of the library are built.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace dctx::cli {

/// A sub-command: `add` puts it on the app; `order` sorts the --help listing.
struct CommandRegistration {
  CommandRegistration(int order, void (*add)(CLI::App&));
};
/// Adds every registered sub-command to `app`, in order.
void add_registered_commands(CLI::App& app);

/// What the array commands (transform, poisson) take besides their own options.
struct RunOptions {
  int threads = 1;
  std::string backend = "auto";
  std::string device;  ///< --device: which device of a cuda or opencl back end
  bool verbose = false, json = false;
};
/// Adds --threads, --backend, --device, -v/--verbose (which prints `verbose_what` on stderr) and
/// --json.
void add_run_options(CLI::App* c, RunOptions& o, const std::string& verbose_what);

}  // namespace dctx::cli
