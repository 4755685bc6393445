"""Each validation run has its own "did you mean" budget, so runs in threads never change each other's findings."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import validate
from mechdiagram.spec.validate.wording import Suggester


def _many_bad_refs(count: int) -> bytes:
    """A spec whose steps name ``2 * count`` misspelt targets (``nodd7`` for ``node7``) among 400."""
    targets = {f"node{i}": {"id": f"t{i}", "kind": "node", "label": f"node {i}"} for i in range(400)}
    steps = [{"title": "s", "description": "d", "duration": 1000, "active": [f"nodd{i}", f"nodd{i + 1}"],
              "paths": [], "state": {}} for i in range(count)]
    spec = {"version": 1, "language": "en", "title": "T", "description": "D", "caption": "C", "alt": "A",
            "sources": [], "limitations": [], "targets": targets, "stateLabels": {"s": "S"},
            "scenarios": [{"id": "m", "title": "M", "description": "d", "initial": {}, "unselected": [],
                           "steps": steps}]}
    return json.dumps(spec).encode("utf-8")


def test_the_budget_stops_guessing_but_still_lists_choices():
    suggest = Suggester(budget=3)
    assert suggest("stage1", ["stage0", "queue"]) == '; did you mean "stage0"?'
    assert suggest("stage1", ["stage0", "queue"]) == "; valid keys: stage0, queue"  # 1 left: no guess
    assert Suggester()("zz", [], "lanes") == "; there are no lanes"


@pytest.mark.slow
def test_runs_in_threads_give_the_same_findings_as_one_run(monkeypatch):
    from mechdiagram.spec.validate import context

    monkeypatch.setattr(context, "MAX_PER_RULE", 10_000)  # every finding located: the budget's end is among them
    big = parse_text(_many_bad_refs(300), "big.mechanism.json")  # 600 x 400 comparisons: past the budget
    small = parse_text(_many_bad_refs(3), "small.mechanism.json")
    alone_big, alone_small = validate(big), validate(small)
    assert any("did you mean" in f.message for f in alone_big)
    assert any("valid targets:" in f.message for f in alone_big)  # the budget ran out within this run
    assert all("did you mean" in f.message for f in alone_small if f.rule == "unknown-target")
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(validate, [big, small, big, small, small, big]))
    assert results == [alone_big, alone_small, alone_big, alone_small, alone_small, alone_big]


def test_a_listed_name_that_would_break_the_line_is_quoted():
    from mechdiagram.spec.validate.wording import Suggester

    text = Suggester(budget=0)("zz", ["plain", "two words", "line\nbreak", 'say "hi"'], "targets")
    assert text == '; valid targets: plain, "two words", "line\\nbreak", "say \\"hi\\""'
    assert "\n" not in text
