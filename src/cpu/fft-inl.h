// Complex and real FFTs over "lane" values: T is a scalar (float/double) or a compiler vector
// holding the same element of several independent lines (pocketfft/DUCC "vectorise across
// transforms"). Written once; compiled per SIMD target by cpu_backend.cc (Highway
// foreach_target), hence the toggle include guard instead of #pragma once.
//
// ComplexFFT: self-sorting (Stockham) mixed-radix decimation in frequency, radices 4, 2, 3, 5 and
// a generic odd radix; lengths with a large prime factor go through Bluestein's chirp-z
// convolution (Bluestein 1970) on a 2^a 3^b 5^c length. Twiddles come from twiddle.hpp (long
// double, rounded once).
// RealFFT: a real length-n FFT as one complex FFT of n/2 points on the packed signal
// z_j = x_{2j} + i x_{2j+1} plus an O(n) split (the real-signal packing of seed 003); odd n runs
// a complex FFT of length n.

#if defined(DCTX_CPU_FFT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_FFT_INL_H_
#undef DCTX_CPU_FFT_INL_H_
#else
#define DCTX_CPU_FFT_INL_H_
#endif

#include <algorithm>
#include <memory>
#include <vector>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// Lane vector of this target: HWY_LANES(T0) elements of T0 in one GCC/Clang vector.
template <class T0>
struct LaneVec {
  static constexpr std::size_t kLanes = HWY_LANES(T0) >= 2 ? HWY_LANES(T0) : 2;
  typedef T0 type __attribute__((vector_size(sizeof(T0) * kLanes)));
};

/// A complex number of lanes.
template <class T>
struct Cx {
  T r, i;
};

template <class T>
inline Cx<T> operator+(const Cx<T>& a, const Cx<T>& b) {
  return {a.r + b.r, a.i + b.i};
}
template <class T>
inline Cx<T> operator-(const Cx<T>& a, const Cx<T>& b) {
  return {a.r - b.r, a.i - b.i};
}
/// a * w (kConj: a * conj(w)) with a scalar complex twiddle w.
template <bool kConj, class T, class T0>
inline Cx<T> MulW(const Cx<T>& a, const Cx<T0>& w) {
  if constexpr (kConj) {
    return {a.r * w.r + a.i * w.i, a.i * w.r - a.r * w.i};
  } else {
    return {a.r * w.r - a.i * w.i, a.r * w.i + a.i * w.r};
  }
}
/// i*a (kFwd false) or -i*a (kFwd true): the rotation of the DFT sign convention.
template <bool kNegI, class T>
inline Cx<T> RotI(const Cx<T>& a) {
  if constexpr (kNegI) {
    return {a.i, -a.r};
  } else {
    return {-a.i, a.r};
  }
}

template <class T0>
inline Cx<T0> ToCx(std::complex<long double> z) {
  return {static_cast<T0>(z.real()), static_cast<T0>(z.imag())};
}

constexpr std::size_t kMaxGenericRadix = 64;

template <class T0>
class ComplexFFT {
 public:
  /// `single_lines`: the FFT will also run on single scalar lines, so long ones get the six-step
  /// tables (only exec() on T0 data uses them; vector callers need not pay for them).
  explicit ComplexFFT(std::size_t n, bool single_lines = true) : n_(n) {
    if (n <= 1) return;
    std::vector<std::size_t> f = Factorize(n);
    if (UseBluestein(n, f)) {
      InitBluestein(single_lines);
      return;
    }
    std::size_t L = 1, M = n;
    for (std::size_t p : f) {
      Stage st;
      st.p = p;
      st.m = M / p;
      st.L = L;
      st.tw.resize(st.m * (p - 1));
      for (std::size_t n1 = 0; n1 < st.m; ++n1)
        for (std::size_t k = 1; k < p; ++k)
          st.tw[n1 * (p - 1) + k - 1] =
              ToCx<T0>(unit_root(static_cast<std::int64_t>(n1 * k), static_cast<std::int64_t>(M)));
      if (p % 2 == 1) {
        st.root.resize(p);
        for (std::size_t j = 0; j < p; ++j)
          st.root[j] =
              ToCx<T0>(unit_root(static_cast<std::int64_t>(j), static_cast<std::int64_t>(p)));
      }
      stages_.push_back(std::move(st));
      L *= p;
      M /= p;
    }
    if (single_lines) InitSixStep();
  }

