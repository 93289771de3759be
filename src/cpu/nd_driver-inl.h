// SPDX-License-Identifier: BSD-3-Clause
// N-D driver of the CPU back end: for each transformed axis, gather kLanes lines into a
// lane-interleaved buffer (one compiler vector per element), run the 1D transform once on
// vectors, scatter back. Lines adjacent in memory are loaded as whole vectors. The first axis reads
// the input and writes the output; later axes work in place on the output. A line whose output is
// not finite is computed again from its input, which is still intact before the scatter
// (extremes-inl.h: inputs near the top of the range, infinities).

#if defined(DCTX_CPU_ND_DRIVER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DCTX_CPU_ND_DRIVER_INL_H_
#undef DCTX_CPU_ND_DRIVER_INL_H_
#else
#define DCTX_CPU_ND_DRIVER_INL_H_
#endif

#include <algorithm>
#include <atomic>
#include <tuple>

#include "core/thread_pool.hpp"
#include "cpu/extremes-inl.h"
#include "cpu/host_plan-inl.h"
#include "cpu/line_moves-inl.h"
#include "cpu/r2r-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dctx::cpu::HWY_NAMESPACE {

/// The number of elements of an array of shape `s`.
inline std::size_t TotalSize(const Shape& s) {
  std::size_t t = 1;
  for (auto e : s) t *= e;
  return t;
}

template <class T0>
class CpuPlan final : public HostPlan<T0, CpuPlan<T0>>, private LineMoves<T0> {
  using Moves = LineMoves<T0>;
  using Moves::At, Moves::Consecutive, Moves::FarApart, Moves::Gather, Moves::kLanes,
      Moves::LineOffsets, Moves::Scatter, Moves::StreamFence, Moves::StreamStore;
  using typename Moves::V;

 public:
  explicit CpuPlan(const PlanDesc& d)
      : shape_(d.shape),
        threads_(d.cpu.threads),
        zero_below_(static_cast<T0>(d.coefficient_threshold)),
        threshold_inputs_(d.direction == Direction::Inverse) {
    for (std::size_t i = 0; i < d.axes.size(); ++i) {
      const std::size_t axis = static_cast<std::size_t>(d.axes[i]);
      const AxisTransform t = d.transforms[i];
      const std::size_t n = d.shape[axis];
      const std::size_t nlines = TotalSize(d.shape) / n;
      const AxisTransform eff{t.kind, detail::effective_type(d, t)};
      axes_.push_back(Axis{axis, R2R<T0>(eff, n, detail::axis_scale(d, t, n), *d.orthogonalize,
                                         SingleLines(nlines))});
    }
    // A 2D array under kRowsFirstBytes transformed over both axes runs its last axis (the rows
    // of a C-ordered array) first, so that the column pass runs in place on an output still in
    // the caches; from kRowsFirstBytes on, the columns first, whose blocks then stream the
    // output out (docs/benchmarks.md, "Which axis first"). Fixed here, not by the call's
    // strides, so that every layout gives the same bits.
    if (axes_.size() == 2 && shape_.size() == 2 && TotalSize(shape_) * sizeof(T0) < kRowsFirstBytes)
      first_axis_ = axes_[1].axis == 1 ? 1 : 0;
  }

  std::string describe() const override {
    std::string r = std::string("cpu[") + TargetName() + ", " + std::to_string(kLanes) +
                    " lanes, threads " + std::to_string(threads_) + "]";
    for (const Axis& a : axes_) r += " axis " + std::to_string(a.axis) + ": " + a.r2r.name() + ";";
    return r;
  }

 private:
  friend class HostPlan<T0, CpuPlan<T0>>;
  struct Axis {
    std::size_t axis;
    R2R<T0> r2r;
  };
  // A group of `lines` lines runs as scalar code when vectors would mostly carry padding.
  static constexpr bool SingleLines(std::size_t lines) { return lines * 4 <= kLanes; }

  const Shape& shape() const { return shape_; }

