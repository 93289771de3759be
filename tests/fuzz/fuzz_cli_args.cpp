// SPDX-License-Identifier: BSD-3-Clause
// The dctx command line (cli/run.cpp, dctx::cli::run): the input, split at line breaks, is the
// argument list after "dctx". The harness runs in a private temporary folder that holds small valid
// inputs (a.npy: float32 8x8, i.npy: int16 8x16, g.pgm: a 16x16 gray image), so that the commands
// get past their first checks; after each run the folder is put back as it was. A run whose
// arguments hold a '/' or '..' is not run: the commands read and write nothing outside the folder.
// The harness enters the folder for each run only (libFuzzer's own paths stay relative to where it
// was started; give -artifact_prefix as an absolute path, as ctest does, since a crash is written
// from inside the folder). stdout and stderr go to /dev/null (libFuzzer's and the sanitizers'
// reports still reach fd 2).
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "npy.hpp"
#include "run.hpp"

namespace {

namespace fs = std::filesystem;

struct Fixture {
  std::string name, bytes;
};
std::vector<Fixture>& fixtures() {
  static std::vector<Fixture> f;
  return f;
}
fs::path& folder() {
  static fs::path p;
  return p;
}
int folder_fd = -1, start_fd = -1;  // the temporary folder; where the fuzzer was started

std::string file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Everything but the fixtures goes; the fixtures are written again (a run may overwrite them).
void restore() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder(), ec)) {
    bool fixture = false;
    for (const auto& f : fixtures()) fixture = fixture || e.path().filename() == f.name;
    if (!fixture) fs::remove_all(e.path(), ec);
  }
  for (const auto& f : fixtures()) {
    std::ofstream out(folder() / f.name, std::ios::binary | std::ios::trunc);
    out.write(f.bytes.data(), static_cast<std::streamsize>(f.bytes.size()));
  }
}

void remove_folder() {
  std::error_code ec;
  fs::remove_all(folder(), ec);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/dctx-fuzz-cli-XXXXXX";
  if (!mkdtemp(dir.data())) std::abort();
  folder() = dir;
  std::atexit(remove_folder);
  start_fd = open(".", O_RDONLY | O_DIRECTORY);
  folder_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (start_fd < 0 || folder_fd < 0 || fchdir(folder_fd) != 0) std::abort();
  std::vector<float> a(64);
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = static_cast<float>(k % 7) - 3.0f;
  std::vector<std::int16_t> i(128);
  for (std::size_t k = 0; k < i.size(); ++k)
    i[k] = static_cast<std::int16_t>(static_cast<int>(k * 37 % 255) - 128);
  dctx::cli::write_npy("a.npy", {8, 8}, a.data());
  dctx::cli::write_npy("i.npy", {8, 16}, i.data());
  std::string pgm = "P5\n16 16\n255\n";
  for (int k = 0; k < 256; ++k) pgm += static_cast<char>(k * 13 % 256);
  fixtures() = {{"a.npy", file_bytes("a.npy")}, {"i.npy", file_bytes("i.npy")}, {"g.pgm", pgm}};
  restore();
  if (fchdir(start_fd) != 0) std::abort();
  // Quiet: the commands print on stdout (fd 1) and through stderr and std::cerr; libFuzzer keeps
  // its own FILE for fd 2, and the sanitizers write to fd 2 directly.
  const int null = open("/dev/null", O_WRONLY);
  if (null < 0 || dup2(null, 1) < 0) std::abort();
  close(null);
  stderr = std::fopen("/dev/null", "w");
  static std::ofstream null_stream("/dev/null");
  std::cerr.rdbuf(null_stream.rdbuf());
  std::clog.rdbuf(null_stream.rdbuf());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"dctx"};
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (std::size_t b = 0; b <= text.size();) {
    std::size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    args.push_back(text.substr(b, e - b));
    b = e + 1;
  }
  if (args.size() > 33) return -1;  // more arguments add nothing the first 32 do not
  for (const auto& a : args)
    if (a.find('/') != std::string::npos || a.find("..") != std::string::npos) return -1;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (fchdir(folder_fd) != 0) std::abort();
  dctx::cli::run(static_cast<int>(args.size()), argv.data());
  restore();
  if (fchdir(start_fd) != 0) std::abort();
  return 0;
}
