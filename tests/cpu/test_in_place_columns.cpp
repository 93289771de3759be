// SPDX-License-Identifier: BSD-3-Clause
// The in-place pass over the columns of a small row-major array (adjacent lines nearer than
// 2 KiB) reads the array straight into the transform (nd_driver-inl.h: a DCT-III through its
// pre-processing, a DCT-II or RDFT-II through its real FFT's first stage) instead of gathering
// each group first. The same array stored column-major runs the gathers (its columns are
// contiguous lines, far from adjacent): both layouts, and the row-major one in place, give the
// same bits, outputs poisoned first.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "cpu/layouts.hpp"
#include "cpu/targets.hpp"
#include "dctx/dctx.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

class InPlaceColumns : public test::PerTarget {};

template <class T>
void check_layouts_agree(std::size_t rows, std::size_t cols, AxisTransform t, Direction dir) {
  const Shape s = {rows, cols};
  const std::size_t n = rows * cols;
  const auto x = oracle::random_vector<T>(n, static_cast<unsigned>(n + cols + t.type));
  PlanDesc d;
  d.shape = s;
  d.transforms = {t, t};
  d.norm = Norm::Ortho;
  d.direction = dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  const Plan p(d);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> c(n, nan);
  p.execute(ConstView<T>(x.data(), s), View<T>(c.data(), s));
  std::vector<T> in_place = x;
  p.execute(View<T>(in_place.data(), s));
  const std::vector<T> f = test::run_column_major(p, x, rows, cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      ASSERT_EQ(std::memcmp(&c[i * cols + j], &f[i * cols + j], sizeof(T)), 0)
          << rows << "x" << cols << " type " << t.type << " at (" << i << ", " << j << ")";
      ASSERT_EQ(std::memcmp(&c[i * cols + j], &in_place[i * cols + j], sizeof(T)), 0)
          << rows << "x" << cols << " type " << t.type << " in place at (" << i << ", " << j << ")";
    }
}

TEST_P(InPlaceColumns, ReadStraightFromTheArrayGivesTheGatheredBits) {
  // Column lengths whose half-length FFT does and does not end in the fused radix-2 split on each
  // target (AVX2 factors into 4s and a 2, AVX-512 into 16s, 4s and a 2, others into 8s), rows
  // narrower than 2 KiB. On AVX2 a half-length of 4^k (rows 32, 128) reads the array through
  // 4^(k-1)·2·2, whose last two stages multiply only by 1 and -i: still the 4s' bits.
  for (std::size_t rows : {16, 32, 64, 128, 256})
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      check_layouts_agree<float>(rows, 40, {Kind::DCT, 2}, dir);
      check_layouts_agree<double>(rows, 24, {Kind::DCT, 2}, dir);
      check_layouts_agree<float>(rows, 24, {Kind::RDFT, 2}, dir);
    }
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(InPlaceColumns);

}  // namespace
}  // namespace dctx
