// dctx Python extension: scipy.fft-compatible DCT/DST entry points, reusable plans and (when the
// library has it) the 8x8 block engine.
//
// The pure-Python layer (python/dctx/*.py) owns the public signatures and docstrings; every hot
// call lands in r2r() below, which reads NumPy/DLPack arrays through nb::ndarray (element strides
// passed straight into dctx views, so C, Fortran, negative and non-unit strides cost no copy),
// handles scipy's n/s cropping (a narrower view) and padding (one zero-filled buffer), looks the
// plan up in a small lock-protected LRU keyed by a flat POD, and executes with the GIL released.
// Inputs that are not float32/float64/complex64/complex128 arrays of native byte order go through
// the Python helper _asfarray (registered by _init) once and come back here.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <array>
#include <complex>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "dctx/plan.hpp"
#include "dctx/types.hpp"
#include "dctx/version.hpp"
#include "dctx/view.hpp"

// Defined by python/CMakeLists.txt when the library is built with the 8x8 block engine.
#ifdef DCTX_PY_HAVE_BLOCK8
#include "dctx/block8.hpp"
#endif

namespace nb = nanobind;
using namespace nb::literals;

namespace {

// ---------------------------------------------------------------------------------------------
// Python objects the extension needs, handed over once by dctx/__init__.py through _init().
struct PyRefs {
  nb::object asfarray;               // (x) -> float32/float64/complex ndarray, or raises TypeError
  nb::object axis_error;             // numpy's AxisError (a ValueError and an IndexError)
  nb::object dctx_error;             // dctx.DctxError (a ValueError and a RuntimeError)
  nb::object asarray;                // numpy.asarray
  nb::object empty;                  // numpy.empty
  nb::object zeros;                  // numpy.zeros
  std::array<nb::object, 4> dtypes;  // float32, float64, complex64, complex128 dtype objects
  nb::object int16, uint8;           // dtype objects for the 8x8 block engine
};
PyRefs* refs = nullptr;  // leaked on purpose: lives as long as the interpreter

[[noreturn]] void raise(PyObject* type, const std::string& msg) {
  PyErr_SetString(type, msg.c_str());
  throw nb::python_error();
}
[[noreturn]] void raise_value(const std::string& msg) { raise(PyExc_ValueError, msg); }
[[noreturn]] void raise_type(const std::string& msg) { raise(PyExc_TypeError, msg); }
[[noreturn]] void raise_dctx(const std::string& msg) { raise(refs->dctx_error.ptr(), msg); }
[[noreturn]] void raise_axis(const std::string& msg) { raise(refs->axis_error.ptr(), msg); }

// operator.index(h) as a 64-bit integer; TypeError for floats, strings, ...
long long as_index(nb::handle h, const char* what) {
  PyObject* i = PyNumber_Index(h.ptr());
  if (!i) {
    PyErr_Clear();
    raise_type(std::string(what) + " must be an integer, not " +
               std::string(nb::type_name(h.type()).c_str()));
  }
  long long v = PyLong_AsLongLong(i);
  Py_DECREF(i);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

// scipy's _iterable_of_int: an int or an iterable of ints, else ValueError.
std::vector<long long> as_index_list(nb::handle h, const char* what) {
  std::vector<long long> out;
  PyObject* i = PyNumber_Index(h.ptr());
  if (i) {
    out.push_back(PyLong_AsLongLong(i));
    Py_DECREF(i);
    if (PyErr_Occurred()) throw nb::python_error();
    return out;
  }
  PyErr_Clear();
  PyObject* seq = PySequence_Fast(h.ptr(), "");
  if (!seq) {
    PyErr_Clear();
    raise_value(std::string(what) + " must be a scalar or iterable of integers");
  }
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  for (Py_ssize_t k = 0; k < n; ++k) {
    PyObject* v = PyNumber_Index(items[k]);
    if (!v) {
      Py_DECREF(seq);
      PyErr_Clear();
      raise_value(std::string(what) + " must be a scalar or iterable of integers");
    }
    out.push_back(PyLong_AsLongLong(v));
    Py_DECREF(v);
  }
  Py_DECREF(seq);
  if (PyErr_Occurred()) throw nb::python_error();
  return out;
}

dctx::Norm parse_norm(nb::handle h) {
  if (h.is_none()) return dctx::Norm::Backward;
  if (PyUnicode_Check(h.ptr())) {
    Py_ssize_t len = 0;
    const char* s = PyUnicode_AsUTF8AndSize(h.ptr(), &len);
    if (s) {
      std::string_view v(s, size_t(len));
      if (v == "backward") return dctx::Norm::Backward;
      if (v == "ortho") return dctx::Norm::Ortho;
      if (v == "forward") return dctx::Norm::Forward;
    } else {
      PyErr_Clear();
    }
  }
  std::string r = nb::repr(h).c_str();
  raise_value("Invalid norm value " + r + ", should be \"backward\", \"ortho\" or \"forward\"");
}

int cpu_count() {
  static const int n = std::max(1u, std::thread::hardware_concurrency());
  return n;
}

// scipy's _workers(): None -> 1, -1 -> all CPUs, -k -> cpu_count + 1 - k, 0 -> error.
int parse_workers(nb::handle h) {
  if (h.is_none()) return 1;
  long long w = as_index(h, "workers");
  if (w < 0) {
    if (w >= -cpu_count()) return int(w + 1 + cpu_count());
    raise_value("workers value out of range; got " + std::to_string(w) +
                ", must not be less than " + std::to_string(-cpu_count()));
  }
  if (w == 0) raise_value("workers must not be zero");
  return int(std::min<long long>(w, 1 << 16));
}

// orthogonalize: None, or anything with a truth value.
std::optional<bool> parse_ortho(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  int t = PyObject_IsTrue(h.ptr());
  if (t < 0) throw nb::python_error();
  return t != 0;
}

bool truthy(nb::handle h) {
  int t = PyObject_IsTrue(h.ptr());
  if (t < 0) throw nb::python_error();
  return t != 0;
}

int parse_type(nb::handle h, dctx::Kind kind) {
  long long t = as_index(h, "type");
  if (t < 1 || t > 4)
    raise_value(std::string("invalid ") + (kind == dctx::Kind::DCT ? "DCT" : "DST") + " type " +
                std::to_string(t) + " (must be 1, 2, 3 or 4)");
  return int(t);
}

// A fixed-capacity vector (NumPy arrays have at most 64 dimensions): no heap on the call path.
template <class T>
struct Small {
  std::array<T, 64> v{};
  size_t n = 0;
  void push_back(T x) {
    if (n == v.size()) raise_value("too many axes");
    v[n++] = x;
  }
  size_t size() const { return n; }
  bool empty() const { return n == 0; }
  T* begin() { return v.data(); }
  T* end() { return v.data() + n; }
  const T* begin() const { return v.data(); }
  const T* end() const { return v.data() + n; }
  const T* data() const { return v.data(); }
  T& operator[](size_t i) { return v[i]; }
  const T& operator[](size_t i) const { return v[i]; }
};

// ---------------------------------------------------------------------------------------------
// Element types the kernels take directly.
enum class Elem : int { F32 = 0, F64 = 1, C64 = 2, C128 = 3 };
constexpr bool is_complex(Elem e) { return e == Elem::C64 || e == Elem::C128; }
constexpr dctx::Precision precision_of(Elem e) {
  return (e == Elem::F32 || e == Elem::C64) ? dctx::Precision::F32 : dctx::Precision::F64;
}
constexpr size_t itemsize(Elem e) {
  switch (e) {
    case Elem::F32: return 4;
    case Elem::F64: return 8;
    case Elem::C64: return 8;
    default: return 16;
  }
}

using AnyArray = nb::ndarray<nb::ro>;

std::optional<Elem> elem_of(const AnyArray& a) {
  auto d = a.dtype();
  if (d == nb::dtype<float>()) return Elem::F32;
  if (d == nb::dtype<double>()) return Elem::F64;
  if (d == nb::dtype<std::complex<float>>()) return Elem::C64;
  if (d == nb::dtype<std::complex<double>>()) return Elem::C128;
  return std::nullopt;
}

// A borrowed input array, in the form the kernels want.
struct Input {
  AnyArray arr;    // keeps the DLPack/buffer export alive
  nb::object obj;  // the Python object behind it (x itself or its converted copy)
  bool converted = false;
  Elem elem = Elem::F64;
  int ndim = 0;
  std::array<int64_t, 64> shape{};
  std::array<int64_t, 64> strides{};  // elements of `elem` (complex: complex elements)
  const char* data = nullptr;
};

bool take_array(nb::handle x, Input& in) {
  // Only arrays that live in host memory, with a dtype the kernels read, are taken as they are.
  if (!nb::try_cast(x, in.arr, false)) return false;
  if (in.arr.device_type() != nb::device::cpu::value) return false;
  auto e = elem_of(in.arr);
  if (!e) return false;
  in.elem = *e;
  in.ndim = int(in.arr.ndim());
  if (in.ndim > 64) return false;
  const int64_t* st = in.arr.stride_ptr();
  int64_t c = 1;
  for (int i = in.ndim; i-- > 0;) {
    in.shape[i] = int64_t(in.arr.shape(i));
    in.strides[i] = st ? st[i] : c;
    c *= in.shape[i];
  }
  in.data = static_cast<const char*>(in.arr.data());
  return true;
}

Input get_input(nb::handle x) {
  Input in;
  if (take_array(x, in)) {
    in.obj = nb::borrow(x);
    return in;
  }
  // (array, copied), or TypeError/ValueError for what dctx refuses.
  nb::tuple r = nb::cast<nb::tuple>(refs->asfarray(x));
  nb::object y = r[0];
  if (!take_array(y, in))
    raise_type("dctx cannot read an array of type " + std::string(nb::type_name(y.type()).c_str()));
  in.converted = nb::cast<bool>(r[1]);
  in.obj = std::move(y);
  return in;
}

// May `in` be transformed in its own buffer? Writable, and no zero strides (broadcast rows).
bool writable_in_place(const Input& in) {
  for (int i = 0; i < in.ndim; ++i)
    if (in.strides[size_t(i)] == 0 && in.shape[size_t(i)] > 1) return false;
  nb::ndarray<> w;  // without nb::ro the caster refuses read-only arrays
  return nb::try_cast(in.obj, w, false) && w.is_valid();
}

// A new C-ordered NumPy array; returns it and its data pointer.
std::pair<nb::object, char*> new_array_of(const int64_t* shape, int ndim, nb::handle dtype,
                                          bool zero) {
  nb::object tup = nb::steal(PyTuple_New(ndim));
  for (int i = 0; i < ndim; ++i) PyTuple_SET_ITEM(tup.ptr(), i, PyLong_FromLongLong(shape[i]));
  nb::object a = (zero ? refs->zeros : refs->empty)(tup, dtype);
  AnyArray v;
  if (!nb::try_cast(a, v, false)) raise_type("dctx: could not allocate the output array");
  return {std::move(a), static_cast<char*>(const_cast<void*>(v.data()))};
}
std::pair<nb::object, char*> new_array(const int64_t* shape, int ndim, Elem e, bool zero) {
  return new_array_of(shape, ndim, refs->dtypes[int(e)], zero);
}

// ---------------------------------------------------------------------------------------------
// Plan cache in front of the core: a flat key compared with memcmp, most recent first. On a hit
// no PlanDesc (and no heap allocation) is made.
struct PlanKey {
  uint8_t precision, kind, type, direction, norm, ortho, ndim, naxes;
  int32_t threads;
  uint8_t axes[8];
  int64_t shape[8];
};
static_assert(std::is_trivially_copyable_v<PlanKey>);

struct PlanReq {
  dctx::Precision precision;
  dctx::Kind kind;
  int type;
  dctx::Direction direction;
  dctx::Norm norm;
  std::optional<bool> ortho;
  int threads;
  int ndim;
  const int64_t* shape;
  int naxes;
  const int* axes;

  dctx::PlanDesc desc() const {
    dctx::PlanDesc d;
    d.shape.assign(shape, shape + ndim);
    d.axes.assign(axes, axes + naxes);
    d.kind = kind;
    d.type = type;
    d.precision = precision;
    d.norm = norm;
    d.orthogonalize = ortho;
    d.direction = direction;
    d.cpu.threads = threads;
    d.backend = dctx::BackendKind::Auto;
    return d;
  }
};

class PlanCache {
 public:
  std::shared_ptr<const dctx::Plan> get(const PlanReq& r) {
    if (r.ndim > 8 || r.naxes > 8) return build(r);
    PlanKey k;
    std::memset(&k, 0, sizeof k);
    k.precision = uint8_t(r.precision);
    k.kind = uint8_t(r.kind);
    k.type = uint8_t(r.type);
    k.direction = uint8_t(r.direction);
    k.norm = uint8_t(r.norm);
    k.ortho = r.ortho ? uint8_t(1 + *r.ortho) : 0;
    k.ndim = uint8_t(r.ndim);
    k.naxes = uint8_t(r.naxes);
    k.threads = r.threads;
    std::transform(r.axes, r.axes + r.naxes, k.axes, [](int a) { return uint8_t(a); });
    std::copy(r.shape, r.shape + r.ndim, k.shape);
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (size_t i = 0; i < entries_.size(); ++i) {
        if (std::memcmp(&entries_[i].first, &k, sizeof k) == 0) {
          if (i != 0) std::rotate(entries_.begin(), entries_.begin() + i, entries_.begin() + i + 1);
          return entries_.front().second;
        }
      }
    }
    auto p = build(r);
    std::lock_guard<std::mutex> lock(mu_);
    entries_.insert(entries_.begin(), {k, p});
    if (entries_.size() > capacity_) entries_.pop_back();
    return p;
  }

 private:
  // Misses (and keys too large for PlanKey) go to the core's LRU cache.
  static std::shared_ptr<const dctx::Plan> build(const PlanReq& r) {
    dctx::PlanDesc d = r.desc();
    nb::gil_scoped_release nogil;  // planning a large size may take a while
    return dctx::cached_plan(d);
  }
  std::mutex mu_;
  size_t capacity_ = 32;
  std::vector<std::pair<PlanKey, std::shared_ptr<const dctx::Plan>>> entries_;
};
PlanCache* plan_cache = nullptr;

// ---------------------------------------------------------------------------------------------
// C-order element strides of `shape` into `st`; returns the element count.
int64_t c_strides(const int64_t* shape, int ndim, int64_t* st) {
  int64_t c = 1;
  for (int i = ndim; i-- > 0;) {
    st[i] = c;
    c *= shape[i];
  }
  return c;
}

// Strided copy of the region `shape` from src to dst (byte strides), element size `es` bytes.
void copy_region(const char* src, const int64_t* sst, char* dst, const int64_t* dst_st,
                 const int64_t* shape, int ndim, size_t es) {
  if (ndim == 0) {
    std::memcpy(dst, src, es);
    return;
  }
  if (ndim == 1) {
    if (sst[0] == int64_t(es) && dst_st[0] == int64_t(es)) {
      std::memcpy(dst, src, es * size_t(shape[0]));
      return;
    }
    for (int64_t i = 0; i < shape[0]; ++i) std::memcpy(dst + i * dst_st[0], src + i * sst[0], es);
    return;
  }
  for (int64_t i = 0; i < shape[0]; ++i)
    copy_region(src + i * sst[0], sst + 1, dst + i * dst_st[0], dst_st + 1, shape + 1, ndim - 1,
                es);
}

// `in` and `out` have the plan's shape (callers check it); strides count whole (complex)
// elements.
template <class T>
void run_plan(const dctx::Plan& plan, const T* in, const int64_t* in_st, T* out,
              const int64_t* out_st, bool cplx) {
  const int64_t m = cplx ? 2 : 1;
  const int ndim = int(plan.desc().shape.size());  // <= 64, as every array taken here
  std::ptrdiff_t si[64], so[64];                   // no allocation on the call path
  for (int i = 0; i < ndim; ++i) {
    si[i] = static_cast<std::ptrdiff_t>(in_st[i] * m);
    so[i] = static_cast<std::ptrdiff_t>(out_st[i] * m);
  }
  nb::gil_scoped_release nogil;
  plan.execute(in, si, out, so);
  if (cplx) plan.execute(in + 1, si, out + 1, so);
}

void execute(const dctx::Plan& plan, Elem e, const char* in, const int64_t* in_st, char* out,
             const int64_t* out_st) {
  if (precision_of(e) == dctx::Precision::F32)
    run_plan(plan, reinterpret_cast<const float*>(in), in_st, reinterpret_cast<float*>(out), out_st,
             is_complex(e));
  else
    run_plan(plan, reinterpret_cast<const double*>(in), in_st, reinterpret_cast<double*>(out),
             out_st, is_complex(e));
}

// ---------------------------------------------------------------------------------------------
// The one entry point behind dct/idct/dst/idst (nd=false: n, axis) and dctn/... (nd=true: s, axes).
nb::object r2r(nb::handle x, int kind_i, bool inverse, nb::handle type_h, nb::handle n_h,
               nb::handle ax_h, nb::handle norm_h, nb::handle overwrite_h, nb::handle workers_h,
               nb::handle ortho_h, bool nd) {
  if (!refs) raise_type("dctx._dctx used before dctx/__init__.py ran _init()");
  const auto kind = dctx::Kind(kind_i);
  // Argument checks in scipy's order: array, axes/shape, type, norm, workers.
  Input in = get_input(x);
  const int ndim = in.ndim;

  Small<int> axes;
  Small<int64_t> lens;  // transform length per axis
  if (!nd) {
    long long a = as_index(ax_h, "axis");
    if (a < -ndim || a >= ndim)
      raise_axis("axis " + std::to_string(a) + " is out of bounds for array of dimension " +
                 std::to_string(ndim));
    if (a < 0) a += ndim;
    axes.push_back(int(a));
    if (n_h.is_none()) {
      lens.push_back(in.shape[size_t(a)]);
    } else {
      long long n = as_index(n_h, "n");
      lens.push_back(n);
    }
    if (lens[0] < 1)
      raise_value("invalid number of data points (" + std::to_string(lens[0]) + ") specified");
  } else {
    bool have_axes = !ax_h.is_none(), have_s = !n_h.is_none();
    if (have_axes) {
      for (long long a : as_index_list(ax_h, "axes")) {
        if (a < 0) a += ndim;
        if (a < 0 || a >= ndim) raise_axis("axes exceeds dimensionality of input");
        if (std::find(axes.begin(), axes.end(), int(a)) != axes.end())
          raise_value("all axes must be unique");
        axes.push_back(int(a));
      }
    }
    if (have_s) {
      auto s = as_index_list(n_h, "shape");
      if (have_axes && !axes.empty() && axes.size() != s.size())
        raise_value("when given, axes and shape arguments have to be of the same length");
      if (!have_axes) {
        if (int(s.size()) > ndim) raise_value("shape requires more axes than are present");
        for (int i = ndim - int(s.size()); i < ndim; ++i) axes.push_back(i);
      }
      for (size_t i = 0; i < s.size() && i < axes.size(); ++i)
        lens.push_back(s[i] == -1 ? in.shape[size_t(axes[i])] : s[i]);
    } else {
      if (!have_axes)
        for (int i = 0; i < ndim; ++i) axes.push_back(i);
      for (int a : axes) lens.push_back(in.shape[size_t(a)]);
    }
    for (auto l : lens) {
      if (l < 1) {
        std::string r = "[";
        for (size_t i = 0; i < lens.size(); ++i) r += (i ? ", " : "") + std::to_string(lens[i]);
        raise_value("invalid number of data points (" + r + "]) specified");
      }
    }
    if (axes.empty()) return refs->asarray(x);  // nothing to transform, as scipy
  }

  const int type = parse_type(type_h, kind);
  const dctx::Norm norm = parse_norm(norm_h);
  const int threads = parse_workers(workers_h);
  const std::optional<bool> ortho = parse_ortho(ortho_h);
  const bool overwrite = truthy(overwrite_h);

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
  if (type == 1 && kind == dctx::Kind::DCT)
    for (auto l : lens)
      if (l < 2) raise_dctx("DCT-I needs at least 2 points along every transformed axis (got 1)");

  if (total == 0) return new_array(oshape.data(), ndim, in.elem, true).first;

  const PlanReq req{precision_of(in.elem),
                    kind,
                    type,
                    inverse ? dctx::Direction::Inverse : dctx::Direction::Forward,
                    norm,
                    ortho,
                    threads,
                    ndim,
                    oshape.data(),
                    int(axes.size()),
                    axes.data()};
  auto plan = plan_cache->get(req);

  const size_t es = itemsize(in.elem);
  if (pad) {
    // One zero-filled C-ordered buffer receives the cropped input, then transforms in place.
    auto [out, ptr] = new_array(oshape.data(), ndim, in.elem, true);
    std::array<int64_t, 64> cst{}, sb{}, db{};
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
  std::array<int64_t, 64> cst{};
  c_strides(oshape.data(), ndim, cst.data());
  execute(*plan, in.elem, in.data, in.strides.data(), ptr, cst.data());
  return out;
}

// ---------------------------------------------------------------------------------------------
// dctx.Plan: one transform over a fixed shape and dtype, callable many times (and from many
// threads at once: the core plan is immutable and execute() is const).
class PyPlan {
 public:
  PyPlan(std::vector<int64_t> shape, Elem elem, std::vector<int> axes, int kind, int type,
         dctx::Norm norm, std::optional<bool> ortho, bool inverse, int threads,
         dctx::BackendKind backend)
      : shape_(std::move(shape)), cstrides_(shape_.size()), elem_(elem) {
    c_strides(shape_.data(), int(shape_.size()), cstrides_.data());
    dctx::PlanDesc d;
    d.shape.assign(shape_.begin(), shape_.end());
    d.axes = std::move(axes);
    d.kind = dctx::Kind(kind);
    d.type = type;
    d.precision = precision_of(elem);
    d.norm = norm;
    d.orthogonalize = ortho;
    d.direction = inverse ? dctx::Direction::Inverse : dctx::Direction::Forward;
    d.cpu.threads = threads;
    d.backend = backend;
    nb::gil_scoped_release nogil;
    plan_ = std::make_shared<const dctx::Plan>(d);
  }

  nb::object call(nb::handle x, nb::handle out_h) const {
    Input in;
    if (!take_array(x, in)) {
      if (nb::hasattr(x, "__dlpack_device__") && !nb::hasattr(x, "__array_interface__"))
        raise_type(
            "dctx.Plan: this array is not in host memory; the CPU back end needs a "
            "NumPy-compatible array (GPU back ends are not built yet)");
      raise_type("dctx.Plan expects an array of dtype " + dtype_name() + ", got " +
                 std::string(nb::type_name(x.type()).c_str()));
    }
    in.obj = nb::borrow(x);
    check(in, "input");
    if (out_h.is_none()) {
      auto [out, ptr] = new_array(shape_.data(), int(shape_.size()), elem_, false);
      execute(*plan_, elem_, in.data, in.strides.data(), ptr, cstrides_.data());
      return out;
    }
    Input o;
    nb::ndarray<> w;
    if (!nb::try_cast(out_h, w, false) || !take_array(out_h, o))
      raise_value("dctx.Plan: out must be a writable array of dtype " + dtype_name());
    check(o, "out");
    execute(*plan_, elem_, in.data, in.strides.data(), const_cast<char*>(o.data), o.strides.data());
    return nb::borrow(out_h);
  }

  nb::tuple shape() const {
    nb::list l;
    for (auto s : shape_) l.append(s);
    return nb::tuple(l);
  }
  nb::object dtype() const { return refs->dtypes[int(elem_)]; }
  std::string describe() const { return plan_->describe(); }
  nb::tuple axes() const {
    nb::list l;
    for (auto a : plan_->desc().axes) l.append(a);
    return nb::tuple(l);
  }

 private:
  std::string dtype_name() const {
    static const char* names[] = {"float32", "float64", "complex64", "complex128"};
    return names[int(elem_)];
  }
  void check(const Input& a, const char* what) const {
    if (a.elem != elem_)
      raise_type(std::string("dctx.Plan: ") + what + " has the wrong dtype (plan built for " +
                 dtype_name() + ")");
    bool same = a.ndim == int(shape_.size());
    for (int i = 0; same && i < a.ndim; ++i) same = a.shape[size_t(i)] == shape_[size_t(i)];
    if (!same) raise_value(std::string("dctx.Plan: ") + what + " has the wrong shape");
  }
  std::vector<int64_t> shape_;
  std::vector<int64_t> cstrides_;  // C-order element strides of shape_ (new outputs)
  Elem elem_;
  std::shared_ptr<const dctx::Plan> plan_;
};

#ifdef DCTX_PY_HAVE_BLOCK8
// ---------------------------------------------------------------------------------------------
// The 8x8 block engine: blockwise orthonormal DCT-II/III of planes (2-D) or batches (3-D), float32
// or int16, and the JPEG-style round trip of an 8-bit image.
dctx::Block8Options block8_options(const std::string& kernel, const std::string& edge,
                                   nb::handle workers) {
  dctx::Block8Options o;
  o.kernel = dctx::parse_block8_kernel(kernel);
  o.edge = dctx::parse_block8_edge(edge);
  o.nthreads = parse_workers(workers);
  return o;
}

template <class T>
dctx::ArrayView<T> block_view(T* data, const Input& a) {
  return dctx::ArrayView<T>(data, dctx::Shape(a.shape.begin(), a.shape.begin() + a.ndim),
                            dctx::Strides(a.strides.begin(), a.strides.begin() + a.ndim));
}

bool take_block_array(nb::handle x, Input& in, bool& is_int16) {
  if (!nb::try_cast(x, in.arr, false) || in.arr.device_type() != nb::device::cpu::value)
    return false;
  auto d = in.arr.dtype();
  if (d == nb::dtype<float>())
    is_int16 = false;
  else if (d == nb::dtype<int16_t>())
    is_int16 = true;
  else
    return false;
  in.ndim = int(in.arr.ndim());
  if (in.ndim != 2 && in.ndim != 3)
    raise_value("block8: expected a 2-D plane or a 3-D batch of planes, got " +
                std::to_string(in.ndim) + " dimensions");
  const int64_t* st = in.arr.stride_ptr();
  int64_t c = 1;
  for (int i = in.ndim; i-- > 0;) {
    in.shape[size_t(i)] = int64_t(in.arr.shape(size_t(i)));
    in.strides[size_t(i)] = st ? st[i] : c;
    c *= in.shape[size_t(i)];
  }
  in.data = static_cast<const char*>(in.arr.data());
  return true;
}

/// The new C-order output of a block8 call: the input's shape, padded to multiples of 8 for a
/// forward pass with replicated edges, or (rows, cols) from `out_rows_cols`.
struct BlockOutput {
  nb::object array;
  char* data;
  Input view;
};
BlockOutput new_block_output(const Input& in, bool inverse, const dctx::Block8Options& opt,
                             nb::handle out_rows_cols, bool int16) {
  BlockOutput r;
  std::array<int64_t, 64> oshape = in.shape;
  const int nd = in.ndim;
  if (!out_rows_cols.is_none()) {
    auto rc = as_index_list(out_rows_cols, "shape");
    if (rc.size() != 2) raise_value("shape must be (rows, cols)");
    oshape[size_t(nd - 2)] = rc[0];
    oshape[size_t(nd - 1)] = rc[1];
  } else if (!inverse && opt.edge == dctx::Block8Edge::Replicate) {
    for (int i = nd - 2; i < nd; ++i) oshape[size_t(i)] = (oshape[size_t(i)] + 7) / 8 * 8;
  }
  for (int i = 0; i < nd; ++i)
    if (oshape[size_t(i)] < 0) raise_value("block8: negative output extent");
  std::tie(r.array, r.data) =
      new_array_of(oshape.data(), nd, int16 ? refs->int16 : refs->dtypes[0], false);
  r.view.ndim = nd;
  r.view.shape = oshape;
  c_strides(oshape.data(), nd, r.view.strides.data());
  return r;
}

nb::object block8_run(nb::handle x, bool inverse, const std::string& kernel,
                      const std::string& edge, nb::handle workers, nb::handle out_rows_cols) {
  Input in;
  bool i16 = false;
  if (!take_block_array(x, in, i16))
    raise_type("block8: the input must be a float32 or int16 array in host memory");
  const auto opt = block8_options(kernel, edge, workers);
  auto [out, ptr, o] = new_block_output(in, inverse, opt, out_rows_cols, i16);
  nb::gil_scoped_release nogil;
  if (i16) {
    auto iv = block_view(reinterpret_cast<const int16_t*>(in.data), in);
    auto ov = block_view(reinterpret_cast<int16_t*>(ptr), o);
    inverse ? dctx::block8_inverse(iv, ov, opt) : dctx::block8_forward(iv, ov, opt);
  } else {
    auto iv = block_view(reinterpret_cast<const float*>(in.data), in);
    auto ov = block_view(reinterpret_cast<float*>(ptr), o);
    inverse ? dctx::block8_inverse(iv, ov, opt) : dctx::block8_forward(iv, ov, opt);
  }
  return out;
}

/// Levels (int16) of every 8x8 block of x (block8_forward_quantized), or, with `inverse`, samples
/// from levels (block8_inverse_dequantized: float32, or int16 when int16_out).
nb::object block8_quantized_run(nb::handle x, bool inverse, const std::vector<int>& entries,
                                const std::string& kernel, const std::string& edge,
                                nb::handle workers, nb::handle out_rows_cols, bool int16_out) {
  Input in;
  bool i16 = false;
  if (!take_block_array(x, in, i16))
    raise_type("block8: the input must be a float32 or int16 array in host memory");
  if (inverse && !i16) raise_type("iblock8 with a table takes int16 quantization levels");
  if (entries.size() != 64) raise_value("block8: a quantization table has 64 entries");
  dctx::QuantTable table;
  std::copy(entries.begin(), entries.end(), table.q.begin());
  table.validate();
  const auto opt = block8_options(kernel, edge, workers);
  const bool out_i16 = inverse ? int16_out : true;
  auto [out, ptr, o] = new_block_output(in, inverse, opt, out_rows_cols, out_i16);
  nb::gil_scoped_release nogil;
  if (inverse) {
    auto lv = block_view(reinterpret_cast<const int16_t*>(in.data), in);
    if (out_i16)
      dctx::block8_inverse_dequantized(lv, block_view(reinterpret_cast<int16_t*>(ptr), o), table,
                                       opt);
    else
      dctx::block8_inverse_dequantized(lv, block_view(reinterpret_cast<float*>(ptr), o), table,
                                       opt);
  } else {
    auto lv = block_view(reinterpret_cast<int16_t*>(ptr), o);
    if (i16)
      dctx::block8_forward_quantized(block_view(reinterpret_cast<const int16_t*>(in.data), in), lv,
                                     table, opt);
    else
      dctx::block8_forward_quantized(block_view(reinterpret_cast<const float*>(in.data), in), lv,
                                     table, opt);
  }
  return out;
}

/// The 64 entries (row-major) of a named table scaled by quality: "nvidia", or "jpeg" / "luma"
/// (T.81 K.1) and "chroma" (K.2).
std::vector<int> quant_table_py(const std::string& name, int quality) {
  dctx::QuantTable t;
  if (name == "chroma")
    t = dctx::quant_table_jpeg_chroma(quality);
  else if (name == "luma")
    t = dctx::quant_table_jpeg_luma(quality);
  else if (dctx::parse_quant_table_kind(name) == dctx::QuantTableKind::Jpeg)
    t = dctx::quant_table_jpeg_luma(quality);
  else
    t = dctx::quant_table_scaled(dctx::quant_table_nvidia(), quality);
  return std::vector<int>(t.q.begin(), t.q.end());
}

/// An 8x8 table (64 entries, row-major) scaled the libjpeg way (dctx::quant_table_scaled).
std::vector<int> quant_table_scaled_py(const std::vector<int>& entries, int quality) {
  if (entries.size() != 64) raise_value("block8: a quantization table has 64 entries");
  dctx::QuantTable base;
  std::copy(entries.begin(), entries.end(), base.q.begin());
  const auto t = dctx::quant_table_scaled(base, quality);
  return std::vector<int>(t.q.begin(), t.q.end());
}

nb::tuple jpeg_roundtrip_py(nb::handle image, const std::string& table, int quality,
                            const std::string& kernel, bool color, nb::handle workers) {
  nb::ndarray<nb::ro, uint8_t, nb::device::cpu> a;
  if (!nb::try_cast(image, a, false))
    raise_type("jpeg_roundtrip: image must be a uint8 array (rows, cols) or (rows, cols, 3)");
  const size_t nd = a.ndim();
  const int ch = nd == 2 ? 1 : nd == 3 ? int(a.shape(2)) : 0;
  if (ch != 1 && ch != 3)
    raise_value(
        "jpeg_roundtrip: image must have shape (rows, cols), (rows, cols, 1) or "
        "(rows, cols, 3)");
  dctx::Image img;
  img.height = int(a.shape(0));
  img.width = int(a.shape(1));
  img.channels = ch;
  img.pixels.resize(size_t(img.height) * size_t(img.width) * size_t(ch));
  const int64_t* st = a.stride_ptr();
  const int64_t s0 = st ? st[0] : int64_t(a.shape(1)) * ch, s1 = st ? st[1] : ch,
                s2 = (st && nd == 3) ? st[2] : 1;
  const uint8_t* p = a.data();
  size_t k = 0;
  for (int r = 0; r < img.height; ++r)
    for (int cidx = 0; cidx < img.width; ++cidx)
      for (int z = 0; z < ch; ++z) img.pixels[k++] = p[r * s0 + cidx * s1 + z * s2];
  dctx::JpegOptions opt;
  opt.table = dctx::parse_quant_table_kind(table);
  dctx::jpeg_quality_scaling(quality);  // throws dctx::Error outside 1..100
  opt.quality = quality;
  opt.kernel = dctx::parse_block8_kernel(kernel);
  opt.color = color;
  opt.nthreads = parse_workers(workers);
  dctx::JpegResult res;
  {
    nb::gil_scoped_release nogil;
    res = dctx::jpeg_roundtrip(img, opt);
  }
  std::array<int64_t, 3> shp{res.image.height, res.image.width, res.image.channels};
  auto [out, ptr] = new_array_of(shp.data(), res.image.channels == 1 ? 2 : 3, refs->uint8, false);
  std::memcpy(ptr, res.image.pixels.data(), res.image.pixels.size());
  return nb::make_tuple(out, res.psnr_db);
}
#endif  // DCTX_PY_HAVE_BLOCK8

}  // namespace

NB_MODULE(_dctx, m) {
  m.doc() = "Compiled core of the dctx Python package (use the dctx package, not this module).";
  m.attr("__version__") = dctx::kVersion;
#ifdef DCTX_PY_HAVE_BLOCK8
  m.attr("has_block8") = true;
#else
  m.attr("has_block8") = false;
#endif

  plan_cache = new PlanCache();

  m.def(
      "_init",
      [](nb::object asfarray, nb::object axis_error, nb::object dctx_error, nb::object np) {
        auto* r = new PyRefs();
        r->asfarray = std::move(asfarray);
        r->axis_error = std::move(axis_error);
        r->dctx_error = std::move(dctx_error);
        r->asarray = np.attr("asarray");
        r->empty = np.attr("empty");
        r->zeros = np.attr("zeros");
        const char* names[] = {"float32", "float64", "complex64", "complex128"};
        for (int i = 0; i < 4; ++i) r->dtypes[size_t(i)] = np.attr("dtype")(names[i]);
        r->int16 = np.attr("dtype")("int16");
        r->uint8 = np.attr("dtype")("uint8");
        refs = r;
        nb::register_exception_translator(
            [](const std::exception_ptr& p, void*) {
              try {
                std::rethrow_exception(p);
              } catch (const dctx::Error& e) {
                PyErr_SetString(refs->dctx_error.ptr(), e.what());
              }
            },
            nullptr);
      },
      "asfarray"_a, "axis_error"_a, "dctx_error"_a, "numpy"_a);

  m.def("_r2r", &r2r, "x"_a, "kind"_a, "inverse"_a, "type"_a, "n"_a.none(), "axis"_a.none(),
        "norm"_a.none(), "overwrite_x"_a.none(), "workers"_a.none(), "orthogonalize"_a.none(),
        "nd"_a);

#ifdef DCTX_PY_HAVE_BLOCK8
  m.def("_block8", &block8_run, "x"_a, "inverse"_a, "kernel"_a, "edge"_a, "workers"_a.none(),
        "shape"_a.none());
  m.def("_block8_quantized", &block8_quantized_run, "x"_a, "inverse"_a, "table"_a, "kernel"_a,
        "edge"_a, "workers"_a.none(), "shape"_a.none(), "int16_out"_a);
  m.def("_quant_table", &quant_table_py, "name"_a, "quality"_a);
  m.def("_quant_table_scaled", &quant_table_scaled_py, "entries"_a, "quality"_a);
  m.def("_jpeg_roundtrip", &jpeg_roundtrip_py, "image"_a, "table"_a, "quality"_a, "kernel"_a,
        "color"_a, "workers"_a.none());
#endif

  nb::class_<PyPlan>(m, "_Plan")
      .def(
          "__init__",
          [](PyPlan* self, std::vector<int64_t> shape, int elem, std::vector<int> axes, int kind,
             int type, nb::handle norm, nb::handle ortho, bool inverse, nb::handle workers,
             nb::handle backend) {
            dctx::BackendKind b = dctx::BackendKind::Auto;
            if (!backend.is_none()) {
              std::string s = nb::cast<std::string>(backend);
              if (s == "cpu")
                b = dctx::BackendKind::CPU;
              else if (s != "auto")
                raise_value("unknown or unavailable backend '" + s +
                            "' (this build has: 'cpu', 'auto')");
            }
            for (auto s : shape)
              if (s < 1) raise_value("dctx.Plan: every extent of shape must be >= 1");
            // The element code selects how buffers are read: checked here too, whoever calls.
            if (elem < 0 || elem > 3) raise_type("dctx.Plan: unsupported dtype");
            new (self)
                PyPlan(std::move(shape), Elem(elem), std::move(axes), kind, type, parse_norm(norm),
                       parse_ortho(ortho), inverse, parse_workers(workers), b);
          },
          "shape"_a, "elem"_a, "axes"_a, "kind"_a, "type"_a, "norm"_a.none(),
          "orthogonalize"_a.none(), "inverse"_a, "workers"_a.none(), "backend"_a.none())
      .def("__call__", &PyPlan::call, "x"_a, "out"_a.none() = nb::none())
      .def_prop_ro("shape", &PyPlan::shape)
      .def_prop_ro("dtype", &PyPlan::dtype)
      .def_prop_ro("axes", &PyPlan::axes)
      .def("describe", &PyPlan::describe);
}
