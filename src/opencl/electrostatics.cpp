// SPDX-License-Identifier: BSD-3-Clause
// DREAMPlace's electrostatic step on the OpenCL back end, whole on the device: the DCT-II of the
// density with the weighting fused into the stores of its last pass (r2r_lines.cl's WEIGH: the
// CPU's pass, bin by bin, in double, or in float on a device without cl_khr_fp64; one partial
// sum of the Parseval terms per work-group, which kernels/electrostatics.cl adds in a fixed order
// into the energy), then the type-3 transforms in place, all enqueued on one queue: field_y's 2D
// plan, and, with the potential, the CPU's shared route (the potential's pass along v done once
// and copied, scaled per row, into field_x by electrostatics.cl's scale_rows; seven axis passes
// instead of eight), else field_x's 2D plan.
// Two entries: dctx::opencl::electrostatics on the caller's buffers (dctx/opencl.hpp), and the
// back end's make_electrostatics, through which ElectrostaticSystem::solve() on host arrays
// uploads the density once and downloads each output once. The plans are the descriptions the
// system's own are made from (core/electrostatics_backend.hpp), on OpenCL, from the plan cache.
#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

#include "core/electrostatics_backend.hpp"
#include "core/overlap.hpp"
#include "dctx/opencl.hpp"
#include "opencl/plans.hpp"

