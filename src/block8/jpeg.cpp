// SPDX-License-Identifier: BSD-3-Clause
// The JPEG-style pipeline of the NVIDIA whitepaper (Obukhov and Kharlamov, "Discrete Cosine
// Transform for 8x8 Blocks with CUDA", section 4): luma, level shift -128, forward DCT, quantize
// and dequantize, inverse DCT, +128, round, clamp to 0..255, PSNR against the original — plus a
// colour mode through JPEG's YCbCr (JFIF, ITU-T T.871), every plane through the same pipeline
// (4:4:4, no subsampling).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "block8/colour.hpp"
#include "block8/constants.hpp"
#include "core/backend.hpp"
#include "dctx/backend.hpp"
#include "dctx/block8.hpp"
#include "dctx/image.hpp"

namespace dctx {
namespace {

void check_image(const Image& im, const char* fn) {
  if (im.width <= 0 || im.height <= 0)
    throw Error(std::string(fn) + ": image of " + std::to_string(im.width) + " x " +
                std::to_string(im.height) + " pixels is empty");
  if (im.channels != 1 && im.channels != 3)
    throw Error(std::string(fn) + ": images have 1 (gray) or 3 (RGB) channels, got " +
                std::to_string(im.channels));
  if (im.pixels.size() != std::size_t(im.width) * std::size_t(im.height) * std::size_t(im.channels))
    throw Error(std::string(fn) + ": pixel buffer size does not match " + std::to_string(im.width) +
                " x " + std::to_string(im.height) + " x " + std::to_string(im.channels));
}

/// Round to nearest (halves up: every value here is clamped to 0..255 first, where that is
/// half away from zero) and clamp; vectorisable.
std::uint8_t to_byte(float v) {
  return static_cast<std::uint8_t>(
      static_cast<int>(std::min(std::max(v, 0.0f), 255.0f) + block8::kJustBelowHalf));
}

/// One 8-bit plane through the pipeline, in place.
void plane_roundtrip(std::vector<std::uint8_t>& plane, int w, int h, const QuantTable& table,
                     Block8Kernel kernel, const JpegOptions& o, Block8Stats& total) {
  const Shape shape{std::size_t(h), std::size_t(w)};
  const Block8Options bo{kernel, o.edge, o.nthreads, o.backend};
  Block8Stats s;
  // (Raw pointers: a store through uint8_t* may alias anything, which would keep the compiler
  // from vectorising loops written with the containers.)
  std::uint8_t* const p = plane.data();
  const std::size_t n = plane.size();
  if (kernel == Block8Kernel::Int16) {
    std::vector<std::int16_t> buf(n);
    std::int16_t* const b = buf.data();
    for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::int16_t>(p[i] - 128);
    View<std::int16_t> v(b, shape);
    s = block8_roundtrip_quantized(v, v, table, bo);
    for (std::size_t i = 0; i < n; ++i)
      p[i] = static_cast<std::uint8_t>(std::clamp(b[i] + 128, 0, 255));
  } else {
    // uint8 samples: the level shift and the rounding are the plan's (a back end with a uint8
    // path, CUDA, fuses them into its kernel; the others convert around their float plan).
    Block8PlanDesc d{.op = Block8Op::Roundtrip,
                     .data = Block8Data::UInt8,
                     .table = table,
                     .kernel = kernel,
                     .edge = o.edge,
                     .backend = o.backend,
                     .cpu = {.threads = o.nthreads}};
    s = Block8Plan(d).execute(ConstView<std::uint8_t>(p, shape), View<std::uint8_t>(p, shape));
  }
  total.coefficients += s.coefficients;
  total.zeros += s.zeros;
}

}  // namespace

Image image_luma(const Image& image) {
  check_image(image, "image_luma");
  if (image.channels == 1) return image;
  Image y{image.width, image.height, 1, {}};
  const std::size_t n = std::size_t(image.width) * std::size_t(image.height);
  y.pixels.resize(n);
  block8::luma_rgb8(image.pixels.data(), y.pixels.data(), n);
  return y;
}

double psnr(const Image& a, const Image& b) {
  check_image(a, "psnr");
  check_image(b, "psnr");
  if (a.width != b.width || a.height != b.height || a.channels != b.channels)
    throw Error("psnr: images differ in size (" + std::to_string(a.width) + " x " +
                std::to_string(a.height) + " x " + std::to_string(a.channels) + " vs " +
                std::to_string(b.width) + " x " + std::to_string(b.height) + " x " +
                std::to_string(b.channels) + ")");
  std::uint64_t se = 0;  // exact: at most 255^2 per sample
  const std::uint8_t* const pa = a.pixels.data();
  const std::uint8_t* const pb = b.pixels.data();
  for (std::size_t i = 0; i < a.pixels.size(); ++i) {
    const std::int32_t d = std::int32_t(pa[i]) - std::int32_t(pb[i]);
    se += std::uint32_t(d * d);
  }
  if (se == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(255.0 * 255.0 / (double(se) / double(a.pixels.size())));
}

JpegResult jpeg_roundtrip(const Image& image, const JpegOptions& o) {
  check_image(image, "jpeg_roundtrip");
  Block8Kernel kernel = o.kernel == Block8Kernel::Auto ? Block8Kernel::Fast : o.kernel;
  if (kernel != Block8Kernel::Reference && kernel != Block8Kernel::Fast &&
      kernel != Block8Kernel::Int16)
    throw Error("jpeg_roundtrip: unknown kernel " + std::to_string(int(o.kernel)));
  QuantTable luma_table, chroma_table;
  switch (o.table) {
    case QuantTableKind::Nvidia:
      luma_table = chroma_table = quant_table_scaled(quant_table_nvidia(), o.quality);
      break;
    case QuantTableKind::Jpeg:
      luma_table = quant_table_jpeg_luma(o.quality);
      chroma_table = quant_table_jpeg_chroma(o.quality);
      break;
    default:
      throw Error("jpeg_roundtrip: unknown quantization table kind " +
                  std::to_string(int(o.table)));
  }
  const int w = image.width, h = image.height;
  const std::size_t n = std::size_t(w) * std::size_t(h);
  JpegResult res;
  res.kernel = std::string(to_string(kernel));
  const BackendKind where = detail::resolve_backend(o.backend)->kind();
  if (where == BackendKind::CPU)
    res.backend = kernel == Block8Kernel::Reference ? "cpu:scalar" : "cpu:" + block8_target();
  else
    res.backend = std::string(to_string(where)) + ":" + backend_info(where).description;
  Block8Stats stats;
  const auto t0 = std::chrono::steady_clock::now();
  if (o.color && image.channels == 3) {
    // JFIF YCbCr (T.871 section 7), 8-bit planes as a JPEG codec holds them.
    std::vector<std::uint8_t> y(n), cb(n), cr(n);
    for (std::size_t i = 0; i < n; ++i) {
      const float r = image.pixels[3 * i], g = image.pixels[3 * i + 1], b = image.pixels[3 * i + 2];
      y[i] = to_byte(0.299f * r + 0.587f * g + 0.114f * b);
      cb[i] = to_byte(-0.168735892f * r - 0.331264108f * g + 0.5f * b + 128.0f);
      cr[i] = to_byte(0.5f * r - 0.418687589f * g - 0.081312411f * b + 128.0f);
    }
    plane_roundtrip(y, w, h, luma_table, kernel, o, stats);
    plane_roundtrip(cb, w, h, chroma_table, kernel, o, stats);
    plane_roundtrip(cr, w, h, chroma_table, kernel, o, stats);
    res.image = Image{w, h, 3, std::vector<std::uint8_t>(3 * n)};
    for (std::size_t i = 0; i < n; ++i) {
      const float yy = y[i], u = float(cb[i]) - 128.0f, v = float(cr[i]) - 128.0f;
      res.image.pixels[3 * i] = to_byte(yy + 1.402f * v);
      res.image.pixels[3 * i + 1] = to_byte(yy - 0.344136286f * u - 0.714136286f * v);
      res.image.pixels[3 * i + 2] = to_byte(yy + 1.772f * u);
    }
  } else {
    res.image = image_luma(image);
    plane_roundtrip(res.image.pixels, w, h, luma_table, kernel, o, stats);
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  res.zero_fraction = stats.zero_fraction();
  res.psnr_db =
      o.color && image.channels == 3 ? psnr(image, res.image) : psnr(image_luma(image), res.image);
  return res;
}

}  // namespace dctx
