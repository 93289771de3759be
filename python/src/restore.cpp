// SPDX-License-Identifier: BSD-3-Clause
// _restore and _parse_psf, behind dctx.blur and dctx.deblur: the reflective-boundary blur and its
// Tikhonov inverse (dctx/restore.hpp) on a 2D float array. The Python layer (dctx/_restore.py)
// checks the keywords; the core's refusals come back as dctx.DctxError, prefixed with the Python
// function.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <tuple>
#include <vector>

#include "binding.hpp"
#include "dctx/restore.hpp"

namespace dctx_py {
namespace {

using namespace nb::literals;

std::tuple<size_t, size_t, std::vector<double>> parse_psf(const std::string& spec,
                                                          const std::string& fn) {
  try {
    const dctx::Psf p = dctx::parse_psf(spec);
    return {p.rows, p.cols, p.weights};
  } catch (const dctx::Error& e) {
    raise_core(e, fn);
  }
}

// y = A x (alpha None) or the Tikhonov solution for b = x; a new C-ordered array of x's dtype.
nb::object restore(nb::handle x, size_t rows, size_t cols, std::vector<double> weights,
                   nb::handle alpha_h, nb::handle workers, const std::string& fn) {
  const Input in = take_real_2d(x, fn, "the image");
  const dctx::Shape shape{size_t(in.shape[0]), size_t(in.shape[1])};
  dctx::CpuOptions cpu;
  cpu.threads = parse_workers(workers);
  dctx::Psf psf;
  psf.rows = rows;
  psf.cols = cols;
  psf.weights = std::move(weights);
  const bool deblur = !alpha_h.is_none();
  const double alpha = deblur ? nb::cast<double>(alpha_h) : 0.0;
  auto [out, ptr] = new_array(in.shape.data(), 2, in.elem, false);
  std::array<int64_t, 2> ost{in.shape[1], 1};
  const dctx::Strides is{in.strides[0], in.strides[1]}, os{ost[0], ost[1]};
  try {
    nb::gil_scoped_release nogil;
    const dctx::ReflectiveBlur blur(shape, psf, precision_of(in.elem), cpu);
    if (in.elem == Elem::F32) {
      const dctx::ConstView<float> src(reinterpret_cast<const float*>(in.data), shape, is);
      const dctx::View<float> dst(reinterpret_cast<float*>(ptr), shape, os);
      deblur ? blur.deblur(src, dst, alpha) : blur.blur(src, dst);
    } else {
      const dctx::ConstView<double> src(reinterpret_cast<const double*>(in.data), shape, is);
      const dctx::View<double> dst(reinterpret_cast<double*>(ptr), shape, os);
      deblur ? blur.deblur(src, dst, alpha) : blur.blur(src, dst);
    }
  } catch (const dctx::Error& e) {
    raise_core(e, fn);
  }
  return out;
}

}  // namespace

void bind_restore(nb::module_& m) {
  m.def("_parse_psf", &parse_psf, "spec"_a, "fn"_a);
  m.def("_restore", &restore, "x"_a, "rows"_a, "cols"_a, "weights"_a, "alpha"_a.none(),
        "workers"_a.none(), "fn"_a);
}

}  // namespace dctx_py
