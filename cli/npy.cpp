// SPDX-License-Identifier: BSD-3-Clause
// .npy reader/writer (NumPy format specification, numpy/lib/format.py docs: magic "\x93NUMPY",
// version, little-endian header length, an ASCII dict with descr, fortran_order, shape).
#include "npy.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/atomic_file.hpp"

namespace dctx::cli {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw Error("cannot read '" + path + "'");
  return ss.str();
}

std::string dict_value(const std::string& header, const std::string& key, const std::string& path) {
  const auto k = header.find("'" + key + "'");
  if (k == std::string::npos)
    throw Error("malformed .npy header in '" + path + "': no '" + key + "'");
  auto c = header.find(':', k);
  if (c == std::string::npos) throw Error("malformed .npy header in '" + path + "'");
  ++c;
  while (c < header.size() && header[c] == ' ') ++c;
  if (c >= header.size()) throw Error("malformed .npy header in '" + path + "'");
  if (header[c] == '\'') {
    const auto e = header.find('\'', c + 1);
    if (e == std::string::npos) throw Error("malformed .npy header in '" + path + "'");
    return header.substr(c + 1, e - c - 1);
  }
  if (header[c] == '(') {
    const auto e = header.find(')', c);
    if (e == std::string::npos) throw Error("malformed .npy header in '" + path + "'");
    return header.substr(c + 1, e - c - 1);
  }
  auto e = header.find_first_of(",}", c);
  return header.substr(c, e - c);
}

// Decode one element of an elementary dtype to double.
template <class U>
double load_as(const unsigned char* p, bool swap) {
  unsigned char b[sizeof(U)];
  std::memcpy(b, p, sizeof(U));
  if (swap) std::reverse(b, b + sizeof(U));
  U v;
  std::memcpy(&v, b, sizeof(U));
  return static_cast<double>(v);
}

double half_to_double(std::uint16_t h) {
  const int s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v;
  if (e == 0)
    v = std::ldexp(m, -24);
  else if (e == 31)
    v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else
    v = std::ldexp(m + 1024, e - 25);
  return s ? -v : v;
}

struct Parsed {
  NpyArray a;
  std::string body;
  std::size_t offset = 0;
  char endian = '<';
  char kind = 'f';
  std::size_t itemsize = 0;
};

Parsed parse(const std::string& path) {
  Parsed r;
  r.body = read_all(path);
  const std::string& s = r.body;
  if (s.size() < 10 || s.compare(0, 6, "\x93NUMPY") != 0)
    throw Error("'" + path + "' is not a .npy file (bad magic)");
  const int major = static_cast<unsigned char>(s[6]);
  std::size_t hlen, hstart;
  if (major == 1) {
    hlen = static_cast<unsigned char>(s[8]) |
           (static_cast<std::size_t>(static_cast<unsigned char>(s[9])) << 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (s.size() < 12) throw Error("'" + path + "' is truncated");
    hlen = 0;
    for (int i = 0; i < 4; ++i)
      hlen |= static_cast<std::size_t>(static_cast<unsigned char>(s[8 + i])) << (8 * i);
    hstart = 12;
  } else {
    throw Error("'" + path + "' has unsupported .npy version " + std::to_string(major));
  }
  if (hstart + hlen > s.size()) throw Error("'" + path + "' is truncated (header)");
  const std::string header = s.substr(hstart, hlen);
  r.offset = hstart + hlen;
  const std::string descr = dict_value(header, "descr", path);
  const std::string fo = dict_value(header, "fortran_order", path);
  const std::string shp = dict_value(header, "shape", path);
  r.a.dtype = descr;
  r.a.fortran_order = fo.find("True") != std::string::npos;
  if (descr.size() < 3) throw Error("unsupported dtype '" + descr + "' in '" + path + "'");
  r.endian = descr[0];
  r.kind = descr[1];
  try {
    r.itemsize = std::stoul(descr.substr(2));
  } catch (...) {
    throw Error("unsupported dtype '" + descr + "' in '" + path + "'");
  }
  const bool ok = (r.kind == 'f' && (r.itemsize == 2 || r.itemsize == 4 || r.itemsize == 8)) ||
                  ((r.kind == 'i' || r.kind == 'u') &&
                   (r.itemsize == 1 || r.itemsize == 2 || r.itemsize == 4 || r.itemsize == 8)) ||
                  (r.kind == 'b' && r.itemsize == 1);
  if (!ok || (r.endian != '<' && r.endian != '>' && r.endian != '|' && r.endian != '='))
    throw Error(
        "unsupported dtype '" + descr + "' in '" + path +
        "' (expected float16/32/64, integers or bool; complex and long double are not supported)");
  std::stringstream ss(shp);
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    const auto b = tok.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    tok = tok.substr(b);
    if (tok.empty() || !std::isdigit(static_cast<unsigned char>(tok[0])))
      throw Error("malformed shape '(" + shp + ")' in '" + path + "'");
    r.a.shape.push_back(std::stoull(tok));
  }
  if (r.a.shape.empty())
    throw Error("'" + path + "' holds a 0-d array; dctx needs at least one axis");
  std::size_t n = 1;
  for (auto e : r.a.shape) {
    if (e == 0) throw Error("'" + path + "' holds an empty array (a zero extent)");
    if (n > std::numeric_limits<std::size_t>::max() / e / 8)
      throw Error("'" + path + "': shape overflows");
    n *= e;
  }
  if (r.offset + n * r.itemsize > s.size())
    throw Error("'" + path + "' is truncated: expected " + std::to_string(n * r.itemsize) +
                " data bytes");
  return r;
}

