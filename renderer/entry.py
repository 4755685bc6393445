"""The ``mechdiagram`` console script: starts the CLI with nothing heavy imported first,
so that Ctrl-C during start-up ends with "Aborted!" rather than a traceback."""

import gc
import sys

#: Allocations between two collections of the youngest generation (CPython's default is 700).
#: Start-up makes a few hundred thousand objects that live as long as the process (modules, classes,
#: functions), and at 700 the collector walks them some hundreds of times: 5 to 10 ms of a command's
#: start.  Garbage that is not a cycle is freed at once all the same; cycles wait a little longer.
YOUNG_COLLECTION_THRESHOLD = 50_000


def run() -> None:
    """Import and run :func:`renderer.cli.run`; exit status 1 when interrupted while importing."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_COLLECTION_THRESHOLD), middle, old)
    try:
        from .cli import run as cli_run
    except KeyboardInterrupt:
        sys.stderr.write("Aborted!\n")
        raise SystemExit(1) from None
    cli_run()
