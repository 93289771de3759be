// SPDX-License-Identifier: BSD-3-Clause
// Internal: the process's wisdom (what Planning::Measure timed), keyed by CPU target and a
// canonical text of the description; the public save/load/forget are in dctx/plan.hpp.
#pragma once

#include <optional>
#include <string>

#include "dctx/plan.hpp"

namespace dctx::detail {

/// The canonical text of a normalised description, without its planning, back end and device
/// (one line, no tabs): the wisdom key.
std::string wisdom_key(const PlanDesc& d);

/// The algorithm remembered for (target, key): "auto", "rowcol" or "fused".
std::optional<Algorithm2D> wisdom_find(const std::string& target, const std::string& key);
void wisdom_remember(const std::string& target, const std::string& key, Algorithm2D choice);

/// The spelling of a choice in wisdom files.
const char* wisdom_name(Algorithm2D a);

}  // namespace dctx::detail
