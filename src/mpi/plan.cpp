// SPDX-License-Identifier: BSD-3-Clause
// dctx::mpi::Plan: local dctx plans along the axes a rank holds whole, global transposes between
// them (MPI_Alltoallw with one subarray datatype per peer on each side, so that MPI reads and
// writes the blocks in place: no pack buffers). The layouts and the order of the stages come
// from schedule.hpp; the checks of every rank are decided together (collective.hpp).
#include <algorithm>
#include <climits>
#include <cstring>
#include <utility>

#include "core/backend.hpp"  // detail::shape_str
#include "dctx/mpi.hpp"
#include "mpi/collective.hpp"
#include "mpi/schedule.hpp"

namespace dctx::mpi {
namespace detail {

namespace {

std::string join(const auto& v, const char* sep) {
  std::string s;
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (k) s += sep;
    s += std::to_string(v[k]);
  }
  return s;
}

Strides c_strides(const Shape& shape) {
  Strides s(shape.size(), 1);
  for (std::size_t a = shape.size(); a-- > 1;) s[a - 1] = s[a] * std::ptrdiff_t(shape[a]);
  return s;
}

// Everything every rank must agree on, in words (back ends and their options may differ between
// ranks: a rank may run its local plans on a device).
std::string fingerprint(const PlanDesc& d, const Options& o) {
  std::string s =
      "shape " + dctx::detail::shape_str(d.shape) + ", axes (" + join(d.axes, ", ") + "), ";
  for (const AxisTransform& t : d.transforms)
    s += std::string(to_string(t.kind)) + std::to_string(t.type) + " ";
  s += std::string(to_string(d.precision)) + ", norm " + std::string(to_string(d.norm)) +
       (d.orthogonalize.value_or(false) ? ", orthogonalized, " : ", ") +
       std::string(to_string(d.direction)) + ", decomposition " +
       (o.decomposition == Decomposition::Slab     ? "slab"
        : o.decomposition == Decomposition::Pencil ? "pencil"
                                                   : "auto") +
       ", process grid (" + join(o.process_grid, ", ") + "), layouts " +
       (o.in_layout == Layout::Natural ? "natural" : "transposed") + " -> " +
       (o.out_layout == Layout::Natural ? "natural" : "transposed");
  return s;
}

// The process grid: validated if given, else chosen; empty with an error message on failure.
std::vector<int> choose_grid(const PlanDesc& d, const Options& o, int size, std::string& error) {
  const int rank = int(d.shape.size());
  std::vector<int> grid = o.process_grid;
  Decomposition dec = o.decomposition;
  if (!grid.empty()) {
    if (grid.size() > 2) {
      error = "process_grid has " + std::to_string(grid.size()) +
              " extents; a slab grid has 1, a pencil grid 2";
      return {};
    }
    const Decomposition implied = grid.size() == 1 ? Decomposition::Slab : Decomposition::Pencil;
    if (dec != Decomposition::Auto && dec != implied) {
      error = std::string("process_grid (") + join(grid, ", ") + ") is a " +
              (implied == Decomposition::Slab ? "slab" : "pencil") +
              " grid; the decomposition asked for is " +
              (dec == Decomposition::Slab ? "slab (one extent)" : "pencil (two extents)");
      return {};
    }
    long long product = 1;
    for (int e : grid) {
      if (e < 1) {
        error = "process_grid (" + join(grid, ", ") + ") has an extent below 1";
        return {};
      }
      product *= e;
    }
    if (product != size) {
      error = "process_grid (" + join(grid, ", ") + ") needs " + std::to_string(product) +
              " processes; the communicator has " + std::to_string(size);
      return {};
    }
    dec = implied;
  } else {
    if (dec == Decomposition::Auto)
      dec = rank >= 3 && (d.shape[0] < std::size_t(size) || d.shape[1] < std::size_t(size))
                ? Decomposition::Pencil
                : Decomposition::Slab;
    if (dec == Decomposition::Pencil) {
      grid = {0, 0};
      check_mpi(MPI_Dims_create(size, 2, grid.data()), "MPI_Dims_create");
      // A grid of (P, 1) (P prime) splits the array as slabs do, with two transposes more.
      if (grid[1] == 1 && o.decomposition == Decomposition::Auto) dec = Decomposition::Slab;
    }
    if (dec == Decomposition::Slab) grid = {size};
  }
  if (int(grid.size()) >= rank) {
    error = std::string("a ") + (grid.size() == 1 ? "slab" : "pencil") +
            " decomposition needs an array of rank " + std::to_string(grid.size() + 1) +
            " or more; the shape " + dctx::detail::shape_str(d.shape) + " has rank " +
            std::to_string(rank);
    return {};
  }
  return grid;
}

}  // namespace

struct Stage {
  Op op;
  Shape shape;                        // this rank's block in the layout the stage reads
  std::unique_ptr<dctx::Plan> local;  // a Transform's plan; null on an empty block
  MPI_Comm comm = MPI_COMM_NULL;      // a Transpose's sub-communicator (owned by PlanState)
  std::vector<int> send_counts, recv_counts, zero_displs;
  std::vector<MPI_Datatype> send_types, recv_types;  // committed subarrays or the element type
};

struct PlanState {
  PlanDesc desc;
  Options options;
  Decomposition decomposition = Decomposition::Slab;
  std::vector<int> grid, coords;
  Block in, out;
  std::size_t capacity = 0;
  MPI_Comm comm = MPI_COMM_NULL, cart = MPI_COMM_NULL;
  std::vector<MPI_Comm> sub;  // one per grid dimension
  std::vector<Stage> stages;
  std::vector<Buffer> dest;
  mutable std::unique_ptr<std::byte[]> work;

