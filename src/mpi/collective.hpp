// SPDX-License-Identifier: BSD-3-Clause
// Errors decided together: a check that fails on one rank raises the same dctx::Error on every
// rank, so that no rank goes on into a transpose and waits there for ever.
#pragma once

#include <mpi.h>

#include <string>

#include "dctx/types.hpp"

namespace dctx::mpi::detail {

/// A rank's verdict: empty when its checks passed.
struct Verdict {
  std::string error;
  ErrorKind kind = ErrorKind::InvalidArgument;
};

/// Collective over `comm`. If any rank's verdict holds an error, every rank throws the error of
/// the lowest such rank (prefixed with that rank's number when the communicator has several).
void agree(MPI_Comm comm, const Verdict& mine);

/// Throws dctx::Error naming `call` and MPI's message when `rc` is not MPI_SUCCESS.
void check_mpi(int rc, const char* call);

/// The same string on every rank: `root`'s.
std::string broadcast(MPI_Comm comm, const std::string& s, int root);

}  // namespace dctx::mpi::detail
