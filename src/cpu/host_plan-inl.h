// SPDX-License-Identifier: BSD-3-Clause
// What every CPU plan shares: the per-thread scratch arena and the host entry points of the
// back-end seam (core/backend.hpp) for a plan of one precision.

#if defined(DCTX_CPU_HOST_PLAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_HOST_PLAN_INL_H_
#undef DCTX_CPU_HOST_PLAN_INL_H_
#else
#define DCTX_CPU_HOST_PLAN_INL_H_
#endif

#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include <hwy/highway.h>

#include "core/backend.hpp"
#include "cpu/complex-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

inline const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

/// Per-thread scratch arena, 128-byte aligned, grown on demand and reused by every execution on
/// that thread (no allocation per call once warm). Callers must not nest uses of one slot: slot 0
/// holds worker line buffers, slot 1 a whole-array buffer shared by a call's workers (Fused2D).
template <int kSlot = 0>
void* ThreadScratch(std::size_t bytes) {
  struct Arena {
    void* p = nullptr;
    std::size_t cap = 0;
    ~Arena() { std::free(p); }
  };
  static thread_local Arena arena;
  if (bytes > arena.cap) {
    const std::size_t cap = (bytes + 4095) / 4096 * 4096;
    void* q = std::aligned_alloc(128, cap);
    if (!q) throw std::bad_alloc();
    std::free(arena.p);
    arena.p = q;
    arena.cap = cap;
  }
  return arena.p;
}

/// This thread's arena carved into `nvec` lane vectors and, 128-byte aligned after them, `ncx`
/// complex lane vectors: the line buffer and transform scratch of one worker.
template <class V>
std::pair<V*, Cx<V>*> ThreadLineBuffers(std::size_t nvec, std::size_t ncx) {
  const std::size_t vb = (nvec * sizeof(V) + 127) / 128 * 128;
  char* base = static_cast<char*>(ThreadScratch(vb + ncx * sizeof(Cx<V>)));
  return {reinterpret_cast<V*>(base), reinterpret_cast<Cx<V>*>(base + vb)};
}

/// Algorithm 3 of the acceleration-paradigm paper (PlanDesc::coefficient_threshold): x with
/// |x| < eps becomes 0 (NaN stays). T: a scalar or a lane vector; eps: its element type.
template <class T, class T0>
inline T ZeroBelow(const T& x, T0 eps) {
  const T a = x < 0 ? -x : x;
  return a < eps ? T{} : x;
}
template <class T, class T0>
inline void ZeroBelow(T* x, std::size_t n, T0 eps) {
  for (std::size_t i = 0; i < n; ++i) x[i] = ZeroBelow(x[i], eps);
}

/// The host entry points of a CPU plan of precision T0 (Derived::Run does the work): data of the
/// other precision is refused, and an input that partially overlaps the output is first copied
/// to a private C-ordered buffer (the overlap analysis is the core's).
template <class T0, class Derived>
class HostPlan : public detail::BackendPlan {
 public:
  void execute(const detail::HostCall<float>& call) const override { Dispatch(call); }
  void execute(const detail::HostCall<double>& call) const override { Dispatch(call); }

 private:
  template <class T>
  void Dispatch(const detail::HostCall<T>& c) const {
    const Derived& self = static_cast<const Derived&>(*this);
    if constexpr (!std::is_same_v<T, T0>) {
      throw Error(std::is_same_v<T0, float> ? "plan precision is float32 but the data is float64"
                                            : "plan precision is float64 but the data is float32");
    } else if (c.overlap == detail::Overlap::Partial) {
      RunFromCopy(c);
    } else {
      self.Run(c.in, c.in_strides, c.out, c.out_strides);
    }
  }

  // An input that partly overlaps the output: copied first (C order), out of line so that the
  // common call above keeps a small frame.
  HWY_NOINLINE void RunFromCopy(const detail::HostCall<T0>& c) const {
    const Derived& self = static_cast<const Derived&>(*this);
    const Shape& shape = self.shape();
    const std::size_t rank = shape.size();
    std::ptrdiff_t cs[detail::kMaxRank];
    std::size_t total = 1;
    for (std::size_t d = rank; d-- > 0;) {
      cs[d] = static_cast<std::ptrdiff_t>(total);
      total *= shape[d];
    }
    std::vector<T0> copy(total);
    std::size_t idx[detail::kMaxRank] = {};
    for (T0& v : copy) {
      std::ptrdiff_t off = 0;
      for (std::size_t d = 0; d < rank; ++d)
        off += static_cast<std::ptrdiff_t>(idx[d]) * c.in_strides[d];
      v = c.in[off];
      for (std::size_t d = rank; d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
    self.Run(copy.data(), cs, c.out, c.out_strides);
  }
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
