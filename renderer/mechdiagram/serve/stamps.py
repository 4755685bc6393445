"""What the served files look like on disk, so that the watcher catches a save its file-system events missed.

watchfiles can lose an event: when its wait for changes times out, it clears the changes it holds, and a
change that arrives between its last look and that clear is dropped (``RustNotify.watch`` in watchfiles'
``src/lib.rs``); the kernel's event queue can overflow, too.  So each time the watcher wakes with no change
(every ``WAKE_MS``), it compares the files with what they were when the last build began: each spec file
given or read by the last build, each declared source, and the templates of ``--template-dir``.  These
are a handful of ``stat`` calls: no folder is walked but the template folder.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from msgspec import Struct

from mechdiagram.spec.provenance import linked_folders

#: A path's (modification time in ns, size in bytes); (-1, -1) when it is missing or unreadable.
Stat = tuple[int, int]

#: How far, in ns, a file's modification time may lag the clock: the kernel stamps files from a coarse
#: clock, so a save just after a build began may carry a time a few milliseconds before it.
CLOCK_SLACK_NS = 50_000_000


def _stat(path: Path) -> Stat:
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return (-1, -1)
    return (found.st_mtime_ns, found.st_size)


def disk_state(specs: list[Path], spec_files: frozenset[Path], sources: frozenset[Path],
               templates: Path | None = None) -> dict[Path, Stat]:
    """The :data:`Stat` of every file the preview depends on: each of ``specs`` given as a file, the
    ``spec_files`` the last build read, each of ``sources`` (resolved), and every file of ``templates``
    (``--template-dir``) and its folders.  Folders themselves are not compared: a file that comes and goes
    beside a spec (an editor's swap file) changes nothing; a new spec file in a folder is left to the
    file-system events."""
    state: dict[Path, Stat] = {}
    for folder in linked_folders(templates) if templates is not None else []:
        with contextlib.suppress(OSError):
            state.update((path, _stat(path)) for path in folder.iterdir() if not path.is_dir())
    for spec in specs:
        if not spec.is_dir():
            resolved = spec.resolve()
            state[resolved] = _stat(resolved)
    for path in (*spec_files, *sources):
        state[path] = _stat(path)
    return state


class DiskStamp(Struct, frozen=True):
    """The watched files as a build found them: ``state`` from :func:`disk_state` and ``started``, the wall
    clock (ns since the epoch) when the build began."""

    state: dict[Path, Stat]
    started: int

    def changed(self, now: dict[Path, Stat]) -> bool:
        """Whether ``now`` (a later :func:`disk_state`) shows a save since the build began: a path both hold
        that differs, or a path only ``now`` holds (a source the build declared, a new spec file) modified
        after the build began."""
        return any(self.state[path] != stat if path in self.state
                   else stat[0] >= self.started - CLOCK_SLACK_NS
                   for path, stat in now.items())
