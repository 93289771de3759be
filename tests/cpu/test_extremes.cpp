// SPDX-License-Identifier: BSD-3-Clause
// Inputs at the edge of the floating-point range (src/cpu/extremes-inl.h): a value near the top of
// the range gives finite outputs wherever the true result is finite, and as accurate as usual;
// infinities come out as IEEE arithmetic on the definition gives them (+-inf, NaN where both
// signs meet); NaN stays NaN; the other lines of a batch are not touched; the fused 2D route
// falls back to the row-column one for such inputs, also in place.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "cpu/targets.hpp"
#include "dctx/dctx.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using oracle::LD;

class Extremes : public test::PerTarget {};

template <class T>
Plan line_plan(Kind kind, int type, Norm norm, Direction dir, const Shape& shape, int axis) {
  PlanDesc d;
  d.shape = shape;
  d.axes = {axis};
  d.transforms = {{kind, type}};
  d.norm = norm;
  d.direction = dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  return Plan(d);
}

template <class T>
void check_spike(Kind kind, int type, Norm norm, Direction dir, std::size_t n, std::size_t j,
                 std::size_t rows = 9, std::size_t line = 4) {
  const T big = std::numeric_limits<T>::max() * T(0.9);
  // A batch of `rows` lines along axis 1; line `line` holds the spike over a random background.
  std::vector<T> x = oracle::random_vector<T>(rows * n, static_cast<unsigned>(n * 31 + j));
  x[line * n + j] = big;
  const Plan p = line_plan<T>(kind, type, norm, dir, {rows, n}, 1);
  // Input and output in one allocation from a 64-byte boundary, rows * n elements apart: with
  // rows of whole vectors both are aligned alike, as a group of rows needs to hold its result
  // until the next group's gather (CpuPlan::RunAxis, LineMoves::ScatterGatherTransposed).
  std::vector<T> mem(2 * x.size() + 64 / sizeof(T), std::numeric_limits<T>::quiet_NaN());
  T* const base =
      mem.data() + (64 - reinterpret_cast<std::uintptr_t>(mem.data()) % 64) % 64 / sizeof(T);
  std::copy(x.begin(), x.end(), base);
  p.execute(ConstView<T>(base, {rows, n}), View<T>(base + x.size(), {rows, n}));
  const std::vector<T> y(base + x.size(), base + 2 * x.size());
  const std::vector<LD> want =
      oracle::reference(kind, type, norm, norm == Norm::Ortho, dir,
                        std::vector<LD>(x.begin() + line * n, x.begin() + (line + 1) * n));
  LD true_max = 0;
  for (LD v : want) true_max = std::max(true_max, std::fabs(v));
  const std::string what = std::string(kind == Kind::DCT ? "DCT-" : "DST-") + std::to_string(type) +
                           " n=" + std::to_string(n) + " j=" + std::to_string(j) + " " +
                           p.describe();
  if (true_max >= std::numeric_limits<T>::max()) return;  // the true result overflows
  const std::vector<T> got(y.begin() + line * n, y.begin() + (line + 1) * n);
  for (std::size_t k = 0; k < n; ++k)
    ASSERT_TRUE(std::isfinite(got[k])) << what << ": y[" << k << "] = " << got[k];
  EXPECT_LE(oracle::rel_l2(got, want), oracle::tolerance<T>(n)) << what;
  // The other lines: exactly what the same plan gives them when line 4 holds no spike.
  std::vector<T> tame = x, z(x.size());
  tame[line * n + j] = T(0.5);
  p.execute(ConstView<T>(tame.data(), {rows, n}), View<T>(z.data(), {rows, n}));
  for (std::size_t r = 0; r < rows; ++r) {
    if (r == line) continue;
    for (std::size_t k = 0; k < n; ++k)
      ASSERT_EQ(y[r * n + k], z[r * n + k]) << what << " row " << r;
  }
}

TEST_P(Extremes, SpikesNearTheTopOfTheRangeStayFinite) {
  for (Kind kind : {Kind::DCT, Kind::DST})
    for (int type = 1; type <= 4; ++type)
      for (Norm norm : {Norm::Ortho, Norm::Forward, Norm::Backward})
        for (Direction dir : {Direction::Forward, Direction::Inverse})
          for (std::size_t n : {2, 16, 17, 128}) {
            if (kind == Kind::DCT && type == 1 && n < 2) continue;
            for (std::size_t j : {std::size_t{0}, n - 1}) {
              check_spike<float>(kind, type, norm, dir, n, j);
              check_spike<double>(kind, type, norm, dir, n, j);
            }
          }
}

