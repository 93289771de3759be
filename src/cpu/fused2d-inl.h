// SPDX-License-Identifier: BSD-3-Clause
// Fused 2D DCT-II / DCT-III through one 2D real FFT with combined pre- and post-processing
// ("A New Acceleration Paradigm for Discrete Cosine Transform and Other Fourier-Related
// Transforms", Section III: Algorithm 2 and the symmetric post-processing of its Eq. 18; J.
// Makhoul, IEEE TASSP 1980, for the 2D N-point reordering).
//
// Forward (DCT-II along both axes), with v(n1,n2) = x(p1(n1), p2(n2)), p(r) = 2r for r < ceil(N/2)
// and 2(N-1-r)+1 otherwise, and V its 2D DFT:
//   y(k1,k2)    = 2 Re[ W1(k1) (A + B) ],   y(k1,N2-k2) = -2 Im[ W1(k1) (A - B) ],
//   A = W2(k2) V(k1,k2),  B = conj(W2(k2) V(N1-k1 mod N1, k2)),  W(k) = exp(-i pi k/(2N)) (scaled),
// so only the half spectrum k2 <= N2/2 is needed. Pass 1 (rows, lanes across rows): reorder and
// real FFT of each row into a planar complex buffer. Pass 2 (columns, lanes across columns):
// complex FFT of each column, then the post-processing writes output columns k2 and N2-k2 at once.
// Inverse (DCT-III along both axes): the same two passes backwards: pass 1 combines, per column
// pair (k2, N2-k2), Z2(k1) = (x(k1,k2) - i x(k1,N2-k2)) W2'(k2) and Z1(k1) = (Z2(k1) - i Z2(N1-k1))
// W1'(k1), then an inverse complex FFT along the column; pass 2 runs the inverse real FFT of each
// row and scatters it through p1 and p2.
// Pass 1 reads the whole input and notes its largest magnitude: an input whose 2D sums could
// overflow (or that holds inf or NaN) runs through the row-column plan instead, whose lines carry
// the range's edges (extremes-inl.h); the input is still intact then, even in place.

#if defined(DCTX_CPU_FUSED2D_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_FUSED2D_INL_H_
#undef DCTX_CPU_FUSED2D_INL_H_
#else
#define DCTX_CPU_FUSED2D_INL_H_
#endif

#include <atomic>
#include <limits>
#include <memory>
#include <mutex>

#include "cpu/nd_driver-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// True when `d` (normalised) is a 2D DCT-II or DCT-III over both axes of a rank-2 array.
inline bool Fused2DApplies(const PlanDesc& d) {
  if (d.shape.size() != 2 || d.axes.size() != 2) return false;
  for (const AxisTransform& t : d.transforms)
    if (t.kind != Kind::DCT || (t.type != 2 && t.type != 3) || t.type != d.transforms[0].type)
      return false;
  return d.shape[0] >= 2 && d.shape[1] >= 2;
}

template <class T0>
class Fused2DPlan final : public HostPlan<T0, Fused2DPlan<T0>> {
  using V = typename LaneVec<T0>::type;
  static constexpr std::size_t kLanes = LaneVec<T0>::kLanes;

 public:
  explicit Fused2DPlan(const PlanDesc& d) : Fused2DPlan(d, detail::fused2d_tables(d)) {}

  Fused2DPlan(const PlanDesc& d, const detail::Fused2DTables& t)
      : shape_(d.shape),
        n1_(d.shape[0]),
        n2_(d.shape[1]),
        h_(d.shape[1] / 2 + 1),
        threads_(d.cpu.threads),
        forward_(t.forward),
        rfft_(n2_, false),
        cfft_(n1_, false),  // vector lines only
        w1_(ToCxTable<T0>(t.w1)),
        w2_(ToCxTable<T0>(t.w2)),
        perm1_(t.perm1),
        perm2_(t.perm2),
        safe_max_(static_cast<T0>(std::numeric_limits<T0>::max() / (8.0L * n1_ * n2_))),
        zero_below_(static_cast<T0>(d.coefficient_threshold)),
        desc_(d) {}

