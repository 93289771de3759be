// SPDX-License-Identifier: BSD-3-Clause
// .npy reader/writer (NumPy format specification, numpy/lib/format.py docs: magic "\x93NUMPY",
// version, little-endian header length, a Python dict literal with descr, fortran_order, shape,
// read as NumPy's writers spell it: HeaderParser). Every size is checked before it is formed and
// against the file before anything is allocated: a header cannot make the reader allocate more than
// the file holds.
#include "npy.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <sys/stat.h>

#include "core/atomic_file.hpp"
#include "core/backend.hpp"  // detail::shape_str

namespace dctx::cli {
namespace {

constexpr std::size_t kMaxHeaderChars = 10000;  // numpy.lib.format's max_header_size
constexpr std::size_t kMaxAxes = 64;            // NumPy's NPY_MAXDIMS

// The header's dict, checked as numpy.lib.format._read_array_header checks it.
struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;  // extents, each <= INT64_MAX
};

// `text` for a message: printable ASCII kept, other bytes as \xHH, at most `max` characters.
std::string excerpt(std::string_view text, std::size_t max = 60) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return text.size() > max ? out + "..." : out;
}
// excerpt(text) in single quotes (double quotes when it holds a single quote).
std::string quoted(std::string_view text) {
  const std::string s = excerpt(text);
  const char q = s.find('\'') == std::string::npos ? '\'' : '"';
  std::string out(1, q);  // appended, not concatenated: GCC 12's -Wrestrict misreads "'" + s
  out += s;
  out += q;
  return out;
}

