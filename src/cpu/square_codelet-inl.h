// SPDX-License-Identifier: BSD-3-Clause
// The codelets of small square 2D plans (the 8x8 and 16x16 blocks of codecs through the general
// plan API): Y = M0 X M1^T for an N x N array as two passes over its N rows (each one or more
// vectors of the data's own precision), each followed by an in-register transpose (axis 0 on the
// rows, then axis 1 on the columns), with no scratch memory. Where an axis's matrix has the
// even/odd symmetry of the type-I, -II and -III transforms, its pass first folds the mirrored
// halves: M[k][N-1-j] = s_k M[k][j] (type II: sums and differences of mirrored inputs) or
// M[N-1-k][j] = t_j M[k][j] (type III: sums and differences of mirrored outputs). That is the
// first butterfly stage of the 8-point factorisations (Loeffler, Ligtenberg and Moschytz; the
// CPU gold code of Obukhov and Kharlamov's "Discrete Cosine Transform for 8x8 Blocks with
// CUDA") and halves the multiply-adds. Where the even half has the same symmetry again (DCT-II,
// DCT-III), it is folded a second time, the second butterfly stage: the even half's N/2 x N/2
// products become two of N/4 x N/4. Each output of a pass is a sum of at most N products (N/2 or
// N/4 after folding) by fused multiply-adds; the entries come from the plan's double matrices.

#if defined(DCTX_CPU_SQUARE_CODELET_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_SQUARE_CODELET_INL_H_
#undef DCTX_CPU_SQUARE_CODELET_INL_H_
#else
#define DCTX_CPU_SQUARE_CODELET_INL_H_
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include <hwy/highway.h>

#include "cpu/host_plan-inl.h"
#include "cpu/lane_transpose-inl.h"
#include "cpu/square8_pairs-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// How an axis matrix is folded (see the file comment). DXST's matrices, whose signs alternate
/// the other way, and type IV's, which have neither symmetry, run unfolded.
/// The "twice" folds also fold the even half once more, the second butterfly stage (DCT-II's
/// even rows are the half-length DCT-II of the sums; DCT-III's even columns the half-length
/// DCT-III), where the half matrix has the same symmetry.
enum class SquareFold : std::uint8_t {
  None,
  Inputs,        // M[k][N-1-j] = (-1)^k M[k][j] (DCT-I, -II; DST-I, -II)
  Outputs,       // M[N-1-k][j] = (-1)^j M[k][j] (DCT-III, DST-III)
  InputsTwice,   // Inputs, and the even rows' halves fold on their inputs again (DCT-II)
  OutputsTwice,  // Outputs, and the even columns' halves fold on their outputs again (DCT-III)
};
inline constexpr std::size_t kSquareFolds = 3;  // pass pairs of single folds (None .. Outputs)

/// The single fold of a twice fold.
constexpr SquareFold Once(SquareFold f) {
  return f == SquareFold::InputsTwice    ? SquareFold::Inputs
         : f == SquareFold::OutputsTwice ? SquareFold::Outputs
                                         : f;
}

/// One axis of a codelet: its N x N matrix, folded where it is symmetric, in T, each entry
/// stored already broadcast to the L lanes of the codelet's vectors (a multiply-add then reads
/// it as a memory operand instead of broadcasting it first: 2 N^2 fewer instructions a block).
template <class T, std::size_t N, std::size_t L>
class SquareAxis {
  static constexpr std::size_t H = N / 2;
  using V = typename VectorOf<T, L>::type;

 public:
  /// From the axis matrix: M[k][j] = m[k * row_stride + j * col_stride].
  SquareAxis(const double* m, std::size_t row_stride, std::size_t col_stride) {
    const auto at = [&](std::size_t k, std::size_t j) {
      return m[k * row_stride + j * col_stride];
    };
    for (std::size_t k = 0; k < N; ++k)
      for (std::size_t j = 0; j < N; ++j) big_ = std::fmax(big_, std::fabs(at(k, j)));
    // The matrices come from the double 1D plans: mirrored entries agree to a few roundings.
    const double tol = 64 * 2.220446049250313e-16 * big_;
    if (Folds(at, tol, true) || Folds(at, tol, false)) {
      FoldsTwice(tol);
      return;
    }
    for (std::size_t k = 0; k < N; ++k)
      for (std::size_t j = 0; j < N; ++j) c_[k][j] = V{} + static_cast<T>(at(k, j));
  }

