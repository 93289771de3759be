// SPDX-License-Identifier: BSD-3-Clause
// The 8x8 block engine on OpenCL (src/opencl/block8_plan.cpp, kernels/block8.cl: the kernels of
// Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with CUDA") against the CPU
// engine: every operation, kernel and data type on uneven planes with replicated edges, batches,
// strided, negative-stride and permuted views, in place and partially overlapping, NaN
// coefficients, the one-shot functions, and the JPEG-style pipeline on Barbara. Outputs start
// poisoned (a NaN payload or an int16 sentinel) so that an element left unwritten, or written
// outside the view, shows. Skips when no OpenCL device is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dctx/backend.hpp"
#include "dctx/block8.hpp"
#include "expect_error.hpp"
#include "opencl/opencl_test.hpp"
#ifdef DCTX_DATA_DIR
#include "dctx/image_io.hpp"
#endif

namespace dctx {
namespace {

using testing_support::expect_error;
using I16 = std::int16_t;

class OpenClBlock8 : public test::OpenClTest {};

// ---- Batches of planes inside a backing buffer.

enum class Layout { Dense, Gappy, Flipped, Transposed };
const char* name(Layout k) {
  switch (k) {
    case Layout::Dense: return "dense";
    case Layout::Gappy: return "gappy";
    case Layout::Flipped: return "flipped";
    case Layout::Transposed: return "transposed";
  }
  return "";
}

struct Geometry {
  std::size_t n[3];         // planes, rows, columns
  std::ptrdiff_t s[3];      // element strides
  std::size_t size = 0;     // backing elements
  std::ptrdiff_t base = 0;  // offset of element (0, 0, 0)
  bool batch = true;        // a 3D view (else 2D: one plane)
  std::ptrdiff_t at(std::size_t b, std::size_t r, std::size_t c) const {
    return base + std::ptrdiff_t(b) * s[0] + std::ptrdiff_t(r) * s[1] + std::ptrdiff_t(c) * s[2];
  }
};

// Dense; gappy (gaps between rows and planes, every other column backwards: the host gathers
// it); flipped (rows and planes backwards, compact); transposed (column-major, compact).
Geometry geometry(Layout k, std::size_t planes, std::size_t rows, std::size_t cols, bool batch) {
  Geometry g{{planes, rows, cols}, {0, 0, 0}};
  const auto r = std::ptrdiff_t(rows), c = std::ptrdiff_t(cols);
  switch (k) {
    case Layout::Dense: g.s[0] = r * c, g.s[1] = c, g.s[2] = 1; break;
    case Layout::Gappy: g.s[2] = -2, g.s[1] = 2 * c + 5, g.s[0] = -((2 * c + 5) * r + 7); break;
    case Layout::Flipped: g.s[0] = -r * c, g.s[1] = -c, g.s[2] = 1; break;
    case Layout::Transposed: g.s[0] = r * c, g.s[1] = 1, g.s[2] = r; break;
  }
  std::ptrdiff_t lo = 0, hi = 0;
  for (int d = 0; d < 3; ++d) {
    const std::ptrdiff_t reach = g.s[d] * std::ptrdiff_t(g.n[d] - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  g.size = std::size_t(hi - lo + 1);
  g.base = -lo;
  g.batch = batch;
  return g;
}

template <class T>
ArrayView<T> view(std::vector<std::remove_const_t<T>>& buf, const Geometry& g) {
  T* p = buf.data() + g.base;
  if (g.batch) return ArrayView<T>(p, {g.n[0], g.n[1], g.n[2]}, {g.s[0], g.s[1], g.s[2]});
  return ArrayView<T>(p, {g.n[1], g.n[2]}, {g.s[1], g.s[2]});
}

// Poison: a NaN with a payload no arithmetic makes, or an int16 no kernel here writes.
template <class T>
T poison() {
  if constexpr (std::is_same_v<T, float>) {
    const std::uint32_t bits = 0x7fa5a5a5u;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  } else {
    return T{-31111};
  }
}
bool is_poison(float v) {
  std::uint32_t a, b;
  const float p = poison<float>();
  std::memcpy(&a, &v, 4);
  std::memcpy(&b, &p, 4);
  return a == b;
}
bool is_poison(I16 v) { return v == poison<I16>(); }

// What an input holds.
enum class Content { Samples, Coefficients, Levels };

// Fills the view's elements of a poisoned buffer (the gaps stay poisoned: reading them shows).
template <class T>
std::vector<T> input(const Geometry& g, Content what, const QuantTable& table, unsigned seed) {
  std::vector<T> buf(g.size, poison<T>());
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> pick(0, 99);
  for (std::size_t b = 0; b < g.n[0]; ++b)
    for (std::size_t r = 0; r < g.n[1]; ++r)
      for (std::size_t c = 0; c < g.n[2]; ++c) {
        const int q = table.q[8 * (r % 8) + c % 8];
        const int p = pick(rng);
        double v = 0;
        switch (what) {
          case Content::Samples:  // beyond the Int16 kernel's 11-bit domain now and then
            v = std::is_same_v<T, float> ? 128.0 * unit(rng) : std::round(1100.0 * unit(rng));
            break;
          case Content::Coefficients:  // half-way between levels one time in eight
            v = p < 12 ? (std::round(20.0 * unit(rng)) + 0.5) * q : 700.0 * unit(rng);
            if (std::is_same_v<T, I16>) v = p < 12 && q % 2 == 0 ? v : std::round(v * 3.0);
            break;
          case Content::Levels:  // saturating products now and then
            v = p < 2 ? (p ? 32767.0 : -32768.0) : std::round(30.0 * unit(rng));
            break;
        }
        buf[std::size_t(g.at(b, r, c))] = static_cast<T>(v);
      }
  return buf;
}

// Whether `ocl` runs the kernel by definition in float (a device without cl_khr_fp64: ctest
// opencl.fp64_masked runs this suite again with it masked); its results are then the CPU's
// within float rounding, not operation for operation.
bool float_reference(const Block8Plan& ocl) {
  return ocl.describe().find("no fp64") != std::string::npos;
}

bool opencl_fp64() {
  Block8PlanDesc d;
  d.kernel = Block8Kernel::Reference;
  d.backend = BackendKind::OpenCL;
  return !float_reference(Block8Plan(d));
}

// Compares whole output buffers: integer elements exactly, float elements within 2e-6 of the
// largest magnitude (bitwise-different ones counted in *differ), NaN for NaN, poison for poison.
// With a `slack` (the kernel by definition in float): integers within it on at most 3 % of the
// elements, floats within 1e-5.
template <class T>
void expect_same(const std::vector<T>& cpu, const std::vector<T>& ocl, std::size_t* differ,
                 int slack = 0) {
  const bool loose = slack > 0;
  ASSERT_EQ(cpu.size(), ocl.size());
  double scale = 1;
  for (T v : cpu)
    if (!std::isnan(double(v)) && !std::isinf(double(v)))
      scale = std::max(scale, std::abs(double(v)));
  std::size_t bad = 0, off = 0;
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    const double a = cpu[i], b = ocl[i];
    bool ok = is_poison(cpu[i]) == is_poison(ocl[i]) && std::isnan(a) == std::isnan(b);
    if constexpr (std::is_same_v<T, float>) {
      if (ok && !std::isnan(a)) ok = a == b || std::abs(a - b) <= (loose ? 1e-5 : 2e-6) * scale;
      if (std::memcmp(&cpu[i], &ocl[i], sizeof(T)) != 0 && !std::isnan(a)) ++*differ;
    } else if (loose && ok && !is_poison(cpu[i]) && a != b && std::abs(a - b) <= slack) {
      ++off;
    } else {
      ok = ok && cpu[i] == ocl[i];
    }
    if (!ok && ++bad <= 3)
      ADD_FAILURE() << "element " << i << ": cpu " << a << (is_poison(cpu[i]) ? " (poison)" : "")
                    << ", opencl " << b << (is_poison(ocl[i]) ? " (poison)" : "");
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_LE(off, cpu.size() * 3 / 100);
}

// The integer slack of the kernel by definition in float: a level or a sample may round the other
// way (one), and in a roundtrip a level one off moves its coefficient by up to the table's
// largest step q, which moves each sample by at most q / 4 (the largest 8x8 orthonormal basis
// value): the bound for one level off per block, which the float sums' rounding makes rare.
int float_reference_slack(const Block8Plan& ocl, const Block8PlanDesc& d) {
  if (!float_reference(ocl)) return 0;
  if (d.op != Block8Op::Roundtrip) return 1;
  const QuantTable t = d.table ? *d.table : quant_table_nvidia();
  return 1 + *std::max_element(t.q.begin(), t.q.end()) / 4;
}

// Zero counts of the two back ends: equal, or within 1 % of the coefficients for the kernel by
// definition in float.
void expect_same_zeros(const Block8Stats& cpu, const Block8Stats& ocl, bool loose) {
  if (loose)
    EXPECT_LE(std::abs(double(cpu.zeros) - double(ocl.zeros)), 0.01 * double(cpu.coefficients));
  else
    EXPECT_EQ(cpu.zeros, ocl.zeros);
}

// The element types of an operation: int16 where it takes or makes levels or runs on int16 data.
template <class F>
void with_types(const Block8PlanDesc& d, F f) {
  const bool d16 = d.data == Block8Data::Int16;
  const bool in16 = d16 || d.op == Block8Op::InverseDequantized || d.op == Block8Op::Dequantize;
  const bool out16 = d16 || d.op == Block8Op::ForwardQuantized || d.op == Block8Op::Quantize;
  if (in16 && out16) f(I16{}, I16{});
  if (in16 && !out16) f(I16{}, float{});
  if (!in16 && out16) f(float{}, I16{});
  if (!in16 && !out16) f(float{}, float{});
}

std::size_t up8(std::size_t n) { return (n + 7) / 8 * 8; }

struct Totals {
  std::size_t float_elements = 0, float_differ = 0;
};

// One description on both back ends, samples planes of rows x cols (uneven: replicated edges),
// input and output laid out as asked; outputs and zero counts must agree.
void compare(Block8PlanDesc d, std::size_t planes, std::size_t rows, std::size_t cols,
             Layout in_layout, Layout out_layout, unsigned seed, Totals* totals = nullptr) {
  d.edge = Block8Edge::Replicate;
  const QuantTable table = d.table ? *d.table : quant_table_nvidia();
  std::size_t ir = rows, ic = cols, orows = rows, ocols = cols;
  Content what = Content::Samples;
  switch (d.op) {
    case Block8Op::Forward:
    case Block8Op::ForwardQuantized: orows = up8(rows), ocols = up8(cols); break;
    case Block8Op::Roundtrip: break;
    case Block8Op::Inverse:
    case Block8Op::InverseDequantized:
      ir = up8(rows), ic = up8(cols);
      what = d.op == Block8Op::Inverse ? Content::Coefficients : Content::Levels;
      break;
    case Block8Op::Quantize:
    case Block8Op::Dequantize:
      ir = orows = up8(rows), ic = ocols = up8(cols);
      what = d.op == Block8Op::Quantize ? Content::Coefficients : Content::Levels;
      break;
  }
  const bool batch = planes > 1 || seed % 2;
  const Geometry gi = geometry(in_layout, planes, ir, ic, batch);
  const Geometry go = geometry(out_layout, planes, orows, ocols, batch);
  with_types(d, [&](auto ti, auto to) {
    using TI = decltype(ti);
    using TO = decltype(to);
    auto in = input<TI>(gi, what, table, seed);
    d.backend = BackendKind::CPU;
    const Block8Plan cpu(d);
    d.backend = BackendKind::OpenCL;
    const Block8Plan ocl(d);
    SCOPED_TRACE(ocl.describe() + ", " + std::to_string(planes) + " x " + std::to_string(rows) +
                 " x " + std::to_string(cols) + ", in " + name(in_layout) + ", out " +
                 name(out_layout));
    EXPECT_EQ(ocl.describe().rfind("opencl[", 0), 0u);
    std::vector<TO> a(go.size, poison<TO>()), b = a;
    const Block8Stats sa = cpu.execute(view<const TI>(in, gi), view<TO>(a, go));
    const Block8Stats sb = ocl.execute(view<const TI>(in, gi), view<TO>(b, go));
    EXPECT_EQ(sa.coefficients, sb.coefficients);
    const int slack = float_reference_slack(ocl, d);
    expect_same_zeros(sa, sb, slack > 0);
    std::size_t differ = 0;
    expect_same(a, b, &differ, slack);
    if (totals && std::is_same_v<TO, float>) {
      totals->float_elements += a.size();
      totals->float_differ += differ;
    }
  });
}

const Block8Op kOps[] = {Block8Op::Forward,
                         Block8Op::Inverse,
                         Block8Op::Roundtrip,
                         Block8Op::ForwardQuantized,
                         Block8Op::InverseDequantized,
                         Block8Op::Quantize,
                         Block8Op::Dequantize};

Block8PlanDesc desc(Block8Op op, Block8Data data, Block8Kernel kernel) {
  Block8PlanDesc d;
  d.op = op;
  d.data = data;
  d.kernel = op == Block8Op::Quantize || op == Block8Op::Dequantize ? Block8Kernel::Auto : kernel;
  if (op != Block8Op::Forward && op != Block8Op::Inverse) d.table = quant_table_jpeg_luma(80);
  return d;
}

// Every (operation, data type, kernel) the CPU engine runs.
std::vector<Block8PlanDesc> every_desc() {
  std::vector<Block8PlanDesc> all;
  for (Block8Op op : kOps)
    for (Block8Data data : {Block8Data::Float32, Block8Data::Int16})
      for (Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast, Block8Kernel::Int16}) {
        const bool elementwise = op == Block8Op::Quantize || op == Block8Op::Dequantize;
        if (k == Block8Kernel::Int16 && data == Block8Data::Float32) continue;
        if (elementwise && k != Block8Kernel::Fast) continue;  // no kernel: once per type
        all.push_back(desc(op, data, k));
      }
  return all;
}

TEST_F(OpenClBlock8, EveryOperationKernelAndType) {
  Totals t;
  unsigned seed = 1;
  for (const Block8PlanDesc& d : every_desc()) {
    compare(d, 2, 21, 35, Layout::Dense, Layout::Dense, seed++, &t);
    compare(d, 1, 8, 8, Layout::Dense, Layout::Dense, seed++, &t);     // one block
    compare(d, 1, 41, 300, Layout::Dense, Layout::Dense, seed++, &t);  // several work-groups
  }
  // Float results are the CPU engine's operation for operation (the same flowgraphs, fused
  // multiply-adds where the CPU's have them, the reference in double): they are expected to be
  // bit-identical; the bound checked is float tolerance, the count is reported.
  std::printf("[ OPENCL8 ] float outputs: %zu of %zu elements differ from the CPU's in any bit\n",
              t.float_differ, t.float_elements);
}

TEST_F(OpenClBlock8, StridedNegativeAndPermutedViews) {
  const Layout layouts[] = {Layout::Dense, Layout::Gappy, Layout::Flipped, Layout::Transposed};
  unsigned seed = 100;
  for (const Block8PlanDesc& d : every_desc())
    for (Layout in : layouts)
      for (Layout out : layouts)
        if (in == Layout::Dense || out == Layout::Dense || in == out)
          compare(d, 3, 13, 19, in, out, seed++);
}

TEST_F(OpenClBlock8, InPlaceAndPartialOverlap) {
  // The same views in and out (Overlap::Same), and an output shifted by a few elements inside
  // the input's buffer (Overlap::Partial: all of the input is read before any output lands).
  for (Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast, Block8Kernel::Int16})
    for (Block8Op op : {Block8Op::Forward, Block8Op::Roundtrip, Block8Op::Inverse})
      for (std::ptrdiff_t shift : {0, 3, -17}) {
        Block8PlanDesc d =
            desc(op, k == Block8Kernel::Int16 ? Block8Data::Int16 : Block8Data::Float32, k);
        d.edge = Block8Edge::Replicate;
        with_types(d, [&](auto ti, auto) {
          using T = decltype(ti);
          const QuantTable tq = d.table ? *d.table : quant_table_nvidia();
          Geometry gi = geometry(Layout::Dense, 2, 16, 24, true);
          gi.base += 20;  // room on both sides of the input for the shifted output
          gi.size += 40;
          Geometry go = gi;
          go.base += shift;
          const Content what = op == Block8Op::Inverse ? Content::Coefficients : Content::Samples;
          const std::vector<T> init = input<T>(gi, what, tq, unsigned(7 + shift));
          std::vector<T> a = init, b = init;
          d.backend = BackendKind::CPU;
          const Block8Stats sa = Block8Plan(d).execute(view<const T>(a, gi), view<T>(a, go));
          d.backend = BackendKind::OpenCL;
          const Block8Plan ocl(d);
          SCOPED_TRACE(ocl.describe() + " shift " + std::to_string(shift));
          const Block8Stats sb = ocl.execute(view<const T>(b, gi), view<T>(b, go));
          EXPECT_EQ(sa.zeros, sb.zeros);
          std::size_t differ = 0;
          expect_same(a, b, &differ);
        });
      }
}

TEST_F(OpenClBlock8, NaNCoefficients) {
  // A NaN sample makes NaN coefficients: no level for them (an error, as on the CPU), while the
  // fused round trip carries them through as the CPU does.
  const QuantTable t = quant_table_nvidia();
  std::vector<float> x(16 * 16, 3.0f), levels(16 * 16);
  x[37] = std::nanf("");
  std::vector<I16> lv(16 * 16);
  const ConstView<float> in(x.data(), {16, 16});
  for (Block8Kernel k : {Block8Kernel::Reference, Block8Kernel::Fast}) {
    Block8Options o{k, Block8Edge::Error, 1, BackendKind::OpenCL};
    expect_error(
        [&] {
          block8_forward_quantized(in, View<I16>(lv.data(), {16, 16}), t, o);
        },
        "NaN");
    std::vector<float> a(x.size()), b(x.size());
    o.backend = BackendKind::CPU;
    const auto sa = block8_roundtrip_quantized(in, View<float>(a.data(), {16, 16}), t, o);
    o.backend = BackendKind::OpenCL;
    const auto sb = block8_roundtrip_quantized(in, View<float>(b.data(), {16, 16}), t, o);
    EXPECT_EQ(sa.zeros, sb.zeros);
    std::size_t differ = 0;
    expect_same(a, b, &differ);
    EXPECT_TRUE(std::isnan(b[37]));
  }
  Block8PlanDesc q = desc(Block8Op::Quantize, Block8Data::Float32, Block8Kernel::Auto);
  q.backend = BackendKind::OpenCL;
  expect_error([&] { Block8Plan(q).execute(in, View<I16>(lv.data(), {16, 16})); }, "NaN");
}

TEST_F(OpenClBlock8, ExtremeValues) {
  // Saturation: int16 coefficients beyond int16, float levels beyond int16 (the fused pass keeps
  // them as floats), infinities.
  std::vector<float> x(16 * 24);
  std::vector<I16> s(16 * 24);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = (i % 5 == 0 ? 3e7f : -2e6f) * float(i % 7);
    s[i] = I16(i % 3 == 0 ? 32767 : -32768 + int(i % 11));
  }
  x[50] = INFINITY;
  for (const Block8PlanDesc& d0 : every_desc()) {
    if (d0.op == Block8Op::Inverse || d0.op == Block8Op::InverseDequantized ||
        d0.op == Block8Op::Dequantize || d0.op == Block8Op::Quantize)
      continue;
    Block8PlanDesc d = d0;
    const bool i16 = d.data == Block8Data::Int16;
    with_types(d, [&](auto ti, auto to) {
      using TI = decltype(ti);
      using TO = decltype(to);
      std::vector<TI> in;
      if constexpr (std::is_same_v<TI, float>)
        in = x;
      else
        in = s;
      const std::size_t on = 16 * 24;
      std::vector<TO> a(on, poison<TO>()), b = a;
      const ConstView<TI> iv(in.data(), {16, 24});
      d.backend = BackendKind::CPU;
      const Block8Plan cpu(d);
      d.backend = BackendKind::OpenCL;
      const Block8Plan ocl(d);
      SCOPED_TRACE(ocl.describe());
      // Where the infinity makes a NaN coefficient to quantize, both refuse.
      Block8Stats sa;
      try {
        sa = cpu.execute(iv, View<TO>(a.data(), {16, 24}));
      } catch (const Error& e) {
        EXPECT_FALSE(i16) << e.what();
        expect_error([&] { ocl.execute(iv, View<TO>(b.data(), {16, 24})); }, "NaN");
        return;
      }
      const auto sb = ocl.execute(iv, View<TO>(b.data(), {16, 24}));
      const int slack = float_reference_slack(ocl, d);
      expect_same_zeros(sa, sb, slack > 0);
      std::size_t differ = 0;
      expect_same(a, b, &differ, slack);
    });
  }
}

TEST_F(OpenClBlock8, OneShotFunctions) {
  // The functions take the back end through Block8Options.
  const Geometry g = geometry(Layout::Dense, 1, 24, 32, false);
  const QuantTable t = quant_table_jpeg_chroma(60);
  auto x = input<float>(g, Content::Samples, t, 9);
  std::vector<float> a(x.size()), b(x.size());
  Block8Options o{Block8Kernel::Fast, Block8Edge::Error, 1, BackendKind::CPU};
  block8_forward(view<const float>(x, g), view<float>(a, g), o);
  o.backend = BackendKind::OpenCL;
  block8_forward(view<const float>(x, g), view<float>(b, g), o);
  std::size_t differ = 0;
  expect_same(a, b, &differ);
  std::vector<I16> la(x.size()), lb(x.size());
  o.backend = BackendKind::CPU;
  const auto sa = block8_forward_quantized(view<const float>(x, g), view<I16>(la, g), t, o);
  o.backend = BackendKind::OpenCL;
  const auto sb = block8_forward_quantized(view<const float>(x, g), view<I16>(lb, g), t, o);
  EXPECT_EQ(sa.zeros, sb.zeros);
  EXPECT_EQ(la, lb);
  block8_inverse_dequantized(view<const I16>(lb, g), view<float>(b, g), t, o);
  o.backend = BackendKind::CPU;
  block8_inverse_dequantized(view<const I16>(la, g), view<float>(a, g), t, o);
  expect_same(a, b, &differ);
}

// Without cl_khr_fp64 (ctest opencl.fp64_masked sets DCTX_OPENCL_NO_FP64=1) the kernel by
// definition runs in float: within float rounding of the CPU's double, int16 results and levels
// within one (a float sum can land on the other side of a rounding boundary).
TEST_F(OpenClBlock8, ReferenceInFloatWithoutFp64) {
  for (Block8Op op : {Block8Op::Forward, Block8Op::Inverse, Block8Op::ForwardQuantized})
    for (Block8Data data : {Block8Data::Float32, Block8Data::Int16}) {
      Block8PlanDesc d = desc(op, data, Block8Kernel::Reference);
      d.backend = BackendKind::OpenCL;
      const Block8Plan ocl(d);
      if (!float_reference(ocl))
        GTEST_SKIP() << "the device has fp64 (DCTX_OPENCL_NO_FP64=1 masks it)";
      SCOPED_TRACE(ocl.describe());
      d.backend = BackendKind::CPU;
      const Block8Plan cpu(d);
      const Geometry g = geometry(Layout::Dense, 2, 24, 32, true);
      const Content what = op == Block8Op::Inverse ? Content::Coefficients : Content::Samples;
      with_types(d, [&](auto ti, auto to) {
        using TI = decltype(ti);
        using TO = decltype(to);
        auto in = input<TI>(g, what, d.table.value_or(quant_table_nvidia()), 3);
        std::vector<TO> a(g.size), b(g.size);
        cpu.execute(view<const TI>(in, g), view<TO>(a, g));
        ocl.execute(view<const TI>(in, g), view<TO>(b, g));
        double scale = 1, worst = 0;
        std::size_t off = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
          scale = std::max(scale, std::abs(double(a[i])));
          worst = std::max(worst, std::abs(double(a[i]) - double(b[i])));
          off += a[i] != b[i];
        }
        if constexpr (std::is_same_v<TO, float>) {
          EXPECT_LE(worst, 1e-5 * scale);
        } else {
          EXPECT_LE(worst, 1.0);
          EXPECT_LE(off, a.size() / 100);
        }
      });
    }
}

