// SPDX-License-Identifier: BSD-3-Clause
// Python literals (py_literal.hpp): a tokenizer for the part of Python's lexical grammar that
// literals use, and a parser that applies ast.literal_eval's rules as it goes.
#include "py_literal.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

namespace dctx::cli {
namespace {

using Value = PyValue;
using Fail = PyLiteralError;
constexpr std::uint64_t kIntpMax =
    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
constexpr int kMaxNesting = 200;  // Python's tokenizer refuses 201 nested brackets

bool hashable(const Value& v) {
  if (v.kind == Value::List || v.kind == Value::Set || v.kind == Value::Dict) return false;
  for (const auto& e : v.items)
    if (!hashable(e)) return false;
  return true;
}

bool ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool ident_char(unsigned char c) { return ident_start(c) || std::isdigit(c); }
int digit_value(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  const int extra = cp < 0x80 ? 0 : cp < 0x800 ? 1 : cp < 0x10000 ? 2 : 3;
  static constexpr unsigned kLead[4] = {0x00, 0xc0, 0xe0, 0xf0};
  out += static_cast<char>(kLead[extra] | (cp >> (6 * extra)));
  for (int k = extra - 1; k >= 0; --k) out += static_cast<char>(0x80 | ((cp >> (6 * k)) & 0x3f));
}

class Parser {
 public:
  Parser(std::string_view text, bool latin1, bool python2_longs)
      : t_(text), latin1_(latin1), filter_l_(python2_longs) {}

  Value document() {
    skip_leading_lines();
    advance();
    Value v = expr();
    while (tok_ == Newline) advance();
    if (tok_ != End) fail(tb_, "unexpected " + describe_token() + " after the dict");
    return v;
  }

 private:
  enum Tok : std::uint8_t { End, Newline, Number, String, Name, Op };

  [[noreturn]] void fail(std::size_t at, std::string what) {
    throw Fail{at, std::move(what), {}, 0};
  }

  std::size_t newline_len(std::size_t i) const {
    return t_[i] == '\r' && i + 1 < t_.size() && t_[i + 1] == '\n' ? 2 : 1;
  }

  // literal_eval strips spaces and tabs; blank and comment lines may follow; the expression then
  // starts without indentation (a form feed resets the column, as in Python's tokenizer).
  void skip_leading_lines() {
    std::size_t i = 0;
    while (i < t_.size() && (t_[i] == ' ' || t_[i] == '\t')) ++i;
    for (;;) {
      bool indented = false;
      std::size_t j = i;
      for (; j < t_.size() && (t_[j] == ' ' || t_[j] == '\t' || t_[j] == '\f'); ++j)
        indented = t_[j] != '\f';
      if (j < t_.size() && t_[j] == '#')
        while (j < t_.size() && t_[j] != '\n' && t_[j] != '\r') ++j;
      if (j < t_.size() && (t_[j] == '\n' || t_[j] == '\r')) {
        i = j + newline_len(j);
        continue;
      }
      if (j < t_.size() && indented) fail(j, "unexpected indentation");
      i_ = j;
      return;
    }
  }

  std::string describe_token() const {
    switch (tok_) {
      case End: return "end of the header";
      case Newline: return "line break";
      default: return quoted(t_.substr(tb_, i_ - tb_), 30);
    }
  }

  void advance() {
    const bool after_number = tok_ == Number;
    lex();
    // numpy.lib.format._filter_header: names 'L' right after a number go (Python 2 longs).
    while (filter_l_ && after_number && tok_ == Name && clean_ && token_text() == "L") lex();
  }

