// SPDX-License-Identifier: BSD-3-Clause
// DCT/DST types II, III and IV on OpenCL: one pass of r2r_lines.cl per transformed axis. The first
// pass reads the input and writes the output; the others run in place on the output (a
// work-group holds its lines whole between the load and the store, so in place is safe). Host
// arrays go through one contiguous device buffer.
#include <algorithm>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "core/fft_tables.hpp"
#include "core/r2r_tables.hpp"
#include "core/roots.hpp"
#include "opencl/plans.hpp"

namespace dctx::ocl {
namespace {

constexpr int kMaxOuter = 8;  // other axes a pass can walk (the kernel's long8 arguments)

struct Pass {
  int axis = 0;
  std::size_t n = 0, m = 0;
  bool packed = false, dst = false, shift = false, rdft = false;
  int type = 2;
  double c0 = 1;
  std::vector<std::size_t> radices;
  Mem roots, split, rot;
  std::size_t cx_bytes = 8;
  bool global_buf = false;  ///< lines too long for local memory run in the workspace
  /// PlanDesc::coefficient_threshold in this pass: 0 none, 1 on its inputs (the first pass of an
  /// inverse plan), 2 on its outputs (the last pass of a forward one).
  int threshold = 0;
  /// The program of the dense layout (host calls, dense device arrays), built with the plan, and
  /// whether that layout steps across lines first; other layouts look theirs up per call.
  cl_program dense_program = nullptr;
  bool dense_fastest = false;
  /// The electrostatic step's weighting in this pass's stores (WEIGH in r2r_lines.cl).
  bool weigh = false;
};

cl_long8 pack8(const std::vector<long long>& v) {
  cl_long8 r;
  for (int i = 0; i < 8; ++i)
    r.s[i] = i < static_cast<int>(v.size()) ? v[static_cast<std::size_t>(i)] : 1;
  return r;
}

std::size_t pow2_at_least(std::size_t v) {
  std::size_t p = 1;
  while (p < v) p *= 2;
  return p;
}

class LinesPlan final : public detail::BackendPlan, public WeighedDct2 {
 public:
  LinesPlan(std::shared_ptr<Device> dev, const PlanDesc& d, bool weigh_last = false)
      : dev_(std::move(dev)), d_(d) {
    if (d.precision == Precision::F64 && !dev_->info().fp64)
      throw Error("OpenCL device '" + dev_->info().name +
                      "' has no cl_khr_fp64: float64 plans need it (use float32, or the cpu "
                      "back end)",
                  ErrorKind::BackendUnavailable);
    const bool f32 = d.precision == Precision::F32;
    budget_ = dev_->info().local_mem;
    if (const char* env = std::getenv("DCTX_OPENCL_LOCAL_BYTES"); env && *env)
      budget_ = std::min<std::size_t>(budget_, std::strtoull(env, nullptr, 10));
    budget_ = budget_ > 1024 ? budget_ - 1024 : 0;  // room for the kernel's own local use
    // The last axis first: it is the contiguous one of a dense array.
    std::vector<std::size_t> order(d.axes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return d.axes[a] > d.axes[b]; });
    for (std::size_t i : order) {
      const AxisTransform t = d.transforms[i];
      Pass p;
      p.axis = d.axes[i];
      p.n = d.shape[static_cast<std::size_t>(p.axis)];
      p.type = detail::effective_type(d, t);
      p.dst = t.kind == Kind::DST || t.kind == Kind::DXST;
      p.shift = t.kind == Kind::DXST;
      p.rdft = t.kind == Kind::RDFT;
      p.packed = p.type != 4 && p.n % 2 == 0;
      p.m = p.type == 4 ? (p.n % 2 == 0 ? p.n / 2 : 2 * p.n) : p.packed ? p.n / 2 : p.n;
      p.radices = p.m > 1 ? detail::fft_radices(p.m) : std::vector<std::size_t>{};
      const double scale = detail::axis_scale(d, t, p.n);
      if (f32)
        upload_tables<float>(p, scale);
      else
        upload_tables<double>(p, scale);
      p.cx_bytes = f32 ? 8 : 16;
      p.global_buf = 2 * p.m * p.cx_bytes > local_budget();
      passes_.push_back(std::move(p));
    }
    if (weigh_last) {
      if (d.shape.size() != 2 || passes_.size() != 2 || passes_.back().axis != 0 ||
          passes_.back().type != 2 || passes_.back().dst || passes_.back().rdft)
        throw Error("OpenCL: the weighted DCT-II is the 2D forward DCT-II");
      passes_.back().weigh = true;
    }
    if (d.coefficient_threshold > 0 && !passes_.empty()) {
      if (d.direction == Direction::Inverse)
        passes_.front().threshold = 1;
      else
        passes_.back().threshold = 2;
    }
    // Build the programs of the host route's dense layout now, so the first call does not.
    const auto dense = dense_strides(d.shape);
    for (Pass& p : passes_) {
      p.dense_fastest = lines_fastest(p, dense.data());
      p.dense_program = program(p, p.dense_fastest);
    }
  }

