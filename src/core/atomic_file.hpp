// SPDX-License-Identifier: BSD-3-Clause
// Internal: atomic file writes, shared by the library's image writer and the CLI's .npy writer.
#pragma once

#include <string>
#include <string_view>

namespace dctx::detail {

/// Write `bytes` to `path` through a mkstemp file in the same folder and a rename, so a failure
/// never leaves a partial file. Throws dctx::Error ("<who>: cannot write 'path': reason"; no
/// prefix when `who` is empty).
void write_file_atomic(const std::string& path, const std::string& bytes,
                       std::string_view who = {});

}  // namespace dctx::detail
