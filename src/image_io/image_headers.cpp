// SPDX-License-Identifier: BSD-3-Clause
// The readers' checks before any decoder runs: the format by its magic bytes, then the header of
// BMP (Windows and OS/2 bitmap headers), JPEG (ISO/IEC 10918-1 markers, walked from SOI to EOI)
// and binary PGM/PPM (Netpbm), with the dimensions held to the limits and the file's size held to
// what the header announces. PNG is in image_png.cpp. Binary PGM/PPM is also decoded here: once
// the header is checked, its samples are a plain array.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dctx/image_io.hpp"
#include "dctx/types.hpp"
#include "image_io/image_formats.hpp"

namespace dctx::detail {
namespace {

std::uint32_t le16(const std::uint8_t* p) { return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8; }
std::uint32_t le32(const std::uint8_t* p) { return le16(p) | le16(p + 2) << 16; }
std::uint32_t be16(const std::uint8_t* p) { return std::uint32_t(p[0]) << 8 | p[1]; }

void put_le32(std::vector<std::uint8_t>& v, std::size_t at, std::uint32_t x) {
  for (int i = 0; i < 4; ++i) v[at + i] = static_cast<std::uint8_t>(x >> (8 * i));
}

bool pnm_space(std::uint8_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool starts(const std::uint8_t* data, std::size_t size, const char* magic, std::size_t n) {
  return size >= n && std::memcmp(data, magic, n) == 0;
}

/// For the message about a file of no accepted format: what it seems to be.
std::string looks_like(const std::uint8_t* d, std::size_t n) {
  if (starts(d, n, "GIF87a", 6) || starts(d, n, "GIF89a", 6)) return " (it looks like a GIF file)";
  if (starts(d, n, "#?RADIANCE", 10) || starts(d, n, "#?RGBE", 6))
    return " (it looks like a Radiance HDR file)";
  if (starts(d, n, "II*\0", 4) || starts(d, n, "MM\0*", 4)) return " (it looks like a TIFF file)";
  if (starts(d, n, "RIFF", 4) && n >= 12 && std::memcmp(d + 8, "WEBP", 4) == 0)
    return " (it looks like a WebP file)";
  if (starts(d, n, "8BPS", 4)) return " (it looks like a Photoshop file)";
  if (starts(d, n, "P7", 2)) return " (it looks like a PAM file)";
  if (starts(d, n, "PF", 2) || starts(d, n, "Pf", 2)) return " (it looks like a PFM file)";
  return "";
}

// ---------------------------------------------------------------------------------------------
// BMP: a 14-byte file header, an info header of 12 (OS/2), 40, 56, 108 or 124 bytes, bit-field
// masks after a 40- or 56-byte header when the compression is BI_BITFIELDS, the palette, and at
// the offset the file header gives, rows padded to 4 bytes, bottom-up unless the height is
// negative. stb_image reads the palette into an uninitialised stack array sized by the offset, so
// palette images (and OS/2 headers, whose palette it sizes wrongly) reach it in one layout: a
// 40-byte (or the file's own Windows) header and 2^bpp palette entries, those the file lacks black.

PreparedImage prepare_bmp(const std::uint8_t* d, std::size_t n, std::size_t max_pixels,
                          const std::string& what) {
  const FileErrors errors{what, "BMP"};
  const auto corrupt = [&](const std::string& why) { return errors.corrupt(why); };
  const auto unsupported = [&](const std::string& why) {
    return Error(what + " is a BMP file of a kind the reader does not take: " + why);
  };
  const auto truncated = [&](std::uint64_t need) {
    return Error(what + " is a truncated BMP file (" + std::to_string(n) +
                 " bytes, its header announces " + std::to_string(need) + ")");
  };
  if (n < 18) throw truncated(18);
  const std::uint32_t offset = le32(d + 10), hsz = le32(d + 14);
  if (hsz != 12 && hsz != 40 && hsz != 56 && hsz != 108 && hsz != 124)
    throw unsupported("an info header of " + std::to_string(hsz) +
                      " bytes (12, 40, 56, 108 and 124 are taken)");
  if (n < 14 + hsz) throw truncated(14 + hsz);
  std::int64_t w = 0, h = 0;
  std::uint32_t planes = 0, bpp = 0, compression = 0, colors_used = 0;
  if (hsz == 12) {
    w = le16(d + 18);
    h = le16(d + 20);
    planes = le16(d + 22);
    bpp = le16(d + 24);
  } else {
    w = static_cast<std::int32_t>(le32(d + 18));
    h = static_cast<std::int32_t>(le32(d + 22));
    planes = le16(d + 26);
    bpp = le16(d + 28);
    compression = le32(d + 30);
    colors_used = le32(d + 46);
  }
  if (planes != 1) throw corrupt(std::to_string(planes) + " colour planes (1 expected)");
  const bool bpp_ok =
      bpp == 1 || bpp == 4 || bpp == 8 || bpp == 24 || (hsz != 12 && (bpp == 16 || bpp == 32));
  if (!bpp_ok)
    throw corrupt(std::to_string(bpp) + " bits a pixel (1, 4, 8, 16, 24 or 32 exist; 1, 4, 8 or " +
                  "24 with a 12-byte header)");
  if (compression == 1 || compression == 2) throw unsupported("run-length encoding (RLE)");
  if (compression == 4 || compression == 5) throw unsupported("embedded JPEG or PNG data");
  if (compression == 3 && bpp != 16 && bpp != 32)
    throw corrupt("bit-field masks with " + std::to_string(bpp) + " bits a pixel");
  if (compression != 0 && compression != 3)
    throw corrupt("unknown compression " + std::to_string(compression));
  if (compression == 3 && hsz == 56)
    throw unsupported("bit-field masks with a 56-byte info header");
  if (w < 0) throw corrupt("a negative width (" + std::to_string(w) + ")");
  const std::uint64_t rows = static_cast<std::uint64_t>(h < 0 ? -h : h);
  check_dimensions(static_cast<std::uint64_t>(w), rows, max_pixels, what, "BMP");

  const std::uint64_t header_end = 14 + hsz + (hsz == 40 && compression == 3 ? 12 : 0);
  if (n < header_end) throw truncated(header_end);
  if (offset < header_end)
    throw corrupt("its pixel data offset " + std::to_string(offset) + " lies inside its headers (" +
                  std::to_string(header_end) + " bytes)");
  const std::uint64_t row = (std::uint64_t{bpp} * static_cast<std::uint64_t>(w) + 31) / 32 * 4;
  const std::uint64_t need = std::uint64_t{offset} + row * rows;
  if (need > n) throw truncated(need);

  PreparedImage p;
  p.format = ImageFormat::Bmp;
  p.width = static_cast<std::uint32_t>(w);
  p.height = static_cast<std::uint32_t>(rows);
  const bool palette = bpp <= 8;
  if (!palette && hsz != 12 && offset == header_end) return p;  // stb reads it as it is
  // The copy: file header, info header (an OS/2 one as a 40-byte Windows one), masks, palette,
  // then the rows.
  const std::uint32_t out_hsz = hsz == 12 ? 40 : hsz;
  const std::size_t entries = palette ? std::size_t{1} << bpp : 0;
  const std::size_t out_offset = 14 + (header_end - 14 - hsz) + out_hsz + 4 * entries;
  std::vector<std::uint8_t>& out = p.bytes;
  out.assign(out_offset, 0);
  std::copy(d, d + 14, out.begin());
  if (hsz == 12) {
    put_le32(out, 14, 40);
    put_le32(out, 18, static_cast<std::uint32_t>(w));
    put_le32(out, 22, static_cast<std::uint32_t>(h));  // OS/2 bitmaps are bottom-up
    out[26] = 1;
    out[28] = static_cast<std::uint8_t>(bpp);
  } else {
    std::copy(d + 14, d + header_end, out.begin() + 14);
  }
  if (palette) {
    const std::size_t entry = hsz == 12 ? 3 : 4, at = 14 + hsz;
    std::size_t have = (offset - at) / entry;
    if (colors_used != 0) have = std::min<std::size_t>(have, colors_used);
    have = std::min(have, entries);
    if (have == 0) throw corrupt("a palette image without a palette");
    for (std::size_t i = 0; i < have; ++i)
      std::copy(d + at + i * entry, d + at + i * entry + 3, out.begin() + 14 + out_hsz + 4 * i);
  }
  put_le32(out, 10, static_cast<std::uint32_t>(out_offset));
  out.insert(out.end(), d + offset, d + need);
  put_le32(out, 2, static_cast<std::uint32_t>(out.size()));
  return p;
}

// ---------------------------------------------------------------------------------------------
// JPEG: marker segments from SOI to EOI. stb_image decodes baseline and extended Huffman
// (SOF0, SOF1) and progressive (SOF2) frames of 8-bit samples with 1, 3 or 4 components; the
// walk finds the frame header it will use (stray bytes between segments skipped, as it does),
// holds it to the limits, and requires the end-of-image marker, without which stb fails anyway.
// Every block of the largest component codes at least its DC difference, one bit at least, so the
// entropy-coded data must hold a bit per 8x8 block. A scan visits every coefficient of its band in
// every block of its components however few bytes it has (a refinement scan of a few bytes visits
// them all), so a small file of many scans could decode for minutes: the scans together may visit
// the coefficients at most kMaxJpegPasses times over (a sequential file once, a progressive one
// about 3 times).

constexpr int kMaxJpegPasses = 16;

PreparedImage prepare_jpeg(const std::uint8_t* d, std::size_t n, std::size_t max_pixels,
                           const std::string& what) {
  const FileErrors errors{what, "JPEG"};
  const auto corrupt = [&](const std::string& why) { return errors.corrupt(why); };
  const auto truncated = [&](const std::string& why) { return errors.truncated(why); };
  const auto marker_name = [](unsigned m) {
    static const struct {
      unsigned code;
      const char* name;
    } kNames[] = {{0xC4, "DHT"}, {0xC8, "JPG"}, {0xCC, "DAC"}, {0xDA, "SOS"}, {0xD8, "SOI"},
                  {0xDB, "DQT"}, {0xDC, "DNL"}, {0xDD, "DRI"}, {0xFE, "COM"}};
    char b[24];
    for (const auto& k : kNames)
      if (k.code == m) {
        std::snprintf(b, sizeof b, "%s (0xFF%02X)", k.name, m);
        return std::string(b);
      }
    if (m >= 0xC0 && m <= 0xCF) {
      std::snprintf(b, sizeof b, "SOF%u (0xFF%02X)", m - 0xC0, m);
    } else if (m >= 0xE0 && m <= 0xEF) {
      std::snprintf(b, sizeof b, "APP%u (0xFF%02X)", m - 0xE0, m);
    } else if (m >= 0xD0 && m <= 0xD7) {
      std::snprintf(b, sizeof b, "RST%u (0xFF%02X)", m - 0xD0, m);
    } else {
      std::snprintf(b, sizeof b, "0xFF%02X", m);
    }
    return std::string(b);
  };
  PreparedImage p;
  p.format = ImageFormat::Jpeg;
  bool frame = false;
  std::uint64_t entropy_bytes = 0;
  struct Component {
    unsigned id;
    std::uint64_t blocks;  // 8x8 blocks, padded to whole MCUs
  };
  std::vector<Component> components;
  std::uint64_t all_blocks = 0, coefficient_visits = 0;
  bool progressive = false;
  std::size_t pos = 2;  // after SOI
  for (;;) {
    while (pos < n && d[pos] != 0xFF) ++pos;
    while (pos < n && d[pos] == 0xFF) ++pos;
    if (pos >= n)
      throw truncated(frame ? "it ends before its end-of-image marker"
                            : "it ends before its frame header");
    const unsigned m = d[pos++];
    const std::size_t at = pos - 2;
    if (m == 0xD9) {  // EOI
      if (!frame) throw corrupt("it ends (EOI marker) before any frame header");
      break;
    }
    const bool sof = m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
    const bool known = sof || m == 0xC4 || m == 0xDA || m == 0xDB || m == 0xDC || m == 0xDD ||
                       (m >= 0xE0 && m <= 0xEF) || m == 0xFE;
    if (!known)
      throw corrupt("an unexpected marker " + marker_name(m) + " at byte " + std::to_string(at));
    if (n - pos < 2 || be16(d + pos) > n - pos)
      throw truncated("it ends inside its " + marker_name(m) + " segment at byte " +
                      std::to_string(at));
    const std::size_t len = be16(d + pos);
    if (len < 2)
      throw corrupt("a segment of length " + std::to_string(len) + " at byte " +
                    std::to_string(at));
    const std::uint8_t* s = d + pos + 2;
    if (sof) {
      if (frame) throw corrupt("a second frame header at byte " + std::to_string(at));
      if (m != 0xC0 && m != 0xC1 && m != 0xC2)
        throw Error(what + " is a lossless, hierarchical or arithmetic-coded JPEG file (SOF" +
                    std::to_string(m - 0xC0) +
                    "); the reader takes baseline, extended and progressive Huffman files");
      if (len < 8 || len != 8 + 3 * std::size_t{s[5]})
        throw corrupt("a frame header of " + std::to_string(len) + " bytes for " +
                      std::to_string(len < 8 ? 0 : s[5]) + " components");
      if (s[0] != 8)
        throw Error(what + " is a JPEG file of " + std::to_string(s[0]) +
                    "-bit samples; the reader takes 8-bit ones");
      const std::uint32_t height = be16(s + 1), width = be16(s + 3), comps = s[5];
      if (height == 0)
        throw Error(what +
                    " is a JPEG file whose height comes after its first scan (a DNL "
                    "marker), which the reader does not take");
      if (comps != 1 && comps != 3 && comps != 4)
        throw Error(what + " is a JPEG file of " + std::to_string(comps) +
                    " components; the reader takes 1 (gray), 3 (colour) or 4 (CMYK)");
      unsigned hmax = 1, vmax = 1;
      for (std::uint32_t c = 0; c < comps; ++c) {
        const unsigned hs = s[7 + 3 * c] >> 4, vs = s[7 + 3 * c] & 15, tq = s[8 + 3 * c];
        if (hs < 1 || hs > 4 || vs < 1 || vs > 4 || tq > 3)
          throw corrupt("component " + std::to_string(c) + " has sampling factors " +
                        std::to_string(hs) + "x" + std::to_string(vs) + " and table " +
                        std::to_string(tq));
        hmax = std::max(hmax, hs);
        vmax = std::max(vmax, vs);
      }
      for (std::uint32_t c = 0; c < comps; ++c)
        if (hmax % (s[7 + 3 * c] >> 4) != 0 || vmax % (s[7 + 3 * c] & 15) != 0)
          throw Error(what +
                      " is a JPEG file with sampling factors that are not integer ratios, "
                      "which the reader does not take");
      check_dimensions(width, height, max_pixels, what, "JPEG");
      const std::uint64_t mcus_x = (width + 8 * hmax - 1) / (8 * hmax),
                          mcus_y = (height + 8 * vmax - 1) / (8 * vmax);
      for (std::uint32_t c = 0; c < comps; ++c) {
        const std::uint64_t b = mcus_x * (s[7 + 3 * c] >> 4) * mcus_y * (s[7 + 3 * c] & 15);
        components.push_back({s[6 + 3 * c], b});
        all_blocks += b;
      }
      progressive = m == 0xC2;
      frame = true;
      p.width = width;
      p.height = height;
    } else if (m == 0xDA) {  // SOS: the scan header, then entropy-coded data up to a marker
      if (!frame) throw corrupt("a scan before its frame header");
      // Ns, Ns x (component, tables), Ss, Se, Ah/Al.
      if (len < 3 || len != 6 + 2 * std::size_t{s[0]})
        throw corrupt("a scan header of " + std::to_string(len) + " bytes at byte " +
                      std::to_string(at));
      const unsigned ss = s[1 + 2 * s[0]], se = s[2 + 2 * s[0]];
      const std::uint64_t band = progressive && ss <= se && se <= 63 ? se - ss + 1 : 64;
      for (unsigned c = 0; c < s[0]; ++c)
        for (const auto& k : components)
          if (k.id == s[1 + 2 * c]) coefficient_visits += band * k.blocks;
      if (coefficient_visits > kMaxJpegPasses * 64 * all_blocks)
        throw Error(what + " is a JPEG file of too many scans: they would visit its coefficients " +
                    "more than " + std::to_string(kMaxJpegPasses) +
                    " times over, which the reader does not take");
      pos += len;
      const std::size_t start = pos;
      while (pos < n) {
        if (d[pos] != 0xFF) {
          ++pos;
        } else if (pos + 1 < n &&
                   (d[pos + 1] == 0x00 || (d[pos + 1] >= 0xD0 && d[pos + 1] <= 0xD7))) {
          pos += 2;  // a stuffed zero or a restart marker: still the scan's data
        } else {
          break;
        }
      }
      entropy_bytes += pos - start;
      if (pos + 1 >= n)
        throw truncated("it ends inside its image data, before its end-of-image marker");
      continue;
    } else if (m == 0xDC && !frame) {
      throw corrupt("a DNL marker before its frame header");
    } else if (m == 0xC4) {  // DHT: tables of (class and id, 16 code counts, the symbols)
      for (std::size_t t = 0; t < len - 2;) {
        if (len - 2 - t < 17)
          throw corrupt("a DHT segment at byte " + std::to_string(at) +
                        " ends inside a table header");
        if ((s[t] >> 4) > 1 || (s[t] & 15) > 3)
          throw corrupt("a Huffman table of class " + std::to_string(s[t] >> 4) + " and id " +
                        std::to_string(s[t] & 15) + " (0..1 and 0..3 exist)");
        std::size_t codes = 0;
        for (int i = 1; i <= 16; ++i) codes += s[t + std::size_t(i)];
        // stb_image 2.27 stores the code lengths in an array of 257: more codes overflow it.
        if (codes > 256)
          throw corrupt("a Huffman table of " + std::to_string(codes) + " codes (at most 256)");
        if (codes > len - 2 - t - 17)
          throw corrupt("a DHT segment at byte " + std::to_string(at) + " shorter than its tables");
        t += 17 + codes;
      }
    }
    pos += len;
  }
  const std::uint64_t blocks =
      (std::uint64_t{p.width} + 7) / 8 * ((std::uint64_t{p.height} + 7) / 8);
  if (entropy_bytes * 8 < blocks)
    throw Error(what + " is a truncated or corrupt JPEG file: its " +
                std::to_string(entropy_bytes) + " bytes of image data cannot code the " +
                std::to_string(blocks) + " blocks of its " + std::to_string(p.width) + " x " +
                std::to_string(p.height) + " pixels");
  return p;
}

// ---------------------------------------------------------------------------------------------
// Binary PGM (P5) and PPM (P6): "P5" or "P6", width, height and maxval as decimal numbers between
// whitespace and '#' comments, one whitespace byte, then the samples (two bytes, most significant
// first, when maxval > 255). The plain (P1-P3) and bitmap (P1, P4) variants are not read.

PreparedImage prepare_pnm(const std::uint8_t* d, std::size_t n, std::size_t max_pixels,
                          const std::string& what) {
  const std::string kind = d[1] == '6' ? "PPM" : "PGM";
  const FileErrors errors{what, kind};
  const auto corrupt = [&](const std::string& why) { return errors.corrupt(why); };
  std::size_t pos = 2;
  const auto number = [&](const char* field) {
    for (;;) {  // whitespace and comments
      while (pos < n && pnm_space(d[pos])) ++pos;
      if (pos >= n || d[pos] != '#') break;
      while (pos < n && d[pos] != '\n' && d[pos] != '\r') ++pos;
    }
    if (pos >= n)
      throw Error(what + " is a truncated " + kind + " file: it ends before its " + field);
    if (d[pos] < '0' || d[pos] > '9')
      throw corrupt(std::string("no ") + field + " in its header (byte " + std::to_string(pos) +
                    " is not a digit)");
    const std::size_t start = pos;
    std::uint64_t v = 0;
    for (; pos < n && d[pos] >= '0' && d[pos] <= '9'; ++pos)
      v = std::min<std::uint64_t>(v * 10 + (d[pos] - '0'), std::uint64_t{1} << 40);
    if (v >= std::uint64_t{1} << 40) {
      const std::size_t shown = std::min<std::size_t>(pos - start, 30);
      throw corrupt(std::string("its ") + field + " " +
                    std::string(reinterpret_cast<const char*>(d + start), shown) +
                    (pos - start > shown ? "..." : "") + " is out of range");
    }
    return v;
  };
  const std::uint64_t w = number("width"), h = number("height");
  check_dimensions(w, h, max_pixels, what, kind.c_str());
  const std::uint64_t maxval = number("maxval");
  if (maxval < 1 || maxval > 65535)
    throw corrupt("its maxval " + std::to_string(maxval) + " is not in 1..65535");
  if (pos >= n) throw Error(what + " is a truncated " + kind + " file: it ends after its maxval");
  if (!pnm_space(d[pos])) throw corrupt("no whitespace after its maxval");
  ++pos;
  PreparedImage p;
  p.format = ImageFormat::Pnm;
  p.width = static_cast<std::uint32_t>(w);
  p.height = static_cast<std::uint32_t>(h);
  p.channels = kind == "PPM" ? 3 : 1;
  p.maxval = static_cast<unsigned>(maxval);
  p.data_offset = pos;
  const std::uint64_t need = pos + w * h * std::uint64_t(p.channels) * (maxval > 255 ? 2 : 1);
  if (need > n)
    throw Error(what + " is a truncated " + kind + " file (" + std::to_string(n) +
                " bytes, its header announces " + std::to_string(need) + ")");
  return p;
}

}  // namespace

ImageFormat detect_format(const std::uint8_t* d, std::size_t n, const std::string& what) {
  if (n == 0) throw Error(what + " is empty");
  if (starts(d, n, "\x89PNG\r\n\x1a\n", 8)) return ImageFormat::Png;
  if (starts(d, n, "\x89PNG", 4))
    throw Error(what +
                " is a PNG file with a damaged signature (its line-ending bytes were "
                "altered, as by a text-mode transfer)");
  if (starts(d, n, "BM", 2)) return ImageFormat::Bmp;
  if (n >= 2 && d[0] == 'P' && d[1] >= '1' && d[1] <= '6' &&
      (n == 2 || pnm_space(d[2]) || d[2] == '#')) {
    if (d[1] == '5' || d[1] == '6') return ImageFormat::Pnm;
    static const char* const kKinds[] = {"plain PBM", "plain PGM", "plain PPM", "binary PBM"};
    throw Error(what + " is a " + kKinds[d[1] - '1'] + " file (P" + char(d[1]) +
                "); the reader takes binary PGM (P5) and PPM (P6)");
  }
  if (starts(d, n, "\xFF\xD8\xFF", 3)) return ImageFormat::Jpeg;
  throw Error(what + " is not a BMP, PNG, PGM/PPM or JPEG file" + looks_like(d, n));
}

const char* format_name(ImageFormat f) {
  switch (f) {
    case ImageFormat::Png: return "PNG";
    case ImageFormat::Bmp: return "BMP";
    case ImageFormat::Pnm: return "PGM/PPM";
    case ImageFormat::Jpeg: return "JPEG";
  }
  return "?";
}

void check_dimensions(std::uint64_t width, std::uint64_t height, std::size_t max_pixels,
                      const std::string& what, const char* format) {
  const std::string dims = std::to_string(width) + " x " + std::to_string(height);
  if (width == 0 || height == 0)
    throw Error(what + " has no pixels (its " + format + " header says " + dims + ")");
  if (width > kMaxImageSide || height > kMaxImageSide)
    throw Error(what + " is " + dims + " pixels, more than the readers take (sides of at most " +
                std::to_string(kMaxImageSide) + ")");
  if (width * height > max_pixels)
    throw Error(what + " is " + dims + " = " + std::to_string(width * height) +
                " pixels, more than the limit of " + std::to_string(max_pixels) +
                " (ImageReadOptions::max_pixels)");
}

PreparedImage prepare_image(const std::uint8_t* data, std::size_t size, std::size_t max_pixels,
                            const std::string& what) {
  switch (detect_format(data, size, what)) {
    case ImageFormat::Png: return prepare_png(data, size, max_pixels, what);
    case ImageFormat::Bmp: return prepare_bmp(data, size, max_pixels, what);
    case ImageFormat::Pnm: return prepare_pnm(data, size, max_pixels, what);
    case ImageFormat::Jpeg: return prepare_jpeg(data, size, max_pixels, what);
  }
  throw Error(what + ": unknown format");
}

Image decode_pnm(const PreparedImage& p, const std::uint8_t* data, std::size_t size,
                 const std::string& what) {
  Image im;
  im.width = static_cast<int>(p.width);
  im.height = static_cast<int>(p.height);
  im.channels = p.channels;
  const std::size_t count = std::size_t{p.width} * p.height * std::size_t(p.channels);
  const std::size_t bytes = p.maxval > 255 ? 2 : 1;
  if (p.data_offset + count * bytes > size) throw Error(what + " is truncated");  // checked before
  im.pixels.resize(count);
  const std::uint8_t* s = data + p.data_offset;
  if (p.maxval == 255) {
    std::copy(s, s + count, im.pixels.begin());
    return im;
  }
  const std::uint32_t m = p.maxval;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t v = bytes == 2 ? std::uint32_t(s[2 * i]) << 8 | s[2 * i + 1] : s[i];
    if (v > m)
      throw Error(what + " is a corrupt " + (p.channels == 3 ? "PPM" : "PGM") + " file: sample " +
                  std::to_string(i) + " is " + std::to_string(v) + ", above its maxval " +
                  std::to_string(m));
    im.pixels[i] = static_cast<std::uint8_t>((v * 255 + m / 2) / m);
  }
  return im;
}

}  // namespace dctx::detail