  SquareFold fold() const { return fold_; }
  T entry(std::size_t k, std::size_t j) const { return c_[k][j][0]; }         // c_ (see Folds)
  T twice_entry(std::size_t k, std::size_t j) const { return r2_[k][j][0]; }  // r2_ (FoldsTwice)
  double big() const { return big_; }  // the largest |M[k][j]|
  const char* fold_name() const {
    switch (fold_) {
      case SquareFold::Inputs: return "mirrored inputs";
      case SquareFold::Outputs: return "mirrored outputs";
      case SquareFold::InputsTwice: return "mirrored inputs (twice)";
      case SquareFold::OutputsTwice: return "mirrored outputs (twice)";
      default: return "none";
    }
  }

  /// out[k] = sum over j of M[k][j] in[j] (each a vector along the other axis, or a part of
  /// one), for fold() == F.
  template <SquareFold F>
  HWY_INLINE void Apply(const V* in, V* out) const {
    if constexpr (F == SquareFold::Inputs) {
      // Even rows take the sums of mirrored inputs, odd rows their differences.
      V sum[H], dif[H];
      for (std::size_t j = 0; j < H; ++j) {
        sum[j] = in[j] + in[N - 1 - j];
        dif[j] = in[j] - in[N - 1 - j];
      }
      for (std::size_t k = 0; k < N; k += 2) {
        V even = c_[k][0] * sum[0], odd = c_[k + 1][0] * dif[0];
        for (std::size_t j = 1; j < H; ++j) {
          even += c_[k][j] * sum[j];
          odd += c_[k + 1][j] * dif[j];
        }
        out[k] = even;
        out[k + 1] = odd;
      }
    } else if constexpr (F == SquareFold::InputsTwice) {
      // As Inputs; even row 2k takes the sums (k even) or differences (k odd) of the mirrored
      // sums.
      V dif[H], ss[Q], sd[Q];
      for (std::size_t j = 0; j < Q; ++j) {
        const V lo = in[j] + in[N - 1 - j], hi = in[H - 1 - j] + in[H + j];
        ss[j] = lo + hi;
        sd[j] = lo - hi;
      }
      for (std::size_t j = 0; j < H; ++j) dif[j] = in[j] - in[N - 1 - j];
      for (std::size_t k = 0; k < N; k += 2) {
        const V* src = (k / 2) % 2 ? sd : ss;
        V even = r2_[k / 2][0] * src[0], odd = c_[k + 1][0] * dif[0];
        for (std::size_t j = 1; j < Q; ++j) even += r2_[k / 2][j] * src[j];
        for (std::size_t j = 1; j < H; ++j) odd += c_[k + 1][j] * dif[j];
        out[k] = even;
        out[k + 1] = odd;
      }
    } else if constexpr (F == SquareFold::OutputsTwice) {
      // As Outputs; the even columns' part of outputs k and H-1-k is the sum and difference of
      // its even and odd halves.
      const V *p = in, *m = in + 1;
      for (std::size_t k = 0; k < Q; ++k) {
        const std::size_t k2 = H - 1 - k;
        V ae = r2_[k][0] * p[0], ao = r2_[k][1] * p[2];
        for (std::size_t q = 2; q < H; q += 2) {
          ae += r2_[k][q] * p[2 * q];
          ao += r2_[k][q + 1] * p[2 * q + 2];
        }
        V b = c_[k][H] * m[0], b2 = c_[k2][H] * m[0];
        for (std::size_t q = 1; q < H; ++q) {
          b += c_[k][H + q] * m[2 * q];
          b2 += c_[k2][H + q] * m[2 * q];
        }
        const V a = ae + ao, a2 = ae - ao;
        out[k] = a + b;
        out[N - 1 - k] = a - b;
        out[k2] = a2 + b2;
        out[N - 1 - k2] = a2 - b2;
      }
    } else if constexpr (F == SquareFold::Outputs) {
      // Even columns j carry t_j = +1 (coefficients c_[k][j / 2]), odd ones -1
      // (c_[k][H + j / 2]); outputs k and N-1-k are the sum and the difference of the two parts.
      const V *p = in, *m = in + 1;
      for (std::size_t k = 0; k < H; ++k) {
        V a = c_[k][0] * p[0], b = c_[k][H] * m[0];
        for (std::size_t q = 1; q < H; ++q) {
          a += c_[k][q] * p[2 * q];
          b += c_[k][H + q] * m[2 * q];
        }
        out[k] = a + b;
        out[N - 1 - k] = a - b;
      }
    } else {
      for (std::size_t k = 0; k < N; ++k) {
        V acc = c_[k][0] * in[0];
        for (std::size_t j = 1; j < N; ++j) acc += c_[k][j] * in[j];
        out[k] = acc;
      }
    }
  }

