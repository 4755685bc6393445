"""Fixtures of the preview server's tests: a folder with one spec, and a server on it on a free port."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from mechdiagram.serve import BuildEvent, PreviewServer
from mechdiagram.shared.config import Options
from support.specs import minimal_spec


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """``tmp_path/specs/tiny.mechanism.json`` (the minimal spec) beside ``tmp_path/outside/secret.txt``."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("top secret\n")
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "tiny.mechanism.json").write_text(json.dumps(minimal_spec(), indent=2), "utf-8")
    return specs


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator:
    """``start_server(specs, write=False)``: a started :class:`PreviewServer` on port 0 (stopped after the
    test); its builds are recorded in ``server.events``."""
    started: list[PreviewServer] = []

    def start(specs: Path, write: bool = False) -> PreviewServer:
        events: list[BuildEvent] = []
        options = Options(specs=[specs], output=tmp_path / "output", source_root=tmp_path, jobs=1)
        server = PreviewServer(options, port=0, write=write, on_build=events.append)
        server.events = events  # type: ignore[attr-defined]
        server.start()
        started.append(server)
        return server
    yield start
    for server in started:
        server.stop()


@pytest.fixture
def served(site: Path, start_server) -> PreviewServer:
    """A server on :func:`site`'s folder."""
    return start_server(site)
