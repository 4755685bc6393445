"""Rule ``limit``: a spec stays within the size limits, so that output size and build time stay bounded.

:func:`over_limits` runs before the schema: a spec this large is refused at once,
without the slower checks.
"""

from __future__ import annotations

from typing import Any

from mechdiagram.shared.findings import Finding
from mechdiagram.spec.load import LoadedSpec

#: Most entries (``active`` plus ``paths`` items) over all steps of a spec; beyond
#: it a spec is refused rather than rendered slowly.
MAX_FRAME_ENTRIES = 20000
#: Most node drawings (nodes times scenarios: each scenario's SVG draws every node, and the HTML
#: inlines every scenario), which bounds the size of the output.
MAX_NODE_DRAWINGS = 10000
#: Most characters of node labels drawn over all scenarios (label text times scenarios).
MAX_LABEL_TEXT = 500000
#: Most steps over all scenarios of a spec.
MAX_TOTAL_STEPS = 2000
#: Most arrows (``path`` targets): placing their routes and labels grows with the square of their number, and
#: 150 between random pairs of 60 boxes build in 2 s (600 took a minute); no figure stays readable with more.
MAX_PATHS = 150


def limit_messages(total_steps: int, entries: int, drawings: int = 0, label_text: int = 0) -> list[str]:
    """The messages of every limit the counts exceed (none when all are within)."""
    messages = []
    if drawings > MAX_NODE_DRAWINGS:
        messages.append(f"the scenarios draw {drawings} nodes in all (nodes times scenarios); the limit is "
                        f"{MAX_NODE_DRAWINGS}: split the spec")
    if label_text > MAX_LABEL_TEXT:
        messages.append(f"the scenarios draw {label_text} characters of node labels in all (label text times "
                        f"scenarios); the limit is {MAX_LABEL_TEXT}: shorten the labels or split the spec")
    if total_steps > MAX_TOTAL_STEPS:
        messages.append(f"the scenarios have {total_steps} steps in all; the limit is {MAX_TOTAL_STEPS}")
    if entries > MAX_FRAME_ENTRIES:
        messages.append(f"the steps list {entries} active targets and paths in all; the limit is {MAX_FRAME_ENTRIES}")
    return messages


def over_limits(spec: LoadedSpec) -> list[Finding]:
    """Findings for every limit a parsed spec exceeds, counted on the raw data before the schema runs: at
    ``/targets`` for the arrows, at ``/scenarios`` for the others."""
    data: dict[str, Any] = spec.data
    scenarios = data.get("scenarios")
    steps = [step for scenario in (scenarios if isinstance(scenarios, list) else [])
             if isinstance(scenario, dict) and isinstance(scenario.get("steps"), list)
             for step in scenario["steps"] if isinstance(step, dict)]
    entries = sum(len(step[k]) for step in steps for k in ("active", "paths") if isinstance(step.get(k), list))
    targets = data.get("targets")
    drawn = [t for t in targets.values() if isinstance(t, dict)] if isinstance(targets, dict) else []
    count = len(scenarios) if isinstance(scenarios, list) else 0
    label_text = sum(len(t["label"]) for t in drawn if isinstance(t.get("label"), str))
    paths = sum(t.get("kind") == "path" for t in drawn)
    findings = []
    if paths > MAX_PATHS:
        line, column = spec.locate("/targets")
        findings.append(Finding(spec.display, "/targets", f"the spec has {paths} arrows (path targets); the limit is "
                                f"{MAX_PATHS}: split the spec", "limit", line=line, column=column))
    messages = limit_messages(len(steps), entries, len(drawn) * count, label_text * count)
    if messages:
        line, column = spec.locate("/scenarios")
        findings += [Finding(spec.display, "/scenarios", message, "limit", line=line, column=column)
                     for message in messages]
    return findings
