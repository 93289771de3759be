// SPDX-License-Identifier: BSD-3-Clause
// `dctx compress IMAGE`: whole-image compression in the DCT domain ("A New Acceleration Paradigm
// for Discrete Cosine Transform and Other Fourier-Related Transforms", Algorithm 3): one
// orthonormal 2D DCT-II of each plane, keep the largest fraction of coefficients, inverse, PSNR.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "commands.hpp"
#include "dctx/block8.hpp"
#include "dctx/dctx.hpp"
#include "dctx/image_io.hpp"
#include "json.hpp"

namespace dctx::cli {
namespace {

struct CompressArgs {
  std::string in, out;
  double keep = 0.1;
  int threads = 1;
  std::size_t max_pixels = kDefaultMaxImagePixels;
  bool color = false, json = false;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void run(const CompressArgs& a) {
  if (!(a.keep > 0.0 && a.keep <= 1.0))
    throw Error("--keep must be in (0, 1], got " + std::to_string(a.keep));
  const Image original = read_image(a.in, {.max_pixels = a.max_pixels});
  const Image src = a.color ? original : image_luma(original);
  const std::size_t h = static_cast<std::size_t>(src.height),
                    w = static_cast<std::size_t>(src.width);
  const std::size_t c = static_cast<std::size_t>(src.channels);
  const Shape shape = {h, w};
  PlanDesc d;
  d.shape = shape;
  d.precision = Precision::F32;
  d.norm = Norm::Ortho;
  d.cpu.threads = a.threads;
  const Plan fwd(d);
  d.direction = Direction::Inverse;
  const Plan inv(d);

  Image result = src;
  double t_fwd = 0, t_keep = 0, t_inv = 0, roundtrip = 0;
  std::vector<float> plane(h * w), coef(h * w), back(h * w), mags;
  for (std::size_t ch = 0; ch < c; ++ch) {
    for (std::size_t i = 0; i < h * w; ++i) plane[i] = src.pixels[i * c + ch];
    auto t0 = std::chrono::steady_clock::now();
    fwd.execute(ConstView<float>(plane.data(), shape), View<float>(coef.data(), shape));
    t_fwd += seconds_since(t0);
    // Round-trip error of the transform pair itself, before any coefficient is dropped.
    inv.execute(ConstView<float>(coef.data(), shape), View<float>(back.data(), shape));
    for (std::size_t i = 0; i < h * w; ++i)
      roundtrip = std::max(roundtrip, double(std::abs(back[i] - plane[i])));
    t0 = std::chrono::steady_clock::now();
    mags.resize(h * w);
    for (std::size_t i = 0; i < h * w; ++i) mags[i] = std::abs(coef[i]);
    const std::size_t kept =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(a.keep * double(h * w))));
    std::nth_element(mags.begin(), mags.begin() + static_cast<std::ptrdiff_t>(h * w - kept),
                     mags.end());
    const float threshold = mags[h * w - kept];
    for (auto& v : coef)
      if (std::abs(v) < threshold) v = 0.0f;
    t_keep += seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    inv.execute(View<float>(coef.data(), shape));
    t_inv += seconds_since(t0);
    for (std::size_t i = 0; i < h * w; ++i)
      result.pixels[i * c + ch] =
          static_cast<std::uint8_t>(std::clamp(std::lround(coef[i]), 0L, 255L));
  }
  const double db = psnr(src, result);
  if (!a.out.empty()) write_image(a.out, result);
  if (a.json) {
    const std::vector<std::size_t> shape{h, w, std::size_t(original.channels)};
    json_run("compress", a.in, a.out, shape, "uint8", fwd.backend())
        .Num("keep", a.keep)
        .Bool("color", a.color)
        .Num("psnr_db", db)
        .Num("roundtrip_max_error", roundtrip)
        .Object("seconds",
                JsonObject().Num("forward", t_fwd).Num("threshold", t_keep).Num("inverse", t_inv))
        .Print();
    return;
  }
  std::printf("whole-image DCT compression of %s (%dx%d, %s)\n", a.in.c_str(), src.width,
              src.height, a.color ? "RGB" : "luma");
  std::printf("  kept %.1f%% of the coefficients: PSNR %.3f dB\n", 100.0 * a.keep, db);
  std::printf("  forward 2D DCT %.3f ms, threshold %.3f ms, inverse %.3f ms\n", 1e3 * t_fwd,
              1e3 * t_keep, 1e3 * t_inv);
  std::printf("  round-trip max error (no coefficient dropped): %.3g\n", roundtrip);
  std::printf("  plan: %s\n", fwd.describe().c_str());
  if (!a.out.empty()) std::printf("  wrote %s\n", a.out.c_str());
}

}  // namespace

void add_compress_command(CLI::App& app) {
  auto args = std::make_shared<CompressArgs>();
  CLI::App* c =
      app.add_subcommand("compress", "whole-image DCT compression: keep the largest coefficients");
  c->add_option("IN", args->in, "input image (BMP, PNG, PGM/PPM or JPEG)")->required();
  c->add_option("-o,--output", args->out, "output image (.png, .bmp, .pgm/.ppm)");
  c->add_option("--keep", args->keep, "fraction of coefficients kept, in (0, 1]")
      ->capture_default_str();
  c->add_option("--threads", args->threads, "worker threads (0 = all)")->capture_default_str();
  c->add_option("--max-pixels", args->max_pixels, "refuse larger input images (width x height)")
      ->capture_default_str();
  c->add_flag("--color", args->color, "compress the RGB channels instead of the luma");
  c->add_flag("--json", args->json,
              "print one JSON object (README, \"JSON output\") instead of text");
  c->callback([args] { run(*args); });
}

const CommandRegistration kCompress{40, add_compress_command};

}  // namespace dctx::cli
