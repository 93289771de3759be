// SPDX-License-Identifier: BSD-3-Clause
// Plan descriptions: defaults, normalisation, scipy's inverse/norm mapping.
#include <gtest/gtest.h>

#include "dctx/dctx.hpp"

namespace dctx {
namespace {

TEST(PlanDesc, DefaultsAreScipys) {
  const PlanDesc d = normalize(PlanDesc{.shape = {4, 6, 8}});
  EXPECT_EQ(d.axes, (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(d.transforms.size(), 3u);
  for (auto t : d.transforms) EXPECT_EQ(t, (AxisTransform{Kind::DCT, 2}));
  EXPECT_EQ(d.norm, Norm::Backward);
  EXPECT_EQ(*d.orthogonalize, false);
  EXPECT_EQ(normalize(PlanDesc{.shape = {4}, .norm = Norm::Ortho}).orthogonalize, true);
  EXPECT_EQ(d.backend, BackendKind::CPU);
  EXPECT_GE(normalize(PlanDesc{.shape = {4}, .cpu = {.threads = 0}}).cpu.threads, 1);
}

TEST(PlanDesc, NegativeAxesAreResolved) {
  const PlanDesc d = normalize(PlanDesc{.shape = {4, 6, 8}, .axes = {-1, 0}});
  EXPECT_EQ(d.axes, (std::vector<int>{2, 0}));
}

TEST(PlanDesc, PlansAreMoveOnlyAndDescribeThemselves) {
  Plan a(PlanDesc{.shape = {16, 16}});
  Plan b(std::move(a));
  EXPECT_NE(b.describe().find("DCT-II(16)"), std::string::npos);
  EXPECT_THROW(a.describe(), Error);  // NOLINT: moved-from use is a clear error
  static_assert(!std::is_copy_constructible_v<Plan>);
}

// A plan moved onto itself stays the same plan: its shape and its back-end plan agree, so the raw
// pointer form checks and writes exactly the plan's elements.
TEST(PlanDesc, SelfMoveKeepsThePlan) {
  Plan a(PlanDesc{.shape = {8, 8}, .precision = Precision::F32});
  Plan& alias = a;
  a = std::move(alias);
  EXPECT_EQ(a.desc().shape, (Shape{8, 8}));
  std::vector<float> x(64, 1.0f), y(64 + 16, -1.0f);
  const std::ptrdiff_t st[2] = {8, 1};
  a.execute(x.data(), st, y.data(), st);
  for (std::size_t i = 64; i < y.size(); ++i) EXPECT_EQ(y[i], -1.0f) << "wrote past the plan";
}

TEST(Names, ParseAndPrint) {
  EXPECT_EQ(parse_norm("ortho"), Norm::Ortho);
  EXPECT_EQ(parse_kind("dst"), Kind::DST);
  EXPECT_EQ(parse_kind("dxst"), Kind::DXST);
  EXPECT_EQ(to_string(Kind::DXST), "dxst");
  EXPECT_EQ(parse_kind("rdft"), Kind::RDFT);
  EXPECT_EQ(to_string(Kind::RDFT), "rdft");
  EXPECT_EQ(parse_precision("float32"), Precision::F32);
  EXPECT_EQ(to_string(Norm::Forward), "forward");
  EXPECT_EQ(inverse_type(2), 3);
  EXPECT_EQ(inverse_type(4), 4);
  EXPECT_THROW(parse_norm("orto"), Error);
  EXPECT_THROW(parse_kind("fft"), Error);
  // Case-sensitive, as scipy's arguments are.
  EXPECT_THROW(parse_norm("Ortho"), Error);
  EXPECT_THROW(parse_kind("DST"), Error);
  EXPECT_THROW(parse_backend("CPU"), Error);
}

}  // namespace
}  // namespace dctx
