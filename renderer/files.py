"""File helpers every stage shares: atomic writes, digests of files, paths as users see them.

Writes are atomic (a temporary file in the same folder, synced, then renamed),
so a reader or an interrupted build never sees half a file.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import OutputError, OutputExistsError

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor


def certainly_missing(path: Path) -> bool:
    """True only when ``path`` does not exist; a folder on the way that cannot be searched (permissions) is no
    proof, so it gives False, where :meth:`pathlib.Path.exists` would raise and :func:`os.path.exists` would
    say it is missing."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except OSError:
        return False
    return False


def display_path(path: Path, *, real: Path | None = None, cwd: Path | None = None) -> str:
    """``path`` relative to the working directory when inside it, with ``/`` separators.  ``real`` and ``cwd``,
    when given, are ``path.resolve()`` and ``Path.cwd().resolve()`` already computed (a loop over many specs)."""
    try:
        return (real or path.resolve()).relative_to(cwd or Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def sha256_hex(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    import hashlib  # only a run that hashes something loads it (OpenSSL starts up in milliseconds)

    return hashlib.sha256(data).hexdigest()


def file_digest_or_none(path: Path) -> str | None:
    """Hex SHA-256 of a regular file's bytes, or ``None`` when it is missing, not regular or unreadable."""
    try:
        return sha256_hex(path.read_bytes()) if path.is_file() else None
    except OSError:
        return None


#: Errors of a stat() that mean there is no file to compare with.
_NOT_THERE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file holding exactly ``data`` (read only when the sizes agree)."""
    try:
        status = path.stat()
    except OSError as exc:
        if exc.errno in _NOT_THERE:  # as Path.is_file() takes them
            return False
        raise
    return stat.S_ISREG(status.st_mode) and status.st_size == len(data) and path.read_bytes() == data


#: Numbers this process's temporary files; with its pid, a name no other writer picks (O_EXCL makes sure).
_TEMPORARY = itertools.count()

#: What a temporary file's name has before its number: the pid of this process, or, in a worker process that
#: stages files for a build (:func:`worker_tag`), the build's pid, ``w`` and the worker's.
_TAG: list[str] = []


def worker_tag(parent: int) -> None:
    """Mark this process as a worker that stages files for the build in process ``parent``: its temporary
    files are named ``.NAME.PARENTwPID-N.tmp``, so that the build can find and remove any it never took
    over (:meth:`Staging.close`)."""
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
    of files at once.  Raises :class:`~renderer.errors.OutputError` naming ``path``; an interrupted write
    leaves no temporary file."""
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = _create(path)
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
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
            raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
        raise
    return temp


def _move(temp: str, path: Path, overwrite: bool) -> None:
    """Rename ``temp`` to ``path`` (with ``overwrite=False`` only where nothing is: see :func:`_link_new`);
    on any failure ``temp`` is removed.  Raises :class:`~renderer.errors.OutputError` naming ``path``, or
    :class:`~renderer.errors.OutputExistsError`."""
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
            raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
        raise


def write_file(path: Path, data: bytes, mode: int | None = None, *, overwrite: bool = True) -> bool:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, synced, then rename).

    ``mode`` is the new file's permission bits (default: ``0o666`` less the
    umask).  Returns False, writing nothing, when the file already holds
    exactly ``data``.  With ``overwrite=False`` the file must not exist: the temporary file is
    hard-linked into place, which fails rather than replace a file that appeared meanwhile, and
    :class:`~renderer.errors.OutputExistsError` is raised when one is there.  Raises
    :class:`~renderer.errors.OutputError` (naming the file) when it cannot write; an interrupted
    write leaves no temporary file behind.  A symbolic link is written through (its target gets the bytes,
    the link stays); a path that is neither a file nor missing (a folder, a device, a FIFO) is refused.
    """
    try:
        if not overwrite and os.path.lexists(path):
            raise _exists(path)
        if overwrite:
            path = _target(path)
        if overwrite and _holds(path, data):
            return False
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
    _move(_temporary(path, data, mode), path, overwrite)
    return True


def _target(path: Path) -> Path:
    """Where writing ``path`` puts its bytes: the target of a symbolic link (the link stays), else ``path``.
    Raises :class:`~renderer.errors.OutputError` for a path that is neither a file nor missing (a folder, a
    device, a FIFO), and ``OSError`` when it cannot be looked at."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    if path.exists() and not path.is_file():
        raise OutputError(f"cannot write {display_path(path)}: it is not a regular file")
    return path


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


def stage_file(path: Path, data: bytes, *, sync: bool = False) -> str | None:
    """The first half of :func:`write_file`: ``data`` written to a new temporary file beside ``path`` (beside
    a symbolic link's target; folder made when missing), whose name is returned for :meth:`Staging.commit`
    to rename; ``None``, writing nothing, when ``path`` already holds exactly ``data``.  In a worker process
    (its temporary names marked by :func:`worker_tag`) the file is not synced here: :meth:`Staging.adopt`
    syncs it on the build's threads, so that no worker waits for the disk; ``sync`` syncs it now.  Raises
    :class:`~renderer.errors.OutputError` naming ``path``."""
    try:
        path = _target(path)
        if _holds(path, data):
            return None
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
    return _temporary(path, data, None, make_folder=not path.parent.is_dir(), sync=sync)


