// SPDX-License-Identifier: BSD-3-Clause
// One-dimensional DCT/DST types I-IV on a contiguous line of lanes, each reduced to one FFT with
// O(n) pre- and post-processing; the coefficients, with the scale factors (norm, orthogonalize)
// folded in, come from the core (core/r2r_tables.hpp).
//  - types II/III: Makhoul's N-point algorithm (J. Makhoul, "A fast cosine transform in one and
//    two dimensions", IEEE TASSP 1980; the "N-point DCT" of "A New Acceleration Paradigm for
//    Discrete Cosine Transform and Other Fourier-Related Transforms"): an even/odd reordering, one
//    real FFT of length n and a quarter-wave rotation exp(-i pi k/(2n)).
//  - DST-II/III: DST-II(x)_k = DCT-II((-1)^n x_n)_{n-1-k}; DST-III(x)_n = (-1)^n DCT-III(rev x)_n.
//  - DXST-II/III (DREAMPlace's shifted DST, dctx/types.hpp): DST-II with its output shifted up by
//    one (y_0 = 0), DST-III of the input shifted down by one: the reversals above then run over
//    x[1..n) and x[0] is zeroed, which also drops the orthogonalize entry.
//  - type IV, even n: one complex FFT of n/2 points on z_j = (x_{2j} + i x_{n-1-2j})
//    exp(-i pi (4j+1)/(4n)), post-rotation exp(-i pi k/n); odd n: a complex FFT of 2n points.
//    DST-IV(x)_k = (-1)^k DCT-IV(rev x)_k.
//  - DCT-I / DST-I: the real FFT of the even / odd symmetric extension (length 2(n-1) / 2(n+1)).
//  - RDFT-II / -III (FFTW's R2HC / HC2R): the real FFT of n points, its spectrum written to or
//    read from the halfcomplex order; for even n straight from and into the packed signal.

#if defined(DCTX_CPU_R2R_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_R2R_INL_H_
#undef DCTX_CPU_R2R_INL_H_
#else
#define DCTX_CPU_R2R_INL_H_
#endif

#include <utility>

#include "core/r2r_tables.hpp"
#include "cpu/real_fft-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// A 1D real-to-real transform of one length, with its normalisation folded in.
template <class T0>
class R2R {
 public:
  /// `t` is the transform actually computed (an inverse already mapped to its type); `fct` the
  /// overall scale; `ortho` applies scipy's orthogonalize corrections; `single_lines`: exec() will
  /// also run on single scalar lines (see ComplexFFT).
  R2R(AxisTransform t, std::size_t n, double fct, bool ortho, bool single_lines = true)
      : R2R(detail::r2r_tables<T0>(t, n, fct, ortho), single_lines) {}

  /// From the core's coefficients (core/r2r_tables.hpp).
  R2R(const detail::R2RTablesOf<T0>& c, bool single_lines)
      : t_(c.computed),
        n_(c.n),
        ortho_(c.ortho),
        dst_(c.computed.kind == Kind::DST || c.computed.kind == Kind::DXST),
        shift_(c.computed.kind == Kind::DXST),
        rdft_(c.computed.kind == Kind::RDFT),
        c0_(static_cast<T0>(c.c0)),
        tw_(ToCxTable<T0>(c.pre)),
        tw2_(ToCxTable<T0>(c.post)) {
    const std::size_t n = n_;
    // Every forward transform of an even line (types II, RDFT-II) takes the packed real FFT's
    // doubled spectrum (RealFFT::forward_packed): its coefficients are halved here, exactly (a
    // power of two), instead of the split halving every value.
    if (t_.type == 2 && n % 2 == 0) {
      c0_ *= T0(0.5);
      for (Cx<T0>& w : tw_) w = {w.r * T0(0.5), w.i * T0(0.5)};
    }
    if ((t_.type == 2 || t_.type == 3) && n % 2 == 0 && !rdft_) {
      // Makhoul's v: v_i = x_{2i}, v_{n-1-i} = x_{2i+1}.
      order_.resize(n);
      for (std::size_t i = 0; i < n; ++i)
        order_[i] = static_cast<std::uint32_t>(i % 2 == 0 ? i / 2 : n - 1 - i / 2);
    }
    if (rdft_ && t_.type == 2 && n % 2 == 0) {  // the packed signal is the line in memory order
      order_.resize(n);
      for (std::size_t i = 0; i < n; ++i) order_[i] = static_cast<std::uint32_t>(i);
    }
    if (t_.type == 2 && !dst_ && !order_.empty()) {
      unorder_.resize(n);
      for (std::size_t i = 0; i < n; ++i) unorder_[order_[i]] = static_cast<std::uint32_t>(i);
    }
    if (c.inner == detail::InnerFft::Real)
      rfft_ = std::make_unique<RealFFT<T0>>(c.inner_length, single_lines);
    else
      cfft_ = std::make_unique<ComplexFFT<T0>>(c.inner_length, single_lines);
    if (rdft_) {
      scratch_ = n / 2 + 1 + rfft_->scratch_len();
      return;
    }
    switch (t_.type) {
      case 2: scratch_ = (n + 1) / 2 + n / 2 + 1 + rfft_->scratch_len(); break;
      case 3: scratch_ = n / 2 + 1 + (n + 1) / 2 + rfft_->scratch_len(); break;
      case 4: scratch_ = c.inner_length + cfft_->scratch_len(); break;
      default:
        scratch_ =
            dst_ ? (n + 1) + (n + 2) + rfft_->scratch_len() : (n - 1) + n + rfft_->scratch_len();
        break;
    }
  }

