// SPDX-License-Identifier: BSD-3-Clause
// A shape from the command line of the small benchmark programs: "512x512", "256x256x256".
#pragma once

#include <string>

#include "dctx/types.hpp"

namespace dctx_bench {

inline dctx::Shape parse_shape(const std::string& s) {
  dctx::Shape shape;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t x = s.find('x', pos);
    shape.push_back(std::stoul(s.substr(pos, x == std::string::npos ? x : x - pos)));
    if (x == std::string::npos) return shape;
    pos = x + 1;
  }
}

}  // namespace dctx_bench
