// SPDX-License-Identifier: BSD-3-Clause
// The 8x8 float32 codelet of a 2D DCT-II or DCT-III on 512-bit vectors: Y = M0 X M1^T with each
// vector holding two 8-float lines (a "pair"), so a block is four vectors. The passes are the
// twice-folded butterflies of square_codelet-inl.h (the first two stages of the 8-point
// factorisations of Loeffler, Ligtenberg and Moschytz, as in the CPU gold code of Obukhov and
// Kharlamov's "Discrete Cosine Transform for 8x8 Blocks with CUDA"), written on pairs; the
// transposes between and after them are two stages of two-input permutes, 8 instructions
// instead of the 24 shuffles of eight 256-bit rows. Which two lines share a vector is chosen
// for each pass (the Layouts below) so that the lines its butterflies add or subtract sit in the
// same half of two vectors; the loads and the transposes' permutes place them at no cost.
// Mixing the two halves of a vector (the products of a butterfly's output pair with both of its
// inputs) takes one half swap per pair of inputs: four a pass, but for the first, which loads
// its inputs with their halves exchanged as well.

#if defined(DCTX_CPU_SQUARE8_PAIRS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_SQUARE8_PAIRS_INL_H_
#undef DCTX_CPU_SQUARE8_PAIRS_INL_H_
#else
#define DCTX_CPU_SQUARE8_PAIRS_INL_H_
#endif

#include <array>
#include <cstddef>
#include <utility>

#include <hwy/highway.h>

#include "cpu/host_plan-inl.h"
#include "cpu/lane_transpose-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// Whether this target runs the 8x8 float32 pair codelet (512-bit vectors).
inline constexpr bool kSquare8Pairs = HWY_TARGET <= HWY_AVX3;

namespace square8 {

typedef float Pair __attribute__((vector_size(64)));
typedef float PairU __attribute__((vector_size(64), aligned(4), may_alias));
typedef float Line __attribute__((vector_size(32)));
typedef float LineU __attribute__((vector_size(32), aligned(4), may_alias));

/// The two lines (0..7) in the low and high half of each of a block's four vectors.
using Layout = std::array<std::array<int, 2>, 4>;
inline constexpr Layout kNatural = {{{0, 1}, {2, 3}, {4, 5}, {6, 7}}};
// Mirrored lines j and 7-j in the same half of two vectors, and the mirrored sums' mirrors
// (s0, s3 and s1, s2) too: vectors 0 + 3 and 1 + 2 (see Axis::Apply<true>).
inline constexpr Layout kInputsTwiceIn = {{{0, 1}, {3, 2}, {4, 5}, {7, 6}}};
inline constexpr Layout kInputsTwiceOut = {{{0, 4}, {2, 6}, {1, 3}, {5, 7}}};
inline constexpr Layout kOutputsTwiceIn = {{{0, 4}, {2, 6}, {1, 3}, {5, 7}}};
inline constexpr Layout kOutputsTwiceOut = {{{0, 1}, {7, 6}, {3, 2}, {4, 5}}};

/// The permutes of a transpose from vectors holding lines `src` (lanes: the other index, in
/// order) to vectors holding the cross lines `dst` (lanes: the line index, in order). Stage 1
/// turns sources 0, 1 (and 2, 3) into vector g (g + 2) that holds the four cross lines of
/// targets 2g and 2g + 1 for the sources' four lines (lane 4 t + s: cross line t, source line
/// s); stage 2 takes each target from vectors g and g + 2.
struct Permutes {
  std::array<std::array<int, 16>, 4> stage1{}, stage2{};
};

constexpr Permutes MakePermutes(const Layout& src, const Layout& dst) {
  Permutes p;
  for (int g = 0; g < 2; ++g)
    for (int from = 0; from < 2; ++from)  // sources 2 from and 2 from + 1
      for (int t = 0; t < 4; ++t)
        for (int s = 0; s < 4; ++s) {
          const int cross = dst[2 * g + t / 2][t % 2];
          p.stage1[g + 2 * from][4 * t + s] = 16 * (s / 2) + 8 * (s % 2) + cross;
        }
  for (int w = 0; w < 4; ++w)
    for (int h = 0; h < 2; ++h)
      for (int k = 0; k < 8; ++k) {
        int v = 0, hv = 0;
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 2; ++j)
            if (src[i][j] == k) v = i, hv = j;
        const int t = 2 * (w % 2) + h, s = 2 * (v % 2) + hv;
        p.stage2[w][8 * h + k] = 16 * (v / 2) + 4 * t + s;
      }
  return p;
}

