"""The ``mechdiagram`` console script and ``python -m mechdiagram``: import the CLI and run it, so that Ctrl-C
while it is still being imported ends with "Aborted!" (status 1) rather than a traceback."""

from __future__ import annotations

import sys


def run() -> None:
    """Import and run :func:`mechdiagram.cli.run`; the interpreter then ends as usual, with the command's status.
    Raises ``SystemExit`` (1 when interrupted while importing)."""
    try:
        from mechdiagram.cli import run as cli_run  # imported here: a Ctrl-C during the import meets this guard
    except KeyboardInterrupt:
        sys.stderr.write("Aborted!\n")
        raise SystemExit(1) from None
    cli_run()