  void lex() {
    clean_ = true;
    for (;;) {
      if (i_ >= t_.size()) {
        tok_ = End;
        tb_ = i_;
        return;
      }
      const char c = t_[i_];
      if (c == ' ' || c == '\t' || c == '\f') {
        ++i_;
      } else if (c == '\\') {  // a line continuation, never the last thing in the header
        if (i_ + 1 >= t_.size() || (t_[i_ + 1] != '\n' && t_[i_ + 1] != '\r'))
          fail(i_, "unexpected backslash");
        i_ += 1 + newline_len(i_ + 1);
        if (i_ >= t_.size()) fail(i_, "line continuation at the end");
      } else if (c == '#') {
        while (i_ < t_.size() && t_[i_] != '\n' && t_[i_] != '\r') ++i_;
        clean_ = false;
      } else if (c == '\n' || c == '\r') {
        tb_ = i_;
        i_ += newline_len(i_);
        clean_ = false;
        if (depth_ == 0) {
          tok_ = Newline;
          return;
        }
      } else {
        break;
      }
    }
    tb_ = i_;
    const auto c = static_cast<unsigned char>(t_[i_]);
    if (std::isdigit(c) || (c == '.' && i_ + 1 < t_.size() && std::isdigit(t_[i_ + 1]))) {
      lex_number();
    } else if (c == '.' && t_.substr(i_, 3) == "...") {
      tok_ = Op;
      op_ = '.';
      i_ += 3;
    } else if (c == '\'' || c == '"') {
      lex_string(false, false);
    } else if (ident_start(c)) {
      std::size_t e = i_;
      while (e < t_.size() && ident_char(static_cast<unsigned char>(t_[e]))) ++e;
      const std::string_view id = t_.substr(i_, e - i_);
      for (unsigned char k : id)
        if (k >= 0x80) fail(i_, "a character that is not ASCII outside a string");
      if (e < t_.size() && (t_[e] == '\'' || t_[e] == '"') && id.size() <= 2) {
        std::string p;  // a string prefix: r, u, b, f, br, rb, fr or rf, in either case
        for (char k : id) p += static_cast<char>(std::tolower(static_cast<unsigned char>(k)));
        if (p == "f" || p == "fr" || p == "rf") fail(i_, "an f-string (not a literal)");
        if (p == "r" || p == "u" || p == "b" || p == "br" || p == "rb") {
          i_ = e;
          lex_string(p.find('r') != std::string::npos, p.find('b') != std::string::npos);
          tb_ = e - id.size();
          return;
        }
      }
      tok_ = Name;
      i_ = e;
    } else if (std::strchr("()[]{},:+-", c) && c != 0) {
      tok_ = Op;
      op_ = static_cast<char>(c);
      ++i_;
      if (c == '(' || c == '[' || c == '{') {
        if (++depth_ > kMaxNesting) fail(tb_, "more than 200 nested brackets");
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth_-- == 0) fail(tb_, "unmatched " + quoted(t_.substr(tb_, 1)));
      }
    } else {
      fail(i_, "unexpected character " + quoted(t_.substr(i_, 1)));
    }
  }

  // digits (of `base`) with single underscores between them; false if there is none
  bool digits(int base, bool leading_underscore = false) {
    std::size_t j = i_;
    if (leading_underscore && j < t_.size() && t_[j] == '_') ++j;
    if (j >= t_.size() || digit_value(static_cast<unsigned char>(t_[j])) >= base) return false;
    i_ = j + 1;
    while (i_ < t_.size()) {
      if (digit_value(static_cast<unsigned char>(t_[i_])) < base)
        ++i_;
      else if (t_[i_] == '_' && i_ + 1 < t_.size() &&
               digit_value(static_cast<unsigned char>(t_[i_ + 1])) < base)
        i_ += 2;
      else
        break;
    }
    return true;
  }

