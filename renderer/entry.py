"""The ``mechdiagram`` console script: starts the CLI with nothing heavy imported first,
so that Ctrl-C during start-up ends with "Aborted!" rather than a traceback."""

import sys


def run() -> None:
    """Import and run :func:`renderer.cli.run`; exit status 1 when interrupted while importing."""
    try:
        from .cli import run as cli_run
    except KeyboardInterrupt:
        sys.stderr.write("Aborted!\n")
        raise SystemExit(1) from None
    cli_run()