namespace dctx::ocl {
namespace {

constexpr AxisTransform kCos{Kind::DCT, 3}, kSin{Kind::DXST, 3};

std::size_t pow2_at_most(std::size_t v) {
  std::size_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

// One array of the step on the device: element offset and two element strides.
struct Array {
  const char* name = nullptr;
  cl_mem mem = nullptr;
  std::size_t offset = 0;
  std::ptrdiff_t strides[2] = {0, 0};
  opencl::Buffer buffer() const { return {mem, offset, {strides[0], strides[1]}}; }
};

// The step's plans and programs on one device for one grid and precision (the bin sizes come
// with each call).
class Step {
 public:
  explicit Step(const ElectrostaticsDesc& d)
      : d_(d), dev_(open_device(d.device.select)), wide_(dev_->info().fp64 ? 8 : 4) {
    const auto plan = [&](AxisTransform t0, AxisTransform t1) {
      return cached_plan(detail::step_plan(d, t0, t1, BackendKind::OpenCL));
    };
    dct2_ = plan({Kind::DCT, 2}, {Kind::DCT, 2});
    fx_ = plan(kSin, kCos);
    fy_ = plan(kCos, kSin);
    const auto axis = [&](int a, AxisTransform t) {
      return cached_plan(detail::step_axis_plan(d, a, t, BackendKind::OpenCL));
    };
    pot_rows_ = axis(1, kCos);
    cos3_cols_ = axis(0, kCos);
    sin3_cols_ = axis(0, kSin);
    for (const Plan* p :
         {dct2_.get(), fx_.get(), fy_.get(), pot_rows_.get(), cos3_cols_.get(), sin3_cols_.get()})
      workspace_ = std::max(workspace_, p->workspace_bytes());
    // The weighting's tables in its arithmetic's type (float without cl_khr_fp64).
    const std::vector<double> t = detail::weight_tables(d.shape[0], d.shape[1]);
    const std::vector<float> t32(t.begin(), t.end());
    tables_ = dev_->buffer(t.size() * wide_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           wide_ == 8 ? static_cast<const void*>(t.data()) : t32.data());
    // The DCT-II with the weighting in the stores of its last pass.
    weighed_ = make_weighed_dct2(dev_, dct2_->desc());
    workspace_ = std::max(workspace_, weighed_->workspace_bytes());
    group_ = pow2_at_most(std::min<std::size_t>(256, dev_->info().max_work_group));
  }

  const Device& device() const { return *dev_; }
  std::size_t elem_bytes() const { return d_.precision == Precision::F32 ? 4 : 8; }

  // Enqueues the step of a system with bins of `bin_area` on q; pot.mem null: the fields only;
  // energy null: no energy.
  void enqueue(cl_command_queue q, double bin_area, const Array& rho, const Array& pot,
               const Array& fx, const Array& fy, cl_mem energy, std::size_t energy_offset) const {
    Mem ws;
    if (workspace_ > 0) ws = dev_->buffer(workspace_);
    const auto run = [&](const Plan& p, const Array& in, const Array& out) {
      opencl::execute(p, in.buffer(), out.buffer(), q, ws.get(), ws ? workspace_ : 0);
    };
    const std::size_t m = d_.shape[0], n = d_.shape[1];
    const bool with_pot = pot.mem != nullptr;
    // a = DCT-II(density), unnormalised, weighed as its last pass stores it (field_x gets its
    // type-3 input unless the potential is wanted): one partial sum of the energy per work-group
    // of that pass, at most n.
    const Mem partials = dev_->buffer(n * wide_);
    WeighArgs w;
    w.pot = pot.mem;
    w.po = static_cast<cl_long>(pot.offset);
    w.ps0 = pot.strides[0];
    w.ps1 = pot.strides[1];
    w.fy = fy.mem;
    w.yo = static_cast<cl_long>(fy.offset);
    w.ys0 = fy.strides[0];
    w.ys1 = fy.strides[1];
    w.tables = tables_.get();
    w.scale = 1.0 / (double(m) * double(n) * bin_area);
    w.partials = partials.get();
    const std::size_t groups = weighed_->enqueue_weighed(
        q, rho.mem, rho.offset, rho.strides, fx.mem, fx.offset, fx.strides, ws.get(), w);
    const cl_mem part = partials.get();
    if (energy) {
      Kernel sum = dev_->kernel(program(), "sum_partials");
      cl_kernel s = sum.get();
      const cl_long count = static_cast<cl_long>(groups);
      const double factor = double(m) * double(n) / 4;
      const float factor32 = static_cast<float>(factor);
      const cl_long eoff = static_cast<cl_long>(energy_offset);
      check(clSetKernelArg(s, 0, sizeof(cl_mem), &part), "clSetKernelArg (the energy's sum)");
      check(clSetKernelArg(s, 1, sizeof count, &count), "clSetKernelArg (the energy's sum)");
      check(clSetKernelArg(s, 2, wide_, wide_ == 8 ? static_cast<const void*>(&factor) : &factor32),
            "clSetKernelArg (the energy's sum)");
      check(clSetKernelArg(s, 3, sizeof(cl_mem), &energy), "clSetKernelArg (the energy's sum)");
      check(clSetKernelArg(s, 4, sizeof eoff, &eoff), "clSetKernelArg (the energy's sum)");
      check(clEnqueueNDRangeKernel(q, s, 1, nullptr, &group_, &group_, 0, nullptr, nullptr),
            "clEnqueueNDRangeKernel (the energy's sum)");
    }
    // The type-3 transforms, in place. With the potential, field_x (which the weighed pass left
    // unwritten) is the potential's pass along v times r(u).
    if (with_pot) {
      run(*pot_rows_, pot, pot);
      scale_rows(q, pot, fx);
      run(*cos3_cols_, pot, pot);
      run(*sin3_cols_, fx, fx);
    } else {
      run(*fx_, fx, fx);
    }
    run(*fy_, fy, fy);
  }

 private:
  cl_program program() const {
    const std::string o = "-D GROUP=" + std::to_string(group_) +
                          (d_.precision == Precision::F32 ? " -D REAL=float" : " -D REAL=double") +
                          " -D WIDE_FP64=" + (wide_ == 8 ? "1" : "0");
    return dev_->program("electrostatics.cl", kernel_source("electrostatics.cl"), o);
  }

  // field_x(i, :) = r(i) potential(i, :) (electrostatics.cl's scale_rows), one work-item a bin.
  void scale_rows(cl_command_queue q, const Array& pot, const Array& fx) const {
    Kernel scale = dev_->kernel(program(), "scale_rows");
    cl_kernel k = scale.get();
    const cl_long po = static_cast<cl_long>(pot.offset), ps0 = pot.strides[0], ps1 = pot.strides[1],
                  xo = static_cast<cl_long>(fx.offset), xs0 = fx.strides[0], xs1 = fx.strides[1];
    const cl_mem tables = tables_.get();
    cl_uint i = 0;
    const auto arg = [&](std::size_t size, const void* v) {
      check(clSetKernelArg(k, i++, size, v), "clSetKernelArg (field_x's scaled copy)");
    };
    arg(sizeof(cl_mem), &pot.mem);
    arg(sizeof po, &po);
    arg(sizeof ps0, &ps0);
    arg(sizeof ps1, &ps1);
    arg(sizeof(cl_mem), &fx.mem);
    arg(sizeof xo, &xo);
    arg(sizeof xs0, &xs0);
    arg(sizeof xs1, &xs1);
    arg(sizeof(cl_mem), &tables);
    const cl_long n = static_cast<cl_long>(d_.shape[1]);
    arg(sizeof n, &n);
    // Rows of whole work-groups of up to 64 bins (a row of prime length still gets wide groups).
    const std::size_t local[2] = {std::min<std::size_t>(group_, 64), 1};
    const std::size_t global[2] = {(d_.shape[1] + local[0] - 1) / local[0] * local[0], d_.shape[0]};
    check(clEnqueueNDRangeKernel(q, k, 2, nullptr, global, local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel (field_x's scaled copy)");
  }

  ElectrostaticsDesc d_;
  std::shared_ptr<Device> dev_;
  std::shared_ptr<const Plan> dct2_, fx_, fy_;
  std::shared_ptr<const Plan> pot_rows_, cos3_cols_, sin3_cols_;  // the shared route's passes
  std::unique_ptr<WeighedDct2> weighed_;
  Mem tables_;        // the weighting tables (core/electrostatics_backend.hpp)
  std::size_t wide_;  // bytes of the weighting's arithmetic: 8 (double), 4 without cl_khr_fp64
  std::size_t workspace_ = 0;
  std::size_t group_ = 1;
};

// The steps of dctx::opencl::electrostatics and of the systems' host-memory steps, made once per
// (device, grid, precision) and kept (their plans' tables and programs are made with them), so
// that a system made per call (dctx.electrostatics) costs a lookup; at most kSteps, a full cache
// starts over.
std::shared_ptr<const Step> step_for(const ElectrostaticsDesc& d) {
  using Key = std::tuple<std::string, std::size_t, std::size_t, Precision>;
  struct Cache {
    std::mutex mutex;
    std::map<Key, std::shared_ptr<const Step>> steps;
  };
  static Cache* cache = new Cache;  // lives for the process, as the devices do (runtime.cpp)
  const Key key{d.device.select, d.shape[0], d.shape[1], d.precision};
  {
    const std::lock_guard<std::mutex> lock(cache->mutex);
    if (const auto it = cache->steps.find(key); it != cache->steps.end()) return it->second;
  }
  auto step = std::make_shared<const Step>(d);  // outside the lock: it builds programs
  const std::lock_guard<std::mutex> lock(cache->mutex);
  constexpr std::size_t kSteps = 16;
  if (cache->steps.size() >= kSteps) cache->steps.clear();
  return cache->steps.emplace(key, std::move(step)).first->second;
}

// The host-memory step of ElectrostaticSystem::solve(): one upload, the step, one download each.
class HostMemoryStep final : public detail::BackendElectrostatics {
 public:
  explicit HostMemoryStep(const ElectrostaticsDesc& d)
      : step_(step_for(d)), shape_(d.shape), bin_area_(d.bin_width * d.bin_height) {}

  double solve(const detail::HostStep<float>& s) const override { return run(s); }
  double solve(const detail::HostStep<double>& s) const override { return run(s); }

 private:
  template <class T>
  double run(const detail::HostStep<T>& s) const {
    const Device& dev = step_->device();
    cl_command_queue q = dev.queue();
    const std::size_t bytes = shape_[0] * shape_[1] * sizeof(T);
    const std::vector<std::ptrdiff_t> dense = dense_strides(shape_);
    const Mem rho = dev.buffer(bytes), fx = dev.buffer(bytes), fy = dev.buffer(bytes);
    Mem pot;
    if (s.potential) pot = dev.buffer(bytes);
    const Mem energy = dev.buffer(sizeof(double));
    std::vector<T> staging;
    upload_host(q, rho.get(), shape_, s.density, s.density_strides, staging);
    const auto array = [&](const char* name, const Mem& m) {
      return Array{name, m.get(), 0, {dense[0], dense[1]}};
    };
    step_->enqueue(q, bin_area_, array("density", rho), array("potential", pot),
                   array("field_x", fx), array("field_y", fy), energy.get(), 0);
    if (s.potential) download_host(q, pot.get(), shape_, s.potential, s.potential_strides, staging);
    download_host(q, fx.get(), shape_, s.field_x, s.field_x_strides, staging);
    download_host(q, fy.get(), shape_, s.field_y, s.field_y_strides, staging);
    double e = 0;
    check(clEnqueueReadBuffer(q, energy.get(), CL_TRUE, 0, sizeof e, &e, 0, nullptr, nullptr),
          "clEnqueueReadBuffer (the energy)");
    return e;
  }

  std::shared_ptr<const Step> step_;  // shared with the systems of the same grid (step_for)
  Shape shape_;
  double bin_area_;
};

}  // namespace

std::unique_ptr<detail::BackendElectrostatics> make_electrostatics_step(
    const ElectrostaticsDesc& d) {
  return std::make_unique<HostMemoryStep>(d);
}

}  // namespace dctx::ocl

namespace dctx::opencl {

void electrostatics(const ElectrostaticSystem& system, const Buffer& density,
                    const Buffer& potential, const Buffer& field_x, const Buffer& field_y,
                    cl_mem energy, std::size_t energy_offset, cl_command_queue queue) {
  static const char* const fn = "dctx::opencl::electrostatics";
  const ElectrostaticsDesc& d = system.desc();
  if (d.backend != BackendKind::OpenCL)
    throw Error(std::string(fn) + ": the system runs on the " + std::string(to_string(d.backend)) +
                " back end, not opencl (ElectrostaticsDesc::backend)");
  const std::shared_ptr<const ocl::Step> step = ocl::step_for(d);
  const Shape& s = d.shape;
  const std::size_t es = step->elem_bytes();
  const cl_context context = step->device().context();
  const auto array = [&](const char* name, const Buffer& b) {
    if (!b.strides.empty() && b.strides.size() != 2)
      throw Error(std::string(fn) + ": " + name + " has " + std::to_string(b.strides.size()) +
                  " strides but the bin grid has 2 axes");
    ocl::Array a{name, b.mem, b.offset, {static_cast<std::ptrdiff_t>(s[1]), 1}};
    if (!b.strides.empty()) a.strides[0] = b.strides[0], a.strides[1] = b.strides[1];
    ocl::check_buffer(fn, name, a.mem, a.offset, s, a.strides, es, context);
    return a;
  };
  const ocl::Array rho = array("density", density), fx = array("field_x", field_x),
                   fy = array("field_y", field_y);
  const bool with_pot = potential.mem != nullptr;
  const ocl::Array pot = with_pot ? array("potential", potential) : ocl::Array{"potential"};
  if (energy) {
    const std::size_t one = 1;
    const std::ptrdiff_t unit = 1;
    ocl::check_buffer(fn, "energy", energy, energy_offset, Shape{one}, &unit, sizeof(double),
                      context);
  }
  // The outputs are written in place by the transforms: none may overlap another or the density.
  // Arrays in different buffers never overlap; each buffer gets an address range of its own.
  std::vector<cl_mem> mems;
  const auto place = [&](const ocl::Array& a) {
    std::size_t k = std::find(mems.begin(), mems.end(), a.mem) - mems.begin();
    if (k == mems.size()) mems.push_back(a.mem);
    const std::uintptr_t base = (std::uintptr_t{k} + 1) << 52;
    return detail::NamedPlace{a.name, {base + a.offset * es, es, 2, s.data(), a.strides}};
  };
  const detail::NamedPlace input = place(rho);
  const detail::NamedPlace outs[] = {place(with_pot ? pot : fx), place(fx), place(fy)};
  detail::check_separate_outputs(fn, input, with_pot ? outs : outs + 1, with_pot ? 3 : 2);
  step->enqueue(queue ? queue : step->device().queue(), d.bin_width * d.bin_height, rho, pot, fx,
                fy, energy, energy_offset);
}

}  // namespace dctx::opencl
