// SPDX-License-Identifier: BSD-3-Clause
// Atomic file writes: a mkstemp file in the target folder, then a rename.
#include "core/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

#include "dctx/types.hpp"

namespace dctx::detail {

void write_file_atomic(const std::string& path, const std::string& bytes, std::string_view who) {
  const std::string prefix = who.empty() ? std::string() : std::string(who) + ": ";
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0)
    throw Error(prefix + "cannot create a temporary file next to '" + path +
                "': " + std::strerror(errno));
  std::size_t done = 0;
  int err = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    done += std::size_t(w);
  }
  if (::close(fd) != 0 && !err) err = errno;
  if (!err) {
    // mkstemp creates 0600; give the file the usual permissions (subject to the umask).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(tmp.c_str(), 0666 & ~mask);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  }
  if (err) {
    std::remove(tmp.c_str());
    throw Error(prefix + "cannot write '" + path + "': " + std::strerror(err));
  }
}

}  // namespace dctx::detail
