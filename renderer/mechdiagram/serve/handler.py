"""The preview server's HTTP request handler: the Host check, the routes of
:mod:`mechdiagram.serve.pages`, and the Server-Sent Events stream that tells open pages to reload."""

from __future__ import annotations

import os
import re
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import cast
from urllib.parse import parse_qs

from mechdiagram.serve.pages import URLS, Response, resolve
from mechdiagram.serve.state import PreviewState

#: Seconds between keep-alive comments on an idle event stream (a closed page is noticed then).
HEARTBEAT_SECONDS = 15.0

#: How soon, in ms, a browser reconnects an event stream that broke (the server restarted).
RECONNECT_MS = 500

#: Headers on every answer: nothing is cached, sniffed, framed or read by another site.
COMMON_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class PreviewHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server that carries the preview's state.

    ``hosts`` are the Host header values it answers to (lower case, ``127.0.0.1:PORT`` and
    ``localhost:PORT``); ``single`` says whether one spec file is served (``/`` redirects to it).
    """

    daemon_threads = True
    #: Bind a port whose last connections still wait out TIME_WAIT (a restart on the same --port), as
    #: ``http.server`` does; not on Windows, where SO_REUSEADDR would let another program bind it too.
    allow_reuse_address = os.name != "nt"
    #: The listen backlog: a page's burst of requests (a gallery of figures, a reload of many tabs) waits in it
    #: instead of each connection past ``socketserver``'s 5 being retried by the client a second later
    #: (200 connections at once took 1 s each past the fifth).
    request_queue_size = 256

    def __init__(self, address: tuple[str, int], state: PreviewState, single: bool) -> None:
        super().__init__(address, PreviewHandler)
        self.state = state
        self.single = single
        port = self.server_address[1]
        self.hosts = frozenset({f"127.0.0.1:{port}", f"localhost:{port}"})


class PreviewHandler(BaseHTTPRequestHandler):
    """Answers GET and HEAD; the other methods of HTTP (RFC 9110 section 9) get 405 Method Not Allowed, with
    an ``Allow`` header, and a method HTTP does not define gets 501 from the base class."""

    server_version = "mechdiagram-preview"
    sys_version = ""
    #: Seconds a connection may stay silent before it is dropped (a client that never sends its request).
    timeout = 60.0

    @property
    def preview(self) -> PreviewHTTPServer:
        """The server this request came to."""
        return cast(PreviewHTTPServer, self.server)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        """Requests are not logged: the terminal shows builds and findings."""

    def do_GET(self) -> None:
        """Answer a GET request."""
        self._answer(head=False)

    def do_HEAD(self) -> None:
        """Answer a HEAD request: a GET's headers without its body."""
        self._answer(head=True)

    def _not_allowed(self) -> None:
        body = b"only GET and HEAD are answered\n"
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED.value)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for name, value in COMMON_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_CONNECT = do_TRACE = _not_allowed  # noqa: N815

    def _send(self, response: Response, head: bool) -> None:
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        for name, value in COMMON_HEADERS.items():
            self.send_header(name, value)
        if response.location is not None:
            self.send_header("Location", response.location)
        if response.csp is not None:
            self.send_header("Content-Security-Policy", response.csp)
        self.end_headers()
        if not head:
            self.wfile.write(response.body)

    def _plain(self, status: HTTPStatus, text: str, head: bool) -> None:
        self._send(Response(status.value, "text/plain; charset=utf-8", (text + "\n").encode("utf-8")), head)

    def _answer(self, head: bool) -> None:
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1:  # RFC 9112 section 3.2: none, or more than one, is a bad request
            self._plain(HTTPStatus.BAD_REQUEST, "one Host header is required", head)
            return
        host = hosts[0]
        if host.strip().lower() not in self.preview.hosts:
            # DNS rebinding: a page of another site that resolves its own name to 127.0.0.1 sends its own Host.
            self._plain(HTTPStatus.MISDIRECTED_REQUEST,
                        f"this preview answers only at http://{min(self.preview.hosts)}/", head)
            return
        path, _, query = self.path.partition("?")
        path = path.partition("#")[0]
        if path == URLS["events"]:
            if head:  # what a GET would start with: the stream's type, and no event
                self._send(Response(HTTPStatus.OK.value, "text/event-stream; charset=utf-8", b""), head)
            else:
                self._events(query)
            return
        response = resolve(path, self.preview.state.snapshot, self.preview.single)
        if response is None:
            self._plain(HTTPStatus.NOT_FOUND, "not found", head)
            return
        self._send(response, head)

    def _events(self, query: str) -> None:
        """The reload stream: one ``reload`` event once the build generation differs from ``since``."""
        values = parse_qs(query).get("since", ["0"])
        since = int(values[0]) if re.fullmatch(r"[0-9]{1,18}", values[0]) else 0
        sessions = parse_qs(query).get("session", [])
        session = sessions[0] if sessions and re.fullmatch(r"[0-9a-f]{1,32}", sessions[0]) else None
        state = self.preview.state
        self.send_response(HTTPStatus.OK.value)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        for name, value in COMMON_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(f"retry: {RECONNECT_MS}\n\n".encode())
            self.wfile.flush()
            while True:
                generation = state.wait_for_change(since, HEARTBEAT_SECONDS, session)
                if state.stopping:
                    return
                if generation is None:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    continue
                self.wfile.write(f"event: reload\ndata: {generation}\n\n".encode())
                self.wfile.flush()
                return
        except OSError:  # the page went away (BrokenPipeError, ConnectionResetError)
            return
