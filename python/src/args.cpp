// SPDX-License-Identifier: BSD-3-Clause
// Python's own arguments: integers and iterables of integers (operator.index), scipy's norm
// strings and workers, truth values. What the values mean for a transform (types, axes, sizes)
// is the core's to check; these only turn Python objects into C++ values.
#include <algorithm>
#include <cctype>
#include <climits>
#include <string>
#include <string_view>

#include <nanobind/stl/string.h>

#include "binding.hpp"
#include "core/vocabulary.hpp"
#include "dctx/dctx.hpp"

namespace dctx_py {

PyRefs* refs = nullptr;

void raise(PyObject* type, const std::string& msg) {
  PyErr_SetString(type, msg.c_str());
  throw nb::python_error();
}

void raise_core(const dctx::Error& e, const std::string& fn) {
  std::string msg = dctx::detail::in_words_of(e.what(), dctx::detail::Vocabulary::Python);
  // The C++ function's name the core's messages start with ("poisson: ", "deblur: ").
  const std::size_t colon = msg.find(": ");
  if (colon != std::string::npos &&
      std::all_of(msg.begin(), msg.begin() + std::ptrdiff_t(colon),
                  [](char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)); }))
    msg.erase(0, colon + 2);
  raise_dctx(fn + ": " + msg);
}

namespace {

// What a refused argument was, for messages: "None", or the name of its type ("str", "float").
std::string kind_of(nb::handle h) {
  return h.is_none() ? std::string("None") : std::string(nb::type_name(h.type()).c_str());
}

}  // namespace

long long as_index(nb::handle h, const char* what) {
  PyObject* i = PyNumber_Index(h.ptr());
  if (!i) {
    PyErr_Clear();
    raise_type(std::string(what) + " must be an integer, not " + kind_of(h));
  }
  long long v = PyLong_AsLongLong(i);
  Py_DECREF(i);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

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

int clamp_int(long long v) { return int(std::clamp<long long>(v, INT_MIN, INT_MAX)); }

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

dctx::BackendKind parse_backend_arg(nb::handle h, const std::string& who) {
  if (h.is_none()) return dctx::BackendKind::Auto;
  if (!PyUnicode_Check(h.ptr()))
    raise_type(who + ": backend must be a string or None, not " +
               std::string(nb::type_name(h.type()).c_str()));
  return dctx::parse_backend(nb::cast<std::string>(h));
}

int parse_workers(nb::handle h) {
  if (h.is_none()) return 1;
  static const int cpus = dctx::hardware_threads();  // asked once: it reads /sys on Linux
  long long w = as_index(h, "workers");
  if (w < 0) {
    if (w >= -cpus) return int(w + 1 + cpus);
    raise_value("workers value out of range; got " + std::to_string(w) +
                ", must not be less than " + std::to_string(-cpus));
  }
  if (w == 0) raise_value("workers must not be zero");
  return int(std::min<long long>(w, 1 << 16));
}

void set_shape_and_axes(dctx::PlanDesc& d, const std::vector<int64_t>& shape, nb::handle axes_h,
                        const char* who) {
  for (auto s : shape) {
    if (s < 0)
      raise_value(std::string(who) + ": shape has a negative extent (" + std::to_string(s) + ")");
    d.shape.push_back(size_t(s));
  }
  std::vector<int> axes;
  if (!axes_h.is_none())
    for (long long a : as_index_list(axes_h, "axes")) axes.push_back(clamp_int(a));
  try {
    d.axes = dctx::resolve_axes(d.shape.size(), axes);
  } catch (const dctx::Error& e) {
    if (e.kind() == dctx::ErrorKind::AxisOutOfRange)
      raise_axis("axes exceeds dimensionality of the plan's shape");
    if (e.kind() == dctx::ErrorKind::RepeatedAxis) raise_value("all axes must be unique");
    throw;
  }
}

std::optional<bool> parse_ortho(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  // scipy's rule (pybind11's bool caster): True, False or an object with a number's truth value
  // (numpy.bool_, int, float); strings, lists and other objects are refused.
  PyNumberMethods* nm = Py_TYPE(h.ptr())->tp_as_number;
  if (PyBool_Check(h.ptr()) || (nm && nm->nb_bool)) {
    const int t = PyObject_IsTrue(h.ptr());
    if (t >= 0) return t != 0;
    PyErr_Clear();  // e.g. an array of several elements: no single truth value
  }
  raise_type("orthogonalize must be None or a bool, not " + kind_of(h));
}

bool truthy(nb::handle h) {
  int t = PyObject_IsTrue(h.ptr());
  if (t < 0) throw nb::python_error();
  return t != 0;
}

}  // namespace dctx_py
