// SPDX-License-Identifier: BSD-3-Clause
// The one JSON schema of the CLI's --json outputs (README, "JSON output"): an object per run with
// "command", "input", "output" (a path or null), "shape", "dtype", "backend" and "target" (the back
// end and what it runs on, spelled as `dctx backends` spells them), "seconds" (an object of named
// timings), then the command's own fields; a number that is not finite (a PSNR of identical
// images) is left out. With --json a command prints that object and nothing else on stdout.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dctx/types.hpp"

namespace dctx::cli {

/// `s` as a JSON string literal.
std::string json_string(std::string_view s);

class JsonObject {
 public:
  JsonObject& Str(const char* key, std::string_view v) { return Raw(key, json_string(v)); }
  JsonObject& PathOrNull(const char* key, const std::string& path) {
    return Raw(key, path.empty() ? "null" : json_string(path));
  }
  JsonObject& Int(const char* key, long long v) { return Raw(key, std::to_string(v)); }
  JsonObject& Bool(const char* key, bool v) { return Raw(key, v ? "true" : "false"); }
  /// Left out when `v` is not finite. `digits` significant digits (17: the double exactly).
  JsonObject& Num(const char* key, double v, int digits = 9) {
    if (!std::isfinite(v)) return *this;
    char b[64];
    std::snprintf(b, sizeof b, "%.*g", digits, v);
    return Raw(key, b);
  }
  JsonObject& Shape(const char* key, const std::vector<std::size_t>& shape) {
    std::string r = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) r += (i ? ", " : "") + std::to_string(shape[i]);
    return Raw(key, r + "]");
  }
  JsonObject& Object(const char* key, const JsonObject& o) { return Raw(key, o.Text()); }
  JsonObject& Raw(const char* key, std::string json) {
    fields_.emplace_back(key, std::move(json));
    return *this;
  }
  std::string Text() const {
    std::string r = "{";
    for (std::size_t i = 0; i < fields_.size(); ++i)
      r += (i ? ", " : "") + json_string(fields_[i].first) + ": " + fields_[i].second;
    return r + "}";
  }
  void Print() const { std::printf("%s\n", Text().c_str()); }

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

/// Seconds from `a` to `b` of the steady clock, for the "seconds" object of a run.
inline double seconds_between(std::chrono::steady_clock::time_point a,
                              std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

/// The fields every run reports: command, input, output, shape, dtype, the back end that ran
/// (`backend`, as `dctx backends` names it) and what it ran on: `target`, or when empty the SIMD
/// target or device that the back end describes.
JsonObject json_run(std::string_view command, const std::string& input, const std::string& output,
                    const std::vector<std::size_t>& shape, std::string_view dtype,
                    BackendKind backend, std::string_view target = {});

}  // namespace dctx::cli
