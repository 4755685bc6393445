"""Talking to a preview server (``mechdiagram serve``) over HTTP: requests with any request target and
Host header, the reload event stream, and waiting with a bound."""

from __future__ import annotations

import copy
import http.client
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .specs import minimal_spec

T = TypeVar("T")

#: Longest a test waits for a rebuild or an event, in seconds.
WAIT_SECONDS = 15.0


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


def request(port: int, target: str, host: str | None = "default", method: str = "GET") -> Answer:
    """Send ``target`` exactly as given (no normalising); ``host`` ``"default"`` sends 127.0.0.1:PORT,
    ``None`` sends no Host header at all."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_SECONDS)
    try:
        conn.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            conn.putheader("Host", f"127.0.0.1:{port}" if host == "default" else host)
        conn.endheaders()
        response = conn.getresponse()
        body = response.read()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, body)
    finally:
        conn.close()


def wait_for(probe: Callable[[], T | None], seconds: float = WAIT_SECONDS, what: str = "condition") -> T:
    """Call ``probe`` every 20 ms until it returns something other than ``None``; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = probe()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(0.02)


class EventStream:
    """An open ``/__mechdiagram/events?since=N`` stream; :meth:`next_event` reads the next event."""

    def __init__(self, port: int, since: int, session: str | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_SECONDS)
        self.conn.request("GET", f"/__mechdiagram/events?since={since}" + (f"&session={session}" if session else ""))
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")

    def next_event(self) -> tuple[str, str]:
        """The next event's (name, data), skipping comments and the ``retry`` field; a read that takes
        longer than :data:`WAIT_SECONDS` raises ``TimeoutError``."""
        name, data = "message", ""
        while True:
            line = self.response.fp.readline().decode("utf-8")
            if line == "":
                raise AssertionError("the event stream ended without an event")
            line = line.rstrip("\n")
            if line == "" and data:
                return name, data
            if line.startswith("event: "):
                name = line[len("event: "):]
            elif line.startswith("data: "):
                data = line[len("data: "):]

    def close(self) -> None:
        self.conn.close()


def spec_with_title(title: str) -> str:
    """The text of :func:`support.specs.minimal_spec` with another title."""
    data = copy.deepcopy(minimal_spec())
    data["title"] = title
    return json.dumps(data, indent=2)
