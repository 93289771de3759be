// The dctx CLI: each sub-command registers itself on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <string>

namespace dctx::cli {

/// `dctx transform IN.npy OUT.npy ...` (transform_cmd.cpp)
void add_transform_command(CLI::App& app);
/// `dctx compress IMAGE ...` (compress_cmd.cpp): whole-image DCT compression
void add_compress_command(CLI::App& app);
/// `dctx block8 ...` and `dctx jpeg ...` (block8_cmd.cpp), when the block engine is built.
void add_block8_commands(CLI::App& app);

/// A JSON number with printf format `fmt`, or null when v is not finite (a PSNR of identical
/// images is +inf, which JSON cannot carry).
inline std::string json_number(double v, const char* fmt) {
  if (!std::isfinite(v)) return "null";
  char b[64];
  std::snprintf(b, sizeof b, fmt, v);
  return b;
}

}  // namespace dctx::cli
