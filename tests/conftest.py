"""Shared fixtures: paths of the repository and small specs built by the tests."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MECHANISMS = ROOT / "mechanisms"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def minimal_spec() -> dict:
    """A small valid spec in the reference format: 2 lanes by 2 columns, one path, 2 steps."""
    return {
        "version": 1,
        "language": "en",
        "title": "Tiny mechanism",
        "description": "A two-by-two test mechanism.",
        "caption": "Caption of the tiny mechanism.",
        "alt": "Two lanes, two columns.",
        "sources": [],
        "limitations": ["Made for tests."],
        "targets": {
            "a0": {"id": "t-a0", "kind": "node", "label": "first"},
            "a1": {"id": "t-a1", "kind": "node", "label": "second"},
            "b0": {"id": "t-b0", "kind": "node", "label": "third"},
            "b1": {"id": "t-b1", "kind": "node", "label": "fourth"},
            "ab": {"id": "t-ab", "kind": "path", "from": "a0", "to": "b1", "label": "flow"},
        },
        "stateLabels": {"stage": "Stage"},
        "scenarios": [{
            "id": "main",
            "title": "Main",
            "description": "The only scenario.",
            "initial": {"stage": "start"},
            "unselected": ["b0"],
            "steps": [
                {"title": "One", "description": "First step.", "duration": 1000, "active": ["a0"],
                 "paths": ["ab"], "state": {"stage": "one"}},
                {"title": "Two", "description": "Second step.", "duration": 2000, "active": ["a1", "b1"],
                 "paths": [], "state": {"stage": "two"}},
            ],
        }],
    }


@pytest.fixture
def spec_data() -> dict:
    """A fresh copy of :func:`minimal_spec`, free to mutate."""
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
