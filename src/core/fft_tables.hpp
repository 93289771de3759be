// SPDX-License-Identifier: BSD-3-Clause
// Plan-time mathematics of the FFTs behind every transform, shared by all back ends: the
// factorisation of a length into radices, the Bluestein decision, and the twiddle tables of a
// self-sorting (Stockham) mixed-radix decimation-in-frequency FFT, of Bluestein's chirp-z
// convolution (L. Bluestein, "A linear filtering approach to the computation of the discrete
// Fourier transform", 1970), of the real-signal split, and of Bailey's six-step FFT
// (D. H. Bailey, "FFTs in external or hierarchical memory", 1990). Entries are computed in long
// double (roots.hpp) and stored as double; a back end converts them to its precision.
#pragma once

#include <complex>
#include <cstddef>
#include <vector>

namespace dctx::detail {

using Complex = std::complex<double>;

/// Largest odd radix run by a direct pass; a length with a larger prime factor uses Bluestein.
inline constexpr std::size_t kMaxGenericRadix = 64;

/// The radices of n in the order the stages run: 8s, 4s, at most one 2, then odd primes upwards.
std::vector<std::size_t> fft_radices(std::size_t n);
/// Which radices the CPU's Stockham stages (cpu/stockham-inl.h) use; cpu/real_fft-inl.h picks one
/// per SIMD target for the half-length FFT of a real FFT, whose split fuses with a last stage
/// of radix 2.
enum class StageRadices : unsigned char {
  Eights,  ///< fft_radices(n)
  /// For n = 2^e with e = 3k + 2 >= 5: 16, k - 1 eights and the fused 2 (k + 1 passes) instead
  /// of k eights, a 4 and a split of its own (k + 2); fft_radices(n) otherwise. For targets
  /// where a radix-16 pass pays (32 vector registers).
  SixteenFusedSplit,
  /// 4s, at most one 2, then odd primes upwards: no radix-8 butterfly, whose eight complex
  /// vectors and temporaries spill on 16 vector registers (AVX2).
  Fours,
  /// Fours, but n = 4^k >= 16 ends in 2·2 (4^(k-1)·2·2): one pass more, whose last 2 fuses with
  /// a real FFT's split, so that a DCT-II reading its lines straight from the array also runs
  /// its gather fused into the first pass (cpu/real_fft-inl.h, forward_packed_from).
  FoursFusedSplit,
};
/// The radices of the CPU's Stockham stages for a complex FFT of n points, in the order
/// LargeFirst.
std::vector<std::size_t> stockham_radices(std::size_t n, StageRadices r = StageRadices::Eights);
/// The largest radix a direct factorisation of n needs (1 for n <= 1).
std::size_t fft_largest_radix(std::size_t n);
/// Whether an FFT of length n runs Bluestein's convolution rather than direct passes: always
/// when a prime factor exceeds kMaxGenericRadix, otherwise when its estimated cost
/// (three FFTs of the padded length) is below that of the generic odd-radix passes.
bool fft_uses_bluestein(std::size_t n);
/// The length of Bluestein's padded FFT for a convolution of at least `minimum` points: the
/// 7-smooth length >= minimum with the least estimated cost, length times its passes weighted
/// by radix (a pass of radix 2, 4 or 8 weighs 1, of 3, 5, 7 more), so that a power of two with
/// fewer, cheaper passes beats a slightly shorter length of radix-5 passes (2048 = 8 8 8 4
/// against 2000 = 8 2 5 5 5 for a prime of 997).
std::size_t bluestein_fft_size(std::size_t minimum);

/// One Stockham stage of radix p on a sequence of n = p * m * L points.
struct FftStage {
  std::size_t radix = 0, m = 0, L = 0;
  std::vector<Complex> twiddles;  ///< [n1 (p-1) + k-1] = exp(-2 pi i n1 k / (p m)), n1 < m
  std::vector<Complex> roots;     ///< odd p: exp(-2 pi i j / p), j < p; empty otherwise
};

/// A complex FFT of length n: its stages, or Bluestein's chirp and convolution length.
struct ComplexFftTables {
  std::size_t n = 0;
  std::vector<FftStage> stages;      ///< empty for n <= 1 and for Bluestein
  std::size_t bluestein_length = 0;  ///< 0: direct passes; else the convolution length >= 2n-1
  std::vector<Complex> chirp;        ///< Bluestein: exp(+i pi j^2 / n), j < n
};
/// The order of a complex FFT's stages: stockham_radices(n) as it is (the large radices first), or
/// reversed (the small ones first, so that a real FFT's inverse can fuse its split into a short
/// first pass; cpu/real_fft-inl.h).
enum class RadixOrder { LargeFirst, SmallFirst };
ComplexFftTables complex_fft_tables(std::size_t n, RadixOrder order = RadixOrder::LargeFirst,
                                    StageRadices radices = StageRadices::Eights);

/// The split of a real FFT of even length n into one complex FFT of n/2 points:
/// exp(-2 pi i k / n), k = 0 .. n/2. In precision T (float or double): each entry formed in
/// RootArith<T> and rounded once to T, with no double table in between.
template <class T = double>
std::vector<std::complex<T>> real_fft_split_twiddles(std::size_t n);

/// Bailey's six-step twiddles for n = m1 * m2: [k1 m2 + j2] = exp(-2 pi i j2 k1 / n), in
/// precision T as above.
template <class T = double>
std::vector<std::complex<T>> six_step_twiddles(std::size_t m1, std::size_t m2);

}  // namespace dctx::detail