  std::size_t size() const { return n_; }
  std::size_t scratch_len() const { return scratch_; }
  /// The transform computed (an inverse already mapped to its type).
  AxisTransform computed() const { return t_; }

  /// In place on x[0..n) (contiguous lanes); `s` holds scratch_len() complex lanes.
  template <class T>
  void exec(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    if (rdft_) return t_.type == 2 ? ExecR2HC(x, s) : ExecHC2R(x, s);
    switch (t_.type) {
      case 2: return Exec2(x, s);
      case 3: return Exec3(x, s);
      case 4: return n_ % 2 == 0 ? Exec4Even(x, s) : Exec4Odd(x, s);
      default: return dst_ ? ExecDst1(x, s) : ExecDct1(x, s);
    }
  }

  /// Where exec_gathered() wants element i of a line: lane vector gather_order()[i] of the
  /// gathered line (Makhoul's even/odd reordering; for RDFT-II, i itself). Null when the plan has
  /// no such entry point (anything but a DCT-II or RDFT-II of even length).
  const std::uint32_t* gather_order() const {
    return t_.type == 2 && !dst_ && n_ % 2 == 0 ? order_.data() : nullptr;
  }

  /// exec() of a line already scattered into `v` (n lanes, as n/2 complex ones; destroyed)
  /// through gather_order() by the N-D driver's gathers: one pass fewer than exec(); the result
  /// lands in x. `s`: scratch_len() complex lanes.
  template <class T>
  void exec_gathered(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT v, Cx<T>* HWY_RESTRICT s) const {
    if (rdft_) return rfft_->forward_packed(v, s, HalfcomplexStore(x));
    Exec2Packed<Mirror::None>(x, v, s);
  }

  /// Whether exec_gathered_from() applies: gather_order() is not null and the real FFT's first
  /// stage can read its input through a function (RealFFT::forward_from).
  bool gathers_from() const { return gather_order() && rfft_ && rfft_->forward_from(); }

  /// exec_gathered() of the line whose element i is in(i): the gather fused into the real FFT's
  /// first stage (the N-D driver's in-place passes over adjacent lines read the array so). The
  /// result lands in x; v (n/2 complex lanes) and s as for exec_gathered().
  template <class T, class In>
  void exec_gathered_from(In&& in, T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT v,
                          Cx<T>* HWY_RESTRICT s) const {
    const auto load = [&](std::size_t j) __attribute__((always_inline)) {
      return Cx<T>{in(unorder_[2 * j]), in(unorder_[2 * j + 1])};
    };
    if (rdft_) return rfft_->forward_packed_from(load, v, s, HalfcomplexStore(x));
    Exec2PackedBy<Mirror::None>(x,
                                [&](auto&& emit) { rfft_->forward_packed_from(load, v, s, emit); });
  }

