"""The preview serves its own pages and the built files only, to its own Host only, on loopback only."""

from __future__ import annotations

import http.client
import os
import socket
from pathlib import Path

import pytest

from mechdiagram.api import render_player
from mechdiagram.serve import LOOPBACK, PreviewServer
from mechdiagram.shared.config import Options
from mechdiagram.shared.errors import ServeError
from support.serve import request


def test_it_listens_on_loopback_only(served):
    assert served.url == f"http://127.0.0.1:{served.port}/"
    assert served._http.server_address[0] == LOOPBACK == "127.0.0.1"
    addresses = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    for address in addresses - {"127.0.0.1"}:
        if address.startswith("127."):
            continue
        with pytest.raises(OSError):
            socket.create_connection((address, served.port), timeout=2).close()


#: Request targets that try to leave the preview: climbing, encoded (once and twice), absolute-form,
#: backslashed, a NUL, bytes that are not UTF-8, folders, the specs themselves, and a symlink among the specs.
ESCAPES = [
    "/../outside/secret.txt",
    "/../../outside/secret.txt",
    "/%2e%2e/outside/secret.txt",
    "/%2E%2E%2Foutside%2Fsecret.txt",
    "/..%2f..%2foutside/secret.txt",
    "/%252e%252e/outside/secret.txt",
    "/preview/../outside/secret.txt",
    "/preview/..%2f..%2foutside",
    "//outside/secret.txt",
    "/specs/tiny.mechanism.json",
    "/tiny.mechanism.json",
    "/specs/",
    "/preview/",
    "/__mechdiagram/",
    "/tiny.html/..",
    "/tiny.html%00",
    "/%ff%fe",
    "\\..\\outside\\secret.txt",
    "/link.svg",
    "/secret.txt",
    "http://127.0.0.1/../outside/secret.txt",
]


def test_paths_outside_the_preview_are_refused(served, site):
    (site / "link.svg").symlink_to(site.parent / "outside" / "secret.txt")  # a symlink among the specs
    served.rebuild()
    for target in ESCAPES:
        answer = request(served.port, target)
        assert answer.status in (400, 404), (target, answer.status)
        assert b"top secret" not in answer.body


def test_absolute_paths_are_refused(served, site):
    for target in ("/" + str(site.parent / "outside" / "secret.txt"), str(site.parent / "outside" / "secret.txt"),
                   "/" + os.fspath(Path("/etc/passwd"))):
        answer = request(served.port, target)
        assert answer.status in (400, 404) and b"top secret" not in answer.body and b"root:" not in answer.body


def test_no_directory_listing(served, site):
    for target in ("/specs", "/output", "/outside", "/preview"):
        assert request(served.port, target).status == 404
    index = request(served.port, "/").text
    assert "secret.txt" not in index and "outside" not in index


#: Host headers of other sites (DNS rebinding sends the attacker's name) and of other ports.
FOREIGN_HOSTS = ["evil.example", "evil.example:{port}", "127.0.0.1", "localhost", "127.0.0.1:1",
                 "localhost.evil.example:{port}", "127.0.0.1:{port}.evil.example", "[::1]:{port}", ""]


def test_a_foreign_host_header_is_refused(served):
    for host in FOREIGN_HOSTS:
        for target in ("/", "/tiny.html", "/preview/tiny", "/__mechdiagram/events?since=0"):
            answer = request(served.port, target, host=host.format(port=served.port))
            assert answer.status == 421, (host, target, answer.status)
            assert b"Tiny mechanism" not in answer.body


def test_a_missing_host_header_is_refused(served):
    answer = request(served.port, "/tiny.html", host=None)
    assert answer.status == 400 and b"Tiny" not in answer.body


def test_two_host_headers_are_refused_whichever_comes_first(served):
    for first, second in ((f"127.0.0.1:{served.port}", "evil.example"), ("evil.example", f"127.0.0.1:{served.port}"),
                          (f"127.0.0.1:{served.port}", f"127.0.0.1:{served.port}")):
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        try:
            conn.putrequest("GET", "/tiny.html", skip_host=True, skip_accept_encoding=True)
            conn.putheader("Host", first)
            conn.putheader("Host", second)
            conn.endheaders()
            answer = conn.getresponse()
            assert (answer.status, answer.read()) == (400, b"one Host header is required\n"), (first, second)
        finally:
            conn.close()


def test_head_of_the_event_stream_is_its_headers(served):
    answer = request(served.port, "/__mechdiagram/events?since=1", method="HEAD")
    assert answer.status == 200 and answer.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert answer.body == b""