template <Layout kSrc, Layout kDst>
inline constexpr Permutes kPermutes = MakePermutes(kSrc, kDst);

template <Layout kSrc, Layout kDst, int kStage, int kRow, std::size_t... I>
HWY_INLINE Pair Permute(const Pair& a, const Pair& b, std::index_sequence<I...>) {
  constexpr const auto& table =
      kStage == 1 ? kPermutes<kSrc, kDst>.stage1 : kPermutes<kSrc, kDst>.stage2;
  return __builtin_shufflevector(a, b, table[kRow][I]...);
}

/// v[i] <- the vectors of cross lines kDst of the block held as lines kSrc in v.
template <Layout kSrc, Layout kDst>
HWY_INLINE void Transpose(Pair (&v)[4]) {
  constexpr auto kI = std::make_index_sequence<16>();
  const Pair t0 = Permute<kSrc, kDst, 1, 0>(v[0], v[1], kI);
  const Pair t1 = Permute<kSrc, kDst, 1, 1>(v[0], v[1], kI);
  const Pair t2 = Permute<kSrc, kDst, 1, 2>(v[2], v[3], kI);
  const Pair t3 = Permute<kSrc, kDst, 1, 3>(v[2], v[3], kI);
  v[0] = Permute<kSrc, kDst, 2, 0>(t0, t2, kI);
  v[1] = Permute<kSrc, kDst, 2, 1>(t0, t2, kI);
  v[2] = Permute<kSrc, kDst, 2, 2>(t1, t3, kI);
  v[3] = Permute<kSrc, kDst, 2, 3>(t1, t3, kI);
}

/// The two halves of v exchanged.
HWY_INLINE Pair Swap(const Pair& v) {
  return __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
}

HWY_INLINE Pair Halves(float lo, float hi) {
  Pair v;
  for (int i = 0; i < 8; ++i) v[i] = lo, v[i + 8] = hi;
  return v;
}

/// One axis of the codelet: the twice-folded matrix of square_codelet-inl.h as the 12 vectors of
/// coefficients its butterflies multiply by (each half one output line's entry).
class Axis {
 public:
  Axis() = default;
  /// `inputs`: the InputsTwice fold (DCT-II; else OutputsTwice, DCT-III). even(m, q) and
  /// odd(k, q) are SquareAxis's second-fold entries r2[m][q] and its odd-half entries (row k,
  /// input pair q for InputsTwice; output pair k, column 2q + 1 for OutputsTwice).
  template <class Even, class Odd>
  Axis(bool inputs, const Even& even, const Odd& odd) {
    if (inputs) {
      // [y0|y4] from [ss0|ss1], [y2|y6] from [sd0|sd1]; [y1|y3] and [y5|y7] from [d0|d1], [d3|d2].
      c_[0] = Halves(even(0, 0), even(2, 1)), c_[1] = Halves(even(0, 1), even(2, 0));
      c_[2] = Halves(even(1, 0), even(3, 1)), c_[3] = Halves(even(1, 1), even(3, 0));
      for (int i = 0; i < 2; ++i) {
        const int a = 1 + 4 * i, b = 3 + 4 * i;
        c_[4 + 4 * i] = Halves(odd(a, 0), odd(b, 1)), c_[5 + 4 * i] = Halves(odd(a, 1), odd(b, 0));
        c_[6 + 4 * i] = Halves(odd(a, 3), odd(b, 2)), c_[7 + 4 * i] = Halves(odd(a, 2), odd(b, 3));
      }
    } else {
      // [ae0|ae1] from [x0|x4], [ao0|ao1] from [x2|x6]; [b0|b1] and [b3|b2] from [x1|x3], [x5|x7].
      c_[0] = Halves(even(0, 0), even(1, 2)), c_[1] = Halves(even(0, 2), even(1, 0));
      c_[2] = Halves(even(0, 1), even(1, 3)), c_[3] = Halves(even(0, 3), even(1, 1));
      for (int i = 0; i < 2; ++i) {
        const int a = 3 * i, b = 1 + i;  // output pairs (0, 1), then (3, 2)
        c_[4 + 4 * i] = Halves(odd(a, 0), odd(b, 1)), c_[5 + 4 * i] = Halves(odd(a, 1), odd(b, 0));
        c_[6 + 4 * i] = Halves(odd(a, 2), odd(b, 3)), c_[7 + 4 * i] = Halves(odd(a, 3), odd(b, 2));
      }
    }
  }

