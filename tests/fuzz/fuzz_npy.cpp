// SPDX-License-Identifier: BSD-3-Clause
// The CLI's .npy reader (cli/npy.cpp): read_npy and read_npy_int16 on arbitrary bytes. Either
// reads the array or throws dctx::Error; anything else (a crash, a sanitizer report, a leak, an
// allocation beyond -rss_limit_mb, a hang) is a bug. Seeds: tests/fuzz/corpus/npy/.
#include <cstddef>
#include <cstdint>

#include "dctx/types.hpp"
#include "fuzz_input.hpp"
#include "npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static dctx::fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  try {
    std::string note;
    const dctx::cli::NpyArray a = dctx::cli::read_npy(path, &note);
    // The reader's promise: the data holds exactly element_count(shape) values.
    if ((a.single() ? a.f32.size() : a.f64.size()) != a.size()) __builtin_trap();
  } catch (const dctx::Error&) {
  }
  try {
    const dctx::cli::NpyArray a = dctx::cli::read_npy_int16(path);
    if (a.i16.size() != a.size()) __builtin_trap();
  } catch (const dctx::Error&) {
  }
  return 0;
}