  /// Where exec_scattered() leaves element i of a line: lane vector scatter_order()[i] of the
  /// array it returns (Makhoul's reordering, undone by the N-D driver's scatter). Null when the
  /// plan has no such entry point (anything but a DCT-III of even length).
  const std::uint32_t* scatter_order() const {
    return t_.type == 3 && !dst_ && !rdft_ && n_ % 2 == 0 ? order_.data() : nullptr;
  }

  /// exec() of the line x (n lanes, read only) without its last pass, the reordering: the
  /// result's element i is at v[scatter_order()[i]] of the returned v, which lies in `s`
  /// (scratch_len() complex lanes).
  template <class T>
  T* exec_scattered(const T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    return Exec3EvenUnordered<Mirror::None>(x, s);
  }

  /// exec_scattered() of the line whose element j is in(j) (the N-D driver's column blocks read
  /// it straight from the array).
  template <class T, class In>
  T* exec_scattered_from(In&& in, Cx<T>* HWY_RESTRICT s) const {
    return Exec3EvenUnorderedFrom(in, s);
  }

  /// Whether exec_pair() applies: a DCT/DST/DXST of type II or III and odd length, whose real
  /// FFT of n points is a complex one that can carry two lines at once.
  bool pairs() const { return n_ % 2 == 1 && n_ > 1 && !rdft_ && (t_.type == 2 || t_.type == 3); }

  /// exec() on two lines a and b (n lanes each, in place) with one complex FFT (pairs() only).
  template <class T>
  void exec_pair(T* HWY_RESTRICT a, T* HWY_RESTRICT b, Cx<T>* HWY_RESTRICT s) const {
    return t_.type == 2 ? Exec2Pair(a, b, s) : Exec3Pair(a, b, s);
  }

  std::string name() const {
    std::string r = rdft_ ? "RDFT-" : shift_ ? "DXST-" : dst_ ? "DST-" : "DCT-";
    static const char* roman[] = {"", "I", "II", "III", "IV"};
    r += roman[t_.type];
    const bool blue = (rfft_ && rfft_->bluestein()) || (cfft_ && cfft_->bluestein());
    return r + "(" + std::to_string(n_) + (blue ? ", Bluestein" : "") + ")";
  }

 private:
  template <class T>
  static void NegateOdd(T* x, std::size_t n) {
    for (std::size_t i = 1; i < n; i += 2) x[i] = -x[i];
  }

  // DST-II/III's reversal; for DXST the reversal of x[1..n) with x[0] = 0 (see the top).
  template <class T>
  void ReverseOrShift(T* x) const {
    if (!shift_) return std::reverse(x, x + n_);
    std::reverse(x + 1, x + n_);
    x[0] = T{};
  }

  // How a DST's reversal (or a DXST's shift, see ReverseOrShift) is folded into the passes of an
  // even length: the reversed input read in place (type III), the output written reversed
  // (type II).
  enum class Mirror : unsigned char { None, Reverse, Shift };
  Mirror mirror() const { return !dst_ ? Mirror::None : shift_ ? Mirror::Shift : Mirror::Reverse; }

  template <class T>
  void Exec2(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_;
    if (n % 2 == 0) {
      // Makhoul's reordering, with DST-II's sign alternation, straight into the packed input.
      T* v = reinterpret_cast<T*>(s);
      if (dst_)
        for (std::size_t i = 0; i < n; ++i) v[order_[i]] = i % 2 ? -x[i] : x[i];
      else
        for (std::size_t i = 0; i < n; ++i) v[order_[i]] = x[i];
      switch (mirror()) {
        case Mirror::None: return Exec2Packed<Mirror::None>(x, s, s + n / 2);
        case Mirror::Reverse: return Exec2Packed<Mirror::Reverse>(x, s, s + n / 2);
        case Mirror::Shift: return Exec2Packed<Mirror::Shift>(x, s, s + n / 2);
      }
    }
    if (dst_) NegateOdd(x, n);
    T* v = reinterpret_cast<T*>(s);
    Cx<T>* V = s + (n + 1) / 2;
    Cx<T>* rs = V + n / 2 + 1;
    for (std::size_t i = 0; i < (n + 1) / 2; ++i) v[i] = x[2 * i];
    for (std::size_t i = 0; i < n / 2; ++i) v[n - 1 - i] = x[2 * i + 1];
    rfft_->forward(v, V, rs);
    x[0] = V[0].r * c0_;
    for (std::size_t k = 1; 2 * k <= n; ++k) {
      const Cx<T> z = MulW<false>(V[k], tw_[k]);
      x[k] = z.r;
      if (n - k != k) x[n - k] = -z.i;
    }
    if (dst_) ReverseOrShift(x);
  }