 public:
  // Also the fallback of the fused 2D plan (fused2d-inl.h) for inputs at the edge of the range.
  // With a coefficient threshold, an inverse plan zeroes the small inputs of its first axis pass
  // after the gather, a forward plan the small outputs of its last one before the scatter.
  void Run(const T0* in, const std::ptrdiff_t* is, T0* out, const std::ptrdiff_t* os) const {
    for (std::size_t i = 0; i < axes_.size(); ++i) {
      Threshold th = Threshold::None;
      if (zero_below_ > 0 && threshold_inputs_ && i == 0) th = Threshold::Inputs;
      if (zero_below_ > 0 && !threshold_inputs_ && i + 1 == axes_.size()) th = Threshold::Outputs;
      const Axis& a = axes_[(first_axis_ + i) % axes_.size()];
      if (i == 0)
        RunAxis(a, in, is, out, os, th);
      else
        RunAxis(a, out, os, out, os, th);
    }
  }

 private:
  enum class Threshold : unsigned char { None, Inputs, Outputs };

  // One axis: lines enumerated over the other axes, innermost fastest.
  void RunAxis(const Axis& a, const T0* in, const std::ptrdiff_t* is, T0* out,
               const std::ptrdiff_t* os, Threshold th) const {
    const std::size_t rank = shape_.size(), n = shape_[a.axis];
    std::size_t ext[detail::kMaxRank];
    std::ptrdiff_t sin[detail::kMaxRank], sout[detail::kMaxRank];
    std::size_t nd = 0, nlines = 1;
    for (std::size_t d = 0; d < rank; ++d) {
      if (d == a.axis) continue;
      ext[nd] = shape_[d];
      sin[nd] = is[d];
      sout[nd] = os[d];
      nlines *= shape_[d];
      ++nd;
    }
    const std::ptrdiff_t lin = is[a.axis], lout = os[a.axis];
    // A few lines in all (a 1D transform): every group runs as scalar code, so the buffers are
    // sized in scalars, not in vectors of kLanes.
    const bool scalar_only = SingleLines(nlines);
    const T0 redo_eps = th == Threshold::Inputs ? zero_below_ : T0(0);  // a line redone from `in`
    const bool far_lines = !scalar_only && FarApart(lin) && FarApart(lout);
    // Groups of kLanes lines from line 0, the last one the nlines % kLanes left over; except
    // that where the lines' vectors start off a vector boundary (HeadLines), group 0 takes the
    // `head` lines before the first aligned one and `wrap` lines from the end (with C-ordered
    // rows, those share each row's last cache line with the next row's head), the groups after
    // it start on vector boundaries, and a last group takes what is left: as many lines as the
    // last group without a head, so that every line runs the same code (a group of a few lines
    // runs as scalar code) and gives the same bits.
    std::size_t head =
        far_lines && !Paired(a) && nlines >= 2 * kLanes ? HeadLines(out, nd, ext, sout, lout) : 0;
    const auto wrap_for = [nlines](std::size_t h) -> std::size_t {
      return h == 0 ? 0 : std::min((nlines - h) % kLanes, kLanes - h);
    };
    // Where group 0 fills a vector and the rows hold only the lines, it moves as blends of
    // aligned vectors (LineMoves::GatherWrapped, ScatterWrapped); from the input too where that
    // is laid out and aligned alike. One thread shifts the groups only when both moves blend:
    // with group 0 moved element by element, the shift costs it more than the aligned vectors
    // save (docs/benchmarks.md).
    const bool blend_out =
        head != 0 && head + wrap_for(head) == kLanes && lout == static_cast<std::ptrdiff_t>(nlines);
    const bool blend_in = blend_out && lin == lout && HeadLines(in, nd, ext, sin, lin) == head;
    if (threads_ == 1 && !blend_in) head = 0;
    const std::size_t left = head == 0 ? 0 : (nlines - head) % kLanes;
    const std::size_t wrap = wrap_for(head);
    const std::size_t groups =
        head == 0 ? (nlines + kLanes - 1) / kLanes : 1 + (nlines - head) / kLanes + (left > wrap);
    // Whether a group of adjacent lines may read the array in place of a gather (see below).
    const bool reads_array = ReadsArray(a, in, out, th);
    // Group g: lines [j0, j0 + cnt) (group 0 with a head: its wrap lines, then its head lines).
    const auto group_span = [nlines, head, wrap](std::size_t g) {
      if (head != 0 && g == 0) return std::pair<std::size_t, std::size_t>{0, head + wrap};
      const std::size_t j0 = head == 0 ? g * kLanes : head + (g - 1) * kLanes;
      return std::pair<std::size_t, std::size_t>{j0, std::min(kLanes, nlines - wrap - j0)};
    };
    // An output of kStreamBytes or more that this pass writes and does not read again: its
    // stores bypass the caches (no read of each line they fill), the column blocks' from each
    // block row (ScatterBlock), the rows' from each 64-byte-aligned vector where that pays
    // (LineMoves::ScatterTransposed).
    const bool stream = in != out && StreamOutput(nlines * n);
    // Out of place, a group whose lines are scattered by transposes (the rows of a C-ordered
    // array) tests its outputs' finiteness as it stores them (ScatterChecked), not in a pass of
    // its own: the input is intact, so lanes not finite are redone and the group stored again.
    const bool check_in_scatter = in != out && th == Threshold::None;
    const std::size_t block_groups = BlockGroups(n, in != out);
    auto work = [&](std::size_t g_begin, std::size_t g_end) {
      V* buf;
      Cx<V>* scratch;
      if (scalar_only) {
        const auto b = ThreadLineBuffers<T0>(n, a.r2r.scratch_len());
        buf = reinterpret_cast<V*>(b.first);
        scratch = reinterpret_cast<Cx<V>*>(b.second);
      } else {
        // Far-apart lines: room for block_groups gathered groups and their results; lines of
        // an odd length: two groups, one complex FFT (R2R::exec_pair).
        const std::size_t nvec = far_lines ? 2 * block_groups * n : Paired(a) ? 2 * n : n;
        // A block of DCT-III groups keeps each group's unordered result in its own scratch.
        const std::size_t nscr =
            a.r2r.scratch_len() * (BlockScattered(a, far_lines, block_groups) ? block_groups : 1);
        std::tie(buf, scratch) = ThreadLineBuffers<V>(nvec, nscr);
      }
      std::ptrdiff_t oin[kMaxBlockGroups * kLanes], oout[kMaxBlockGroups * kLanes];
      // A group of rows scattered by transposes may hold its result (in buf, or a DCT-III's in
      // scratch) until the next group's gather, and both then move block by block
      // (Moves::ScatterGatherTransposed). A held group whose outputs are not all finite is
      // redone from `in` and stored again (and the next group gathered again).
      HeldRows held;
      const auto redo_held = [&](unsigned bad) {
        if (held.order)
          for (std::size_t i = 0; i < n; ++i) buf[i] = held.res[held.order[i]];
        RedoLanes(a.r2r, in, lin, held.oin, kLanes, n, bad, buf, scratch, redo_eps);
        Scatter(buf, out, lout, held.oout, kLanes, n, nullptr, stream);
      };
      const auto release = [&] {
        if (!held.res) return;
        if (const unsigned bad = ScatterChecked(held.res, out, held.oout, n, held.order, stream))
          redo_held(bad);
        held.res = nullptr;
      };
      for (std::size_t g = g_begin; g < g_end; ++g) {
        const bool wrapped = head != 0 && g == 0;
        const auto [j0, cnt] = group_span(g);
        if (far_lines && !wrapped && g + block_groups <= g_end &&
            j0 + block_groups * kLanes <= nlines - wrap) {
          LineOffsets(j0, block_groups * kLanes, nd, ext, sin, sout, oin, oout);
          const std::size_t c = block_groups * kLanes;
          if (Consecutive(oin, c, c) && Consecutive(oout, c, c)) {
            release();
            if (block_groups == kWideBlockGroups)
              RunBlock<kWideBlockGroups>(a, in, lin, oin, out, lout, oout[0], th, buf, scratch,
                                         redo_eps, stream);
            else
              RunBlock<kBlockGroups>(a, in, lin, oin, out, lout, oout[0], th, buf, scratch,
                                     redo_eps, stream);
            g += block_groups - 1;
            continue;
          }
        }
        if (Paired(a) && g + 1 < g_end && j0 + 2 * kLanes <= nlines) {
          LineOffsets(j0, 2 * kLanes, nd, ext, sin, sout, oin, oout);
          release();
          RunPair(a, in, lin, oin, out, lout, oout, th, buf, scratch, redo_eps);
          ++g;
          continue;
        }
        if (wrapped) {
          // The last lines in lanes 0 .. wrap-1, then the head (GatherWrapped's lane order).
          if (wrap != 0) LineOffsets(nlines - wrap, wrap, nd, ext, sin, sout, oin, oout);
          LineOffsets(0, head, nd, ext, sin, sout, oin + wrap, oout + wrap);
        } else {
          LineOffsets(j0, cnt, nd, ext, sin, sout, oin, oout);
        }
        if (SingleLines(cnt)) {
          release();
          // A few lines (e.g. one 1D transform): scalar code.
          T0* line = reinterpret_cast<T0*>(buf);
          Cx<T0>* sscr = reinterpret_cast<Cx<T0>*>(scratch);
          for (std::size_t l = 0; l < cnt; ++l) {
            for (std::size_t i = 0; i < n; ++i)
              line[i] = in[oin[l] + static_cast<std::ptrdiff_t>(i) * lin];
            if (th == Threshold::Inputs) ZeroBelow(line, n, zero_below_);
            a.r2r.exec(line, sscr);
            if (AnyNonFinite(line, n)) RedoLine(a.r2r, in + oin[l], lin, n, line, sscr, redo_eps);
            if (th == Threshold::Outputs) ZeroBelow(line, n, zero_below_);
            for (std::size_t i = 0; i < n; ++i)
              out[oout[l] + static_cast<std::ptrdiff_t>(i) * lout] = line[i];
          }
          continue;
        }
        // A DCT-II's reordering happens in the gather, straight into the transform's scratch;
        // a DCT-III's in the scatter, straight from it.
        bool checked = check_in_scatter && Moves::ScattersTransposed(lout, oout, cnt);
        const std::uint32_t* order = a.r2r.gather_order();
        V* gathered = order ? reinterpret_cast<V*>(scratch) : buf;
        // A copy of cnt: clang's lambdas do not capture structured bindings.
        const std::size_t count = cnt;
        const auto store = [&](const V* v, const std::uint32_t* vorder) {
          if (wrapped && blend_out)
            return Moves::ScatterWrapped(v, out + oout[wrap], lout, n, wrap, vorder, stream);
          Scatter(v, out, lout, oout, count, n, vorder, stream);
        };
        const std::uint32_t* sorder = order ? nullptr : a.r2r.scatter_order();
        // In place, a DCT-II or DCT-III of adjacent lines (the columns of a small row-major
        // array) reads its vectors straight from the array instead of gathering them first: the
        // DCT-II through its FFT's first stage, the DCT-III through its pre-processing (as
        // RunBlock's blocks do).
        const bool direct = reads_array && !wrapped && Consecutive(oin, cnt);
        const auto element = ColumnReader(in + oin[0], lin);
        // Rows in and out as Moves::ScatterGatherTransposed takes them (a DCT-II's result lands
        // in buf, a DCT-III's in scratch, apart from what the next group's gather writes): this
        // group's result may be held.
        const bool holds = checked && !direct && !wrapped && (order || sorder) && lin == 1 &&
                           cnt == kLanes && Moves::MoveTogether(in, oin, out, oout, n);
        if (holds && held.res) {
          const unsigned bad =
              NonFiniteLanesOf(Moves::ScatterGatherTransposed(held.res, held.order, out, held.oout,
                                                              stream, in, oin, n, gathered, order),
                               kLanes);
          if (bad) {
            redo_held(bad);
            Gather(in, lin, oin, cnt, n, gathered, order);
          }
          held.res = nullptr;
        } else {
          release();
          if (wrapped && blend_in)
            Moves::GatherWrapped(in + oin[wrap], lin, n, wrap, gathered, order);
          else if (!direct)
            Gather(in, lin, oin, cnt, n, gathered, order);
        }
        if (th == Threshold::Inputs) ZeroBelow(gathered, n, zero_below_);
        if (order && direct) {
          a.r2r.exec_gathered_from(element, buf, scratch, scratch + n / 2);
        } else if (order) {
          a.r2r.exec_gathered(buf, scratch, scratch + n / 2);
        } else if (sorder) {
          V* v = direct ? a.r2r.exec_scattered_from(element, scratch)
                        : a.r2r.exec_scattered(buf, scratch);
          if (holds) {
            held.Hold(v, sorder, oin, oout);
            continue;
          }
          if (checked) {
            if (!ScatterChecked(v, out, oout, n, sorder, stream)) continue;
          } else if (!NonFiniteLanes(v, n, cnt)) {
            if (th == Threshold::Outputs) ZeroBelow(v, n, zero_below_);
            store(v, sorder);
            continue;
          }
          for (std::size_t i = 0; i < n; ++i) buf[i] = v[sorder[i]];  // as exec() leaves it
          checked = false;  // stored once already: tested below, redone, stored again
        } else {
          a.r2r.exec(buf, scratch);
        }
        if (holds) {
          held.Hold(buf, nullptr, oin, oout);
          continue;
        }
        if (checked) {
          if (const unsigned bad = ScatterChecked(buf, out, oout, n, nullptr, stream)) {
            RedoLanes(a.r2r, in, lin, oin, cnt, n, bad, buf, scratch, redo_eps);
            store(buf, nullptr);
          }
          continue;
        }
        if (const unsigned bad = NonFiniteLanes(buf, n, cnt))
          RedoLanes(a.r2r, in, lin, oin, cnt, n, bad, buf, scratch, redo_eps);
        if (th == Threshold::Outputs) ZeroBelow(buf, n, zero_below_);
        store(buf, nullptr);
      }
      release();
    };
    if (!Paired(a)) return detail::parallel_for(threads_, groups, work);
    // Pairs of groups (2u, 2u + 1) for every thread count, so that results do not depend on it.
    detail::parallel_for(threads_, (groups + 1) / 2, [&](std::size_t u_begin, std::size_t u_end) {
      work(2 * u_begin, std::min(groups, 2 * u_end));
    });
  }

