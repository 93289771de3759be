// Run a test once per SIMD target the block kernels were compiled for and this CPU supports:
// hwy::SetSupportedTargetsForTest masks the others, so HWY_DYNAMIC_DISPATCH picks the target
// under test (Highway's own TestWithParamTarget, applied to a library's exported kernels).
#pragma once

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>
#include <string>
#include <vector>

#include "block8/kernels.hpp"
#include "dctx/block8.hpp"

namespace dctx::test8 {

inline std::vector<std::int64_t> block8_targets() {
  std::vector<std::int64_t> out;
  const std::int64_t bits = block8::simd_compiled_targets() & hwy::SupportedTargets();
  for (int i = 0; i < 63; ++i)
    if (bits & (std::int64_t{1} << i)) out.push_back(std::int64_t{1} << i);
  return out;
}

class PerTarget : public ::testing::TestWithParam<std::int64_t> {
 protected:
  void SetUp() override {
    hwy::SetSupportedTargetsForTest(GetParam());
    ASSERT_EQ(block8_target(), hwy::TargetName(GetParam())) << "dispatch did not follow the mask";
  }
  void TearDown() override { hwy::SetSupportedTargetsForTest(0); }
};

inline std::string target_param_name(const ::testing::TestParamInfo<std::int64_t>& info) {
  return hwy::TargetName(info.param);
}

}  // namespace dctx::test8

#define DCTX_INSTANTIATE_PER_TARGET(suite)                                                       \
  INSTANTIATE_TEST_SUITE_P(Targets, suite, ::testing::ValuesIn(::dctx::test8::block8_targets()), \
                           ::dctx::test8::target_param_name)