 private:
  // Whether every mirrored pair of entries of one orientation agrees up to a sign that
  // alternates with the index: M[k][N-1-j] = (-1)^k M[k][j] (rows = true) or
  // M[N-1-k][j] = (-1)^j M[k][j]. Sets fold_ and c_ (see Apply), each the mean of two mirrored
  // entries.
  template <class At>
  bool Folds(const At& at, double tol, bool rows) {
    const auto e = [&](std::size_t line, std::size_t i) {
      return rows ? at(line, i) : at(i, line);
    };
    for (std::size_t line = 0; line < N; ++line) {
      const double sign = line % 2 ? -1.0 : 1.0;
      for (std::size_t i = 0; i < N; ++i)
        if (std::fabs(e(line, N - 1 - i) - sign * e(line, i)) > tol) return false;
    }
    for (std::size_t line = 0; line < N; ++line) {
      const double sign = line % 2 ? -1.0 : 1.0;
      for (std::size_t i = 0; i < H; ++i) {
        const T c = static_cast<T>(0.5 * (e(line, i) + sign * e(line, N - 1 - i)));
        if (rows)
          c_[line][i] = V{} + c;  // row `line`, input pair i
        else
          c_[i][line % 2 * H + line / 2] = V{} + c;  // output pair i, column `line`
      }
    }
    fold_ = rows ? SquareFold::Inputs : SquareFold::Outputs;
    return true;
  }

  // After Folds: whether the even half folds again (see SquareFold); if so sets fold_ and r2_,
  // each entry the mean of two mirrored ones. Inputs: even row 2k's entries j and H-1-j agree
  // up to (-1)^k. Outputs: the even-column entries of output pairs k and H-1-k agree up to
  // (-1)^q (column 2q).
  void FoldsTwice(double tol) {
    if constexpr (H % 2 == 0) {
      const bool rows = fold_ == SquareFold::Inputs;
      const auto e = [&](std::size_t line, std::size_t i) -> double {
        return rows ? c_[2 * line][i][0] : c_[i][line][0];
      };
      for (std::size_t line = 0; line < H; ++line) {
        const double sign = line % 2 ? -1.0 : 1.0;
        for (std::size_t i = 0; i < H; ++i)
          if (std::fabs(e(line, H - 1 - i) - sign * e(line, i)) > tol) return;
      }
      for (std::size_t line = 0; line < H; ++line) {
        const double sign = line % 2 ? -1.0 : 1.0;
        for (std::size_t i = 0; i < Q; ++i) {
          const T c = static_cast<T>(0.5 * (e(line, i) + sign * e(line, H - 1 - i)));
          if (rows)
            r2_[line][i] = V{} + c;  // even row 2 line, pair i of the mirrored sums
          else
            r2_[i][line] = V{} + c;  // output pair i (and H-1-i), even column 2 line
        }
      }
      fold_ = rows ? SquareFold::InputsTwice : SquareFold::OutputsTwice;
    }
  }