  void execute(const detail::HostCall<float>& c) const override { host<float>(c); }
  void execute(const detail::HostCall<double>& c) const override { host<double>(c); }

  void execute_device(const detail::DeviceCall& c) const override {
    cl_command_queue q = c.exec.queue ? static_cast<cl_command_queue>(c.exec.queue) : dev_->queue();
    cl_mem in = static_cast<cl_mem>(c.in.buffer);
    cl_mem out = static_cast<cl_mem>(c.out.buffer);
    std::size_t in_off = c.in.offset;
    const std::size_t es = elem_bytes();
    const std::ptrdiff_t* in_strides = c.in.strides;
    Mem copy;
    if (c.overlap == detail::Overlap::Partial) {
      // The input shares elements with the output in another layout: read it from a copy.
      std::ptrdiff_t lo = 0, hi = 0;
      element_span(d_.shape, in_strides, lo, hi);
      const std::size_t count = static_cast<std::size_t>(hi - lo + 1);
      copy = dev_->buffer(count * es);
      check(clEnqueueCopyBuffer(q, in, copy.get(), (in_off + static_cast<std::size_t>(lo)) * es, 0,
                                count * es, 0, nullptr, nullptr),
            "clEnqueueCopyBuffer");
      in = copy.get();
      in_off = static_cast<std::size_t>(-lo);
    }
    Mem own;
    cl_mem ws = static_cast<cl_mem>(c.exec.workspace);
    if (!ws && workspace_bytes() > 0) {
      own = dev_->buffer(workspace_bytes());
      ws = own.get();
    }
    run(q, in, in_off, in_strides, out, c.out.offset, c.out.strides, ws);
    if (copy || own) check(clFinish(q), "clFinish");  // the temporaries must outlive the kernels
  }

  std::size_t workspace_bytes() const override {
    std::size_t w = 0;
    for (const Pass& p : passes_)
      if (p.global_buf) w = std::max(w, global_groups(p, lines_total(p)) * 2 * p.m * p.cx_bytes);
    return w;
  }

  std::size_t enqueue_weighed(cl_command_queue q, cl_mem in, std::size_t in_off,
                              const std::ptrdiff_t* is, cl_mem out, std::size_t out_off,
                              const std::ptrdiff_t* os, cl_mem ws,
                              const WeighArgs& w) const override {
    run(q, in, in_off, is, out, out_off, os, ws, &w);
    const Pass& p = passes_.back();
    const std::size_t lines = lines_per_group(p, lines_fastest(p, os));
    return (lines_total(p) + lines - 1) / lines;
  }

  std::string describe() const override {
    std::string s = "opencl[" + dev_->info().name + "] ";
    for (std::size_t i = 0; i < passes_.size(); ++i) {
      const Pass& p = passes_[i];
      static const char* roman[] = {"", "I", "II", "III", "IV"};
      s += (i ? ", " : "") +
           std::string(p.rdft    ? "RDFT-"
                       : p.shift ? "DXST-"
                       : p.dst   ? "DST-"
                                 : "DCT-") +
           roman[p.type] + "(" + std::to_string(p.n) + ") on axis " + std::to_string(p.axis) +
           ": " + (p.packed ? "real FFT packed into " : "complex FFT of ") + std::to_string(p.m) +
           " points in " + (p.global_buf ? "the global workspace" : "local memory");
    }
    return s;
  }

