// SPDX-License-Identifier: BSD-3-Clause
// Every kind x type x norm x direction x precision on every length 1..128 against the long-double
// oracle (DCT/DST I-IV, DREAMPlace's shifted DXST-II/III, the halfcomplex real DFT); impulses,
// linearity, round trips.
#include <gtest/gtest.h>

#include <cmath>

#include "cpu/targets.hpp"
#include "dctx/dctx.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using oracle::LD;

const std::tuple<Kind, int> kTransforms[] = {{Kind::DCT, 1},  {Kind::DCT, 2},  {Kind::DCT, 3},
                                             {Kind::DCT, 4},  {Kind::DST, 1},  {Kind::DST, 2},
                                             {Kind::DST, 3},  {Kind::DST, 4},  {Kind::DXST, 2},
                                             {Kind::DXST, 3}, {Kind::RDFT, 2}, {Kind::RDFT, 3}};
const Norm kNorms[] = {Norm::Backward, Norm::Ortho, Norm::Forward};
const Direction kDirs[] = {Direction::Forward, Direction::Inverse};

template <class T>
std::vector<T> run1d(Kind kind, int type, Norm norm, std::optional<bool> ortho, Direction dir,
                     const std::vector<T>& x) {
  PlanDesc d;
  d.shape = {x.size()};
  d.kind = kind;
  d.type = type;
  d.norm = norm;
  d.orthogonalize = ortho;
  d.direction = dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  Plan p(d);
  std::vector<T> y(x.size(), std::numeric_limits<T>::quiet_NaN());  // poisoned
  p.execute(ConstView<T>(x.data(), {x.size()}), View<T>(y.data(), {x.size()}));
  return y;
}

template <class T>
void check_all_lengths(Kind kind, int type) {
  for (Norm norm : kNorms)
    for (Direction dir : kDirs)
      for (bool ortho : {false, true})
        for (std::size_t n = 1; n <= 128; ++n) {
          if (kind == Kind::DCT && type == 1 && n < 2) continue;
          if (ortho != (norm == Norm::Ortho) && n % 7 != 3)
            continue;  // orthogonalize off-default: a sample
          const auto x = oracle::random_vector<T>(n, static_cast<unsigned>(n * 131 + type));
          std::vector<LD> xl(x.begin(), x.end());
          const auto want = oracle::reference(kind, type, norm, ortho, dir, xl);
          const auto got = run1d<T>(kind, type, norm, ortho, dir, x);
          const double err = oracle::rel_l2(got, want);
          ASSERT_LE(err, oracle::tolerance<T>(n))
              << to_string(kind) << type << " n=" << n << " norm=" << to_string(norm)
              << " dir=" << to_string(dir) << " ortho=" << ortho;
        }
}

class AllTypes : public test::PerTargetWith<std::tuple<Kind, int>> {};

TEST_P(AllTypes, Float64EveryLength1To128) {
  check_all_lengths<double>(std::get<0>(param()), std::get<1>(param()));
}
TEST_P(AllTypes, Float32EveryLength1To128) {
  check_all_lengths<float>(std::get<0>(param()), std::get<1>(param()));
}

TEST_P(AllTypes, ImpulsesGiveTheBasisVectors) {
  const auto [kind, type] = param();
  for (std::size_t n = 2; n <= 16; ++n)
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<double> e(n, 0.0);
      e[i] = 1.0;
      const auto got = run1d<double>(kind, type, Norm::Ortho, std::nullopt, Direction::Forward, e);
      std::vector<LD> el(e.begin(), e.end());
      const auto want = oracle::reference(kind, type, Norm::Ortho, true, Direction::Forward, el);
      for (std::size_t k = 0; k < n; ++k)
        ASSERT_NEAR(got[k], static_cast<double>(want[k]), 1e-14) << n << " " << i;
    }
}

// DXST drops x_0 (type 3) or DST-II's last frequency (type 2): its round trip gives back x with
// x_0 zeroed after type 3, and a projection after type 2 (a second round trip changes nothing).
TEST_P(AllTypes, RoundTripIsIdentity) {
  const auto [kind, type] = param();
  const auto round_trip = [&, kind = kind, type = type](Norm norm, const std::vector<double>& x) {
    const auto y = run1d<double>(kind, type, norm, std::nullopt, Direction::Forward, x);
    return run1d<double>(kind, type, norm, std::nullopt, Direction::Inverse, y);
  };
  for (Norm norm : kNorms)
    for (std::size_t n : {2, 3, 5, 8, 17, 64, 97, 210, 1000}) {
      auto x = oracle::random_vector<double>(n, 7);
      auto z = round_trip(norm, x);
      if (kind == Kind::DXST && type == 2) {
        for (std::size_t i = 0; i < n; ++i) ASSERT_GT(std::abs(z[i] - x[i]), 0.0) << n;
        x = z;
        z = round_trip(norm, x);
      }
      if (kind == Kind::DXST && type == 3) x[0] = 0;
      for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(z[i], x[i], 1e-13) << n;
    }
}

TEST_P(AllTypes, Linearity) {
  const auto [kind, type] = param();
  const std::size_t n = 45;
  const auto x = oracle::random_vector<double>(n, 1), y = oracle::random_vector<double>(n, 2);
  std::vector<double> c(n);
  for (std::size_t i = 0; i < n; ++i) c[i] = 2.5 * x[i] - 0.75 * y[i];
  const auto tx = run1d<double>(kind, type, Norm::Backward, std::nullopt, Direction::Forward, x);
  const auto ty = run1d<double>(kind, type, Norm::Backward, std::nullopt, Direction::Forward, y);
  const auto tc = run1d<double>(kind, type, Norm::Backward, std::nullopt, Direction::Forward, c);
  for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(tc[i], 2.5 * tx[i] - 0.75 * ty[i], 1e-12);
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS_WITH(AllTypes, ::testing::ValuesIn(kTransforms),
                                        [](const std::tuple<Kind, int>& t) {
                                          return std::string(to_string(std::get<0>(t))) +
                                                 std::to_string(std::get<1>(t));
                                        });

}  // namespace
}  // namespace dctx
