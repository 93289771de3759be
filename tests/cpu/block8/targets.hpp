// SPDX-License-Identifier: BSD-3-Clause
// The CPU suite's per-target fixture (cpu/targets.hpp) over the targets the block kernels were
// compiled for (they include AVX3_DL, which the transforms leave out).
#pragma once

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cpu/block8/kernels.hpp"
#include "cpu/targets.hpp"
#include "dctx/block8.hpp"

namespace dctx::test8 {

inline std::vector<std::int64_t> block8_targets() {
  std::vector<std::int64_t> out;
  const std::int64_t bits = block8::simd_compiled_targets() & hwy::SupportedTargets();
  for (int i = 0; i < 63; ++i)
    if (bits & (std::int64_t{1} << i)) out.push_back(std::int64_t{1} << i);
  return out;
}

class PerTarget : public test::PerTarget {
 protected:
  void SetUp() override {
    test::PerTarget::SetUp();
    ASSERT_EQ(block8_target(), hwy::TargetName(GetParam())) << "dispatch did not follow the mask";
  }
};

}  // namespace dctx::test8

#define DCTX_INSTANTIATE_PER_TARGET(suite)                                                       \
  INSTANTIATE_TEST_SUITE_P(Targets, suite, ::testing::ValuesIn(::dctx::test8::block8_targets()), \
                           ::dctx::test::target_param_name)
