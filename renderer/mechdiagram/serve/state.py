"""The preview's current snapshot, shared by the watcher thread that replaces it and the request
threads that read it and wait for the next one."""

from __future__ import annotations

import threading
import time

from mechdiagram.serve.snapshot import Snapshot


class PreviewState:
    """Holds the current :class:`~mechdiagram.serve.snapshot.Snapshot` under a condition variable.

    :meth:`publish` replaces it (numbering it one past the current generation when its content changed,
    and keeping the current one otherwise); :meth:`wait_for_change` blocks a request thread until the
    generation differs from the one its page was built from, or the server stops.
    """

    def __init__(self, first: Snapshot) -> None:
        #: This server's token (hexadecimal ns of its start): pages carry it, and a page made by an earlier
        #: server on the same port (whose generations also start at 1) is told to reload at once.
        self.session = f"{time.time_ns():x}"
        self._snapshot = first.numbered(1, self.session)
        self._condition = threading.Condition()
        self._stopping = False

    @property
    def snapshot(self) -> Snapshot:
        """The current snapshot (immutable: safe to read without the lock)."""
        return self._snapshot

    def publish(self, snapshot: Snapshot) -> bool:
        """Make ``snapshot`` current if its content differs from the current one; returns whether it did."""
        with self._condition:
            if snapshot.fingerprint == self._snapshot.fingerprint:
                # Same pages: keep the generation (no reload), but follow a changed list of sources.
                self._snapshot = snapshot.numbered(self._snapshot.generation, self.session)
                return False
            self._snapshot = snapshot.numbered(self._snapshot.generation + 1, self.session)
            self._condition.notify_all()
            return True

    def wait_for_change(self, since: int, timeout: float, session: str | None = None) -> int | None:
        """Block until the generation is not ``since``, for at most ``timeout`` seconds; at once when
        ``session`` is given and is not this server's (the page is an earlier server's).

        Returns the current generation when it differs from ``since`` (or the session differs), ``None`` on a
        timeout or when the server is stopping (see :attr:`stopping`).
        """
        with self._condition:
            if session is not None and session != self.session and not self._stopping:
                return self._snapshot.generation
            self._condition.wait_for(lambda: self._stopping or self._snapshot.generation != since, timeout)
            if self._stopping or self._snapshot.generation == since:
                return None
            return self._snapshot.generation

    @property
    def stopping(self) -> bool:
        """True once :meth:`stop` was called."""
        return self._stopping

    def stop(self) -> None:
        """Wake every waiting request thread and make further waits return at once."""
        with self._condition:
            self._stopping = True
            self._condition.notify_all()
