// SPDX-License-Identifier: BSD-3-Clause
// The dctx command line as a function (run.hpp): the sub-commands that registered themselves, then
// parsing and error reporting. The executable (main.cpp) and the Python package's `dctx` command
// both call it.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
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

namespace {

// The library's messages name C++ identifiers; the command line's user knows flags.
std::string in_cli_words(std::string m) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"Block8Edge::Replicate", "--edge replicate"},
      {"Block8Edge::Error", "--edge error"},
      {"the Int16 kernel transforms int16 data; float data takes Reference or Fast",
       "--kernel int16 transforms int16 data (--int16); float data takes --kernel reference or "
       "fast"},
      {"nthreads", "--threads"},
      {"ImageReadOptions::max_pixels", "--max-pixels"},  // the image readers' limit
      {"threads must be", "--threads must be"},          // the transforms' message
  };
  for (const auto& [cxx, cli] : kWords)
    for (std::size_t at = m.find(cxx); at != std::string::npos; at = m.find(cxx, at + 1)) {
      if (at >= 2 && m.compare(at - 2, 2, "--") == 0) continue;  // already a flag
      m.replace(at, std::strlen(cxx), cli);
      at += std::strlen(cli) - 1;
    }
  return m;
}

}  // namespace

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
    std::fprintf(stderr, "dctx: error: %s\n", in_cli_words(e.what()).c_str());
    return 1;
  }
  return 0;
}

}  // namespace dctx::cli
