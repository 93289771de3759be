// SPDX-License-Identifier: BSD-3-Clause
// The radix passes of the CPU's complex FFT: the generated butterflies of radix 2, 3, 4, 5, 7, 8
// and 16 (dft_butterflies-inl.h, from tools/gen_butterflies.py) and a generic odd radix up to
// detail::kMaxGenericRadix, each one pass of a self-sorting (Stockham) decimation-in-frequency FFT
// over lanes (complex-inl.h).

#if defined(DCTX_CPU_STOCKHAM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_STOCKHAM_INL_H_
#undef DCTX_CPU_STOCKHAM_INL_H_
#else
#define DCTX_CPU_STOCKHAM_INL_H_
#endif

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "core/fft_tables.hpp"
#include "cpu/complex-inl.h"
#include "cpu/dft_butterflies-inl.h"
#include "dctx/types.hpp"

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
      case 2: PassRadix<kFwd, 2>(st, x, y); break;
      case 3: PassRadix<kFwd, 3>(st, x, y); break;
      case 4: PassRadix<kFwd, 4>(st, x, y); break;
      case 5: PassRadix<kFwd, 5>(st, x, y); break;
      case 7: PassRadix<kFwd, 7>(st, x, y); break;
      case 8: PassRadix<kFwd, 8>(st, x, y); break;
      case 16: PassRadix<kFwd, 16>(st, x, y); break;
      default: PassOdd<kFwd>(st, x, y); break;
    }
  }

  /// The last stage (m = 1: no twiddles) of a radix with a generated butterfly, its outputs
  /// handed to `store(index, value)` instead of stored, so that a caller's pointwise pass fuses
  /// with it (complex_fft-inl.h, Bluestein's products).
  template <bool kFwd, class T, class Store>
  static void LastPass(const Stage& st, const Cx<T>* x, Store&& store) {
    WithButterfly(st.p, "last",
                  [&](auto p) { LastPassRadix<kFwd, decltype(p)::value>(st, x, store); });
  }

  /// The first stage (L = 1) of a radix with a generated butterfly on the input whose element q
  /// is load(q): a caller's gather fused into it (real_fft-inl.h, forward_packed_from).
  template <bool kFwd, class T, class Load>
  static void FirstPassFrom(const Stage& st, Load& load, Cx<T>* y) {
    WithButterfly(st.p, "first",
                  [&](auto p) { FirstPassRadixFrom<kFwd, decltype(p)::value>(st, load, y); });
  }

  // f(std::integral_constant<std::size_t, p>{}) for a radix p with a generated butterfly.
  template <class F>
  static void WithButterfly(std::size_t p, const char* which, F&& f) {
    switch (p) {
      case 2: return f(std::integral_constant<std::size_t, 2>{});
      case 3: return f(std::integral_constant<std::size_t, 3>{});
      case 4: return f(std::integral_constant<std::size_t, 4>{});
      case 5: return f(std::integral_constant<std::size_t, 5>{});
      case 7: return f(std::integral_constant<std::size_t, 7>{});
      case 8: return f(std::integral_constant<std::size_t, 8>{});
      case 16: return f(std::integral_constant<std::size_t, 16>{});
      default:
        throw Error(std::string("internal: no generated butterfly for a ") + which +
                    " pass of radix " + std::to_string(p));
    }
  }

  // PassRadix's first stage (L = 1) with x[q] = load(q): the same operations in the same order.
  template <bool kFwd, std::size_t P, class T, class Load>
  static void FirstPassRadixFrom(const Stage& st, Load& load, Cx<T>* y) {
    const std::size_t m = st.m;
    Cx<T> t[P];
    for (std::size_t j = 0; j < P; ++j) t[j] = load(j * m);
    Butterfly<kFwd, T0, P>::Run(t, 1, [&](auto k, Cx<T> u) { y[decltype(k)::value] = u; });
    for (std::size_t n1 = 1; n1 < m; ++n1) {
      for (std::size_t j = 0; j < P; ++j) t[j] = load(n1 + j * m);
      TwiddledButterfly<kFwd, P>(t, 1, y + n1 * P, 1, &st.tw[n1 * (P - 1)]);
    }
  }

  template <bool kFwd, std::size_t P, class T, class Store>
  static void LastPassRadix(const Stage& st, const Cx<T>* x, Store& store) {
    const std::size_t L = st.L;
    for (std::size_t s = 0; s < L; ++s)
      Butterfly<kFwd, T0, P>::Run(x + s, L,
                                  [&](auto k, Cx<T> u) { store(decltype(k)::value * L + s, u); });
  }

  // A radix with a generated butterfly (dft_butterflies-inl.h): for each n1 < m and s < L, the
  // P-point DFT of x[(n1 + j m) L + s] into y[(n1 P + k) L + s], twiddled by tw[n1 (P-1) + k-1]
  // unless n1 == 0 (its own loop, so the inner loop has no branch). A first stage (L = 1: one
  // butterfly per set of twiddles) runs without the loop over s, from which the compiler hoisted
  // the P - 1 twiddles of a single butterfly and spilled them.
  template <bool kFwd, std::size_t P, class T>
  static void PassRadix(const Stage& st, const Cx<T>* x, Cx<T>* y) {
    static_assert(HasButterfly(P));
    const std::size_t m = st.m, L = st.L, ml = m * L;
    for (std::size_t s = 0; s < L; ++s)
      Butterfly<kFwd, T0, P>::Run(x + s, ml,
                                  [&](auto k, Cx<T> u) { y[decltype(k)::value * L + s] = u; });
    for (std::size_t n1 = 1; n1 < m; ++n1) {
      const Cx<T>* x0 = x + n1 * L;
      Cx<T>* y0 = y + (n1 * P) * L;
      const Cx<T0>* w = &st.tw[n1 * (P - 1)];
      if (L == 1) {
        TwiddledButterfly<kFwd, P>(x0, ml, y0, 1, w);
      } else {
        for (std::size_t s = 0; s < L; ++s) TwiddledButterfly<kFwd, P>(x0 + s, ml, y0 + s, L, w);
      }
    }
  }

  // The P-point DFT of x[j stride] into y[k L], twiddled by w[k-1] for k > 0.
  template <bool kFwd, std::size_t P, class T>
  static HWY_INLINE void TwiddledButterfly(const Cx<T>* x, std::size_t stride, Cx<T>* y,
                                           std::size_t L, const Cx<T0>* w) {
    Butterfly<kFwd, T0, P>::Run(x, stride, [&](auto k, Cx<T> u) {
      constexpr std::size_t kK = decltype(k)::value;
      if constexpr (kK == 0) {
        y[0] = u;
      } else {
        y[kK * L] = MulW<!kFwd>(u, w[kK - 1]);
      }
    });
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
