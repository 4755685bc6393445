"""The minimal spec, the repository's paths, and places in a spec's text."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MECHANISMS = ROOT / "mechanisms"
TESTS = ROOT / "tests"


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


def position(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """1-based line and column (in characters) of the ``nth`` occurrence of ``needle`` (-1: the last)."""
    index = -1
    if nth == -1:
        index = text.rindex(needle)
    for _ in range(max(nth, 0)):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def big_spec(targets: int, scenarios: int, steps: int, active: int, *, bad_refs: bool = False) -> dict:
    """The minimal spec with ``targets`` nodes and ``scenarios`` scenarios of ``steps`` steps, each step
    activating ``active`` nodes (with ``bad_refs``: names that are not targets)."""
    spec = minimal_spec()
    spec["targets"] = {f"n{i}": {"id": f"t{i}", "kind": "node", "label": f"node {i}"} for i in range(targets)}
    keys = list(spec["targets"])
    spec["scenarios"] = [{"id": f"s{s}", "title": f"Scenario {s}", "steps": [
        {"title": f"step {j}", "duration": 400, "state": {"stage": str(j)},
         "active": [f"missing{s}x{j}x{k}" if bad_refs else keys[(j * active + k) % len(keys)] for k in range(active)]}
        for j in range(steps)]} for s in range(scenarios)]
    return spec


def marked_spec() -> dict:
    """The minimal spec with a third step, every mark used once across the steps, on boxes and the path."""
    data = minimal_spec()
    steps = data["scenarios"][0]["steps"]
    steps.append({"title": "Three", "description": "Third step.", "duration": 1500, "active": ["b1"],
                  "paths": ["ab"], "state": {"stage": "three"}})
    steps[0]["marks"] = {"a0": "new", "ab": "changed"}
    steps[1]["marks"] = {"a1": "removed", "b1": "lost", "b0": "error"}
    steps[2]["marks"] = {"a0": "waiting", "b1": "done"}
    return data
