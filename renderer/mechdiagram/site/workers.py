"""Stage 7, build: the worker processes of a run over many specs (:func:`start_pool`, :func:`stop`).

:func:`mechdiagram.site.build.execute` imports this module only when enough specs are left to render
(:data:`~mechdiagram.site.build.PARALLEL_THRESHOLD`): a run over one spec, as a person runs ``validate`` or
``build`` by hand, starts no process and loads neither :mod:`multiprocessing` nor :mod:`ctypes` (of
:mod:`mechdiagram.shared.processes`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from mechdiagram.shared.files import worker_tag
from mechdiagram.shared.processes import end_with_parent

#: Most specs a worker takes at once: small enough that no worker idles long at the end of a batch.
CHUNK = 4

#: Most worker processes per CPU core, whatever ``--jobs`` asks: past the cores, more only wait their turn
#: (``-j 1000`` over 600 specs started 600 processes and took minutes instead of seconds).
MAX_JOBS_PER_CORE = 4


def _start_worker(parent: int) -> None:
    """A worker leaves Ctrl-C to the parent process, which reports it once, and ends quietly on SIGTERM
    (not through the parent's handler, which would print a traceback from each), and on Linux when the
    parent ends, however it ends (:func:`~mechdiagram.shared.processes.end_with_parent`).  Its temporary files
    carry the parent's pid (:func:`~mechdiagram.shared.files.worker_tag`); it writes nothing else."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    end_with_parent(parent)
    worker_tag(parent)


def worker_limit() -> int:
    """The most worker processes a build starts: :data:`MAX_JOBS_PER_CORE` per CPU core."""
    return MAX_JOBS_PER_CORE * (os.cpu_count() or 1)


def start_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` worker processes, each started by :func:`_start_worker` with this process as its
    parent."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(os.getpid(),))


def chunk_size(workers: int, specs: int) -> int:
    """How many of ``specs`` specs each of ``workers`` workers takes at once: about eight chunks per worker,
    at most :data:`CHUNK`."""
    return max(1, min(CHUNK, specs // (workers * 8)))


def stop(pool: ProcessPoolExecutor) -> None:
    """End a pool whose build failed or was interrupted: its queued work cancelled and its workers ended now
    (SIGTERM, which they take quietly), so that none stages a file after the build has cleaned up its
    temporary files (:meth:`~mechdiagram.site.staging.Staging.close`), and a second Ctrl-C finds nothing to wait for.
    The workers are this process's children (:func:`multiprocessing.active_children`): a build starts no other."""
    pool.shutdown(wait=False, cancel_futures=True)
    workers = multiprocessing.active_children()
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.terminate()
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.join(timeout=5)


__all__ = ["BrokenProcessPool", "chunk_size", "start_pool", "stop", "worker_limit"]
