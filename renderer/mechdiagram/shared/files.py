"""File helpers every stage shares: atomic writes, digests of files, paths as users see them.

Writes are atomic (a temporary file in the same folder, synced, then renamed),
so a reader or an interrupted build never sees half a file.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import os
import stat
from pathlib import Path

from mechdiagram.shared.errors import OutputError, OutputExistsError


def certainly_missing(path: Path) -> bool:
    """True only when ``path`` does not exist; a folder on the way that cannot be searched (permissions) is no
    proof, so it gives False, where :meth:`pathlib.Path.exists` would raise and :func:`os.path.exists` would
    say it is missing."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL, which no file name holds
        return True
    except OSError:
        return False
    return False


def display_path(path: Path, *, real: Path | None = None, cwd: Path | None = None) -> str:
    """``path`` relative to the working directory when inside it, with ``/`` separators.  ``real`` and ``cwd``,
    when given, are ``path.resolve()`` and ``Path.cwd().resolve()`` already computed (a loop over many specs)."""
    try:
        return (real or path.resolve()).relative_to(cwd or Path.cwd().resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):  # outside the folder; a link that leads to itself (3.11: RuntimeError)
        return path.as_posix()


def display_named(path: Path) -> str:
    """``path`` as :func:`display_path` shows it, but as named: its folder resolved and its own name kept, so that
    a symbolic link is shown where it is, not where it leads."""
    return display_path(path, real=path.parent.resolve() / path.name)


def sha256_hex(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def file_digest_or_none(path: Path) -> str | None:
    """Hex SHA-256 of a regular file's bytes, or ``None`` when it is missing, not regular, a symbolic link (never
    followed: the files compared are those of an output folder, where a link is not ours) or unreadable."""
    data = read_regular(path)
    return None if data is None else sha256_hex(data)


def read_regular(path: Path) -> bytes | None:
    """The bytes of ``path`` when it is a regular file, never through a symbolic link (``O_NOFOLLOW``); ``None``
    when it is missing, a link, not a regular file (a FIFO would hang a plain read) or unreadable."""
    try:
        fd = os.open(path, os.O_RDONLY | _NO_FOLLOW | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with open(fd, "rb", closefd=False) as file:
            return file.read()
    except OSError:
        return None
    finally:
        os.close(fd)


def is_link(path: Path) -> bool:
    """Whether ``path`` is a symbolic link (a dangling one too); ``False`` when it cannot be looked at."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


#: Opens a file but not a symbolic link (``O_NOFOLLOW``; where it does not exist, the link is looked at first).
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)

#: Errors of a stat() that mean there is no file to compare with.
_NOT_THERE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file, not a symbolic link, holding exactly ``data`` (read only when the
    sizes agree)."""
    try:
        status = os.lstat(path)
    except OSError as exc:
        if exc.errno in _NOT_THERE:  # as Path.is_file() takes them
            return False
        raise
    return stat.S_ISREG(status.st_mode) and status.st_size == len(data) and read_regular(path) == data


#: Numbers this process's temporary files; with its pid, a name no other writer picks (O_EXCL makes sure).
_TEMPORARY = itertools.count()

#: What a temporary file's name has before its number: the pid of this process, or, in a worker process that
#: stages files for a build (:func:`worker_tag`), the build's pid, ``w`` and the worker's.
_TAG: list[str] = []


def worker_tag(parent: int) -> None:
    """Mark this process as a worker that stages files for the build in process ``parent``: its temporary
    files are named ``.NAME.PARENTwPID-N.tmp``, so that the build can find and remove any it never took
    over (:meth:`mechdiagram.site.staging.Staging.close`)."""
    _TAG[:] = [f"{parent}w{os.getpid()}"]

#: Names tried for one temporary file before giving up (another writer holding every one of them).
_ATTEMPTS = 100

#: Longest file name, in bytes, of the file systems mechdiagram writes to (ext4, APFS, NTFS: 255).
_NAME_MAX = 255


def _create(path: Path) -> tuple[int, str]:
    """A new, empty temporary file beside ``path``, ``.NAME.PID-N.tmp``, open for writing; created with
    ``0o666`` less the umask, never through an existing name or link (O_EXCL)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(_ATTEMPTS):
        suffix = f".{_TAG[0] if _TAG else os.getpid()}-{next(_TEMPORARY)}.tmp"
        # The name is shortened where it would pass the file system's limit (255 bytes): a name that fits
        # there fits here, whatever process writes it.
        stem = path.name.encode()[:_NAME_MAX - 1 - len(suffix)].decode(errors="ignore")
        temp = os.path.join(path.parent, f".{stem}{suffix}")
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file", str(path.parent))


def _temporary(path: Path, data: bytes, mode: int | None, *, make_folder: bool = True, sync: bool = True) -> str:
    """Write ``data`` to a new temporary file in ``path``'s folder (made first, unless ``make_folder`` is
    False), synced to disk, with permission bits ``mode`` (default: ``0o666`` less the umask); returns its name.
    Plain file descriptors, no file object: few system calls, which matters when threads write hundreds
    of files at once.  Raises :class:`~mechdiagram.shared.errors.OutputError` naming ``path``; an interrupted write
    leaves no temporary file."""
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = _create(path)
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}", path) from exc
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}", path) from exc
        raise
    return temp


def move_into_place(temp: str, path: Path, overwrite: bool) -> None:
    """Rename ``temp`` to ``path`` (with ``overwrite=False`` only where nothing is: see :func:`_link_new`);
    on any failure ``temp`` is removed.  Raises :class:`~mechdiagram.shared.errors.OutputError` naming ``path``, or
    :class:`~mechdiagram.shared.errors.OutputExistsError`."""
    try:
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
            raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}", path) from exc
        raise


def write_file(path: Path, data: bytes, mode: int | None = None, *, overwrite: bool = True) -> bool:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, synced, then rename).

    ``mode`` is the new file's permission bits (default: ``0o666`` less the
    umask).  Returns False, writing nothing, when the file already holds
    exactly ``data``.  With ``overwrite=False`` the file must not exist: the temporary file is
    hard-linked into place, which fails rather than replace a file that appeared meanwhile, and
    :class:`~mechdiagram.shared.errors.OutputExistsError` is raised when one is there (a symbolic link, dangling or not,
    is there).  Raises :class:`~mechdiagram.shared.errors.OutputError` (naming the file) when it cannot write; an
    interrupted write leaves no temporary file behind.  A symbolic link at ``path`` is never followed: the
    rename replaces the link itself with a regular file, so nothing outside ``path``'s folder is written
    (callers that want a link's target written resolve the path first, as ``hash --write`` does); a path that
    is neither a file, a link nor missing (a folder, a device, a FIFO) is refused.
    """
    try:
        if not overwrite and os.path.lexists(path):
            raise _exists(path)
        if overwrite:
            replaceable(path)
        if overwrite and _holds(path, data):
            return False
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}", path) from exc
    move_into_place(_temporary(path, data, mode), path, overwrite)
    return True