  void lex_number() {
    tok_ = Number;
    val_ = Value{};
    val_.begin = i_;
    int base = 10;
    std::size_t first_digit = i_;
    if (t_[i_] == '0' && i_ + 1 < t_.size() && std::strchr("xXoObB", t_[i_ + 1]) &&
        t_[i_ + 1] != 0) {
      const char p = static_cast<char>(std::tolower(static_cast<unsigned char>(t_[i_ + 1])));
      base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      i_ += 2;
      first_digit = i_;
      if (!digits(base, true)) fail(tb_, "invalid number");
    } else {
      const bool int_part = digits(10);
      bool is_float = false;
      if (i_ < t_.size() && t_[i_] == '.') {
        ++i_;
        digits(10);
        is_float = true;
      } else if (!int_part) {
        fail(tb_, "invalid number");
      }
      if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
        const std::size_t save = i_++;
        if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
        if (digits(10))
          is_float = true;
        else
          i_ = save;
      }
      if (i_ < t_.size() && (t_[i_] == 'j' || t_[i_] == 'J')) {
        ++i_;
        val_.kind = Value::Complex;
      } else {
        val_.kind = is_float ? Value::Float : Value::Int;
      }
      if (val_.kind != Value::Int) {
        val_.end = i_;
        return;
      }
    }
    val_.kind = Value::Int;
    bool zero_so_far = true;
    for (std::size_t k = first_digit; k < i_; ++k) {
      if (t_[k] == '_') continue;
      const int d = digit_value(static_cast<unsigned char>(t_[k]));
      if (base == 10 && d != 0 && zero_so_far && t_[first_digit] == '0')
        fail(tb_, "leading zeros in a decimal integer");
      zero_so_far = zero_so_far && d == 0;
      if (val_.u > (kIntpMax - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base))
        val_.huge = true;
      else
        val_.u = val_.u * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
    }
    val_.end = i_;
  }

  void put_char(std::string& out, unsigned char c) const {
    if (latin1_)
      append_utf8(out, c);
    else
      out += static_cast<char>(c);
  }

  void lex_string(bool raw, bool bytes) {
    tok_ = String;
    val_ = Value{};
    val_.kind = bytes ? Value::Bytes : Value::Str;
    const std::size_t b = i_;
    const char q = t_[i_];
    const bool triple = t_.substr(i_, 3) == std::string(3, q);
    i_ += triple ? 3 : 1;
    const std::size_t body = i_;
    for (;;) {
      if (i_ >= t_.size()) fail(b, "unterminated string");
      const char c = t_[i_];
      if (c == '\\' && i_ + 1 < t_.size()) {
        i_ += t_[i_ + 1] == '\r' ? 1 + newline_len(i_ + 1) : 2;
      } else if (!triple && (c == '\n' || c == '\r')) {
        fail(b, "unterminated string");
      } else if (c == q && (!triple || t_.substr(i_, 3) == std::string(3, q))) {
        break;
      } else {
        ++i_;
      }
    }
    const std::string_view s = t_.substr(body, i_ - body);
    i_ += triple ? 3 : 1;
    val_.begin = b;
    val_.end = i_;
    std::string& out = val_.s;
    for (std::size_t k = 0; k < s.size();) {
      const auto c = static_cast<unsigned char>(s[k]);
      if (bytes && c >= 0x80) fail(b, "a bytes literal with a character that is not ASCII");
      if (c == '\r') {  // Python reads \r\n and \r as \n
        out += '\n';
        k += s.substr(k, 2) == "\r\n" ? 2 : 1;
        continue;
      }
      if (c != '\\' || raw || k + 1 >= s.size()) {
        put_char(out, c);
        ++k;
        continue;
      }
      const char e = s[k + 1];
      k += 2;
      static constexpr std::string_view kSimple = "\\\\''\"\"a\ab\bf\fn\nr\rt\tv\v";
      if (e == '\n') continue;
      if (e == '\r') {
        if (k < s.size() && s[k] == '\n') ++k;
        continue;
      }
      bool done = false;
      for (std::size_t m = 0; m < kSimple.size() && !done; m += 2) {
        if (kSimple[m] != e) continue;
        out += kSimple[m + 1];
        done = true;
      }
      if (done) continue;
      std::uint32_t cp = 0;
      int need = 0;
      if (e >= '0' && e <= '7') {
        cp = static_cast<std::uint32_t>(e - '0');
        for (int n = 0; n < 2 && k < s.size() && s[k] >= '0' && s[k] <= '7'; ++n, ++k)
          cp = cp * 8 + static_cast<std::uint32_t>(s[k] - '0');
      } else if (e == 'x' || (!bytes && (e == 'u' || e == 'U'))) {
        need = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        for (int n = 0; n < need; ++n, ++k) {
          const int d = k < s.size() ? digit_value(static_cast<unsigned char>(s[k])) : 99;
          if (d >= 16) fail(b, std::string("a truncated \\") + e + " escape");
          cp = cp * 16 + static_cast<std::uint32_t>(d);
        }
        if (cp > 0x10ffff) fail(b, "an escape beyond U+10FFFF");
      } else if (!bytes && e == 'N') {
        fail(b, "a \\N{...} escape (not supported here)");
      } else {  // not an escape: the backslash stays
        out += '\\';
        k -= 1;
        continue;
      }
      if (bytes)
        out += static_cast<char>(cp & 0xff);
      else
        append_utf8(out, cp);
    }
  }

