// SPDX-License-Identifier: BSD-3-Clause
// Block plans (Block8PlanDesc, Block8Plan): normalisation, the errors of descriptions and of
// executions that do not fit the plan, back ends without a block engine, moves, and plans giving
// what the one-shot functions give.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/backend.hpp"
#include "dctx/backend.hpp"
#include "dctx/block8.hpp"
#include "dctx/dctx.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

using testing_support::expect_error;

TEST(Block8Plans, NormaliseResolvesKernelThreadsAndBackEnd) {
  const Block8PlanDesc f = normalize(Block8PlanDesc{});
  EXPECT_EQ(f.kernel, Block8Kernel::Fast);
  EXPECT_EQ(f.backend, BackendKind::CPU);
  EXPECT_EQ(f.cpu.threads, 1);
  const Block8PlanDesc i =
      normalize(Block8PlanDesc{.data = Block8Data::Int16, .cpu = {.threads = 0}});
  EXPECT_EQ(i.kernel, Block8Kernel::Int16);
  EXPECT_EQ(i.cpu.threads, hardware_threads());
  const Block8PlanDesc q = normalize(Block8PlanDesc{
      .op = Block8Op::Quantize, .table = quant_table_nvidia(), .kernel = Block8Kernel::Reference});
  EXPECT_EQ(q.kernel, Block8Kernel::Auto);  // quantization alone runs no transform
  EXPECT_NE(Block8Plan(Block8PlanDesc{}).describe().find("fast"), std::string::npos);
}

TEST(Block8Plans, BadDescriptions) {
  QuantTable zero = quant_table_nvidia();
  zero.q[3] = 0;
  expect_error([] { normalize(Block8PlanDesc{.op = Block8Op::Roundtrip}); },
               "block8_roundtrip_quantized: needs a quantization table");
  expect_error([] { normalize(Block8PlanDesc{.table = quant_table_nvidia()}); },
               "block8_forward: takes no quantization table");
  expect_error([&] { normalize(Block8PlanDesc{.op = Block8Op::Quantize, .table = zero}); },
               "entry 3");
  expect_error([] { normalize(Block8PlanDesc{.kernel = Block8Kernel::Int16}); }, "Int16 kernel");
  expect_error([] { normalize(Block8PlanDesc{.op = Block8Op(9)}); }, "unknown operation");
  expect_error([] { normalize(Block8PlanDesc{.data = Block8Data(7)}); }, "unknown data type");
  expect_error([] { normalize(Block8PlanDesc{.edge = Block8Edge(4)}); }, "unknown edge mode");
  expect_error([] { normalize(Block8PlanDesc{.cpu = {.threads = -3}}); }, "nthreads");
  if (!backend_info(BackendKind::CUDA).usable)  // not built, or no device: either is said
    expect_error([] { Block8Plan p(Block8PlanDesc{.backend = BackendKind::CUDA}); },
                 "backend 'cuda' is not");
}

TEST(Block8Plans, ExecutionsThatDoNotFitThePlan) {
  std::vector<float> f(64, 1.0f), g(64);
  std::vector<std::int16_t> l(64);
  const Block8Plan fwd(Block8PlanDesc{});
  expect_error(
      [&] {
        fwd.execute(ConstView<float>(f.data(), {8, 8}), View<std::int16_t>(l.data(), {8, 8}));
      },
      "this plan takes float32 in and float32 out");
  const Block8Plan enc(
      Block8PlanDesc{.op = Block8Op::ForwardQuantized, .table = quant_table_nvidia()});
  expect_error(
      [&] {
        enc.execute(ConstView<float>(f.data(), {8, 8}), View<float>(g.data(), {8, 8}));
      },
      "float32 in and int16 levels");
}

