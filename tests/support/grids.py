"""Lane grids with column headers and proportional time, made by the tests: a five-stage CPU pipeline with a
load-use stall (cycle numbers over its columns) and generated grids of a given size."""

from __future__ import annotations

import random

from support.specs import minimal_spec

#: The pipeline's stages (its lanes, top to bottom) and, per instruction, the cycle (from 0) each stage holds it:
#: the add after the load waits a cycle in decode (a bubble enters execute), and the instructions behind it wait too.
STAGES = (("fetch", "IF fetch"), ("decode", "ID decode"), ("execute", "EX execute"), ("memory", "MEM memory"),
          ("writeback", "WB write back"))
PROGRAM = (("lw r1, 0(r2)", (0, 1, 2, 3, 4)), ("add r3, r1, r4", (1, 2, 4, 5, 6)), ("sub r5, r6, r7", (2, 4, 5, 6, 7)),
           ("and r8, r1, r9", (4, 5, 6, 7, 8)))
#: The bubble the stall puts into execute (cycle 3), memory (4) and write back (5).
BUBBLE = {"execute": 3, "memory": 4, "writeback": 5}
CYCLES = 9


def pipeline_spec() -> dict:
    """A five-stage pipeline over nine cycles: lanes are stages, columns cycles headed "cycle 1" to "cycle 9",
    each box the instruction a stage holds in that cycle; one step per cycle; a forwarding path from the load's
    memory stage to the add's execute stage."""
    spec = minimal_spec()
    targets: dict[str, dict] = {}
    held: dict[int, list[str]] = {}
    for lane, _ in STAGES:
        for instruction, cycles in PROGRAM:
            cycle = cycles[[name for name, _ in STAGES].index(lane)]
            key = f"{lane}{cycle}"
            targets[key] = {"id": f"{lane}-c{cycle}", "kind": "node", "label": instruction.split(",")[0]}
            held.setdefault(cycle, []).append(key)
        if lane in BUBBLE:
            key = f"{lane}{BUBBLE[lane]}"
            targets[key] = {"id": f"{lane}-c{BUBBLE[lane]}", "kind": "node", "label": "bubble"}
            held.setdefault(BUBBLE[lane], []).append(key)
    # the stalled add and sub stay in decode and fetch during cycle 3
    for key, label in (("decode3", "add r3"), ("fetch3", "sub r5")):
        targets[key] = {"id": key.replace("3", "-c3"), "kind": "node", "label": f"{label} (stalled)"}
        held.setdefault(3, []).append(key)
    targets["forward"] = {"id": "forward-r1", "kind": "path", "from": "memory3", "to": "execute4",
                          "label": "forward r1"}
    spec.update({
        "title": "A five-stage pipeline stalls one cycle for a load-use hazard",
        "description": "Four instructions through fetch, decode, execute, memory and write back, cycle by cycle.",
        "caption": "The add needs r1 from the load, which has it only after its memory stage: the add waits a cycle.",
        "alt": "Five stage lanes over nine cycle columns, each box the instruction a stage holds in that cycle.",
        "layout": {"lanes": [{"key": key, "label": label} for key, label in STAGES],
                   "columns": [f"cycle {n}" for n in range(1, CYCLES + 1)]},
        "targets": targets,
        "stateLabels": {"stage": "Cycle"},
    })
    spec["scenarios"] = [{
        "id": "load-use", "title": "Load-use stall", "initial": {"stage": "before cycle 1"}, "unselected": [],
        "steps": [{"title": f"Cycle {c + 1}", "description": f"What each stage holds in cycle {c + 1}.",
                   "duration": 1500, "active": sorted(held.get(c, [])), "paths": ["forward"] if c == 4 else [],
                   "state": {"stage": f"cycle {c + 1}"}} for c in range(CYCLES)],
    }]
    return spec


#: Words the generated boxes are labelled with (short and long, numbers with units).
WORDS = ("queue", "prefill 74 ms", "decode", "token 12", "wait", "send the reply", "cache page 7", "idle", "sample",
         "detokenize the piece")


def grid_spec(lanes: int, columns: int, *, seed: int, spans: list[float] | None = None,
              unit: str | None = "ms") -> dict:
    """A lane grid of ``lanes`` by ``columns`` (each cell filled, but for a few left empty in lanes after the first),
    its columns headed, and with ``spans`` sized by them under proportional time in ``unit``; a path along each
    lane's first two boxes and one across the first two lanes; two steps."""
    rng = random.Random(seed)
    spec = minimal_spec()
    targets: dict[str, dict] = {}
    for lane in range(lanes):
        for column in range(columns):
            if lane and column and rng.random() < 0.2:
                continue
            targets[f"l{'abcdefgh'[lane]}{column}"] = {"id": f"n{lane}-{column}", "kind": "node",
                                                      "label": rng.choice(WORDS)}
    targets["along"] = {"id": "along", "kind": "path", "from": "la0", "to": "la1", "label": "next"}
    if lanes > 1 and "lb0" in targets:
        targets["across"] = {"id": "across", "kind": "path", "from": "la0", "to": "lb0"}
    labels = [rng.choice(("start", "18 ms", "step 3", "the long middle stretch", "end", "t")) + f" {n}"
              for n in range(columns)]
    layout: dict = {"lanes": [{"key": f"l{'abcdefgh'[lane]}", "label": f"Lane {lane + 1}"} for lane in range(lanes)]}
    if spans is None:
        layout["columns"] = labels
    else:
        layout["columns"] = [{"label": label, "span": span} for label, span in zip(labels, spans, strict=True)]
        layout["time"] = "proportional"
        if unit:
            layout["unit"] = unit
    keys = [key for key, target in targets.items() if target["kind"] == "node"]
    spec.update({"layout": layout, "targets": targets})
    spec["scenarios"][0]["unselected"] = []
    spec["scenarios"][0]["steps"] = [
        {"title": "One", "duration": 1000, "active": keys[:2], "paths": ["along"], "state": {"stage": "one"}},
        {"title": "Two", "duration": 1000, "active": keys[-2:], "paths": [], "state": {"stage": "two"}}]
    return spec
