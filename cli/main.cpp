// SPDX-License-Identifier: BSD-3-Clause
// dctx command-line tool: argument parsing only (run.cpp and the *_cmd.cpp files); the work is in
// the library.
#include "run.hpp"

int main(int argc, char** argv) { return dctx::cli::run(argc, argv); }
