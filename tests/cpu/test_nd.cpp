// SPDX-License-Identifier: BSD-3-Clause
// N-D transforms: 2D/3D/4D shapes with axis subsets, mixed kinds per axis, strided, negative-
// stride, Fortran-order and in-place views, threads; against the long-double N-D oracle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <numeric>

#include "cpu/targets.hpp"
#include "dctx/dctx.hpp"
#include "expect_error.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using oracle::LD;

class Fused2D : public test::PerTarget {};
class Nd : public test::PerTarget {};
class Views : public test::PerTarget {};

struct Case {
  Shape shape;
  std::vector<int> axes;
  std::vector<AxisTransform> tr;  // one per axis of `axes` (after normalisation)
};

std::vector<int> resolved_axes(const Shape& s, const std::vector<int>& axes) {
  std::vector<int> r;
  if (axes.empty()) {
    for (std::size_t i = 0; i < s.size(); ++i) r.push_back(static_cast<int>(i));
  } else {
    for (int a : axes) r.push_back(a < 0 ? a + static_cast<int>(s.size()) : a);
  }
  return r;
}

std::size_t total(const Shape& s) {
  return std::accumulate(s.begin(), s.end(), std::size_t{1}, std::multiplies<>());
}

template <class T>
void check_case(const Case& c, Norm norm, Direction dir, int threads) {
  const std::size_t n = total(c.shape);
  const auto x = oracle::random_vector<T>(n, static_cast<unsigned>(n + c.shape.size()));
  PlanDesc d;
  d.shape = c.shape;
  d.axes = c.axes;
  d.transforms = c.tr;
  d.norm = norm;
  d.direction = dir;
  d.cpu.threads = threads;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  Plan p(d);
  std::vector<T> y(n, std::numeric_limits<T>::quiet_NaN());
  p.execute(ConstView<T>(x.data(), c.shape), View<T>(y.data(), c.shape));
  const auto axes = resolved_axes(c.shape, c.axes);
  const auto want =
      oracle::reference_nd(c.shape, axes, p.desc().transforms, norm, norm == Norm::Ortho, dir,
                           std::vector<LD>(x.begin(), x.end()));
  std::size_t maxn = 2;
  for (int a : axes) maxn = std::max(maxn, c.shape[static_cast<std::size_t>(a)]);
  EXPECT_LE(oracle::rel_l2(y, want), oracle::tolerance<T>(maxn) * std::sqrt(double(axes.size())))
      << p.describe();
}

const AxisTransform kDct2{Kind::DCT, 2};

TEST_P(Nd, TwoDShapes) {
  const Shape shapes[] = {{1, 9}, {9, 1}, {8, 8}, {17, 12}, {64, 48}, {31, 37}, {3, 128}, {16, 5}};
  for (const auto& s : shapes)
    for (Norm norm : {Norm::Backward, Norm::Ortho})
      for (Direction dir : {Direction::Forward, Direction::Inverse}) {
        check_case<double>({s, {}, {}}, norm, dir, 1);
        check_case<float>({s, {}, {}}, norm, dir, 2);
      }
}

// DCT-II and DST-II over every axis of each shape, both directions, float64 and float32.
void check_dct2_and_dst2(std::initializer_list<Shape> shapes) {
  for (const auto& s : shapes)
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      check_case<double>({s, {}, {}}, Norm::Ortho, dir, 1);
      check_case<float>({s, {}, {}}, Norm::Backward, dir, 1);
      const std::vector<AxisTransform> dst2(s.size(), AxisTransform{Kind::DST, 2});
      check_case<float>({s, {}, dst2}, Norm::Ortho, dir, 1);
    }
}

// Even sides whose half-length real FFT has a prime above the generic radix (67, 131: Bluestein)
// or not (48, 160): the DCT-II gathers straight into Makhoul's order and the type II/III passes
// fused into the real FFT's split, on vector lines (rows and columns) and on single lines.
TEST_P(Nd, EvenSidesThroughThePackedRealFft) {
  check_dct2_and_dst2({{134, 20}, {20, 262}, {48, 160}, {134}, {262}, {160}});
}

