// SPDX-License-Identifier: BSD-3-Clause
// The machine's limits (limits.hpp).
#include "core/limits.hpp"

#include <unistd.h>

namespace dctx::detail {

std::size_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
}

}  // namespace dctx::detail