def replaceable(path: Path) -> None:
    """Raises :class:`~mechdiagram.shared.errors.OutputError` naming ``path`` when it is neither missing, a regular
    file nor a symbolic link (a folder, a device, a FIFO: a rename would fail on the first and replace the
    others), or cannot be looked at.  A link is not followed: writing replaces it."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        if exc.errno in _NOT_THERE:
            return
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}", path) from exc
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise OutputError(f"cannot write {display_path(path)}: it is not a regular file", path)


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


def still_resolved(folder: Path) -> None:
    """Check that ``folder``, resolved once when the build began, still is: no link has been swapped in for it
    or for a folder above it since (another process renaming the output folder away and linking elsewhere).
    Raises :class:`~mechdiagram.shared.errors.OutputError` when one has, so that nothing more is written there.
    The check and the write that follows are two steps: a swap between them is not caught."""
    if os.path.realpath(folder) != str(folder):
        raise OutputError(f"the output folder {folder} was moved or replaced by a link during the build; nothing "
                          "more was written there: check it, then build again", folder)


def stage_file(path: Path, data: bytes, *, sync: bool = False) -> str | None:
    """The first half of :func:`write_file`: ``data`` written to a new temporary file beside ``path`` (folder
    made when missing), whose name is returned for :meth:`mechdiagram.site.staging.Staging.commit` to rename;
    ``None``, writing nothing, when ``path`` already holds exactly ``data`` (a symbolic link never does: it is
    replaced, not followed).  The folder must still be the one resolved when the build began
    (:func:`still_resolved`).  In a worker process (its temporary names marked by :func:`worker_tag`) the file
    is not synced here: :meth:`mechdiagram.site.staging.Staging.adopt` syncs it on the build's threads, so that
    no worker waits for the disk; ``sync`` syncs it now.  Raises :class:`~mechdiagram.shared.errors.OutputError`
    naming ``path``."""
    still_resolved(path.parent)
    try:
        replaceable(path)
        if _holds(path, data):
            return None
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}", path) from exc
    return _temporary(path, data, None, make_folder=not path.parent.is_dir(), sync=sync)