def test_a_restart_on_the_same_port_listens_at_once(site, tmp_path):
    options = Options(specs=[site], source_root=tmp_path, jobs=1)
    with PreviewServer(options) as first:
        port = first.port
        assert request(port, "/tiny.html").status == 200  # a connection the server closes: TIME_WAIT on its side
    with PreviewServer(options, port=port) as second:
        assert second.port == port and request(port, "/tiny.html").status == 200


def test_its_own_hosts_are_answered(served):
    for host in ("127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}"):
        answer = request(served.port, "/tiny.html", host=host.format(port=served.port))
        assert answer.status == 200 and b"<title>Tiny mechanism</title>" in answer.body, host


def test_answers_are_neither_cached_nor_sniffed_nor_shared(served):
    for target in ("/", "/tiny.html", "/tiny.main.svg"):
        headers = request(served.port, target).headers
        assert headers["cache-control"] == "no-store"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["cross-origin-resource-policy"] == "same-origin"
    index_policy = request(served.port, "/").headers["content-security-policy"]
    assert "script-src 'self';" in index_policy and "unsafe-inline" not in index_policy
    preview_policy = request(served.port, "/preview/tiny").headers["content-security-policy"]
    assert "script-src 'self';" in preview_policy  # the player module, from the server, and nothing inline
    assert request(served.port, "/").headers["x-frame-options"] == "DENY"


def test_only_get_and_head(served):
    assert request(served.port, "/tiny.html", method="HEAD").body == b""
    assert request(served.port, "/tiny.html", method="HEAD").status == 200
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        answer = request(served.port, "/tiny.html", method=method)
        assert (answer.status, answer.headers["allow"]) == (405, "GET, HEAD"), method
        assert answer.body == b"only GET and HEAD are answered\n"
    assert request(served.port, "/tiny.html", method="BREW").status == 501  # not a method of HTTP


def test_nothing_is_written_unless_asked(served, site, tmp_path):
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    (site / "tiny.mechanism.json").write_text((site / "tiny.mechanism.json").read_text().replace("Tiny", "Small"))
    served.rebuild()
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert not (tmp_path / "output").exists()


def test_with_output_it_writes_what_build_writes(site, start_server, tmp_path):
    server = start_server(site, write=True)
    written = sorted(p.name for p in (tmp_path / "output").iterdir())
    assert written == sorted([*server.state.snapshot.files, "manifest.json", "index.html"])
    for name in server.state.snapshot.files:
        assert (tmp_path / "output" / name).read_bytes() == server.state.snapshot.files[name]
    assert not any(b"__mechdiagram" in (tmp_path / "output" / name).read_bytes() for name in written)


def test_with_output_an_unchanged_spec_is_still_previewed(site, start_server, tmp_path):
    # The watcher's first wake rebuilds; with --output, the build key would skip the unchanged spec and
    # leave the preview empty.
    server = start_server(site, write=True)
    files = dict(server.state.snapshot.files)
    manifest = (tmp_path / "output" / "manifest.json").stat().st_mtime_ns
    event = server.rebuild()
    assert not event.changed  # the page is the same: no reload
    assert dict(server.state.snapshot.files) == files and "tiny.html" in files
    assert "<svg" in request(server.port, "/preview/tiny").text
    assert (tmp_path / "output" / "manifest.json").stat().st_mtime_ns == manifest  # nothing rewritten


def test_an_output_folder_that_cannot_be_written_is_shown_not_fatal(site, start_server, tmp_path):
    (tmp_path / "output").write_text("a file, not a folder")
    server = start_server(site, write=True)
    assert [f.rule for f in server.state.snapshot.general] == ["build-stopped"]
    assert request(server.port, "/tiny.html").status == 200  # the preview itself still works
    assert "build-stopped" in request(server.port, "/preview/tiny").text


