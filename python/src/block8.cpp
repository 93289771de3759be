// SPDX-License-Identifier: BSD-3-Clause
// The 8x8 block engine (compiled when the library has it, DCTX_BLOCK8=ON): blockwise orthonormal
// DCT-II/III of planes (2-D) or batches (3-D), float32 or int16, to and from int16 quantization
// levels, the quantization tables, and the JPEG-style round trip of an 8-bit image.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "binding.hpp"
#include "core/vocabulary.hpp"
#include "dctx/block8.hpp"

namespace dctx_py {
namespace {

using namespace nb::literals;

// The Python functions' names, for messages.
const char* py_name(bool inverse) { return inverse ? "dctx.iblock8" : "dctx.block8"; }

/// A message of the core in the words of the Python API: prefixed with the Python function
/// (`fn`) instead of the C++ one, and the C++ names of options replaced by the keywords and values
/// the Python functions take (core/vocabulary.hpp: edge="replicate", kernel="int16", workers).
std::string pythonic(std::string msg, const char* fn, bool inverse) {
  const auto replace_all = [&msg](std::string_view from, std::string_view to) {
    for (size_t at = msg.find(from); at != std::string::npos; at = msg.find(from, at + to.size()))
      msg.replace(at, from.size(), to);
  };
  msg = dctx::detail::in_words_of(std::move(msg), dctx::detail::Vocabulary::Python);
  // The output of an inverse is what `shape` asked for.
  if (inverse) replace_all(": out is ", ": shape is ");
  // The C++ function the message starts with (block8_forward: ...) becomes the Python one.
  static constexpr std::string_view kCppFunctions[] = {"block8_forward_quantized",
                                                       "block8_inverse_dequantized",
                                                       "block8_roundtrip_quantized",
                                                       "block8_forward",
                                                       "block8_inverse",
                                                       "block8_quantize",
                                                       "block8_dequantize",
                                                       "jpeg_roundtrip",
                                                       "block8",
                                                       "psnr"};
  for (std::string_view f : kCppFunctions)
    if (msg.compare(0, f.size(), f) == 0 && msg.compare(f.size(), 2, ": ") == 0) {
      msg.erase(0, f.size() + 2);
      break;
    }
  return std::string(fn) + ": " + msg;
}

/// Runs `work` (which may release the GIL): the core's refusals (dctx::Error) are raised as
/// dctx.DctxError with pythonic() messages, once the GIL is held again.
template <class Work>
auto speak_python(const char* fn, bool inverse, Work&& work) {
  try {
    return work();
  } catch (const dctx::Error& e) {
    raise_dctx(pythonic(e.what(), fn, inverse));
  }
}

dctx::Block8Options block8_options(const std::string& kernel, const std::string& edge,
                                   nb::handle workers, nb::handle backend, const char* fn) {
  dctx::Block8Options o;
  o.kernel = dctx::parse_block8_kernel(kernel);
  o.edge = dctx::parse_block8_edge(edge);
  o.nthreads = parse_workers(workers);
  o.backend = parse_backend_arg(backend, fn);
  return o;
}

template <class T>
dctx::ArrayView<T> block_view(T* data, const Input& a) {
  return dctx::ArrayView<T>(data, dctx::Shape(a.shape.begin(), a.shape.begin() + a.ndim),
                            dctx::Strides(a.strides.begin(), a.strides.begin() + a.ndim));
}

void fill_block_input(Input& in, bool inverse);

bool take_block_array(nb::handle x, Input& in, bool& is_int16, bool inverse) {
  if (!nb::try_cast(x, in.arr, false) || in.arr.device_type() != nb::device::cpu::value)
    return false;
  auto d = in.arr.dtype();
  if (d == nb::dtype<float>())
    is_int16 = false;
  else if (d == nb::dtype<int16_t>())
    is_int16 = true;
  else
    return false;
  fill_block_input(in, inverse);
  return true;
}

/// x as a host array of element type E (false when it is not one).
template <class E>
bool take_block_array_of(nb::handle x, Input& in, bool inverse) {
  if (!nb::try_cast(x, in.arr, false) || in.arr.device_type() != nb::device::cpu::value ||
      in.arr.dtype() != nb::dtype<E>())
    return false;
  fill_block_input(in, inverse);
  return true;
}

/// Shape, element strides and data of a taken 2-D or 3-D block array.
void fill_block_input(Input& in, bool inverse) {
  in.ndim = int(in.arr.ndim());
  if (in.ndim != 2 && in.ndim != 3)
    raise_value(std::string(py_name(inverse)) + ": " + (inverse ? "c" : "x") +
                " must be a 2-D plane or a 3-D batch of planes, not a " + std::to_string(in.ndim) +
                "-D array");
  const int64_t* st = in.arr.stride_ptr();
  int64_t c = 1;
  for (int i = in.ndim; i-- > 0;) {
    in.shape[size_t(i)] = int64_t(in.arr.shape(size_t(i)));
    in.strides[size_t(i)] = st ? st[i] : c;
    c *= in.shape[size_t(i)];
  }
  in.data = static_cast<const char*>(in.arr.data());
}

/// The new C-order output of a block8 call: the input's shape, padded to multiples of 8 for a
/// forward pass with replicated edges, or (rows, cols) from `out_rows_cols`.
struct BlockOutput {
  nb::object array;
  char* data;
  Input view;
};
BlockOutput new_block_output(const Input& in, bool inverse, const dctx::Block8Options& opt,
                             nb::handle out_rows_cols, nb::handle dtype) {
  BlockOutput r;
  std::array<int64_t, 64> oshape = in.shape;
  const int nd = in.ndim;
  if (!out_rows_cols.is_none()) {
    auto rc = as_index_list(out_rows_cols, "shape");
    if (rc.size() != 2)
      raise_value(std::string(py_name(inverse)) + ": shape must be (rows, cols), not " +
                  std::to_string(rc.size()) + " integer" + (rc.size() == 1 ? "" : "s"));
    oshape[size_t(nd - 2)] = rc[0];
    oshape[size_t(nd - 1)] = rc[1];
  } else if (!inverse && opt.edge == dctx::Block8Edge::Replicate) {
    for (int i = nd - 2; i < nd; ++i) oshape[size_t(i)] = (oshape[size_t(i)] + 7) / 8 * 8;
  }
  for (int i = 0; i < nd; ++i)
    if (oshape[size_t(i)] < 0)
      raise_value(std::string(py_name(inverse)) + ": shape has a negative extent");
  std::tie(r.array, r.data) = new_array_of(oshape.data(), nd, dtype, false);
  r.view.ndim = nd;
  r.view.shape = oshape;
  c_strides(oshape.data(), nd, r.view.strides.data());
  return r;
}

nb::object block8_run(nb::handle x, bool inverse, const std::string& kernel,
                      const std::string& edge, nb::handle workers, nb::handle out_rows_cols,
                      nb::handle backend) {
  const char* fn = py_name(inverse);
  Input in;
  bool i16 = false;
  if (!take_block_array(x, in, i16, inverse))
    raise_type(std::string(fn) + ": " + (inverse ? "c" : "x") +
               " must be a float32 or int16 array in host memory");
  const auto opt =
      speak_python(fn, inverse, [&] { return block8_options(kernel, edge, workers, backend, fn); });
  auto [out, ptr, o] =
      new_block_output(in, inverse, opt, out_rows_cols, i16 ? refs->int16 : refs->dtypes[0]);
  speak_python(fn, inverse, [&] {
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
  });
  return out;
}

/// Levels (int16) of every 8x8 block of x (block8_forward_quantized), or, with `inverse`, samples
/// from levels (block8_inverse_dequantized: float32, or int16 when int16_out).
nb::object block8_quantized_run(nb::handle x, bool inverse, const std::vector<int>& entries,
                                const std::string& kernel, const std::string& edge,
                                nb::handle workers, nb::handle out_rows_cols, bool int16_out,
                                nb::handle backend) {
  const char* fn = py_name(inverse);
  Input in;
  bool i16 = false;
  if (!take_block_array(x, in, i16, inverse))
    raise_type(std::string(fn) + ": " + (inverse ? "c" : "x") +
               " must be a float32 or int16 array in host memory");
  if (inverse && !i16) raise_type("dctx.iblock8: with a table, c holds int16 quantization levels");
  if (entries.size() != 64)
    raise_value(std::string(fn) + ": a quantization table has 64 entries, not " +
                std::to_string(entries.size()));
  dctx::QuantTable table;
  std::copy(entries.begin(), entries.end(), table.q.begin());
  const auto opt = speak_python(fn, inverse, [&] {
    table.validate();
    return block8_options(kernel, edge, workers, backend, fn);
  });
  const bool out_i16 = inverse ? int16_out : true;
  auto [out, ptr, o] =
      new_block_output(in, inverse, opt, out_rows_cols, out_i16 ? refs->int16 : refs->dtypes[0]);
  speak_python(fn, inverse, [&] {
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
        dctx::block8_forward_quantized(block_view(reinterpret_cast<const int16_t*>(in.data), in),
                                       lv, table, opt);
      else
        dctx::block8_forward_quantized(block_view(reinterpret_cast<const float*>(in.data), in), lv,
                                       table, opt);
    }
  });
  return out;
}

/// Blocks of uint8 samples with JPEG's level shift (Block8Data::UInt8) through a block plan:
/// forward, uint8 x to float32 coefficients (or, with a table, int16 levels); inverse, float32
/// coefficients (or int16 levels) to uint8 samples. `entries`: empty, or the 64 table entries.
nb::object block8_u8_run(nb::handle x, bool inverse, const std::vector<int>& entries,
                         const std::string& kernel, const std::string& edge, nb::handle workers,
                         nb::handle out_rows_cols, nb::handle backend) {
  const char* fn = py_name(inverse);
  const bool quantized = !entries.empty();
  Input in;
  if (!inverse && !take_block_array_of<uint8_t>(x, in, inverse))
    raise_type("dctx.block8: x must be a uint8 array in host memory");
  if (inverse && quantized && !take_block_array_of<int16_t>(x, in, inverse))
    raise_type("dctx.iblock8: with a table, c holds int16 quantization levels");
  if (inverse && !quantized && !take_block_array_of<float>(x, in, inverse))
    raise_type("dctx.iblock8: with dtype=uint8, c must be float32 coefficients");
  if (quantized && entries.size() != 64)
    raise_value(std::string(fn) + ": a quantization table has 64 entries, not " +
                std::to_string(entries.size()));
  dctx::Block8PlanDesc d;
  d.data = dctx::Block8Data::UInt8;
  d.op = quantized
             ? (inverse ? dctx::Block8Op::InverseDequantized : dctx::Block8Op::ForwardQuantized)
             : (inverse ? dctx::Block8Op::Inverse : dctx::Block8Op::Forward);
  const auto opt = speak_python(fn, inverse, [&] {
    if (quantized) {
      dctx::QuantTable table;
      std::copy(entries.begin(), entries.end(), table.q.begin());
      table.validate();
      d.table = table;
    }
    return block8_options(kernel, edge, workers, backend, fn);
  });
  d.kernel = opt.kernel;
  d.edge = opt.edge;
  d.backend = opt.backend;
  d.cpu.threads = opt.nthreads;
  nb::handle out_dtype = inverse ? refs->uint8 : quantized ? refs->int16 : refs->dtypes[0];
  auto [out, ptr, o] = new_block_output(in, inverse, opt, out_rows_cols, out_dtype);
  speak_python(fn, inverse, [&] {
    const dctx::Block8Plan plan(d);
    nb::gil_scoped_release nogil;
    if (!inverse) {
      const auto xv = block_view(reinterpret_cast<const uint8_t*>(in.data), in);
      if (quantized)
        plan.execute(xv, block_view(reinterpret_cast<int16_t*>(ptr), o));
      else
        plan.execute(xv, block_view(reinterpret_cast<float*>(ptr), o));
    } else {
      const auto yv = block_view(reinterpret_cast<uint8_t*>(ptr), o);
      if (quantized)
        plan.execute(block_view(reinterpret_cast<const int16_t*>(in.data), in), yv);
      else
        plan.execute(block_view(reinterpret_cast<const float*>(in.data), in), yv);
    }
  });
  return out;
}

/// The 64 entries (row-major) of a named table scaled by quality: "nvidia", or "jpeg" / "luma"
/// (T.81 K.1) and "chroma" (K.2).
/// `fn`: the Python function asking, for messages.
std::vector<int> quant_table_py(const std::string& name, int quality, const std::string& fn) {
  return speak_python(fn.c_str(), false, [&] {
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
  });
}

/// An 8x8 table (64 entries, row-major) scaled the libjpeg way (dctx::quant_table_scaled).
std::vector<int> quant_table_scaled_py(const std::vector<int>& entries, int quality,
                                       const std::string& fn) {
  if (entries.size() != 64)
    raise_value(fn + ": a quantization table has 64 entries, not " +
                std::to_string(entries.size()));
  return speak_python(fn.c_str(), false, [&] {
    dctx::QuantTable base;
    std::copy(entries.begin(), entries.end(), base.q.begin());
    const auto t = dctx::quant_table_scaled(base, quality);
    return std::vector<int>(t.q.begin(), t.q.end());
  });
}

nb::tuple jpeg_roundtrip_py(nb::handle image, const std::string& table, int quality,
                            const std::string& kernel, bool color, nb::handle workers,
                            nb::handle backend) {
  constexpr const char* fn = "dctx.jpeg_roundtrip";
  nb::ndarray<nb::ro, uint8_t, nb::device::cpu> a;
  if (!nb::try_cast(image, a, false))
    raise_type("dctx.jpeg_roundtrip: image must be a uint8 array (rows, cols) or (rows, cols, 3)");
  const size_t nd = a.ndim();
  const int ch = nd == 2 ? 1 : nd == 3 ? int(a.shape(2)) : 0;
  if (ch != 1 && ch != 3)
    raise_value(
        "dctx.jpeg_roundtrip: image must have shape (rows, cols), (rows, cols, 1) or "
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
  speak_python(fn, false, [&] {
    opt.table = dctx::parse_quant_table_kind(table);
    dctx::jpeg_quality_scaling(quality);  // throws dctx::Error outside 1..100
    opt.quality = quality;
    opt.kernel = dctx::parse_block8_kernel(kernel);
  });
  opt.color = color;
  opt.nthreads = parse_workers(workers);
  opt.backend = parse_backend_arg(backend, fn);
  const dctx::JpegResult res = speak_python(fn, false, [&] {
    nb::gil_scoped_release nogil;
    return dctx::jpeg_roundtrip(img, opt);
  });
  std::array<int64_t, 3> shp{res.image.height, res.image.width, res.image.channels};
  auto [out, ptr] = new_array_of(shp.data(), res.image.channels == 1 ? 2 : 3, refs->uint8, false);
  std::memcpy(ptr, res.image.pixels.data(), res.image.pixels.size());
  return nb::make_tuple(out, res.psnr_db);
}
}  // namespace

void bind_block8(nb::module_& m) {
  m.attr("has_block8") = true;
  m.def("_block8", &block8_run, "x"_a, "inverse"_a, "kernel"_a, "edge"_a, "workers"_a.none(),
        "shape"_a.none(), "backend"_a.none() = nb::none());
  m.def("_block8_quantized", &block8_quantized_run, "x"_a, "inverse"_a, "table"_a, "kernel"_a,
        "edge"_a, "workers"_a.none(), "shape"_a.none(), "int16_out"_a,
        "backend"_a.none() = nb::none());
  m.def("_block8_u8", &block8_u8_run, "x"_a, "inverse"_a, "table"_a, "kernel"_a, "edge"_a,
        "workers"_a.none(), "shape"_a.none(), "backend"_a.none() = nb::none());
  m.def("_quant_table", &quant_table_py, "name"_a, "quality"_a, "fn"_a = "dctx.block8");
  m.def("_quant_table_scaled", &quant_table_scaled_py, "entries"_a, "quality"_a,
        "fn"_a = "dctx.block8");
  m.def("_jpeg_roundtrip", &jpeg_roundtrip_py, "image"_a, "table"_a, "quality"_a, "kernel"_a,
        "color"_a, "workers"_a.none(), "backend"_a.none() = nb::none());
}

}  // namespace dctx_py