// Sides 64, 512 and 4096: on AVX-512 their half-length FFTs (2^(3k+2) points) run a stage of
// radix 16 and the radix 2 fused with the split (core/fft_tables.hpp, stockham_radices), on
// vector lines along either axis and on a single line; AVX2 runs 4s (and a 2 fused with the
// split where the power is odd), the other targets 8s, a 4 and the split.
TEST_P(Nd, SidesWithARadixSixteenStage) {
  check_dct2_and_dst2({{64, 40}, {24, 512}, {512, 20}, {2, 4096}, {4096, 2}, {512}});
}

// Lines a page or more apart with adjacent neighbours (the columns of wide row-major arrays) run
// in blocks of several lane groups (nd_driver-inl.h, RunBlock), with single groups for the rest.
TEST_P(Nd, FarApartColumnsInBlocks) {
  const Shape shapes[] = {{40, 1024}, {24, 1030}, {6, 2, 1024}};
  for (const auto& s : shapes)
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      check_case<float>({s, {0}, {}}, Norm::Ortho, dir, 1);
      check_case<double>({s, {0}, {}}, Norm::Backward, dir, 2);
      check_case<float>({s, {0}, {{Kind::DST, 2}}}, Norm::Ortho, dir, 1);
    }
  // Over both axes of an array under 8 MiB the rows run first; the column blocks then run in
  // place, and a DCT-III's read each group straight from the array (RunBlock's direct reads).
  for (const Shape& s : {Shape{24, 1024}, Shape{40, 600}})
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      check_case<float>({s, {}, {}}, Norm::Ortho, dir, 1);
      check_case<double>({s, {}, {}}, Norm::Backward, dir, 2);
    }
}

// Odd sides in a transform over several axes: two full lane groups run through one complex FFT
// (nd_driver-inl.h, RunPair; in RunBlock for far-apart columns, 601 * 4 bytes apart here), the
// rest alone; Bluestein's sides (67, 601) too. Every type II/III kind, both directions.
TEST_P(Nd, OddSidesPairLaneGroups) {
  const Shape shapes[] = {{37, 41}, {67, 35}, {35, 601}, {9, 33, 17}};
  const AxisTransform c2{Kind::DCT, 2}, s2{Kind::DST, 2}, x2{Kind::DXST, 2};
  for (const auto& s : shapes)
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      check_case<double>({s, {}, {}}, Norm::Ortho, dir, 1);
      check_case<float>({s, {}, {}}, Norm::Backward, dir, 2);
      if (s.size() != 2) continue;
      check_case<float>({s, {}, {s2, c2}}, Norm::Ortho, dir, 1);
      check_case<double>({s, {}, {c2, x2}}, Norm::Ortho, dir, 1);
    }
}

// A paired line whose FFT overflows spreads inf or NaN to its partner: both groups then run
// again apart (nd_driver-inl.h, FinishPair), and the spike's line is prescaled as alone.
TEST_P(Nd, OverflowInAPairedLineStaysInItsLine) {
  const Shape s{67, 35};
  const float big = std::numeric_limits<float>::max() * 0.6f;
  auto x = oracle::random_vector<float>(s[0] * s[1], 11);
  x[20 * 35 + 4] = big;  // row 20, two neighbours: the row FFT's sum overflows float
  x[20 * 35 + 5] = big;
  Plan p(PlanDesc{.shape = s, .precision = Precision::F32, .norm = Norm::Ortho});
  std::vector<float> y(x.size(), std::numeric_limits<float>::quiet_NaN());
  p.execute(ConstView<float>(x.data(), s), View<float>(y.data(), s));
  const auto want = oracle::reference_nd(s, {0, 1}, p.desc().transforms, Norm::Ortho, true,
                                         Direction::Forward, std::vector<LD>(x.begin(), x.end()));
  for (float v : y) ASSERT_TRUE(std::isfinite(v)) << p.describe();
  EXPECT_LE(oracle::rel_l2(y, want), oracle::tolerance<float>(67) * std::sqrt(2.0)) << p.describe();
}