  std::size_t size() const { return n_; }
  /// Complex elements of scratch that exec() needs (enough for T = T0 and for vector T).
  std::size_t scratch_len() const {
    if (blue_) return blue_->size() + blue_->scratch_len();
    return std::max(n_, six_scratch_);  // six_scratch_ (scalar units) ~ n plus a little
  }
  bool bluestein() const { return blue_ != nullptr; }
  /// The largest radix a direct factorization of n would need (above kMaxGenericRadix: Bluestein).
  static std::size_t LargestRadix(std::size_t n) {
    const std::vector<std::size_t> f = Factorize(n);
    return f.empty() ? 1 : *std::max_element(f.begin(), f.end());
  }

  /// In-place DFT of data[0..n): kForward uses exp(-2 pi i jk/n), else exp(+...). Unnormalised.
  template <bool kForward, class T>
  void exec(Cx<T>* data, Cx<T>* scratch) const {
    if (n_ <= 1) return;
    if (blue_) return ExecBluestein<kForward>(data, scratch);
    if constexpr (std::is_same_v<T, T0>) {
      if (col_) return ExecSixStep<kForward>(data, scratch);
    }
    Cx<T>* src = data;
    Cx<T>* dst = scratch;
    for (const Stage& st : stages_) {
      switch (st.p) {
        case 2: Pass2<kForward>(st, src, dst); break;
        case 3: Pass3<kForward>(st, src, dst); break;
        case 4: Pass4<kForward>(st, src, dst); break;
        case 5: Pass5<kForward>(st, src, dst); break;
        case 8: Pass8<kForward>(st, src, dst); break;
        default: PassOdd<kForward>(st, src, dst); break;
      }
      std::swap(src, dst);
    }
    if (src != data) std::copy(src, src + n_, data);
  }

 private:
  struct Stage {
    std::size_t p = 0, m = 0, L = 0;
    std::vector<Cx<T0>> tw;    // tw[n1*(p-1) + k-1] = exp(-2 pi i n1 k / (p m))
    std::vector<Cx<T0>> root;  // exp(-2 pi i j / p), generic odd radix
  };

  static std::vector<std::size_t> Factorize(std::size_t n) {
    std::vector<std::size_t> f;
    while (n % 8 == 0) {
      f.push_back(8);
      n /= 8;
    }
    while (n % 4 == 0) {
      f.push_back(4);
      n /= 4;
    }
    if (n % 2 == 0) {
      f.push_back(2);
      n /= 2;
    }
    for (std::size_t p = 3; p * p <= n; p += 2)
      while (n % p == 0) {
        f.push_back(p);
        n /= p;
      }
    if (n > 1) f.push_back(n);
    return f;
  }

  // Direct passes cost ~n*p per odd factor p; Bluestein ~3 FFTs of the padded length.
  static bool UseBluestein(std::size_t n, const std::vector<std::size_t>& f) {
    std::size_t big = 0;
    double direct = 0;
    for (std::size_t p : f) {
      big = std::max(big, p);
      direct += static_cast<double>(n) * (p > 5 ? static_cast<double>(p) : 4.0);
    }
    if (big <= 5) return false;
    if (big > kMaxGenericRadix) return true;
    const double m = static_cast<double>(good_fft_size(2 * n - 1));
    return 3.0 * m * std::log2(m) * 4.0 + 6.0 * m < direct;
  }

  template <bool kFwd, class T>
  void Pass2(const Stage& st, const Cx<T>* x, Cx<T>* y) const {
    const std::size_t m = st.m, L = st.L;
    for (std::size_t n1 = 0; n1 < m; ++n1) {
      const Cx<T>* x0 = x + n1 * L;
      const Cx<T>* x1 = x + (n1 + m) * L;
      Cx<T>* y0 = y + (n1 * 2) * L;
      Cx<T>* y1 = y0 + L;
      const Cx<T0> w = st.tw[n1];
      if (n1 == 0) {
        for (std::size_t s = 0; s < L; ++s) {
          Cx<T> a = x0[s], b = x1[s];
          y0[s] = a + b;
          y1[s] = a - b;
        }
      } else {
        for (std::size_t s = 0; s < L; ++s) {
          Cx<T> a = x0[s], b = x1[s];
          y0[s] = a + b;
          y1[s] = MulW<!kFwd>(a - b, w);
        }
      }
    }
  }

