// SPDX-License-Identifier: BSD-3-Clause
// Built instead of block8/ when DCTX_BLOCK8 is off: this CPU back end has no 8x8 block engine.
#include "cpu/block8/cpu_block8.hpp"

namespace dctx::detail {

std::unique_ptr<BackendBlock8Plan> make_cpu_block8_plan(const Block8Spec&) { return nullptr; }

}  // namespace dctx::detail
