// SPDX-License-Identifier: BSD-3-Clause
// NumPy .npy files (format versions 1.0, 2.0, 3.0): read any numeric dtype as float32/float64,
// write float32/float64/int16 atomically (temporary file + rename, so a failed run leaves no
// partial output).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dctx/types.hpp"

namespace dctx::cli {

/// Number of elements of `shape` (product of the extents).
std::size_t element_count(const Shape& shape);

struct NpyArray {
  Shape shape;
  std::string dtype;              ///< the file's dtype as NumPy spells it: "<f4", ">i2", "|u1"
  bool fortran_order = false;     ///< as stored in the file (data below is always C order)
  std::vector<float> f32;         ///< filled when the file holds float32 (or float16, widened)
  std::vector<double> f64;        ///< filled for float64 and for every integer/bool dtype
  std::vector<std::int16_t> i16;  ///< filled only by read_npy_int16
  bool single() const { return !f32.empty(); }  ///< data is in f32
  std::size_t size() const { return element_count(shape); }
};

/// Read a .npy file. float32 (and float16) arrive as f32, float64 as f64, other numeric dtypes
/// as f64; a note goes to `note` when the data was converted (dtype or Fortran order). The header
/// is read as strictly as numpy.load reads it (npy_header.hpp); a 0-d array has an empty shape and
/// one value; arrays with a zero extent are refused. Throws dctx::Error on unreadable, truncated or
/// malformed files and unsupported dtypes, naming the file.
NpyArray read_npy(const std::string& path, std::string* note = nullptr);
/// Read a .npy file holding integers as int16 (values outside int16 are an error).
NpyArray read_npy_int16(const std::string& path);

void write_npy(const std::string& path, const Shape& shape, const float* data);
void write_npy(const std::string& path, const Shape& shape, const double* data);
void write_npy(const std::string& path, const Shape& shape, const std::int16_t* data);

/// read_npy of a float array for a command: a conversion note goes to stderr ("dctx: note: ...").
NpyArray read_float_npy(const std::string& path);
/// Writes the float data of `arr` (f32 or f64, as it holds) with its shape.
void write_float_npy(const std::string& path, const NpyArray& arr);

}  // namespace dctx::cli
