// SPDX-License-Identifier: BSD-3-Clause
// The OpenCL back end's 8x8 block plans (core/block8_backend.hpp) over the kernels of block8.cl
// (Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with CUDA": the kernel by
// definition, the separable kernel with the Arai-Agui-Nakajima flowgraph, and the
// Loeffler-Ligtenberg-Moschytz fixed-point kernel). A plane batch on the host goes to the device
// as the span it occupies when it fills that span (any strides, negative ones included), else
// gathered densely; the kernels read it with its strides, replicate its last row and column,
// write the output with its strides and crop it; zero levels are summed per work-group on the
// device and over work-groups on the host.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "block8/constants.hpp"
#include "core/block8_backend.hpp"
#include "opencl/plans.hpp"

namespace dctx::ocl {
namespace {

using detail::Block8HostCall;
using detail::Block8Planes;

constexpr const char* kSource = "block8.cl";
constexpr std::size_t kMaxSide = std::size_t{1} << 30;  // rows and columns index as int

// A float as an OpenCL literal, exactly ("0x1.6a09e6p-1f").
std::string hex_float(float f) {
  char b[64];
  std::snprintf(b, sizeof b, "%af", static_cast<double>(f));
  return b;
}

std::string llm_list(const block8::LlmConstants& k) {
  const std::int32_t v[12] = {k.k0541, k.k0765, k.k1847, k.k1175, k.k0298, k.k2053,
                              k.k3072, k.k1501, k.k0899, k.k2562, k.k1961, k.k0390};
  std::string s;
  for (std::int32_t x : v) {
    if (!s.empty()) s += ',';
    s += std::to_string(x);
  }
  return s;
}

// The constants of src/block8/constants.hpp as build options (one source of truth with the CPU).
const std::string& constant_options() {
  static const std::string s = [] {
    using namespace block8;
    const auto d = [](const char* name, const std::string& value) {
      return std::string(" -D ") + name + "=" + value;
    };
    const auto i = [&](const char* name, std::int32_t v) {  // negative values parenthesised
      std::string value = std::to_string(v);
      if (v < 0) {
        value.insert(value.begin(), '(');
        value.push_back(')');
      }
      return d(name, value);
    };
    return d("AAN_C4", hex_float(kAanC4)) + d("AAN_C6", hex_float(kAanC6)) +
           d("AAN_K1", hex_float(kAanK1)) + d("AAN_K2", hex_float(kAanK2)) +
           d("AAN_R2", hex_float(kAanR2)) + d("AAN_A1", hex_float(kAanA1)) +
           d("AAN_A2", hex_float(kAanA2)) + d("AAN_A3", hex_float(kAanA3)) +
           d("JBH", hex_float(kJustBelowHalf)) + d("LLM1", llm_list(kLlm1)) +
           d("LLM2", llm_list(kLlm2)) + i("P1BITS", kPass1Bits) + i("CB1", kConstBits1) +
           i("CB2", kConstBits2) + i("FWD_MIN", kFwdInMin) + i("FWD_MAX", kFwdInMax) +
           i("INV_MIN", kInvInMin) + i("INV_MAX", kInvInMax) + i("OUT_MIN", kInvOutMin) +
           // REQ_MAX: kRequantMaxAbs of the CPU's int16 kernels (cpu/block8/kernels.hpp).
           i("OUT_MAX", kInvOutMax) + i("REQ_MAX", 16384);
  }();
  return s;
}

const char* kernel_name(Block8Op op) {
  switch (op) {
    case Block8Op::Forward: return "block8_forward";
    case Block8Op::Inverse: return "block8_inverse";
    case Block8Op::Roundtrip: return "block8_roundtrip";
    case Block8Op::ForwardQuantized: return "block8_forward_quantized";
    case Block8Op::InverseDequantized: return "block8_inverse_dequantized";
    case Block8Op::Quantize: return "block8_quantize";
    case Block8Op::Dequantize: return "block8_dequantize";
  }
  return "";
}

// Where a batch of planes lies: its lowest and highest element offsets, and whether its elements
// fill that span exactly (then it travels as the span, with its own strides).
struct Span {
  std::ptrdiff_t lo = 0, hi = 0;
  bool compact = false;
};
Span span_of(const Block8Planes& p) {
  struct Dim {
    std::size_t n;
    std::ptrdiff_t s;
  };
  Dim dims[3] = {{p.count, p.plane_stride}, {p.rows, p.row_stride}, {p.cols, p.col_stride}};
  Span r;
  for (const Dim& d : dims) {
    const std::ptrdiff_t reach = d.s * static_cast<std::ptrdiff_t>(d.n - 1);
    (reach < 0 ? r.lo : r.hi) += reach;
  }
  std::sort(std::begin(dims), std::end(dims),
            [](const Dim& a, const Dim& b) { return std::abs(a.s) < std::abs(b.s); });
  std::ptrdiff_t want = 1;
  r.compact = true;
  for (const Dim& d : dims) {
    if (d.n == 1) continue;
    if (std::abs(d.s) != want) r.compact = false;
    want *= static_cast<std::ptrdiff_t>(d.n);
  }
  return r;
}

// A batch of planes as the kernels address it: a buffer, the offset of element (0, 0, 0) and the
// strides (elements).
struct DevicePlanes {
  Mem buf;
  cl_long off = 0, ps = 0, rs = 0, cs = 0;
  Span span;
  std::vector<char> dense;  // the gathered input, or the output to scatter
};

class OpenClBlock8Plan final : public detail::BackendBlock8Plan {
 public:
  OpenClBlock8Plan(std::shared_ptr<Device> dev, const Block8PlanDesc& d)
      : dev_(std::move(dev)), d_(d) {
    const bool data16 = d.data == Block8Data::Int16;
    elementwise_ = d.op == Block8Op::Quantize || d.op == Block8Op::Dequantize;
    // Quantization alone runs no transform: it shares the program of the data type's default.
    kernel_ = elementwise_ ? (data16 ? Block8Kernel::Int16 : Block8Kernel::Fast) : d.kernel;
    const bool reference = kernel_ == Block8Kernel::Reference;
    fp64_ = reference && dev_->info().fp64;
    const std::size_t max_wg = std::max<std::size_t>(dev_->info().max_work_group, 1);
    // Blocks per work-group along a row: 16 (128 work-items) for the separable kernels, as the
    // whitepaper's; 4 (256 work-items) for the kernel by definition.
    bpg_ = reference ? 4 : 16;
    ly_ = reference ? 8 : 1;
    while (bpg_ > 1 && 8 * bpg_ * ly_ > max_wg) bpg_ /= 2;
    const int kernel_id = reference ? 0 : kernel_ == Block8Kernel::Fast ? 1 : 2;
    std::string options = "-D KERNEL=" + std::to_string(kernel_id) +
                          " -D DATA16=" + std::to_string(int{data16}) +
                          " -D BPG=" + std::to_string(bpg_) + constant_options();
    if (fp64_) options += " -D DCTX_FP64";
    program_ = dev_->program(kSource, kernel_source(kSource), options);
    std::size_t wg = 0;
    {
      Kernel k = dev_->kernel(program_, kernel_name(d.op));
      check(clGetKernelWorkGroupInfo(k.get(), dev_->info().id, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg,
                                     &wg, nullptr),
            "clGetKernelWorkGroupInfo");
    }
    const std::size_t need = elementwise_ ? 1 : 8 * bpg_ * ly_;
    if (wg < need)
      throw Error("OpenCL device '" + dev_->info().name + "' runs at most " + std::to_string(wg) +
                      " work-items per work-group of " + kernel_name(d.op) + "; it needs " +
                      std::to_string(need),
                  ErrorKind::BackendUnavailable);
    elem_wg_ = std::min<std::size_t>(64, wg);
    upload_tables();
  }

