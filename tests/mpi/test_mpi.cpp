// SPDX-License-Identifier: BSD-3-Clause
// Distributed plans under mpirun (1 to 4 ranks): every rank builds the same global random array,
// runs its block through the distributed plan and compares it with the long-double oracle and
// with the serial dctx plan of the whole array, to the serial bounds; errors are checked to
// arrive on every rank alike, with no rank left in a collective.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "dctx/mpi.hpp"
#include "mpi/collective.hpp"
#include "mpi/schedule.hpp"
#include "oracle/oracle.hpp"

namespace dctx::mpi {
namespace {

int comm_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}
int comm_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

std::size_t total(const Shape& s) { return Block{s, {}}.size(); }

// The block `b` of the C-ordered global array `g` of shape `shape`, in C order.
template <class T>
std::vector<T> extract(const std::vector<T>& g, const Shape& shape, const Block& b) {
  std::vector<T> out(b.size());
  std::vector<std::size_t> idx(shape.size(), 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::size_t flat = 0;
    for (std::size_t a = 0; a < shape.size(); ++a) flat = flat * shape[a] + b.offset[a] + idx[a];
    out[i] = g[flat];
    for (std::size_t a = shape.size(); a-- > 0;) {
      if (++idx[a] < b.shape[a]) break;
      idx[a] = 0;
    }
  }
  return out;
}

// Relative L2 error over the whole distributed array (every rank gets the same value).
template <class T, class W>
double global_rel_l2(const T* got, const std::vector<W>& want) {
  long double local[2] = {0, 0}, sum[2] = {0, 0};
  for (std::size_t i = 0; i < want.size(); ++i) {
    const long double d = static_cast<long double>(got[i]) - static_cast<long double>(want[i]);
    local[0] += std::isnan(static_cast<double>(got[i])) ? 1e30L : d * d;
    local[1] += static_cast<long double>(want[i]) * static_cast<long double>(want[i]);
  }
  MPI_Allreduce(local, sum, 2, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return static_cast<double>(std::sqrt(sum[0] / (sum[1] > 0 ? sum[1] : 1)));
}

struct Case {
  Shape shape;
  std::vector<int> axes;  // empty: all
  Decomposition dec;
};

const AxisTransform kAll[] = {{Kind::DCT, 1},  {Kind::DCT, 2},  {Kind::DCT, 3},  {Kind::DCT, 4},
                              {Kind::DST, 1},  {Kind::DST, 2},  {Kind::DST, 3},  {Kind::DST, 4},
                              {Kind::DXST, 2}, {Kind::DXST, 3}, {Kind::RDFT, 2}, {Kind::RDFT, 3}};
constexpr std::size_t kKinds = std::size(kAll);

template <class T>
void check_case(const Case& c, Layout in_layout, Layout out_layout, unsigned salt) {
  PlanDesc d;
  d.shape = c.shape;
  d.axes = c.axes;
  const std::vector<int> axes = resolve_axes(c.shape.size(), c.axes);
  for (std::size_t k = 0; k < axes.size(); ++k)
    d.transforms.push_back(kAll[(salt + 3 * k) % kKinds]);
  d.precision = sizeof(T) == 4 ? Precision::F32 : Precision::F64;
  d.norm = Norm(salt % 3);
  d.direction = Direction(salt / 3 % 2);
  SCOPED_TRACE(::testing::Message() << "shape " << ::testing::PrintToString(c.shape) << " axes "
                                    << ::testing::PrintToString(axes) << " dec " << int(c.dec)
                                    << " layouts " << int(in_layout) << "->" << int(out_layout)
                                    << " salt " << salt << " ranks " << comm_size());

  const Plan plan(d, MPI_COMM_WORLD, {c.dec, {}, in_layout, out_layout});
  const std::vector<T> global = oracle::random_vector<T>(total(c.shape), 1000 + salt);
  // The oracle and the serial plan on the whole array.
  std::vector<long double> x(global.begin(), global.end());
  const bool ortho = d.norm == Norm::Ortho;
  const std::vector<long double> want =
      oracle::reference_nd(c.shape, axes, d.transforms, d.norm, ortho, d.direction, x);
  std::vector<T> serial(global.size());
  dctx::Plan(d).execute(ConstView<T>(global.data(), c.shape), View<T>(serial.data(), c.shape));

  const std::vector<T> in = extract(global, c.shape, plan.in_block());
  std::vector<T> out(plan.local_capacity(), std::numeric_limits<T>::quiet_NaN());
  plan.execute(std::span<const T>(in), std::span<T>(out));

  std::size_t maxn = 0;
  for (int a : axes) maxn = std::max(maxn, c.shape[std::size_t(a)]);
  const double bound = oracle::tolerance<T>(maxn) * std::sqrt(double(axes.size()));
  const std::vector<long double> want_block = extract(want, c.shape, plan.out_block());
  EXPECT_LE(global_rel_l2(out.data(), want_block), bound);
  EXPECT_LE(global_rel_l2(out.data(), extract(serial, c.shape, plan.out_block())), 2 * bound);

  // In place, with the input in a buffer of local_capacity() elements.
  std::vector<T> io(plan.local_capacity(), std::numeric_limits<T>::quiet_NaN());
  std::copy(in.begin(), in.end(), io.begin());
  plan.execute(std::span<T>(io));
  EXPECT_LE(global_rel_l2(io.data(), want_block), bound);
}

std::vector<Case> cases() {
  return {{{8, 6}, {}, Decomposition::Slab},          {{5, 7}, {}, Decomposition::Slab},
          {{3, 9}, {}, Decomposition::Slab},          {{7, 5}, {0}, Decomposition::Slab},
          {{6, 5}, {1}, Decomposition::Slab},         {{6, 5, 4}, {}, Decomposition::Slab},
          {{6, 5, 4}, {}, Decomposition::Pencil},     {{3, 7, 5}, {}, Decomposition::Pencil},
          {{5, 4, 6}, {0, 2}, Decomposition::Pencil}, {{4, 6, 5}, {1}, Decomposition::Pencil},
          {{3, 4, 5, 2}, {}, Decomposition::Pencil},  {{4, 3, 2, 5}, {}, Decomposition::Slab},
          {{9, 2, 3}, {}, Decomposition::Auto}};
}

// Every case in every pair of layouts; `salt` varies kinds, norms and directions between calls.
template <class T>
void check_all(unsigned salt) {
  for (const Case& c : cases())
    for (Layout in : {Layout::Natural, Layout::Transposed})
      for (Layout out : {Layout::Natural, Layout::Transposed}) check_case<T>(c, in, out, salt++);
}

TEST(Distributed, MatchesOracleAndSerialFloat64) { check_all<double>(0); }
TEST(Distributed, MatchesOracleAndSerialFloat32) { check_all<float>(5); }

TEST(Distributed, TransposedOutputRoundTrip) {
  for (Decomposition dec : {Decomposition::Slab, Decomposition::Pencil}) {
    PlanDesc d;
    d.shape = {7, 6, 5};
    d.norm = Norm::Ortho;
    const Plan fwd(d, MPI_COMM_WORLD, {dec, {}, Layout::Natural, Layout::Transposed});
    d.direction = Direction::Inverse;
    const Plan inv(d, MPI_COMM_WORLD, {dec, {}, Layout::Transposed, Layout::Natural});
    const std::vector<double> global = oracle::random_vector<double>(total(d.shape), 7);
    const std::vector<double> x = extract(global, d.shape, fwd.in_block());
    std::vector<double> y(fwd.local_capacity()), z(inv.local_capacity());
    fwd.execute(std::span<const double>(x), std::span<double>(y));
    ASSERT_EQ(fwd.out_block().shape, inv.in_block().shape);
    inv.execute(std::span<const double>(y.data(), inv.in_block().size()), std::span<double>(z));
    EXPECT_LE(global_rel_l2(z.data(), x), oracle::tolerance<double>(7) * 2);
  }
}

// PlanDesc::coefficient_threshold on a distributed plan: the last local transform of a forward
// plan zeroes its small outputs, the first of an inverse plan its small inputs; the same values
// as the plain plan with a separate thresholding pass on the rank's block, bit for bit.
TEST(Distributed, CoefficientThresholdEqualsSeparatePass) {
  const auto zero_below = [](std::vector<double> v, double eps) {
    for (double& x : v)
      if (std::fabs(x) < eps) x = 0;
    return v;
  };
  for (Decomposition dec : {Decomposition::Slab, Decomposition::Pencil})
    for (Direction dir : {Direction::Forward, Direction::Inverse}) {
      PlanDesc d;
      d.shape = {6, 5, 8};
      d.norm = Norm::Ortho;
      d.direction = dir;
      const double eps = 0.5;
      const std::vector<double> global = oracle::random_vector<double>(total(d.shape), 77);
      const auto run = [&](const PlanDesc& desc, std::vector<double> in) {
        const Plan p(desc, MPI_COMM_WORLD, {dec, {}, Layout::Natural, Layout::Natural});
        in.resize(p.local_capacity());
        std::vector<double> out(p.local_capacity(), std::numeric_limits<double>::quiet_NaN());
        p.execute(std::span<const double>(in.data(), p.in_block().size()), std::span<double>(out));
        out.resize(p.out_block().size());
        return out;
      };
      const Plan plain(d, MPI_COMM_WORLD, {dec, {}, Layout::Natural, Layout::Natural});
      const std::vector<double> in = extract(global, d.shape, plain.in_block());
      const std::vector<double> want =
          dir == Direction::Forward ? zero_below(run(d, in), eps) : run(d, zero_below(in, eps));
      PlanDesc t = d;
      t.coefficient_threshold = eps;
      EXPECT_EQ(run(t, in), want) << "dec " << int(dec) << " dir " << int(dir);
    }
}

TEST(Distributed, AutoDecomposition) {
  // Slabs while every rank gets an index of axes 0 and 1; pencils after, unless MPI's grid is
  // P x 1 (3 ranks), which splits as slabs do.
  const int size = comm_size();
  PlanDesc d;
  d.shape = {2, 8, 8};
  const Plan p(d, MPI_COMM_WORLD);
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const bool pencil = size > 2 && dims[1] > 1;
  EXPECT_EQ(p.decomposition(), pencil ? Decomposition::Pencil : Decomposition::Slab);
  EXPECT_EQ(p.process_grid().size(), pencil ? 2u : 1u);
}

TEST(Distributed, BlocksTileTheArray) {
  for (Decomposition dec : {Decomposition::Slab, Decomposition::Pencil})
    for (Layout l : {Layout::Natural, Layout::Transposed}) {
      PlanDesc d;
      d.shape = {5, 3, 7};
      const Plan p(d, MPI_COMM_WORLD, {dec, {}, l, l});
      // Each rank marks its block; the sum over ranks covers every element exactly once.
      std::vector<int> mark(total(d.shape), 0), sum(mark.size(), 0);
      const Block& b = p.in_block();
      std::vector<int> ones(b.size(), 1);
      const std::vector<std::size_t> shape = d.shape;
      std::vector<std::size_t> idx(3, 0);
      for (std::size_t i = 0; i < b.size(); ++i) {
        mark[((b.offset[0] + idx[0]) * shape[1] + b.offset[1] + idx[1]) * shape[2] + b.offset[2] +
             idx[2]] += 1;
        for (std::size_t a = 3; a-- > 0;) {
          if (++idx[a] < b.shape[a]) break;
          idx[a] = 0;
        }
      }
      MPI_Allreduce(mark.data(), sum.data(), int(sum.size()), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      for (int s : sum) ASSERT_EQ(s, 1);
    }
}

// Every rank gets the error, and the communicator still works afterwards (nobody is stuck).
void expect_everywhere(const std::function<void()>& fn, const std::string& part) {
  std::string what;
  try {
    fn();
  } catch (const Error& e) {
    what = e.what();
  }
  EXPECT_NE(what.find(part), std::string::npos) << "message: '" << what << "'";
  // The same message on every rank.
  const std::string first = detail::broadcast(MPI_COMM_WORLD, what, 0);
  EXPECT_EQ(what, first);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(Errors, ArriveOnEveryRank) {
  const int size = comm_size(), rank = comm_rank();
  PlanDesc d;
  d.shape = {6, 5, 4};
  // A description that differs on the last rank.
  if (size > 1)
    expect_everywhere(
        [&] {
          PlanDesc mine = d;
          if (rank == size - 1) mine.shape[2] = 3;
          Plan p(mine, MPI_COMM_WORLD);
        },
        "the ranks describe different transforms");
  // A description that is invalid on one rank only.
  expect_everywhere(
      [&] {
        PlanDesc mine = d;
        if (rank == size - 1) mine.type = 5;
        Plan p(mine, MPI_COMM_WORLD);
      },
      "type");
  expect_everywhere(
      [&] {
        Plan p(d, MPI_COMM_WORLD, {Decomposition::Auto, {size + 1}});
      },
      "needs " + std::to_string(size + 1) + " processes; the communicator has " +
          std::to_string(size));
  expect_everywhere(
      [&] {
        Plan p(d, MPI_COMM_WORLD, {Decomposition::Slab, {1, size}});
      },
      "is a pencil grid; the decomposition asked for is slab");
  expect_everywhere(
      [&] {
        PlanDesc flat = d;
        flat.shape = {6, 5};
        Plan p(flat, MPI_COMM_WORLD, {Decomposition::Pencil});
      },
      "a pencil decomposition needs an array of rank 3 or more");
  expect_everywhere(
      [&] {
        PlanDesc line = d;
        line.shape = {64};
        Plan p(line, MPI_COMM_WORLD);
      },
      "needs an array of rank 2 or more");

  // Buffers: too small on the last rank only; the wrong element type; overlapping.
  const Plan p(d, MPI_COMM_WORLD);
  std::vector<double> in(p.in_block().size(), 1.0), out(p.local_capacity());
  expect_everywhere(
      [&] {
        const std::size_t n = rank == size - 1 ? p.local_capacity() - 1 : p.local_capacity();
        p.execute(std::span<const double>(in), std::span<double>(out.data(), n));
      },
      "elements; this rank's output block");
  expect_everywhere(
      [&] {
        const std::size_t n = rank == 0 ? p.in_block().size() - 1 : p.in_block().size();
        p.execute(std::span<const double>(in.data(), n), std::span<double>(out));
      },
      "this rank's input block");
  std::vector<float> fin(in.size()), fout(out.size());
  expect_everywhere([&] { p.execute(std::span<const float>(fin), std::span<float>(fout)); },
                    "the plan is float64; the buffers are float32");
  std::vector<double> both(2 * p.local_capacity() + 2, 1.0);
  expect_everywhere(
      [&] {
        p.execute(std::span<const double>(both.data() + 1, p.in_block().size()),
                  std::span<double>(both.data() + 2, p.local_capacity()));
      },
      "overlap");
  // And the plan still runs.
  p.execute(std::span<const double>(in), std::span<double>(out));
}

TEST(Schedule, WalksTheLayouts) {
  using detail::Op;
  // Pencils over a 3D array, natural to natural: two transposes out, two back.
  auto ops = detail::schedule(3, 2, {0, 1, 2}, 0, 0);
  EXPECT_EQ(detail::to_string(ops),
            "transform axes (2), transpose axis 1 -> 2, transform axes (1), "
            "transpose axis 0 -> 1, transform axes (0), transpose axis 1 -> 0, "
            "transpose axis 2 -> 1");
  // Transposed output: no way back. Transposed input: the walk the other way.
  EXPECT_EQ(detail::to_string(detail::schedule(3, 2, {0, 1, 2}, 0, 2)),
            "transform axes (2), transpose axis 1 -> 2, transform axes (1), "
            "transpose axis 0 -> 1, transform axes (0)");
  EXPECT_EQ(detail::to_string(detail::schedule(3, 2, {0, 1, 2}, 2, 0)),
            "transform axes (0), transpose axis 1 -> 0, transform axes (1), "
            "transpose axis 2 -> 1, transform axes (2)");
  // Slabs: the local axes together, one transpose.
  EXPECT_EQ(detail::to_string(detail::schedule(3, 1, {0, 1, 2}, 0, 1)),
            "transform axes (1, 2), transpose axis 0 -> 1, transform axes (0)");
  // Only whole axes: no communication at all.
  EXPECT_EQ(detail::to_string(detail::schedule(3, 1, {2}, 0, 0)), "transform axes (2)");
  // The last stage writes the output; every transpose changes buffer.
  for (int in : {0, 2})
    for (int out : {0, 2}) {
      ops = detail::schedule(4, 2, {3, 0, 1}, in, out);
      const auto dest = detail::destinations(ops);
      ASSERT_FALSE(dest.empty());
      EXPECT_EQ(dest.back(), detail::Buffer::Out);
      for (std::size_t k = 1; k < ops.size(); ++k)
        if (ops[k].kind == Op::Kind::Transpose) {
          EXPECT_NE(dest[k], dest[k - 1]);
        }
    }
}

TEST(Schedule, SplitIsBalanced) {
  EXPECT_EQ(split(10, 4, 0).extent, 3u);
  EXPECT_EQ(split(10, 4, 1).offset, 3u);
  EXPECT_EQ(split(10, 4, 3).extent, 2u);
  EXPECT_EQ(split(10, 4, 3).offset, 8u);
  EXPECT_EQ(split(2, 4, 3).extent, 0u);
  EXPECT_EQ(split(2, 4, 3).offset, 2u);
}

}  // namespace
}  // namespace dctx::mpi

// MPI around GoogleTest: every rank runs every test; only rank 0 prints the report.
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