  template <bool kFwd, class T>
  void Pass4(const Stage& st, const Cx<T>* x, Cx<T>* y) const {
    const std::size_t m = st.m, L = st.L;
    for (std::size_t n1 = 0; n1 < m; ++n1) {
      const Cx<T>* x0 = x + n1 * L;
      const Cx<T>* x1 = x + (n1 + m) * L;
      const Cx<T>* x2 = x + (n1 + 2 * m) * L;
      const Cx<T>* x3 = x + (n1 + 3 * m) * L;
      Cx<T>* y0 = y + (n1 * 4) * L;
      const Cx<T0>* w = &st.tw[n1 * 3];
      for (std::size_t s = 0; s < L; ++s) {
        const Cx<T> a = x0[s] + x2[s], b = x0[s] - x2[s];
        const Cx<T> c = x1[s] + x3[s], d = RotI<kFwd>(x1[s] - x3[s]);
        const Cx<T> u0 = a + c, u1 = b + d, u2 = a - c, u3 = b - d;
        y0[s] = u0;
        if (n1 == 0) {
          y0[L + s] = u1;
          y0[2 * L + s] = u2;
          y0[3 * L + s] = u3;
        } else {
          y0[L + s] = MulW<!kFwd>(u1, w[0]);
          y0[2 * L + s] = MulW<!kFwd>(u2, w[1]);
          y0[3 * L + s] = MulW<!kFwd>(u3, w[2]);
        }
      }
    }
  }

  // Stores u_0..u_{p-1} of one butterfly, twiddled unless n1 == 0.
  template <bool kFwd, std::size_t P, class T>
  static void StoreTwiddled(Cx<T>* y0, std::size_t L, std::size_t s, const Cx<T> (&u)[P],
                            const Cx<T0>* w, bool first) {
    y0[s] = u[0];
    for (std::size_t k = 1; k < P; ++k) y0[k * L + s] = first ? u[k] : MulW<!kFwd>(u[k], w[k - 1]);
  }

  // 4-point DFT of c0..c3 into u[0], u[s], u[2s], u[3s].
  template <bool kFwd, class T>
  static void Dft4(const Cx<T>& c0, const Cx<T>& c1, const Cx<T>& c2, const Cx<T>& c3, Cx<T>* u,
                   std::size_t s) {
    const Cx<T> a = c0 + c2, b = c0 - c2, c = c1 + c3, d = RotI<kFwd>(c1 - c3);
    u[0] = a + c;
    u[s] = b + d;
    u[2 * s] = a - c;
    u[3 * s] = b - d;
  }

  // Radix 8 = two radix-4 halves: u_{2k} = DFT4(t_j + t_{j+4}), u_{2k+1} = DFT4((t_j - t_{j+4})
  // w8^j).
  template <bool kFwd, class T>
  void Pass8(const Stage& st, const Cx<T>* x, Cx<T>* y) const {
    const std::size_t m = st.m, L = st.L, ml = m * L;
    const T0 h = static_cast<T0>(0.707106781186547524400844362104849039L);  // 1/sqrt(2)
    for (std::size_t n1 = 0; n1 < m; ++n1) {
      const Cx<T>* x0 = x + n1 * L;
      Cx<T>* y0 = y + (n1 * 8) * L;
      for (std::size_t s = 0; s < L; ++s) {
        Cx<T> a[4], b[4];
        for (std::size_t j = 0; j < 4; ++j) {
          const Cx<T> p = x0[j * ml + s], q = x0[(j + 4) * ml + s];
          a[j] = p + q;
          b[j] = p - q;
        }
        // b_j * w8^j, w8 = exp(-+ 2 pi i / 8)
        const Cx<T> b1 = kFwd ? Cx<T>{(b[1].r + b[1].i) * h, (b[1].i - b[1].r) * h}
                              : Cx<T>{(b[1].r - b[1].i) * h, (b[1].i + b[1].r) * h};
        const Cx<T> b2 = RotI<kFwd>(b[2]);
        const Cx<T> b3 = kFwd ? Cx<T>{(b[3].i - b[3].r) * h, -(b[3].r + b[3].i) * h}
                              : Cx<T>{-(b[3].r + b[3].i) * h, (b[3].r - b[3].i) * h};
        Cx<T> u[8];
        Dft4<kFwd>(a[0], a[1], a[2], a[3], u, 2);
        Dft4<kFwd>(b[0], b1, b2, b3, u + 1, 2);
        StoreTwiddled<kFwd>(y0, L, s, u, &st.tw[n1 * 7], n1 == 0);
      }
    }
  }

