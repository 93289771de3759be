// SPDX-License-Identifier: BSD-3-Clause
// The one overlap analysis: spans, self-overlapping outputs, and in/out relations from addresses.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/overlap.hpp"

namespace dctx::detail {
namespace {

TEST(Overlap, SpansWithNegativeStrides) {
  const std::size_t shape[2] = {3, 4};
  const std::ptrdiff_t c[2] = {4, 1}, neg[2] = {-4, 1}, f[2] = {1, -3};
  EXPECT_EQ(element_span(2, shape, c), (std::pair<std::ptrdiff_t, std::ptrdiff_t>{0, 11}));
  EXPECT_EQ(element_span(2, shape, neg), (std::pair<std::ptrdiff_t, std::ptrdiff_t>{-8, 3}));
  EXPECT_EQ(element_span(2, shape, f), (std::pair<std::ptrdiff_t, std::ptrdiff_t>{-9, 2}));
}

TEST(Overlap, SelfOverlappingOutputs) {
  const std::size_t shape[2] = {3, 4};
  const std::ptrdiff_t ok[2] = {4, 1}, fortran[2] = {1, 3}, zero[2] = {0, 1}, tight[2] = {3, 1};
  EXPECT_TRUE(non_self_overlapping(2, shape, ok));
  EXPECT_TRUE(non_self_overlapping(2, shape, fortran));
  EXPECT_FALSE(non_self_overlapping(2, shape, zero));
  EXPECT_FALSE(non_self_overlapping(2, shape, tight));
  const std::size_t ones[2] = {1, 4};
  EXPECT_TRUE(non_self_overlapping(2, ones, zero));  // a zero stride on an axis of length 1
}

TEST(Overlap, InputAgainstOutput) {
  const std::size_t shape[2] = {3, 4};
  const std::ptrdiff_t c[2] = {4, 1}, f[2] = {1, 3};
  const std::uintptr_t base = 4096;
  const auto place = [&](std::uintptr_t at, const std::ptrdiff_t* st, std::size_t bytes = 8) {
    return ArrayPlace{at, bytes, 2, shape, st};
  };
  EXPECT_EQ(classify_overlap(place(base, c), place(base, c)), Overlap::Same);
  EXPECT_EQ(classify_overlap(place(base, c), place(base, f)), Overlap::Partial);
  EXPECT_EQ(classify_overlap(place(base, c), place(base + 8, c)), Overlap::Partial);
  EXPECT_EQ(classify_overlap(place(base, c), place(base + 96, c)), Overlap::Disjoint);
  EXPECT_EQ(classify_overlap(place(base + 96, c), place(base, c)), Overlap::Disjoint);
  EXPECT_EQ(classify_overlap(place(base, c), place(base + 88, c)), Overlap::Partial);
  // Same start but another element size (float in, int16 out) is not in place.
  EXPECT_EQ(classify_overlap(place(base, c, 4), place(base, c, 2)), Overlap::Partial);
}

}  // namespace
}  // namespace dctx::detail