// Visits the elements in C order; Fortran-ordered data is read through its strides.
template <class Fn>
void for_each_element(const Parsed& p, Fn&& fn) {
  const std::size_t n = p.a.size();
  const bool swap =
      (p.endian == '>') == (std::endian::native == std::endian::little) && p.itemsize > 1;
  const auto* base = reinterpret_cast<const unsigned char*>(p.body.data() + p.offset);
  // Fortran order: storage offset of the current C-order index, updated like an odometer.
  const std::size_t nd = p.a.shape.size();
  std::vector<std::size_t> fstride(nd), sub(nd, 0);
  for (std::size_t d = 0, m = 1; d < nd; ++d) {
    fstride[d] = m;
    m *= p.a.shape[d];
  }
  std::size_t fidx = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (p.a.fortran_order && k > 0) {
      for (std::size_t d = nd; d-- > 0;) {  // advance the last axis, carrying into earlier ones
        fidx += fstride[d];
        if (++sub[d] < p.a.shape[d]) break;
        fidx -= fstride[d] * p.a.shape[d];
        sub[d] = 0;
      }
    }
    const std::size_t src = p.a.fortran_order ? fidx : k;
    const unsigned char* e = base + src * p.itemsize;
    double v = 0;
    switch (p.kind) {
      case 'f':
        if (p.itemsize == 2)
          v = half_to_double(static_cast<std::uint16_t>(load_as<std::uint16_t>(e, swap)));
        else if (p.itemsize == 4)
          v = load_as<float>(e, swap);
        else
          v = load_as<double>(e, swap);
        break;
      case 'i':
        if (p.itemsize == 1)
          v = load_as<std::int8_t>(e, false);
        else if (p.itemsize == 2)
          v = load_as<std::int16_t>(e, swap);
        else if (p.itemsize == 4)
          v = load_as<std::int32_t>(e, swap);
        else
          v = load_as<std::int64_t>(e, swap);
        break;
      case 'u':
        if (p.itemsize == 1)
          v = load_as<std::uint8_t>(e, false);
        else if (p.itemsize == 2)
          v = load_as<std::uint16_t>(e, swap);
        else if (p.itemsize == 4)
          v = load_as<std::uint32_t>(e, swap);
        else
          v = load_as<std::uint64_t>(e, swap);
        break;
      default: v = *e ? 1.0 : 0.0;
    }
    fn(k, v);
  }
}

std::string header_for(const std::string& descr, const Shape& shape) {
  std::string d = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < shape.size(); ++i) d += (i ? ", " : "") + std::to_string(shape[i]);
  d += shape.size() == 1 ? ",), }" : "), }";
  std::size_t total = 10 + d.size() + 1;
  const std::size_t pad = (64 - total % 64) % 64;
  d += std::string(pad, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(d.size() & 0xff);
  out += static_cast<char>((d.size() >> 8) & 0xff);
  return out + d;
}

template <class T>
void write_typed(const std::string& path, const Shape& shape, const T* data, const char* descr) {
  std::string bytes = header_for(descr, shape);
  bytes.append(reinterpret_cast<const char*>(data), element_count(shape) * sizeof(T));
  detail::write_file_atomic(path, bytes);
}

}  // namespace

std::size_t element_count(const Shape& shape) {
  std::size_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

NpyArray read_npy(const std::string& path, std::string* note) {
  Parsed p = parse(path);
  const bool as_f32 = p.kind == 'f' && p.itemsize <= 4;
  if (as_f32)
    p.a.f32.resize(p.a.size());
  else
    p.a.f64.resize(p.a.size());
  for_each_element(p, [&](std::size_t k, double v) {
    if (as_f32)
      p.a.f32[k] = static_cast<float>(v);
    else
      p.a.f64[k] = v;
  });
  if (note) {
    note->clear();
    if (p.kind != 'f' || p.itemsize == 2)
      *note = "converted dtype " + p.a.dtype + " to " + (as_f32 ? "float32" : "float64");
    if (p.a.fortran_order)
      *note += std::string(note->empty() ? "" : "; ") + "converted Fortran order to C order";
  }
  return std::move(p.a);
}

NpyArray read_npy_int16(const std::string& path) {
  Parsed p = parse(path);
  if (p.kind == 'f')
    throw Error("'" + path + "' holds " + p.a.dtype + " but --int16 needs an integer array");
  p.a.i16.resize(p.a.size());
  for_each_element(p, [&](std::size_t k, double v) {
    if (v < -32768 || v > 32767)
      throw Error("'" + path + "' has a value outside int16: " + std::to_string(v));
    p.a.i16[k] = static_cast<std::int16_t>(v);
  });
  return std::move(p.a);
}

void write_npy(const std::string& path, const Shape& shape, const float* data) {
  write_typed(path, shape, data, "<f4");
}
void write_npy(const std::string& path, const Shape& shape, const double* data) {
  write_typed(path, shape, data, "<f8");
}
void write_npy(const std::string& path, const Shape& shape, const std::int16_t* data) {
  write_typed(path, shape, data, "<i2");
}

}  // namespace dctx::cli
