// SPDX-License-Identifier: BSD-3-Clause
// The CPU's real FFT over lanes (a half-length complex FFT and the split of the packed
// spectrum), the inner FFT of the DCT/DST reductions.

#if defined(DCTX_CPU_REAL_FFT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_REAL_FFT_INL_H_
#undef DCTX_CPU_REAL_FFT_INL_H_
#else
#define DCTX_CPU_REAL_FFT_INL_H_
#endif

#include <algorithm>
#include <bit>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/fft_tables.hpp"
#include "cpu/complex_fft-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// A real FFT of length n: for even n one complex FFT of n/2 points on the packed signal
/// z_j = x_{2j} + i x_{2j+1} and an O(n) split (the real-signal packing of Jia Ge, Peng Xianrong
/// and Zuo Haorui, "FFT algorithm research based on OpenCL"); odd n runs a complex FFT of n points.
template <class T0>
class RealFFT {
 public:
  explicit RealFFT(std::size_t n, bool single_lines = true)
      : n_(n),
        fft_(n % 2 == 0 ? n / 2 : n, single_lines, detail::RadixOrder::LargeFirst, kStageRadices) {
    if (n % 2 != 0) return;
    tw_ = ToCxTable<T0>(detail::real_fft_split_twiddles<T0>(n));
    // The inverse runs the stages small radix first, so that its split fuses into the first.
    if (FusesSplit() && fft_.first_stage() != fft_.last_stage())
      ifft_ = std::make_unique<ComplexFFT<T0>>(n / 2, single_lines, detail::RadixOrder::SmallFirst,
                                               kStageRadices);
    // Where the split does not fuse (n/2 = 4^k >= 16 on AVX2: stages of 4 only), the reads
    // straight from the array run 4^(k-1)·2·2 with the split fused into the last 2: a pass more
    // than fft_, but no gather.
    if (kStageRadices == detail::StageRadices::Fours && fft_.last_stage() &&
        fft_.last_stage()->p == 4 && std::has_single_bit(n / 2) && n / 2 >= 16)
      from_fft_ =
          std::make_unique<ComplexFFT<T0>>(n / 2, single_lines, detail::RadixOrder::LargeFirst,
                                           detail::StageRadices::FoursFusedSplit);
  }
  std::size_t size() const { return n_; }
  bool bluestein() const { return fft_.bluestein(); }
  /// Complex lanes of scratch needed by forward/backward (besides their in/out arrays).
  std::size_t scratch_len() const {
    const std::size_t fft = std::max(fft_.scratch_len(), from_fft_ ? from_fft_->scratch_len() : 0);
    return (n_ % 2 == 0 ? 0 : n_) + fft;
  }

  /// out[k] = sum_j in[j] exp(-2 pi i jk/n), k = 0..n/2. `in` (n lanes) and `out` (n/2+1) may
  /// not overlap.
  template <class T>
  void forward(const T* in, Cx<T>* out, Cx<T>* scratch) const {
    const std::size_t n = n_;
    if (n % 2 == 1) {
      Cx<T>* buf = scratch;
      const T zero{};
      for (std::size_t j = 0; j < n; ++j) buf[j] = {in[j], zero};
      fft_.template exec<true>(buf, scratch + n);
      for (std::size_t k = 0; k <= n / 2; ++k) out[k] = buf[k];
      return;
    }
    for (std::size_t j = 0; j < n / 2; ++j) out[j] = {in[2 * j], in[2 * j + 1]};
    // In place: the split reads slots k and n/2 - k before it writes them.
    forward_packed(
        out, scratch, [&](std::size_t k, const Cx<T>& X2) __attribute__((always_inline)) {
          out[k] = {X2.r * T0(0.5), X2.i * T0(0.5)};
        });
  }

  /// forward() for even n on an input already packed in z[0..n/2) (z_j = in[2j] + i in[2j+1]:
  /// the n lanes of a real line in memory order), with no copies: `emit(k, 2 X_k)` receives each
  /// X_k, k = 0..n/2, once, doubled: the split's halving is left to the caller's scale, which
  /// absorbs it exactly (a power of two), so the split multiplies by nothing but its twiddles.
  /// The split is fused into whatever emit does with X_k (the DCT's rotation, r2r-inl.h). z is
  /// destroyed; `scratch` holds scratch_len() complex lanes.
  template <class T, class Emit>
  void forward_packed(Cx<T>* z, Cx<T>* scratch, Emit&& emit) const {
    const std::size_t M = n_ / 2;
    if (FusesSplit())
      return ForwardFused<kFusedRadix>(fft_.template exec_but_last<true>(z, scratch), emit);
    const Cx<T>* out = fft_.template exec_to<true>(z, scratch);
    EmitEnds(out[0], emit);
    for (std::size_t k = 1; 2 * k <= M; ++k) SplitPair(k, out[k], out[M - k], emit);
  }

