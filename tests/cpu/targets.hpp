// SPDX-License-Identifier: BSD-3-Clause
// One fixture for the CPU suite: every test runs once per SIMD target compiled into the CPU back
// end and supported by this CPU (Highway's TestWithParamTarget, applied to a library's exported
// kernels), so that an AVX-512-only bug cannot hide behind AVX2. SetUp forces the target for every
// dispatching kernel; TearDown restores the best one, also when the test has failed.
#pragma once

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "cpu/cpu_backend.hpp"

namespace dctx::test {

/// The targets of the transforms (the FFT/DCT kernels), compiled and supported.
inline std::vector<std::int64_t> transform_targets() { return detail::cpu_available_targets(); }

/// The fixture: GetParam() is the target (PerTarget) or (target, P) (PerTargetWith<P>).
template <class Param>
class TargetFixture : public ::testing::TestWithParam<Param> {
 protected:
  static std::int64_t TargetOf(std::int64_t t) { return t; }
  template <class P>
  static std::int64_t TargetOf(const std::tuple<std::int64_t, P>& t) {
    return std::get<0>(t);
  }
  void SetUp() override { detail::cpu_force_target(TargetOf(this->GetParam())); }
  void TearDown() override { detail::cpu_force_target(0); }
  std::int64_t target() const { return TargetOf(this->GetParam()); }
};
using PerTarget = TargetFixture<std::int64_t>;
template <class P>
class PerTargetWith : public TargetFixture<std::tuple<std::int64_t, P>> {
 protected:
  const P& param() const { return std::get<1>(this->GetParam()); }
};

inline std::string target_param_name(const ::testing::TestParamInfo<std::int64_t>& info) {
  return hwy::TargetName(info.param);
}

}  // namespace dctx::test

/// Instantiate a PerTarget suite over the transforms' targets.
#define DCTX_INSTANTIATE_TRANSFORM_TARGETS(suite)                                                  \
  INSTANTIATE_TEST_SUITE_P(Targets, suite, ::testing::ValuesIn(::dctx::test::transform_targets()), \
                           ::dctx::test::target_param_name)
/// Instantiate a PerTargetWith<P> suite over the transforms' targets and `values` of P, with
/// `name(const P&)` naming a value.
#define DCTX_INSTANTIATE_TRANSFORM_TARGETS_WITH(suite, values, name)                      \
  INSTANTIATE_TEST_SUITE_P(                                                               \
      Targets, suite,                                                                     \
      ::testing::Combine(::testing::ValuesIn(::dctx::test::transform_targets()), values), \
      [](const auto& info) {                                                              \
        return std::string(hwy::TargetName(std::get<0>(info.param))) + "_" +              \
               name(std::get<1>(info.param));                                             \
      })
