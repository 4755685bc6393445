"""Shared fixtures.  Shared helpers are in ``tests/support/`` (see its ``__init__``).

The tests are grouped by pipeline stage, one folder each (``load/``, ``validate/``, ``provenance/``,
``hashing/``, ``layout/``, ``svg/``, ``html/``, ``build/``, ``cli/``, ``serve/``, ``browser/``) and ``project/``
for the README, the field's reference spec and packaging.  The stage folders are not packages, so
every test module's file name is unique across them; ``browser/`` is a package (its conftest holds
the browser fixtures).  Slow tests (browsers, property tests, subprocesses, worker processes) are
marked ``slow``: ``pytest -m 'not slow'`` runs the rest in seconds.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # so that ``support`` imports under any import mode
    sys.path.insert(0, str(TESTS))

from support.hostile import LONG, SHORT, build_filled  # noqa: E402
from support.outputs import build_html  # noqa: E402
from support.reference_spec import dumps, reference_spec, write_reference, write_sources  # noqa: E402
from support.specs import minimal_spec  # noqa: E402


@pytest.fixture
def deny_open(monkeypatch):
    """``deny_open("a.md")``: from then on, opening a path that ends with that name fails with EACCES, as
    chmod 000 makes it for anyone but root (the tests run as root in CI)."""
    real_open = os.open

    def deny(name: str) -> None:
        def opener(path, *args, **kwargs):
            if str(path).endswith(name):
                raise PermissionError(13, "Permission denied", str(path))
            return real_open(path, *args, **kwargs)
        monkeypatch.setattr(os, "open", opener)
    return deny


@pytest.fixture
def spec_data() -> dict:
    """A fresh copy of :func:`support.specs.minimal_spec`, free to mutate."""
    return copy.deepcopy(minimal_spec())


@pytest.fixture
def write_spec(tmp_path):
    """Write a spec (dict or text) to ``tmp_path/<name>.mechanism.json`` and return the path."""
    def write(data, name: str = "tiny") -> Path:
        path = tmp_path / f"{name}.mechanism.json"
        text = data if isinstance(data, (str, bytes)) else json.dumps(data, indent=2)
        if isinstance(text, str):
            text = text.encode("utf-8")
        path.write_bytes(text)
        return path
    return write


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project folder, the working directory, with the reference spec and its pinned sources in
    ``specs/`` (so ``--source-root specs`` verifies them)."""
    root = tmp_path / "project"
    write_reference(root / "specs", "reference")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def source_root(tmp_path: Path) -> Path:
    """A source root with ``docs/notes.md`` and ``notes/a.md``, beside files outside it
    (``outside.md``, ``outside/secret.txt``)."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("secret\n")
    (tmp_path / "outside.md").write_bytes(b"notes about the mechanism\n")
    base = tmp_path / "root"
    (base / "docs").mkdir(parents=True)
    (base / "docs" / "notes.md").write_bytes(b"notes about the mechanism\n")
    (base / "notes").mkdir()
    (base / "notes" / "a.md").write_text("notes\n")
    return base


@pytest.fixture(scope="session")
def hostile_outputs(tmp_path_factory) -> tuple[Path, Path]:
    """The output folders of two builds of the same spec: every text field filled with hostile text
    (:mod:`support.hostile`), and with plain text long enough to wrap too, so that both builds draw
    multi-line labels."""
    tmp = tmp_path_factory.mktemp("markup")
    hostile = build_filled(tmp, "hostile", SHORT, LONG)
    # A long word in the plain text too: as the hostile one's, it keeps the lane grid's narrow variant the wide grid
    # (issue 26: a grid whose words do not fit a phone's lanes is not transposed), and the wide grid as wide as a wide
    # screen needs, not spread (layout.SPREAD_SLACK), so both builds draw the same parts.
    long_word = "plainwordsplainwordsplainwordsword"
    plain = build_filled(tmp, "plain", ("plain words " * 42)[:500 - len(long_word)] + long_word,
                         "plain words " * 60 + long_word)
    return hostile, plain


@pytest.fixture(scope="session")
def reference_html(tmp_path_factory) -> tuple[dict, dict[str, str]]:
    """The reference spec, with a fourth source that is not there, and its ``page`` and ``fragment``."""
    root = tmp_path_factory.mktemp("sources")
    data = reference_spec()
    write_sources(root, data)
    data["sources"].append({"path": "notes/not-here.md", "sha256": "2" * 64, "description": "Lost notes."})
    return data, build_html(data, root)


@pytest.fixture
def broken(project) -> tuple[Path, str]:
    """Beside :func:`project`'s spec, ``bad/broken.mechanism.json`` with three different problems, written
    by the test (so positions are known); returns its path and text."""
    data = reference_spec()
    data["titel"] = "typo"                                   # line of "titel"
    data["scenarios"][0]["steps"][1]["duration"] = -5
    data["scenarios"][0]["steps"][2]["active"] = ["out1", "wrok1"]
    data["sources"] = []  # its sources are another test's subject
    path = project / "bad" / "broken.mechanism.json"
    path.parent.mkdir()
    text = dumps(data)
    path.write_text(text, "utf-8")
    return path, text