  ~PlanState() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;  // MPI has released everything; freeing now would be an error
    const MPI_Datatype elem = desc.precision == Precision::F32 ? MPI_FLOAT : MPI_DOUBLE;
    for (Stage& s : stages)
      for (auto* types : {&s.send_types, &s.recv_types})
        for (MPI_Datatype& t : *types)
          if (t != elem && t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    for (MPI_Comm& c : sub)
      if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
    if (cart != MPI_COMM_NULL) MPI_Comm_free(&cart);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }

  // The datatypes of a transpose that moves grid dimension i's split from axis a (whole after)
  // to axis b (whole before): to peer q goes the part of b that q holds after; from peer q comes
  // the part of a that q held before.
  void make_transpose_types(Stage& s, const Shape& after) {
    const MPI_Datatype elem = desc.precision == Precision::F32 ? MPI_FLOAT : MPI_DOUBLE;
    const int p = grid[std::size_t(s.op.grid_dim)];
    const std::size_t a = std::size_t(s.op.from_axis), b = std::size_t(s.op.to_axis);
    s.send_counts.assign(std::size_t(p), 0);
    s.recv_counts.assign(std::size_t(p), 0);
    s.zero_displs.assign(std::size_t(p), 0);
    s.send_types.assign(std::size_t(p), elem);
    s.recv_types.assign(std::size_t(p), elem);
    auto subarray = [&](const Shape& whole, std::size_t axis, Range r, int& count,
                        MPI_Datatype& type) {
      std::vector<int> sizes, subsizes, starts;
      for (std::size_t k = 0; k < whole.size(); ++k) {
        sizes.push_back(int(whole[k]));
        subsizes.push_back(int(k == axis ? r.extent : whole[k]));
        starts.push_back(int(k == axis ? r.offset : 0));
      }
      if (std::find(subsizes.begin(), subsizes.end(), 0) != subsizes.end()) return;  // nothing
      check_mpi(MPI_Type_create_subarray(int(whole.size()), sizes.data(), subsizes.data(),
                                         starts.data(), MPI_ORDER_C, elem, &type),
                "MPI_Type_create_subarray");
      check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
      count = 1;
    };
    for (int q = 0; q < p; ++q) {
      const std::size_t k = std::size_t(q);
      subarray(s.shape, b, split(desc.shape[b], p, q), s.send_counts[k], s.send_types[k]);
      subarray(after, a, split(desc.shape[a], p, q), s.recv_counts[k], s.recv_types[k]);
    }
  }

  std::string describe() const {
    std::string s = std::string("mpi ") +
                    (decomposition == Decomposition::Slab ? "slab" : "pencil") + " grid (" +
                    join(grid, ", ") + "): " + to_string([&] {
                      std::vector<Op> ops;
                      for (const Stage& st : stages) ops.push_back(st.op);
                      return ops;
                    }());
    for (const Stage& st : stages)
      if (st.local) return s + "; local plans: " + st.local->describe();
    return s;
  }
};

}  // namespace detail

using detail::check_mpi;