  /// Whether forward_packed_from() applies: the split fused into the last stage of its FFT
  /// (FromFFT()), and a first stage before it with a generated butterfly. Reads straight from
  /// the array without the fused split measured slower than a gather first (docs/benchmarks.md,
  /// "Columns read straight from the array"), hence from_fft_ where fft_ does not fuse.
  bool forward_from() const {
    const ComplexFFT<T0>& f = FromFFT();
    const auto* first = f.first_stage();
    return Fuses(f) && first != f.last_stage() && HasButterfly(first->p);
  }

  /// forward_packed() of the packed input whose element j is load(j) (z_j above), read by the
  /// FFT's first stage instead of from z (which it still destroys): no gather before it.
  template <class T, class Load, class Emit>
  void forward_packed_from(Load& load, Cx<T>* z, Cx<T>* scratch, Emit&& emit) const {
    ForwardFused<kFusedRadix>(FromFFT().template exec_but_last_from<true>(load, z, scratch), emit);
  }

  /// backward() for even n with the output left packed: `load(k)` returns X_k (k = 0..n/2, each
  /// called once, after which X may change); the result out[2j] + i out[2j+1] is at the returned
  /// pointer, z[0..n/2) or scratch, so the caller's reordering reads it in place.
  template <class T, class Load>
  const Cx<T>* backward_packed(Load&& load, Cx<T>* z, Cx<T>* scratch) const {
    const std::size_t M = n_ / 2;
    if (ifft_) return BackwardFused<kFusedRadix>(load, z, scratch);
    {
      const T a = load(std::size_t{0}).r, b = load(M).r;
      z[0] = {a + b, a - b};
    }
    for (std::size_t k = 1; 2 * k <= M; ++k) {
      const Cx<T> a = load(k), b = 2 * k == M ? a : load(M - k);
      const Cx<T> P{a.r + b.r, a.i - b.i}, D{a.r - b.r, a.i + b.i};
      const Cx<T> Q = RotI<false>(MulW<true>(D, tw_[k]));
      z[k] = P + Q;
      if (2 * k != M) z[M - k] = {P.r - Q.r, Q.i - P.i};
    }
    return fft_.template exec_to<false>(z, scratch);
  }

  /// Odd n, two real lines in one complex FFT (the two-for-one packing of real signals): on entry
  /// z[j] = a_j + i b_j (n complex lanes, destroyed); `emit(k, A_k, B_k)` receives both spectra,
  /// k = 0..n/2, from Z = DFT(z) by A_k = (Z_k + conj Z_{n-k})/2, B_k = (Z_k - conj Z_{n-k})/(2i).
  /// `scratch`: the n lanes after z's are not needed; it holds scratch_len() - n lanes.
  template <class T, class Emit>
  void forward_pair(Cx<T>* z, Cx<T>* scratch, Emit&& emit) const {
    const std::size_t n = n_;
    fft_.template exec<true>(z, scratch);
    const T zero{};
    emit(std::size_t{0}, Cx<T>{z[0].r, zero}, Cx<T>{z[0].i, zero});
    for (std::size_t k = 1; 2 * k <= n; ++k) {
      const Cx<T> p = z[k], q = z[n - k];
      emit(k, Cx<T>{(p.r + q.r) * T0(0.5), (p.i - q.i) * T0(0.5)},
           Cx<T>{(p.i + q.i) * T0(0.5), (q.r - p.r) * T0(0.5)});
    }
  }

  /// The inverse of forward_pair(): `load(k)` returns the pair (A_k, B_k), k = 0..n/2, of two
  /// Hermitian spectra; z (n complex lanes) receives a_j + i b_j, the two unnormalised inverse
  /// real FFTs, from one inverse complex FFT of z_k = A_k + i B_k. `scratch` as forward_pair().
  template <class T, class Load>
  void backward_pair(Load&& load, Cx<T>* z, Cx<T>* scratch) const {
    const std::size_t n = n_;
    for (std::size_t k = 0; 2 * k <= n; ++k) {
      const auto [A, B] = load(k);
      z[k] = {A.r - B.i, A.i + B.r};
      if (k != 0) z[n - k] = {A.r + B.i, B.r - A.i};  // conj(A_k) + i conj(B_k)
    }
    fft_.template exec<false>(z, scratch);
  }

