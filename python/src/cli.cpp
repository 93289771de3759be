// SPDX-License-Identifier: BSD-3-Clause
// _cli_main, behind the `dctx` command of the Python package (dctx/__main__.py: the console script
// and `python -m dctx`): the C++ command line itself (cli/, dctx::cli::run), linked into the
// extension, so the package's command is the same program as the standalone tool. Without the CLI
// (DCTX_PY_HAS_CLI 0: a project build with DCTX_BUILD_CLI=OFF) nothing is bound and
// _dctx.has_cli stays False.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdio>
#include <string>
#include <vector>

#include "binding.hpp"

#if DCTX_PY_HAS_CLI
#include "run.hpp"
#endif

namespace dctx_py {

#if DCTX_PY_HAS_CLI
namespace {

/// Flushes sys.stdout and sys.stderr (when they exist and can be flushed): what Python printed
/// before the call comes out before what the C++ side prints with printf and iostreams.
void flush_python_streams() {
  nb::module_ sys = nb::module_::import_("sys");
  for (const char* name : {"stdout", "stderr"}) {
    nb::object stream = sys.attr(name);
    if (stream.is_none() || !nb::hasattr(stream, "flush")) continue;
    stream.attr("flush")();
  }
}

int cli_main(const std::vector<std::string>& argv) {
  if (argv.empty()) raise_value("_cli_main: argv must hold at least the program name");
  flush_python_streams();
  // dctx::cli::run takes a C argv: writable, NUL-terminated strings and a null after the last.
  std::vector<std::string> args(argv);
  std::vector<char*> cargv;
  cargv.reserve(args.size() + 1);
  for (std::string& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int status;
  {
    nb::gil_scoped_release release;
    status = dctx::cli::run(int(args.size()), cargv.data());
    std::fflush(stdout);
    std::fflush(stderr);
  }
  return status;
}

}  // namespace

void bind_cli(nb::module_& m) {
  m.attr("has_cli") = true;
  m.def("_cli_main", &cli_main, nb::arg("argv"),
        "Runs the dctx command line with argv (argv[0]: the program name) and returns its exit "
        "status. It writes to the process's stdout and stderr.");
}
#else
void bind_cli(nb::module_&) {}
#endif

}  // namespace dctx_py
