// SPDX-License-Identifier: BSD-3-Clause
// The CLI's JSON output (json.hpp).
#include "json.hpp"

#include "dctx/backend.hpp"

namespace dctx::cli {

std::string json_string(std::string_view s) {
  std::string r = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      r += '\\';
      r += static_cast<char>(ch);
    } else if (ch < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      r += buf;
    } else {
      r += static_cast<char>(ch);
    }
  }
  return r + "\"";
}

JsonObject json_run(std::string_view command, const std::string& input, const std::string& output,
                    const std::vector<std::size_t>& shape, std::string_view dtype,
                    BackendKind backend, std::string_view target) {
  const BackendInfo b = backend_info(backend);
  JsonObject o;
  o.Str("command", command).Str("input", input).PathOrNull("output", output);
  o.Shape("shape", shape).Str("dtype", dtype).Str("backend", b.name);
  // The SIMD target (or device) alone: the description's first item.
  if (target.empty()) return o.Str("target", b.description.substr(0, b.description.find(',')));
  return o.Str("target", target);
}

}  // namespace dctx::cli