  // Odd n, two lines: Exec2 with z_j = v_j(a) + i v_j(b) through the real FFT's forward_pair().
  template <class T>
  void Exec2Pair(T* HWY_RESTRICT a, T* HWY_RESTRICT b, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_;
    if (dst_) {
      NegateOdd(a, n);
      NegateOdd(b, n);
    }
    Cx<T>* z = s;
    for (std::size_t i = 0; i < (n + 1) / 2; ++i) z[i] = {a[2 * i], b[2 * i]};
    for (std::size_t i = 0; i < n / 2; ++i) z[n - 1 - i] = {a[2 * i + 1], b[2 * i + 1]};
    rfft_->forward_pair(
        z,
        s + n, [&](std::size_t k, const Cx<T>& A, const Cx<T>& B) __attribute__((always_inline)) {
          if (k == 0) {
            a[0] = A.r * c0_;
            b[0] = B.r * c0_;
            return;
          }
          const Cx<T> za = MulW<false>(A, tw_[k]), zb = MulW<false>(B, tw_[k]);
          a[k] = za.r;
          a[n - k] = -za.i;
          b[k] = zb.r;
          b[n - k] = -zb.i;
        });
    if (dst_) {
      ReverseOrShift(a);
      ReverseOrShift(b);
    }
  }

  // Even n: Makhoul's reordering already in v (see gather_order()), one pass from the packed
  // real FFT's output to x: its split and the rotation by tw_ fused, output k written where the
  // DST's reversal or the DXST's shift puts it. s: the FFT's scratch.
  template <Mirror kM, class T>
  void Exec2Packed(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT v, Cx<T>* HWY_RESTRICT s) const {
    Exec2PackedBy<kM>(x, [&](auto&& emit) { rfft_->forward_packed(v, s, emit); });
  }
  // Exec2Packed with the packed real FFT run by fft(emit) (RealFFT::forward_packed or
  // forward_packed_from).
  template <Mirror kM, class T, class Fft>
  HWY_INLINE void Exec2PackedBy(T* HWY_RESTRICT x, Fft&& fft) const {
    const std::size_t n = n_;
    const auto put = [&](std::size_t k, const T& value) __attribute__((always_inline)) {
      if constexpr (kM == Mirror::None) {
        x[k] = value;
      } else if constexpr (kM == Mirror::Reverse) {
        x[n - 1 - k] = value;
      } else if (k != 0) {
        x[n - k] = value;  // the shift drops output 0
      }
    };
    if constexpr (kM == Mirror::Shift) x[0] = T{};
    fft([&](std::size_t k, const Cx<T>& X) __attribute__((always_inline)) {
      if (k == 0) return put(0, X.r * c0_);  // X is 2 X_k, c0_ and tw_ halved (the constructor)
      const Cx<T> z = MulW<false>(X, tw_[k]);
      put(k, z.r);
      if (n - k != k) put(n - k, -z.i);
    });
  }

  template <class T>
  void Exec3(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_;
    if (n % 2 == 0) {
      switch (mirror()) {
        case Mirror::None: return Exec3Even<Mirror::None>(x, s);
        case Mirror::Reverse: return Exec3Even<Mirror::Reverse>(x, s);
        case Mirror::Shift: return Exec3Even<Mirror::Shift>(x, s);
      }
    }
    if (dst_) ReverseOrShift(x);
    Cx<T>* Z = s;
    T* v = reinterpret_cast<T*>(s + n / 2 + 1);
    Cx<T>* rs = s + n / 2 + 1 + (n + 1) / 2;
    Z[0] = {x[0] * c0_, T{}};
    for (std::size_t k = 1; 2 * k <= n; ++k) Z[k] = MulW<false>(Cx<T>{x[k], -x[n - k]}, tw_[k]);
    rfft_->backward(Z, v, rs);
    for (std::size_t j = 0; j < (n + 1) / 2; ++j) x[2 * j] = v[j];
    for (std::size_t j = 0; j < n / 2; ++j) x[2 * j + 1] = v[n - 1 - j];
    if (dst_) NegateOdd(x, n);
  }