  // A group of rows whose scatter waits for the next group's gather (RunAxis): its result
  // (element i at res[At(order, i)]) and its lines' offsets in `in` and `out`.
  struct HeldRows {
    const V* res = nullptr;
    const std::uint32_t* order = nullptr;
    std::ptrdiff_t oin[kLanes], oout[kLanes];
    void Hold(const V* r, const std::uint32_t* o, const std::ptrdiff_t* in_offsets,
              const std::ptrdiff_t* out_offsets) {
      res = r;
      order = o;
      std::copy(in_offsets, in_offsets + kLanes, oin);
      std::copy(out_offsets, out_offsets + kLanes, oout);
    }
  };

  // A full group of lines scattered by transposes (Moves::ScattersTransposed), with the lanes
  // whose outputs are not all finite returned (NonFiniteLanes without its pass).
  static unsigned ScatterChecked(const V* buf, T0* out, const std::ptrdiff_t* oout, std::size_t n,
                                 const std::uint32_t* order, bool stream) {
    return NonFiniteLanesOf(
        Moves::template ScatterTransposed<true>(buf, out, oout, n, order, stream), kLanes);
  }

  // Where every line is the one before it plus one element (the columns of a C-ordered 2D
  // array, the first axis of a C-ordered 3D one: the other axes' strides those of a C-ordered
  // array of their extents) and rows a whole number of vectors apart start off a vector boundary
  // (a std::vector's or NumPy's data is 16 bytes past 64), the number of lines before the first
  // whose output vector is aligned: group 0 takes those (see RunAxis), so that the other
  // groups' loads and stores, and the threads' chunks, start on a vector boundary instead of
  // splitting cache lines between them. 0 where the lines are aligned or are not laid out so.
  static std::size_t HeadLines(const T0* out, std::size_t nd, const std::size_t* ext,
                               const std::ptrdiff_t* sout, std::ptrdiff_t lout) {
    std::ptrdiff_t run = 1;
    for (std::size_t d = nd; d-- > 0; run *= static_cast<std::ptrdiff_t>(ext[d]))
      if (sout[d] != run) return 0;
    return Moves::KeepsAlignment(lout) ? Moves::ToAligned(out) : 0;
  }