// A batch of 2D transforms (axes 1 and 2 of a 3D array) keeps its lines unpaired: each image's
// result does not depend on the other image, bit for bit, even where the images' lines would
// share lane groups.
TEST_P(Nd, BatchedOddImagesStayIndependent) {
  const Shape s{2, 33, 35};
  const std::size_t image = 33 * 35;
  auto x = oracle::random_vector<float>(2 * image, 13);
  PlanDesc d{.shape = s, .axes = {1, 2}, .precision = Precision::F32, .norm = Norm::Ortho};
  const Plan p(d);
  std::vector<float> y(x.size()), z(x.size());
  p.execute(ConstView<float>(x.data(), s), View<float>(y.data(), s));
  for (std::size_t i = 0; i < image; ++i) x[i] *= 1e6f;  // the first image, louder
  p.execute(ConstView<float>(x.data(), s), View<float>(z.data(), s));
  for (std::size_t i = image; i < 2 * image; ++i) ASSERT_EQ(y[i], z[i]) << i << " " << p.describe();
}

struct FreeAligned {
  void operator()(void* q) const { std::free(q); }
};
// n elements on a 64-byte boundary (rounded up to whole 64 bytes), uninitialised.
template <class T>
std::unique_ptr<T[], FreeAligned> aligned_buffer(std::size_t n) {
  return std::unique_ptr<T[], FreeAligned>(
      static_cast<T*>(std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64)));
}

// Rows read and written in transposed blocks start their blocks where the rows' vectors are
// aligned (line_moves-inl.h, AlignedBlocks); the column groups start at the first aligned
// column, the columns before it and the last ones in group 0 (nd_driver-inl.h, HeadLines; on
// one thread only where group 0 moves as blends of aligned vectors both ways, in place or with
// the input and the output equally aligned), every line still running the code it runs without
// the shift: the same bits as one thread on aligned arrays from rows at every element offset
// from a 64-byte boundary, the input's and the output's offsets independent, equal, and in
// place, for row strides that are and are not multiples of a vector; outputs poisoned first.
template <class T>
void check_at_every_alignment(const Shape& s, const std::vector<int>& axes, int threads) {
  const std::size_t total = dctx::total(s);
  PlanDesc d{.shape = s,
             .axes = axes,
             .precision = sizeof(T) == 4 ? Precision::F32 : Precision::F64,
             .norm = Norm::Ortho};
  d.cpu.threads = 1;
  const Plan one(d);
  d.cpu.threads = threads;
  const Plan p(d);
  const auto x = oracle::random_vector<T>(total, unsigned(total));
  constexpr std::size_t kPer64 = 64 / sizeof(T);
  const auto in = aligned_buffer<T>(total + kPer64), out = aligned_buffer<T>(total + kPer64);
  std::copy(x.begin(), x.end(), in.get());
  std::fill(out.get(), out.get() + total, std::numeric_limits<T>::quiet_NaN());
  one.execute(ConstView<T>(in.get(), s), View<T>(out.get(), s));
  const std::vector<T> want(out.get(), out.get() + total);
  for (std::size_t e = 0; e < kPer64; ++e) {
    // f == kPer64: in place at e, the rest of out poisoned.
    for (const std::size_t f : {(e * 7 + 3) % kPer64, e, kPer64}) {
      const bool in_place = f == kPer64;
      T* y = out.get() + (in_place ? e : f);
      std::fill(out.get(), out.get() + total + kPer64, std::numeric_limits<T>::quiet_NaN());
      std::copy(x.begin(), x.end(), in_place ? y : in.get() + e);
      if (in_place)
        p.execute(View<T>(y, s));
      else
        p.execute(ConstView<T>(in.get() + e, s), View<T>(y, s));
      for (std::size_t i = 0; i < total; ++i)
        ASSERT_EQ(std::memcmp(&y[i], &want[i], sizeof(T)), 0)
            << p.describe() << ", " << threads << " thread(s), input " << e << " and output "
            << (in_place ? "in place" : std::to_string(f)) << " elements off 64 bytes, element "
            << i;
      // Nothing written around the array: the poison before and after it stays.
      for (const T* q = out.get(); q < out.get() + total + kPer64; ++q)
        if (q < y || q >= y + total) {
          ASSERT_TRUE(std::isnan(*q))
              << p.describe() << ", written outside the array at " << (q - y) << " from its start";
        }
    }
  }
}

