// SPDX-License-Identifier: BSD-3-Clause
// The CPU's complex FFT over lanes: the Stockham passes of stockham-inl.h driven by the core's
// factorisation and twiddles (core/fft_tables.hpp), Bluestein's chirp-z convolution for lengths
// with a large prime factor, and Bailey's six-step form for one long scalar sequence.

#if defined(DCTX_CPU_COMPLEX_FFT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_COMPLEX_FFT_INL_H_
#undef DCTX_CPU_COMPLEX_FFT_INL_H_
#else
#define DCTX_CPU_COMPLEX_FFT_INL_H_
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/fft_tables.hpp"
#include "cpu/stockham-inl.h"
#include "dctx/types.hpp"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// A complex FFT of one length over lanes, built from the core's tables: Stockham passes, or
/// Bluestein's convolution for lengths with a large prime factor, and for one long scalar line
/// Bailey's six-step form so that a single sequence still runs on vectors.
template <class T0>
class ComplexFFT {
 public:
  /// `single_lines`: exec() runs only on single scalar lines (T = T0), as a plan's driver runs a
  /// transform of a few lines; a long one then gets the six-step tables instead of the stage
  /// tables, which only vector lines use. Otherwise exec() runs on vectors (and scalar lines).
  /// `order`, `radices`: the order and radices of the Stockham stages (core/fft_tables.hpp,
  /// stockham_radices).
  explicit ComplexFFT(std::size_t n, bool single_lines = true,
                      detail::RadixOrder order = detail::RadixOrder::LargeFirst,
                      detail::StageRadices radices = detail::StageRadices::Eights)
      : n_(n) {
    if (n <= 1) return;
    if (detail::fft_uses_bluestein(n)) {
      InitBluestein(detail::complex_fft_tables(n), single_lines);
      return;
    }
    if (single_lines && InitSixStep()) return;
    for (const detail::FftStage& s : detail::complex_fft_tables(n, order, radices).stages)
      stages_.emplace_back(s);
  }

  std::size_t size() const { return n_; }
  /// Complex elements of scratch that exec() needs (enough for T = T0 and for vector T).
  std::size_t scratch_len() const {
    if (blue_) return blue_->size() + blue_->scratch_len();
    return std::max(n_, six_scratch_);  // six_scratch_ (scalar units) ~ n plus a little
  }
  bool bluestein() const { return blue_ != nullptr; }

  /// In-place DFT of data[0..n): kForward uses exp(-2 pi i jk/n), else exp(+...). Unnormalised.
  template <bool kForward, class T>
  void exec(Cx<T>* data, Cx<T>* scratch) const {
    const Cx<T>* r = exec_to<kForward>(data, scratch);
    if (r != data) std::copy(r, r + n_, data);
  }

  /// When the FFT runs Stockham passes (not Bluestein's convolution nor the six-step form): its
  /// first and last stages, which a caller may run fused with its own pass (real_fft-inl.h)
  /// around exec_but_last() or exec_after_first(). Null otherwise.
  const typename Stockham<T0>::Stage* first_stage() const {
    return stages_.empty() ? nullptr : &stages_.front();
  }
  const typename Stockham<T0>::Stage* last_stage() const {
    return stages_.empty() ? nullptr : &stages_.back();
  }

  /// Every stage but the last on data[0..n): the result is in data or scratch, whichever this
  /// returns (the other is destroyed). Only when last_stage() is not null.
  template <bool kForward, class T>
  const Cx<T>* exec_but_last(Cx<T>* data, Cx<T>* scratch) const {
    return RunStages<kForward>(0, stages_.size() - 1, data, scratch);
  }

  /// exec_but_last() of the data whose element q is load(q), read by the first stage (only when
  /// first_stage() is not last_stage() and has a generated butterfly): the first stage writes
  /// `data`, which the input need not be in.
  template <bool kForward, class T, class Load>
  const Cx<T>* exec_but_last_from(Load& load, Cx<T>* data, Cx<T>* scratch) const {
    Stockham<T0>::template FirstPassFrom<kForward>(stages_.front(), load, data);
    return RunStages<kForward>(1, stages_.size() - 1, data, scratch);
  }

  /// Every stage but the first, on the first stage's output in y (`other`: n more complex
  /// lanes): the DFT ends in y or other, whichever this returns. Only when first_stage() is not
  /// null.
  template <bool kForward, class T>
  const Cx<T>* exec_after_first(Cx<T>* y, Cx<T>* other) const {
    return RunStages<kForward>(1, stages_.size(), y, other);
  }