  // Odd n, two lines: Exec3 through the real FFT's backward_pair().
  template <class T>
  void Exec3Pair(T* HWY_RESTRICT a, T* HWY_RESTRICT b, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_;
    if (dst_) {
      ReverseOrShift(a);
      ReverseOrShift(b);
    }
    Cx<T>* z = s;
    rfft_->backward_pair(
        [&](std::size_t k) __attribute__((always_inline)) {
          if (k == 0) return std::pair{Cx<T>{a[0] * c0_, T{}}, Cx<T>{b[0] * c0_, T{}}};
          return std::pair{MulW<false>(Cx<T>{a[k], -a[n - k]}, tw_[k]),
                           MulW<false>(Cx<T>{b[k], -b[n - k]}, tw_[k])};
        },
        z, s + n);
    for (std::size_t j = 0; j < (n + 1) / 2; ++j) {
      a[2 * j] = z[j].r;
      b[2 * j] = z[j].i;
    }
    for (std::size_t j = 0; j < n / 2; ++j) {
      a[2 * j + 1] = z[n - 1 - j].r;
      b[2 * j + 1] = z[n - 1 - j].i;
    }
    if (dst_) {
      NegateOdd(a, n);
      NegateOdd(b, n);
    }
  }

  // Even n: the rotation fused into the real FFT's inverse split, which reads the input through
  // the DST's reversal or the DXST's shift; the unpacking fused into the reordering, with the
  // DST's sign alternation.
  template <Mirror kM, class T>
  void Exec3Even(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_;
    const T* v = Exec3EvenUnordered<kM>(x, s);
    if constexpr (kM == Mirror::None) {
      for (std::size_t i = 0; i < n; ++i) x[i] = v[order_[i]];
    } else {
      for (std::size_t i = 0; i < n; ++i) x[i] = i % 2 ? -v[order_[i]] : v[order_[i]];
    }
  }

  // Exec3Even up to the reordering: the packed inverse real FFT's output, in s.
  template <Mirror kM, class T>
  T* Exec3EvenUnordered(const T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_;
    return Exec3EvenUnorderedFrom(
        [&](std::size_t j) __attribute__((always_inline)) {
          if constexpr (kM == Mirror::None) return x[j];
          if constexpr (kM == Mirror::Reverse) return x[n - 1 - j];
          return j == 0 ? T{} : x[n - j];
        },
        s);
  }
  template <class In, class T>
  T* Exec3EvenUnorderedFrom(const In& in, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_, m = n / 2;
    const Cx<T>* r = rfft_->backward_packed(
        [&](std::size_t k) __attribute__((always_inline)) {
          if (k == 0) return Cx<T>{in(0) * c0_, T{}};
          return MulW<false>(Cx<T>{in(k), -in(n - k)}, tw_[k]);
        },
        s, s + m);
    // r is s or s + m, both scratch of this call: the caller may write there.
    return reinterpret_cast<T*>(const_cast<Cx<T>*>(r));
  }

  template <class T>
  void Exec4Even(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_, m = n / 2;
    if (dst_) std::reverse(x, x + n);
    Cx<T>* z = s;
    for (std::size_t j = 0; j < m; ++j)
      z[j] = MulW<false>(Cx<T>{x[2 * j], x[n - 1 - 2 * j]}, tw_[j]);
    cfft_->template exec<true>(z, s + m);
    for (std::size_t k = 0; k < m; ++k) {
      const Cx<T> w = MulW<false>(z[k], tw2_[k]);
      x[2 * k] = w.r;
      x[n - 1 - 2 * k] = -w.i;
    }
    if (dst_) NegateOdd(x, n);
  }

  template <class T>
  void Exec4Odd(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_;
    if (dst_) std::reverse(x, x + n);
    Cx<T>* z = s;
    for (std::size_t j = 0; j < n; ++j) z[j] = {x[j] * tw_[j].r, x[j] * tw_[j].i};
    for (std::size_t j = n; j < 2 * n; ++j) z[j] = {T{}, T{}};
    cfft_->template exec<true>(z, s + 2 * n);
    for (std::size_t k = 0; k < n; ++k) x[k] = z[k].r * tw2_[k].r - z[k].i * tw2_[k].i;
    if (dst_) NegateOdd(x, n);
  }

