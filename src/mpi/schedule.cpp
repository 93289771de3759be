// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/schedule.hpp"

#include <algorithm>

namespace dctx::mpi {

Range split(std::size_t n, int parts, int p) {
  const std::size_t q = std::size_t(parts), i = std::size_t(p);
  const std::size_t base = n / q, extra = n % q;
  return {base + (i < extra ? 1 : 0), i * base + std::min(i, extra)};
}

namespace detail {

int split_axis(int g, int layout, int grid_dim) {
  return grid_dim < g - layout ? grid_dim : grid_dim + 1;
}

namespace {

// The axes whole in `layout` among those still to transform, in the description's order.
std::vector<int> whole_axes(int g, int layout, const std::vector<int>& axes,
                            std::vector<bool>& done) {
  std::vector<int> out;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    if (done[k]) continue;
    bool split = false;
    for (int i = 0; i < g; ++i) split = split || split_axis(g, layout, i) == axes[k];
    if (!split) {
      out.push_back(axes[k]);
      done[k] = true;
    }
  }
  return out;
}

}  // namespace

std::vector<Op> schedule(int d, int g, const std::vector<int>& axes, int in_layout,
                         int out_layout) {
  (void)d;
  // The layouts that must be visited: g - a for each transformed axis a <= g.
  int lo = std::min(in_layout, out_layout), hi = std::max(in_layout, out_layout);
  for (int a : axes)
    if (a <= g) {
      lo = std::min(lo, g - a);
      hi = std::max(hi, g - a);
    }
  // From one end of the line of layouts to the far end of what must be visited, then to the out
  // layout.
  std::vector<int> path{in_layout};
  const int far = in_layout == lo ? hi : lo;
  for (int j = in_layout; j != far;) path.push_back(j += far > j ? 1 : -1);
  for (int j = far; j != out_layout;) path.push_back(j += out_layout > j ? 1 : -1);

  std::vector<Op> ops;
  std::vector<bool> done(axes.size(), false);
  for (std::size_t s = 0; s < path.size(); ++s) {
    if (s > 0) {
      const int from = path[s - 1], to = path[s];
      const int i = g - 1 - std::min(from, to);  // the grid dimension that moves
      ops.push_back(
          {Op::Kind::Transpose, from, to, {}, i, split_axis(g, from, i), split_axis(g, to, i)});
    }
    std::vector<int> here = whole_axes(g, path[s], axes, done);
    if (!here.empty()) ops.push_back({Op::Kind::Transform, path[s], path[s], here});
  }
  return ops;
}

Block block_of(const Shape& global, const std::vector<int>& grid, const std::vector<int>& coords,
               int layout) {
  const int g = int(grid.size());
  Block b{global, Shape(global.size(), 0)};
  for (int i = 0; i < g; ++i) {
    const std::size_t a = std::size_t(split_axis(g, layout, i));
    const Range r = split(global[a], grid[std::size_t(i)], coords[std::size_t(i)]);
    b.shape[a] = r.extent;
    b.offset[a] = r.offset;
  }
  return b;
}

std::vector<Buffer> destinations(const std::vector<Op>& ops) {
  std::vector<Buffer> dest(ops.size(), Buffer::Out);
  for (std::size_t k = ops.size(); k-- > 1;) {
    // What op k reads: the other buffer for a transpose, its own for a transform (in place).
    const bool moves = ops[k].kind == Op::Kind::Transpose;
    dest[k - 1] = moves ? (dest[k] == Buffer::Out ? Buffer::Work : Buffer::Out) : dest[k];
  }
  return dest;
}

std::string to_string(const std::vector<Op>& ops) {
  std::string s;
  for (const Op& op : ops) {
    if (!s.empty()) s += ", ";
    if (op.kind == Op::Kind::Transform) {
      s += "transform axes (";
      for (std::size_t k = 0; k < op.axes.size(); ++k) {
        if (k) s += ", ";
        s += std::to_string(op.axes[k]);
      }
      s += ")";
    } else {
      s += "transpose axis " + std::to_string(op.from_axis) + " -> " + std::to_string(op.to_axis);
    }
  }
  return s;
}

}  // namespace detail
}  // namespace dctx::mpi
