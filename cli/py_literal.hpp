// SPDX-License-Identifier: BSD-3-Clause
// A Python literal, read as ast.literal_eval reads it (the .npy header is one: numpy.lib.format
// parses it so): numbers (decimal, hex, octal, binary, underscores, floats, imaginary), strings
// (quotes, triple quotes, the r, u and b prefixes, escapes, adjacent strings joined), True,
// False, None, tuples, lists, dicts, sets, set(), one sign on a number, a real plus or minus an
// imaginary number; comments, line continuations, at most 200 nested brackets, no indentation
// before the expression. Whatever literal_eval refuses is refused. Known gaps, all refused: the
// \N{name} escape, and the rare forms Python accepts with a warning.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dctx::cli {

struct PyValue {
  enum Kind { Int, Bool, None, Float, Complex, Str, Bytes, Dots, Tuple, List, Set, Dict };
  // How the value was written: literal_eval takes a sign only on a number literal, and a sum
  // only of a real number (perhaps signed) and an imaginary literal.
  enum Form : std::uint8_t { Literal, Signed, Sum, Other };
  Kind kind = None;
  Form form = Literal;
  bool negative = false;           // Int: below zero
  bool huge = false;               // Int: above INT64_MAX (NumPy's largest extent)
  std::uint64_t u = 0;             // Int: the magnitude, when not huge; Bool: 0 or 1
  std::string s;                   // Str (UTF-8), Bytes
  std::vector<PyValue> items;      // Tuple, List, Set; Dict: key, value, key, value, ...
  std::size_t begin = 0, end = 0;  // where it is written in the text
};

/// Where and why a text is not a literal; `key`: the string key of the innermost dict entry whose
/// value it was in, if any (the .npy reader names 'shape' so), `value_at`: where that value begins.
struct PyLiteralError {
  std::size_t at;
  std::string what;
  std::string key;
  std::size_t value_at = 0;
};

/// The literal `text`, as ast.literal_eval(text) reads it. `latin1`: each byte is a character
/// (otherwise the text is UTF-8, which the caller has checked, e.g. with utf8_chars).
/// `python2_longs`: a name L right after a number is dropped, as numpy.lib.format._filter_header
/// does for files of format 1.0 and 2.0. Throws PyLiteralError.
PyValue parse_py_literal(std::string_view text, bool latin1, bool python2_longs);

/// Characters in the strict UTF-8 `text` (as Python decodes it), or npos with the offset of the
/// first invalid byte in *bad.
std::size_t utf8_chars(std::string_view text, std::size_t* bad);

/// `text` for a message: printable ASCII kept, other bytes as \xHH, at most `max` characters.
std::string excerpt(std::string_view text, std::size_t max = 60);
/// excerpt(text, max) in single quotes (double quotes when it holds a single quote).
std::string quoted(std::string_view text, std::size_t max = 60);

}  // namespace dctx::cli
