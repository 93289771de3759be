// SPDX-License-Identifier: BSD-3-Clause
// stb_image's PNG, BMP and JPEG decoders, compiled here (no libstb at run time; Debian's
// libstb-dev headers) and kept private to this file (STB_IMAGE_STATIC). A file that passed the
// checks of image_headers.cpp goes to the decoder of its format alone: stb_image's own dispatch,
// which offers the bytes to every compiled decoder in turn, is not used. Every allocation a decoder
// makes is counted against a per-thread budget of what the image's dimensions and the file's size
// justify, so that no input makes it allocate without bound (compressed PNG data inflating far past
// its pixels, say), and is zero-filled, so that no path through a decoder can hand back bytes it
// never wrote (a JPEG component that no scan codes, say).
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "dctx/image_io.hpp"
#include "dctx/types.hpp"
#include "image_io/image_formats.hpp"

namespace {

thread_local std::size_t t_bytes_left = 0;  // what the running decode may still allocate
thread_local bool t_refused = false;        // an allocation went over the budget

struct alignas(std::max_align_t) Head {
  std::size_t size;
};
constexpr std::size_t kMaxAlloc = std::numeric_limits<std::size_t>::max() - sizeof(Head);

void* stb_alloc(std::size_t n) {
  if (n > t_bytes_left || n > kMaxAlloc) {
    t_refused = true;
    return nullptr;
  }
  auto* h = static_cast<Head*>(std::calloc(1, sizeof(Head) + n));
  if (!h) return nullptr;
  h->size = n;
  t_bytes_left -= n;
  return h + 1;
}

void stb_free(void* p) {
  if (!p) return;
  Head* h = static_cast<Head*>(p) - 1;
  t_bytes_left += h->size;
  std::free(h);
}

void* stb_realloc(void* p, std::size_t n) {
  if (!p) return stb_alloc(n);
  Head* h = static_cast<Head*>(p) - 1;
  const std::size_t old = h->size;
  if ((n > old && n - old > t_bytes_left) || n > kMaxAlloc) {
    t_refused = true;
    return nullptr;
  }
  auto* g = static_cast<Head*>(std::realloc(h, sizeof(Head) + n));
  if (!g) return nullptr;
  if (n > old) {
    std::memset(reinterpret_cast<char*>(g + 1) + old, 0, n - old);
    t_bytes_left -= n - old;
  } else {
    t_bytes_left += old - n;
  }
  g->size = n;
  return g + 1;
}

}  // namespace

#define STBI_MALLOC(n) stb_alloc(n)
#define STBI_REALLOC(p, n) stb_realloc(p, n)
#define STBI_FREE(p) stb_free(p)
#define STBI_MAX_DIMENSIONS (1 << 20)
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_ONLY_PNG
#define STBI_ONLY_BMP
#define STBI_ONLY_JPEG
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  // the static API this file does not call
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

static_assert(STBI_MAX_DIMENSIONS == dctx::kMaxImageSide);

namespace dctx::detail {
namespace {

/// The budget of one decode on this thread; what is still allocated when it ends is not counted.
class Budget {
 public:
  explicit Budget(std::size_t bytes) {
    t_bytes_left = bytes;
    t_refused = false;
  }
  ~Budget() { t_bytes_left = 0; }
  Budget(const Budget&) = delete;
  Budget& operator=(const Budget&) = delete;
};

struct StbFree {
  void operator()(void* p) const { stb_free(p); }
};

}  // namespace

Image decode_with_stb(const PreparedImage& p, const std::uint8_t* file, std::size_t file_size,
                      const std::string& what) {
  const std::uint8_t* data = p.bytes.empty() ? file : p.bytes.data();
  const std::size_t size = p.bytes.empty() ? file_size : p.bytes.size();
  const std::string format = format_name(p.format);
  const std::string dims = std::to_string(p.width) + " x " + std::to_string(p.height);
  if (size > std::size_t(INT_MAX))
    throw Error(what + " is too large for the " + format + " decoder (over 2 GiB)");
  // A generous ceiling on the decoders' working memory: the compressed data twice (PNG gathers
  // its IDAT chunks into a buffer that grows by doubling) and 32 bytes a pixel of the image padded
  // to whole 32x32 JPEG MCUs (16-bit RGBA PNG needs 16 at the peak, progressive CMYK JPEG 15).
  const std::uint64_t area = (std::uint64_t{p.width} + 32) * (std::uint64_t{p.height} + 32);
  const std::uint64_t budget = 2 * std::uint64_t{size} + 32 * area + (1u << 20);

  Budget in_budget(static_cast<std::size_t>(budget));
  stbi__context s;
  stbi__start_mem(&s, data, static_cast<int>(size));
  stbi__result_info ri{};
  ri.bits_per_channel = 8;
  stbi__g_failure_reason = nullptr;
  int w = 0, h = 0, n = 0;
  std::unique_ptr<void, StbFree> out;
  switch (p.format) {
    case ImageFormat::Png: out.reset(stbi__png_load(&s, &w, &h, &n, 0, &ri)); break;
    case ImageFormat::Bmp: out.reset(stbi__bmp_load(&s, &w, &h, &n, 0, &ri)); break;
    case ImageFormat::Jpeg: out.reset(stbi__jpeg_load(&s, &w, &h, &n, 0, &ri)); break;
    case ImageFormat::Pnm: throw Error(what + ": PGM/PPM is not decoded by stb_image");
  }
  if (!out) {
    const std::string reason = stbi__g_failure_reason ? stbi__g_failure_reason : "";
    if (t_refused)
      throw Error(what + " is a corrupt " + format + " file: decoding it takes more memory than " +
                  "its " + dims + " pixels justify");
    if (reason == "outofmem") throw Error(what + ": out of memory decoding " + dims + " pixels");
    if (reason == "too large")
      throw Error(what + " is " + dims + " pixels, too large for the " + format +
                  " decoder (stb_image holds an image in less than 2 GiB)");
    throw Error(what + " is a corrupt " + format + " file" +
                (reason.empty() ? "" : " (stb_image: " + reason + ")"));
  }
  if (w != static_cast<int>(p.width) || h != static_cast<int>(p.height) || n < 1 || n > 4 ||
      (ri.bits_per_channel != 8 && ri.bits_per_channel != 16))
    throw Error(what + ": the " + format + " decoder read " + std::to_string(w) + " x " +
                std::to_string(h) + " x " + std::to_string(n) + " where the header announces " +
                dims);
  Image im;
  im.width = w;
  im.height = h;
  im.channels = n >= 3 ? 3 : 1;  // drop alpha
  const std::size_t px = std::size_t(w) * std::size_t(h), c = std::size_t(im.channels);
  im.pixels.resize(px * c);
  if (ri.bits_per_channel == 16) {  // the most significant byte, as stb_image's 8-bit loads do
    const auto* src = static_cast<const std::uint16_t*>(out.get());
    for (std::size_t i = 0; i < px; ++i)
      for (std::size_t k = 0; k < c; ++k)
        im.pixels[i * c + k] = static_cast<std::uint8_t>(src[i * std::size_t(n) + k] >> 8);
  } else {
    const auto* src = static_cast<const std::uint8_t*>(out.get());
    for (std::size_t i = 0; i < px; ++i)
      for (std::size_t k = 0; k < c; ++k) im.pixels[i * c + k] = src[i * std::size_t(n) + k];
  }
  return im;
}

}  // namespace dctx::detail
