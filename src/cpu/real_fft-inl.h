// SPDX-License-Identifier: BSD-3-Clause
// The CPU's real FFT over lanes (a half-length complex FFT and the split of the packed
// spectrum), the inner FFT of the DCT/DST reductions.

#if defined(DCTX_CPU_REAL_FFT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_REAL_FFT_INL_H_
#undef DCTX_CPU_REAL_FFT_INL_H_
#else
#define DCTX_CPU_REAL_FFT_INL_H_
#endif

#include <cstddef>
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
      : n_(n), fft_(n % 2 == 0 ? n / 2 : n, single_lines) {
    if (n % 2 == 0) tw_ = ToCxTable<T0>(detail::real_fft_split_twiddles<T0>(n));
  }
  std::size_t size() const { return n_; }
  bool bluestein() const { return fft_.bluestein(); }
  /// Complex lanes of scratch needed by forward/backward (besides their in/out arrays).
  std::size_t scratch_len() const { return (n_ % 2 == 0 ? 0 : n_) + fft_.scratch_len(); }

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
    forward_packed(out, scratch, [&](std::size_t k, const Cx<T>& X) { out[k] = X; });
  }

  /// forward() for even n on an input already packed in z[0..n/2) (z_j = in[2j] + i in[2j+1]:
  /// the n lanes of a real line in memory order), with no copies: `emit(k, X_k)` receives each
  /// X_k, k = 0..n/2, once. The split is fused into whatever emit does with X_k (the DCT's
  /// rotation, r2r-inl.h). z is destroyed; `scratch` holds scratch_len() complex lanes.
  template <class T, class Emit>
  void forward_packed(Cx<T>* z, Cx<T>* scratch, Emit&& emit) const {
    const std::size_t M = n_ / 2;
    const Cx<T>* out = fft_.template exec_to<true>(z, scratch);
    const Cx<T> z0 = out[0];
    const T zero{};
    emit(std::size_t{0}, Cx<T>{z0.r + z0.i, zero});
    emit(M, Cx<T>{z0.r - z0.i, zero});
    for (std::size_t k = 1; 2 * k <= M; ++k) {
      const Cx<T> a = out[k], b = out[M - k];
      const Cx<T> e{(a.r + b.r) * T0(0.5), (a.i - b.i) * T0(0.5)};
      const Cx<T> o{(a.i + b.i) * T0(0.5), (b.r - a.r) * T0(0.5)};
      const Cx<T> wo = MulW<false>(o, tw_[k]);
      emit(k, e + wo);
      if (2 * k != M) emit(M - k, Cx<T>{e.r - wo.r, wo.i - e.i});
    }
  }

  /// backward() for even n with the output left packed: `load(k)` returns X_k (k = 0..n/2, each
  /// called once, after which X may change); the result out[2j] + i out[2j+1] is at the returned
  /// pointer, z[0..n/2) or scratch, so the caller's reordering reads it in place.
  template <class T, class Load>
  const Cx<T>* backward_packed(Load&& load, Cx<T>* z, Cx<T>* scratch) const {
    const std::size_t M = n_ / 2;
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
  std::size_t n_;
  ComplexFFT<T0> fft_;
  std::vector<Cx<T0>> tw_;  // exp(-2 pi i k/n), k = 0..n/2
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