// The header's dict as NumPy's writers spell it (numpy.lib.format: `{'descr': '<f4',
// 'fortran_order': False, 'shape': (8, 8), }`, padded with spaces and ended by a newline): the
// three keys once each in any order, in single or double quotes, spaces, tabs and line breaks
// between tokens, trailing commas, decimal extents (and Python 2's 8L in formats 1.0 and 2.0, which
// numpy still reads). Everything else is refused, also what ast.literal_eval would take but no
// writer produces (hex extents, comments, escapes, repeated keys): a strict subset of what
// numpy.load reads, so that a header dctx reads means to dctx what it means to NumPy.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, int major, const std::string& path)
      : t_(text),
        longs_(major < 3),
        in_("'" + path + "': "),
        bad_(in_ + "malformed .npy header: ") {}

  NpyHeader parse() {
    if (t_.empty() || t_[0] != '{')
      fail("not a dict but " + quoted(t_.substr(0, t_.find_first_of("\r\n"))) +
           " (expected {'descr': '<f4', 'fortran_order': False, 'shape': (8, 8)})");
    ++at_;
    NpyHeader h;
    bool seen[3] = {false, false, false};
    std::string keys;
    for (space(); peek() != '}'; space()) {
      const std::string key = string_token(nullptr);
      keys += (keys.empty() ? "'" : ", '") + key + "'";
      static constexpr std::string_view kKeys[3] = {"descr", "fortran_order", "shape"};
      int which = -1;
      for (int j = 0; j < 3; ++j)
        if (key == kKeys[j]) which = j;
      if (which < 0 || seen[which])
        fail("its keys are " + keys + (which < 0 ? "" : " (repeated)") +
             "; expected 'descr', 'fortran_order' and 'shape' once each");
      seen[which] = true;
      space();
      expect(':');
      space();
      const std::size_t from = at_;
      if (which == 0) h.descr = string_token("descr");
      if (which == 1) h.fortran_order = boolean();
      if (which == 2) h.shape = shape();
      space();
      if (peek() != ',' && peek() != '}')
        throw Error(in_ + "malformed " + std::string(kKeys[which]) + " " + value_at(from) +
                    " in the header");
      if (peek() != ',') break;
      ++at_;
    }
    space();
    expect('}');
    space();
    if (at_ != t_.size()) fail("unexpected " + quoted(t_.substr(at_, 1)) + " after the dict");
    if (!seen[0] || !seen[1] || !seen[2])
      fail("its keys are " + (keys.empty() ? std::string("none") : keys) +
           "; expected 'descr', 'fortran_order' and 'shape' once each");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw Error(bad_ + why); }
  char peek() const { return at_ < t_.size() ? t_[at_] : '\0'; }
  void space() {
    while (at_ < t_.size() && std::strchr(" \t\r\n", t_[at_]) && t_[at_] != '\0') ++at_;
  }
  void expect(char c) {
    if (peek() != c)
      fail("expected '" + std::string(1, c) + "' at byte " + std::to_string(at_) + ", found " +
           (at_ < t_.size() ? quoted(t_.substr(at_, 1)) : std::string("the end")));
    ++at_;
  }
  // The value written at `from`, up to the next ',' or '}' outside brackets: for messages.
  std::string value_at(std::size_t from) const {
    int depth = 0;
    std::size_t e = from;
    for (; e < t_.size() && t_[e] != '\n'; ++e) {
      if (t_[e] == '\'' || t_[e] == '"') {  // a string: to its closing quote
        const std::size_t close = t_.find(t_[e], e + 1);
        if (close == std::string_view::npos) break;
        e = close;
        continue;
      }
      if (std::strchr("([{", t_[e])) ++depth;
      if (std::strchr(")]}", t_[e]) && --depth < 0) break;
      if (t_[e] == ',' && depth == 0) break;
    }
    while (e > from && t_[e - 1] == ' ') --e;
    return quoted(t_.substr(from, e - from));
  }
  // A quoted string of printable ASCII without backslashes; `field` names the value for messages
  // (nullptr: a key).
  std::string string_token(const char* field) {
    const std::size_t from = at_;
    const char q = peek();
    std::size_t close = std::string_view::npos;
    if (q == '\'' || q == '"') close = t_.find(q, at_ + 1);
    const std::string_view body =
        close == std::string_view::npos ? std::string_view() : t_.substr(at_ + 1, close - at_ - 1);
    const bool plain = close != std::string_view::npos &&
                       std::all_of(body.begin(), body.end(),
                                   [](char c) { return c >= 0x20 && c < 0x7f && c != '\\'; });
    if (!plain) {
      if (field)
        throw Error(in_ + "malformed " + field + " " + value_at(from) +
                    " in the header: expected a dtype string such as '<f4'");
      fail("expected a quoted key at byte " + std::to_string(from) + ", found " + value_at(from));
    }
    at_ = close + 1;
    return std::string(body);
  }
  bool boolean() {
    const std::size_t from = at_;
    for (const std::string_view word : {"True", "False"})
      if (t_.substr(at_, word.size()) == word &&
          !std::isalnum(static_cast<unsigned char>(peek_at(at_ + word.size()))) &&
          peek_at(at_ + word.size()) != '_') {
        at_ += word.size();
        return word == "True";
      }
    throw Error(in_ + "malformed fortran_order " + value_at(from) +
                " in the header: expected True or False");
  }
  char peek_at(std::size_t i) const { return i < t_.size() ? t_[i] : '\0'; }
  // A tuple of decimal extents: (), (5,), (3, 4), (3, 4,).
  std::vector<std::uint64_t> shape() {
    const std::size_t from = at_;
    const auto malformed = [&](const std::string& more) {
      return Error(in_ + "malformed shape " + value_at(from) +
                   " in the header: expected a tuple of non-negative integers" + more);
    };
    std::vector<std::uint64_t> extents;
    if (peek() != '(') throw malformed("");
    ++at_;
    bool comma = false;
    for (space(); peek() != ')'; space()) {
      if (peek() == '-') throw malformed(" (" + value_at(at_) + " is negative)");
      const std::size_t d0 = at_;
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++at_;
      const std::string_view digits = t_.substr(d0, at_ - d0);
      if (digits.empty() || (digits.size() > 1 && digits[0] == '0')) throw malformed("");
      if (longs_ && peek() == 'L') ++at_;  // Python 2's long, as numpy.lib.format filters it
      if (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' || peek() == '.')
        throw malformed("");
      std::uint64_t v = 0;
      for (const char c : digits) {
        const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
        if (v > (static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) - digit) / 10)
          throw Error(in_ + "shape extent " + excerpt(digits) + " is too large");
        v = v * 10 + digit;
      }
      extents.push_back(v);
      space();
      comma = peek() == ',';
      if (!comma) break;
      ++at_;
    }
    if (peek() != ')' || (extents.size() == 1 && !comma)) throw malformed("");
    ++at_;
    if (extents.size() > kMaxAxes) throw malformed(" (at most 64: NumPy's largest number of axes)");
    return extents;
  }

  std::string_view t_;
  bool longs_;
  std::string in_, bad_;
  std::size_t at_ = 0;
};

