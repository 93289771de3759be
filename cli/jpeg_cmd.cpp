// SPDX-License-Identifier: BSD-3-Clause
// `dctx jpeg IMAGE`: the JPEG-style pipeline of the NVIDIA whitepaper (Obukhov and Kharlamov,
// "Discrete Cosine Transform for 8x8 Blocks with CUDA") on an image file, with its PSNR.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "dctx/block8.hpp"
#include "dctx/image_io.hpp"
#include "json.hpp"

namespace dctx::cli {
namespace {

struct JpegArgs {
  std::string in, out, table = "nvidia", kernel = "fast", edge = "replicate", backend = "auto";
  int quality = 50, threads = 1;
  std::size_t max_pixels = kDefaultMaxImagePixels;
  bool int16 = false, color = false, json = false;
};

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
  o.backend = parse_backend(a.backend);
  const Image image = read_image(a.in, {.max_pixels = a.max_pixels});
  const JpegResult r = jpeg_roundtrip(image, o);
  if (!a.out.empty()) write_image(a.out, r.image);
  // r.backend is "<back end>:<target>", e.g. "cpu:AVX2".
  const std::string target = r.backend.substr(r.backend.find(':') + 1);
  if (a.json) {
    const std::vector<std::size_t> shape{std::size_t(image.height), std::size_t(image.width),
                                         std::size_t(image.channels)};
    json_run("jpeg", a.in, a.out, shape, "uint8",
             parse_backend(r.backend.substr(0, r.backend.find(':'))), target)
        .Str("kernel", r.kernel)
        .Str("table", a.table)
        .Int("quality", a.quality)
        .Bool("color", r.image.channels == 3)
        .Num("psnr_db", r.psnr_db)
        .Num("zero_fraction", r.zero_fraction)
        .Object("seconds", JsonObject().Num("pipeline", r.seconds))
        .Print();
    return;
  }
  const bool finite = std::isfinite(r.psnr_db);
  std::printf("%s: %d x %d, %s, table %s q%d, kernel %s on %s\n", a.in.c_str(), image.width,
              image.height, r.image.channels == 3 ? "YCbCr colour" : "luma", a.table.c_str(),
              a.quality, r.kernel.c_str(), r.backend.c_str());
  std::printf("PSNR %s dB, zero coefficients %.2f %%, time %.3f ms%s%s\n",
              finite ? std::to_string(r.psnr_db).c_str() : "inf", 100.0 * r.zero_fraction,
              1e3 * r.seconds, a.out.empty() ? "" : ", wrote ", a.out.c_str());
}

}  // namespace

void add_jpeg_command(CLI::App& app) {
  auto j = std::make_shared<JpegArgs>();
  CLI::App* p = app.add_subcommand(
      "jpeg",
      "JPEG-style round trip of the NVIDIA whitepaper: DCT 8x8, quantize, inverse DCT, PSNR");
  p->add_option("IN", j->in, "input image (BMP, PNG, PGM/PPM or JPEG)")->required();
  p->add_option("-o,--output", j->out, "write the result image (.png, .bmp, .pgm or .ppm)");
  p->add_option("--table", j->table,
                "quantization table: nvidia (the whitepaper's) or jpeg (T.81 Annex K)")
      ->capture_default_str();
  p->add_option("--quality", j->quality, "1..100, libjpeg scaling of the table (50 = as is)")
      ->capture_default_str();
  p->add_flag("--int16", j->int16, "int16 fixed-point path instead of float32");
  p->add_option("--kernel", j->kernel, "float kernel: fast or reference")->capture_default_str();
  p->add_flag("--color", j->color, "full YCbCr: every plane through the pipeline, colour output");
  p->add_option("--edge", j->edge, "sides not multiples of 8: replicate (pad) or error")
      ->capture_default_str();
  p->add_option("--threads", j->threads, "worker threads (0 = all)")->capture_default_str();
  p->add_option("--backend", j->backend, "auto, or a back end of `dctx backends`")
      ->capture_default_str();
  p->add_option("--max-pixels", j->max_pixels, "refuse larger input images (width x height)")
      ->capture_default_str();
  p->add_flag("--json", j->json, "print one JSON object (README, \"JSON output\") instead of text");
  p->callback([j] { run_jpeg(*j); });
}

const CommandRegistration kJpeg{30, add_jpeg_command};

}  // namespace dctx::cli