// Batches of whole groups of rows (every lane of a vector in use), whose outputs are scattered by
// transposes and tested for finiteness as they are stored: the spike's line is redone and stored
// again, its neighbours keep their bits. Of 64 rows, every group but the last is stored with the
// next one's gather (CpuPlan::HeldRows; rows of 2 vectors or more): the spike in the first
// group, in a middle one, in the last; of 40, the last group is not full.
TEST_P(Extremes, SpikesInFullGroupsOfRows) {
  for (Kind kind : {Kind::DCT, Kind::DST})
    for (int type : {2, 3})
      for (Direction dir : {Direction::Forward, Direction::Inverse})
        for (std::size_t n : {16, 128})
          for (std::size_t j : {std::size_t{0}, n - 1}) {
            check_spike<float>(kind, type, Norm::Ortho, dir, n, j, 40, 21);
            check_spike<double>(kind, type, Norm::Ortho, dir, n, j, 40, 21);
            for (std::size_t line : {3, 21, 60}) {
              check_spike<float>(kind, type, Norm::Ortho, dir, n, j, 64, line);
              check_spike<double>(kind, type, Norm::Ortho, dir, n, j, 64, line);
            }
          }
}

// One scalar line (the driver's single-line path) and lines along axis 0 (lanes across columns).
TEST_P(Extremes, SingleLinesAndColumns) {
  const float big = std::numeric_limits<float>::max() * 0.9f;
  std::vector<float> x(16, 0.25f), y(16);
  x[0] = big;
  const Plan p = line_plan<float>(Kind::DCT, 2, Norm::Ortho, Direction::Forward, {16}, 0);
  p.execute(ConstView<float>(x.data(), {16}), View<float>(y.data(), {16}));
  for (float v : y) EXPECT_TRUE(std::isfinite(v));
  std::vector<float> a = oracle::random_vector<float>(16 * 12, 5), b(a.size());
  a[3 * 12 + 7] = big;  // column 7
  const Plan q = line_plan<float>(Kind::DST, 4, Norm::Ortho, Direction::Forward, {16, 12}, 0);
  q.execute(ConstView<float>(a.data(), {16, 12}), View<float>(b.data(), {16, 12}));
  for (float v : b) EXPECT_TRUE(std::isfinite(v));
}

// The outputs that infinities reach, as IEEE arithmetic on the definition gives them; the sign of
// each matrix entry from the long-double oracle on unit vectors (an exact zero carries none).
template <class T>
void check_infinities(Kind kind, int type, Direction dir, std::size_t n,
                      const std::vector<std::pair<std::size_t, T>>& infs) {
  std::vector<T> x = oracle::random_vector<T>(n, static_cast<unsigned>(n + infs.size()));
  for (const auto& [j, v] : infs) x[j] = v;
  const Plan p = line_plan<T>(kind, type, Norm::Ortho, dir, {n}, 0);
  std::vector<T> y(n);
  p.execute(ConstView<T>(x.data(), {n}), View<T>(y.data(), {n}));
  const int t = dir == Direction::Inverse ? inverse_type(type) : type;
  for (std::size_t k = 0; k < n; ++k) {
    bool plus = false, minus = false;
    for (const auto& [j, v] : infs) {
      std::vector<LD> e(n, 0.0L);
      e[j] = 1.0L;
      const LD c = oracle::transform_at(kind, t, e, k);
      if (std::fabs(c) < 1e-12L) continue;
      ((c > 0) == (v > 0) ? plus : minus) = true;
    }
    const std::string what = std::string(to_string(kind)) + "-" + std::to_string(t) +
                             " n=" + std::to_string(n) + " k=" + std::to_string(k) + ": " +
                             std::to_string(y[k]);
    if (plus && minus)
      EXPECT_TRUE(std::isnan(y[k])) << what;
    else if (plus)
      EXPECT_EQ(y[k], std::numeric_limits<T>::infinity()) << what;
    else if (minus)
      EXPECT_EQ(y[k], -std::numeric_limits<T>::infinity()) << what;
    else
      EXPECT_TRUE(std::isfinite(y[k])) << what;
  }
}

