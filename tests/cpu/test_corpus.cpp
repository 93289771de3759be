// SPDX-License-Identifier: BSD-3-Clause
// A verification corpus in the manner of BRiDCT's (Moevus and Mignotte, "BRiDCT: Fast
// Two-Dimensional DCTs Using SIMD", Section 6: cancellation, neighbouring floats, dynamic range,
// extreme amplitudes), larger: eight input families, every kind and type, both directions, both
// precisions, lengths 1..4096 and 2D squares 8..1024, on every SIMD target. Each result is
// checked against the long-double oracle twice: the relative L2 error (the suite's bound), and
// every component on its own (kComponentC below), so that a lost weak component cannot hide
// behind a good global norm, as the paper warns. Subnormal inputs also get an absolute allowance
// of a few subnormal units per operation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>

#include "cpu/targets.hpp"
#include "dctx/dctx.hpp"
#include "oracle/oracle.hpp"

namespace dctx {
namespace {

using oracle::LD;

/// Componentwise bound: |y_k - ref_k| <= kComponentC * eps * log2(N) * (rms(ref) + |ref_k|) for
/// every k (rms: the L2 norm over sqrt(N), the size of a typical component): relative accuracy for
/// the large components, the typical error level for the small ones. The worst component of the
/// corpus needs a constant between 2 and 3 on the targets of this machine (AVX2, SSE4, scalar).
constexpr double kComponentC = 4.0;

enum class Family { Impulse, Constant, Alternating, Cancellation, Neighbours, Range, Random, Tiny };
const char* name(Family f) {
  static const char* names[] = {"impulse",    "constant", "alternating", "cancellation",
                                "neighbours", "range",    "random",      "subnormal"};
  return names[static_cast<int>(f)];
}
constexpr Family kFamilies[] = {Family::Impulse,      Family::Constant,   Family::Alternating,
                                Family::Cancellation, Family::Neighbours, Family::Range,
                                Family::Random,       Family::Tiny};

template <class T>
std::vector<T> make_input(Family f, std::size_t n, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> x(n);
  for (std::size_t j = 0; j < n; ++j) {
    switch (f) {
      case Family::Impulse: x[j] = j == (seed % n) ? T(1) : T(0); break;
      case Family::Constant: x[j] = T(-3.5); break;
      case Family::Alternating: x[j] = j % 2 ? T(-1) : T(1); break;
      case Family::Cancellation: x[j] = T(1e4) + static_cast<T>(u(g) * 1e-2); break;
      case Family::Neighbours: {  // 1, 1 + ulp, 1 + 2 ulp, ...: weak non-DC components
        T v = T(1);
        for (std::size_t s = 0; s < j % 64; ++s) v = std::nextafter(v, T(2));
        x[j] = v;
        break;
      }
      case Family::Range:  // +-2^e, e in [-100, 90]
        x[j] = std::ldexp(T(u(g) < 0 ? -1 : 1), static_cast<int>(g() % 191) - 100);
        break;
      case Family::Random: x[j] = static_cast<T>(u(g)); break;
      case Family::Tiny:  // subnormals
        x[j] = std::numeric_limits<T>::denorm_min() * static_cast<T>(g() % (1u << 20)) *
               (u(g) < 0 ? T(-1) : T(1));
        break;
    }
  }
  return x;
}

struct Case {
  Kind kind;
  int type;
  Direction dir;
  std::size_t n;
  Family family;
};

template <class T>
void check_1d(const Case& c) {
  const std::size_t n = c.n;
  const auto x = make_input<T>(c.family, n, static_cast<unsigned>(n * 7 + c.type));
  PlanDesc d;
  d.shape = {n};
  d.transforms = {{c.kind, c.type}};
  d.norm = Norm::Ortho;
  d.direction = c.dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  const Plan p(d);
  std::vector<T> y(n, std::numeric_limits<T>::quiet_NaN());
  p.execute(ConstView<T>(x.data(), {n}), View<T>(y.data(), {n}));
  // References depend on neither the target nor the run: computed once per case.
  static std::map<std::tuple<int, int, int, std::size_t, int, int>, std::vector<LD>> refs;
  const auto key =
      std::make_tuple(int(c.kind), c.type, int(c.dir), n, int(c.family), int(sizeof(T)));
  auto it = refs.find(key);
  if (it == refs.end())
    it = refs.emplace(key, oracle::reference(c.kind, c.type, Norm::Ortho, true, c.dir,
                                             std::vector<LD>(x.begin(), x.end())))
             .first;
  const std::vector<LD>& want = it->second;
  const std::string what =
      std::string(c.kind == Kind::DCT ? "DCT-" : "DST-") + std::to_string(c.type) +
      (c.dir == Direction::Inverse ? " inverse" : "") + " n=" + std::to_string(n) + " " +
      name(c.family) + " " + (sizeof(T) == 4 ? "float32" : "float64");
  LD ss = 0;
  for (LD v : want) ss += v * v;
  const LD rms = std::sqrt(ss / static_cast<LD>(n));
  const double eps = std::numeric_limits<T>::epsilon();
  const double log2n = std::log2(static_cast<double>(std::max<std::size_t>(n, 2)));
  // Subnormal arithmetic is absolute: each operation may be off by half a subnormal unit.
  const LD absolute = c.family == Family::Tiny ? LD(std::numeric_limits<T>::denorm_min()) * 4 *
                                                     static_cast<LD>(n) * log2n
                                               : LD(0);
  for (std::size_t k = 0; k < n; ++k) {
    const LD bound = LD(kComponentC * eps * log2n) * (rms + std::fabs(want[k])) + absolute;
    ASSERT_TRUE(std::isfinite(y[k])) << what << " k=" << k;
    ASSERT_LE(std::fabs(static_cast<LD>(y[k]) - want[k]), bound)
        << what << " k=" << k << ": " << y[k] << " vs " << static_cast<double>(want[k]) << " (rms "
        << static_cast<double>(rms) << ")";
  }
  if (c.family != Family::Tiny) {
    EXPECT_LE(oracle::rel_l2(y, want), oracle::tolerance<T>(n)) << what;
  }
}

std::vector<std::size_t> corpus_lengths() {
  std::vector<std::size_t> r;
  for (std::size_t n = 1; n <= 33; ++n) r.push_back(n);
  for (std::size_t n :
       {61, 64, 97, 127, 128, 255, 256, 500, 512, 1000, 1024, 2047, 2048, 4093, 4096})
    r.push_back(n);
  return r;
}

class Corpus : public test::PerTarget {};

TEST_P(Corpus, OneDEveryFamilyKindTypeAndLength) {
  for (std::size_t n : corpus_lengths())
    for (Kind kind : {Kind::DCT, Kind::DST})
      for (int type = 1; type <= 4; ++type) {
        if (kind == Kind::DCT && type == 1 && n < 2) continue;
        for (Family f : kFamilies) {
          // The oracle is O(N^2) and each target runs in a process of its own: every family up to
          // 512 points; beyond, the families whose errors grow with N, fewer variants.
          const bool all = n <= 512;
          const bool mid = n <= 1024 && (f == Family::Cancellation || f == Family::Neighbours);
          if (!all && !mid && f != Family::Random && f != Family::Range) continue;
          check_1d<float>({kind, type, Direction::Forward, n, f});
          if (n <= 1024) check_1d<float>({kind, type, Direction::Inverse, n, f});
          if (all || (n <= 1024 && f == Family::Random))
            check_1d<double>({kind, type, Direction::Forward, n, f});
        }
      }
}

// 2D squares: the separable oracle up to 256; beyond, impulses, whose 2D transform is the outer
// product of two columns of the 1D matrix.
template <class T>
void check_2d(std::size_t n, Family f, Direction dir) {
  const Shape shape{n, n};
  const auto x = make_input<T>(f, n * n, static_cast<unsigned>(n + 3));
  PlanDesc d;
  d.shape = shape;
  d.norm = Norm::Ortho;
  d.direction = dir;
  d.precision = std::is_same_v<T, float> ? Precision::F32 : Precision::F64;
  const Plan p(d);
  std::vector<T> y(n * n, std::numeric_limits<T>::quiet_NaN());
  p.execute(ConstView<T>(x.data(), shape), View<T>(y.data(), shape));
  static std::map<std::tuple<std::size_t, int, int, int>, std::vector<LD>> refs;
  const auto key = std::make_tuple(n, int(f), int(dir), int(sizeof(T)));
  std::vector<LD>& want = refs[key];
  if (want.empty()) {  // references depend on neither the target nor the run
    if (f == Family::Impulse) {
      std::size_t at = 0;
      while (x[at] == T(0)) ++at;
      std::vector<LD> e(n, 0.0L);
      e[at / n] = 1.0L;
      const auto c1 = oracle::reference(Kind::DCT, 2, Norm::Ortho, true, dir, e);
      e.assign(n, 0.0L);
      e[at % n] = 1.0L;
      const auto c2 = oracle::reference(Kind::DCT, 2, Norm::Ortho, true, dir, e);
      want.resize(n * n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) want[i * n + j] = c1[i] * c2[j];
    } else {
      want = oracle::reference_nd(shape, {0, 1}, p.desc().transforms, Norm::Ortho, true, dir,
                                  std::vector<LD>(x.begin(), x.end()));
    }
  }
  LD ss = 0;
  for (LD v : want) ss += v * v;
  const LD rms = std::sqrt(ss / static_cast<LD>(n * n));
  const double eps = std::numeric_limits<T>::epsilon();
  const LD c = LD(kComponentC * eps * 2 * std::log2(static_cast<double>(n)));
  const std::string what = "2D " + std::to_string(n) + "x" + std::to_string(n) + " " + name(f) +
                           (dir == Direction::Inverse ? " inverse " : " ") + p.describe();
  for (std::size_t i = 0; i < n * n; ++i)
    ASSERT_LE(std::fabs(static_cast<LD>(y[i]) - want[i]), c * (rms + std::fabs(want[i])))
        << what << " at " << i;
}

TEST_P(Corpus, TwoDSquares) {
  for (std::size_t n : {8, 16, 32, 64, 128, 256})
    for (Family f :
         {Family::Impulse, Family::Cancellation, Family::Neighbours, Family::Range, Family::Random})
      for (Direction dir : {Direction::Forward, Direction::Inverse}) {
        check_2d<float>(n, f, dir);
        if (n <= 64) check_2d<double>(n, f, dir);
      }
  for (std::size_t n : {512, 1024}) {
    check_2d<float>(n, Family::Impulse, Direction::Forward);
    check_2d<double>(n, Family::Impulse, Direction::Inverse);
  }
}

DCTX_INSTANTIATE_TRANSFORM_TARGETS(Corpus);

}  // namespace
}  // namespace dctx
