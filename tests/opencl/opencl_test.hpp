// SPDX-License-Identifier: BSD-3-Clause
// The fixture of the OpenCL suites: each test skips, with the back end's reason, when this
// machine has no usable OpenCL device.
#pragma once

#include <gtest/gtest.h>

#include "dctx/backend.hpp"

namespace dctx::test {

class OpenClTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const BackendInfo& b : backends())
      if (b.kind == BackendKind::OpenCL && !b.usable)
        GTEST_SKIP() << "no OpenCL device: " << b.reason;
  }
};

}  // namespace dctx::test