// `text` of format version `major`.
NpyHeader parse_header(std::string_view text, int major, const std::string& path) {
  const std::string in = "'" + path + "': ";
  if (text.size() > kMaxHeaderChars)
    throw Error(in + "the .npy header is " + std::to_string(text.size()) +
                " characters long, more than NumPy reads (" + std::to_string(kMaxHeaderChars) +
                ")");
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    throw Error(in + "malformed .npy header: a NUL byte at byte " + std::to_string(nul));
  return HeaderParser(text, major, path).parse();
}

// An open file and what it holds. Regular files are sized up front; pipes and devices are read
// as far as the header says, so that no claim of the header is allocated before it is read.
struct File {
  explicit File(const std::string& path) : path(path), f(std::fopen(path.c_str(), "rb")) {
    if (!f) throw Error("cannot open '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (fstat(fileno(f), &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        std::fclose(f);
        throw Error("cannot read '" + path + "': it is a directory");
      }
      if (S_ISREG(st.st_mode)) size = static_cast<std::uint64_t>(st.st_size);
    }
  }
  ~File() { std::fclose(f); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  /// Up to `n` more bytes (fewer at the end of the file), read in chunks as they arrive.
  std::string read(std::uint64_t n) {
    std::string out;
    while (out.size() < n) {
      const std::size_t chunk =
          static_cast<std::size_t>(std::min<std::uint64_t>(n - out.size(), 1 << 20));
      const std::size_t old = out.size();
      out.resize(old + chunk);
      const std::size_t got = std::fread(out.data() + old, 1, chunk, f);
      out.resize(old + got);
      if (got < chunk) {
        if (std::ferror(f)) throw Error("cannot read '" + path + "': " + std::strerror(errno));
        break;
      }
    }
    return out;
  }

  const std::string& path;
  std::FILE* f;
  std::uint64_t size = std::numeric_limits<std::uint64_t>::max();  ///< unknown: not a regular file
};