  /// Unnormalised inverse of forward(): out[j] = sum_{k<n} X_k exp(+2 pi i jk/n) with X the
  /// Hermitian extension of in[0..n/2]. `in` is destroyed; `out` (n lanes) may not overlap it.
  template <class T>
  void backward(Cx<T>* in, T* out, Cx<T>* scratch) const {
    const std::size_t n = n_;
    if (n % 2 == 1) {
      Cx<T>* buf = scratch;
      buf[0] = in[0];
      for (std::size_t k = 1; k <= n / 2; ++k) {
        buf[k] = in[k];
        buf[n - k] = {in[k].r, -in[k].i};
      }
      fft_.template exec<false>(buf, scratch + n);
      for (std::size_t j = 0; j < n; ++j) out[j] = buf[j].r;
      return;
    }
    // In place: the split reads slots k and n/2 - k before it writes them.
    const Cx<T>* z = backward_packed([&](std::size_t k) { return in[k]; }, in, scratch);
    for (std::size_t j = 0; j < n / 2; ++j) {
      out[2 * j] = z[j].r;
      out[2 * j + 1] = z[j].i;
    }
  }

 private:
  // The radix whose butterflies run fused with the split. The fused passes below are written
  // for any radix P (and passed every CPU test with P = 2, 3, 4 and 5), but radices 3, 4 and 5
  // measured slower fused than as separate passes (docs/benchmarks.md).
  static constexpr std::size_t kFusedRadix = 2;
  // The radices of the half-length FFT (core/fft_tables.hpp, stockham_radices; an odd n's FFT
  // of n points factors alike under each choice). A stage of
  // radix 16 before the fused 2 (2^(3k+2) points) keeps 16 complex vectors live: it pays with
  // AVX-512's 32 vector registers. On AVX2's 16 even radix 8 spills, and radix-4 stages measured
  // faster (docs/benchmarks.md, "Radix-4 stages on AVX2").
  static constexpr detail::StageRadices kStageRadices =
      kFusedRadix == 2 && HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
          ? detail::StageRadices::SixteenFusedSplit
      : HWY_TARGET == HWY_AVX2 ? detail::StageRadices::Fours
                               : detail::StageRadices::Eights;

  // The split's ends from Z_0: 2 X_0 and 2 X_M (doubled as forward_packed() emits them).
  template <class T, class Emit>
  HWY_INLINE void EmitEnds(const Cx<T>& z0, Emit& emit) const {
    const T zero{}, sum = z0.r + z0.i, diff = z0.r - z0.i;
    emit(std::size_t{0}, Cx<T>{sum + sum, zero});
    emit(n_ / 2, Cx<T>{diff + diff, zero});
  }

  // The split of one pair: from a = Z_K and b = Z_{M-K} (0 < K < M), 2 X_K and 2 X_{M-K} (once
  // when 2K = M): X_K = e + W^K o with e = (Z_K + conj Z_{M-K})/2, o = -i (Z_K - conj Z_{M-K})/2,
  // each without its halving.
  template <class T, class Emit>
  HWY_INLINE void SplitPair(std::size_t K, const Cx<T>& a, const Cx<T>& b, Emit& emit) const {
    const std::size_t M = n_ / 2;
    const Cx<T> e{a.r + b.r, a.i - b.i};
    const Cx<T> o{a.i + b.i, b.r - a.r};
    const Cx<T> wo = MulW<false>(o, tw_[K]);
    emit(K, e + wo);
    if (2 * K != M) emit(M - K, Cx<T>{e.r - wo.r, wo.i - e.i});
  }

  // Whether the split fuses into the last stage of f (an FFT of n/2 points).
  bool Fuses(const ComplexFFT<T0>& f) const {
    const auto* last = f.last_stage();
    return last && last->p == kFusedRadix && n_ / 2 >= 2 * kFusedRadix;
  }
  // Whether forward_packed() runs ForwardFused.
  bool FusesSplit() const { return Fuses(fft_); }
  // The FFT of forward_packed_from().
  const ComplexFFT<T0>& FromFFT() const { return from_fft_ ? *from_fft_ : fft_; }

