// SPDX-License-Identifier: BSD-3-Clause
// Planning::Measure (src/cpu/measured_plan.cpp) and the wisdom table (src/core/wisdom.cpp): a
// measured plan computes what the estimated one does (oracle bound), says what it timed, stays
// within its budget's design (large arrays untimed), remembers its pick, and the wisdom file
// round-trips; bad files and bad values are refused by name and change nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

#include "dctx/dctx.hpp"
#include "expect_error.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using oracle::LD;
using testing_support::expect_error;

template <class T>
PlanDesc measured(const Shape& s, Direction dir) {
  PlanDesc d;
  d.shape = s;
  d.norm = Norm::Ortho;
  d.direction = dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  d.cpu.planning = Planning::Measure;
  return d;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("dctx_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

class MeasuredPlanning : public ::testing::Test {
 protected:
  void SetUp() override { forget_wisdom(); }
  void TearDown() override { forget_wisdom(); }
};

template <class T>
void check_measured(const Shape& s, Direction dir) {
  std::size_t n = 1;
  for (auto e : s) n *= e;
  const auto x = oracle::random_vector<T>(n, static_cast<unsigned>(n + 3));
  const Plan p(measured<T>(s, dir));
  const std::string what = p.describe();
  EXPECT_NE(what.find("planning: measured ("), std::string::npos) << what;
  std::vector<T> y(n, std::numeric_limits<T>::quiet_NaN());
  p.execute(ConstView<T>(x.data(), s), View<T>(y.data(), s));
  std::vector<int> axes;
  for (std::size_t a = 0; a < s.size(); ++a) axes.push_back(static_cast<int>(a));
  const auto want = oracle::reference_nd(s, axes, p.desc().transforms, Norm::Ortho, true, dir,
                                         std::vector<LD>(x.begin(), x.end()));
  std::size_t longest = 1;
  for (auto e : s) longest = std::max(longest, e);
  EXPECT_LE(oracle::rel_l2(y, want), oracle::tolerance<T>(longest) * std::sqrt(2.0)) << what;
}

TEST_F(MeasuredPlanning, MeasuredPlansComputeTheTransform) {
  // Square, rectangular, a size with a large prime factor (where fused 2D is a candidate), 1D.
  for (const Shape& s : {Shape{8, 8}, Shape{64, 64}, Shape{96, 40}, Shape{131, 64}, Shape{100}})
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      check_measured<float>(s, dir);
      check_measured<double>(s, dir);
    }
}

TEST_F(MeasuredPlanning, TheWinnerIsRememberedAndReused) {
  const PlanDesc d = measured<float>({64, 64}, Direction::Forward);
  EXPECT_EQ(wisdom_size(), 0u);
  const Plan first(d);
  EXPECT_EQ(wisdom_size(), 1u);
  const Plan second(d);
  EXPECT_NE(second.describe().find("planning: from wisdom ("), std::string::npos)
      << second.describe();
  EXPECT_EQ(wisdom_size(), 1u);
  // Another description is another entry; an estimated plan adds none.
  const Plan other(measured<double>({64, 64}, Direction::Forward));
  EXPECT_EQ(wisdom_size(), 2u);
  PlanDesc estimated = d;
  estimated.shape = {32, 32};
  estimated.cpu.planning = Planning::Estimate;
  const Plan plain(estimated);
  EXPECT_EQ(plain.describe().find("planning:"), std::string::npos) << plain.describe();
  EXPECT_EQ(wisdom_size(), 2u);
}

TEST_F(MeasuredPlanning, LargeArraysKeepTheRuleUntimed) {
  const Plan p(measured<float>({1024, 1024}, Direction::Forward));
  EXPECT_NE(p.describe().find("planning: estimated ("), std::string::npos) << p.describe();
  EXPECT_EQ(wisdom_size(), 0u);
}

TEST_F(MeasuredPlanning, AGivenAlgorithmIsNotMeasured) {
  PlanDesc d = measured<float>({64, 64}, Direction::Forward);
  d.cpu.algorithm = Algorithm2D::RowColumn;
  const Plan p(d);
  EXPECT_EQ(p.describe().find("planning:"), std::string::npos) << p.describe();
  EXPECT_EQ(wisdom_size(), 0u);
}

TEST_F(MeasuredPlanning, WisdomFilesRoundTrip) {
  const PlanDesc d = measured<double>({48, 40}, Direction::Inverse);
  const Plan p(d);
  ASSERT_EQ(wisdom_size(), 1u);
  const std::string path = temp_path("wisdom.txt");
  save_wisdom(path);
  forget_wisdom();
  EXPECT_EQ(wisdom_size(), 0u);
  load_wisdom(path);
  EXPECT_EQ(wisdom_size(), 1u);
  const Plan again(d);
  EXPECT_NE(again.describe().find("planning: from wisdom ("), std::string::npos)
      << again.describe();
  // Loading the same file twice keeps one entry per description.
  load_wisdom(path);
  EXPECT_EQ(wisdom_size(), 1u);
  std::filesystem::remove(path);
}

TEST_F(MeasuredPlanning, BadWisdomFilesAreRefusedAndChangeNothing) {
  const Plan p(measured<float>({64, 64}, Direction::Forward));
  ASSERT_EQ(wisdom_size(), 1u);
  expect_error([] { load_wisdom("/nonexistent/dctx/wisdom.txt"); }, "cannot read");
  const std::string path = temp_path("bad_wisdom.txt");
  const auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  write("not wisdom\n");
  expect_error([&] { load_wisdom(path); }, "is not a dctx wisdom file");
  write("# dctx wisdom 1\nAVX3\tshape=8x8\tauto\nAVX3\tshape=9x9\n");
  expect_error([&] { load_wisdom(path); }, "line 3: expected three tab-separated fields");
  write("# dctx wisdom 1\nAVX3\tshape=8x8\tquickest\n");
  expect_error([&] { load_wisdom(path); }, "line 2: unknown algorithm 'quickest'");
  EXPECT_EQ(wisdom_size(), 1u);  // nothing of the bad files was taken
  // Entries of another CPU target load but are never used here.
  write("# dctx wisdom 1\nNOT_A_TARGET\tshape=64x64\tfused\n");
  load_wisdom(path);
  EXPECT_EQ(wisdom_size(), 2u);
  expect_error([&] { save_wisdom("/nonexistent/dctx/wisdom.txt"); }, "save_wisdom");
  std::filesystem::remove(path);
}

TEST_F(MeasuredPlanning, InvalidPlanningIsRefused) {
  PlanDesc d = measured<float>({8, 8}, Direction::Forward);
  d.cpu.planning = static_cast<Planning>(7);
  expect_error([&] { Plan p(d); }, "invalid planning");
  expect_error([] { parse_planning("fastest"); }, "unknown planning 'fastest'");
  EXPECT_EQ(parse_planning("measure"), Planning::Measure);
  EXPECT_EQ(to_string(Planning::Estimate), "estimate");
}

}  // namespace
}  // namespace dctx
