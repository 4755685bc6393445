"""Stage 6, rendering: a site's templates (``--template-dir``) render in a child process under a time and a
memory limit.

A site's templates are code of the site's own, and jinja2's sandbox keeps them from Python's internals but
not from looping or allocating without bound (``{% set x = 3**(10**8) %}`` runs for hours): in the build
process that would hang a build, ``check``, a pre-commit hook and every later rebuild of ``serve``.  So
:func:`run_confined` runs the rendering in a child process, a new interpreter in isolated mode running
:func:`main` (not :mod:`multiprocessing`, whose start methods would either fork a process that may have
threads, such as ``serve``, or run the caller's own main script again), which ends with the build
(:func:`~mechdiagram.shared.processes.end_with_parent`) and sets its resource limits first (``setrlimit(2)``:
``RLIMIT_CPU`` of :data:`CPU_SECONDS`, ``RLIMIT_AS`` of :data:`MEMORY_BYTES`, or lower limits it inherited);
the job and its answer go through the child's standard input and output, pickled.  The build waits at most
:data:`WALL_SECONDS` for it, in case the child waits without using CPU time.  Past a limit
the child ends and the caller gets a :class:`~mechdiagram.shared.errors.TemplateError` that says which.
The package's own templates render in the build process, as before: they are ours.

The limits are far above what the largest spec the format's limits allow takes (its SVG and HTML rendered
in about 10 s of CPU and under 500 MB; ``bench/bench_limits.py``).
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mechdiagram.shared.errors import MechdiagramError, TemplateError
from mechdiagram.shared.processes import end_with_parent

if sys.platform != "win32":  # Windows has no setrlimit: there the wall-clock limit alone holds
    import resource

#: CPU seconds the rendering of one spec's outputs may take with a site's templates (``RLIMIT_CPU``).
CPU_SECONDS = 60
#: Address space, in bytes, the child process rendering with a site's templates may map (``RLIMIT_AS``).
MEMORY_BYTES = 2 * 1024 ** 3
#: Seconds of wall-clock time the build waits for the child before it ends it.
WALL_SECONDS = 2 * CPU_SECONDS

T = TypeVar("T")


def run_confined(function: Callable[..., T], args: tuple[Any, ...], what: str) -> T:
    """``function(*args)`` in a child process under :data:`CPU_SECONDS` of CPU and :data:`MEMORY_BYTES` of
    address space, waiting at most :data:`WALL_SECONDS` of wall-clock time; its return value.  ``function``
    (a module-level function of this package), ``args`` and the value must be picklable.

    Raises the :class:`~mechdiagram.shared.errors.MechdiagramError` that ``function`` raised; a
    :class:`~mechdiagram.shared.errors.TemplateError` naming ``what`` (e.g. "the templates of site/ (while
    rendering a.mechanism.json)") when a limit is passed or the child ends without an answer; and any other
    error of the child (a bug of ours) as it was raised there, its traceback there added as a note.
    """
    cpu, memory, wall = CPU_SECONDS, MEMORY_BYTES, WALL_SECONDS
    job = pickle.dumps((os.getpid(), function, args, cpu, memory), protocol=pickle.HIGHEST_PROTOCOL)
    try:
        done = subprocess.run(_command(), input=job, capture_output=True, timeout=wall, check=False)
    except subprocess.TimeoutExpired as exc:  # subprocess.run has killed the child
        raise TemplateError(f"{what}: stopped after {wall:g} s without finishing, the limit for a site's "
                            "templates") from exc
    if sys.platform != "win32" and done.returncode == -signal.SIGXCPU:
        raise TemplateError(f"{what}: stopped after {cpu} s of CPU time, the limit for a site's templates "
                            "(a loop or a computation without bound?)")
    try:
        kind, value = pickle.loads(done.stdout)
    except Exception:  # no answer, or half of one: the child ended early
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        killed = sys.platform != "win32" and done.returncode == -signal.SIGKILL
        how = "it was killed (by the kernel, for want of memory?)" if killed else f"exit status {done.returncode}"
        raise TemplateError(f"{what}: the process rendering them ended without an answer ({how})"
                            + (": " + " / ".join(said) if said else "")) from None
    if kind == "value":
        result: T = value
        return result
    if kind == "memory":
        raise TemplateError(f"{what}: used more than {memory // 1024 ** 2} MiB of memory, the limit for a site's "
                            "templates (a value without bound?)")
    raise value  # the error it raised: ours ("error"), or a bug of ours ("bug"), which the caller reports as one


def _command() -> list[str]:
    """The child's command line: this interpreter in isolated mode (``-I``: neither the working folder, nor
    ``PYTHON*`` variables, nor the user's site folder decide what it imports, so a ``pickle.py`` beside a spec
    never runs), with the folder this package was imported from added to its module path when it is not on it
    already (a source checkout), after the standard library's."""
    start = ("import os, sys\n"
             f"root = {str(Path(__file__).resolve().parents[2])!r}\n"
             "if root not in map(os.path.realpath, sys.path): sys.path.append(root)\n"
             "from mechdiagram.render.confined import main\n"
             "main()\n")
    return [sys.executable, "-I", "-c", start]


def _limit(which: int, soft: int, hard: int) -> None:
    """Set resource limit ``which`` to ``soft`` and ``hard``, each at most the hard limit this process inherited
    (a process cannot raise its hard limit).  POSIX only."""
    _, inherited = resource.getrlimit(which)
    if inherited != resource.RLIM_INFINITY:
        soft, hard = min(soft, inherited), min(hard, inherited)
    resource.setrlimit(which, (soft, hard))


def main() -> None:
    """The child process: reads the pickled job from standard input, ends with the build (SIGTERM when it
    ends), sets its limits, runs the job, and writes the pickled answer to standard output:
    ``("value", result)``, ``("error", MechdiagramError)``, ``("memory", None)`` or ``("bug", exception)``,
    the exception noted with its traceback (or, when it cannot be pickled, a :class:`RuntimeError` that names
    it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the build's to report
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent, function, args, cpu, memory = pickle.loads(sys.stdin.buffer.read())
    end_with_parent(parent)
    if sys.platform != "win32":
        _limit(resource.RLIMIT_CPU, cpu, cpu + 1)  # SIGXCPU at the limit, SIGKILL a second later
        _limit(resource.RLIMIT_AS, memory, memory)
    try:
        answer: tuple[str, Any] = ("value", function(*args))
    except MechdiagramError as exc:
        answer = ("error", exc)
    except MemoryError:
        answer = ("memory", None)
    except Exception as exc:  # a bug of ours: it goes to the build, which reports it as one
        exc.add_note(f"In the process rendering with a site's templates:\n{traceback.format_exc()}")
        answer = ("bug", exc)
    try:
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        data = pickle.dumps(("memory", None))
    except Exception:  # an exception that does not pickle
        bug = RuntimeError(f"{type(answer[1]).__name__}: {answer[1]}")
        bug.add_note(getattr(answer[1], "__notes__", [""])[-1])
        data = pickle.dumps(("bug", bug))
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