def test_a_port_in_use_is_an_error(site, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        server = PreviewServer(Options(specs=[site], source_root=tmp_path, jobs=1), port=taken.getsockname()[1])
        with pytest.raises(ServeError, match=r"cannot listen on 127\.0\.0\.1:\d+: .*; leave out --port for a free one"):
            server.start()
        server.stop()


def test_the_port_asked_for_is_used(site, tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with PreviewServer(Options(specs=[site], source_root=tmp_path, jobs=1), port=port) as server:
        assert server.port == port and request(port, "/tiny.html").status == 200


def test_a_spec_linked_from_outside_its_project_is_refused_unread(site, start_server, tmp_path):
    """A spec file that is a link leading out of its project (a cloned repository's committed link to a file
    of the user's) is refused with a finding and never read: nothing of it reaches a page."""
    import json

    from support.specs import minimal_spec

    secret = minimal_spec()
    secret["title"] = "Private figure 7f3a"
    (tmp_path / "outside" / "private.mechanism.json").write_text(json.dumps(secret), "utf-8")
    (site / "leak.mechanism.json").symlink_to(tmp_path / "outside" / "private.mechanism.json")
    server = start_server(site)
    snapshot = server.state.snapshot
    leak = snapshot.spec("leak")
    assert leak is not None and leak.failed and [f.rule for f in leak.findings] == ["spec-outside-project"]
    assert leak.findings[0].file.endswith("/specs/leak.mechanism.json")  # the link as named
    assert not any(name.startswith("leak.") for name in snapshot.files)
    assert snapshot.spec("tiny") is not None and not snapshot.spec("tiny").failed
    for target in ("/", "/preview/leak"):
        answer = request(server.port, target)
        assert b"7f3a" not in answer.body and b"Private figure" not in answer.body, target
    assert b"leads out of its project" in request(server.port, "/preview/leak").body


def test_pictures_are_served_with_their_media_types():
    """PNG and GIF files a build writes (--png, --gif) are served as images, not as octet streams."""
    from types import MappingProxyType

    from mechdiagram.serve.pages import resolve
    from mechdiagram.serve.snapshot import Snapshot

    files = {"x.main.poster.png": b"\x89PNG\r\n", "x.main.gif": b"GIF89a", "x.main.svg": b"<svg/>"}
    snapshot = Snapshot(1, (), MappingProxyType(files))
    kinds = {name: resolve("/" + name, snapshot, False).content_type for name in files}
    assert kinds == {"x.main.poster.png": "image/png", "x.main.gif": "image/gif", "x.main.svg": "image/svg+xml"}


def test_a_linked_folder_with_a_project_of_its_own_is_still_outside(tmp_path):
    """Serving a folder that is a link out of the project, into a folder with a pyproject.toml of its own: its
    specs are still refused; the link's target is not this project."""
    import json

    from mechdiagram.serve.snapshot import build_snapshot
    from mechdiagram.shared.config import Options
    from support.specs import minimal_spec

    (tmp_path / "project" / "specs").mkdir(parents=True)
    (tmp_path / "project" / ".git").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "pyproject.toml").write_text("", "utf-8")
    (tmp_path / "other" / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "project" / "specs" / "ext").symlink_to(tmp_path / "other", target_is_directory=True)
    options = Options(specs=[tmp_path / "project" / "specs" / "ext"], source_root=tmp_path, jobs=1, confined=True)
    snapshot = build_snapshot(options, write=False)
    assert [f.rule for spec in snapshot.specs for f in spec.findings] == ["spec-outside-project"]
    assert snapshot.files == render_player()  # no spec's file: the player's alone


def test_serve_writing_its_output_does_not_read_a_spec_linked_out_of_its_project(tmp_path):
    """With -o, the build key is computed for each spec: a spec linked out of the project is not read for it
    either.  Its target is a FIFO, which a read would wait on for ever."""
    import os
    import threading

    from mechdiagram.serve.snapshot import build_snapshot
    from mechdiagram.shared.config import Options

    (tmp_path / "project" / "specs").mkdir(parents=True)
    (tmp_path / "project" / ".git").mkdir()
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "project" / "specs" / "leak.mechanism.json").symlink_to(tmp_path / "pipe")
    # Named as a file: a folder's walk passes over what is not a regular file, a FIFO among them.
    options = Options(specs=[tmp_path / "project" / "specs" / "leak.mechanism.json"],
                      output=tmp_path / "project" / "out", source_root=tmp_path / "project", jobs=1, confined=True)
    done: list = []
    worker = threading.Thread(target=lambda: done.append(build_snapshot(options, write=True)), daemon=True)
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():  # it opened the FIFO: let it go, then fail
        os.close(os.open(tmp_path / "pipe", os.O_WRONLY | os.O_NONBLOCK))
        worker.join(timeout=20)
        pytest.fail("the spec linked out of the project was opened")
    [snapshot] = done
    assert [f.rule for spec in snapshot.specs for f in spec.findings] == ["spec-outside-project"]


def test_the_listen_backlog_takes_a_burst_of_two_hundred_connections():
    """Connections wait in the backlog while no thread accepts them: with socketserver's default of 5 the sixth
    SYN was dropped and retried a second later; all 200 here connect at once."""
    import socket

    from mechdiagram.serve.handler import PreviewHTTPServer

    server = PreviewHTTPServer(("127.0.0.1", 0), state=None, single=False)  # listening, never accepting
    clients = []
    try:
        for _ in range(200):
            client = socket.create_connection(server.server_address, timeout=0.5)  # a dropped SYN times out
            clients.append(client)
        assert len(clients) == 200
    finally:
        for client in clients:
            client.close()
        server.server_close()
