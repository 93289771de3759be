// SPDX-License-Identifier: BSD-3-Clause
// The C API gives the same numbers as the C++ API and turns errors into codes + messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "dctx/dctx.h"
#include "dctx/dctx.hpp"

namespace {

TEST(CApi, MatchesCpp) {
  const size_t shape[2] = {6, 10};
  std::vector<double> x(60), y(60), z(60);
  for (std::size_t i = 0; i < 60; ++i) x[i] = std::cos(0.3 * double(i)) + 0.2;
  dctx_plan* p = nullptr;
  const int kinds[2] = {DCTX_DCT, DCTX_DST};
  const int types[2] = {2, 4};
  ASSERT_EQ(dctx_plan_create(&p, 2, shape, 0, nullptr, kinds, types, DCTX_F64, DCTX_NORM_ORTHO, -1,
                             DCTX_FORWARD, 1),
            DCTX_OK);
  ASSERT_EQ(dctx_execute_f64(p, x.data(), nullptr, y.data(), nullptr), DCTX_OK);
  dctx::Plan cpp(dctx::PlanDesc{.shape = {6, 10},
                                .transforms = {{dctx::Kind::DCT, 2}, {dctx::Kind::DST, 4}},
                                .norm = dctx::Norm::Ortho});
  cpp.execute(dctx::ConstView<double>(x.data(), {6, 10}), dctx::View<double>(z.data(), {6, 10}));
  EXPECT_EQ(y, z);
  // Wrong precision is an error with a message, not a crash.
  std::vector<float> f(60);
  EXPECT_EQ(dctx_execute_f32(p, f.data(), nullptr, f.data(), nullptr), DCTX_EINVAL);
  EXPECT_NE(std::strstr(dctx_last_error(), "float"), nullptr);
  dctx_plan_destroy(p);
}

// Explicit element strides (a transposed input, a reversed output) give the C++ results.
TEST(CApi, ExplicitStrides) {
  const size_t shape[2] = {5, 7};
  std::vector<float> x(35), y(35, std::nanf("")), z(35);
  for (std::size_t i = 0; i < 35; ++i) x[i] = float(std::sin(0.7 * double(i)) + 0.1);
  dctx_plan* p = nullptr;
  ASSERT_EQ(dctx_plan_create(&p, 2, shape, 0, nullptr, nullptr, nullptr, DCTX_F32, DCTX_NORM_ORTHO,
                             -1, DCTX_FORWARD, 1),
            DCTX_OK);
  const ptrdiff_t in_strides[2] = {1, 5}, out_strides[2] = {-7, -1};
  ASSERT_EQ(dctx_execute_f32(p, x.data(), in_strides, y.data() + 34, out_strides), DCTX_OK);
  const dctx::Plan cpp(dctx::PlanDesc{
      .shape = {5, 7}, .precision = dctx::Precision::F32, .norm = dctx::Norm::Ortho});
  cpp.execute(dctx::ConstView<float>(x.data(), {5, 7}, {1, 5}),
              dctx::View<float>(z.data(), {5, 7}));
  for (std::size_t k = 0; k < 35; ++k) EXPECT_EQ(y[34 - k], z[k]) << k;
  dctx_plan_destroy(p);
}

// The fused thresholding: what the C++ plan with coefficient_threshold gives; a bad threshold is
// refused with a message naming it.
TEST(CApi, CoefficientThreshold) {
  const size_t shape[2] = {8, 8};
  std::vector<double> x(64), y(64), z(64);
  for (std::size_t i = 0; i < 64; ++i) x[i] = std::cos(1.3 * double(i)) + 0.05;
  dctx_plan* p = nullptr;
  ASSERT_EQ(dctx_plan_create_thresholded(&p, 2, shape, 0, nullptr, nullptr, nullptr, DCTX_F64,
                                         DCTX_NORM_ORTHO, -1, DCTX_FORWARD, 1, 0.25),
            DCTX_OK);
  ASSERT_EQ(dctx_execute_f64(p, x.data(), nullptr, y.data(), nullptr), DCTX_OK);
  const dctx::Plan cpp(
      dctx::PlanDesc{.shape = {8, 8}, .norm = dctx::Norm::Ortho, .coefficient_threshold = 0.25});
  cpp.execute(dctx::ConstView<double>(x.data(), {8, 8}), dctx::View<double>(z.data(), {8, 8}));
  EXPECT_EQ(y, z);
  int zeros = 0;
  for (double v : y) zeros += v == 0.0;
  EXPECT_GT(zeros, 0);
  dctx_plan_destroy(p);
  p = nullptr;
  EXPECT_EQ(dctx_plan_create_thresholded(&p, 2, shape, 0, nullptr, nullptr, nullptr, DCTX_F64,
                                         DCTX_NORM_ORTHO, -1, DCTX_FORWARD, 1, -1.0),
            DCTX_EINVAL);
  EXPECT_NE(std::strstr(dctx_last_error(), "coefficient_threshold"), nullptr);
  EXPECT_EQ(p, nullptr);
}

TEST(CApi, BadArguments) {
  dctx_plan* p = nullptr;
  const size_t shape[1] = {1};
  const int types[1] = {1};
  EXPECT_EQ(dctx_plan_create(&p, 1, shape, 0, nullptr, nullptr, types, DCTX_F64, 0, -1, 0, 1),
            DCTX_EINVAL);
  EXPECT_NE(std::strstr(dctx_last_error(), "DCT-I"), nullptr);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(dctx_plan_create(&p, 0, shape, 0, nullptr, nullptr, nullptr, DCTX_F64, 0, -1, 0, 1),
            DCTX_EINVAL);
  EXPECT_EQ(dctx_plan_create(&p, 1, shape, 0, nullptr, nullptr, nullptr, 7, 0, -1, 0, 1),
            DCTX_EINVAL);
  EXPECT_EQ(dctx_execute_f64(nullptr, nullptr, nullptr, nullptr, nullptr), DCTX_EINVAL);
  // A plan no memory could hold: an invalid argument, not an internal error after a bad_alloc.
  const size_t huge[1] = {size_t(1) << 58};
  EXPECT_EQ(dctx_plan_create(&p, 1, huge, 0, nullptr, nullptr, nullptr, DCTX_F64, 0, -1, 0, 1),
            DCTX_EINVAL);
  EXPECT_NE(std::strstr(dctx_last_error(), "plan tables"), nullptr);
  // Kinds are checked; DXST and RDFT take types 2 and 3 only.
  const size_t four[1] = {4};
  const int bad_kind[1] = {4}, dxst[1] = {DCTX_DXST}, rdft[1] = {DCTX_RDFT}, type4[1] = {4};
  EXPECT_EQ(dctx_plan_create(&p, 1, four, 0, nullptr, bad_kind, nullptr, DCTX_F64, 0, -1, 0, 1),
            DCTX_EINVAL);
  EXPECT_NE(std::strstr(dctx_last_error(), "DCTX_DXST"), nullptr);
  EXPECT_EQ(dctx_plan_create(&p, 1, four, 0, nullptr, dxst, type4, DCTX_F64, 0, -1, 0, 1),
            DCTX_EINVAL);
  EXPECT_NE(std::strstr(dctx_last_error(), "dxst"), nullptr);
  EXPECT_EQ(dctx_plan_create(&p, 1, four, 0, nullptr, rdft, type4, DCTX_F64, 0, -1, 0, 1),
            DCTX_EINVAL);
  EXPECT_NE(std::strstr(dctx_last_error(), "for rdft"), nullptr);
  const int type3[1] = {3};
  ASSERT_EQ(dctx_plan_create(&p, 1, four, 0, nullptr, dxst, type3, DCTX_F64, 0, -1, 0, 1), DCTX_OK);
  dctx_plan_destroy(p);
  EXPECT_STREQ(dctx_version(), dctx::kVersion);
}

}  // namespace