 private:
  std::size_t elem_bytes() const { return d_.precision == Precision::F32 ? 4 : 8; }
  // Local memory a work-group may use: the device's, less room for the kernel's own, or less
  // when DCTX_OPENCL_LOCAL_BYTES says so (tests take the global path with it).
  std::size_t local_budget() const { return budget_; }
  std::size_t lines_total(const Pass& p) const {
    std::size_t total = 1;
    for (std::size_t e : d_.shape) total *= e;
    return total / p.n;
  }
  // Work-groups per launch on the global path: its workspace stays near 64 MiB.
  static std::size_t global_groups(const Pass& p, std::size_t lines) {
    const std::size_t per = 2 * p.m * p.cx_bytes;
    return std::max<std::size_t>(1, std::min<std::size_t>(lines, (std::size_t{64} << 20) / per));
  }

  template <class T>
  void upload_tables(Pass& p, double scale) {
    using C = std::complex<T>;
    const auto tables = detail::r2r_tables<T>(
        AxisTransform{p.rdft ? Kind::RDFT : Kind::DCT, p.type}, p.n, scale, *d_.orthogonalize);
    p.c0 = tables.c0;
    std::vector<C> roots(std::max<std::size_t>(p.m, 1));
    detail::RootTable(static_cast<std::int64_t>(std::max<std::size_t>(p.m, 1)))
        .first_roots(roots.size(), roots.data());
    // Types II/III: the real FFT's split twiddles; type IV: the post-rotation in their place.
    std::vector<C> split = p.type == 4 ? tables.post
                           : p.packed  ? detail::real_fft_split_twiddles<T>(p.n)
                                       : std::vector<C>(1);
    std::vector<C> rot = tables.pre;
    if (rot.empty()) rot.resize(1);
    const auto up = [&](const std::vector<C>& v) {
      return dev_->buffer(v.size() * sizeof(C), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.data());
    };
    p.roots = up(roots);
    p.split = up(split);
    p.rot = up(rot);
  }

  // Lines step across first when the axis is not the array's fastest.
  bool lines_fastest(const Pass& p, const std::ptrdiff_t* strides) const {
    std::ptrdiff_t inner = 0;
    for (std::size_t a = d_.shape.size(); a-- > 0;)
      if (static_cast<int>(a) != p.axis && d_.shape[a] > 1) {
        inner = strides[a];
        break;
      }
    const auto mag = [](std::ptrdiff_t v) { return v < 0 ? -v : v; };
    return inner != 0 && mag(inner) < mag(strides[p.axis]);
  }
  std::size_t lines_per_group(const Pass& p, bool fastest) const {
    if (p.global_buf) return 1;
    const std::size_t fit = std::max<std::size_t>(1, local_budget() / (2 * p.m * p.cx_bytes));
    const std::size_t want = fastest ? 16 : std::max<std::size_t>(1, (256 + p.m - 1) / p.m);
    return std::max<std::size_t>(1, std::min({want, fit, std::size_t{64}, lines_total(p)}));
  }
  cl_program program(const Pass& p, bool fastest) const {
    const std::size_t lines = lines_per_group(p, fastest);
    std::string radix_list;
    for (std::size_t r : p.radices) {
      if (!radix_list.empty()) radix_list.push_back(',');
      radix_list += std::to_string(r);
    }
    std::string o =
        "-D N=" + std::to_string(p.n) + " -D M=" + std::to_string(p.m) +
        " -D PACKED=" + std::to_string(p.packed) + " -D TYPE=" + std::to_string(p.type) +
        " -D DST=" + std::to_string(p.dst) + " -D SHIFT=" + std::to_string(p.shift) +
        " -D RDFT=" + std::to_string(p.rdft) + " -D THRESHOLD=" + std::to_string(p.threshold) +
        " -D LINES=" + std::to_string(lines) + " -D LINES_FASTEST=" + std::to_string(fastest) +
        " -D GLOBAL_BUF=" + std::to_string(p.global_buf) +
        " -D NSTAGES=" + std::to_string(p.radices.size()) +
        " -D OUTER=" + std::to_string(d_.shape.size() - 1);
    if (p.weigh)
      o += std::string(" -D WEIGH=1 -D WEIGH_GROUP=256 -D WEIGH_FP64=") +
           (dev_->info().fp64 ? "1" : "0");
    if (!radix_list.empty()) o += " -D RADIX_LIST=" + radix_list;
    if (d_.precision == Precision::F64) o += " -D DCTX_FP64";
    return dev_->program("r2r_lines.cl", kernel_source("r2r_lines.cl"), o);
  }