  // Lines 2 KiB or more apart (they alias in the L1 sets; from 4 KiB each is in its own page)
  // whose neighbours are adjacent in memory (the columns of a large row-major array) run
  // kBlockGroups groups at a time: each row of the block is then several whole cache lines in
  // one page, read and written once (see RunBlock).
  static constexpr std::size_t kBlockGroups = 4;
  // An out-of-place block of kWideBlockLength rows or more touches a page of its input and one
  // of its output per row, more pages than a core's TLB holds (1536 entries on a first-
  // generation Zen), and walks the page tables again for each: such blocks take enough groups
  // for rows of kWideBlockRowBytes (up to kMaxBlockGroups), which halves the walks on AVX2, for
  // buffers twice the size (docs/benchmarks.md, "Wider column blocks out of place").
  static constexpr std::size_t kWideBlockLength = 1024;
  static constexpr std::size_t kWideBlockRowBytes = 256;
  static constexpr std::size_t kMaxBlockGroups = 8;
  static constexpr std::size_t kWideBlockGroups =
      std::min(kMaxBlockGroups, std::max(kBlockGroups, kWideBlockRowBytes / sizeof(V)));
  static constexpr std::size_t BlockGroups(std::size_t n, bool out_of_place) {
    return out_of_place && n >= kWideBlockLength ? kWideBlockGroups : kBlockGroups;
  }
  // Whether RunBlock leaves each group's DCT-III unordered in its own scratch
  // (R2R::exec_scattered) and its scatter reorders: one pass over each line fewer, where the
  // block's scratches stay within kBlockScratchBytes (four at 4096 points a column took 3 MiB,
  // and a 4096² inverse 4-5 % longer).
  static constexpr std::size_t kBlockScratchBytes = std::size_t{1} << 20;
  bool BlockScattered(const Axis& a, bool far_lines, std::size_t groups) const {
    return far_lines && !Paired(a) && a.r2r.scatter_order() != nullptr &&
           groups * a.r2r.scratch_len() * sizeof(Cx<V>) <= kBlockScratchBytes;
  }