  bool is_op(char c) const { return tok_ == Op && op_ == c; }
  std::string_view token_text() const { return t_.substr(tb_, i_ - tb_); }

  Value expr() {
    Value left = unary();
    while (is_op('+') || is_op('-')) {
      advance();
      Value right = unary();
      const bool real = left.kind == Value::Int || left.kind == Value::Float;
      if (!(real && (left.form == Value::Literal || left.form == Value::Signed) &&
            right.form == Value::Literal && right.kind == Value::Complex))
        fail(left.begin, "an operation that is not a literal");
      left.kind = Value::Complex;
      left.form = Value::Sum;
      left.end = right.end;
    }
    return left;
  }

  Value unary() {
    if (!is_op('+') && !is_op('-')) return postfix();
    const std::size_t b = tb_;
    const bool minus = op_ == '-';
    advance();
    if (is_op('+') || is_op('-')) fail(b, "a sign on a sign");
    Value v = postfix();
    if (v.form != Value::Literal ||
        (v.kind != Value::Int && v.kind != Value::Float && v.kind != Value::Complex))
      fail(b, "a sign on something other than a number");
    v.form = Value::Signed;
    v.negative = minus && (v.u != 0 || v.huge);
    v.begin = b;
    return v;
  }

  Value postfix() {
    Value v = atom();
    if (is_op('(') || is_op('[')) fail(tb_, "a call or subscript (not a literal)");
    return v;
  }

  // items of a tuple, list or set up to `close`, after the first
  void sequence(Value& v, char close) {
    while (is_op(',')) {
      advance();
      if (is_op(close)) break;
      v.items.push_back(expr());
    }
    if (!is_op(close))
      fail(tb_, "expected ',' or '" + std::string(1, close) + "', got " + describe_token());
    v.end = i_;
    advance();
  }

  Value dict_value(const Value& key) {
    const std::size_t at = tb_;
    try {
      return expr();
    } catch (Fail& f) {
      if (f.key.empty() && key.kind == Value::Str) {
        f.key = key.s;
        f.value_at = at;
      }
      throw;
    }
  }

