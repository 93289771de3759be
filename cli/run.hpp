// SPDX-License-Identifier: BSD-3-Clause
// The dctx command line as a function, for the executable and for the Python package's command.
#pragma once

namespace dctx::cli {

/// Runs `dctx ARGS...` (argv[0] is the program name); returns the exit status. Errors are printed
/// on stderr as "dctx: error: ..." and give a non-zero status.
int run(int argc, char** argv);

}  // namespace dctx::cli