  /// exec() without its final copy: the DFT of data[0..n) ends in data or in scratch[0..n),
  /// whichever this returns (the other is destroyed).
  template <bool kForward, class T>
  const Cx<T>* exec_to(Cx<T>* data, Cx<T>* scratch) const {
    if (n_ <= 1) return data;
    if (blue_) {
      ExecBluestein<kForward>(data, scratch);
      return data;
    }
    if constexpr (std::is_same_v<T, T0>) {
      if (col_) {
        ExecSixStep<kForward>(data, scratch);
        return data;
      }
    }
    if (stages_.empty()) throw Error("internal: vector lines on a single-line FFT plan");
    return RunStages<kForward>(0, stages_.size(), data, scratch);
  }

 private:
  // Bluestein: X_k = conj(b_k) sum_j (x_j conj(b_j)) b_{k-j}, b_j = exp(i pi j^2 / n), the
  // convolution done with FFTs of length m >= 2n-1. The backward DFT is conj(DFT(conj x)).
  void InitBluestein(const detail::ComplexFftTables& t, bool single_lines) {
    const std::size_t m = t.bluestein_length;
    blue_ = std::make_unique<ComplexFFT<T0>>(m, single_lines);
    chirp_ = ToCxTable<T0>(t.chirp);
    std::vector<Cx<T0>> b(m, Cx<T0>{0, 0}), s(blue_->scratch_len());
    b[0] = chirp_[0];
    for (std::size_t j = 1; j < n_; ++j) b[j] = b[m - j] = chirp_[j];
    blue_->template exec<true>(b.data(), s.data());
    const T0 inv = T0(1) / static_cast<T0>(m);
    for (auto& v : b) v = {v.r * inv, v.i * inv};
    chirp_fft_ = std::move(b);
  }

  template <bool kFwd, class T>
  void ExecBluestein(Cx<T>* data, Cx<T>* scratch) const {
    const std::size_t m = blue_->size();
    Cx<T>* a = scratch;
    Cx<T>* inner = scratch + m;
    const T zero{};
    for (std::size_t j = 0; j < n_; ++j) {
      Cx<T> x = data[j];
      if (!kFwd) x.i = -x.i;
      a[j] = MulW<true>(x, chirp_[j]);
    }
    for (std::size_t j = n_; j < m; ++j) a[j] = {zero, zero};
    if (!blue_->stages_.empty() && HasButterfly(blue_->stages_.back().p)) {
      // The product with the chirp's spectrum in the forward FFT's last pass, the output chirp in
      // the inverse's, which writes the n outputs straight into data: two passes fewer.
      const std::size_t last = blue_->stages_.size() - 1;
      const auto& st = blue_->stages_.back();
      const Cx<T>* x = blue_->template RunStages<true>(0, last, a, inner);
      Cx<T>* y = x == a ? inner : a;
      Stockham<T0>::template LastPass<true>(
          st, x, [&](std::size_t i, const Cx<T>& u) { y[i] = MulW<false>(u, chirp_fft_[i]); });
      x = blue_->template RunStages<false>(0, last, y, y == a ? inner : a);
      Stockham<T0>::template LastPass<false>(st, x, [&](std::size_t k, const Cx<T>& u) {
        if (k >= n_) return;
        Cx<T> z = MulW<true>(u, chirp_[k]);
        if (!kFwd) z.i = -z.i;
        data[k] = z;
      });
      return;
    }
    blue_->template exec<true>(a, inner);
    for (std::size_t j = 0; j < m; ++j) a[j] = MulW<false>(a[j], chirp_fft_[j]);
    blue_->template exec<false>(a, inner);
    for (std::size_t k = 0; k < n_; ++k) {
      Cx<T> z = MulW<true>(a[k], chirp_[k]);
      if (!kFwd) z.i = -z.i;
      data[k] = z;
    }
  }

  // Six-step FFT (D. H. Bailey, "FFTs in external or hierarchical memory", 1990) for one long
  // scalar sequence, so that a single line still runs on vectors: n = m1*m2, z[j1*m2 + j2]; FFTs of
  // length m1 down the columns, kSixLanes columns at a time (contiguous loads), twiddle exp(-2 pi i
  // j2 k1/n), then FFTs of length m2 along the rows, kSixLanes rows at a time, written to Z[k1 +
  // m1*k2] with contiguous stores.
  using SixV = typename LaneVec<T0>::type;
  static constexpr std::size_t kSixLanes = LaneVec<T0>::kLanes;
  static constexpr std::size_t kSixMin = 256;  // shorter sequences: the scalar passes win

