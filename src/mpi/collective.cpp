// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/collective.hpp"

#include <cstdint>

namespace dctx::mpi::detail {

void check_mpi(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  throw Error(std::string(call) + " failed: " +
                  (len ? std::string(text, std::size_t(len)) : "MPI error " + std::to_string(rc)),
              ErrorKind::DeviceFailure);
}

std::string broadcast(MPI_Comm comm, const std::string& s, int root) {
  int rank = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  std::uint64_t n = s.size();
  check_mpi(MPI_Bcast(&n, 1, MPI_UINT64_T, root, comm), "MPI_Bcast");
  std::string out = rank == root ? s : std::string(std::size_t(n), '\0');
  if (n) check_mpi(MPI_Bcast(out.data(), int(n), MPI_CHAR, root, comm), "MPI_Bcast");
  return out;
}

void agree(MPI_Comm comm, const Verdict& mine) {
  int rank = 0, size = 1;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  const int candidate = mine.error.empty() ? size : rank;
  int first = size;
  check_mpi(MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == size) return;
  std::string text = mine.error;
  if (text.size() > (1u << 20)) text.resize(1u << 20);
  text = broadcast(comm, text, first);
  int kind = int(mine.kind);
  check_mpi(MPI_Bcast(&kind, 1, MPI_INT, first, comm), "MPI_Bcast");
  if (size > 1) text = "rank " + std::to_string(first) + ": " + text;
  throw Error(text, ErrorKind(kind));
}

}  // namespace dctx::mpi::detail
