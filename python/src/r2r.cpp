// SPDX-License-Identifier: BSD-3-Clause
// _r2r: the one entry point behind dct/idct/dst/idst (nd=false: n, axis) and dctn/idctn/dstn/idstn
// (nd=true: s, axes), with scipy.fft's arguments, results and errors.
//
// Python's own arguments (n/s, norm, workers, dtypes) are parsed here; the axes are resolved by
// dctx::resolve_axes and everything else about the transform (type, DCT-I of length 1, ranks) is
// checked by the core when it plans, its refusals raised as scipy raises them. n/s cropping is a
// narrower view, padding one zero-filled buffer. The plan comes from the core's cache: a
// per-thread PlanDesc refilled in place is looked up with the GIL held (no allocation on a hit),
// and only a miss releases the GIL to plan.
#include <nanobind/nanobind.h>

#include <algorithm>
#include <string>
#include <vector>

#include "binding.hpp"

namespace dctx_py {
namespace {

using namespace nb::literals;

// The previous (rank, axes) asked of dctx::resolve_axes on this thread and its answer, so that a
// repeated call allocates nothing.
struct AxesMemo {
  int rank = -1;  // -1: empty (also while an update is under way; resolve_axes may throw)
  std::vector<int> given, resolved;
};

// Appends the axes `given` of an array of rank `ndim`, as dctx::resolve_axes resolves them, to
// `out`. The core's refusals become scipy's: numpy's AxisError with out_of_range() as its message
// for an axis out of range, ValueError("all axes must be unique") for a repeated one.
template <class OutOfRange>
void resolve_axes(int ndim, const int* given, size_t n, Small<int>& out, OutOfRange out_of_range) {
  thread_local AxesMemo memo;
  if (memo.rank != ndim || !std::equal(given, given + n, memo.given.begin(), memo.given.end())) {
    memo.rank = -1;
    memo.given.assign(given, given + n);
    try {
      memo.resolved = dctx::resolve_axes(size_t(ndim), memo.given);
    } catch (const dctx::Error& e) {
      if (e.kind() == dctx::ErrorKind::AxisOutOfRange) raise_axis(out_of_range());
      if (e.kind() == dctx::ErrorKind::RepeatedAxis) raise_value("all axes must be unique");
      throw;
    }
    memo.rank = ndim;
  }
  for (int a : memo.resolved) out.push_back(a);
}

// The description of this thread's current call. Refilled field by field with assign(), its
// vectors keep their capacity, so a warm call allocates nothing. Nothing may call into Python
// between filling it and getting the plan (a nested call on this thread would refill it).
dctx::PlanDesc& call_desc() {
  thread_local dctx::PlanDesc d;
  return d;
}

// The plan for `d`: the core cache's entry, looked up with the GIL held; on a miss the GIL is
// released while the core plans (a large size may take a while) and caches the plan.
std::shared_ptr<const dctx::Plan> plan_for(const dctx::PlanDesc& d) {
  if (auto p = dctx::find_cached_plan(d)) return p;
  nb::gil_scoped_release nogil;
  return dctx::cached_plan(d);
}

std::string lens_str(const Small<int64_t>& lens) {
  std::string r = "[";
  for (size_t i = 0; i < lens.size(); ++i) r += (i ? ", " : "") + std::to_string(lens[i]);
  return r + "]";
}

// The transformed axes of an array of rank `ndim` and their lengths, by scipy.fft's rules: `n`
// and `axis` of the 1D functions (nd false), `s` and `axes` of the N-D ones (s without axes takes
// the last len(s) axes; -1 in s keeps an axis's length; no axes at all transforms none). Raises
// scipy's errors for bad ones. The CUDA-array path (dctx/_cuda.py) asks the same function.
void transform_lengths(const int64_t* shape, int ndim, nb::handle n_h, nb::handle ax_h, bool nd,
                       Small<int>& axes, Small<int64_t>& lens) {
  if (!nd) {
    const long long a = as_index(ax_h, "axis");
    const int given = clamp_int(a);
    resolve_axes(ndim, &given, 1, axes, [&] {
      return "axis " + std::to_string(a) + " is out of bounds for array of dimension " +
             std::to_string(ndim);
    });
    lens.push_back(n_h.is_none() ? shape[axes[0]] : as_index(n_h, "n"));
    if (lens[0] < 1)
      raise_value("invalid number of data points (" + std::to_string(lens[0]) + ") specified");
    return;
  }
  const bool have_axes = !ax_h.is_none(), have_s = !n_h.is_none();
  if (have_axes) {
    Small<int> given;
    for (long long a : as_index_list(ax_h, "axes")) given.push_back(clamp_int(a));
    if (!given.empty())  // (the core reads no axes as all axes; scipy transforms none)
      resolve_axes(ndim, given.data(), given.size(), axes,
                   [] { return std::string("axes exceeds dimensionality of input"); });
  }
  if (have_s) {
    auto s = as_index_list(n_h, "s");
    if (have_axes && !axes.empty() && axes.size() != s.size())
      raise_value("when given, axes and shape arguments have to be of the same length");
    if (!have_axes) {
      if (int(s.size()) > ndim) raise_value("shape requires more axes than are present");
      for (int i = ndim - int(s.size()); i < ndim; ++i) axes.push_back(i);
    }
    for (size_t i = 0; i < s.size() && i < axes.size(); ++i)
      lens.push_back(s[i] == -1 ? shape[axes[i]] : s[i]);
  } else {
    if (!have_axes)
      for (int i = 0; i < ndim; ++i) axes.push_back(i);
    for (int a : axes) lens.push_back(shape[a]);
  }
  for (auto l : lens)
    if (l < 1) raise_value("invalid number of data points (" + lens_str(lens) + ") specified");
}

// _transform_lengths(shape, n, axes, nd) -> (axes, lengths): transform_lengths for Python.
nb::tuple transform_lengths_py(nb::handle shape_h, nb::handle n_h, nb::handle ax_h, bool nd) {
  std::array<int64_t, 64> shape{};
  int ndim = 0;
  for (long long e : as_index_list(shape_h, "shape")) {
    if (ndim == int(shape.size())) raise_value("too many axes");
    shape[size_t(ndim++)] = e;
  }
  Small<int> axes;
  Small<int64_t> lens;
  transform_lengths(shape.data(), ndim, n_h, ax_h, nd, axes, lens);
  nb::list a, l;
  for (int v : axes) a.append(v);
  for (int64_t v : lens) l.append(v);
  return nb::make_tuple(a, l);
}

nb::object r2r(nb::handle x, int kind_i, bool inverse, nb::handle type_h, nb::handle n_h,
               nb::handle ax_h, nb::handle norm_h, nb::handle overwrite_h, nb::handle workers_h,
               nb::handle ortho_h, bool nd, nb::handle backend_h) {
  if (!refs) raise_type("dctx._dctx used before dctx/__init__.py ran _init()");
  // Argument checks in scipy's order: array, axes/shape, then the rest.
  Input in = get_input(x);
  const int ndim = in.ndim;

  Small<int> axes;
  Small<int64_t> lens;  // transform length per axis
  transform_lengths(in.shape.data(), ndim, n_h, ax_h, nd, axes, lens);
  if (nd && axes.empty()) return refs->asarray(x);  // nothing to transform, as scipy

  const int type = clamp_int(as_index(type_h, "type"));  // 1..4: the core checks
  const dctx::Norm norm = parse_norm(norm_h);
  const int threads = parse_workers(workers_h);
  const std::optional<bool> ortho = parse_ortho(ortho_h);
  const bool overwrite = truthy(overwrite_h);
  const dctx::BackendKind backend =
      backend_h.is_none()
          ? dctx::BackendKind::Auto
          : parse_backend_arg(backend_h, std::string("dctx.") + (inverse ? "i" : "") +
                                             (kind_i ? "dst" : "dct") + (nd ? "n" : ""));

  // Output shape; the input region that is read (cropped) and whether zeros are padded.
  std::array<int64_t, 64> oshape = in.shape, rshape = in.shape;
  bool pad = false, crop = false;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int a = axes[i];
    oshape[size_t(a)] = lens[i];
    if (lens[i] < in.shape[size_t(a)]) crop = true;
    if (lens[i] > in.shape[size_t(a)]) pad = true;
    rshape[size_t(a)] = std::min(lens[i], in.shape[size_t(a)]);
  }
  int64_t total = 1, rtotal = 1;
  for (int i = 0; i < ndim; ++i) {
    total *= oshape[size_t(i)];
    rtotal *= rshape[size_t(i)];
  }
  dctx::PlanDesc& d = call_desc();
  d.shape.assign(oshape.begin(), oshape.begin() + ndim);
  d.axes.assign(axes.begin(), axes.end());
  d.transforms.clear();
  d.kind = dctx::Kind(kind_i);
  d.type = type;
  d.precision = precision_of(in.elem);
  d.norm = norm;
  d.orthogonalize = ortho;
  d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
  d.backend = backend;
  d.cpu.threads = threads;
  if (total == 0) {
    // An empty result (a non-transformed axis of extent 0): no plan, but the core still refuses
    // what it would refuse for the transformed axes (a bad type, DCT-I of length 1).
    dctx::PlanDesc probe = d;
    for (auto& e : probe.shape) e = std::max<std::size_t>(e, 1);
    dctx::normalize(probe);
    return new_array(oshape.data(), ndim, in.elem, true).first;
  }
  const std::shared_ptr<const dctx::Plan> plan = plan_for(d);

