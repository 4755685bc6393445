"""Time and memory of the largest inputs the limits allow: every spec here is one the size limits admit
(or one that the limits refuse, where the refusal itself must be quick), built as whole processes.

Budgets, on CPU time (user and system, the process and its workers) and peak resident memory of the
largest process, median of ``--runs`` runs (1 by default: each case takes seconds):

- any spec the limits allow validates in at most 10 s and 500 MB;
- and builds its SVG and HTML in at most 30 s and 1 GiB;
- ``--png``, ``--gif`` and ``--frames`` of the largest spec within the figures the README states
  (:data:`RASTER_BUDGETS`; with ``--raster``, which needs the ``raster`` extra).

The cases are the break-it days' (see the CHANGELOG): many labelled arrows among few boxes, the most boxes,
arrows and steps at once, layered graphs dense and less so (issue 27's second tries), a wide lane grid full of
arcs whose labels change, a 4 MiB spec of two million list items (each one wrong), an unknown key holding two
million integers, and a source whose SHA-256 is wrong.
Run from the repository root with the package installed:

    python bench/bench_limits.py [--runs 1] [--raster] [--only NAME]

Prints a table; exits 1 when a budget is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

MB = 1000 * 1000
GIB = 1024 * 1024 * 1024

#: (seconds of CPU, bytes of peak memory) for validate and for a build of SVG and HTML.
VALIDATE_BUDGET = (10.0, 500 * MB)
BUILD_BUDGET = (30.0, GIB)
#: The README's figures for the raster formats of 120 boxes and 500 steps, by flag (measured: 107 s and 284 MB,
#: 198 s and 2.3 GB: Pillow's GIF writer keeps every frame until it writes, 2.7 s and 232 MB).
RASTER_BUDGETS = {"--png": (150.0, GIB), "--gif": (300.0, 3 * GIB), "--frames": (10.0, GIB)}


def base() -> dict:
    """A valid spec with no target and one scenario of no step; the cases fill it."""
    return {"version": 1, "language": "en", "title": "Limits", "description": "A spec at the limits.",
            "caption": "A spec at the limits.", "alt": "Many boxes and arrows.", "sources": [],
            "limitations": ["Made for a benchmark."], "targets": {}, "stateLabels": {"stage": "Stage"},
            "scenarios": []}


def boxes_and_arrows(nodes: int, arrows: int, scenarios: int, steps: int, active: int) -> dict:
    """``nodes`` boxes in lanes of ten, ``arrows`` labelled arrows between pseudo-random pairs, and
    ``scenarios`` scenarios of ``steps`` steps each lighting ``active`` boxes and one arrow."""
    spec = base()
    targets = spec["targets"]
    keys = []
    for i in range(nodes):
        key = f"lane{i // 10}x{i % 10}"
        keys.append(key)
        targets[key] = {"id": f"n{i}", "kind": "node", "label": f"box {i}"}
    arrow_keys = []
    for k in range(arrows):
        a, b = (k * 7919) % nodes, (k * 104729 + 13) % nodes
        if a == b:
            b = (b + 1) % nodes
        key = f"arrow{k}"
        arrow_keys.append(key)
        targets[key] = {"id": f"p{k}", "kind": "path", "from": keys[a], "to": keys[b], "label": f"message {k}"}
    spec["scenarios"] = [{
        "id": f"s{s}", "title": f"Scenario {s}", "description": "Steps over the boxes.", "initial": {"stage": "0"},
        "steps": [{"title": f"Step {j}", "description": f"Step {j} of the scenario.", "duration": 400,
                   "state": {"stage": str(j)},
                   "active": [keys[(j * active + k) % nodes] for k in range(active)],
                   "paths": [arrow_keys[j % len(arrow_keys)]] if arrow_keys else []}
                  for j in range(steps)]} for s in range(scenarios)]
    return spec


def layered_graph(nodes: int, arrows: int) -> dict:
    """``nodes`` boxes whose keys name no lane (a layered graph, not a lane grid) and ``arrows`` labelled arrows
    between pseudo-random pairs, both ways (cycles): a dense graph whose drawing crosses in a hundred places, so
    that the layout's second tries (another cycle breaking, routes ripped up and routed again: issue 27) are
    bounded, not multiplied; one step a box."""
    spec = base()
    targets = spec["targets"]
    keys = [f"n{i}x" for i in range(nodes)]
    for i, key in enumerate(keys):
        targets[key] = {"id": f"n{i}", "kind": "node", "label": f"box {i}"}
    pick = random.Random(nodes * 1000 + arrows)  # seeded: the same graph every run
    for k in range(arrows):
        a, b = pick.sample(range(nodes), 2)
        targets[f"arrow{k}"] = {"id": f"p{k}", "kind": "path", "from": keys[a], "to": keys[b], "label": f"call {k}"}
    spec["scenarios"] = [{
        "id": "s0", "title": "Scenario", "description": "A step a box.", "initial": {"stage": "0"},
        "steps": [{"title": f"Step {j}", "description": f"Step {j}.", "duration": 400, "state": {"stage": str(j)},
                   "active": [key]} for j, key in enumerate(keys)]}]
    return spec


def lane_arcs(lanes: int, columns: int, arcs: int, steps: int) -> dict:
    """A lane grid of ``lanes`` x ``columns`` boxes and ``arcs`` labelled arrows each between two boxes of one
    lane (arcs beside it), every arrow marked lost and relabelled in each of ``steps`` steps that animate ten
    arrows apiece: the grid too wide for a phone, so the narrow variant keeps the wide grid."""
    spec = base()
    targets = spec["targets"]
    for lane in range(lanes):
        for column in range(columns):
            targets[f"l{lane}x{column}"] = {"id": f"n{lane}-{column}", "kind": "node", "label": f"box {column}"}
    arrow_keys = []
    for k in range(arcs):
        lane = k % lanes
        a, b = k % columns, (k * 3 + 5) % columns
        if a == b:
            b = (b + 1) % columns
        arrow_keys.append(f"arc{k}")
        targets[f"arc{k}"] = {"id": f"p{k}", "kind": "path", "from": f"l{lane}x{a}", "to": f"l{lane}x{b}",
                              "label": f"arc {k}"}
    spec["scenarios"] = [{
        "id": "s0", "title": "Scenario", "description": "Steps over the arcs.", "initial": {"stage": "0"},
        "steps": [{"title": f"Step {j}", "description": f"Step {j}.", "duration": 400, "state": {"stage": str(j)},
                   "paths": arrow_keys[j * 10 % arcs:j * 10 % arcs + 10],
                   "marks": dict.fromkeys(arrow_keys, "lost"),
                   "labels": dict.fromkeys(arrow_keys, f"relabel {j} " * (j + 2))}
                  for j in range(steps)]}]
    return spec


def refs_spec(nodes: int, scenarios: int, steps: int, active: int, bad: bool = False) -> dict:
    """``nodes`` boxes and ``scenarios`` x ``steps`` steps each lighting ``active`` of them (with ``bad``, names
    that are no target: one ``unknown-target`` finding each)."""
    spec = boxes_and_arrows(nodes, 0, scenarios, steps, active)
    if bad:
        for scenario in spec["scenarios"]:
            for j, step in enumerate(scenario["steps"]):
                step["active"] = [f"missing{scenario['id']}x{j}x{k}" for k in range(active)]
    return spec


def many_wrong_items() -> bytes:
    """A spec of nearly 4 MiB whose ``limitations`` list holds two million integers (each a type error)."""
    spec = boxes_and_arrows(4, 1, 1, 2, 1)
    spec["limitations"] = [0] * 2_000_000
    return json.dumps(spec, separators=(",", ":")).encode()


def unknown_key_of_integers() -> bytes:
    """A valid spec but for an unknown key holding two million integers (nearly 4 MiB)."""
    spec = boxes_and_arrows(4, 1, 1, 2, 1)
    spec["extra"] = [0] * 2_000_000
    return json.dumps(spec, separators=(",", ":")).encode()


def many_non_finite() -> bytes:
    """A spec of nearly 4 MiB whose unknown key holds a million ``NaN`` (each a ``non-finite-number`` finding)."""
    head = json.dumps(boxes_and_arrows(4, 1, 1, 2, 1), separators=(",", ":"))[:-1]
    return (head + ',"extra":[' + ",".join(["NaN"] * 1_000_000) + "]}").encode()


def many_invisible_strings() -> bytes:
    """A spec of nearly 4 MiB whose unknown key holds 690,000 strings of one zero-width space each."""
    spec = boxes_and_arrows(4, 1, 1, 2, 1)
    spec["extra"] = ["\u200b"] * 690_000
    return json.dumps(spec, separators=(",", ":"), ensure_ascii=False).encode()


def many_duplicate_keys() -> bytes:
    """A spec whose unknown object repeats 100,000 keys (each a ``duplicate-key`` finding)."""
    head = json.dumps(boxes_and_arrows(4, 1, 1, 2, 1), separators=(",", ":"))[:-1]
    pairs = ",".join(f'"k{i}":0,"k{i}":1' for i in range(100_000))
    return (head + ',"extra":{' + pairs + "}}").encode()


def text(spec: dict) -> bytes:
    """The spec as JSON text."""
    return json.dumps(spec, indent=1).encode()


#: (name, the spec's bytes, commands to run: "validate", "build" or a raster flag, whether it must be valid)
CASES: list[tuple[str, Callable[[], bytes], tuple[str, ...], bool]] = [
    ("150 labelled arrows among 20 boxes", lambda: text(boxes_and_arrows(20, 150, 1, 8, 2)),
     ("validate", "build"), True),
    ("850 boxes, 150 arrows, 4 x 500 steps",
     lambda: text(boxes_and_arrows(850, 150, 4, 500, 9)), ("validate", "build"), True),
    ("200 boxes in 10 lanes, 150 arcs within lanes", lambda: text(lane_arcs(10, 20, 150, 15)),
     ("validate", "build"), True),
    ("a layered graph of 30 boxes, 60 arrows", lambda: text(layered_graph(30, 60)), ("validate", "build"), True),
    ("a layered graph of 10 boxes, 16 arrows", lambda: text(layered_graph(10, 16)), ("validate", "build"), True),
    ("120 boxes, 500 steps (raster)", lambda: text(boxes_and_arrows(120, 20, 1, 500, 4)),
     ("--png", "--gif", "--frames"), True),
    ("2 million wrong list items", many_wrong_items, ("validate",), False),
    ("5000 boxes, 8 x 500 steps (refused)", lambda: text(refs_spec(5000, 8, 500, 5)), ("validate",), False),
    ("20000 references to no target", lambda: text(refs_spec(1000, 4, 500, 10, bad=True)), ("validate",), False),
    ("unknown key of 2 million integers", unknown_key_of_integers, ("validate",), False),
    ("a million NaN", many_non_finite, ("validate",), False),
    ("690,000 invisible strings", many_invisible_strings, ("validate",), False),
    ("100,000 duplicated keys", many_duplicate_keys, ("validate",), False),
]


def run(command: list[str], cwd: Path) -> tuple[float, int, int]:
    """CPU seconds (the process and its children), the peak resident bytes of the largest process, and the
    exit status of one command; its output is discarded."""
    child = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--raster", action="store_true", help="also PNG, GIF and frames (the raster extra)")
    parser.add_argument("--only", help="run only the cases whose name contains this")
    args = parser.parse_args()
    beside = Path(sys.executable).parent / "mechdiagram"
    exe = str(beside) if beside.is_file() else shutil.which("mechdiagram")
    if exe is None:
        sys.exit("mechdiagram is not installed: run `make setup` or `pip install .` first")
    missed = 0
    print(f"{'case':<40} {'command':<9} {'cpu':>8} {'memory':>9}  budget")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, make, commands, valid in CASES:
            if args.only and args.only not in name:
                continue
            (work / "case.mechanism.json").write_bytes(make())
            for command in commands:
                if command.startswith("--") and not args.raster:
                    continue
                argv = [exe, "validate", "case.mechanism.json"] if command == "validate" else [
                    exe, "build", "case.mechanism.json", "-o", "out", "--force",
                    *([command] if command.startswith("--") else [])]
                budget = VALIDATE_BUDGET if command == "validate" else RASTER_BUDGETS.get(command, BUILD_BUDGET)
                measured = []
                for _ in range(args.runs):
                    shutil.rmtree(work / "out", ignore_errors=True)
                    cpu, memory, status = run(argv, work)
                    if status not in ((0,) if valid else (1,)):
                        print(f"{name}: {command} exited {status}")
                        missed += 1
                    measured.append((cpu, memory))
                cpu = statistics.median(m[0] for m in measured)
                memory = int(statistics.median(m[1] for m in measured))
                ok = cpu <= budget[0] and memory <= budget[1]
                missed += not ok
                print(f"{name:<40} {command:<9} {cpu:7.1f}s {memory / MB:7.0f}MB  {budget[0]:.0f} s, "
                      f"{budget[1] / MB:.0f} MB {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