  std::string describe() const override {
    return std::string("cpu[") + TargetName() + ", " + std::to_string(kLanes) + " lanes, threads " +
           std::to_string(threads_) + "] fused 2D " + (forward_ ? "DCT-II" : "DCT-III") + "(" +
           std::to_string(n1_) + "x" + std::to_string(n2_) + ") via one 2D real FFT;";
  }

 private:
  friend class HostPlan<T0, Fused2DPlan<T0>>;
  const Shape& shape() const { return shape_; }

  // W2 of the kLanes columns k0, k0+1, ... as one complex vector (clamped past the half spectrum).
  Cx<V> LaneTwiddles(std::size_t k0) const {
    Cx<V> w2;
    for (std::size_t l = 0; l < kLanes; ++l) {
      const Cx<T0> w = w2_[std::min(k0 + l, h_ - 1)];
      w2.r[l] = w.r;
      w2.i[l] = w.i;
    }
    return w2;
  }

  void Run(const T0* in, const std::ptrdiff_t* is, T0* out, const std::ptrdiff_t* os) const {
    // Planar half spectrum: re and im planes of n1 x hp (hp = h rounded up to whole vectors).
    // From the calling thread's second arena slot (the workers' line buffers use the first):
    // no allocation or page faults per call once warm.
    const std::size_t hp = (h_ + kLanes - 1) / kLanes * kLanes;
    // cim starts 3 cache lines past the end of cre: planes a multiple of 4 KiB apart would alias
    // in the L1 (docs/benchmarks.md).
    constexpr std::size_t kGap = 192 / sizeof(T0);
    T0* const cre = static_cast<T0*>(ThreadScratch<1>((2 * n1_ * hp + kGap) * sizeof(T0)));
    T0* const cim = cre + n1_ * hp + kGap;  // still aligned to a whole vector
    if (forward_) {
      // Pad columns h..hp are loaded into unused lanes by the column pass: keep them finite.
      for (std::size_t r = 0; r < n1_; ++r) {
        std::fill(cre + r * hp + h_, cre + (r + 1) * hp, T0(0));
        std::fill(cim + r * hp + h_, cim + (r + 1) * hp, T0(0));
      }
      if (!RowsForward(in, is, cre, cim, hp)) return RowColumn().Run(in, is, out, os);
      ColumnsForward(cre, cim, hp, out, os);
    } else {
      if (!ColumnsInverse(in, is, cre, cim, hp)) return RowColumn().Run(in, is, out, os);
      RowsInverse(cre, cim, hp, out, os);
    }
  }

  // The row-column plan of the same description, built on the first input that needs it (most
  // plans never see one: no second set of tables per plan).
  const CpuPlan<T0>& RowColumn() const {
    std::call_once(rowcol_once_, [this] { rowcol_ = std::make_unique<CpuPlan<T0>>(desc_); });
    return *rowcol_;
  }

  // Whether a group's input values, seen as lane vectors, stay below safe_max_ and are finite:
  // `amax` collects magnitudes, `nonfinite` x - x (NaN for inf and NaN).
  static void Note(const V& t, V& amax, V& nonfinite) {
    const V a = t < 0 ? -t : t;
    amax = amax > a ? amax : a;
    nonfinite += t - t;
  }
  bool InRange(const V& amax, const V& nonfinite) const {
    for (std::size_t l = 0; l < kLanes; ++l)
      if (!(nonfinite[l] == 0) || !(amax[l] <= safe_max_)) return false;
    return true;
  }

