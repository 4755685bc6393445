"""The preview server: a build in memory, an HTTP server on the loopback address, and a watcher
that rebuilds after every save.

:class:`PreviewServer` runs two threads besides the request threads: one serves HTTP
(:mod:`mechdiagram.serve.handler`), one watches the specs and their sources with watchfiles and
rebuilds.  Builds run one at a time and each reads the files as they are when it starts, so after
a stream of saves the last build is of the last save; each build replaces the snapshot whole.  A save
whose file-system event was lost is caught when the watcher next wakes (:mod:`mechdiagram.serve.stamps`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path

import msgspec.structs
import watchfiles
from msgspec import Struct

from mechdiagram.serve.handler import PreviewHTTPServer
from mechdiagram.serve.snapshot import Snapshot, build_snapshot, is_relevant, watch_roots
from mechdiagram.serve.stamps import DiskStamp, disk_state
from mechdiagram.serve.state import PreviewState
from mechdiagram.shared.config import Options
from mechdiagram.shared.errors import MechdiagramError, ServeError
from mechdiagram.shared.findings import Finding
from mechdiagram.spec.discovery import discover
from mechdiagram.spec.provenance import linked_folders

#: The only address the preview listens on.
LOOPBACK = "127.0.0.1"

#: watchfiles timing, in ms: a build starts once no change came for STEP_MS, or DEBOUNCE_MS after the
#: first change of a stream of saves; the watcher wakes every WAKE_MS to notice a stop and a lost event.
STEP_MS = 15
DEBOUNCE_MS = 300
WAKE_MS = 500

#: Seconds to wait before watching again when a watched folder went away.
REWATCH_SECONDS = 0.5


class BuildEvent(Struct, frozen=True):
    """One finished build: its ``snapshot``, whether it ``changed`` what the pages show (open pages
    reload), and how long it took in ``ms``."""

    snapshot: Snapshot
    changed: bool
    ms: float


class PreviewServer:
    """A live preview of ``options.specs`` at ``http://127.0.0.1:PORT/``.

    ``port`` 0 picks a free port.  With ``write``, every build is also written to ``options.output``;
    without it nothing is written anywhere.  ``on_build`` is called (in the watcher thread, and once in
    :meth:`start`) after every build.  Use :meth:`start`, then :meth:`stop` (or a ``with`` block).
    """

    def __init__(self, options: Options, port: int = 0, write: bool = False,
                 on_build: Callable[[BuildEvent], None] | None = None) -> None:
        # A spec reached through a link out of its project is refused, unread: a cloned repository's link
        # must not put a file of the user's on a page.
        self.options = msgspec.structs.replace(options, confined=True)
        self.requested_port = port
        self.write = write
        self.on_build = on_build
        self.single = len(options.specs) == 1 and options.specs[0].is_file()
        self._stop = threading.Event()
        self._build_lock = threading.Lock()
        self._state: PreviewState | None = None
        self._http: PreviewHTTPServer | None = None
        self._threads: list[threading.Thread] = []
        self._built = DiskStamp({}, 0)  # the files as the last build began

    @property
    def state(self) -> PreviewState:
        """The shared state; raises :class:`~mechdiagram.shared.errors.ServeError` before :meth:`start`."""
        if self._state is None:
            raise ServeError("the preview server has not started")
        return self._state

    @property
    def port(self) -> int:
        """The port listened on (the one asked for, or the free one picked) once started."""
        if self._http is None:
            raise ServeError("the preview server has not started")
        return int(self._http.server_address[1])

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/`` once started."""
        return f"http://{LOOPBACK}:{self.port}/"

    def _build(self) -> Snapshot:
        sources = self._state.snapshot.sources if self._state is not None else frozenset()
        # The spec files as this build will find them (the snapshot's are the last build's).
        files = frozenset(path.resolve() for path in discover(self.options.specs, []))
        self._built = DiskStamp(disk_state(self.options.specs, files, sources, self.options.template_dir),
                                time.time_ns())
        if self.options.template_dir is not None:
            # jinja2 keeps a template it found in the package, and never looks again for one added to the
            # site's folder since: each build of a site with templates starts from a fresh environment.
            from mechdiagram.render.templating import environment

            environment.cache_clear()
        try:
            return build_snapshot(self.options, self.write)
        except MechdiagramError as exc:  # a condition that stops a build (the template folder went away): show it
            finding = Finding("mechdiagram", None, exc.message, exc.rule)
        except Exception as exc:  # a bug in mechdiagram must not end the preview: show it, keep the old files
            finding = Finding("mechdiagram", None, f"internal error ({type(exc).__name__}: {exc}); please report it",
                              "internal-error")
        old = self._state.snapshot if self._state is not None else Snapshot(0, (), {})  # keep the old files
        return Snapshot(0, old.specs, old.files, (finding,), old.sources, spec_files=old.spec_files)

    def rebuild(self) -> BuildEvent:
        """Build now and publish the result; returns what happened (also passed to ``on_build``)."""
        with self._build_lock:
            start = time.perf_counter()
            snapshot = self._build()
            changed = self.state.publish(snapshot)
            event = BuildEvent(self.state.snapshot, changed, (time.perf_counter() - start) * 1000)
        if self.on_build is not None:
            with contextlib.suppress(OSError):  # the terminal went away (a closed pipe): keep serving
                self.on_build(event)
        return event

    def start(self) -> None:
        """Build once, listen on the loopback address and start watching.

        Raises :class:`~mechdiagram.shared.errors.ServeError` when the port cannot be listened on.
        """
        start = time.perf_counter()
        first = self._build()
        self._state = PreviewState(first)
        try:
            self._http = PreviewHTTPServer((LOOPBACK, self.requested_port), self._state, self.single)
        except OSError as exc:
            hint = "; leave out --port for a free one" if self.requested_port else ""
            raise ServeError(f"cannot listen on {LOOPBACK}:{self.requested_port}: {exc.strerror or exc}{hint}") from exc
        if self.on_build is not None:
            self.on_build(BuildEvent(self._state.snapshot, True, (time.perf_counter() - start) * 1000))
        self._threads = [threading.Thread(target=self._http.serve_forever, kwargs={"poll_interval": 0.1},
                                          name="mechdiagram-http", daemon=True),
                         threading.Thread(target=self._watch, name="mechdiagram-watch", daemon=True)]
        for thread in self._threads:
            thread.start()

    def _saved_since_build(self) -> bool:
        snapshot = self.state.snapshot
        now = disk_state(self.options.specs, snapshot.spec_files, snapshot.sources, self.options.template_dir)
        return self._built.changed(now)

    def _templates(self) -> Path | None:
        folder = self.options.template_dir
        return folder.resolve() if folder is not None and folder.is_dir() else None

    def _roots(self) -> list[Path]:
        return sorted({*watch_roots(self.options.specs, self.state.snapshot.sources),
                       *(linked_folders(templates) if (templates := self._templates()) else [])})

    def _watch(self) -> None:
        while not self._stop.is_set():
            specs, sources, roots = self.options.specs, self.state.snapshot.sources, self._roots()
            templates = self._templates()
            if not roots:  # every watched folder is gone: look again shortly
                self._stop.wait(REWATCH_SECONDS)
                continue

            def relevant(change: watchfiles.Change, path: str, specs: list[Path] = specs,
                         sources: frozenset[Path] = sources, templates: Path | None = templates) -> bool:
                changed = Path(path)
                return (templates is not None and changed.is_relative_to(templates)) or is_relevant(
                    changed, specs, sources, deleted=change == watchfiles.Change.deleted)

            try:
                for changes in watchfiles.watch(*roots, watch_filter=relevant, debounce=DEBOUNCE_MS, step=STEP_MS,
                                                stop_event=self._stop, rust_timeout=WAKE_MS, yield_on_timeout=True,
                                                raise_interrupt=False, recursive=False):
                    # A wake with no change still looks at the files: a save made before the watch began, or
                    # one whose event watchfiles lost.
                    if not (changes or self._saved_since_build()):
                        continue
                    self.rebuild()
                    if self._stop.is_set() or self._roots() != roots:
                        break  # watch a new folder, or the folders of a changed list of sources
            except OSError:  # a watched folder went away: build what is left, and watch again
                if not self._stop.is_set():
                    self.rebuild()
                    self._stop.wait(REWATCH_SECONDS)

    def wait(self) -> None:
        """Block until :meth:`stop` is called (from another thread or a signal handler)."""
        while not self._stop.wait(0.5):
            pass

    def stop(self) -> None:
        """Stop watching and serving: open event streams end, the port is closed; idempotent."""
        self._stop.set()
        if self._state is not None:
            self._state.stop()
        if self._http is not None:
            if self._threads:
                self._http.shutdown()
            self._http.server_close()
        for thread in self._threads:
            thread.join(timeout=5)
        self._threads = []

    def __enter__(self) -> PreviewServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
