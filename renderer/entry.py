"""The ``mechdiagram`` console script: starts the CLI with nothing heavy imported first, so that Ctrl-C
during start-up ends with "Aborted!" rather than a traceback, and leaves without tearing the interpreter
down.

Start-up makes a few hundred thousand objects that live as long as the process (modules, classes,
functions).  Two costs follow from them, and the console script avoids both:

- the young-generation collector walks them some hundreds of times while they are made (5 to 10 ms), so it
  runs less often (:data:`YOUNG_COLLECTION_THRESHOLD`);
- interpreter finalisation frees them one by one once the command is done (15 to 30 ms of every command,
  as much as a third of ``validate``), so the script ends the process at once instead (:func:`leave`),
  after doing what finalisation does that anyone could see: the threads are waited for, the
  :mod:`atexit` functions run and standard output and error are flushed.  Instagram's servers end this way
  (``atexit.register(os._exit, 0)``) for the same reason.

:func:`renderer.cli.main`, which the tests and ``CliRunner`` call, is untouched by either, and
``python -m renderer`` ends as Python does (a profiler or debugger around it does its own exit work).
"""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # not imported at run time: the earlier Ctrl-C meets the guard of run(), the better
    from typing import NoReturn

#: Allocations between two collections of the youngest generation (CPython's default is 700).
#: Garbage that is not a cycle is freed at once all the same; cycles wait a little longer.
YOUNG_COLLECTION_THRESHOLD = 50_000

#: Python's exit status when standard output cannot be flushed at exit (a closed pipe).
FLUSH_FAILED = 120


def exit_status(code: object) -> int:
    """The process exit status of ``SystemExit(code)``, as the interpreter derives it: ``None`` is 0, an
    integer is itself, anything else is printed to standard error and gives 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")
    return 1


def leave(code: object) -> NoReturn:
    """End the process with the status of ``SystemExit(code)``, skipping the interpreter's teardown.

    In the order finalisation takes them: threads other than the main one are waited for (as
    ``threading._shutdown`` does, after the thread pools' exit hooks), the :mod:`atexit` functions run,
    and standard output and error are flushed; a flush that fails (a reader that went away) gives status
    120, as the interpreter's own exit does.  Objects are not freed, nor modules torn down: the operating
    system takes the memory back, and every file mechdiagram writes is closed where it is written."""
    status = exit_status(code)
    threading = sys.modules.get("threading")  # not imported: no thread was ever started from Python
    if threading is not None:
        # What finalisation calls first: the thread pools' exit hooks, then a join of every other thread.
        threading._shutdown()  # private, and what finalisation calls: the module offers no other way
    import atexit

    atexit._run_exitfuncs()  # private, and what finalisation calls: the module offers no other way
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            status = status or FLUSH_FAILED
    os._exit(status)


def run(*, teardown: bool = False) -> NoReturn:
    """Import and run :func:`renderer.cli.run`, then :func:`leave` with its status (1 when interrupted
    while importing).  With ``teardown`` (``python -m renderer``, which profilers, debuggers and
    ``runpy`` callers wrap) the status is raised as ``SystemExit`` instead, and the interpreter ends as usual,
    its callers' own exit work included."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_COLLECTION_THRESHOLD), middle, old)
    end = _raise if teardown else leave
    try:
        from .cli import run as cli_run
    except KeyboardInterrupt:
        sys.stderr.write("Aborted!\n")
        end(1)
    try:
        cli_run()
    except SystemExit as exc:
        end(exc.code)
    end(0)


def _raise(code: object) -> NoReturn:
    raise SystemExit(code)