template <class T>
void check_rows_at_every_alignment(std::size_t rows, std::size_t n, const std::vector<int>& axes,
                                   int threads = 1) {
  check_at_every_alignment<T>(Shape{rows, n}, axes, threads);
}

TEST_P(Nd, RowsAtEveryAlignment) {
  for (std::size_t n : {16, 20, 33, 64, 256}) {
    check_rows_at_every_alignment<float>(40, n, {1});
    check_rows_at_every_alignment<double>(40, n, {1});
  }
  check_rows_at_every_alignment<float>(48, 64, {0, 1});
  check_rows_at_every_alignment<double>(48, 64, {0, 1});
  // Columns 2 KiB and more apart, in blocks.
  check_rows_at_every_alignment<float>(24, 1024, {0});
  check_rows_at_every_alignment<double>(24, 520, {0, 1});
  check_rows_at_every_alignment<float>(20, 1000, {0});  // rows not a multiple of a vector
  check_rows_at_every_alignment<float>(20, 1026, {0});  // a last group of 2 lines
  // Two threads, whose chunks of column groups start after the first group.
  check_rows_at_every_alignment<float>(24, 1024, {0}, 2);
  check_rows_at_every_alignment<float>(20, 1026, {0, 1}, 2);
  check_rows_at_every_alignment<double>(24, 520, {0, 1}, 2);
  // The first axis of a 3D array, whose lines run over the other two axes as one.
  check_at_every_alignment<float>(Shape{20, 4, 260}, {0}, 2);
  check_at_every_alignment<double>(Shape{12, 3, 344}, {}, 2);
  // One thread: group 0 moved as blends (rows a multiple of a vector), one line of a row each.
  check_at_every_alignment<float>(Shape{20, 4, 256}, {0}, 1);
  check_at_every_alignment<double>(Shape{12, 3, 344}, {}, 1);
  check_rows_at_every_alignment<float>(1, 1024, {0});
  check_rows_at_every_alignment<double>(1, 512, {0}, 2);
}

// Arrays of 4 MiB and more stream the first pass's stores past the caches (CpuPlan's
// kStreamBytes): an out-of-place call into a poisoned output gives the bits of the in-place call,
// which does not stream, for every element. `shift`: the output that many elements off a 64-byte
// boundary (only the aligned vectors of a row stream).
template <class T>
void check_streamed_first_pass(const Shape& s, const std::vector<int>& axes, int threads,
                               std::size_t shift = 0) {
  const std::size_t n = total(s);
  ASSERT_GE(n * sizeof(T), std::size_t{4} << 20);
  const auto x = oracle::random_vector<T>(n, static_cast<unsigned>(n + axes.size()));
  for (Direction dir : {Direction::Forward, Direction::Inverse}) {
    PlanDesc d;
    d.shape = s;
    d.axes = axes;
    d.norm = Norm::Ortho;
    d.direction = dir;
    d.cpu.threads = threads;
    d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
    Plan p(d);
    const auto buffer = aligned_buffer<T>(n + shift);
    T* y = buffer.get() + shift;
    std::fill(buffer.get(), y + n, std::numeric_limits<T>::quiet_NaN());
    std::vector<T> z = x;
    p.execute(ConstView<T>(x.data(), s), View<T>(y, s));
    p.execute(View<T>(z.data(), s));
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(std::memcmp(&y[i], &z[i], sizeof(T)), 0)
          << p.describe() << " threads " << threads << ", shift " << shift << ", element " << i;
  }
}

TEST_P(Nd, StreamedFirstPassWritesEveryElement) {
  for (int threads : {1, 2}) {
    check_streamed_first_pass<float>({2048, 1024}, {}, threads);  // 8 MiB: the columns first
    check_streamed_first_pass<float>({2048, 512}, {0}, threads);
    check_streamed_first_pass<float>({2048, 520}, {0}, threads);     // rows not 64-byte multiples
    check_streamed_first_pass<float>({2048, 512}, {0}, threads, 4);  // group 0 stored as blends
    check_streamed_first_pass<double>({72, 64, 128}, {}, threads);
    // Rows (contiguous lines) through the transposed scatter.
    check_streamed_first_pass<float>({1024, 1024}, {1}, threads);
    check_streamed_first_pass<float>({1040, 1040}, {1}, threads, 3);  // rows off 64 bytes
    check_streamed_first_pass<float>({4100, 260}, {1}, threads);      // a last group of 4 lines
    check_streamed_first_pass<double>({520, 1024}, {1}, threads, 1);
    check_streamed_first_pass<double>({1024, 1000}, {1}, threads);
  }
}