  // Whether a pass from `in` to `out` may read its lines' elements straight from the array
  // instead of gathering them first: in place (the input is not needed once the pass has read
  // it), no threshold on the inputs, and a transform that reads through a function: a DCT-III's
  // pre-processing (R2R::exec_scattered_from), a DCT-II's FFT's first stage (gathers_from).
  static bool ReadsArray(const Axis& a, const T0* in, const T0* out, Threshold th) {
    return in == out && th != Threshold::Inputs && (a.r2r.scatter_order() || a.r2r.gathers_from());
  }
  // Element j of kLanes adjacent lines from `first` (elements `stride` apart): one vector.
  static auto ColumnReader(const T0* first, std::ptrdiff_t stride) {
    return [ first, stride ](std::size_t j) __attribute__((always_inline)) {
      return Moves::LoadU(first + static_cast<std::ptrdiff_t>(j) * stride);
    };
  }

  // kGroups * kLanes consecutive lines (off[0] .. off[0] + count - 1 in `in`, from oout0 in
  // `out`): gathered row by row into kGroups buffers of n vectors at buf, transformed one group
  // at a time (two, paired, for lines of an odd length) into the next kGroups buffers, scattered
  // row by row.
  template <std::size_t kGroups>
  void RunBlock(const Axis& a, const T0* in, std::ptrdiff_t lin, const std::ptrdiff_t* off, T0* out,
                std::ptrdiff_t lout, std::ptrdiff_t oout0, Threshold th, V* buf, Cx<V>* scratch,
                T0 redo_eps, bool stream) const {
    const std::size_t n = shape_[a.axis];
    const std::uint32_t* order = a.r2r.gather_order();
    V* result = buf + kGroups * n;
    V* gathered = order ? buf : result;  // exec() runs in place
    // Group k's element i is at res[k][sorder[i]] (sorder: null for element i at res[k][i]).
    const std::uint32_t* sorder =
        BlockScattered(a, true, kGroups) ? a.r2r.scatter_order() : nullptr;
    const V* res[kGroups];
    const T0* p = in + off[0];
    // In place (a later pass, on an output just written), a block reads each group straight
    // from the array instead of gathering it first (ReadsArray): a DCT-III kept in its own
    // scratch, a DCT-II through its FFT's first stage.
    const bool direct = (sorder || order) && ReadsArray(a, in, out, th);
    for (std::size_t i = 0; i < n && !direct; ++i) {
      Moves::template Prefetch<false>(p, lin, i, n);
      const T0* row = p + static_cast<std::ptrdiff_t>(i) * lin;
      const std::size_t at = At(order, i);
      for (std::size_t k = 0; k < kGroups; ++k)
        gathered[k * n + at] = Moves::LoadU(row + k * kLanes);
    }
    for (std::size_t k = 0; k < kGroups; ++k) {
      V* x = result + k * n;
      V* g = gathered + k * n;
      if (th == Threshold::Inputs) ZeroBelow(g, n, zero_below_);
      static_assert(kGroups % 2 == 0, "paired groups fill a block");
      if (Paired(a)) {
        if (k % 2 == 1) {
          a.r2r.exec_pair(x - n, x, scratch);
          FinishPair(a, in, lin, off + (k - 1) * kLanes, x - n, th, scratch, redo_eps);
        }
        continue;
      }
      if (sorder) {
        Cx<V>* own = scratch + k * a.r2r.scratch_len();
        V* v = direct ? a.r2r.exec_scattered_from(ColumnReader(p + k * kLanes, lin), own)
                      : a.r2r.exec_scattered(x, own);
        res[k] = v;
        if (const unsigned bad = NonFiniteLanes(v, n, kLanes)) {
          for (std::size_t i = 0; i < n; ++i) x[i] = v[sorder[i]];  // as exec() leaves it
          RedoLanes(a.r2r, in, lin, off + k * kLanes, kLanes, n, bad, x, own, redo_eps);
          for (std::size_t i = 0; i < n; ++i) v[sorder[i]] = x[i];
        }
        if (th == Threshold::Outputs) ZeroBelow(v, n, zero_below_);
        continue;
      }
      if (order && direct)
        a.r2r.exec_gathered_from(ColumnReader(p + k * kLanes, lin), x, reinterpret_cast<Cx<V>*>(g),
                                 scratch);
      else if (order)
        a.r2r.exec_gathered(x, reinterpret_cast<Cx<V>*>(g), scratch);
      else
        a.r2r.exec(x, scratch);
      if (const unsigned bad = NonFiniteLanes(x, n, kLanes))
        RedoLanes(a.r2r, in, lin, off + k * kLanes, kLanes, n, bad, x, scratch, redo_eps);
      if (th == Threshold::Outputs) ZeroBelow(x, n, zero_below_);
    }
    if (sorder) return ScatterBlock<kGroups>(res, sorder, out + oout0, lout, n, stream);
    for (std::size_t k = 0; k < kGroups; ++k) res[k] = result + k * n;
    ScatterBlock<kGroups>(res, nullptr, out + oout0, lout, n, stream);
  }