  Value atom() {
    Value v;
    v.begin = tb_;
    v.form = Value::Other;
    if (tok_ == Number) {
      v = val_;
      advance();
      return v;
    }
    if (tok_ == String) {
      v = val_;
      advance();
      while (tok_ == String) {  // adjacent strings are one
        if (val_.kind != v.kind) fail(tb_, "a string joined to a bytes literal");
        v.s += val_.s;
        v.end = val_.end;
        advance();
      }
      return v;
    }
    if (tok_ == Name) {
      const std::string_view id = token_text();
      v.end = i_;
      advance();
      if (id == "True" || id == "False") {
        v.kind = Value::Bool;
        v.u = id == "True";
      } else if (id == "None") {
        v.kind = Value::None;
      } else if (id == "set" && is_op('(')) {  // literal_eval's one call: set()
        advance();
        if (!is_op(')')) fail(tb_, "set() with arguments (not a literal)");
        v.kind = Value::Set;
        v.end = i_;
        advance();
      } else {
        fail(v.begin, "the name '" + excerpt(id, 30) + "' (not a literal)");
      }
      v.form = Value::Literal;
      return v;
    }
    if (tok_ != Op) fail(tb_, "expected a value, got " + describe_token());
    const char open = op_;
    advance();
    if (open == '.') {
      v.kind = Value::Dots;
      v.form = Value::Literal;
      v.end = tb_;
      return v;
    }
    if (open == '(' || open == '[') {
      const char close = open == '(' ? ')' : ']';
      v.kind = open == '(' ? Value::Tuple : Value::List;
      if (!is_op(close)) {
        Value first = expr();
        if (open == '(' && is_op(')')) {  // parentheses around a value
          first.begin = v.begin;
          first.end = i_;
          advance();
          return first;
        }
        v.items.push_back(std::move(first));
      }
      sequence(v, close);
      return v;
    }
    if (open != '{') fail(v.begin, "unexpected " + quoted(t_.substr(v.begin, 1)));
    v.kind = Value::Dict;
    if (is_op('}')) {
      v.end = i_;
      advance();
      return v;
    }
    Value first = expr();
    if (!is_op(':')) {  // a set
      v.kind = Value::Set;
      v.items.push_back(std::move(first));
      sequence(v, '}');
      for (const auto& e : v.items)
        if (!hashable(e)) fail(e.begin, "an unhashable set element");
      return v;
    }
    for (Value key = std::move(first);;) {
      if (!is_op(':')) fail(tb_, "expected ':' after a dict key, got " + describe_token());
      if (!hashable(key)) fail(key.begin, "an unhashable dict key");
      advance();
      Value value = dict_value(key);
      v.items.push_back(std::move(key));
      v.items.push_back(std::move(value));
      if (!is_op(',')) break;
      advance();
      if (is_op('}')) break;
      key = expr();
    }
    if (!is_op('}')) fail(tb_, "expected ',' or '}', got " + describe_token());
    v.end = i_;
    advance();
    return v;
  }

  std::string_view t_;
  bool latin1_, filter_l_;
  std::size_t i_ = 0, tb_ = 0;  // the position; where the current token begins
  int depth_ = 0;
  Tok tok_ = End;
  char op_ = 0;
  bool clean_ = true;  // nothing but spaces between the previous token and this one
  Value val_;          // the current Number or String token's value
};

}  // namespace

PyValue parse_py_literal(std::string_view text, bool latin1, bool python2_longs) {
  return Parser(text, latin1, python2_longs).document();
}

// No overlong forms, no surrogates, nothing above U+10FFFF.
std::size_t utf8_chars(std::string_view t, std::size_t* bad) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < t.size(); ++chars) {
    const auto c = static_cast<unsigned char>(t[i]);
    std::size_t len = c < 0x80                 ? 1
                      : c >= 0xc2 && c <= 0xdf ? 2
                      : c >= 0xe0 && c <= 0xef ? 3
                      : c >= 0xf0 && c <= 0xf4 ? 4
                                               : 0;
    if (len == 0 || i + len > t.size()) return *bad = i, std::string_view::npos;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(t[i + k]) & 0xc0) != 0x80)
        return *bad = i, std::string_view::npos;
    const auto c1 = static_cast<unsigned char>(len > 1 ? t[i + 1] : 0);
    if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) || (c == 0xf0 && c1 < 0x90) ||
        (c == 0xf4 && c1 >= 0x90))
      return *bad = i, std::string_view::npos;
    i += len;
  }
  return chars;
}

std::string excerpt(std::string_view text, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= max) return out + "...";
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

std::string quoted(std::string_view text, std::size_t max) {
  const std::string s = excerpt(text, max);
  const char q = s.find('\'') == std::string::npos ? '\'' : '"';
  std::string out(1, q);  // appended, not concatenated: GCC 12's -Wrestrict misreads "'" + s
  out += s;
  out += q;
  return out;
}

}  // namespace dctx::cli