  // Pass 1 forward: row r of the buffer is the real FFT of the reordered row p1(r).
  // False (and the buffer unfinished) when the input is out of range.
  bool RowsForward(const T0* in, const std::ptrdiff_t* is, T0* cre, T0* cim, std::size_t hp) const {
    const std::size_t groups = (n1_ + kLanes - 1) / kLanes;
    std::atomic<bool> in_range{true};
    detail::parallel_for(threads_, groups, [&](std::size_t g0, std::size_t g1) {
      const auto [v, s] = ThreadLineBuffers<V>(n2_, h_ + rfft_.scratch_len());
      V amax{}, nonfinite{};
      for (std::size_t g = g0; g < g1; ++g) {
        const std::size_t r0 = g * kLanes, cnt = std::min(kLanes, n1_ - r0);
        const T0* rows[kLanes];
        for (std::size_t l = 0; l < kLanes; ++l)
          rows[l] = in + static_cast<std::ptrdiff_t>(perm1_[r0 + std::min(l, cnt - 1)]) * is[0];
        for (std::size_t j = 0; j < n2_; ++j) {
          const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(perm2_[j]) * is[1];
          V t;
          for (std::size_t l = 0; l < kLanes; ++l) t[l] = rows[l][o];
          Note(t, amax, nonfinite);
          v[j] = t;
        }
        rfft_.forward(v, s, s + h_);
        for (std::size_t k = 0; k < h_; ++k)
          for (std::size_t l = 0; l < cnt; ++l) {
            cre[(r0 + l) * hp + k] = s[k].r[l];
            cim[(r0 + l) * hp + k] = s[k].i[l];
          }
      }
      if (!InRange(amax, nonfinite)) in_range.store(false, std::memory_order_relaxed);
    });
    return in_range.load(std::memory_order_relaxed);
  }

  // Pass 2 forward: column FFTs and the symmetric post-processing into output columns k2, N2-k2.
  void ColumnsForward(const T0* cre, const T0* cim, std::size_t hp, T0* out,
                      const std::ptrdiff_t* os) const {
    const std::size_t groups = hp / kLanes;
    detail::parallel_for(threads_, groups, [&](std::size_t g0, std::size_t g1) {
      Cx<V>* const z = ThreadLineBuffers<V>(0, n1_ + cfft_.scratch_len()).second;
      for (std::size_t g = g0; g < g1; ++g) {
        const std::size_t k0 = g * kLanes, cnt = std::min(kLanes, h_ - k0);
        for (std::size_t r = 0; r < n1_; ++r) {
          std::memcpy(&z[r].r, cre + r * hp + k0, sizeof(V));
          std::memcpy(&z[r].i, cim + r * hp + k0, sizeof(V));
        }
        cfft_.template exec<true>(z, z + n1_);
        const Cx<V> w2 = LaneTwiddles(k0);
        for (std::size_t k1 = 0; k1 < n1_; ++k1) {
          const std::size_t k1c = k1 == 0 ? 0 : n1_ - k1;
          const Cx<V> a = CMul(w2, z[k1]), bc = CMul(w2, z[k1c]);
          const Cx<V> sum{a.r + bc.r, a.i - bc.i}, dif{a.r - bc.r, a.i + bc.i};
          const Cx<T0> w1 = w1_[k1];
          V y0 = sum.r * w1.r - sum.i * w1.i;     // Re(w1 * (A + B))
          V y1 = -(dif.r * w1.i + dif.i * w1.r);  // -Im(w1 * (A - B))
          if (zero_below_ > 0) {  // Algorithm 3's compression, in the post-processing
            y0 = ZeroBelow(y0, zero_below_);
            y1 = ZeroBelow(y1, zero_below_);
          }
          T0* row = out + static_cast<std::ptrdiff_t>(k1) * os[0];
          for (std::size_t l = 0; l < cnt; ++l) {
            const std::size_t k2 = k0 + l;
            row[static_cast<std::ptrdiff_t>(k2) * os[1]] = y0[l];
            if (k2 != 0 && n2_ - k2 != k2)
              row[static_cast<std::ptrdiff_t>(n2_ - k2) * os[1]] = y1[l];
          }
        }
      }
    });
  }