  // Halfcomplex order: X_k.r at k <= n/2, X_k.i at n - k for 0 < k < n/2 (even n: the doubled
  // spectrum, c0_ halved).
  template <class T>
  auto HalfcomplexStore(T* HWY_RESTRICT x) const {
    return [ this, x ](std::size_t k, const Cx<T>& X) __attribute__((always_inline)) {
      x[k] = X.r * c0_;
      if (k != 0 && 2 * k != n_) x[n_ - k] = X.i * c0_;
    };
  }

  template <class T>
  void ExecR2HC(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_;
    const auto put = HalfcomplexStore(x);
    if (n % 2 == 0) {  // the lanes of x are the packed signal z_j = x_2j + i x_2j+1
      Cx<T>* z = s;
      for (std::size_t j = 0; j < n / 2; ++j) z[j] = {x[2 * j], x[2 * j + 1]};
      return rfft_->forward_packed(z, s + n / 2, put);
    }
    Cx<T>* X = s;
    rfft_->forward(x, X, s + n / 2 + 1);
    for (std::size_t k = 0; 2 * k < n; ++k) put(k, X[k]);
  }

  template <class T>
  void ExecHC2R(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_;
    const auto get = [&](std::size_t k) __attribute__((always_inline)) {
      const T zero{};
      return Cx<T>{x[k] * c0_, k == 0 || 2 * k == n ? zero : x[n - k] * c0_};
    };
    if (n % 2 == 0) {
      const Cx<T>* z = rfft_->backward_packed(get, s, s + n / 2);
      for (std::size_t j = 0; j < n / 2; ++j) {
        x[2 * j] = z[j].r;
        x[2 * j + 1] = z[j].i;
      }
      return;
    }
    Cx<T>* X = s;
    for (std::size_t k = 0; 2 * k < n; ++k) X[k] = get(k);
    rfft_->backward(X, x, s + n / 2 + 1);
  }

  template <class T>
  void ExecDct1(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_, m = 2 * (n - 1);
    T* e = reinterpret_cast<T*>(s);
    Cx<T>* X = s + (n - 1);
    const T0 s2 = static_cast<T0>(std::sqrt(2.0L));
    for (std::size_t j = 0; j < n; ++j) e[j] = x[j];
    if (ortho_) {
      e[0] = e[0] * s2;
      e[n - 1] = e[n - 1] * s2;
    }
    for (std::size_t j = 1; j + 1 < n; ++j) e[m - j] = x[j];
    rfft_->forward(e, X, X + n);
    for (std::size_t k = 0; k < n; ++k) x[k] = X[k].r * c0_;
    if (ortho_) {
      x[0] = x[0] / s2;
      x[n - 1] = x[n - 1] / s2;
    }
  }

  template <class T>
  void ExecDst1(T* HWY_RESTRICT x, Cx<T>* HWY_RESTRICT s) const {
    const std::size_t n = n_, m = 2 * (n + 1);
    T* e = reinterpret_cast<T*>(s);
    Cx<T>* X = s + (n + 1);
    e[0] = T{};
    e[n + 1] = T{};
    for (std::size_t j = 0; j < n; ++j) {
      e[j + 1] = x[j];
      e[m - 1 - j] = -x[j];
    }
    rfft_->forward(e, X, X + n + 2);
    for (std::size_t k = 0; k < n; ++k) x[k] = -X[k + 1].i * c0_;
  }

  AxisTransform t_;
  std::size_t n_;
  bool ortho_, dst_, shift_, rdft_;
  T0 c0_ = 1;                           // type II and RDFT-II of even n: halved (the constructor)
  std::vector<Cx<T0>> tw_, tw2_;        // tw_ likewise
  std::vector<std::uint32_t> order_;    // types II/III, even n: x_i's place in Makhoul's v
  std::vector<std::uint32_t> unorder_;  // type II with order_: the x_i at each place of v
  std::size_t scratch_ = 0;
  std::unique_ptr<RealFFT<T0>> rfft_;
  std::unique_ptr<ComplexFFT<T0>> cfft_;
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
