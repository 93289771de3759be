// SPDX-License-Identifier: BSD-3-Clause
// Shared test helper: a call must throw dctx::Error whose message names the problem.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "dctx/types.hpp"

namespace dctx::testing_support {

/// Expect fn to throw dctx::Error whose message contains `part`.
inline void expect_error(const std::function<void()>& fn, const std::string& part) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected one mentioning '" << part << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << "message: " << e.what();
  }
}

}  // namespace dctx::testing_support