  template <bool kFwd, class T>
  void Pass3(const Stage& st, const Cx<T>* x, Cx<T>* y) const {
    const std::size_t m = st.m, L = st.L;
    const T0 h = static_cast<T0>(0.866025403784438646763723170752936183L);  // sin(pi/3)
    for (std::size_t n1 = 0; n1 < m; ++n1) {
      const Cx<T>* x0 = x + n1 * L;
      Cx<T>* y0 = y + (n1 * 3) * L;
      for (std::size_t s = 0; s < L; ++s) {
        const Cx<T> t0 = x0[s], t1 = x0[m * L + s], t2 = x0[2 * m * L + s];
        const Cx<T> sum = t1 + t2, r = RotI<kFwd>(t1 - t2);
        const Cx<T> mid{t0.r - sum.r * T0(0.5), t0.i - sum.i * T0(0.5)};
        const Cx<T> rh{r.r * h, r.i * h};
        const Cx<T> u[3] = {t0 + sum, mid + rh, mid - rh};
        StoreTwiddled<kFwd>(y0, L, s, u, &st.tw[n1 * 2], n1 == 0);
      }
    }
  }

  template <bool kFwd, class T>
  void Pass5(const Stage& st, const Cx<T>* x, Cx<T>* y) const {
    const std::size_t m = st.m, L = st.L;
    const T0 c1 = static_cast<T0>(0.309016994374947424102293417182819059L);   // cos(2pi/5)
    const T0 c2 = static_cast<T0>(-0.809016994374947424102293417182819059L);  // cos(4pi/5)
    const T0 s1 = static_cast<T0>(0.951056516295153572116439333379382143L);   // sin(2pi/5)
    const T0 s2 = static_cast<T0>(0.587785252292473129168705954639072769L);   // sin(4pi/5)
    for (std::size_t n1 = 0; n1 < m; ++n1) {
      const Cx<T>* x0 = x + n1 * L;
      Cx<T>* y0 = y + (n1 * 5) * L;
      const std::size_t ml = m * L;
      for (std::size_t s = 0; s < L; ++s) {
        const Cx<T> t0 = x0[s], t1 = x0[ml + s], t2 = x0[2 * ml + s], t3 = x0[3 * ml + s],
                    t4 = x0[4 * ml + s];
        const Cx<T> sa = t1 + t4, da = t1 - t4, sb = t2 + t3, db = t2 - t3;
        const Cx<T> a1{t0.r + sa.r * c1 + sb.r * c2, t0.i + sa.i * c1 + sb.i * c2};
        const Cx<T> a2{t0.r + sa.r * c2 + sb.r * c1, t0.i + sa.i * c2 + sb.i * c1};
        const Cx<T> b1 = RotI<kFwd>(Cx<T>{da.r * s1 + db.r * s2, da.i * s1 + db.i * s2});
        const Cx<T> b2 = RotI<kFwd>(Cx<T>{da.r * s2 - db.r * s1, da.i * s2 - db.i * s1});
        const Cx<T> u[5] = {t0 + sa + sb, a1 + b1, a2 + b2, a2 - b2, a1 - b1};
        StoreTwiddled<kFwd>(y0, L, s, u, &st.tw[n1 * 4], n1 == 0);
      }
    }
  }