  std::uint64_t execute(const Block8HostCall& call) const override {
    const bool data16 = d_.data == Block8Data::Int16;
    const bool in_levels = d_.op == Block8Op::InverseDequantized || d_.op == Block8Op::Dequantize;
    const bool out_levels = d_.op == Block8Op::ForwardQuantized || d_.op == Block8Op::Quantize;
    const std::size_t in_bytes = in_levels || data16 ? 2 : 4;
    const std::size_t out_bytes = out_levels || data16 ? 2 : 4;
    if (std::max({call.padded_rows, call.padded_cols, call.in.rows, call.in.cols}) > kMaxSide)
      throw Error("OpenCL block plan: planes of " + std::to_string(call.padded_rows) + " x " +
                  std::to_string(call.padded_cols) + " exceed the kernels' int indices");
    cl_command_queue q = dev_->queue();
    // The input is on the device before any output is written: Overlap::Partial needs no more.
    // (Blocking writes: an error thrown later leaves no transfer reading freed host memory.)
    DevicePlanes in = stage(call.in, in_bytes);
    if (in.span.compact) {
      const char* first =
          static_cast<const char*>(call.in.data) + in.span.lo * std::ptrdiff_t(in_bytes);
      check(clEnqueueWriteBuffer(q, in.buf.get(), CL_TRUE, 0, span_bytes(in.span, in_bytes), first,
                                 0, nullptr, nullptr),
            "clEnqueueWriteBuffer");
    } else {
      detail::copy_planes<true>(call.in, in_bytes, in.dense.data());
      check(clEnqueueWriteBuffer(q, in.buf.get(), CL_TRUE, 0, in.dense.size(), in.dense.data(), 0,
                                 nullptr, nullptr),
            "clEnqueueWriteBuffer");
    }
    DevicePlanes out = stage(call.out, out_bytes);

    const std::size_t pr = call.padded_rows, pc = call.padded_cols, count = call.in.count;
    std::size_t groups = 0;
    std::size_t global[3], local[3];
    if (elementwise_) {
      global[0] = (pc + elem_wg_ - 1) / elem_wg_ * elem_wg_;
      global[1] = pr;
      global[2] = count;
      local[0] = elem_wg_;
      local[1] = local[2] = 1;
    } else {
      const std::size_t lx = 8 * bpg_, gx = (pc + lx - 1) / lx;
      global[0] = gx * lx;
      global[1] = pr / 8 * ly_;
      global[2] = count;
      local[0] = lx;
      local[1] = ly_;
      local[2] = 1;
      groups = gx * (pr / 8) * count;
    }
    const bool counted = d_.op == Block8Op::Roundtrip || d_.op == Block8Op::ForwardQuantized;
    const std::size_t nslots = 1 + (counted ? groups : 0);
    Mem counts = dev_->buffer(nslots * sizeof(cl_uint));
    const cl_uint zero = 0;
    check(
        clEnqueueWriteBuffer(q, counts.get(), CL_TRUE, 0, sizeof zero, &zero, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");

    Kernel k = dev_->kernel(program_, kernel_name(d_.op));
    cl_kernel kk = k.get();
    cl_uint n = 0;
    const auto arg = [&](std::size_t size, const void* v) {
      check(clSetKernelArg(kk, n++, size, v), "clSetKernelArg");
    };
    const auto planes = [&](const DevicePlanes& p, const Block8Planes& h, bool sizes) {
      cl_mem m = p.buf.get();
      arg(sizeof m, &m);
      arg(sizeof p.off, &p.off);
      arg(sizeof p.ps, &p.ps);
      arg(sizeof p.rs, &p.rs);
      arg(sizeof p.cs, &p.cs);
      if (sizes) {
        const cl_int rows = static_cast<cl_int>(h.rows), cols = static_cast<cl_int>(h.cols);
        arg(sizeof rows, &rows);
        arg(sizeof cols, &cols);
      }
    };
    planes(in, call.in, !elementwise_);
    planes(out, call.out, !elementwise_);
    const cl_int pci = static_cast<cl_int>(pc);
    arg(sizeof pci, &pci);
    cl_mem tabs[3] = {ftab_.get(), itab_.get(), basis_.get()};
    arg(sizeof(cl_mem), &tabs[0]);
    arg(sizeof(cl_mem), &tabs[1]);
    if (!elementwise_) arg(sizeof(cl_mem), &tabs[2]);
    cl_mem cm = counts.get();
    arg(sizeof cm, &cm);
    check(clEnqueueNDRangeKernel(q, kk, 3, nullptr, global, local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");

    if (out.span.compact) {
      char* first = static_cast<char*>(const_cast<void*>(call.out.data)) +
                    out.span.lo * std::ptrdiff_t(out_bytes);
      check(clEnqueueReadBuffer(q, out.buf.get(), CL_TRUE, 0, span_bytes(out.span, out_bytes),
                                first, 0, nullptr, nullptr),
            "clEnqueueReadBuffer");
    } else {
      check(clEnqueueReadBuffer(q, out.buf.get(), CL_TRUE, 0, out.dense.size(), out.dense.data(), 0,
                                nullptr, nullptr),
            "clEnqueueReadBuffer");
      detail::copy_planes<false>(call.out, out_bytes, out.dense.data());
    }
    std::vector<cl_uint> sums(nslots);
    check(clEnqueueReadBuffer(q, counts.get(), CL_TRUE, 0, nslots * sizeof(cl_uint), sums.data(), 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer");
    std::uint64_t zeros = 0;
    for (std::size_t g = 1; g < nslots; ++g) zeros += sums[g];
    return zeros | ((sums[0] & 1u) ? detail::kNaNCoefficient : 0);
  }

  std::string describe() const override {
    std::string s = "opencl[" + dev_->info().name + "] " + std::string(to_string(d_.kernel));
    if (d_.kernel == Block8Kernel::Reference && !fp64_) s += " (float32: the device has no fp64)";
    return s;
  }

 private:
  static std::size_t span_bytes(const Span& s, std::size_t bytes) {
    return static_cast<std::size_t>(s.hi - s.lo + 1) * bytes;
  }

  // The device side of a batch of planes: its span with its strides, or a dense copy.
  DevicePlanes stage(const Block8Planes& h, std::size_t bytes) const {
    DevicePlanes p;
    p.span = span_of(h);
    if (p.span.compact) {
      p.buf = dev_->buffer(span_bytes(p.span, bytes));
      p.off = -p.span.lo;
      p.ps = h.plane_stride;
      p.rs = h.row_stride;
      p.cs = h.col_stride;
    } else {
      p.dense.resize(h.count * h.rows * h.cols * bytes);
      p.buf = dev_->buffer(p.dense.size());
      p.ps = static_cast<cl_long>(h.rows * h.cols);
      p.rs = static_cast<cl_long>(h.cols);
      p.cs = 1;
    }
    return p;
  }

  // The per-coefficient tables of block8.cl, natural order (entry 8u + v for coefficient (u, v)).
  void upload_tables() {
    std::vector<float> f(4 * 64);
    std::vector<cl_int> t(4 * 64);
    for (int u = 0; u < 8; ++u)
      for (int v = 0; v < 8; ++v) {
        const int e = 8 * u + v;
        // The AAN scales as the CPU engine makes them (cpu_block8.cpp, aan_tables).
        const double s = block8::kAanScale[u] * block8::kAanScale[v];
        f[e] = static_cast<float>(1.0 / (8.0 * s));
        f[64 + e] = static_cast<float>(s / 8.0);
        const std::int32_t qv = d_.table ? d_.table->q[static_cast<std::size_t>(e)] : 1;
        f[128 + e] = 1.0f / static_cast<float>(qv);
        f[192 + e] = static_cast<float>(qv);
        // Granlund and Montgomery's magic number for Q (kernels.hpp, QuantI16::set).
        int l = 0;
        while ((std::int64_t{1} << l) < qv) ++l;
        const int sh = 15 + l;
        t[e] = qv;
        t[64 + e] = qv / 2;
        t[128 + e] = static_cast<cl_int>(((std::int64_t{1} << sh) + qv - 1) / qv);
        t[192 + e] = sh;
      }
    // The DCT matrix A[u][x] = a(u) cos((2x + 1) u pi / 16), computed as the CPU's reference.
    std::vector<double> a(64);
    const double pi = std::acos(-1.0);
    for (int u = 0; u < 8; ++u)
      for (int x = 0; x < 8; ++x)
        a[std::size_t(8 * u + x)] =
            (u == 0 ? std::sqrt(0.125) : 0.5) * std::cos((2 * x + 1) * u * pi / 16.0);
    const auto up = [&](const void* data, std::size_t bytes) {
      return dev_->buffer(bytes, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data);
    };
    ftab_ = up(f.data(), f.size() * sizeof(float));
    itab_ = up(t.data(), t.size() * sizeof(cl_int));
    if (fp64_) {
      basis_ = up(a.data(), a.size() * sizeof(double));
    } else {
      const std::vector<float> af(a.begin(), a.end());
      basis_ = up(af.data(), af.size() * sizeof(float));
    }
  }

  std::shared_ptr<Device> dev_;
  Block8PlanDesc d_;
  Block8Kernel kernel_ = Block8Kernel::Fast;
  bool elementwise_ = false, fp64_ = false;
  std::size_t bpg_ = 16, ly_ = 1, elem_wg_ = 64;
  cl_program program_ = nullptr;  // owned by the device's program cache
  Mem ftab_, itab_, basis_;
};

}  // namespace

std::unique_ptr<detail::BackendBlock8Plan> make_block8_plan(std::shared_ptr<Device> device,
                                                            const detail::Block8Spec& spec) {
  // uint8 samples: the front end converts around the float32 plan.
  if (spec.desc.data == Block8Data::UInt8) return nullptr;
  return std::make_unique<OpenClBlock8Plan>(std::move(device), spec.desc);
}

}  // namespace dctx::ocl