  /// y = M x for the block's lines x in Layout kInputsTwiceIn (kOutputsTwiceIn), giving the
  /// lines of y in kInputsTwiceOut (kOutputsTwiceOut).
  template <bool kInputs>
  HWY_INLINE void Apply(Pair (&v)[4]) const {
    if constexpr (kInputs) {
      const Sums x = Fold(v);
      FoldedToOutputs(x, {Swap(x.ss), Swap(x.sd), Swap(x.d), Swap(x.e)}, v);
    } else {
      const Pair sw[4] = {Swap(v[0]), Swap(v[1]), Swap(v[2]), Swap(v[3])};
      ApplyOutputs(v, sw);
    }
  }

  /// Apply<true> with the inputs' halves exchanged given: the same folds of them replace the
  /// four half swaps.
  HWY_INLINE void ApplyInputs(Pair (&v)[4], const Pair (&sw)[4]) const {
    const Sums x = Fold(v), y = Fold(sw);
    FoldedToOutputs(x, y, v);
  }

  /// Apply<false> with the inputs' halves exchanged given (loaded so, where they come from memory).
  HWY_INLINE void ApplyOutputs(Pair (&v)[4], const Pair (&sw)[4]) const {
    // v: [x0|x4] [x2|x6] [x1|x3] [x5|x7]. The even inputs give a (outputs k and 7 - k) and a2
    // (outputs 3 - k and 4 + k), the odd inputs b and b2, for k = 0, 1 in the two halves.
    const Pair ae = c_[0] * v[0] + c_[1] * sw[0];
    const Pair ao = c_[2] * v[1] + c_[3] * sw[1];
    const Pair b = c_[4] * v[2] + c_[5] * sw[2] + c_[6] * v[3] + c_[7] * sw[3];
    const Pair b2 = c_[8] * v[2] + c_[9] * sw[2] + c_[10] * v[3] + c_[11] * sw[3];
    const Pair a = ae + ao, a2 = ae - ao;
    v[0] = a + b;    // [y0|y1]
    v[1] = a - b;    // [y7|y6]
    v[2] = a2 + b2;  // [y3|y2]
    v[3] = a2 - b2;  // [y4|y5]
  }

 private:
  // The two butterfly stages of the InputsTwice fold, v: [x0|x1] [x3|x2] [x4|x5] [x7|x6]. With
  // s_j = x_j + x_{7-j} and d_j = x_j - x_{7-j}: ss = [s0+s3|s1+s2], sd = [s0-s3|s1-s2],
  // d = [d0|d1], e = [d3|d2].
  struct Sums {
    Pair ss, sd, d, e;
  };
  static HWY_INLINE Sums Fold(const Pair (&v)[4]) {
    const Pair s = v[0] + v[3], t = v[1] + v[2];  // [s0|s1], [s3|s2]
    return {s + t, s - t, v[0] - v[3], v[1] - v[2]};
  }
  // The InputsTwice pass's products from the folded inputs x and the same with their halves
  // exchanged (sw).
  HWY_INLINE void FoldedToOutputs(const Sums& x, const Sums& sw, Pair (&v)[4]) const {
    v[0] = c_[0] * x.ss + c_[1] * sw.ss;                               // [y0|y4]
    v[1] = c_[2] * x.sd + c_[3] * sw.sd;                               // [y2|y6]
    v[2] = c_[4] * x.d + c_[5] * sw.d + c_[6] * x.e + c_[7] * sw.e;    // [y1|y3]
    v[3] = c_[8] * x.d + c_[9] * sw.d + c_[10] * x.e + c_[11] * sw.e;  // [y5|y7]
  }

  Pair c_[12] = {};
};

/// The codelet of one plan: both axes, and the largest column sum of |x| the caller's overflow
/// bound allows (SquareCodelet's safe sum).
class Block {
 public:
  Block() = default;
  Block(const Axis& axis0, const Axis& axis1, float safe_sum)
      : axis0_(axis0), axis1_(axis1), safe_sum_(safe_sum) {}

