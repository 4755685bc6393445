"""Child processes of a build (the worker processes of :mod:`mechdiagram.site.workers`, the process that renders
a site's templates in :mod:`mechdiagram.render.confined`): each ends when the process that started it ends."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

#: ``prctl(2)``'s option that asks the kernel for a signal when the parent process ends (``<linux/prctl.h>``).
PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """On Linux, have the kernel send this process SIGTERM when ``parent`` (the process that started it) ends,
    even by ``kill -9`` (``prctl(PR_SET_PDEATHSIG)``, prctl(2)); a parent already gone ends this process now.
    Other systems have no such request: there a child of a killed build ends when it next finds its pipe
    closed, or at its own limits (best effort, as the README says)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # a C library without prctl: best effort, as elsewhere
        return
    if os.getppid() != parent:  # the parent ended before the request was made
        signal.raise_signal(signal.SIGTERM)
