// SPDX-License-Identifier: BSD-3-Clause
// `dctx block8 IN.npy OUT.npy`: blockwise 8x8 DCT of a .npy plane (or batch of planes), to and
// from int16 quantization levels with --quantize.
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
  std::string in, out, kernel = "auto", edge = "error", quantize, backend = "auto";
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
  o.backend = parse_backend(a.backend);
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

}  // namespace

void add_block8_command(CLI::App& app) {
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
  c->add_option("--backend", b->backend, "auto, or a back end of `dctx backends`")
      ->capture_default_str();
  c->add_option("--quantize", b->quantize,
                "nvidia or jpeg (luminance) table: forward writes int16 quantization levels; "
                "--inverse reads int16 levels and writes samples (float32, or int16 with --int16)");
  CLI::Option* quality =
      c->add_option("--quality", b->quality, "libjpeg quality 1..100 scaling the --quantize table")
          ->capture_default_str();
  c->callback([b, quality] {
    // A quality without a table would be ignored: say so instead.
    if (quality->count() > 0 && b->quantize.empty())
      throw Error(
          "--quality applies to --quantize nvidia|jpeg; without --quantize there is no "
          "table to scale");
    run_block8(*b);
  });
}

const CommandRegistration kBlock8{20, add_block8_command};

}  // namespace dctx::cli