  /// Y = M0 X M1^T from the 8x8 array `in` (strides is0, is1) to `out` (os0, os1), with the
  /// thresholds of SquareCodelet::Execute; false (nothing written) when a column's sum of |x|
  /// passes the safe sum (an inf or NaN input among them).
  template <bool kInputs0, bool kInputs1>
  HWY_INLINE bool Execute(const float* in, std::ptrdiff_t is0, std::ptrdiff_t is1, float* out,
                          std::ptrdiff_t os0, std::ptrdiff_t os1, float eps_in,
                          float eps_out) const {
    constexpr Layout kIn0 = kInputs0 ? kInputsTwiceIn : kOutputsTwiceIn;
    constexpr Layout kOut0 = kInputs0 ? kInputsTwiceOut : kOutputsTwiceOut;
    constexpr Layout kIn1 = kInputs1 ? kInputsTwiceIn : kOutputsTwiceIn;
    constexpr Layout kOut1 = kInputs1 ? kInputsTwiceOut : kOutputsTwiceOut;
    alignas(64) float rows[64];  // strided inputs gathered into contiguous rows
    if (is1 != 1) {
      Gather(in, is0, is1, rows);
      in = rows, is0 = 8;
    }
    Pair v[4];
    for (int i = 0; i < 4; ++i) {
      const Line lo = *reinterpret_cast<const LineU*>(in + kIn0[i][0] * is0);
      const Line hi = *reinterpret_cast<const LineU*>(in + kIn0[i][1] * is0);
      v[i] = __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    }
    if (eps_in > 0)
      for (Pair& x : v) x = ZeroBelow(x, eps_in);
    {  // the column sums of |x| (both halves added), all within the safe sum
      typedef unsigned Bits __attribute__((vector_size(64)));
      const Bits abs = Bits{} + 0x7fffffffu;
      Pair sum = {};
      for (const Pair& x : v) sum += reinterpret_cast<Pair>(reinterpret_cast<Bits>(x) & abs);
      const Pair total = sum + Swap(sum);
#if HWY_TARGET <= HWY_AVX3  // one comparison into a mask register (kSquare8Pairs)
      const __m512 lim = _mm512_set1_ps(safe_sum_);
      if (_mm512_cmp_ps_mask(reinterpret_cast<__m512>(total), lim, _CMP_LE_OQ) != 0xffff)
        return false;
#else
      if (!AllLanesSet(total <= Pair{} + safe_sum_)) return false;
#endif
    }
    {  // the inputs with their halves exchanged come from the rows too
      Pair sw[4];
      for (int i = 0; i < 4; ++i) {
        const Line lo = *reinterpret_cast<const LineU*>(in + kIn0[i][1] * is0);
        const Line hi = *reinterpret_cast<const LineU*>(in + kIn0[i][0] * is0);
        sw[i] =
            __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        if (eps_in > 0) sw[i] = ZeroBelow(sw[i], eps_in);
      }
      if constexpr (kInputs0)
        axis0_.ApplyInputs(v, sw);
      else
        axis0_.ApplyOutputs(v, sw);
    }
    Transpose<kOut0, kIn1>(v);  // its columns, in kIn1
    axis1_.Apply<kInputs1>(v);  // columns of Y, in kOut1
    Transpose<kOut1, kNatural>(v);
    if (os1 != 1 || eps_out > 0) {
      for (int i = 0; i < 4; ++i) *reinterpret_cast<PairU*>(rows + 16 * i) = v[i];
      Scatter(rows, out, os0, os1, eps_out);
    } else if (os0 == 8) {
      for (int i = 0; i < 4; ++i) *reinterpret_cast<PairU*>(out + 16 * i) = v[i];
    } else {
      for (int i = 0; i < 4; ++i) {
        *reinterpret_cast<LineU*>(out + 2 * i * os0) =
            __builtin_shufflevector(v[i], v[i], 0, 1, 2, 3, 4, 5, 6, 7);
        *reinterpret_cast<LineU*>(out + (2 * i + 1) * os0) =
            __builtin_shufflevector(v[i], v[i], 8, 9, 10, 11, 12, 13, 14, 15);
      }
    }
    return true;
  }

 private:
  // The loads and stores of the rare calls: elements not contiguous along rows, or thresholded
  // outputs.
  static HWY_NOINLINE void Gather(const float* in, std::ptrdiff_t is0, std::ptrdiff_t is1,
                                  float* rows) {
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) rows[8 * i + j] = in[i * is0 + j * is1];
  }
  static HWY_NOINLINE void Scatter(const float* rows, float* out, std::ptrdiff_t os0,
                                   std::ptrdiff_t os1, float eps_out) {
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        const float y = rows[8 * i + j];
        out[i * os0 + j * os1] = eps_out > 0 ? ZeroBelow(y, eps_out) : y;
      }
  }

  Axis axis0_, axis1_;
  float safe_sum_ = 0;
};

}  // namespace square8
}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