  // Pass 1 inverse: combine the column pair (k2, N2-k2), pre-rotate along both axes, inverse FFT.
  // False (and the buffer unfinished) when the input is out of range.
  bool ColumnsInverse(const T0* in, const std::ptrdiff_t* is, T0* cre, T0* cim,
                      std::size_t hp) const {
    const std::size_t groups = hp / kLanes;
    std::atomic<bool> in_range{true};
    detail::parallel_for(threads_, groups, [&](std::size_t g0, std::size_t g1) {
      Cx<V>* const z2 = ThreadLineBuffers<V>(0, 2 * n1_ + cfft_.scratch_len()).second;
      V amax{}, nonfinite{};
      for (std::size_t g = g0; g < g1; ++g) {
        const std::size_t k0 = g * kLanes, cnt = std::min(kLanes, h_ - k0);
        Cx<V>* z = z2 + n1_;
        const Cx<V> w2 = LaneTwiddles(k0);
        for (std::size_t k1 = 0; k1 < n1_; ++k1) {
          const T0* row = in + static_cast<std::ptrdiff_t>(k1) * is[0];
          V a{}, b{};
          for (std::size_t l = 0; l < cnt; ++l) {
            const std::size_t k2 = k0 + l;
            a[l] = row[static_cast<std::ptrdiff_t>(k2) * is[1]];
            b[l] = k2 == 0 ? T0(0) : row[static_cast<std::ptrdiff_t>(n2_ - k2) * is[1]];
          }
          Note(a, amax, nonfinite);
          Note(b, amax, nonfinite);
          if (zero_below_ > 0) {  // Algorithm 3's compression, in the pre-processing
            a = ZeroBelow(a, zero_below_);
            b = ZeroBelow(b, zero_below_);
          }
          z2[k1] = CMul(w2, Cx<V>{a, -b});  // (x(k1,k2) - i x(k1,N2-k2)) W2'
        }
        for (std::size_t k1 = 0; k1 < n1_; ++k1) {
          const Cx<V> u = z2[k1];
          const Cx<V> m = k1 == 0 ? Cx<V>{V{}, V{}} : z2[n1_ - k1];
          z[k1] = MulW<false>(Cx<V>{u.r + m.i, u.i - m.r}, w1_[k1]);  // (u - i m) W1'
        }
        cfft_.template exec<false>(z, z + n1_);
        for (std::size_t r = 0; r < n1_; ++r) {
          std::memcpy(cre + r * hp + k0, &z[r].r, sizeof(V));
          std::memcpy(cim + r * hp + k0, &z[r].i, sizeof(V));
        }
      }
      if (!InRange(amax, nonfinite)) in_range.store(false, std::memory_order_relaxed);
    });
    return in_range.load(std::memory_order_relaxed);
  }

  // Pass 2 inverse: inverse real FFT of each row, scattered through p1 (rows) and p2 (columns).
  void RowsInverse(const T0* cre, const T0* cim, std::size_t hp, T0* out,
                   const std::ptrdiff_t* os) const {
    const std::size_t groups = (n1_ + kLanes - 1) / kLanes;
    detail::parallel_for(threads_, groups, [&](std::size_t g0, std::size_t g1) {
      const auto [v, s] = ThreadLineBuffers<V>(n2_, h_ + rfft_.scratch_len());
      for (std::size_t g = g0; g < g1; ++g) {
        const std::size_t r0 = g * kLanes, cnt = std::min(kLanes, n1_ - r0);
        for (std::size_t k = 0; k < h_; ++k) {
          Cx<V> c{V{}, V{}};
          for (std::size_t l = 0; l < cnt; ++l) {
            c.r[l] = cre[(r0 + l) * hp + k];
            c.i[l] = cim[(r0 + l) * hp + k];
          }
          s[k] = c;
        }
        rfft_.backward(s, v, s + h_);
        for (std::size_t l = 0; l < cnt; ++l) {
          T0* row = out + static_cast<std::ptrdiff_t>(perm1_[r0 + l]) * os[0];
          for (std::size_t j = 0; j < n2_; ++j)
            row[static_cast<std::ptrdiff_t>(perm2_[j]) * os[1]] = v[j][l];
        }
      }
    });
  }

  static Cx<V> CMul(const Cx<V>& a, const Cx<V>& b) {
    return {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
  }

  Shape shape_;
  std::size_t n1_, n2_, h_;
  int threads_;
  bool forward_;
  RealFFT<T0> rfft_;
  ComplexFFT<T0> cfft_;
  std::vector<Cx<T0>> w1_, w2_;
  std::vector<std::size_t> perm1_, perm2_;
  T0 safe_max_;    // inputs above it could overflow the 2D sums (|sum| <= 8 n1 n2 max|x|)
  T0 zero_below_;  // PlanDesc::coefficient_threshold (0: off)
  PlanDesc desc_;
  mutable std::once_flag rowcol_once_;
  mutable std::unique_ptr<CpuPlan<T0>> rowcol_;
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