#ifdef DCTX_DATA_DIR
// The whitepaper's pipeline (section 4), jpeg_roundtrip with backend = OpenCL against the same
// call on the CPU: the image within 50 dB of the CPU's, Barbara's 32.777 dB against the original.
TEST_F(OpenClBlock8, BarbaraPipeline) {
  // DCTX_DATA_DIR in the environment overrides the source tree's (scripts/gpu-check.sh runs the
  // binary from another checkout).
  const char* env = std::getenv("DCTX_DATA_DIR");
  const Image rgb = read_image(std::string(env && *env ? env : DCTX_DATA_DIR) + "/barbara.bmp");
  for (Block8Kernel k : {Block8Kernel::Fast, Block8Kernel::Reference, Block8Kernel::Int16}) {
    JpegOptions jo;
    jo.kernel = k;
    const JpegResult cpu = jpeg_roundtrip(rgb, jo);
    jo.backend = BackendKind::OpenCL;
    const JpegResult ocl = jpeg_roundtrip(rgb, jo);
    EXPECT_EQ(ocl.backend.rfind("opencl:", 0), 0u) << ocl.backend;
    const double vs_cpu = psnr(cpu.image, ocl.image);
    std::printf(
        "[ OPENCL8 ] Barbara %s: %.6f dB against the original (cpu %.6f), %.2f dB "
        "against the cpu, zeros %.6f (cpu %.6f)\n",
        std::string(to_string(k)).c_str(), ocl.psnr_db, cpu.psnr_db, vs_cpu, ocl.zero_fraction,
        cpu.zero_fraction);
    EXPECT_GE(vs_cpu, 50.0) << to_string(k);
    EXPECT_EQ(std::lround(ocl.psnr_db * 1000), std::lround(cpu.psnr_db * 1000)) << to_string(k);
    if (k != Block8Kernel::Int16) {
      EXPECT_EQ(std::lround(ocl.psnr_db * 1000), 32777);
    }
    // The kernel by definition in float (no cl_khr_fp64) may round a few levels the other way.
    const bool loose = k == Block8Kernel::Reference && !opencl_fp64();
    if (loose)
      EXPECT_NEAR(ocl.zero_fraction, cpu.zero_fraction, 1e-3) << to_string(k);
    else
      EXPECT_EQ(ocl.zero_fraction, cpu.zero_fraction) << to_string(k);
  }
}
#endif

}  // namespace
}  // namespace dctx