// The device entry (Block8Plan::execute_device, under dctx::cuda::execute) checks what it is given
// as execute() does, before any back end sees it; a back end on host memory then refuses. The
// pointers are never dereferenced.
TEST(Block8Plans, TheDeviceEntryChecksBeforeTheBackEnd) {
  alignas(8) static char fake[4096];
  const auto planes = [](void* p, std::size_t r, std::size_t c, bool i16,
                         BackendKind b = BackendKind::CPU) {
    return Block8DevicePlanes{b,
                              p,
                              1,
                              r,
                              c,
                              std::ptrdiff_t(r * c),
                              std::ptrdiff_t(c),
                              1,
                              i16 ? Block8Data::Int16 : Block8Data::Float32};
  };
  const Block8Plan fwd(Block8PlanDesc{.backend = BackendKind::CPU});
  expect_error(
      [&] {
        fwd.execute_device(planes(fake, 8, 8, false, BackendKind::CUDA),
                           planes(fake + 1024, 8, 8, false), nullptr, nullptr);
      },
      "in is cuda memory but the plan runs on cpu");
  expect_error(
      [&] {
        fwd.execute_device(planes(fake, 8, 8, false), planes(fake + 1024, 8, 8, true), nullptr,
                           nullptr);
      },
      "this plan takes float32 in and float32 out");
  expect_error(
      [&] {
        fwd.execute_device(planes(fake, 8, 8, false), planes(fake + 1024, 8, 16, false), nullptr,
                           nullptr);
      },
      "out is 8 x 16 but the coefficients of a 8 x 8 plane need 8 x 8");
  expect_error(
      [&] {
        fwd.execute_device(planes(fake, 12, 8, false), planes(fake + 1024, 16, 8, false), nullptr,
                           nullptr);
      },
      "sides must be multiples of 8");
  expect_error(
      [&] {
        fwd.execute_device(planes(nullptr, 8, 8, false), planes(fake + 1024, 8, 8, false), nullptr,
                           nullptr);
      },
      "in has no data (null pointer)");
  Block8DevicePlanes zero = planes(fake + 1024, 8, 8, false);
  zero.row_stride = 0;
  expect_error([&] { fwd.execute_device(planes(fake, 8, 8, false), zero, nullptr, nullptr); },
               "out has a zero stride on axis 1");
  expect_error(
      [&] {
        fwd.execute_device(planes(fake, 8, 8, false), planes(fake + 4, 8, 8, false), nullptr,
                           nullptr);
      },
      "in and out overlap without being the same array");
  expect_error(
      [&] {
        fwd.execute_device(planes(fake, 8, 8, false), planes(fake, 8, 8, false), nullptr, nullptr);
      },
      "works on host memory");  // in place passes the checks
}

// A back end registered without a block engine refuses block plans, naming itself.
class NoBlockEngine final : public detail::Backend {
 public:
  BackendKind kind() const override { return BackendKind::OpenCL; }
  std::string unusable_reason() const override { return {}; }
  std::string description() const override { return "no block engine"; }
  detail::MemoryModel memory() const override { return detail::MemoryModel::DeviceHandles; }
  int auto_priority() const override { return 0; }
  std::unique_ptr<detail::BackendPlan> make_plan(const PlanDesc&) const override { return nullptr; }
};

TEST(Block8Plans, ABackEndWithoutABlockEngine) {
  auto previous = detail::register_backend(std::make_shared<NoBlockEngine>());
  expect_error([] { Block8Plan p(Block8PlanDesc{.backend = BackendKind::OpenCL}); },
               "the opencl back end of this build has no 8x8 block engine");
  if (previous)
    detail::register_backend(previous);
  else
    detail::unregister_backend(BackendKind::OpenCL);
}

TEST(Block8Plans, PlansGiveWhatTheFunctionsGiveAndSurviveMoves) {
  const Shape s = {16, 24};
  std::vector<float> x(16 * 24);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(0.7 * double(i)) * 90.0);
  const QuantTable t = quant_table_jpeg_luma(80);
  std::vector<std::int16_t> a(x.size(), -1), b(x.size(), -2);
  const Block8Stats sa =
      block8_forward_quantized(ConstView<float>(x.data(), s), View<std::int16_t>(a.data(), s), t);
  Block8Plan p(Block8PlanDesc{.op = Block8Op::ForwardQuantized, .table = t});
  Block8Plan& alias = p;
  p = std::move(alias);  // a self-move keeps the plan
  Block8Plan q(std::move(p));
  const Block8Stats sb = q.execute(ConstView<float>(x.data(), s), View<std::int16_t>(b.data(), s));
  EXPECT_EQ(a, b);
  EXPECT_EQ(sa.zeros, sb.zeros);
  EXPECT_EQ(sb.coefficients, x.size());
  expect_error([&] { p.describe(); }, "moved from");
}

}  // namespace
}  // namespace dctx
