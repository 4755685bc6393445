"""The output folder while a build writes it: files staged to temporary files and renamed into place
(:class:`Staging`), the folder's lock, and the temporary files that killed builds left (stale ones).

Writes are atomic (:mod:`mechdiagram.shared.files`); a temporary file's name carries the pid of the process that
made it, and a worker's the build's too, so that one no process will rename can be told and removed.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from mechdiagram.render.outputs import format_of
from mechdiagram.shared.errors import OutputError
from mechdiagram.shared.files import (
    certainly_missing,
    display_path,
    move_into_place,
    stage_file,
    still_resolved,
    write_file,
)
from mechdiagram.site.manifest import INDEX, JOURNAL, MANIFEST


def _synced(temp: str, path: Path) -> str:
    """``temp``, a worker's temporary file for ``path``, synced to disk; raises
    :class:`~mechdiagram.shared.errors.OutputError` naming ``path``."""
    try:
        fd = os.open(temp, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}", path) from exc
    return temp


class Staging:
    """Files written in two steps, so that writing overlaps the work that makes them: :meth:`stage` writes
    a file to a temporary file in its folder (synced, as :func:`~mechdiagram.shared.files.write_file` does) on a pool of
    threads, or a worker process stages it (:func:`~mechdiagram.shared.files.stage_file`) and hands it over with
    :meth:`adopt`; :meth:`commit` then renames the wanted ones into place, and :meth:`close` removes every
    temporary file not renamed.  Each file is staged for an ``owner`` (a spec), so two owners of one name (a
    collision that fails one of them) never share a temporary file.  A file that already holds its bytes is
    not written, and counts as unchanged.  The pool starts with the first file: a no-op build starts none.
    """

    def __init__(self, folder: Path, threads: int) -> None:
        self.folder, self._threads = folder, threads
        self._pool: ThreadPoolExecutor | None = None
        self._staged: dict[tuple[str, str], Future[str | None] | Future[str] | None] = {}

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
        self._staged[(owner, name)] = self._threads_pool().submit(stage_file, self.folder / name, data, sync=True)

    def _threads_pool(self) -> ThreadPoolExecutor:
        if self._pool is None:  # started by the first file: a no-op build starts none
            self._pool = ThreadPoolExecutor(max_workers=self._threads)
        return self._pool

    def commit(self, files: list[tuple[str, str, bytes]]) -> list[bool]:
        """Put each ``(owner, name, data)`` of ``files`` in place, in order: the staged temporary file
        renamed, or, for a file not staged, written now with :func:`write_file`.  Returns for each whether
        it was written (False: the file held those bytes already).  Raises
        :class:`~mechdiagram.shared.errors.OutputError` at the first file that cannot be written; the files before
        it are in place, and :meth:`close` removes the temporary files left."""
        written = []
        for owner, name, data in files:
            key = (owner, name)
            if key not in self._staged:
                written.append(write_file(self.folder / name, data))
                continue
            staged = self._staged.pop(key)
            temp = None if staged is None else staged.result()
            if temp is not None:  # renamed over the name: a symbolic link there is replaced, never followed
                still_resolved(self.folder)
                move_into_place(temp, self.folder / name, True)
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


#: A temporary file's name as :func:`_create` makes it: ``.NAME.PID-N.tmp``, or a worker's
#: ``.NAME.PARENTwPID-N.tmp`` (:func:`worker_tag`).
_TEMPORARY_NAME = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)(?:w(?P<worker>[0-9]+))?-[0-9]+\.tmp")

#: Largest process id of any system (pid_t is a signed 32-bit integer); a larger number names no process of ours.
_PID_LIMIT = 2**31 - 1


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs (signal 0 checks without sending: POSIX ``kill``); on Linux a zombie, which
    has ended and waits only for its exit status to be collected, does not (``/proc/PID/stat``, proc(5)).  Where
    that cannot be asked (Windows, whose ``os.kill`` ends the process), every process counts as alive."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, and belongs to another user
        pass
    try:
        with open(f"/proc/{pid}/stat", "rb") as status:
            return status.read().rpartition(b")")[2].split()[:1] != [b"Z"]
    except OSError:  # no /proc (not Linux), or it ended meanwhile: kill() said it was there
        return True


def stale_temporaries(folder: Path) -> list[str]:
    """The names, sorted, of the temporary files in ``folder`` that no writer will ever rename or remove: those
    named as :func:`~mechdiagram.shared.files.stage_file` names them (``.NAME.PID-N.tmp``,
    ``.NAME.PARENTwPID-N.tmp``) for a NAME a build writes (:func:`_ours`) where neither process named is alive
    (a build or its worker ended by ``kill -9``).  A regular file only, never a link; a file of someone else's
    that looks alike (``.backup.2024-01.tmp``) is not ours.  ``[]`` when the folder cannot be listed.  Call it
    holding :func:`output_lock`, so that no build of ours is between creating a file and naming it."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    stale = []
    for entry in entries:
        match = _TEMPORARY_NAME.fullmatch(entry.name)
        if match is None or not _ours(match["name"]) or not entry.is_file(follow_symlinks=False):
            continue
        pids = [int(match["pid"])] + ([int(match["worker"])] if match["worker"] else [])
        if any(pid <= 0 or pid > _PID_LIMIT for pid in pids):
            continue  # no process has that number: not a name of ours
        if not any(_alive(pid) for pid in pids):
            stale.append(entry.name)
    return sorted(stale)


def _ours(name: str) -> bool:
    """Whether a build writes a file ``name``: an output of a registered format, the manifest, its journal or the
    gallery page (a temporary file of an output whose name was shortened to fit 255 bytes does not count: it is
    left, never a file of someone else's removed)."""
    return name in (MANIFEST, INDEX, JOURNAL) or format_of(name.split(".", 1)[0], name) is not None


@contextlib.contextmanager
def output_lock(folder: Path, *, create: bool = True) -> Iterator[None]:
    """Hold an exclusive advisory lock (flock) on the output folder itself; no lock file is left behind.
    With ``create`` the folder is made when missing; without it (``check``, which writes nothing) a missing
    folder is not locked.  Where flock does not exist (Windows), builds are not serialised.  Raises
    :class:`~mechdiagram.shared.errors.OutputError` naming the folder when it cannot be opened."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    if not create and certainly_missing(folder):
        yield
        return
    try:
        if create:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise OutputError(f"cannot create the output folder {display_path(folder)}: {exc.strerror or exc}",
                                  folder) from exc
        fd = os.open(folder, os.O_RDONLY)
    except OSError as exc:
        raise OutputError(f"cannot open the output folder {display_path(folder)}: {exc.strerror or exc}",
                          folder) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