  // Odd radix p: u_k = t_0 + sum_{j=1}^{(p-1)/2} [cos(2pi jk/p)(t_j + t_{p-j})
  //                                              -+ i sin(2pi jk/p)(t_j - t_{p-j})], u_{p-k}
  //                                              likewise.
  template <bool kFwd, class T>
  void PassOdd(const Stage& st, const Cx<T>* x, Cx<T>* y) const {
    const std::size_t p = st.p, m = st.m, L = st.L, h = (p - 1) / 2;
    Cx<T> sum[kMaxGenericRadix / 2 + 1], dif[kMaxGenericRadix / 2 + 1];
    for (std::size_t n1 = 0; n1 < m; ++n1) {
      const Cx<T0>* w = &st.tw[n1 * (p - 1)];
      Cx<T>* yb = y + (n1 * p) * L;
      for (std::size_t s = 0; s < L; ++s) {
        const Cx<T> t0 = x[n1 * L + s];
        Cx<T> total = t0;
        for (std::size_t j = 1; j <= h; ++j) {
          const Cx<T> a = x[(n1 + j * m) * L + s], b = x[(n1 + (p - j) * m) * L + s];
          sum[j] = a + b;
          dif[j] = a - b;
          total = total + sum[j];
        }
        yb[s] = total;
        for (std::size_t k = 1; k <= h; ++k) {
          Cx<T> re = t0, im{T{}, T{}};
          std::size_t jk = 0;
          for (std::size_t j = 1; j <= h; ++j) {
            jk += k;
            if (jk >= p) jk -= p;
            const Cx<T0> r = st.root[jk];  // cos(2pi jk/p), -sin(2pi jk/p)
            re.r = re.r + sum[j].r * r.r;
            re.i = re.i + sum[j].i * r.r;
            im.r = im.r + dif[j].r * r.i;
            im.i = im.i + dif[j].i * r.i;
          }
          // Forward: u_k = re + i*im (im carries -sin); backward: re - i*im.
          const Cx<T> iim = RotI<false>(im);
          Cx<T> uk = kFwd ? re + iim : re - iim;
          Cx<T> ukc = kFwd ? re - iim : re + iim;
          if (n1 == 0) {
            yb[k * L + s] = uk;
            yb[(p - k) * L + s] = ukc;
          } else {
            yb[k * L + s] = MulW<!kFwd>(uk, w[k - 1]);
            yb[(p - k) * L + s] = MulW<!kFwd>(ukc, w[p - k - 1]);
          }
        }
      }
    }
  }

  // Bluestein: X_k = conj(b_k) sum_j (x_j conj(b_j)) b_{k-j}, b_j = exp(i pi j^2 / n), the
  // convolution done with FFTs of length m >= 2n-1. The backward DFT is conj(DFT(conj x)).
  void InitBluestein(bool single_lines) {
    const std::size_t m = good_fft_size(2 * n_ - 1);
    blue_ = std::make_unique<ComplexFFT<T0>>(m, single_lines);
    chirp_.resize(n_);
    const std::uint64_t twon = 2 * static_cast<std::uint64_t>(n_);
    for (std::size_t j = 0; j < n_; ++j) {
      const std::uint64_t jj = (static_cast<std::uint64_t>(j) * j) % twon;
      chirp_[j] =
          ToCx<T0>(unit_root(static_cast<std::int64_t>(jj), static_cast<std::int64_t>(twon), +1));
    }
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
    blue_->template exec<true>(a, inner);
    for (std::size_t j = 0; j < m; ++j) a[j] = MulW<false>(a[j], chirp_fft_[j]);
    blue_->template exec<false>(a, inner);
    for (std::size_t k = 0; k < n_; ++k) {
      Cx<T> z = MulW<true>(a[k], chirp_[k]);
      if (!kFwd) z.i = -z.i;
      data[k] = z;
    }
  }

  // Six-step FFT (Bailey 1990) for one long scalar sequence, so that a single line still runs on
  // vectors: n = m1*m2, z[j1*m2 + j2]; FFTs of length m1 down the columns, kSixLanes columns at a
  // time (contiguous loads), twiddle exp(-2 pi i j2 k1/n), then FFTs of length m2 along the rows,
  // kSixLanes rows at a time, written to Z[k1 + m1*k2] with contiguous stores.
  using SixV = typename LaneVec<T0>::type;
  static constexpr std::size_t kSixLanes = LaneVec<T0>::kLanes;
  static constexpr std::size_t kSixMin = 256;  // shorter sequences: the scalar passes win

