// SPDX-License-Identifier: BSD-3-Clause
// IEEE Std 1180-1990, "Standard specifications for the implementations of 8x8 inverse discrete
// cosine transform", applied to the float (Fast, Reference) and int16 (Int16) inverse kernels.
//
// Procedure (section 3 of the standard): 10,000 blocks of random integers in [-L, H] from the
// standard's generator, for (L, H) = (256, 255), (5, 5), (300, 300), and again with every sign
// flipped. For each block, the reference forward DCT in double precision, rounded to integers and
// clipped to [-2048, 2047], feeds both the reference inverse DCT (double, rounded, clipped to
// [-256, 255]) and the IDCT under test (its integer output clipped to [-256, 255]). Limits: peak
// error <= 1 at every position, per-position mean square error <= 0.06, overall mean square
// error <= 0.02, per-position |mean error| <= 0.015, overall |mean error| <= 0.0015; and an
// all-zero input block must give an all-zero output.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cpu/block8/targets.hpp"
#include "dctx/block8.hpp"

namespace dctx {
namespace {

constexpr int kBlocks = 10000;

/// The standard's pseudo-random generator: randx = randx * 1103515245 + 12345;
/// i = randx & 0x7ffffffe; x = i / (double)0x7fffffff * (L + H + 1); return (long)x - L.
/// (Computed in 32-bit unsigned arithmetic: the low 31 bits are the same as with the standard's
/// `long`, whatever its width.)
class IeeeRandom {
 public:
  long next(long L, long H) {
    randx_ = randx_ * 1103515245u + 12345u;
    const double i = static_cast<double>(randx_ & 0x7ffffffeu);
    const double x = i / static_cast<double>(0x7fffffff) * static_cast<double>(L + H + 1);
    return static_cast<long>(x) - L;
  }

 private:
  std::uint32_t randx_ = 1;
};

double round_half_away(double x) { return x < 0 ? -std::floor(-x + 0.5) : std::floor(x + 0.5); }

// Double-precision reference DCT pair of the standard (its eqs. 1 and 2).
struct Ref {
  double a[8][8];
  Ref() {
    const double pi = std::acos(-1.0);
    for (int u = 0; u < 8; ++u)
      for (int x = 0; x < 8; ++x)
        a[u][x] = (u == 0 ? std::sqrt(0.125) : 0.5) * std::cos((2 * x + 1) * u * pi / 16);
  }
  void forward(const double* f, double* c) const {
    for (int u = 0; u < 8; ++u)
      for (int v = 0; v < 8; ++v) {
        double s = 0;
        for (int x = 0; x < 8; ++x)
          for (int y = 0; y < 8; ++y) s += a[u][x] * a[v][y] * f[8 * x + y];
        c[8 * u + v] = s;
      }
  }
  void inverse(const double* c, double* f) const {
    for (int x = 0; x < 8; ++x)
      for (int y = 0; y < 8; ++y) {
        double s = 0;
        for (int u = 0; u < 8; ++u)
          for (int v = 0; v < 8; ++v) s += a[u][x] * a[v][y] * c[8 * u + v];
        f[8 * x + y] = s;
      }
  }
};

/// One of the six runs: the coefficient blocks and the reference reconstructions.
struct Run {
  long L, H;
  int sign;
  std::vector<std::int16_t> coef;   // kBlocks blocks side by side: an 8 x (8 kBlocks) plane
  std::vector<std::int16_t> recon;  // reference IDCT output, same layout
};

const std::vector<Run>& runs() {
  static const std::vector<Run> all = [] {
    const Ref ref;
    std::vector<Run> out;
    for (auto [L, H] : {std::array<long, 2>{256, 255}, {5, 5}, {300, 300}})
      for (int sign : {1, -1}) {
        Run r{L, H, sign, std::vector<std::int16_t>(64 * kBlocks),
              std::vector<std::int16_t>(64 * kBlocks)};
        IeeeRandom rng;  // seeded with 1 for each run
        const std::size_t cols = 8 * kBlocks;
        for (int b = 0; b < kBlocks; ++b) {
          double f[64], c[64], g[64];
          for (int k = 0; k < 64; ++k) f[k] = double(sign * rng.next(L, H));
          ref.forward(f, c);
          for (int k = 0; k < 64; ++k) c[k] = std::clamp(round_half_away(c[k]), -2048.0, 2047.0);
          ref.inverse(c, g);
          for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j) {
              const std::size_t at = std::size_t(i) * cols + std::size_t(8 * b + j);
              r.coef[at] = static_cast<std::int16_t>(c[8 * i + j]);
              r.recon[at] = static_cast<std::int16_t>(
                  std::clamp(round_half_away(g[8 * i + j]), -256.0, 255.0));
            }
        }
        out.push_back(std::move(r));
      }
    return out;
  }();
  return all;
}

/// The IDCT under test: coefficients (8 x 8 kBlocks plane) -> integer samples in [-256, 255].
using Idct = std::vector<std::int16_t> (*)(const std::vector<std::int16_t>&, Block8Kernel);

std::vector<std::int16_t> idct_float(const std::vector<std::int16_t>& coef, Block8Kernel k) {
  const Shape s{8, 8 * std::size_t(kBlocks)};
  std::vector<float> in(coef.begin(), coef.end()), out(coef.size());
  block8_inverse(ConstView<float>(in.data(), s), View<float>(out.data(), s), {k});
  std::vector<std::int16_t> r(coef.size());
  for (std::size_t i = 0; i < r.size(); ++i)
    r[i] = static_cast<std::int16_t>(std::clamp(round_half_away(out[i]), -256.0, 255.0));
  return r;
}
std::vector<std::int16_t> idct_int16(const std::vector<std::int16_t>& coef, Block8Kernel k) {
  const Shape s{8, 8 * std::size_t(kBlocks)};
  std::vector<std::int16_t> out(coef.size());
  block8_inverse(ConstView<std::int16_t>(coef.data(), s), View<std::int16_t>(out.data(), s), {k});
  return out;
}

struct Figures {
  int peak = 0;
  double pmse = 0, omse = 0, pme = 0, ome = 0;
};

Figures measure(const Run& r, const std::vector<std::int16_t>& got) {
  const std::size_t cols = 8 * kBlocks;
  double se[64] = {}, e[64] = {};
  Figures f;
  for (int b = 0; b < kBlocks; ++b)
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        const std::size_t at = std::size_t(i) * cols + std::size_t(8 * b + j);
        const int d = int(got[at]) - int(r.recon[at]);
        f.peak = std::max(f.peak, std::abs(d));
        se[8 * i + j] += d * d;
        e[8 * i + j] += d;
      }
  double tse = 0, te = 0;
  for (int k = 0; k < 64; ++k) {
    f.pmse = std::max(f.pmse, se[k] / kBlocks);
    f.pme = std::max(f.pme, std::fabs(e[k] / kBlocks));
    tse += se[k];
    te += e[k];
  }
  f.omse = tse / (64.0 * kBlocks);
  f.ome = std::fabs(te / (64.0 * kBlocks));
  return f;
}