def _synced(temp: str, path: Path) -> str:
    """``temp``, a worker's temporary file for ``path``, synced to disk; raises
    :class:`~renderer.errors.OutputError` naming ``path``."""
    try:
        fd = os.open(temp, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
    return temp


class _Written(threading.Thread):
    """A file of :class:`Staging`'s first owner, written and synced by :func:`stage_file` on a thread of its own,
    answering as a ``Future`` of the pool does: the temporary file's name (``None``: the file held its bytes
    already), or the error writing it raised.  A plain thread, not the pool: one spec's files need no more,
    and :mod:`concurrent.futures` (with :mod:`logging`) would cost such a build more than its writes."""

    def __init__(self, path: Path, data: bytes) -> None:
        super().__init__(name="mechdiagram-write")
        self.path, self.data = path, data
        self.temp: str | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.temp = stage_file(self.path, self.data, sync=True)
        except BaseException as exc:  # raised on the build's thread by result(), as a Future raises it
            self.error = exc

    def _finished(self) -> None:
        if self.ident is not None:  # started (an interrupt may come between the record and the start)
            self.join()

    def result(self) -> str | None:
        """The temporary file's name once written; raises what writing it raised."""
        self._finished()
        if self.error is not None:
            raise self.error
        return self.temp

    def cancelled(self) -> bool:
        """Never: a thread that did not start wrote nothing (:meth:`result` is then ``None``)."""
        return False

    def exception(self) -> BaseException | None:
        """What writing the file raised, once written; ``None`` when it was written."""
        self._finished()
        return self.error


class Staging:
    """Files written in two steps, so that writing overlaps the work that makes them: :meth:`stage` writes
    a file to a temporary file in its folder (synced, as :func:`write_file` does) on a pool of threads,
    or a worker process stages it (:func:`stage_file`) and hands it over with :meth:`adopt`;
    :meth:`commit` then renames the wanted ones into place, and :meth:`close` removes every temporary file
    not renamed.  Each file is staged for an ``owner`` (a spec), so two owners of one name (a collision
    that fails one of them) never share a temporary file.  A file that already holds its bytes is not
    written, and counts as unchanged.

    The first owner's files are written each on a thread of its own, and the pool starts with the second
    owner's: a build of one spec has no rendering to overlap its writes with, and starting a pool (and
    importing :mod:`concurrent.futures`, which brings :mod:`logging`) would cost it more than the writes.
    """

    def __init__(self, folder: Path, threads: int) -> None:
        self.folder, self._threads = folder, threads
        self._pool: ThreadPoolExecutor | None = None
        self._first: str | None = None  # the owner whose files are written on threads of their own
        self._staged: dict[tuple[str, str], Future[str | None] | Future[str] | _Written | None] = {}

    def adopt(self, owner: str, name: str, temp: str | None) -> None:
        """Take over file ``name`` of ``owner`` as a worker process staged it (one marked by
        :func:`worker_tag` with this process's pid): ``temp`` from :func:`stage_file`, ``None`` when the
        file holds its bytes already.  The temporary file is synced on the threads before it is renamed.
        :meth:`close` also removes every temporary file of such workers that was never taken over (an
        interrupted build)."""
        synced = None if temp is None else self._threads_pool().submit(_synced, temp, self.folder / name)
        self._staged[(owner, name)] = synced

    def stage(self, owner: str, name: str, data: bytes) -> None:
        """Start writing ``data`` for file ``name`` of the folder, on behalf of ``owner`` (an error is kept for
        :meth:`commit` to raise)."""
        if self._first is None:
            self._first = owner
        if owner != self._first:
            self._staged[(owner, name)] = self._threads_pool().submit(stage_file, self.folder / name, data, sync=True)
            return
        writer = self._staged[(owner, name)] = _Written(self.folder / name, data)
        writer.start()

    def _threads_pool(self) -> ThreadPoolExecutor:
        if self._pool is None:  # started by the first file: a no-op build starts none
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=self._threads)
        return self._pool

    def commit(self, files: list[tuple[str, str, bytes]]) -> list[bool]:
        """Put each ``(owner, name, data)`` of ``files`` in place, in order: the staged temporary file
        renamed, or, for a file not staged, written now with :func:`write_file`.  Returns for each whether
        it was written (False: the file held those bytes already).  Raises
        :class:`~renderer.errors.OutputError` at the first file that cannot be written; the files before
        it are in place, and :meth:`close` removes the temporary files left."""
        written = []
        for owner, name, data in files:
            key = (owner, name)
            if key not in self._staged:
                written.append(write_file(self.folder / name, data))
                continue
            staged = self._staged.pop(key)
            temp = None if staged is None else staged.result()
            if temp is not None:  # a symbolic link's target gets the bytes: the temporary file is beside it
                try:
                    target = _target(self.folder / name)
                except OSError as exc:
                    shown = display_path(self.folder / name)
                    raise OutputError(f"cannot write {shown}: {exc.strerror or exc}") from exc
                _move(temp, target, True)
            written.append(temp is not None)
        return written

    def close(self) -> None:
        """Wait for the writes under way (those not started are cancelled) and remove every temporary file
        that was not committed."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        for staged in self._staged.values():
            if staged is None or staged.cancelled() or staged.exception() is not None:
                continue
            temp = staged.result()
            if temp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
        self._staged.clear()
        for temp_path in self.folder.glob(f".*.{os.getpid()}w*-*.tmp"):  # a worker's, never taken over
            with contextlib.suppress(OSError):
                temp_path.unlink()


@contextlib.contextmanager
def output_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock (flock) on the output folder itself; no lock file is left behind.
    Where flock does not exist (Windows), builds are not serialised."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY)
    except OSError as exc:
        raise OutputError(f"cannot open {display_path(folder)}: {exc.strerror or exc}") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
