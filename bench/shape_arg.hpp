// SPDX-License-Identifier: BSD-3-Clause
// The command-line arguments of the small benchmark programs: a shape ("512x512", "256x256x256")
// and integers in a range. A malformed one is named in a message, with exit code 2, instead of
// an uncaught exception.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "dctx/types.hpp"

namespace dctx_bench {

/// `text` as a decimal integer in [lo, hi], else "<program>: <name> is ..., not <text>" and exit 2.
inline long long int_arg(const char* program, const char* name, const std::string& text,
                         long long lo, long long hi) {
  const std::string digits = !text.empty() && text[0] == '-' ? text.substr(1) : text;
  if (digits.empty() || digits.size() > 18 ||
      digits.find_first_not_of("0123456789") != std::string::npos || std::stoll(text) < lo ||
      std::stoll(text) > hi) {
    std::fprintf(stderr, "%s: %s is an integer from %lld to %lld, not '%s'\n", program, name, lo,
                 hi, text.c_str());
    std::exit(2);
  }
  return std::stoll(text);
}

/// "AxBxC": extents of at least 1, else a message naming `s` and exit 2.
inline dctx::Shape parse_shape(const std::string& s, const char* program = "bench") {
  dctx::Shape shape;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t x = s.find('x', pos);
    const std::string part = s.substr(pos, x == std::string::npos ? x : x - pos);
    if (part.empty() || part.size() > 12 ||
        part.find_first_not_of("0123456789") != std::string::npos || std::stoull(part) == 0) {
      std::fprintf(stderr,
                   "%s: a shape is extents of at least 1 joined by 'x' (512x512), not '%s'\n",
                   program, s.c_str());
      std::exit(2);
    }
    shape.push_back(std::stoull(part));
    if (x == std::string::npos) return shape;
    pos = x + 1;
  }
}

}  // namespace dctx_bench