  // `w`: the weighting's arrays, for a plan whose last pass weighs (and only for it).
  void run(cl_command_queue q, cl_mem in, std::size_t in_off, const std::ptrdiff_t* in_strides,
           cl_mem out, std::size_t out_off, const std::ptrdiff_t* out_strides, cl_mem ws,
           const WeighArgs* w = nullptr) const {
    if (!passes_.empty() && passes_.back().weigh != (w != nullptr))
      throw Error("OpenCL: a weighted DCT-II runs with the weighting's arrays, and only it");
    for (std::size_t i = 0; i < passes_.size(); ++i) {
      const bool first = i == 0;
      run_pass(q, passes_[i], first ? in : out, first ? in_off : out_off,
               first ? in_strides : out_strides, out, out_off, out_strides, ws, w);
    }
  }

  // The threshold in the data's precision, as the CPU compares it.
  double zero_below() const {
    return d_.precision == Precision::F32 ? double(static_cast<float>(d_.coefficient_threshold))
                                          : d_.coefficient_threshold;
  }

  void run_pass(cl_command_queue q, const Pass& p, cl_mem in, std::size_t in_off,
                const std::ptrdiff_t* is, cl_mem out, std::size_t out_off, const std::ptrdiff_t* os,
                cl_mem ws, const WeighArgs* w) const {
    const bool fastest = lines_fastest(p, os);
    const std::size_t lines = lines_per_group(p, fastest);
    Kernel k = dev_->kernel(fastest == p.dense_fastest ? p.dense_program : program(p, fastest),
                            "r2r_lines");
    std::vector<long long> ext, ist, ost;
    for (std::size_t a = 0; a < d_.shape.size(); ++a)
      if (static_cast<int>(a) != p.axis) {
        ext.push_back(static_cast<long long>(d_.shape[a]));
        ist.push_back(is[a]);
        ost.push_back(os[a]);
      }
    const cl_long8 e8 = pack8(ext), i8 = pack8(ist), o8 = pack8(ost);
    const cl_long ioff = static_cast<cl_long>(in_off), ooff = static_cast<cl_long>(out_off);
    const cl_long istr = is[p.axis], ostr = os[p.axis];
    const std::size_t total = lines_total(p);
    const cl_long nlines = static_cast<cl_long>(total);
    const float c0f = static_cast<float>(p.c0), zbf = static_cast<float>(zero_below());
    const double c0d = p.c0, zbd = zero_below();
    cl_kernel kk = k.get();
    const auto arg = [&](cl_uint i, std::size_t size, const void* v) {
      check(clSetKernelArg(kk, i, size, v), "clSetKernelArg");
    };
    arg(0, sizeof(cl_mem), &in);
    arg(1, sizeof ioff, &ioff);
    arg(2, sizeof istr, &istr);
    arg(3, sizeof i8, &i8);
    arg(4, sizeof(cl_mem), &out);
    arg(5, sizeof ooff, &ooff);
    arg(6, sizeof ostr, &ostr);
    arg(7, sizeof o8, &o8);
    arg(8, sizeof e8, &e8);
    arg(10, sizeof nlines, &nlines);
    cl_mem tabs[3] = {p.roots.get(), p.split.get(), p.rot.get()};
    for (cl_uint t = 0; t < 3; ++t) arg(11 + t, sizeof(cl_mem), &tabs[t]);
    if (d_.precision == Precision::F32) {
      arg(14, sizeof c0f, &c0f);
      arg(16, sizeof zbf, &zbf);
    } else {
      arg(14, sizeof c0d, &c0d);
      arg(16, sizeof zbd, &zbd);
    }
    if (p.global_buf)
      arg(15, sizeof(cl_mem), &ws);
    else
      arg(15, 2 * p.m * lines * p.cx_bytes, nullptr);
    if (p.weigh) {
      const cl_long wl[6] = {w->po, w->ps0, w->ps1, w->yo, w->ys0, w->ys1};
      arg(17, sizeof(cl_mem), &w->pot);
      for (cl_uint i = 0; i < 3; ++i) arg(18 + i, sizeof(cl_long), &wl[i]);
      arg(21, sizeof(cl_mem), &w->fy);
      for (cl_uint i = 0; i < 3; ++i) arg(22 + i, sizeof(cl_long), &wl[3 + i]);
      arg(25, sizeof(cl_mem), &w->tables);
      const float scale32 = static_cast<float>(w->scale);  // the weighting in float: no fp64
      if (dev_->info().fp64)
        arg(26, sizeof(double), &w->scale);
      else
        arg(26, sizeof(float), &scale32);
      arg(27, sizeof(cl_mem), &w->partials);
    }
    std::size_t kernel_wg = 0;
    check(clGetKernelWorkGroupInfo(kk, dev_->info().id, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg,
                                   &kernel_wg, nullptr),
          "clGetKernelWorkGroupInfo");
    std::size_t wg = std::max<std::size_t>(
        1, std::min({pow2_at_least(lines * std::max<std::size_t>(p.m / 2, 1)), std::size_t{256},
                     kernel_wg, dev_->info().max_work_group}));
    if (p.weigh)  // its reduction adds pairs: a power of two
      while (wg & (wg - 1)) wg &= wg - 1;
    const std::size_t groups = (total + lines - 1) / lines;
    const std::size_t chunk = p.global_buf ? global_groups(p, total) : groups;
    for (std::size_t g0 = 0; g0 < groups; g0 += chunk) {
      const cl_long first = static_cast<cl_long>(g0 * lines);
      arg(9, sizeof first, &first);
      const std::size_t global = std::min(chunk, groups - g0) * wg;
      check(clEnqueueNDRangeKernel(q, kk, 1, nullptr, &global, &wg, 0, nullptr, nullptr),
            "clEnqueueNDRangeKernel");
    }
  }