  // forward_packed() with the FFT's last stage (radix P, m = 1, L = M/P: Z[kL + s] is the P-point
  // DFT of x[jL + s], j < P, x the output of the stages before it) and the split in one pass. The
  // partner M - K of K = kL + s is (P-1-k)L + (L-s) (for s = 0, (P-k)L), so the butterflies at s
  // and L - s hold every pair of theirs: the spectrum is not stored between them.
  template <std::size_t P, class T, class Emit>
  void ForwardFused(const Cx<T>* x, Emit& emit) const {
    const std::size_t M = n_ / 2, L = M / P;
    Cx<T> u[P], v[P];
    const auto dft = [&](std::size_t s, Cx<T>* to) {
      Butterfly<true, T0, P>::Run(x + s, L, [&](auto k, Cx<T> y) { to[decltype(k)::value] = y; });
    };
    dft(0, u);
    EmitEnds(u[0], emit);
    for (std::size_t k = 1; 2 * k <= P; ++k) SplitPair(k * L, u[k], u[P - k], emit);
    for (std::size_t s = 1; 2 * s < L; ++s) {
      dft(s, u);
      dft(L - s, v);
      for (std::size_t k = 0; k < P; ++k) SplitPair(k * L + s, u[k], v[P - 1 - k], emit);
    }
    if (L % 2 == 0) {
      const std::size_t s = L / 2;
      dft(s, u);
      for (std::size_t k = 0; 2 * k + 1 <= P; ++k) SplitPair(k * L + s, u[k], u[P - 1 - k], emit);
    }
  }

  // The inverse split of one pair: Z_K and Z_{M-K} from X_K = load(K) and X_{M-K} (0 < K < M;
  // one load when 2K = M).
  template <class T, class Load>
  HWY_INLINE void UnsplitPair(std::size_t K, Load& load, Cx<T>& zk, Cx<T>& zmk) const {
    const std::size_t M = n_ / 2;
    const Cx<T> a = load(K), b = 2 * K == M ? a : load(M - K);
    const Cx<T> P{a.r + b.r, a.i - b.i}, D{a.r - b.r, a.i + b.i};
    const Cx<T> Q = RotI<false>(MulW<true>(D, tw_[K]));
    zmk = {P.r - Q.r, Q.i - P.i};
    zk = P + Q;  // last: when 2K = M, zk and zmk may be one variable
  }

  // backward_packed() with the inverse split and the first stage of ifft_ (radix P, L = 1,
  // m = M/P: y[n1 P + k] is the P-point DFT of z[n1 + jm], j < P, twiddled) in one pass. The
  // partner of K = n1 + jm is (m - n1) + (P-1-j)m (for n1 = 0, (P-j)m), so the butterflies of
  // n1 and m - n1 consume every pair they load. y is scratch; the later stages run from there.
  template <std::size_t P, class T, class Load>
  const Cx<T>* BackwardFused(Load& load, Cx<T>* z, Cx<T>* scratch) const {
    const std::size_t M = n_ / 2, m = M / P;
    const auto& st = *ifft_->first_stage();
    Cx<T>* y = scratch;
    Cx<T> u[P], v[P];
    const auto dft = [&](std::size_t n1, const Cx<T>* from, auto twiddled) {
      Cx<T>* y0 = y + n1 * P;
      const Cx<T0>* w = &st.tw[n1 * (P - 1)];
      Butterfly<false, T0, P>::Run(from, 1, [&](auto k, Cx<T> r) {
        constexpr std::size_t kK = decltype(k)::value;
        if constexpr (kK == 0 || !std::decay_t<decltype(twiddled)>::value) {
          y0[kK] = r;
        } else {
          y0[kK] = MulW<true>(r, w[kK - 1]);
        }
      });
    };
    const std::true_type twiddled;
    {
      const T a = load(std::size_t{0}).r, b = load(M).r;
      u[0] = {a + b, a - b};
    }
    for (std::size_t j = 1; 2 * j <= P; ++j) UnsplitPair(j * m, load, u[j], u[P - j]);
    dft(0, u, std::false_type());
    for (std::size_t n1 = 1; 2 * n1 < m; ++n1) {
      for (std::size_t j = 0; j < P; ++j) UnsplitPair(n1 + j * m, load, u[j], v[P - 1 - j]);
      dft(n1, u, twiddled);
      dft(m - n1, v, twiddled);
    }
    if (m % 2 == 0) {
      const std::size_t n1 = m / 2;
      for (std::size_t j = 0; 2 * j + 1 <= P; ++j)
        UnsplitPair(n1 + j * m, load, u[j], u[P - 1 - j]);
      dft(n1, u, twiddled);
    }
    return ifft_->template exec_after_first<false>(y, z);
  }

  std::size_t n_;
  ComplexFFT<T0> fft_;
  std::unique_ptr<ComplexFFT<T0>> ifft_;      // the inverse's stages, small radix first (or null)
  std::unique_ptr<ComplexFFT<T0>> from_fft_;  // forward_packed_from()'s stages where not fft_'s
  std::vector<Cx<T0>> tw_;                    // exp(-2 pi i k/n), k = 0..n/2
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
