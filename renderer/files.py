"""File helpers every stage shares: atomic writes, digests of files, paths as users see them.

Writes are atomic (a temporary file in the same folder, synced, then renamed),
so a reader or an interrupted build never sees half a file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from functools import lru_cache
from pathlib import Path

from .errors import OutputError, OutputExistsError


def display_path(path: Path, *, real: Path | None = None, cwd: Path | None = None) -> str:
    """``path`` relative to the working directory when inside it, with ``/`` separators.  ``real`` and ``cwd``,
    when given, are ``path.resolve()`` and ``Path.cwd().resolve()`` already computed (a loop over many specs)."""
    try:
        return (real or path.resolve()).relative_to(cwd or Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def sha256_hex(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def file_digest_or_none(path: Path) -> str | None:
    """Hex SHA-256 of a regular file's bytes, or ``None`` when it is missing, not regular or unreadable."""
    try:
        return sha256_hex(path.read_bytes()) if path.is_file() else None
    except OSError:
        return None


@lru_cache(maxsize=1)
def default_mode() -> int:
    """Permission bits of new output files: ``0o666`` less the process umask (read once: reading it
    means setting it, which must not happen while threads create files)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_file(path: Path, data: bytes, mode: int | None = None, *, overwrite: bool = True) -> bool:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, then rename).

    ``mode`` is the new file's permission bits (default: ``0o666`` less the
    umask).  Returns False, writing nothing, when the file already holds
    exactly ``data``.  With ``overwrite=False`` the file must not exist: the temporary file is
    hard-linked into place, which fails rather than replace a file that appeared meanwhile, and
    :class:`~renderer.errors.OutputExistsError` is raised when one is there.  Raises
    :class:`~renderer.errors.OutputError` (naming the file) when it cannot write; an interrupted
    write leaves no temporary file behind.
    """
    import tempfile  # here: commands that write nothing never load it

    try:
        if not overwrite and os.path.lexists(path):
            raise _exists(path)
        if overwrite and path.is_file() and path.read_bytes() == data:
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), default_mode() if mode is None else mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if overwrite:
            os.replace(temp, path)
        else:
            _link_new(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, FileExistsError):
            raise _exists(path) from exc
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
        raise
    return True


def _exists(path: Path) -> OutputExistsError:
    return OutputExistsError(path, f"{display_path(path)} exists already; it is left as it was")


def _link_new(temp: str, path: Path) -> None:
    """Move ``temp`` to ``path`` only when nothing is at ``path`` (a hard link fails on an existing name).

    On a file system without hard links, the check and the rename are two steps.
    """
    try:
        os.link(temp, path)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(path):
            raise FileExistsError(17, "File exists", str(path)) from None
        os.replace(temp, path)
        return
    os.unlink(temp)