  static constexpr std::size_t Q = H / 2;
  SquareFold fold_ = SquareFold::None;
  double big_ = 0;
  V c_[N][N] = {};
  V r2_[H][H] = {};  // the twice folds' even-half entries (see FoldsTwice)
};

/// The codelet of one plan: both axes' folded matrices, and the pass pair their folds select.
/// A row of the block is P vectors of L lanes, L the target's vector length or N if shorter
/// (vectors wider than the registers, such as 8 doubles on AVX2, compile to shuffles through
/// memory; the transpose then works on L x L tiles instead).
template <class T, std::size_t N>
class SquareCodelet {
  static constexpr std::size_t L = std::min(N, LaneVec<T>::kLanes);
  static constexpr std::size_t P = N / L;
  static_assert(P * L == N, "the block side must be a whole number of vectors");
  using V = typename VectorOf<T, L>::type;
  using UnalignedV = typename VectorOf<T, L>::unaligned;

 public:
  /// M0 row by row and M1 transposed, rows `stride` apart (Small2DPlan's layout).
  SquareCodelet(const double* m0, const double* m1t, std::size_t stride)
      : axis0_(m0, stride, 1), axis1_(m1t, 1, stride) {
    // Every partial sum of the first pass is at most big0 times the sum of |x| down its column, of
    // the second at most big1 N big0 times the largest such column sum: below max / 2 when that
    // column sum is below safe_sum_ (the 2 covers the roundings of the sums).
    const double gain = 2.0 * N * axis0_.big() * axis1_.big();
    const double top = static_cast<double>(std::numeric_limits<T>::max());
    safe_sum_ = static_cast<T>(gain > 1 ? top / gain : top);
    if constexpr (kPairs) {
      if (PairsUsed()) {
        pairs_ = square8::Block(PairAxis(axis0_), PairAxis(axis1_), safe_sum_);
        execute_ = axis0_.fold() == SquareFold::InputsTwice
                       ? (axis1_.fold() == SquareFold::InputsTwice
                              ? &SquareCodelet::ExecutePairs<true, true>
                              : &SquareCodelet::ExecutePairs<true, false>)
                       : (axis1_.fold() == SquareFold::InputsTwice
                              ? &SquareCodelet::ExecutePairs<false, true>
                              : &SquareCodelet::ExecutePairs<false, false>);
      }
    }
  }

  std::string describe() const {
    return std::to_string(N) + "x" + std::to_string(N) + " codelet, folds: " + axis0_.fold_name() +
           ", " + axis1_.fold_name() + (PairsUsed() ? ", in 512-bit line pairs" : "");
  }

  /// Y = M0 X M1^T from the N x N array `in` (strides is0, is1) to `out` (strides os0, os1),
  /// with Algorithm 3's thresholding of the inputs (below eps_in) or of the outputs (below
  /// eps_out) where those are > 0. A block with an inf or NaN input, or a column sum of |x| that
  /// could make a sum overflow (see safe_sum_), is declined: then nothing is written and the result
  /// is false (the caller falls back).
  bool Execute(const T* in, std::ptrdiff_t is0, std::ptrdiff_t is1, T* out, std::ptrdiff_t os0,
               std::ptrdiff_t os1, T eps_in, T eps_out) const {
    return (this->*execute_)(in, is0, is1, out, os0, os1, eps_in, eps_out);
  }

 private:
  using Fn = bool (SquareCodelet::*)(const T*, std::ptrdiff_t, std::ptrdiff_t, T*, std::ptrdiff_t,
                                     std::ptrdiff_t, T, T) const;
  // 8x8 float32 DCT-II/III blocks on 512-bit vectors of two lines (square8_pairs-inl.h).
  static constexpr bool kPairs = kSquare8Pairs && std::is_same_v<T, float> && N == 8;
  struct NoPairs {};
  using Pairs = std::conditional_t<kPairs, square8::Block, NoPairs>;

