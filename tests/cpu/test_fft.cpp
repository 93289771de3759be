// SPDX-License-Identifier: BSD-3-Clause
// Large 1D lengths (powers of two, smooth composites, primes through Bluestein) up to 10^5,
// checked against the oracle at sampled outputs. With norm=ortho every transform is orthogonal,
// so ||y|| = ||x|| and the sampled squared error estimates the relative L2 error.
#include <gtest/gtest.h>

#include "cpu/targets.hpp"
#include "dctx/dctx.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using oracle::LD;

template <class T>
void check_large(std::size_t n, Kind kind, int type, Direction dir) {
  const auto x = oracle::random_vector<T>(n, static_cast<unsigned>(n));
  PlanDesc d;
  d.shape = {n};
  d.kind = kind;
  d.type = type;
  d.norm = Norm::Ortho;
  d.direction = dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  Plan p(d);
  std::vector<T> y(n, std::numeric_limits<T>::quiet_NaN());
  p.execute(ConstView<T>(x.data(), {n}), View<T>(y.data(), {n}));
  std::vector<std::size_t> ks = {0, 1, 2, n / 3, n / 2, n - 2, n - 1};
  for (std::size_t i = 0; i < 9; ++i) ks.push_back((i * 7919 + 13) % n);
  std::vector<LD> xl(x.begin(), x.end());
  const auto want = oracle::reference(kind, type, Norm::Ortho, true, dir, xl, ks);
  LD e2 = 0, x2 = 0;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const LD diff = static_cast<LD>(y[ks[i]]) - want[i];
    e2 += diff * diff;
  }
  for (T v : x) x2 += static_cast<LD>(v) * v;
  const double err = static_cast<double>(std::sqrt(e2 * n / ks.size() / x2));
  EXPECT_LE(err, oracle::tolerance<T>(n))
      << to_string(kind) << type << " n=" << n << " " << p.describe();
  for (T v : y) ASSERT_TRUE(std::isfinite(v)) << "unwritten output";
}

class LargeLengths : public test::PerTargetWith<std::size_t> {};

TEST_P(LargeLengths, AllKindsAndTypes) {
  const std::size_t n = param();
  for (Kind kind : {Kind::DCT, Kind::DST})
    for (int type = 1; type <= 4; ++type) {
      check_large<double>(n, kind, type, Direction::Forward);
      check_large<float>(n, kind, type, Direction::Forward);
      if (type == 2) check_large<float>(n, kind, type, Direction::Inverse);
    }
}

// 2^k, 3*5*7*11*13, 2*3*5*7*11*13, primes (Bluestein), prime*prime, generic odd radices.
DCTX_INSTANTIATE_TRANSFORM_TARGETS_WITH(LargeLengths,
                                        ::testing::Values(1024, 4096, 65536, 15015, 30030, 1000,
                                                          100000, 8191, 10007, 65537, 99991, 9797,
                                                          4913, 2 * 59 * 61),
                                        [](std::size_t n) { return std::to_string(n); });

class Bluestein : public test::PerTarget {};

TEST_P(Bluestein, PrimeLengthsUseIt) {
  PlanDesc d;
  d.shape = {10007};
  Plan p(d);
  EXPECT_NE(p.describe().find("Bluestein"), std::string::npos) << p.describe();
  d.shape = {4096};
  EXPECT_EQ(Plan(d).describe().find("Bluestein"), std::string::npos);
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(Bluestein);

}  // namespace
}  // namespace dctx