// The same array in C order (columns in blocks) and in Fortran order (columns contiguous), with
// an infinity and values that overflow float32 in some columns of a block: the same results,
// inf and NaN included.
TEST_P(Nd, FarApartColumnsAtTheEdgesOfTheRange) {
  const std::size_t r = 20, c = 1024;
  const Shape s = {r, c};
  auto x = oracle::random_vector<float>(r * c, 11);
  x[3 * c + 5] = std::numeric_limits<float>::infinity();
  x[7 * c + 40] = 3e38f;
  x[8 * c + 40] = 3e38f;
  x[2 * c + 70] = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> xf(r * c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) xf[i + r * j] = x[i * c + j];
  for (Direction dir : {Direction::Forward, Direction::Inverse}) {
    Plan p(PlanDesc{.shape = s,
                    .axes = {0},
                    .precision = Precision::F32,
                    .norm = Norm::Ortho,
                    .direction = dir});
    std::vector<float> y(r * c, -1.0f), yf(r * c, -1.0f);
    p.execute(ConstView<float>(x.data(), s), View<float>(y.data(), s));
    p.execute(ConstView<float>(xf.data(), s, {1, static_cast<std::ptrdiff_t>(r)}),
              View<float>(yf.data(), s, {1, static_cast<std::ptrdiff_t>(r)}));
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < c; ++j) {
        const float a = y[i * c + j], b = yf[i + r * j];
        if (std::isnan(b)) {
          ASSERT_TRUE(std::isnan(a)) << i << "," << j;
        } else if (std::isinf(b)) {
          ASSERT_EQ(a, b) << i << "," << j;
        } else {
          ASSERT_NEAR(a, b, 1e-5f * (1 + std::abs(b))) << i << "," << j;
        }
      }
    EXPECT_NE(p.describe().find("DCT-I"), std::string::npos) << p.describe();  // the driver
    EXPECT_TRUE(std::isinf(y[0 * c + 5]));
    EXPECT_TRUE(std::isnan(y[0 * c + 70]));
  }
}

TEST_P(Nd, EveryTypeIn2D) {
  for (Kind k : {Kind::DCT, Kind::DST})
    for (int t = 1; t <= 4; ++t) {
      check_case<double>({{12, 10}, {}, {{k, t}, {k, t}}}, Norm::Ortho, Direction::Forward, 1);
      check_case<float>({{7, 9}, {}, {{k, t}, {k, t}}}, Norm::Backward, Direction::Inverse, 1);
    }
}

TEST_P(Nd, ThreeAndFourDWithAxisSubsets) {
  check_case<double>({{5, 6, 7}, {}, {}}, Norm::Ortho, Direction::Forward, 1);
  check_case<double>({{5, 6, 7}, {0, 2}, {}}, Norm::Backward, Direction::Forward, 2);
  check_case<double>({{5, 6, 7}, {-2}, {}}, Norm::Forward, Direction::Inverse, 1);
  check_case<float>({{4, 9, 6}, {2, 0, 1}, {}}, Norm::Ortho, Direction::Forward, 3);
  check_case<double>({{3, 4, 5, 6}, {1, 3}, {}}, Norm::Ortho, Direction::Forward, 1);
  check_case<double>({{3, 4, 5, 6}, {0, 2, 3}, {}}, Norm::Backward, Direction::Inverse, 2);
  check_case<float>({{3, 4, 5, 6}, {}, {}}, Norm::Ortho, Direction::Forward, 1);
}