  template <class T>
  void host(const detail::HostCall<T>& c) const {
    const Shape& shape = d_.shape;
    std::size_t total = 1;
    for (std::size_t e : shape) total *= e;
    cl_command_queue q = dev_->queue();
    Mem buf = dev_->buffer(total * sizeof(T));
    std::vector<T> staging;
    upload_host(q, buf.get(), shape, c.in, c.in_strides, staging);
    Mem ws;
    if (workspace_bytes() > 0) ws = dev_->buffer(workspace_bytes());
    const auto dense = dense_strides(shape);
    run(q, buf.get(), 0, dense.data(), buf.get(), 0, dense.data(), ws.get());
    download_host(q, buf.get(), shape, c.out, c.out_strides, staging);
  }

  std::shared_ptr<Device> dev_;
  PlanDesc d_;
  std::size_t budget_ = 0;
  std::vector<Pass> passes_;
};

}  // namespace

bool lines_route_applies(const PlanDesc& d) {
  if (d.shape.size() > kMaxOuter + 1) return false;
  for (const AxisTransform& t : d.transforms)
    if (t.type == 1) return false;
  return true;
}

std::unique_ptr<detail::BackendPlan> make_lines_plan(std::shared_ptr<Device> device,
                                                     const PlanDesc& d) {
  return std::make_unique<LinesPlan>(std::move(device), d);
}

std::unique_ptr<WeighedDct2> make_weighed_dct2(std::shared_ptr<Device> device, const PlanDesc& d) {
  return std::make_unique<LinesPlan>(std::move(device), d, true);
}

}  // namespace dctx::ocl