  void InitSixStep() {
    if (n_ < kSixMin || kSixLanes < 4) return;
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
      tw6r_.resize(n_);
      tw6i_.resize(n_);
      for (std::size_t k1 = 0; k1 < m1; ++k1)
        for (std::size_t j2 = 0; j2 < m2; ++j2) {
          const Cx<T0> w = ToCx<T0>(
              unit_root(static_cast<std::int64_t>(j2 * k1), static_cast<std::int64_t>(n_)));
          tw6r_[k1 * m2 + j2] = w.r;
          tw6i_[k1 * m2 + j2] = w.i;
        }
      // Scratch in scalar complex units: planes re/im (n), column and row vectors with their
      // FFT scratch, and slack for 128-byte alignment of each piece.
      const std::size_t vec = kSixLanes;
      six_scratch_ = n_ + vec * (m1 + col_->scratch_len() + m2 + row_->scratch_len()) +
                     4 * 128 / sizeof(Cx<T0>);
      return;
    }
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

  std::unique_ptr<ComplexFFT<T0>> col_, row_;
  std::size_t m1_ = 0, m2_ = 0, six_scratch_ = 0;
  std::vector<T0> tw6r_, tw6i_;

  std::size_t n_;
  std::vector<Stage> stages_;
  std::unique_ptr<ComplexFFT<T0>> blue_;
  std::vector<Cx<T0>> chirp_, chirp_fft_;
};

template <class T0>
class RealFFT {
 public:
  explicit RealFFT(std::size_t n, bool single_lines = true)
      : n_(n), fft_(n % 2 == 0 ? n / 2 : n, single_lines) {
    if (n % 2 == 0) {
      tw_.resize(n / 2 + 1);
      for (std::size_t k = 0; k <= n / 2; ++k)
        tw_[k] = ToCx<T0>(unit_root(static_cast<std::int64_t>(k), static_cast<std::int64_t>(n)));
    }
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
    const std::size_t M = n / 2;
    for (std::size_t j = 0; j < M; ++j) out[j] = {in[2 * j], in[2 * j + 1]};
    fft_.template exec<true>(out, scratch);
    const Cx<T> z0 = out[0];
    const T zero{};
    out[0] = {z0.r + z0.i, zero};
    out[M] = {z0.r - z0.i, zero};
    for (std::size_t k = 1; 2 * k <= M; ++k) {
      const Cx<T> a = out[k], b = out[M - k];
      // E = (a + conj b)/2, O = -i (a - conj b)/2, X_k = E + W^k O, X_{M-k} = conj(E - W^k O).
      const Cx<T> e{(a.r + b.r) * T0(0.5), (a.i - b.i) * T0(0.5)};
      const Cx<T> o{(a.i + b.i) * T0(0.5), (b.r - a.r) * T0(0.5)};
      const Cx<T> wo = MulW<false>(o, tw_[k]);
      out[k] = e + wo;
      out[M - k] = {e.r - wo.r, wo.i - e.i};
    }
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
    const std::size_t M = n / 2;
    {
      const T a = in[0].r, b = in[M].r;
      in[0] = {a + b, a - b};
    }
    for (std::size_t k = 1; 2 * k <= M; ++k) {
      const Cx<T> a = in[k], b = in[M - k];
      // P = a + conj b, D = a - conj b, Q = i conj(W^k) D: Z_k = P + Q, Z_{M-k} = conj(P - Q).
      const Cx<T> P{a.r + b.r, a.i - b.i}, D{a.r - b.r, a.i + b.i};
      const Cx<T> Q = RotI<false>(MulW<true>(D, tw_[k]));
      in[k] = P + Q;
      in[M - k] = {P.r - Q.r, Q.i - P.i};
    }
    fft_.template exec<false>(in, scratch);
    for (std::size_t j = 0; j < M; ++j) {
      out[2 * j] = in[j].r;
      out[2 * j + 1] = in[j].i;
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
