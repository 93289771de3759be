// SPDX-License-Identifier: BSD-3-Clause
// The wisdom table of Planning::Measure and its text file: a header line, then one entry per line,
// "<cpu target>\t<description>\t<algorithm>".
#include "core/wisdom.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>

#include "core/atomic_file.hpp"

namespace dctx {
namespace detail {
namespace {

constexpr const char* kHeader = "# dctx wisdom 1";

struct Table {
  std::mutex mu;
  std::map<std::pair<std::string, std::string>, Algorithm2D> entries;
};
Table& table() {
  static Table t;
  return t;
}

std::optional<Algorithm2D> parse_choice(const std::string& s) {
  if (s == "auto") return Algorithm2D::Auto;
  if (s == "rowcol") return Algorithm2D::RowColumn;
  if (s == "fused") return Algorithm2D::Fused;
  return std::nullopt;
}

}  // namespace

const char* wisdom_name(Algorithm2D a) {
  return a == Algorithm2D::RowColumn ? "rowcol" : a == Algorithm2D::Fused ? "fused" : "auto";
}

std::string wisdom_key(const PlanDesc& d) {
  std::ostringstream o;
  o << "shape=";
  for (std::size_t i = 0; i < d.shape.size(); ++i) o << (i ? "x" : "") << d.shape[i];
  o << ";axes=";
  for (std::size_t i = 0; i < d.axes.size(); ++i) o << (i ? "," : "") << d.axes[i];
  o << ";transforms=";
  for (std::size_t i = 0; i < d.transforms.size(); ++i)
    o << (i ? "," : "") << to_string(d.transforms[i].kind) << d.transforms[i].type;
  char threshold[64];
  std::snprintf(threshold, sizeof threshold, "%a", d.coefficient_threshold);
  o << ";precision=" << to_string(d.precision) << ";norm=" << to_string(d.norm)
    << ";orthogonalize=" << (d.orthogonalize.value_or(false) ? 1 : 0)
    << ";direction=" << to_string(d.direction) << ";threshold=" << threshold
    << ";threads=" << d.cpu.threads;
  return o.str();
}

std::optional<Algorithm2D> wisdom_find(const std::string& target, const std::string& key) {
  Table& t = table();
  const std::lock_guard<std::mutex> lock(t.mu);
  const auto it = t.entries.find({target, key});
  if (it == t.entries.end()) return std::nullopt;
  return it->second;
}

void wisdom_remember(const std::string& target, const std::string& key, Algorithm2D choice) {
  Table& t = table();
  const std::lock_guard<std::mutex> lock(t.mu);
  t.entries[{target, key}] = choice;
}

}  // namespace detail

void save_wisdom(const std::string& path) {
  std::string text = std::string(detail::kHeader) + "\n";
  {
    detail::Table& t = detail::table();
    const std::lock_guard<std::mutex> lock(t.mu);
    for (const auto& [k, v] : t.entries)
      text += k.first + "\t" + k.second + "\t" + detail::wisdom_name(v) + "\n";
  }
  detail::write_file_atomic(path, text, "save_wisdom");
}

void load_wisdom(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error("load_wisdom: cannot read '" + path + "'");
  std::string line;
  if (!std::getline(f, line) || line != detail::kHeader)
    throw Error("load_wisdom: '" + path + "' is not a dctx wisdom file (its first line is not '" +
                detail::kHeader + "')");
  // Parse the whole file before taking any entry: a bad file changes nothing.
  std::vector<std::pair<std::pair<std::string, std::string>, Algorithm2D>> entries;
  for (std::size_t number = 2; std::getline(f, line); ++number) {
    if (line.empty()) continue;
    const std::size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
    const auto bad = [&](const std::string& why) {
      return Error("load_wisdom: '" + path + "' line " + std::to_string(number) + ": " + why);
    };
    if (b == std::string::npos || line.find('\t', b + 1) != std::string::npos || a == 0 ||
        b == a + 1)
      throw bad("expected three tab-separated fields (target, description, algorithm)");
    const auto choice = detail::parse_choice(line.substr(b + 1));
    if (!choice)
      throw bad("unknown algorithm '" + line.substr(b + 1) + "' (expected auto, rowcol or fused)");
    entries.push_back({{line.substr(0, a), line.substr(a + 1, b - a - 1)}, *choice});
  }
  if (f.bad()) throw Error("load_wisdom: error while reading '" + path + "'");
  detail::Table& t = detail::table();
  const std::lock_guard<std::mutex> lock(t.mu);
  for (const auto& [k, v] : entries) t.entries[k] = v;
}

void forget_wisdom() {
  detail::Table& t = detail::table();
  const std::lock_guard<std::mutex> lock(t.mu);
  t.entries.clear();
}

std::size_t wisdom_size() {
  detail::Table& t = detail::table();
  const std::lock_guard<std::mutex> lock(t.mu);
  return t.entries.size();
}

}  // namespace dctx
