// SPDX-License-Identifier: BSD-3-Clause
// The view forms of Plan::execute: a mutable input view (View, View) and the in-place View run
// as the ConstView form does, bit for bit, and are checked as it is.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "dctx/dctx.hpp"
#include "expect_error.hpp"

namespace dctx {
namespace {

template <class T>
void check_view_forms(const Shape& shape, Precision precision) {
  PlanDesc d;
  d.shape = shape;
  d.precision = precision;
  d.norm = Norm::Ortho;
  const Plan p(d);
  std::size_t n = 1;
  for (auto e : shape) n *= e;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<T> x(n), x_before, reference(n, T(NAN)), out(n, T(NAN));
  for (T& v : x) v = static_cast<T>(dist(gen));
  x_before = x;
  p.execute(ConstView<T>(x.data(), shape), View<T>(reference.data(), shape));
  for (T v : reference) ASSERT_FALSE(std::isnan(v));  // every output written

  const View<T> in(x.data(), shape), result(out.data(), shape);
  p.execute(in, result);  // mutable input view, out of place
  EXPECT_EQ(out, reference);
  EXPECT_EQ(x, x_before);  // the input is only read

  std::vector<T> inplace = x;
  p.execute(View<T>(inplace.data(), shape));
  EXPECT_EQ(inplace, reference);

  // Reversed strides on the mutable input: the same values, read backwards along axis 0.
  std::vector<T> flipped(n);
  const std::size_t rows = shape[0], cols = n / rows;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) flipped[(rows - 1 - i) * cols + j] = x[i * cols + j];
  Strides back(shape.size(), 1);
  for (std::size_t a = shape.size() - 1; a-- > 0;)
    back[a] = back[a + 1] * static_cast<std::ptrdiff_t>(shape[a + 1]);
  back[0] = -back[0];
  std::fill(out.begin(), out.end(), T(NAN));
  p.execute(View<T>(flipped.data() + (rows - 1) * cols, shape, back), result);
  EXPECT_EQ(out, reference);
}

TEST(Views, MutableInputAndInPlaceMatchTheConstForm) {
  for (const Shape& s :
       {Shape{8, 8}, Shape{16, 16}, Shape{12, 20}, Shape{64, 48}, Shape{5, 6, 7}}) {
    check_view_forms<float>(s, Precision::F32);
    check_view_forms<double>(s, Precision::F64);
  }
}

TEST(Views, MutableInputViewsAreChecked) {
  const Plan p(PlanDesc{.shape = {4, 5}, .precision = Precision::F32});
  std::vector<float> a(20, 1.0f), b(20);
  testing_support::expect_error(
      [&] {
        p.execute(View<float>(a.data(), {5, 4}), View<float>(b.data(), {4, 5}));
      },
      "input shape (5, 4)");
  testing_support::expect_error(
      [&] {
        p.execute(View<float>(a.data(), {4, 5}), View<float>(b.data(), {4, 5}, {0, 1}));
      },
      "overlap");
  testing_support::expect_error(
      [&] {
        p.execute(View<float>(b.data(), {4, 6}));
      },
      "input shape (4, 6)");
  std::vector<double> c(20);
  testing_support::expect_error([&] { p.execute(View<double>(c.data(), {4, 5})); }, "float32");
}

}  // namespace
}  // namespace dctx