TEST_P(Extremes, InfinitiesAsTheDefinitionGivesThem) {
  const float inf = std::numeric_limits<float>::infinity();
  for (Kind kind : {Kind::DCT, Kind::DST})
    for (int type = 1; type <= 4; ++type)
      for (Direction dir : {Direction::Forward, Direction::Inverse})
        for (std::size_t n : {8, 16, 17}) {
          check_infinities<float>(kind, type, dir, n, {{5, inf}});
          check_infinities<float>(kind, type, dir, n, {{2, inf}, {n - 1, -inf}});
          check_infinities<double>(kind, type, dir, n, {{0, -double(inf)}});
        }
}

// DXST-III never reads x_0 (DXST-II's y_0 is an exact zero), so an infinity there reaches
// nothing; elsewhere infinities go where the definition sends them.
TEST_P(Extremes, ShiftedSineInfinities) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int type : {2, 3})
    for (Direction dir : {Direction::Forward, Direction::Inverse})
      for (std::size_t n : {8, 17}) {
        check_infinities<float>(Kind::DXST, type, dir, n, {{5, inf}});
        check_infinities<float>(Kind::DXST, type, dir, n, {{2, inf}, {n - 1, -inf}});
        check_infinities<double>(Kind::DXST, type, dir, n, {{0, -double(inf)}});
      }
}

// The real DFT's matrices have exact zeros (sin 0, cos pi/2 for n divisible by 4): an infinity
// reaches only the outputs whose entry is non-zero, with the entry's sign.
TEST_P(Extremes, RealDftInfinities) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int type : {2, 3})
    for (Direction dir : {Direction::Forward, Direction::Inverse})
      for (std::size_t n : {8, 16, 17}) {
        check_infinities<float>(Kind::RDFT, type, dir, n, {{5, inf}});
        check_infinities<float>(Kind::RDFT, type, dir, n, {{2, inf}, {n - 1, -inf}});
        check_infinities<double>(Kind::RDFT, type, dir, n, {{0, -double(inf)}});
      }
}

TEST_P(Extremes, NanStaysNan) {
  std::vector<double> x = oracle::random_vector<double>(12, 3), y(12);
  x[7] = std::numeric_limits<double>::quiet_NaN();
  const Plan p = line_plan<double>(Kind::DST, 2, Norm::Backward, Direction::Forward, {12}, 0);
  p.execute(ConstView<double>(x.data(), {12}), View<double>(y.data(), {12}));
  for (double v : y) EXPECT_TRUE(std::isnan(v));
}

// The fused 2D route checks the input's range in its first pass and hands such inputs to the
// row-column plan: the same results as that plan, also in place and for the inverse.
TEST_P(Extremes, Fused2DFallsBackToRowColumn) {
  const Shape shape{16, 24};
  for (Direction dir : {Direction::Forward, Direction::Inverse})
    for (float special :
         {std::numeric_limits<float>::max() * 0.9f, std::numeric_limits<float>::infinity()}) {
      std::vector<float> x = oracle::random_vector<float>(16 * 24, 9);
      x[5 * 24 + 11] = special;
      PlanDesc d;
      d.shape = shape;
      d.norm = Norm::Ortho;
      d.direction = dir;
      d.precision = Precision::F32;
      d.cpu.algorithm = Algorithm2D::Fused;
      const Plan fused(d);
      d.cpu.algorithm = Algorithm2D::RowColumn;
      const Plan rowcol(d);
      std::vector<float> a(x.size()), b(x.size()), c = x;
      fused.execute(ConstView<float>(x.data(), shape), View<float>(a.data(), shape));
      rowcol.execute(ConstView<float>(x.data(), shape), View<float>(b.data(), shape));
      fused.execute(View<float>(c.data(), shape));  // in place
      for (std::size_t i = 0; i < x.size(); ++i) {
        ASSERT_TRUE(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))) << i << " " << a[i];
        ASSERT_TRUE(c[i] == b[i] || (std::isnan(c[i]) && std::isnan(b[i]))) << i << " " << c[i];
      }
      if (std::isfinite(special)) {
        const auto want = oracle::reference_nd(shape, {0, 1}, fused.desc().transforms, d.norm, true,
                                               dir, std::vector<LD>(x.begin(), x.end()));
        for (float v : a) ASSERT_TRUE(std::isfinite(v));
        EXPECT_LE(oracle::rel_l2(a, want),
                  std::sqrt(2.0) * oracle::tolerance<float>(24));  // two axes
      }
    }
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(Extremes);

}  // namespace
}  // namespace dctx