Plan::Plan(const PlanDesc& desc_in, MPI_Comm comm, const Options& options)
    : state_(std::make_unique<detail::PlanState>()) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw Error("dctx::mpi::Plan needs MPI: call MPI_Init first");
  if (comm == MPI_COMM_NULL) throw Error("dctx::mpi::Plan: the communicator is MPI_COMM_NULL");
  detail::PlanState& st = *state_;
  check_mpi(MPI_Comm_dup(comm, &st.comm), "MPI_Comm_dup");
  check_mpi(MPI_Comm_set_errhandler(st.comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  int size = 1, rank = 0;
  check_mpi(MPI_Comm_size(st.comm, &size), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(st.comm, &rank), "MPI_Comm_rank");

  // 1. Each rank checks its own description and options.
  detail::Verdict v;
  try {
    st.desc = normalize(desc_in);
    st.options = options;
    for (std::size_t e : st.desc.shape)
      if (e > std::size_t(INT_MAX))
        throw Error("extent " + std::to_string(e) + " is larger than MPI's datatypes address (" +
                    std::to_string(INT_MAX) + ")");
    st.grid = detail::choose_grid(st.desc, options, size, v.error);
  } catch (const Error& e) {
    v = {e.what(), e.kind()};
  }
  detail::agree(st.comm, v);
  // 2. Every rank describes the same transform.
  const std::string mine = detail::fingerprint(st.desc, options);
  const std::string first = detail::broadcast(st.comm, mine, 0);
  if (mine != first)
    v.error = "the ranks describe different transforms: rank 0 has " + first + "; rank " +
              std::to_string(rank) + " has " + mine;
  detail::agree(st.comm, v);

  // 3. The grid, its sub-communicators, the stages.
  const int g = int(st.grid.size());
  st.decomposition = g == 1 ? Decomposition::Slab : Decomposition::Pencil;
  const std::vector<int> periods(std::size_t(g), 0);
  check_mpi(MPI_Cart_create(st.comm, g, st.grid.data(), periods.data(), 0, &st.cart),
            "MPI_Cart_create");
  st.coords.assign(std::size_t(g), 0);
  check_mpi(MPI_Cart_coords(st.cart, rank, g, st.coords.data()), "MPI_Cart_coords");
  st.sub.assign(std::size_t(g), MPI_COMM_NULL);
  for (int i = 0; i < g; ++i) {
    std::vector<int> keep(std::size_t(g), 0);
    keep[std::size_t(i)] = 1;
    check_mpi(MPI_Cart_sub(st.cart, keep.data(), &st.sub[std::size_t(i)]), "MPI_Cart_sub");
  }
  const int in_layout = options.in_layout == Layout::Natural ? 0 : g;
  const int out_layout = options.out_layout == Layout::Natural ? 0 : g;
  const std::vector<detail::Op> ops =
      detail::schedule(int(st.desc.shape.size()), g, st.desc.axes, in_layout, out_layout);
  st.dest = detail::destinations(ops);
  st.in = detail::block_of(st.desc.shape, st.grid, st.coords, in_layout);
  st.out = detail::block_of(st.desc.shape, st.grid, st.coords, out_layout);
  st.capacity = std::max(st.in.size(), st.out.size());
  bool uses_work = false;
  // A coefficient threshold belongs to the last local transform of a forward plan (its outputs)
  // or the first of an inverse plan (its inputs).
  std::size_t threshold_stage = ops.size();
  for (std::size_t k = 0; k < ops.size(); ++k)
    if (ops[k].kind == detail::Op::Kind::Transform &&
        (threshold_stage == ops.size() || st.desc.direction == Direction::Forward))
      threshold_stage = k;
  try {
    for (std::size_t k = 0; k < ops.size(); ++k) {
      detail::Stage s;
      s.op = ops[k];
      s.shape = detail::block_of(st.desc.shape, st.grid, st.coords, ops[k].layout).shape;
      st.capacity = std::max(st.capacity, Block{s.shape, {}}.size());
      uses_work = uses_work || st.dest[k] == detail::Buffer::Work;
      if (ops[k].kind == detail::Op::Kind::Transform) {
        if (Block{s.shape, {}}.size() > 0) {
          PlanDesc local = st.desc;
          if (k != threshold_stage) local.coefficient_threshold = 0;
          local.shape = s.shape;
          local.axes = ops[k].axes;
          local.transforms.clear();
          for (int a : ops[k].axes) {
            const auto it = std::find(st.desc.axes.begin(), st.desc.axes.end(), a);
            local.transforms.push_back(st.desc.transforms[std::size_t(it - st.desc.axes.begin())]);
          }
          s.local = std::make_unique<dctx::Plan>(local);
        }
      } else {
        s.comm = st.sub[std::size_t(ops[k].grid_dim)];
        st.make_transpose_types(
            s, detail::block_of(st.desc.shape, st.grid, st.coords, ops[k].to_layout).shape);
      }
      st.stages.push_back(std::move(s));
    }
    // An in-place call whose first stage is a transpose into the output reads a copy (Work).
    if (!ops.empty() && ops[0].kind == detail::Op::Kind::Transpose) uses_work = true;
    if (uses_work)
      st.work = std::make_unique<std::byte[]>(
          st.capacity * (st.desc.precision == Precision::F32 ? sizeof(float) : sizeof(double)));
    v = {};
  } catch (const Error& e) {
    v = {e.what(), e.kind()};
  } catch (const std::bad_alloc&) {
    v = {"out of memory for the local plans or the workspace (" + std::to_string(st.capacity) +
         " elements)"};
  }
  detail::agree(st.comm, v);
}

Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

const PlanDesc& Plan::desc() const { return state_->desc; }
Decomposition Plan::decomposition() const { return state_->decomposition; }
const std::vector<int>& Plan::process_grid() const { return state_->grid; }
const Block& Plan::in_block() const { return state_->in; }
const Block& Plan::out_block() const { return state_->out; }
std::size_t Plan::local_capacity() const { return state_->capacity; }
std::string Plan::describe() const { return state_->describe(); }
void Plan::agree(const std::string& local_error) const {
  detail::agree(state_->comm, {local_error});
}

void Plan::execute(std::span<const float> in, std::span<float> out) const {
  execute_typed(in, out);
}
void Plan::execute(std::span<const double> in, std::span<double> out) const {
  execute_typed(in, out);
}

template <class T>
void Plan::execute_typed(std::span<const T> in, std::span<T> out) const {
  const detail::PlanState& st = *state_;
  detail::Verdict v;
  const bool f32 = std::is_same_v<T, float>;
  const T* in_end = in.data() + in.size();
  const T* out_end = out.data() + out.size();
  const bool same = static_cast<const void*>(in.data()) == static_cast<const void*>(out.data());
  if ((st.desc.precision == Precision::F32) != f32)
    v.error = std::string("the plan is ") + std::string(to_string(st.desc.precision)) +
              "; the buffers are " + (f32 ? "float32" : "float64");
  else if (in.size() < st.in.size())
    v.error = "in holds " + std::to_string(in.size()) + " elements; this rank's input block " +
              dctx::detail::shape_str(st.in.shape) + " has " + std::to_string(st.in.size());
  else if (out.size() < st.capacity)
    v.error = "out holds " + std::to_string(out.size()) + " elements; this rank's output block " +
              dctx::detail::shape_str(st.out.shape) + " needs " + std::to_string(st.capacity) +
              " (local_capacity(): room for the transposes)";
  else if (!same && in.data() < out_end && out.data() < in_end && !in.empty())
    v.error = "in and out overlap without being the same memory (in place is in == out)";
  detail::agree(st.comm, v);

  T* const work = reinterpret_cast<T*>(st.work.get());
  const T* src = in.data();
  for (std::size_t k = 0; k < st.stages.size(); ++k) {
    const detail::Stage& s = st.stages[k];
    T* const dst = st.dest[k] == detail::Buffer::Out ? out.data() : work;
    if (s.op.kind == detail::Op::Kind::Transform) {
      if (s.local) {
        const Strides strides = detail::c_strides(s.shape);
        s.local->execute(src, strides.data(), dst, strides.data());
      }
    } else {
      if (src == dst) {  // in place and the first stage moves into the output: read a copy
        std::memcpy(work, src, st.in.size() * sizeof(T));
        src = work;
      }
      const T* const from = src;
      check_mpi(
          MPI_Alltoallw(from, s.send_counts.data(), s.zero_displs.data(), s.send_types.data(), dst,
                        s.recv_counts.data(), s.zero_displs.data(), s.recv_types.data(), s.comm),
          "MPI_Alltoallw");
    }
    src = dst;
  }
}

template void Plan::execute_typed(std::span<const float>, std::span<float>) const;
template void Plan::execute_typed(std::span<const double>, std::span<double>) const;

}  // namespace dctx::mpi