std::uint64_t little_endian(const std::string& b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

struct Parsed {
  NpyArray a;
  std::string body;  ///< the data, exactly size() * itemsize bytes
  char endian = '<';
  char kind = 'f';
  std::size_t itemsize = 0;
};

// The dtypes dctx reads: byte order (optional) + kind + size, as NumPy writes them (dtype.descr).
void parse_descr(Parsed& r, const std::string& descr, const std::string& path) {
  const std::size_t b = !descr.empty() && std::strchr("<>|=", descr[0]) ? 1 : 0;
  const std::string ks = descr.substr(std::min(b, descr.size()));
  static constexpr const char* kTypes[] = {"f2", "f4", "f8", "i1", "i2", "i4",
                                           "i8", "u1", "u2", "u4", "u8", "b1"};
  bool ok = false;
  for (const char* t : kTypes) ok = ok || ks == t;
  if (!ok)
    throw Error(
        "unsupported dtype '" + excerpt(descr, 30) + "' in '" + path +
        "' (expected float16/32/64, integers or bool; complex and long double are not supported)");
  r.kind = ks[0];
  r.itemsize = static_cast<std::size_t>(ks[1] - '0');
  const char native = std::endian::native == std::endian::little ? '<' : '>';
  r.endian = r.itemsize == 1                                ? '|'
             : b == 0 || descr[0] == '=' || descr[0] == '|' ? native
                                                            : descr[0];
  r.a.dtype = r.endian + ks;  // NumPy's spelling: '<f4', '>i2', '|u1', '|b1'
}

Parsed parse(const std::string& path) {
  Parsed r;
  File file(path);
  const std::string pre = file.read(8);
  if (pre.size() < 6 || pre.compare(0, 6, "\x93NUMPY") != 0)
    throw Error("'" + path + "' is not a .npy file (bad magic)");
  if (pre.size() < 8) throw Error("'" + path + "' is truncated (header)");
  const int major = static_cast<unsigned char>(pre[6]), minor = static_cast<unsigned char>(pre[7]);
  if ((major < 1 || major > 3) || minor != 0)
    throw Error("'" + path + "' has unsupported .npy format version " + std::to_string(major) +
                "." + std::to_string(minor) + " (dctx reads 1.0, 2.0 and 3.0)");
  const int len_bytes = major == 1 ? 2 : 4;
  const std::string len = file.read(len_bytes);
  if (len.size() < static_cast<std::size_t>(len_bytes))
    throw Error("'" + path + "' is truncated (header)");
  const std::uint64_t hlen = little_endian(len, 0, len_bytes);
  // At most 4 bytes a character (format 3.0 is UTF-8): longer is over NumPy's limit for sure.
  if (hlen > 4 * kMaxHeaderChars)
    throw Error("'" + path + "': the .npy header is " + std::to_string(hlen) +
                " bytes long, more than NumPy reads (" + std::to_string(kMaxHeaderChars) + ")");
  const std::string header = file.read(hlen);
  if (header.size() < hlen) throw Error("'" + path + "' is truncated (header)");
  const std::uint64_t offset = 8 + static_cast<std::uint64_t>(len_bytes) + hlen;
  NpyHeader h = parse_header(header, major, path);
  parse_descr(r, h.descr, path);
  r.a.fortran_order = h.fortran_order;
  r.a.shape.assign(h.shape.begin(), h.shape.end());
  // Every extent is at most INT64_MAX (parse_header); so are the element count and the byte
  // count, checked before they are formed, as NumPy checks them.
  constexpr std::uint64_t kMax = std::numeric_limits<std::int64_t>::max();
  std::uint64_t n = 1;
  bool empty = false;
  for (const std::uint64_t e : h.shape) empty = empty || e == 0;
  if (empty) throw Error("'" + path + "' holds an empty array (a zero extent)");
  for (const std::uint64_t e : h.shape) {
    if (n > kMax / e)
      throw Error("'" + path + "': shape " + detail::shape_str(r.a.shape) +
                  " is too large: its element count overflows");
    n *= e;
  }
  if (n > kMax / r.itemsize)
    throw Error("'" + path + "': shape " + detail::shape_str(r.a.shape) +
                " is too large: " + std::to_string(n) + " elements of " +
                std::to_string(r.itemsize) + " bytes exceed the largest array (2^63 - 1 bytes)");
  const std::uint64_t bytes = n * r.itemsize;
  const std::string truncated = "'" + path + "' is truncated: shape " +
                                detail::shape_str(r.a.shape) + " of " + r.a.dtype + " needs " +
                                std::to_string(bytes) + " data bytes, ";
  if (file.size != std::numeric_limits<std::uint64_t>::max() &&
      (file.size < offset || file.size - offset < bytes))
    throw Error(truncated + "the file has " +
                std::to_string(file.size < offset ? 0 : file.size - offset));
  r.body = file.read(bytes);
  if (r.body.size() < bytes)
    throw Error(truncated + "the file has " + std::to_string(r.body.size()));
  return r;
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

// Visits the elements in C order; Fortran-ordered data is read through its strides.
template <class Fn>
void for_each_element(const Parsed& p, Fn&& fn) {
  const std::size_t n = p.a.size();
  const bool swap =
      (p.endian == '>') == (std::endian::native == std::endian::little) && p.itemsize > 1;
  const auto* base = reinterpret_cast<const unsigned char*>(p.body.data());
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
    if (v >= -32768 && v <= 32767) {
      p.a.i16[k] = static_cast<std::int16_t>(v);
      return;
    }
    char value[32];  // an integer of up to 64 bits, exact in double only up to 2^53: "%.0f"
    std::snprintf(value, sizeof value, "%.0f", v);
    throw Error("'" + path + "' has a value outside int16: " + value);
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

NpyArray read_float_npy(const std::string& path) {
  std::string note;
  NpyArray arr = read_npy(path, &note);
  if (!note.empty()) std::fprintf(stderr, "dctx: note: %s\n", note.c_str());
  return arr;
}
void write_float_npy(const std::string& path, const NpyArray& arr) {
  if (arr.single())
    write_npy(path, arr.shape, arr.f32.data());
  else
    write_npy(path, arr.shape, arr.f64.data());
}

}  // namespace dctx::cli
