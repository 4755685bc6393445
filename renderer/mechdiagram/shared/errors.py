"""The one exception hierarchy of mechdiagram, independent of any user interface.

Every error that stops a command derives from :class:`MechdiagramError`; bad
input in a spec is never an exception but a finding (:mod:`mechdiagram.shared.findings`).
Only :mod:`mechdiagram.cli` turns these exceptions into click errors, with the
exit status in :attr:`MechdiagramError.exit_code` (1 for a failed run, 2 for a
usage error, as click uses it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

SourceStatus = Literal["verified", "unpinned", "unverified", "mismatch", "missing", "refused", "unreadable"]


class MechdiagramError(Exception):
    """Base of every error that stops a mechdiagram command; the message names the file and the reason.
    ``rule`` names the kind of error where ``--format json`` or ``github`` reports it as a finding."""

    exit_code = 1
    rule = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its attributes, whatever its ``__init__`` takes (``path``, ``status``): an error raised
        in a child process (:mod:`mechdiagram.render.confined`) comes back to the build as it was."""
        return (_rebuilt, (type(self), self.args, self.__dict__))


def _rebuilt(kind: type[MechdiagramError], args: tuple[Any, ...], state: dict[str, Any]) -> MechdiagramError:
    """The error :meth:`MechdiagramError.__reduce__` pickled."""
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class UsageError(MechdiagramError):
    """The command line asks for something that cannot be done (a missing spec, an output path that is a file)."""

    exit_code = 2
    rule = "usage"


class ConfigError(MechdiagramError):
    """``pyproject.toml`` cannot be read or its ``[tool.mechdiagram]`` table is wrong."""

    rule = "config"


class OutputError(MechdiagramError):
    """An output file cannot be written or deleted (the message names it); ``path`` is that file or folder, which
    ``--format json`` and ``github`` report the error at, when it is known."""

    rule = "output-write"

    def __init__(self, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.path = path


class FileSystemError(MechdiagramError):
    """The operating system refused an operation on a named file or folder that mechdiagram reads or writes (a
    folder that cannot be read or searched, a disk that is full): not a bug, and the message says which file
    and why.  ``path`` is that file."""

    rule = "file-system"

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


class WorkerError(MechdiagramError):
    """A worker process of a build ended without a result (killed, for instance by the kernel for want of
    memory)."""

    rule = "worker"


class OutputExistsError(OutputError):
    """A file that must be new (``mechdiagram new``) exists already; ``path`` is that file."""

    path: Path

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message, path)


class OutOfMemoryError(MechdiagramError):
    """The process ran out of memory (``MemoryError``): not a bug, and the message says what to do."""

    rule = "memory"

    def __init__(self, message: str = ("out of memory: the specs need more memory than this machine gives the "
                                       "process; build fewer specs at once (-j 1), or split the largest spec")) -> None:
        super().__init__(message)


class HashError(MechdiagramError):
    """``mechdiagram hash``: a file cannot be read, or a spec whose digests cannot be written."""

    rule = "hash"


class CommandFailedError(MechdiagramError):
    """A command finished but failed; what failed was printed already and the message sums it up."""


class SourcePathError(MechdiagramError):
    """A source path that is absolute, climbs out of the source root, or is not a regular file.

    ``status`` is ``refused``, ``missing`` or ``unreadable``; the message says why.
    """

    def __init__(self, status: SourceStatus, message: str) -> None:
        super().__init__(message)
        self.status: SourceStatus = status


class TimelineError(MechdiagramError):
    """A timeline whose windows overlap, leave a gap, or are shorter than the shortest step."""


class RenderError(MechdiagramError):
    """A drawing was asked for something the scenario does not have (a still frame past its last step)."""


class ServeError(MechdiagramError):
    """``mechdiagram serve`` cannot listen on its port (in use, or not allowed)."""


class TemplateError(MechdiagramError):
    """A template of ``--template-dir`` cannot be read or rendered (a syntax error, an unknown name); the message
    names the template and, where jinja2 knows it, the line."""

    rule = "template"


class RasterError(UsageError):
    """PNG or GIF output was asked for without the rasteriser (the ``raster`` extra), or the rasteriser
    refused a drawing; the message says which and what to install."""

    rule = "raster"