  static constexpr bool Twice(SquareFold f) {
    return f == SquareFold::InputsTwice || f == SquareFold::OutputsTwice;
  }
  bool PairsUsed() const {
    if constexpr (kPairs) return Twice(axis0_.fold()) && Twice(axis1_.fold());
    return false;
  }
  static square8::Axis PairAxis(const SquareAxis<T, N, L>& axis) {
    const bool inputs = axis.fold() == SquareFold::InputsTwice;
    return square8::Axis(
        inputs, [&](int m, int q) { return static_cast<float>(axis.twice_entry(m, q)); },
        [&](int k, int q) { return static_cast<float>(axis.entry(k, inputs ? q : N / 2 + q)); });
  }

  // The pair codelet, and the general one for the blocks it declines (which then declines them
  // too, or takes a block whose column sums rounded differently).
  template <bool kInputs0, bool kInputs1>
  bool ExecutePairs(const T* in, std::ptrdiff_t is0, std::ptrdiff_t is1, T* out, std::ptrdiff_t os0,
                    std::ptrdiff_t os1, T eps_in, T eps_out) const {
    if constexpr (kPairs) {
      if (pairs_.template Execute<kInputs0, kInputs1>(in, is0, is1, out, os0, os1, eps_in, eps_out))
        return true;
    }
    return Declined<kInputs0, kInputs1>(in, is0, is1, out, os0, os1, eps_in, eps_out);
  }
  template <bool kInputs0, bool kInputs1>
  HWY_NOINLINE bool Declined(const T* in, std::ptrdiff_t is0, std::ptrdiff_t is1, T* out,
                             std::ptrdiff_t os0, std::ptrdiff_t os1, T eps_in, T eps_out) const {
    constexpr SquareFold f0 = kInputs0 ? SquareFold::InputsTwice : SquareFold::OutputsTwice;
    constexpr SquareFold f1 = kInputs1 ? SquareFold::InputsTwice : SquareFold::OutputsTwice;
    return ExecuteFolds<f0, f1>(in, is0, is1, out, os0, os1, eps_in, eps_out);
  }

  // b[p][i] <- lanes p L .. p L + L - 1 of column i of the block whose row i has those lanes
  // in b[p][i]: each L x L tile transposed in registers, then the off-diagonal tiles swapped.
  static HWY_INLINE void Transpose(V (&b)[P][N]) {
    for (std::size_t p = 0; p < P; ++p)
      for (std::size_t q = 0; q < P; ++q) TransposeSquare<L>(&b[p][q * L]);
    for (std::size_t p = 0; p < P; ++p)
      for (std::size_t q = p + 1; q < P; ++q)
        for (std::size_t t = 0; t < L; ++t) std::swap(b[p][q * L + t], b[q][p * L + t]);
  }

  // One pair of folds, the block in registers (or, past the register file, in whole vectors
  // on the stack) from the loads to the stores.
  template <SquareFold F0, SquareFold F1>
  bool ExecuteFolds(const T* in, std::ptrdiff_t is0, std::ptrdiff_t is1, T* out, std::ptrdiff_t os0,
                    std::ptrdiff_t os1, T eps_in, T eps_out) const {
    V r[P][N], a[P][N];
#pragma GCC unroll 16
    for (std::size_t i = 0; i < N; ++i) {
      const T* row = in + static_cast<std::ptrdiff_t>(i) * is0;
      for (std::size_t p = 0; p < P; ++p) {
        if (is1 == 1) {
          r[p][i] = *reinterpret_cast<const UnalignedV*>(row + p * L);
        } else {
          for (std::size_t j = 0; j < L; ++j)
            r[p][i][j] = row[static_cast<std::ptrdiff_t>(p * L + j) * is1];
        }
      }
    }
    if (eps_in > 0)
      for (auto& part : r)
        for (V& v : part) v = ZeroBelow(v, eps_in);
    // A block whose column sums of |x| pass safe_sum_ (an inf or NaN input, or sums that could
    // overflow) is declined before anything is stored. The test runs beside the arithmetic, from
    // the loads: a test of the outputs would hold the block's last instructions back until it
    // resolved.
    {
      const V lim = V{} + safe_sum_;
      auto ok = lim == lim;
      for (std::size_t p = 0; p < P; ++p) {  // trees of additions, one comparison per part
        V t[N];
        for (std::size_t i = 0; i < N; ++i) t[i] = AbsLanes(r[p][i]);
        for (std::size_t m = N; m > 1; m /= 2)
          for (std::size_t i = 0; i < m / 2; ++i) t[i] = t[2 * i] + t[2 * i + 1];
        ok &= t[0] <= lim;
      }
      if (!AllLanesSet(ok)) return false;
    }
    for (std::size_t p = 0; p < P; ++p) axis0_.template Apply<F0>(r[p], a[p]);  // rows of M0 X
    Transpose(a);                                                               // its columns
    for (std::size_t p = 0; p < P; ++p) axis1_.template Apply<F1>(a[p], r[p]);  // M0 X M1^T
    Transpose(r);
    if (!(eps_out > 0) && os1 == 1) {  // the common call: straight from registers to the rows
#pragma GCC unroll 16
      for (std::size_t k = 0; k < N; ++k)
        for (std::size_t p = 0; p < P; ++p)
          *reinterpret_cast<UnalignedV*>(out + static_cast<std::ptrdiff_t>(k) * os0 + p * L) =
              r[p][k];
      return true;
    }
    V y[P][N];  // the block leaves the registers only on this path (thresholds or strides)
    for (std::size_t p = 0; p < P; ++p)
      for (std::size_t k = 0; k < N; ++k) y[p][k] = r[p][k];
    StoreRows(y, out, os0, os1, eps_out);
    return true;
  }