  // Row i of a block: element i of each group (res[k][sorder[i]], or res[k][i]) at q + i lout.
  template <std::size_t kGroups>
  void ScatterBlock(const V* const* res, const std::uint32_t* sorder, T0* q, std::ptrdiff_t lout,
                    std::size_t n, bool stream) const {
    if (stream && reinterpret_cast<std::uintptr_t>(q) % 64 == 0 &&
        (lout * static_cast<std::ptrdiff_t>(sizeof(T0))) % 64 == 0) {
      // Whole cache lines (a block's row is 64, 128 or 256 bytes) that this pass does not read
      // again: stores that bypass the caches skip the read of every line they fill. Rows off a
      // 64-byte boundary (a NumPy array's, most often) would leave partial lines: not streamed.
      for (std::size_t i = 0; i < n; ++i) {
        T0* row = q + static_cast<std::ptrdiff_t>(i) * lout;
        const std::size_t at = At(sorder, i);
        for (std::size_t k = 0; k < kGroups; ++k) StreamStore(&res[k][at], row + k * kLanes);
      }
      StreamFence();
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      Moves::template Prefetch<true>(q, lout, i, n);
      T0* row = q + static_cast<std::ptrdiff_t>(i) * lout;
      const std::size_t at = At(sorder, i);
      for (std::size_t k = 0; k < kGroups; ++k) Moves::StoreU(row + k * kLanes, res[k][at]);
    }
  }

