// SPDX-License-Identifier: BSD-3-Clause
// The fuzzer's bytes as a file that the readers can open by path: an anonymous in-memory file
// (memfd) per process, rewritten for each input, reached through /proc/self/fd. Nothing touches
// the disk, nothing is left behind, and the library's API stays path-based. A reader that looks at
// the file name's extension gets `suffix`: a symbolic link with that name, in a private temporary
// folder (removed at exit), to the memfd.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace dctx::fuzz {

class InputFile {
 public:
  explicit InputFile(const std::string& suffix = "") {
    fd_ = memfd_create("dctx-fuzz-input", 0);
    if (fd_ < 0) std::abort();
    path_ = "/proc/self/fd/" + std::to_string(fd_);
    if (suffix.empty()) return;
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/dctx-fuzz-XXXXXX";
    if (!mkdtemp(dir.data())) std::abort();
    dir_ = dir;
    const std::string link = dir + "/input" + suffix;
    // The link names this process's descriptor by number, so it is read through /proc/<pid>.
    const std::string target = "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(fd_);
    if (symlink(target.c_str(), link.c_str()) != 0) std::abort();
    path_ = link;
  }
  ~InputFile() {
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
    close(fd_);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// Replaces the file's contents with `data`; returns its path.
  const std::string& write(const std::uint8_t* data, std::size_t size) {
    if (ftruncate(fd_, 0) != 0) std::abort();
    for (std::size_t done = 0; done < size;) {
      const ssize_t n = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
    return path_;
  }

 private:
  int fd_ = -1;
  std::string path_, dir_;
};

}  // namespace dctx::fuzz
