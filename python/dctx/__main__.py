# SPDX-License-Identifier: BSD-3-Clause
"""The ``dctx`` command: ``python -m dctx ...`` and the console script that pip installs.

It runs the C++ command line (``cli/``, ``dctx::cli::run``) that is linked into the extension, so
``dctx transform``, ``dctx block8``, ``dctx backends``, ... behave exactly as the standalone tool
of the C++ build. Usage: ``dctx --help``.
"""

import sys


def main(argv=None):
    """Runs ``dctx ARGS...`` (``argv``: the arguments, default ``sys.argv[1:]``) and exits with its
    status."""
    from . import _dctx

    args = sys.argv[1:] if argv is None else list(argv)
    if not getattr(_dctx, "has_cli", False):
        print("dctx: error: this build of the dctx package has no command line "
              "(configured with DCTX_BUILD_CLI=OFF)", file=sys.stderr)
        sys.exit(2)
    sys.exit(_dctx._cli_main(["dctx", *args]))


if __name__ == "__main__":
    main()