  // Whether the lines of axis `a` run two groups through one complex FFT (R2R::exec_pair): lines
  // of an odd length, in one transform over every axis of the array (two or more). The error of
  // a paired line is then bounded by the norm of both lines, which bounds the array's normwise
  // error as before; a batch (of 1D transforms, or of 2D ones along two axes of a 3D array)
  // keeps each transform's error bounded by its own norm, and its result independent of the
  // others'.
  bool Paired(const Axis& a) const {
    return axes_.size() > 1 && axes_.size() == shape_.size() && a.r2r.pairs();
  }

  // Two full groups of lines of an odd length (off / oout: their 2 kLanes offsets): gathered
  // into buf and buf + n, transformed by one complex FFT (R2R::exec_pair), scattered.
  void RunPair(const Axis& a, const T0* in, std::ptrdiff_t lin, const std::ptrdiff_t* off, T0* out,
               std::ptrdiff_t lout, const std::ptrdiff_t* oout, Threshold th, V* buf,
               Cx<V>* scratch, T0 redo_eps) const {
    const std::size_t n = shape_[a.axis];
    for (std::size_t h = 0; h < 2; ++h) {
      Gather(in, lin, off + h * kLanes, kLanes, n, buf + h * n, nullptr);
      if (th == Threshold::Inputs) ZeroBelow(buf + h * n, n, zero_below_);
    }
    a.r2r.exec_pair(buf, buf + n, scratch);
    FinishPair(a, in, lin, off, buf, th, scratch, redo_eps);
    // Both groups are read before either is written: in place, FinishPair still sees the input.
    for (std::size_t h = 0; h < 2; ++h)
      Scatter(buf + h * n, out, lout, oout + h * kLanes, kLanes, n);
  }

