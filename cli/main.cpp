// dctx command-line tool: argument parsing only; the work is in the library.
#include <cstdio>
#include <exception>

#include "commands.hpp"
#include "dctx/dctx.hpp"

int main(int argc, char** argv) {
  CLI::App app{"dctx: fast discrete cosine transforms (DCT/DST types I-IV, 8x8 blocks)"};
  app.set_version_flag("--version", std::string("dctx ") + dctx::kVersion);
  app.require_subcommand(1);
  dctx::cli::add_transform_command(app);
  dctx::cli::add_block8_commands(app);
  dctx::cli::add_compress_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dctx: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