TEST_P(Nd, MixedKindsPerAxis) {
  // Spectral Poisson solvers: DCT on one axis, DST on the other, possibly different types.
  check_case<double>({{16, 12}, {}, {{Kind::DCT, 2}, {Kind::DST, 2}}}, Norm::Ortho,
                     Direction::Forward, 1);
  check_case<double>({{16, 12}, {}, {{Kind::DCT, 3}, {Kind::DST, 3}}}, Norm::Backward,
                     Direction::Forward, 1);
  check_case<float>({{10, 11, 6}, {0, 2}, {{Kind::DST, 1}, {Kind::DCT, 4}}}, Norm::Ortho,
                    Direction::Inverse, 2);
}

TEST_P(Nd, DreamPlaceKinds) {
  // IDCT_IDXST and IDXST_IDCT of "A New Acceleration Paradigm for Discrete Cosine Transform and
  // Other Fourier-Related Transforms" are DCT-III x DXST-III (up to the weights of
  // dctx::dream_transform); small grids take the matrix route, larger ones the row-column one.
  const AxisTransform c3{Kind::DCT, 3}, s3{Kind::DXST, 3}, s2{Kind::DXST, 2};
  for (const Shape& s : {Shape{8, 8}, Shape{16, 12}, Shape{64, 48}, Shape{33, 20}})
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      check_case<double>({s, {}, {c3, s3}}, Norm::Backward, dir, 1);
      check_case<double>({s, {}, {s3, c3}}, Norm::Ortho, dir, 2);
      check_case<float>({s, {}, {s2, s2}}, Norm::Forward, dir, 1);
      check_case<float>({s, {}, {s3, s3}}, Norm::Ortho, dir, 2);
    }
  check_case<double>({{6, 10, 12}, {}, {s3, c3, s2}}, Norm::Backward, Direction::Forward, 2);
  check_case<float>({{9, 1, 7}, {0, 1}, {s2, s3}}, Norm::Ortho, Direction::Inverse, 1);
}

// The real DFT in halfcomplex order beside the cosine kinds (the Poisson solver's periodic axes
// with Neumann or Dirichlet ones): the matrix route, the row-column one, odd and even lengths.
TEST_P(Nd, RealDftWithOtherKinds) {
  const AxisTransform r2{Kind::RDFT, 2}, r3{Kind::RDFT, 3}, c2{Kind::DCT, 2}, s1{Kind::DST, 1};
  for (const Shape& s : {Shape{8, 8}, Shape{16, 12}, Shape{64, 48}, Shape{33, 20}})
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      check_case<double>({s, {}, {r2, r2}}, Norm::Backward, dir, 1);
      check_case<double>({s, {}, {r2, c2}}, Norm::Ortho, dir, 2);
      check_case<float>({s, {}, {s1, r3}}, Norm::Forward, dir, 1);
      check_case<float>({s, {}, {r3, r3}}, Norm::Ortho, dir, 2);
    }
  check_case<double>({{6, 10, 12}, {}, {r2, c2, r2}}, Norm::Backward, Direction::Forward, 2);
  check_case<float>({{9, 5, 7}, {}, {r2, r2, r2}}, Norm::Backward, Direction::Inverse, 1);
  check_case<float>({{9, 1, 7}, {0, 1}, {r3, r2}}, Norm::Ortho, Direction::Inverse, 1);
}

template <class T>
std::vector<T> contiguous_result(const Shape& s, const std::vector<int>& axes,
                                 const std::vector<T>& x) {
  std::vector<T> y(x.size());
  dctn<T>(ConstView<T>(x.data(), s), View<T>(y.data(), s), 2, axes, Norm::Ortho);
  return y;
}

