// `dctx block8 IN.npy OUT.npy`: blockwise 8x8 DCT of a .npy plane (or batch of planes), and
// `dctx jpeg IMAGE`: the JPEG-style pipeline of seed 000 (NVIDIA DCT8x8) with its PSNR.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "dctx/block8.hpp"
#include "npy.hpp"

namespace dctx::cli {
namespace {

struct Block8Args {
  std::string in, out, kernel = "auto", edge = "error", quantize;
  bool inverse = false, int16 = false;
  int threads = 1, quality = 50;
};

/// The input array of `dctx block8`: int16 (--int16, or levels for --inverse --quantize) or
/// floating point, as float32; and the output shape (forward with --edge replicate pads to
/// multiples of 8, everything else keeps the shape).
struct Block8Input {
  NpyArray arr;
  Shape out_shape;
  std::vector<float> converted;  // float64 input as float32
  const float* f32() const { return arr.single() ? arr.f32.data() : converted.data(); }
};
Block8Input read_block8_input(const Block8Args& a, const Block8Options& o, bool int16) {
  Block8Input r;
  r.arr = int16 ? read_npy_int16(a.in) : read_npy(a.in);
  const auto& arr = r.arr;
  if (arr.shape.size() != 2 && arr.shape.size() != 3)
    throw Error("block8: '" + a.in + "' holds a " + std::to_string(arr.shape.size()) +
                "-D array; expected a 2-D plane or a 3-D batch of planes");
  if (!int16 && arr.dtype.size() >= 2 && arr.dtype[1] != 'f')
    throw Error("block8: '" + a.in + "' holds " + arr.dtype +
                "; float mode takes float32 or float64 (use --int16 for integer data)");
  if (!int16 && !arr.single()) r.converted.assign(arr.f64.begin(), arr.f64.end());
  r.out_shape = arr.shape;
  if (!a.inverse && o.edge == Block8Edge::Replicate)
    for (std::size_t i = arr.shape.size() - 2; i < arr.shape.size(); ++i)
      r.out_shape[i] = (r.out_shape[i] + 7) / 8 * 8;
  return r;
}

/// --quantize: forward writes int16 levels (block8_forward_quantized); --inverse reads int16
/// levels (block8_inverse_dequantized) and writes float32 samples, or int16 with --int16.
void run_block8_quantized(const Block8Args& a, const Block8Options& o) {
  const QuantTable table = parse_quant_table_kind(a.quantize) == QuantTableKind::Jpeg
                               ? quant_table_jpeg_luma(a.quality)
                               : quant_table_scaled(quant_table_nvidia(), a.quality);
  const Block8Input in = read_block8_input(a, o, a.inverse || a.int16);
  const Shape& shape = in.arr.shape;
  const Shape& out_shape = in.out_shape;
  if (a.inverse) {
    const ConstView<std::int16_t> levels(in.arr.i16.data(), shape);
    if (a.int16) {
      std::vector<std::int16_t> out(element_count(out_shape));
      block8_inverse_dequantized(levels, View<std::int16_t>(out.data(), out_shape), table, o);
      write_npy(a.out, out_shape, out.data());
    } else {
      std::vector<float> out(element_count(out_shape));
      block8_inverse_dequantized(levels, View<float>(out.data(), out_shape), table, o);
      write_npy(a.out, out_shape, out.data());
    }
    return;
  }
  std::vector<std::int16_t> levels(element_count(out_shape));
  const View<std::int16_t> lv(levels.data(), out_shape);
  if (a.int16)
    block8_forward_quantized(ConstView<std::int16_t>(in.arr.i16.data(), shape), lv, table, o);
  else
    block8_forward_quantized(ConstView<float>(in.f32(), shape), lv, table, o);
  write_npy(a.out, out_shape, levels.data());
}

void run_block8(const Block8Args& a) {
  Block8Options o;
  o.kernel = parse_block8_kernel(a.kernel);
  o.edge = parse_block8_edge(a.edge);
  o.nthreads = a.threads;
  if (!a.quantize.empty()) return run_block8_quantized(a, o);
  const Block8Input in = read_block8_input(a, o, a.int16);
  const Shape& out_shape = in.out_shape;
  if (a.int16) {
    std::vector<std::int16_t> out(element_count(out_shape));
    const ConstView<std::int16_t> iv(in.arr.i16.data(), in.arr.shape);
    const View<std::int16_t> ov(out.data(), out_shape);
    a.inverse ? block8_inverse(iv, ov, o) : block8_forward(iv, ov, o);
    write_npy(a.out, out_shape, out.data());
    return;
  }
  // Float mode computes in float32; float64 files are converted in and out.
  std::vector<float> out(element_count(out_shape));
  const ConstView<float> iv(in.f32(), in.arr.shape);
  const View<float> ov(out.data(), out_shape);
  a.inverse ? block8_inverse(iv, ov, o) : block8_forward(iv, ov, o);
  if (in.arr.single()) {
    write_npy(a.out, out_shape, out.data());
  } else {
    const std::vector<double> out64(out.begin(), out.end());
    write_npy(a.out, out_shape, out64.data());
  }
}

struct JpegArgs {
  std::string in, out, table = "nvidia", kernel = "fast", edge = "replicate";
  int quality = 50, threads = 1;
  bool int16 = false, color = false, json = false;
};

/// JSON string literal (the input and output paths may hold quotes or backslashes).
std::string json_string(const std::string& s) {
  std::string r = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      r += '\\';
      r += static_cast<char>(ch);
    } else if (ch < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      r += buf;
    } else {
      r += static_cast<char>(ch);
    }
  }
  return r + "\"";
}

