// SPDX-License-Identifier: BSD-3-Clause
// Constants of the 8-point DCT factorizations used by the 8x8 block engine. Plain C++ (no
// Highway), shared by the SIMD kernels, the scalar fallback and the tests.
#pragma once

#include <cstdint>

namespace dctx::block8 {

// cos(k pi / 16), k = 1..7, and sqrt(2).
inline constexpr double kCos1 = 0.98078528040323044913;  // cos(pi/16)
inline constexpr double kCos2 = 0.92387953251128675613;  // cos(2pi/16)
inline constexpr double kCos3 = 0.83146961230254523708;  // cos(3pi/16)
inline constexpr double kCos4 = 0.70710678118654752440;  // cos(4pi/16) = 1/sqrt2
inline constexpr double kCos5 = 0.55557023301960222474;  // cos(5pi/16)
inline constexpr double kCos6 = 0.38268343236508977173;  // cos(6pi/16)
inline constexpr double kCos7 = 0.19509032201612826785;  // cos(7pi/16)
inline constexpr double kSqrt2 = 1.41421356237309504880;

// ---- Arai, Agui, Nakajima (1988): "A fast DCT-SQ scheme for images", Trans. IEICE E71(11).
// The 1D forward flowgraph (5 multiplications, 29 additions) yields y_k = sqrt8 * s_k * X_k,
// X_k the orthonormal DCT-II, s_0 = 1, s_k = sqrt2 cos(k pi/16); the 2D outputs are scaled to the
// orthonormal ones by 1 / (8 s_u s_v). The inverse flowgraph takes X_uv * s_u s_v / 8.
inline constexpr float kAanC4 = float(kCos4);               // cos(pi/4)
inline constexpr float kAanC6 = float(kCos6);               // cos(3pi/8)
inline constexpr float kAanK1 = float(kSqrt2 * kCos6);      // sqrt2 cos(3pi/8)  = 0.541196100
inline constexpr float kAanK2 = float(kSqrt2 * kCos2);      // sqrt2 cos(pi/8)   = 1.306562965
inline constexpr float kAanR2 = float(kSqrt2);              // sqrt2
inline constexpr float kAanA1 = float(2 * kCos2);           // 2 cos(pi/8)        = 1.847759065
inline constexpr float kAanA2 = float(2 * kSqrt2 * kCos6);  // 2 sqrt2 cos(3pi/8) = 1.082392200
inline constexpr float kAanA3 = float(2 * kSqrt2 * kCos2);  // 2 sqrt2 cos(pi/8)  = 2.613125930
inline constexpr double kAanScale[8] = {1.0,           kSqrt2* kCos1, kSqrt2* kCos2, kSqrt2* kCos3,
                                        kSqrt2* kCos4, kSqrt2* kCos5, kSqrt2* kCos6, kSqrt2* kCos7};

// The largest float below 1/2 (0.5 - 2^-25): trunc(t + copysign(kJustBelowHalf, t)) rounds every
// float t half away from zero (docs/block8.md).
inline constexpr float kJustBelowHalf = 0.5f - 0x1p-25f;
static_assert(kJustBelowHalf < 0.5f && kJustBelowHalf + 0x1p-25f == 0.5f);

// ---- Loeffler, Ligtenberg, Moschytz (1989): "Practical fast 1-D DCT algorithms with 11
// multiplications", ICASSP. Fixed-point form as in libjpeg's "islow" (12 multiplications, the
// odd part's rotations shared through z5): constants are round(x * 2^bits). Each 1D pass yields
// sqrt8 times the orthonormal transform.
constexpr std::int32_t Fix(double x, int bits) {
  return static_cast<std::int32_t>(x * double(std::int64_t{1} << bits) + 0.5);
}
struct LlmConstants {
  std::int32_t k0541, k0765, k1847;  // even part: sqrt2 c6, sqrt2 (c2 - c6), sqrt2 (c2 + c6)
  std::int32_t k1175;                // odd part: sqrt2 c3 (z5)
  std::int32_t k0298, k2053, k3072,
      k1501;  // sqrt2 (-c1+c3+c5-c7), (c1+c3-c5+c7), (c1+c3+c5-c7), (c1+c3-c5-c7)
  std::int32_t k0899, k2562, k1961,
      k0390;  // sqrt2 (c3-c7), (c1+c3), (c3+c5), (c3-c5) (all negated in use)
};
constexpr LlmConstants MakeLlm(int bits) {
  return {Fix(kSqrt2 * kCos6, bits),
          Fix(kSqrt2 * (kCos2 - kCos6), bits),
          Fix(kSqrt2 * (kCos2 + kCos6), bits),
          Fix(kSqrt2 * kCos3, bits),
          Fix(kSqrt2 * (-kCos1 + kCos3 + kCos5 - kCos7), bits),
          Fix(kSqrt2 * (kCos1 + kCos3 - kCos5 + kCos7), bits),
          Fix(kSqrt2 * (kCos1 + kCos3 + kCos5 - kCos7), bits),
          Fix(kSqrt2 * (kCos1 + kCos3 - kCos5 - kCos7), bits),
          Fix(kSqrt2 * (kCos3 - kCos7), bits),
          Fix(kSqrt2 * (kCos1 + kCos3), bits),
          Fix(kSqrt2 * (kCos3 + kCos5), bits),
          Fix(kSqrt2 * (kCos3 - kCos5), bits)};
}
// Bit budget (see docs/block8.md): pass 1 uses 13-bit constants and keeps kPass1Bits fraction
// bits; pass 2 uses 12-bit constants so that the worst-case intermediate stays below 2^31 for
// forward inputs within kFwdInMax and inverse inputs within kInvInMax (checked by a test).
inline constexpr int kConstBits1 = 13;
inline constexpr int kConstBits2 = 12;
inline constexpr int kPass1Bits = 2;
inline constexpr LlmConstants kLlm1 = MakeLlm(kConstBits1);  // 4433 6270 15137 9633 2446 16819 ...
inline constexpr LlmConstants kLlm2 = MakeLlm(kConstBits2);  // 2217 3135 7568 4816 1223 8410 ...
inline constexpr std::int32_t kFwdInMin = -1024, kFwdInMax = 1023;  // 11-bit samples
inline constexpr std::int32_t kInvInMin = -2048, kInvInMax = 2047;  // 12-bit coefficients
inline constexpr std::int32_t kInvOutMin = -256, kInvOutMax = 255;  // 9-bit samples

static_assert(kLlm1.k0541 == 4433 && kLlm1.k3072 == 25172 && kLlm1.k0390 == 3196);

}  // namespace dctx::block8
