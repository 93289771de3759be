// SPDX-License-Identifier: BSD-3-Clause
// Every bad input gets a dctx::Error whose message names the problem.
#include <gtest/gtest.h>

#include <limits>

#include "dctx/backend.hpp"
#include "dctx/dctx.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

void expect_error(const PlanDesc& d, const std::string& needle) {
  testing_support::expect_error([&] { Plan p(d); }, needle);
}

TEST(Errors, BadDescriptions) {
  expect_error(PlanDesc{.shape = {}}, "shape is empty");
  expect_error(PlanDesc{.shape = {4, 0}}, "zero extent");
  expect_error(PlanDesc{.shape = {4, 4}, .axes = {2}}, "out of range");
  expect_error(PlanDesc{.shape = {4, 4}, .axes = {-3}}, "out of range");
  expect_error(PlanDesc{.shape = {4, 4}, .axes = {1, -1}}, "repeated");
  expect_error(PlanDesc{.shape = {4}, .type = 5}, "type 5");
  expect_error(PlanDesc{.shape = {4}, .type = 0}, "type 0");
  expect_error(PlanDesc{.shape = {1}, .type = 1}, "DCT-I is not defined for length 1");
  expect_error(PlanDesc{.shape = {4, 4}, .transforms = {{Kind::DCT, 2}}}, "per-axis transforms");
  expect_error(PlanDesc{.shape = {4}, .cpu = {.threads = -2}}, "threads");
  if (!backend_info(BackendKind::CUDA).usable)  // not built, or no device: either is said
    expect_error(PlanDesc{.shape = {4}, .backend = BackendKind::CUDA}, "backend 'cuda' is not");
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 4;
  expect_error(PlanDesc{.shape = {huge, 16}}, "overflows");
  expect_error(PlanDesc{.shape = {std::size_t(1) << 40, std::size_t(1) << 40}}, "overflows");
  // Plans whose tables no memory could hold fail at once, before any allocation.
  expect_error(PlanDesc{.shape = {std::size_t(1) << 58}}, "GiB of plan tables");
  expect_error(PlanDesc{.shape = {16, std::size_t(1) << 40}}, "GiB of plan tables");
  expect_error(PlanDesc{.shape = {4}, .kind = Kind::DXST, .type = 1}, "type 1 for dxst");
  expect_error(PlanDesc{.shape = {4, 4}, .transforms = {{Kind::DCT, 2}, {Kind::DXST, 4}}},
               "type 4 for dxst (expected 2 or 3)");
  expect_error(PlanDesc{.shape = {4}, .kind = Kind::RDFT, .type = 1}, "type 1 for rdft");
  expect_error(PlanDesc{.shape = {4, 4}, .transforms = {{Kind::RDFT, 4}, {Kind::DCT, 2}}},
               "type 4 for rdft (expected 2");
  expect_error(PlanDesc{.shape = {4}, .kind = Kind(7)}, "invalid transform kind");
  // DST-I of length 1 is defined.
  EXPECT_NO_THROW(Plan(PlanDesc{.shape = {1}, .kind = Kind::DST, .type = 1}));
}

TEST(Errors, BadViews) {
  Plan p(PlanDesc{.shape = {4, 5}, .precision = Precision::F32});
  std::vector<float> a(20, 1.0f), b(20);
  std::vector<double> c(20);
  EXPECT_THROW(p.execute(ConstView<float>(a.data(), {5, 4}), View<float>(b.data(), {4, 5})), Error);
  EXPECT_THROW(p.execute(ConstView<float>(a.data(), {4, 5}), View<float>(b.data(), {4, 6})), Error);
  EXPECT_THROW(p.execute(ConstView<double>(c.data(), {4, 5}), View<double>(c.data(), {4, 5})),
               Error);
  EXPECT_THROW(p.execute(ConstView<float>(nullptr, {4, 5}), View<float>(b.data(), {4, 5})), Error);
  EXPECT_THROW(p.execute(ConstView<float>(a.data(), {4, 5}), View<float>(b.data(), {4, 5}, {0, 1})),
               Error);
  EXPECT_THROW(p.execute(ConstView<float>(a.data(), {4, 5}), View<float>(b.data(), {4, 5}, {1, 1})),
               Error);
  EXPECT_THROW(View<float>(b.data(), {4, 5}, {1}), Error);
  try {
    p.execute(ConstView<double>(c.data(), {4, 5}), View<double>(c.data(), {4, 5}));
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("float32"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dctx