void check_ieee1180(Idct idct, Block8Kernel k, const std::string& name) {
  Figures worst;
  for (const Run& r : runs()) {
    const Figures f = measure(r, idct(r.coef, k));
    const std::string what = name + " L=" + std::to_string(r.L) + " H=" + std::to_string(r.H) +
                             " sign=" + std::to_string(r.sign);
    EXPECT_LE(f.peak, 1) << what;
    EXPECT_LE(f.pmse, 0.06) << what;
    EXPECT_LE(f.omse, 0.02) << what;
    EXPECT_LE(f.pme, 0.015) << what;
    EXPECT_LE(f.ome, 0.0015) << what;
    worst.peak = std::max(worst.peak, f.peak);
    worst.pmse = std::max(worst.pmse, f.pmse);
    worst.omse = std::max(worst.omse, f.omse);
    worst.pme = std::max(worst.pme, f.pme);
    worst.ome = std::max(worst.ome, f.ome);
  }
  // Zero in, zero out.
  const std::vector<std::int16_t> zeros(64 * kBlocks, 0);
  for (auto v : idct(zeros, k)) ASSERT_EQ(v, 0) << name << ": zero input gave a nonzero sample";
  char buf[200];
  std::snprintf(buf, sizeof buf, "peak %d, pmse %.4f, omse %.4f, pme %.4f, ome %.5f", worst.peak,
                worst.pmse, worst.omse, worst.pme, worst.ome);
  std::printf("[ IEEE1180 ] %s (%s): worst over the 6 runs: %s\n", name.c_str(),
              block8_target().c_str(), buf);
  ::testing::Test::RecordProperty("ieee1180_" + name, buf);
}

TEST(Ieee1180, GeneratorFollowsTheStandard) {
  // First values of the standard's generator with L = H = 5 from seed 1, computed by hand:
  // randx = 1103527590 -> i = 1103527590 -> x = 5.65... -> 5 - 5 = 0, and so on.
  IeeeRandom r;
  EXPECT_EQ(r.next(5, 5), 0);
  long lo = 0, hi = 0;
  for (int k = 0; k < 100000; ++k) {
    const long v = r.next(256, 255);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_EQ(lo, -256);
  EXPECT_EQ(hi, 255);
}

TEST(Ieee1180, ReferenceKernelFloat) {
  check_ieee1180(idct_float, Block8Kernel::Reference, "reference");
}

class Ieee1180Targets : public test8::PerTarget {};
DCTX_INSTANTIATE_PER_TARGET(Ieee1180Targets);

TEST_P(Ieee1180Targets, FastFloatInverse) {
  check_ieee1180(idct_float, Block8Kernel::Fast, "fast-float");
}
TEST_P(Ieee1180Targets, Int16FixedPointInverse) {
  check_ieee1180(idct_int16, Block8Kernel::Int16, "int16");
}

}  // namespace
}  // namespace dctx
