// SPDX-License-Identifier: BSD-3-Clause
// The machine's limits (limits.hpp).
#include "core/limits.hpp"

#include <unistd.h>

namespace dctx::detail {

std::size_t physical_memory_bytes() {
  static const std::size_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages <= 0 || page <= 0
               ? std::size_t{0}
               : static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
  }();
  return bytes;
}

}  // namespace dctx::detail
