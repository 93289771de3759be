// SPDX-License-Identifier: BSD-3-Clause
// The radix passes of the CPU's complex FFT: radix 2, 3, 4, 5 and 8 butterflies and a generic
// odd radix up to detail::kMaxGenericRadix, each one pass of a self-sorting (Stockham)
// decimation-in-frequency FFT over lanes (complex-inl.h).

#if defined(DCTX_CPU_STOCKHAM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_STOCKHAM_INL_H_
#undef DCTX_CPU_STOCKHAM_INL_H_
#else
#define DCTX_CPU_STOCKHAM_INL_H_
#endif

#include <cstddef>
#include <vector>

#include "core/fft_tables.hpp"
#include "cpu/complex-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// The radix passes of a self-sorting (Stockham) mixed-radix decimation-in-frequency FFT with
/// the twiddles of one stage (core/fft_tables.hpp) in precision T0. A stage of radix p reads
/// x[(n1 + j m) L + s] and writes y[(n1 p + k) L + s] (n1 < m, j, k < p, s < L).
template <class T0>
struct Stockham {
  struct Stage {
    std::size_t p = 0, m = 0, L = 0;
    std::vector<Cx<T0>> tw;    // tw[n1*(p-1) + k-1] = exp(-2 pi i n1 k / (p m))
    std::vector<Cx<T0>> root;  // exp(-2 pi i j / p), generic odd radix
    explicit Stage(const detail::FftStage& s)
        : p(s.radix), m(s.m), L(s.L), tw(ToCxTable<T0>(s.twiddles)), root(ToCxTable<T0>(s.roots)) {}
  };

  /// One stage from x into y (no overlap).
  template <bool kFwd, class T>
  static void Pass(const Stage& st, const Cx<T>* x, Cx<T>* y) {
    switch (st.p) {
      case 2: Pass2<kFwd>(st, x, y); break;
      case 3: Pass3<kFwd>(st, x, y); break;
      case 4: Pass4<kFwd>(st, x, y); break;
      case 5: Pass5<kFwd>(st, x, y); break;
      case 8: Pass8<kFwd>(st, x, y); break;
      default: PassOdd<kFwd>(st, x, y); break;
    }
  }

  template <bool kFwd, class T>
  static void Pass2(const Stage& st, const Cx<T>* x, Cx<T>* y) {
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
  static void Pass4(const Stage& st, const Cx<T>* x, Cx<T>* y) {
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
  static void Pass8(const Stage& st, const Cx<T>* x, Cx<T>* y) {
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
  static void Pass3(const Stage& st, const Cx<T>* x, Cx<T>* y) {
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
  static void Pass5(const Stage& st, const Cx<T>* x, Cx<T>* y) {
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
  static void PassOdd(const Stage& st, const Cx<T>* x, Cx<T>* y) {
    const std::size_t p = st.p, m = st.m, L = st.L, h = (p - 1) / 2;
    Cx<T> sum[detail::kMaxGenericRadix / 2 + 1], dif[detail::kMaxGenericRadix / 2 + 1];
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
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
