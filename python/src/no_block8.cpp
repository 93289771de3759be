// SPDX-License-Identifier: BSD-3-Clause
// Compiled instead of block8.cpp when the library is built without the 8x8 block engine
// (DCTX_BLOCK8=OFF): nothing to bind, and _dctx.has_block8 keeps module.cpp's False.
#include "binding.hpp"

namespace dctx_py {

void bind_block8(nb::module_&) {}

}  // namespace dctx_py
