// SPDX-License-Identifier: BSD-3-Clause
// Distributed transforms over MPI (library dctx::mpi, built with DCTX_MPI). A plan over a
// communicator runs, on every rank, ordinary dctx plans of any back end along the axes the rank
// holds whole, and global transposes (MPI_Alltoallw on subarray datatypes) between them: slabs
// (a 1D process grid) or pencils (a 2D one), as FFTW's MPI layer and P3DFFT do.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dctx/plan.hpp"

namespace dctx::mpi {

/// How the array is split over the ranks. Slab: a 1D process grid splits one axis at a time (one
/// transpose per transform). Pencil: a 2D process grid splits two axes at a time (arrays of rank
/// 3 and more; two transposes, scales to more ranks than the first extent). Auto: slabs when each
/// rank gets at least one index of the two axes a slab plan splits, else pencils (rank >= 3) on
/// MPI_Dims_create's grid, unless that grid is P x 1 (slabs then: the same split).
enum class Decomposition : std::uint8_t { Auto = 0, Slab = 1, Pencil = 2 };

/// Which axes are split at an end of a plan, over a process grid of g dimensions (g = 1 for
/// slabs, 2 for pencils). Natural: axes 0..g-1, grid dimension i splitting axis i. Transposed:
/// axes 1..g, what a forward plan's last transpose leaves (FFTW_MPI_TRANSPOSED_OUT); an output in
/// this layout saves the transposes back, and an inverse plan takes it as its input. Every local
/// block is C-ordered in the global axis order either way.
enum class Layout : std::uint8_t { Natural = 0, Transposed = 1 };

struct Options {
  Decomposition decomposition = Decomposition::Auto;
  /// The process grid's extents: empty = chosen by MPI_Dims_create; else one extent (slabs) or
  /// two (pencils) whose product is the communicator's size.
  std::vector<int> process_grid;
  Layout in_layout = Layout::Natural;
  Layout out_layout = Layout::Natural;
};

/// One rank's part of the global array: its extents and the global index of its first element.
/// Extents may be 0 when an axis has fewer indices than the grid has ranks along it.
struct Block {
  Shape shape;
  Shape offset;
  std::size_t size() const {
    std::size_t n = 1;
    for (std::size_t e : shape) n *= e;
    return n;
  }
};

namespace detail {
struct PlanState;
}

/// A distributed plan: immutable, built once per description and communicator, reused.
/// Construction and execute() are collective: every rank of the communicator calls them, in the
/// same order, with the same description and options. Every error (a bad description on any
/// rank, descriptions that differ between ranks, a process grid that does not match the
/// communicator, a buffer too small on one rank) raises the same dctx::Error on every rank, before
/// any rank enters a transpose, so no rank is left waiting. Not for concurrent calls: one
/// execute() at a time per plan (MPI's collectives on one communicator are ordered).
class Plan {
 public:
  /// `desc` describes the global array and transform as for a serial dctx::Plan (shape is the
  /// global shape; kinds, types, norms, directions, the back end and its options of the local
  /// plans). The communicator is duplicated: the plan's messages never meet the caller's.
  Plan(const PlanDesc& desc, MPI_Comm comm, const Options& options = {});
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  /// Frees the plan's communicators and datatypes; destroy plans before MPI_Finalize.
  ~Plan();

  /// The normalised global description (as dctx::normalize gives it).
  const PlanDesc& desc() const;
  /// Slab or Pencil (never Auto), and the process grid's extents.
  Decomposition decomposition() const;
  const std::vector<int>& process_grid() const;
  /// This rank's input and output blocks.
  const Block& in_block() const;
  const Block& out_block() const;
  /// Elements that `out` (and `in` when it is `out`: in place) must hold: the largest block this
  /// rank holds on the way (at least out_block().size(); more with uneven splits and pencils).
  std::size_t local_capacity() const;

  /// Transform this rank's input block (C order, at the start of `in`, at least
  /// in_block().size() elements) into its output block (C order, at the start of `out`, at least
  /// local_capacity() elements; the rest is workspace). `in` and `out` may be the same memory
  /// (in place) and must not otherwise overlap. The plan's precision must match the element
  /// type.
  void execute(std::span<const float> in, std::span<float> out) const;
  void execute(std::span<const double> in, std::span<double> out) const;
  void execute(std::span<float> data) const { execute(std::span<const float>(data), data); }
  void execute(std::span<double> data) const { execute(std::span<const double>(data), data); }

  /// Collective: if any rank passes a non-empty message, every rank throws the same dctx::Error
  /// (the lowest such rank's message). For front ends whose own checks (array shapes, dtypes)
  /// must fail on every rank alike before execute().
  void agree(const std::string& local_error) const;

  /// One line: decomposition, grid, the stages (local transforms and transposes) and the local
  /// plans' back end, e.g. for logs.
  std::string describe() const;

 private:
  template <class T>
  void execute_typed(std::span<const T> in, std::span<T> out) const;
  std::unique_ptr<detail::PlanState> state_;
};

/// The balanced split of `n` indices over `parts` ranks: part p holds n / parts indices, plus one
/// for the first n % parts parts. Returns {extent, offset} of part `p`.
struct Range {
  std::size_t extent, offset;
};
Range split(std::size_t n, int parts, int p);

}  // namespace dctx::mpi
