// SPDX-License-Identifier: BSD-3-Clause
// `dctx deblur IMAGE`: Tikhonov deblurring with reflective boundaries through the 2D DCT (Ng, Chan
// and Tang, "A fast algorithm for deblurring models with Neumann boundary conditions", SIAM J.
// Sci. Comput. 1999; dctx/restore.hpp). With --simulate the image is first blurred by the same
// PSF (noise added, then rounded to 8 bits as a file would hold it), so the restoration can be
// scored against the original: PSNR before and after.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include "commands.hpp"
#include "core/vocabulary.hpp"
#include "dctx/image.hpp"
#include "dctx/image_io.hpp"
#include "dctx/restore.hpp"
#include "json.hpp"

namespace dctx::cli {
namespace {

struct DeblurArgs {
  std::string in, out, blurred_out, psf = "gaussian:2";
  double reg = 1e-3, noise = 0;
  int threads = 1;
  std::size_t max_pixels = kDefaultMaxImagePixels;
  bool simulate = false, color = false, json = false;
};

Image to_image(const Image& like, const std::vector<std::vector<float>>& planes) {
  Image r = like;
  const std::size_t c = std::size_t(like.channels), n = planes[0].size();
  for (std::size_t ch = 0; ch < c; ++ch)
    for (std::size_t i = 0; i < n; ++i)
      r.pixels[i * c + ch] =
          static_cast<std::uint8_t>(std::clamp(std::lround(planes[ch][i]), 0L, 255L));
  return r;
}

void run(const DeblurArgs& a) {
  if (!(a.noise >= 0) || !std::isfinite(a.noise))
    throw Error("--noise must be finite and >= 0, got " + detail::number_str(a.noise));
  if (a.noise > 0 && !a.simulate)
    throw Error("--noise adds noise to the simulated blur: it needs --simulate");
  if (!a.blurred_out.empty() && !a.simulate)
    throw Error("--blurred-output writes the simulated blur: it needs --simulate");
  const Psf psf = parse_psf(a.psf);
  const Image original = read_image(a.in, {.max_pixels = a.max_pixels});
  const Image src = a.color ? original : image_luma(original);
  const std::size_t h = std::size_t(src.height), w = std::size_t(src.width),
                    c = std::size_t(src.channels);
  const Shape shape{h, w};
  CpuOptions cpu;
  cpu.threads = a.threads;
  const auto t0 = std::chrono::steady_clock::now();
  const ReflectiveBlur blur(shape, psf, Precision::F32, cpu);  // checks the PSF against the image
  const auto t1 = std::chrono::steady_clock::now();
  std::vector<std::vector<float>> observed(c, std::vector<float>(h * w)), restored = observed;
  std::mt19937 rng(12345);
  std::normal_distribution<float> noise(0.0f, float(a.noise));
  double t_blur = 0, t_deblur = 0;
  for (std::size_t ch = 0; ch < c; ++ch) {
    for (std::size_t i = 0; i < h * w; ++i) observed[ch][i] = src.pixels[i * c + ch];
    if (a.simulate) {
      const auto s = std::chrono::steady_clock::now();
      blur.blur(View<float>(observed[ch].data(), shape), View<float>(observed[ch].data(), shape));
      t_blur += seconds_between(s, std::chrono::steady_clock::now());
      // What a file of the blurred image holds: noise added, then 8-bit levels.
      for (float& v : observed[ch])
        v = float(std::clamp(std::lround(v + (a.noise > 0 ? noise(rng) : 0.0f)), 0L, 255L));
    }
    const auto s = std::chrono::steady_clock::now();
    blur.deblur(ConstView<float>(observed[ch].data(), shape),
                View<float>(restored[ch].data(), shape), a.reg);
    t_deblur += seconds_between(s, std::chrono::steady_clock::now());
  }
  const Image observed_image = to_image(src, observed), result = to_image(src, restored);
  if (!a.blurred_out.empty()) write_image(a.blurred_out, observed_image);
  if (!a.out.empty()) write_image(a.out, result);
  const double before = psnr(src, observed_image), after = psnr(src, result);
  if (a.json) {
    JsonObject j = json_run("deblur", a.in, a.out, {h, w, std::size_t(original.channels)}, "uint8",
                            BackendKind::CPU);
    j.Str("psf", a.psf).Num("reg", a.reg).Bool("simulate", a.simulate).Num("noise", a.noise);
    if (a.simulate) j.Num("psnr_blurred_db", before).Num("psnr_restored_db", after);
    j.Object("seconds", JsonObject()
                            .Num("plan", seconds_between(t0, t1))
                            .Num("blur", t_blur)
                            .Num("deblur", t_deblur))
        .Print();
    return;
  }
  std::printf("deblurring of %s (%zux%zu, %s), PSF %s (%zux%zu), Tikhonov weight %g\n",
              a.in.c_str(), w, h, a.color ? "RGB" : "luma", a.psf.c_str(), psf.cols, psf.rows,
              a.reg);
  if (a.simulate) {
    std::printf("  blurred with the same PSF%s: PSNR %.3f dB\n",
                a.noise > 0 ? (", noise sigma " + detail::number_str(a.noise)).c_str() : "",
                before);
    std::printf("  restored: PSNR %.3f dB (%+.3f dB)\n", after, after - before);
  }
  std::printf("  blur %.3f ms, deblur %.3f ms (two 2D DCTs each), plan %.3f ms\n", 1e3 * t_blur,
              1e3 * t_deblur, 1e3 * seconds_between(t0, t1));
  if (!a.blurred_out.empty()) std::printf("  wrote %s\n", a.blurred_out.c_str());
  if (!a.out.empty()) std::printf("  wrote %s\n", a.out.c_str());
}

}  // namespace

void add_deblur_command(CLI::App& app) {
  auto args = std::make_shared<DeblurArgs>();
  CLI::App* c = app.add_subcommand(
      "deblur", "Tikhonov deblurring with reflective boundaries through the 2D DCT");
  c->add_option("IN", args->in, "input image (BMP, PNG, PGM/PPM or JPEG)")->required();
  c->add_option("-o,--output", args->out, "restored image (.png, .bmp, .pgm/.ppm)");
  c->add_option("--psf", args->psf, "point-spread function: gaussian:SIGMA[:RADIUS]")
      ->capture_default_str();
  c->add_option("--reg", args->reg, "Tikhonov weight alpha >= 0 (0: plain inverse)")
      ->capture_default_str();
  c->add_flag("--simulate", args->simulate,
              "blur IN with the PSF first, then restore it and print both PSNRs");
  c->add_option("--noise", args->noise,
                "with --simulate: Gaussian noise of this sigma (gray levels)")
      ->capture_default_str();
  c->add_option("--blurred-output", args->blurred_out, "with --simulate: write the blurred image");
  c->add_flag("--color", args->color, "restore the RGB channels instead of the luma");
  c->add_option("--threads", args->threads, "worker threads (0 = all)")->capture_default_str();
  c->add_option("--max-pixels", args->max_pixels, "refuse larger input images (width x height)")
      ->capture_default_str();
  c->add_flag("--json", args->json,
              "print one JSON object (README, \"JSON output\") instead of text");
  c->callback([args] { run(*args); });
}

const CommandRegistration kDeblur{45, add_deblur_command};

}  // namespace dctx::cli
