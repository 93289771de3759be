// SPDX-License-Identifier: BSD-3-Clause
// Columns 2 KiB or more apart whose neighbours are adjacent (the columns of a wide row-major
// array) run in blocks of lane groups (nd_driver-inl.h, RunBlock): four groups, and out of
// place from 1024 rows enough groups for 256-byte block rows (eight on AVX2). Those blocks (out
// of place, streamed from 8 MiB, in place after the rows, a DCT-III's own scratches and direct
// reads, odd lengths paired) give the bits of the in-place call, of two threads and of the same
// array stored column-major (whose columns are contiguous lines moved by transposes), outputs
// poisoned first; and a few columns of each agree with the long-double oracle.
#include <gtest/gtest.h>

#include <cmath>
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

class ColumnBlocks : public test::PerTarget {};

// A rows x cols array, transform t along `axes` ({} for both): row-major out of place, in
// place, with two threads, and column-major, all the same bits; with axes {0}, the columns in
// `check` against the oracle.
template <class T>
void check_blocks(std::size_t rows, std::size_t cols, const std::vector<int>& axes, AxisTransform t,
                  Direction dir, const std::vector<std::size_t>& check) {
  const Shape s = {rows, cols};
  const std::size_t n = rows * cols;
  const auto x = oracle::random_vector<T>(n, static_cast<unsigned>(n + cols + t.type));
  PlanDesc d;
  d.shape = s;
  d.axes = axes;
  d.transforms = std::vector<AxisTransform>(axes.empty() ? 2 : axes.size(), t);
  d.norm = Norm::Ortho;
  d.direction = dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  const Plan p(d);
  d.cpu.threads = 2;
  const Plan p2(d);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> c(n, nan), c2(n, nan);
  p.execute(ConstView<T>(x.data(), s), View<T>(c.data(), s));
  p2.execute(ConstView<T>(x.data(), s), View<T>(c2.data(), s));
  std::vector<T> in_place = x;
  p.execute(View<T>(in_place.data(), s));
  const std::vector<T> f = test::run_column_major(p, x, rows, cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      const std::size_t e = i * cols + j;
      ASSERT_EQ(std::memcmp(&c[e], &f[e], sizeof(T)), 0)
          << p.describe() << " column-major at (" << i << ", " << j << ")";
      ASSERT_EQ(std::memcmp(&c[e], &in_place[e], sizeof(T)), 0)
          << p.describe() << " in place at (" << i << ", " << j << ")";
      ASSERT_EQ(std::memcmp(&c[e], &c2[e], sizeof(T)), 0)
          << p.describe() << " two threads at (" << i << ", " << j << ")";
    }
  for (std::size_t j : check) {
    std::vector<oracle::LD> column(rows);
    std::vector<T> got(rows);
    for (std::size_t i = 0; i < rows; ++i) {
      column[i] = x[i * cols + j];
      got[i] = c[i * cols + j];
    }
    const auto want = oracle::reference(t.kind, t.type, Norm::Ortho, true, dir, column);
    EXPECT_LE(oracle::rel_l2(got, want), oracle::tolerance<T>(rows))
        << p.describe() << " column " << j;
  }
}

TEST_P(ColumnBlocks, WideBlocksGiveTheBitsOfContiguousColumns) {
  constexpr AxisTransform kDct2{Kind::DCT, 2}, kDst2{Kind::DST, 2};
  for (Direction dir : {Direction::Forward, Direction::Inverse}) {
    // Columns alone, out of place (in place: blocks of four): 600 columns are 9 blocks of
    // eight groups of eight lanes on AVX2 and three single groups; the first and last column of
    // a block, and the last column.
    check_blocks<float>(1024, 600, {0}, kDct2, dir, {0, 63, 64, 599});
    check_blocks<float>(1024, 600, {0}, kDst2, dir, {1, 127});
    check_blocks<double>(1024, 304, {0}, kDct2, dir, {0, 31, 303});
    // Under 1024 rows: blocks of four.
    check_blocks<float>(1000, 600, {0}, kDct2, dir, {0, 599});
    // Both axes under 8 MiB: the rows first, then the column blocks in place (a DCT-III's read
    // straight from the array); an odd length pairs groups within a block of four.
    check_blocks<float>(1024, 600, {}, kDct2, dir, {});
    check_blocks<float>(1025, 600, {}, kDct2, dir, {});
    // 512-point columns (a half-length FFT of 16·8·2 on AVX-512, 4·4·4·4·2 on AVX2): the
    // DCT-II's split fuses into its last stage, so the in-place blocks read the array from
    // the first stage instead of gathering it.
    check_blocks<float>(512, 600, {}, kDct2, dir, {});
    check_blocks<double>(512, 304, {}, kDct2, dir, {});
    // 8 MiB: the column blocks first, out of place, their stores streamed; an odd length pairs
    // groups within a wide block.
    check_blocks<float>(2048, 1024, {}, kDct2, dir, {});
    check_blocks<float>(2049, 1024, {}, kDct2, dir, {});
  }
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(ColumnBlocks);

}  // namespace
}  // namespace dctx
