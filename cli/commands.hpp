// The dctx CLI: each sub-command registers itself on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace dctx::cli {

/// `dctx transform IN.npy OUT.npy ...` (transform_cmd.cpp)
void add_transform_command(CLI::App& app);
/// `dctx compress IMAGE ...` (compress_cmd.cpp): whole-image DCT compression
void add_compress_command(CLI::App& app);
/// `dctx block8 ...` and `dctx jpeg ...` (block8_cmd.cpp), when the block engine is built.
void add_block8_commands(CLI::App& app);

}  // namespace dctx::cli
