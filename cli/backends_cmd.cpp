// SPDX-License-Identifier: BSD-3-Clause
// `dctx backends`: the back ends of this build and whether they can run here.
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "dctx/backend.hpp"
#include "json.hpp"

namespace dctx::cli {
namespace {

void run(bool json) {
  const auto all = backends();
  if (json) {
    std::string list = "[";
    for (std::size_t i = 0; i < all.size(); ++i) {
      const BackendInfo& b = all[i];
      list += (i ? ", " : "") + JsonObject()
                                    .Str("name", b.name)
                                    .Bool("built", b.built)
                                    .Bool("usable", b.usable)
                                    .Bool("host_memory", b.host_memory)
                                    .Str("reason", b.reason)
                                    .Str("description", b.description)
                                    .Text();
    }
    JsonObject().Str("command", "backends").Raw("backends", list + "]").Print();
    return;
  }
  for (const BackendInfo& b : all)
    std::printf("%-8s %-10s %s\n", b.name.c_str(), b.usable ? "usable" : "unusable",
                b.usable ? b.description.c_str() : b.reason.c_str());
}

void add_backends_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* c = app.add_subcommand("backends", "list the back ends and whether they can run here");
  c->add_flag("--json", *json, "print one JSON object (README, \"JSON output\")");
  c->callback([json] { run(*json); });
}

}  // namespace

const CommandRegistration kBackends{5, add_backends_command};

}  // namespace dctx::cli
