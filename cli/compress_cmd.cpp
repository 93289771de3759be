// SPDX-License-Identifier: BSD-3-Clause
// `dctx compress IMAGE`: whole-image compression in the DCT domain ("A New Acceleration Paradigm
// for Discrete Cosine Transform and Other Fourier-Related Transforms", Algorithm 3): one
// orthonormal 2D DCT-II of each plane, the coefficients below a threshold zeroed, inverse, PSNR.
// The threshold is fused into the transforms (PlanDesc::coefficient_threshold): with --threshold
// into the forward transform's post-processing, with --keep (the threshold that keeps that
// fraction, known once the coefficients are) into the inverse's pre-processing.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "commands.hpp"
#include "core/vocabulary.hpp"
#include "dctx/block8.hpp"
#include "dctx/dctx.hpp"
#include "dctx/image_io.hpp"
#include "json.hpp"

namespace dctx::cli {
namespace {

struct CompressArgs {
  std::string in, out;
  double keep = 0.1;
  std::optional<double> threshold;  // unset: --keep decides
  int threads = 1;
  std::size_t max_pixels = kDefaultMaxImagePixels;
  bool color = false, json = false;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void run(const CompressArgs& a) {
  if (!(a.keep > 0.0 && a.keep <= 1.0))
    throw Error("--keep must be in (0, 1], got " + detail::number_str(a.keep));
  const bool fixed = a.threshold.has_value();
  if (fixed && !(*a.threshold >= 0 && std::isfinite(*a.threshold)))
    throw Error("--threshold must be finite and >= 0, got " + detail::number_str(*a.threshold));
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
  PlanDesc fused_fwd = d;
  fused_fwd.coefficient_threshold = fixed ? *a.threshold : 0.0;
  const Plan fwd(fused_fwd);
  std::optional<Plan> plain_fwd;  // --threshold: the unthresholded coefficients for the round trip
  if (fixed) plain_fwd.emplace(d);
  d.direction = Direction::Inverse;
  const Plan inv(d);

  Image result = src;
  // The largest threshold of the planes (with --keep each plane has its own).
  // t_plan: building each plane's inverse plan with its threshold (--keep).
  double t_fwd = 0, t_keep = 0, t_plan = 0, t_inv = 0, roundtrip = 0;
  double threshold = fixed ? *a.threshold : 0;
  std::size_t nonzero = 0;
  std::vector<float> plane(h * w), coef(h * w), back(h * w), mags;
  for (std::size_t ch = 0; ch < c; ++ch) {
    for (std::size_t i = 0; i < h * w; ++i) plane[i] = src.pixels[i * c + ch];
    auto t0 = std::chrono::steady_clock::now();
    fwd.execute(ConstView<float>(plane.data(), shape), View<float>(coef.data(), shape));
    t_fwd += seconds_since(t0);
    // Round-trip error of the transform pair itself, before any coefficient is dropped.
    if (fixed)
      plain_fwd->execute(ConstView<float>(plane.data(), shape), View<float>(back.data(), shape));
    else
      back = coef;  // with --keep the forward plan is the plain one
    inv.execute(View<float>(back.data(), shape));
    for (std::size_t i = 0; i < h * w; ++i)
      roundtrip = std::max(roundtrip, double(std::abs(back[i] - plane[i])));
    const Plan* inverse = &inv;
    std::optional<Plan> keep_inv;
    if (!fixed) {  // the magnitude that keeps the fraction; the inverse zeroes what is below it
      t0 = std::chrono::steady_clock::now();
      mags.resize(h * w);
      for (std::size_t i = 0; i < h * w; ++i) mags[i] = std::abs(coef[i]);
      const std::size_t kept =
          std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(a.keep * double(h * w))));
      std::nth_element(mags.begin(), mags.begin() + static_cast<std::ptrdiff_t>(h * w - kept),
                       mags.end());
      PlanDesc di = d;
      di.coefficient_threshold = mags[h * w - kept];
      threshold = std::max(threshold, di.coefficient_threshold);
      t_keep += seconds_since(t0);
      t0 = std::chrono::steady_clock::now();
      keep_inv.emplace(di);
      inverse = &*keep_inv;
      t_plan += seconds_since(t0);
    }
    const float kept_from = float(inverse->desc().coefficient_threshold);
    for (float v : coef) nonzero += fixed ? v != 0.0f : std::abs(v) >= kept_from;
    t0 = std::chrono::steady_clock::now();
    inverse->execute(View<float>(coef.data(), shape));
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
        .Num("keep", fixed ? std::nan("") : a.keep)  // left out with --threshold
        .Num("threshold", threshold)
        .Num("kept", double(nonzero) / double(h * w * c))
        .Bool("color", a.color)
        .Num("psnr_db", db)
        .Num("roundtrip_max_error", roundtrip)
        .Object("seconds", JsonObject()
                               .Num("forward", t_fwd)
                               .Num("threshold", fixed ? std::nan("") : t_keep)  // fused: none
                               .Num("inverse_plan", fixed ? std::nan("") : t_plan)
                               .Num("inverse", t_inv))
        .Print();
    return;
  }
  std::printf("whole-image DCT compression of %s (%dx%d, %s)\n", a.in.c_str(), src.width,
              src.height, a.color ? "RGB" : "luma");
  std::printf("  kept %.1f%% of the coefficients (threshold %.6g): PSNR %.3f dB\n",
              100.0 * double(nonzero) / double(h * w * c), threshold, db);
  if (fixed)
    std::printf("  forward 2D DCT with the threshold fused %.3f ms, inverse %.3f ms\n", 1e3 * t_fwd,
                1e3 * t_inv);
  else
    std::printf(
        "  forward 2D DCT %.3f ms, threshold %.3f ms, inverse (fused) %.3f ms (its plan %.3f "
        "ms)\n",
        1e3 * t_fwd, 1e3 * t_keep, 1e3 * t_inv, 1e3 * t_plan);
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
  auto* keep = c->add_option("--keep", args->keep, "fraction of coefficients kept, in (0, 1]")
                   ->capture_default_str();
  c->add_option("--threshold", args->threshold,
                "zero the coefficients of magnitude below this instead (fused into the forward "
                "transform)")
      ->excludes(keep);
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