  // The stores of the rare calls: outputs thresholded, or rows that are not contiguous.
  static HWY_NOINLINE void StoreRows(V (&y)[P][N], T* out, std::ptrdiff_t os0, std::ptrdiff_t os1,
                                     T eps_out) {
    for (std::size_t k = 0; k < N; ++k) {
      T* row = out + static_cast<std::ptrdiff_t>(k) * os0;
      for (std::size_t p = 0; p < P; ++p) {
        if (eps_out > 0) y[p][k] = ZeroBelow(y[p][k], eps_out);
        if (os1 == 1) {
          *reinterpret_cast<UnalignedV*>(row + p * L) = y[p][k];
        } else {
          for (std::size_t c = 0; c < L; ++c)
            row[static_cast<std::ptrdiff_t>(p * L + c) * os1] = y[p][k][c];
        }
      }
    }
  }

  template <SquareFold F0, std::size_t... I>
  static constexpr std::array<Fn, sizeof...(I)> PassPairs(std::index_sequence<I...>) {
    return {&SquareCodelet::ExecuteFolds<F0, static_cast<SquareFold>(I)>...};
  }
  // The pass pair of two folds: twice folds on both axes as they are (a forward or an inverse
  // DCT), any other pair with single folds only (kSquareFolds^2 instantiations, not 25).
  template <std::size_t... I>
  static Fn Pick(SquareFold f0, SquareFold f1, std::index_sequence<I...>) {
    constexpr SquareFold kIn = SquareFold::InputsTwice, kOut = SquareFold::OutputsTwice;
    if ((f0 == kIn || f0 == kOut) && (f1 == kIn || f1 == kOut)) {
      if (f0 == kIn)
        return f1 == kIn ? &SquareCodelet::ExecuteFolds<kIn, kIn>
                         : &SquareCodelet::ExecuteFolds<kIn, kOut>;
      return f1 == kIn ? &SquareCodelet::ExecuteFolds<kOut, kIn>
                       : &SquareCodelet::ExecuteFolds<kOut, kOut>;
    }
    static constexpr std::array<std::array<Fn, kSquareFolds>, kSquareFolds> table = {
        PassPairs<static_cast<SquareFold>(I)>(std::make_index_sequence<kSquareFolds>())...};
    return table[static_cast<std::size_t>(Once(f0))][static_cast<std::size_t>(Once(f1))];
  }

  SquareAxis<T, N, L> axis0_, axis1_;
  T safe_sum_;  // the largest column sum of |x| a block may have (see the constructor)
  Fn execute_ = Pick(axis0_.fold(), axis1_.fold(), std::make_index_sequence<kSquareFolds>());
  [[no_unique_address]] Pairs pairs_;
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