  // After exec_pair() on the groups x and x + n (lines at off[0 .. 2 kLanes) of `in`): where a
  // lane of either is not finite, an overflow of one line may have spread to its partner through
  // the shared FFT, so both groups run again apart, from `in`, as unpaired groups do (with
  // RedoLanes for the lanes still not finite). Then the outputs' threshold.
  void FinishPair(const Axis& a, const T0* in, std::ptrdiff_t lin, const std::ptrdiff_t* off, V* x,
                  Threshold th, Cx<V>* scratch, T0 redo_eps) const {
    const std::size_t n = shape_[a.axis];
    if (NonFiniteLanes(x, n, kLanes) || NonFiniteLanes(x + n, n, kLanes)) {
      for (std::size_t h = 0; h < 2; ++h) {
        V* y = x + h * n;
        Gather(in, lin, off + h * kLanes, kLanes, n, y, nullptr);
        if (th == Threshold::Inputs) ZeroBelow(y, n, zero_below_);
        a.r2r.exec(y, scratch);
        if (const unsigned bad = NonFiniteLanes(y, n, kLanes))
          RedoLanes(a.r2r, in, lin, off + h * kLanes, kLanes, n, bad, y, scratch, redo_eps);
      }
    }
    if (th == Threshold::Outputs)
      for (std::size_t h = 0; h < 2; ++h) ZeroBelow(x + h * n, n, zero_below_);
  }

  // The first pass of an out-of-place call on an array of 4 MiB or more writes output lines that
  // only the next pass reads again, when most have left the core's L2: its blocks' stores go
  // past the caches, which saves reading every line before it is filled (docs/benchmarks.md,
  // "Streamed column stores").
  static constexpr std::size_t kStreamBytes = std::size_t{4} << 20;
  // Up to 8 MiB (the L3 of a first-generation Zen's core complex), the rows first pay past
  // kStreamBytes too: the in-place column blocks then touch half the pages that out-of-place
  // ones do (docs/benchmarks.md, "Which axis first, up to 8 MiB").
  static constexpr std::size_t kRowsFirstBytes = std::size_t{8} << 20;
  static bool StreamOutput(std::size_t elements) { return elements * sizeof(T0) >= kStreamBytes; }

  Shape shape_;
  int threads_;
  T0 zero_below_;          // PlanDesc::coefficient_threshold in the data's precision (0: off)
  bool threshold_inputs_;  // an inverse plan thresholds its inputs, a forward one its outputs
  std::vector<Axis> axes_;
  std::size_t first_axis_ = 0;  // the index in axes_ of the axis that runs first
};

}  // namespace dctx::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