  const size_t es = itemsize(in.elem);
  if (pad) {
    // One zero-filled C-ordered buffer receives the cropped input, then transforms in place.
    auto [out, ptr] = new_array(oshape.data(), ndim, in.elem, true);
    std::array<int64_t, 64> cst, sb, db;
    c_strides(oshape.data(), ndim, cst.data());
    for (int i = 0; i < ndim; ++i) {
      sb[size_t(i)] = in.strides[size_t(i)] * int64_t(es);
      db[size_t(i)] = cst[size_t(i)] * int64_t(es);
    }
    if (rtotal > 0) copy_region(in.data, sb.data(), ptr, db.data(), rshape.data(), ndim, es);
    execute(*plan, in.elem, ptr, cst.data(), ptr, cst.data());
    return out;
  }
  if (!crop && (in.converted || (overwrite && writable_in_place(in)))) {
    // scipy's overwrite_x (or a private converted copy): transform in x's own buffer.
    char* p = const_cast<char*>(in.data);
    execute(*plan, in.elem, p, in.strides.data(), p, in.strides.data());
    return in.obj;
  }
  auto [out, ptr] = new_array(oshape.data(), ndim, in.elem, false);
  std::array<int64_t, 64> cst;
  c_strides(oshape.data(), ndim, cst.data());
  execute(*plan, in.elem, in.data, in.strides.data(), ptr, cst.data());
  return out;
}

}  // namespace

void bind_r2r(nb::module_& m) {
  // Every Python argument accepts None here: the checks above name the keyword it was given for
  // (nanobind's own refusal would print this internal signature instead).
  m.def("_r2r", &r2r, "x"_a.none(), "kind"_a, "inverse"_a, "type"_a.none(), "n"_a.none(),
        "axis"_a.none(), "norm"_a.none(), "overwrite_x"_a.none(), "workers"_a.none(),
        "orthogonalize"_a.none(), "nd"_a, "backend"_a.none() = nb::none());
  m.def("_transform_lengths", &transform_lengths_py, "shape"_a, "n"_a.none(), "axes"_a.none(),
        "nd"_a);
}

}  // namespace dctx_py