TEST_P(Views, StridedNegativeFortranAndInPlace) {
  const Shape s = {13, 10};
  const auto x = oracle::random_vector<double>(130, 5);
  const auto ref = contiguous_result<double>(s, {}, x);
  // Input embedded with stride 3 in a bigger buffer, output with negative strides, Fortran order.
  std::vector<double> big(13 * 10 * 3, -7.0);
  for (std::size_t i = 0; i < 13; ++i)
    for (std::size_t j = 0; j < 10; ++j) big[(i * 10 + j) * 3] = x[i * 10 + j];
  std::vector<double> out(130, std::numeric_limits<double>::quiet_NaN());
  ConstView<double> vin(big.data(), s, {30, 3});
  View<double> vneg(out.data() + 129, s, {-10, -1});
  dctn<double>(vin, vneg, 2, {}, Norm::Ortho);
  for (std::size_t k = 0; k < 130; ++k) ASSERT_NEAR(out[129 - k], ref[k], 1e-13);
  std::vector<double> fort(130, std::numeric_limits<double>::quiet_NaN());
  dctn<double>(vin, View<double>(fort.data(), s, {1, 13}), 2, {}, Norm::Ortho);
  for (std::size_t i = 0; i < 13; ++i)
    for (std::size_t j = 0; j < 10; ++j) ASSERT_NEAR(fort[i + 13 * j], ref[i * 10 + j], 1e-13);
  // In place.
  std::vector<double> inplace = x;
  Plan p(PlanDesc{.shape = s, .norm = Norm::Ortho});
  p.execute(View<double>(inplace.data(), s));
  for (std::size_t k = 0; k < 130; ++k) ASSERT_NEAR(inplace[k], ref[k], 1e-13);
  // Partially overlapping input and output (shifted by one element) still give the right answer.
  std::vector<double> shifted(131);
  std::copy(x.begin(), x.end(), shifted.begin() + 1);
  p.execute(ConstView<double>(shifted.data() + 1, s), View<double>(shifted.data(), s));
  for (std::size_t k = 0; k < 130; ++k) ASSERT_NEAR(shifted[k], ref[k], 1e-13);
}

TEST_P(Views, ThreadsAgreeWithOneThread) {
  const Shape s = {64, 33, 5};
  const auto x = oracle::random_vector<float>(total(s), 3);
  std::vector<float> a(x.size()), b(x.size());
  dctn<float>(ConstView<float>(x.data(), s), View<float>(a.data(), s), 2, {}, Norm::Ortho, 1);
  dctn<float>(ConstView<float>(x.data(), s), View<float>(b.data(), s), 2, {}, Norm::Ortho, 3);
  EXPECT_EQ(a, b);
}

TEST_P(Views, OneShotFunctionsMatchPlans) {
  const Shape s = {6, 20};
  const auto x = oracle::random_vector<double>(120, 9);
  std::vector<double> y(120), z(120);
  dst<double>(ConstView<double>(x.data(), s), View<double>(y.data(), s), 3, 0, Norm::Forward);
  Plan p(PlanDesc{.shape = s, .axes = {0}, .kind = Kind::DST, .type = 3, .norm = Norm::Forward});
  p.execute(ConstView<double>(x.data(), s), View<double>(z.data(), s));
  EXPECT_EQ(y, z);
  idstn<double>(ConstView<double>(y.data(), s), View<double>(z.data(), s), 3, {0}, Norm::Forward);
  for (std::size_t i = 0; i < 120; ++i) ASSERT_NEAR(z[i], x[i], 1e-13);
}

}  // namespace
}  // namespace dctx