  // Whether the six-step form applies (its tables are then built).
  bool InitSixStep() {
    if (n_ < kSixMin || kSixLanes < 4) return false;
    std::size_t m1 = 1;
    while (m1 * m1 < n_) m1 *= 2;  // power-of-two split near sqrt(n)
    for (; m1 >= kSixLanes; m1 /= 2) {
      if (n_ % m1 != 0) continue;
      const std::size_t m2 = n_ / m1;
      if (m2 % kSixLanes != 0 || m1 % kSixLanes != 0) continue;
      col_ = std::make_unique<ComplexFFT<T0>>(m1, false);
      row_ = std::make_unique<ComplexFFT<T0>>(m2, false);
      m1_ = m1;
      m2_ = m2;
      const std::vector<std::complex<T0>> tw = detail::six_step_twiddles<T0>(m1, m2);
      tw6r_.resize(n_);
      tw6i_.resize(n_);
      for (std::size_t i = 0; i < n_; ++i) {
        tw6r_[i] = tw[i].real();
        tw6i_[i] = tw[i].imag();
      }
      // Scratch in scalar complex units: planes re/im (n), column and row vectors with their
      // FFT scratch, and slack for 128-byte alignment of each piece.
      const std::size_t vec = kSixLanes;
      six_scratch_ = n_ + vec * (m1 + col_->scratch_len() + m2 + row_->scratch_len()) +
                     4 * 128 / sizeof(Cx<T0>);
      return true;
    }
    return false;
  }

  template <class U>
  static U* Align128(void* p) {
    const std::uintptr_t a = (reinterpret_cast<std::uintptr_t>(p) + 127) & ~std::uintptr_t(127);
    return reinterpret_cast<U*>(a);
  }

  template <bool kFwd>
  void ExecSixStep(Cx<T0>* z, Cx<T0>* scratch) const {
    using V = SixV;
    constexpr std::size_t L = kSixLanes;
    const std::size_t m1 = m1_, m2 = m2_;
    T0* are = Align128<T0>(scratch);
    T0* aim = are + n_;
    Cx<V>* col = Align128<Cx<V>>(aim + n_);
    Cx<V>* colscr = Align128<Cx<V>>(col + m1);
    Cx<V>* row = Align128<Cx<V>>(colscr + col_->scratch_len());
    Cx<V>* rowscr = Align128<Cx<V>>(row + m2);
    // Columns j2..j2+L: gather (deinterleave), FFT of m1, twiddle, store row-major planes.
    for (std::size_t j2 = 0; j2 < m2; j2 += L) {
      for (std::size_t j1 = 0; j1 < m1; ++j1) {
        const Cx<T0>* src = z + j1 * m2 + j2;
        V r, i;
        for (std::size_t l = 0; l < L; ++l) {
          r[l] = src[l].r;
          i[l] = src[l].i;
        }
        col[j1] = {r, i};
      }
      col_->template exec<kFwd>(col, colscr);
      for (std::size_t k1 = 0; k1 < m1; ++k1) {
        V wr, wi;
        std::memcpy(&wr, &tw6r_[k1 * m2 + j2], sizeof(V));
        std::memcpy(&wi, &tw6i_[k1 * m2 + j2], sizeof(V));
        if constexpr (!kFwd) wi = -wi;
        const Cx<V> c = col[k1];
        const V xr = c.r * wr - c.i * wi, xi = c.r * wi + c.i * wr;
        std::memcpy(are + k1 * m2 + j2, &xr, sizeof(V));
        std::memcpy(aim + k1 * m2 + j2, &xi, sizeof(V));
      }
    }
    // Rows k1..k1+L: gather (transpose), FFT of m2, store Z[k1 + m1*k2] contiguously.
    for (std::size_t k1 = 0; k1 < m1; k1 += L) {
      for (std::size_t j2 = 0; j2 < m2; ++j2) {
        V r, i;
        for (std::size_t l = 0; l < L; ++l) {
          r[l] = are[(k1 + l) * m2 + j2];
          i[l] = aim[(k1 + l) * m2 + j2];
        }
        row[j2] = {r, i};
      }
      row_->template exec<kFwd>(row, rowscr);
      for (std::size_t k2 = 0; k2 < m2; ++k2) {
        Cx<T0>* dst = z + k2 * m1 + k1;
        const Cx<V> v = row[k2];
        for (std::size_t l = 0; l < L; ++l) dst[l] = {v.r[l], v.i[l]};
      }
    }
  }

  // Stages [first, last) from src, ping-ponging with dst; returns where the result is.
  template <bool kForward, class T>
  const Cx<T>* RunStages(std::size_t first, std::size_t last, Cx<T>* src, Cx<T>* dst) const {
    for (std::size_t i = first; i < last; ++i) {
      Stockham<T0>::template Pass<kForward>(stages_[i], src, dst);
      std::swap(src, dst);
    }
    return src;
  }

  std::unique_ptr<ComplexFFT<T0>> col_, row_;
  std::size_t m1_ = 0, m2_ = 0, six_scratch_ = 0;
  std::vector<T0> tw6r_, tw6i_;

  std::size_t n_;
  std::vector<typename Stockham<T0>::Stage> stages_;
  std::unique_ptr<ComplexFFT<T0>> blue_;
  std::vector<Cx<T0>> chirp_, chirp_fft_;
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
