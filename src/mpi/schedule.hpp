// SPDX-License-Identifier: BSD-3-Clause
// The plan of a distributed transform before any MPI call: which layouts the array passes
// through, which axes each local stage transforms, which transposes join them, and each rank's
// block in each layout. Pure functions of the shapes, so that tests check them without mpirun.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dctx/mpi.hpp"

namespace dctx::mpi::detail {

// On a process grid of g dimensions over an array of rank d > g there are g + 1 layouts. Layout
// j splits axis split_axis(g, j, i) by grid dimension i: i for i < g - j, i + 1 otherwise. Layout
// 0 is the natural one (axes 0..g-1 split), layout g the transposed one (axes 1..g). Going from
// layout j to j + 1 moves grid dimension g - 1 - j from its axis to the next one: one transpose
// within that dimension's sub-communicator. Axis a <= g is whole only in layout g - a; axes > g
// are whole everywhere.
int split_axis(int g, int layout, int grid_dim);

struct Op {
  enum class Kind { Transform, Transpose } kind;
  int layout;             // the layout a Transform runs in, or a Transpose leaves
  int to_layout;          // a Transpose's destination (layout +- 1)
  std::vector<int> axes;  // a Transform's axes, in the order of the description
  int grid_dim = -1;      // a Transpose's grid dimension, and the axes it moves the split between
  int from_axis = -1, to_axis = -1;
};

/// The operations of a plan on a rank-`d` array over a grid of `g` dimensions that transforms
/// `axes` (non-negative, distinct), from layout `in_layout` to `out_layout` (each 0 or g): the
/// shortest walk over the layouts that holds every transformed axis whole once, each axis
/// transformed in the first layout where it is whole.
std::vector<Op> schedule(int d, int g, const std::vector<int>& axes, int in_layout, int out_layout);

/// The block of the rank at grid coordinates `coords` in layout `layout`.
Block block_of(const Shape& global, const std::vector<int>& grid, const std::vector<int>& coords,
               int layout);

/// Where each operation of a schedule writes, so that the last one writes the caller's output
/// and every transpose reads one buffer and writes the other (transforms run in place).
enum class Buffer { In, Out, Work };
std::vector<Buffer> destinations(const std::vector<Op>& ops);

std::string to_string(const std::vector<Op>& ops);

}  // namespace dctx::mpi::detail