namespace dctx {
namespace {

// The fused 2D path (one 2D real FFT) equals the oracle and the row-column path.
TEST_P(Fused2D, MatchesOracleAndRowColumn) {
  const Shape shapes[] = {{2, 2}, {8, 8}, {5, 7}, {16, 12}, {31, 64}, {64, 31}, {97, 50}, {64, 48}};
  for (const auto& s : shapes)
    for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
      for (Direction dir : {Direction::Forward, Direction::Inverse})
        for (int type : {2, 3}) {
          const std::size_t n = s[0] * s[1];
          const auto x = oracle::random_vector<double>(n, static_cast<unsigned>(n + type));
          PlanDesc d{.shape = s,
                     .type = type,
                     .norm = norm,
                     .direction = dir,
                     .cpu = {.algorithm = Algorithm2D::Fused}};
          Plan fused(d);
          ASSERT_NE(fused.describe().find("fused"), std::string::npos) << fused.describe();
          d.cpu.algorithm = Algorithm2D::RowColumn;
          Plan rc(d);
          std::vector<double> a(n, std::nan("")), b(n, std::nan(""));
          fused.execute(ConstView<double>(x.data(), s), View<double>(a.data(), s));
          rc.execute(ConstView<double>(x.data(), s), View<double>(b.data(), s));
          const auto want =
              oracle::reference_nd(s, {0, 1}, {{Kind::DCT, type}, {Kind::DCT, type}}, norm,
                                   norm == Norm::Ortho, dir, std::vector<LD>(x.begin(), x.end()));
          EXPECT_LE(oracle::rel_l2(a, want), oracle::tolerance<double>(std::max(s[0], s[1])))
              << s[0] << "x" << s[1] << " type " << type << " " << to_string(norm) << " "
              << to_string(dir);
          EXPECT_LE(oracle::rel_l2(b, want), oracle::tolerance<double>(std::max(s[0], s[1])));
          // float32, in place.
          std::vector<float> xf(x.begin(), x.end());
          PlanDesc df = d;
          df.precision = Precision::F32;
          df.cpu.algorithm = Algorithm2D::Fused;
          Plan ff(df);
          ff.execute(View<float>(xf.data(), s));
          EXPECT_LE(oracle::rel_l2(xf, want), oracle::tolerance<float>(std::max(s[0], s[1])));
        }
}

TEST_P(Fused2D, StridedViewsAndThreads) {
  const Shape s = {24, 18};
  const auto x = oracle::random_vector<double>(24 * 18, 4);
  PlanDesc d{
      .shape = s, .norm = Norm::Ortho, .cpu = {.threads = 3, .algorithm = Algorithm2D::Fused}};
  Plan fused(d);
  std::vector<double> ref(x.size());
  dctn<double>(ConstView<double>(x.data(), s), View<double>(ref.data(), s), 2, {}, Norm::Ortho);
  std::vector<double> out(x.size(), std::nan(""));
  fused.execute(ConstView<double>(x.data(), s),
                View<double>(out.data() + out.size() - 1, s, {-18, -1}));
  for (std::size_t k = 0; k < out.size(); ++k) ASSERT_NEAR(out[out.size() - 1 - k], ref[k], 1e-13);
}

}  // namespace
}  // namespace dctx

namespace dctx {
namespace {

// The pointer + strides form of execute equals the view form, checks its arguments, and handles
// partial overlap the same way.
TEST_P(Views, RawStridesExecuteMatchesViews) {
  const Shape s = {9, 14};
  const auto x = oracle::random_vector<float>(126, 11);
  Plan p(PlanDesc{
      .shape = s, .kind = Kind::DST, .type = 4, .precision = Precision::F32, .norm = Norm::Ortho});
  std::vector<float> a(126, std::nanf("")), b(126, std::nanf(""));
  p.execute(ConstView<float>(x.data(), s), View<float>(a.data(), s));
  const std::ptrdiff_t c_order[2] = {14, 1}, fortran[2] = {1, 9};
  p.execute(x.data(), c_order, b.data(), c_order);
  EXPECT_EQ(a, b);
  std::vector<float> f(126, std::nanf(""));
  p.execute(x.data(), c_order, f.data(), fortran);
  for (std::size_t i = 0; i < 9; ++i)
    for (std::size_t j = 0; j < 14; ++j) ASSERT_EQ(f[i + 9 * j], a[i * 14 + j]);
  // Partial overlap: the output starts one element into the input.
  std::vector<float> buf(127, std::nanf(""));
  std::copy(x.begin(), x.end(), buf.begin());
  p.execute(buf.data(), c_order, buf.data() + 1, c_order);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), buf.begin() + 1));
  testing_support::expect_error([&] { p.execute(x.data(), nullptr, b.data(), c_order); }, "null");
  const std::ptrdiff_t zero[2] = {0, 1};
  testing_support::expect_error([&] { p.execute(x.data(), c_order, b.data(), zero); }, "overlap");
  std::vector<double> d(126);
  testing_support::expect_error([&] { p.execute(d.data(), c_order, d.data(), c_order); },
                                "float32");
}

}  // namespace
}  // namespace dctx

namespace dctx {
namespace {
DCTX_INSTANTIATE_TRANSFORM_TARGETS(Fused2D);
DCTX_INSTANTIATE_TRANSFORM_TARGETS(Nd);
DCTX_INSTANTIATE_TRANSFORM_TARGETS(Views);
}  // namespace
}  // namespace dctx