void run_jpeg(const JpegArgs& a) {
  JpegOptions o;
  o.table = parse_quant_table_kind(a.table);
  o.quality = a.quality;
  jpeg_quality_scaling(a.quality);  // checks the range before any work
  o.kernel = a.int16 ? Block8Kernel::Int16 : parse_block8_kernel(a.kernel);
  if (a.int16 && a.kernel != "fast" && a.kernel != "int16")
    throw Error("--int16 selects the int16 kernel; it cannot be combined with --kernel " +
                a.kernel);
  o.edge = parse_block8_edge(a.edge);
  o.color = a.color;
  o.nthreads = a.threads;
  const Image image = read_image(a.in);
  const JpegResult r = jpeg_roundtrip(image, o);
  if (!a.out.empty()) write_image(a.out, r.image);
  const bool finite = std::isfinite(r.psnr_db);
  std::printf("%s: %d x %d, %s, table %s q%d, kernel %s on %s\n", a.in.c_str(), image.width,
              image.height, r.image.channels == 3 ? "YCbCr colour" : "luma", a.table.c_str(),
              a.quality, r.kernel.c_str(), r.backend.c_str());
  std::printf("PSNR %s dB, zero coefficients %.2f %%, time %.3f ms%s%s\n",
              finite ? std::to_string(r.psnr_db).c_str() : "inf", 100.0 * r.zero_fraction,
              1e3 * r.seconds, a.out.empty() ? "" : ", wrote ", a.out.c_str());
  if (a.json) {
    std::printf(
        "{\"input\": %s, \"output\": %s, \"width\": %d, \"height\": %d, \"color\": %s, "
        "\"table\": \"%s\", \"quality\": %d, \"kernel\": \"%s\", \"backend\": \"%s\", "
        "\"psnr_db\": %s, \"zero_fraction\": %.6f, \"seconds\": %.6f}\n",
        json_string(a.in).c_str(), a.out.empty() ? "null" : json_string(a.out).c_str(), image.width,
        image.height, r.image.channels == 3 ? "true" : "false", a.table.c_str(), a.quality,
        r.kernel.c_str(), r.backend.c_str(), json_number(r.psnr_db, "%.6f").c_str(),
        r.zero_fraction, r.seconds);
  }
}

}  // namespace

void add_block8_commands(CLI::App& app) {
  auto b = std::make_shared<Block8Args>();
  CLI::App* c = app.add_subcommand(
      "block8",
      "blockwise orthonormal 8x8 DCT of a .npy plane (rows x cols) or batch (n x rows x cols)");
  c->add_option("IN", b->in, "input .npy (float32/float64, or integers with --int16)")->required();
  c->add_option("OUT", b->out, "output .npy (same dtype as the input; int16 with --int16)")
      ->required();
  c->add_flag("--inverse", b->inverse, "inverse DCT (coefficients -> samples)");
  c->add_flag("--int16", b->int16,
              "int16 in and out: coefficients rounded to nearest; inverse samples saturated to "
              "[-256, 255]");
  c->add_option("--kernel", b->kernel, "auto, reference, fast or int16")->capture_default_str();
  c->add_option("--edge", b->edge,
                "sides not multiples of 8: error, or replicate (forward pads, inverse crops)")
      ->capture_default_str();
  c->add_option("--threads", b->threads, "worker threads (0 = all)")->capture_default_str();
  c->add_option("--quantize", b->quantize,
                "nvidia or jpeg (luminance) table: forward writes int16 quantization levels; "
                "--inverse reads int16 levels and writes samples (float32, or int16 with --int16)");
  c->add_option("--quality", b->quality, "libjpeg quality 1..100 scaling the --quantize table")
      ->capture_default_str();
  c->callback([b] { run_block8(*b); });

  auto j = std::make_shared<JpegArgs>();
  CLI::App* p = app.add_subcommand(
      "jpeg", "JPEG-style round trip of seed 000: DCT 8x8, quantize, inverse DCT, PSNR");
  p->add_option("IN", j->in, "input image (BMP, PNG, PGM/PPM, JPEG, ...)")->required();
  p->add_option("-o,--output", j->out, "write the result image (.png, .bmp, .pgm or .ppm)");
  p->add_option("--table", j->table, "quantization table: nvidia (seed 000) or jpeg (T.81 Annex K)")
      ->capture_default_str();
  p->add_option("--quality", j->quality, "1..100, libjpeg scaling of the table (50 = as is)")
      ->capture_default_str();
  p->add_flag("--int16", j->int16, "int16 fixed-point path instead of float32");
  p->add_option("--kernel", j->kernel, "float kernel: fast or reference")->capture_default_str();
  p->add_flag("--color", j->color, "full YCbCr: every plane through the pipeline, colour output");
  p->add_option("--edge", j->edge, "sides not multiples of 8: replicate (pad) or error")
      ->capture_default_str();
  p->add_option("--threads", j->threads, "worker threads (0 = all)")->capture_default_str();
  p->add_flag("--json", j->json, "also print one JSON object as the last line");
  p->callback([j] { run_jpeg(*j); });
}

}  // namespace dctx::cli
