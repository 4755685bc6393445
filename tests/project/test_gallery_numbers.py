"""Every number the gallery's specs state, recomputed from the inputs table of their notes source.

Each spec in ``mechanisms/`` (but the project's first one, ``prefill-decode``, whose notes predate the
inputs tables) names a notes file under ``mechanisms/sources/`` with an ``## Inputs`` table. The
functions below turn those inputs into the figures the mechanism implies, by its formulas (pages =
⌈positions ÷ page size⌉; decode forwards = N − 1; TTFT = queue + prefill; bytes = 2·L·H_kv·T·d·b; a
schedule simulated slot by slot), and ``support.gallery.problems`` checks the spec's text against
them: its arithmetic, every number tagged with a unit word, every ``k of n``, and that each key
figure is stated.

This test is meant to fail when a spec's text and its notes disagree: change "8 pages" to "9 pages"
in ``paged-kv-cache.mechanism.json``, or 74 to 75 in the notes' table, and it fails (the last tests
make such edits and check that the checker reports them).
"""

from __future__ import annotations

import json
import math
import re

import pytest

from support.gallery import NUMBER, Facts, false_claims, number, problems, read_inputs, texts
from support.specs import MECHANISMS, ROOT

#: The project's first spec has notes in the older form, without an inputs table.
NOT_IN_THE_GALLERY = {"prefill-decode"}


def inputs_of(spec: dict) -> dict[str, float]:
    """The inputs table of the first source of ``spec`` that has one."""
    for source in spec["sources"]:
        path = ROOT / source["path"]
        if "## Inputs" in path.read_text("utf-8").splitlines():
            return read_inputs(path)
    raise AssertionError("no source of the spec has an ## Inputs table")


def span(first: float, last: float) -> set[float]:
    return set(range(int(first), int(last) + 1))


def worked_request(i: dict[str, float]) -> dict[str, float]:
    """Derived figures of r-104: forwards, cached positions, pages, TTFT, gaps."""
    decode = i["output_tokens"] - 1
    cached_end = i["prompt_tokens"] + decode
    return {"decode": decode, "cached_end": cached_end, "final": i["prompt_tokens"] + i["output_tokens"],
            "pages_prefill": math.ceil(i["prompt_tokens"] / i["page_tokens"]),
            "pages_end": math.ceil(cached_end / i["page_tokens"]),
            "ttft": i["queue_ms"] + i["prefill_ms"], "gap": 1000 / i["decode_rate"]}


def paged_kv_cache(i: dict[str, float]) -> Facts:
    r, size = worked_request(i), i["page_tokens"]
    cached = {0.0} | span(i["prompt_tokens"], r["cached_end"])
    pages = {float(math.ceil(c / size)) for c in cached}
    bounds = {size * k + 1 for k in range(int(r["pages_end"]))} | {size * (k + 1) for k in range(int(r["pages_end"]))}
    return Facts(
        before={"positions?": cached | bounds, "pages?": pages, "tokens?": {i["prompt_tokens"], i["output_tokens"]}},
        after={"pages?": span(1, r["pages_end"]), "positions?": cached | bounds, "forwards?": span(1, r["decode"]),
               "tokens?": span(1, i["output_tokens"])},
        totals={size},
        required={i["prompt_tokens"], i["output_tokens"], size, r["pages_prefill"], r["pages_end"], r["cached_end"],
                  r["decode"], i["prompt_tokens"] + 1})


def latency_ledger(i: dict[str, float]) -> Facts:
    r = worked_request(i)
    # (decode − 2) gaps: gaps 2 to 30, folded into one step and one column.
    times = {i["queue_ms"], i["prefill_ms"], r["gap"], r["decode"] * r["gap"], (r["decode"] - 2) * r["gap"], 0.0}
    times |= {r["ttft"] + k * r["gap"] for k in range(int(r["decode"]) + 1)}
    return Facts(
        before={"ms": times, "tokens per second": {i["decode_rate"]}, "tokens?": {i["prompt_tokens"], i["output_tokens"]},
                "gaps?": span(0, r["decode"]), "positions": {i["prompt_tokens"]}, "forwards?": {r["decode"]}},
        after={"tokens?": span(1, i["output_tokens"]), "gaps?": span(1, r["decode"]),
               "forwards?": span(1, r["decode"])},
        totals={i["output_tokens"], r["decode"]},
        required={i["queue_ms"], i["prefill_ms"], r["ttft"], r["gap"], i["decode_rate"], r["decode"],
                  r["decode"] * r["gap"], r["ttft"] + r["decode"] * r["gap"], i["output_tokens"]})


def serving_stack(i: dict[str, float]) -> Facts:
    r = worked_request(i)
    return Facts(
        before={"tokens?": {i["prompt_tokens"], i["output_tokens"]}, "pages?": {0.0, r["pages_prefill"], r["pages_end"]},
                "positions?": {i["prompt_tokens"], r["cached_end"]}, "forwards?": {r["decode"]},
                "times": {r["decode"]}},
        after={"tokens?": span(1, i["output_tokens"])},
        totals={i["output_tokens"]},
        required={i["prompt_tokens"], i["output_tokens"], r["decode"], r["pages_prefill"], r["pages_end"]})


def prefill_vs_decode(i: dict[str, float]) -> Facts:
    prompt, answer = i["prompt_tokens"], i["answer_tokens"]
    decode = answer - 1
    return Facts(
        before={"positions?": {1.0} | span(prompt, prompt + decode), "tokens?": {prompt, answer},
                "forwards?": {1.0, decode, answer}, "selections": {decode}},
        after={"forwards?": span(1, answer), "tokens?": span(1, answer)},
        totals={answer},
        required={prompt, answer, decode, prompt + decode})


def schedule(slots: int, needs: dict[str, int], continuous: bool) -> list[dict[str, int]]:
    """Per engine step, the requests that produce a token and the index of that token.

    Requests are admitted in order into free slots: between any two steps when ``continuous``, else
    only once the whole batch is done (a finished member of a static batch keeps its slot).
    """
    waiting, running, steps = list(needs), {}, []
    while waiting or running:
        if continuous or not running:
            while waiting and len(running) < slots:
                running[waiting.pop(0)] = 0
        produced = {name: done + 1 for name, done in running.items() if done < needs[name]}
        running.update(produced)
        steps.append(produced)
        if continuous:
            running = {name: done for name, done in running.items() if done < needs[name]}
        elif all(done == needs[name] for name, done in running.items()):
            running = {}
    return steps


def batching_runs(i: dict[str, float]) -> dict[str, list[dict[str, int]]]:
    needs = {"A": int(i["steps_a"]), "B": int(i["steps_b"]), "C": int(i["steps_c"])}
    return {policy: schedule(int(i["slots"]), needs, policy == "continuous") for policy in ("static", "continuous")}


def idle(slots: int, steps: list[dict[str, int]]) -> list[int]:
    """Idle slot steps so far, after each engine step."""
    return [sum(slots - len(step) for step in steps[: k + 1]) for k in range(len(steps))]


def batching(i: dict[str, float]) -> Facts:
    runs, slots = batching_runs(i), int(i["slots"])
    waits = {policy: next(k for k, step in enumerate(steps) if "C" in step) for policy, steps in runs.items()}
    needs = {i["steps_a"], i["steps_b"], i["steps_c"]}
    counts = {float(len(s)) for s in runs.values()} | {float(w) for w in waits.values()}
    idles = {float(v) for steps in runs.values() for v in idle(slots, steps)}
    return Facts(
        before={"tokens?": needs, "idle slot steps?": idles, "steps?": counts | idles, "slot steps?": idles},
        after={"steps?": span(1, max(len(s) for s in runs.values())), "tokens?": span(1, max(needs))},
        totals=needs,
        required=counts | {max(idles)} | needs)


def chunked_prefill(i: dict[str, float]) -> Facts:
    prompt, chunk, cost, decode = i["prompt_tokens"], i["chunk_tokens"], i["prefill_ms_per_token"], i["decode_ms"]
    whole, chunks = prompt * cost, math.ceil(prompt / chunk)
    step = chunk * cost + decode
    times = {0.0, cost, decode, whole, whole + decode, chunk * cost, chunks * step - whole}
    times |= {k * step for k in range(1, chunks + 1)}
    bounds = {chunk * k + 1 for k in range(chunks)} | {chunk * (k + 1) for k in range(chunks)}
    return Facts(
        before={"ms": times, "tokens?": {prompt, chunk}, "chunks?": {float(chunks)}, "streams?": {i["streams"]}},
        after={"tokens?": bounds, "chunks?": span(1, chunks), "token": {1.0}},
        totals={float(chunks)},
        required={prompt, chunk, cost, decode, whole, whole + decode, step, chunks * step, chunks * step - whole,
                  float(chunks)})


def kv_products(i: dict[str, float], heads: float) -> list[float]:
    """The running product 2 × layers × KV heads × tokens × head dimension × bytes per value."""
    values = [2.0]
    for factor in (i["layers"], heads, i["tokens"], i["head_dim"], i["bytes_per_value"]):
        values.append(values[-1] * factor)
    return values


def kv_cache_bytes(i: dict[str, float]) -> Facts:
    mha, gqa = kv_products(i, i["kv_heads_mha"]), kv_products(i, i["kv_heads_gqa"])
    totals = {mha[-1], gqa[-1]}
    return Facts(
        before={"bytes per value": {i["bytes_per_value"]}, "bytes": totals | {i["bytes_per_value"]}, "GiB": {t / 2**30 for t in totals},
                "MiB": {t / 2**20 for t in totals}, "layers": {i["layers"]},
                "KV heads": {i["kv_heads_mha"], i["kv_heads_gqa"]}, "query heads": {i["kv_heads_mha"]},
                "tokens?": {i["tokens"]}, "values per head": {i["head_dim"]}, "bit": {8 * i["bytes_per_value"]},
                "times": {mha[-1] / gqa[-1]}},
        after={"=|is": set(mha) | set(gqa) | {mha[-1] / gqa[-1]}, "dimension": {i["head_dim"]}},
        totals=set(),
        required=set(mha) | set(gqa) | {mha[-1] / gqa[-1], mha[-1] / 2**30, gqa[-1] / 2**20})


def web_worker(i: dict[str, float]) -> Facts:
    return Facts()


FACTS = {"paged-kv-cache": paged_kv_cache, "latency-ledger": latency_ledger, "serving-stack": serving_stack,
         "prefill-vs-decode": prefill_vs_decode, "batching": batching, "chunked-prefill": chunked_prefill,
         "kv-cache-bytes": kv_cache_bytes, "web-worker": web_worker}


def load(name: str) -> dict:
    return json.loads((MECHANISMS / f"{name}.mechanism.json").read_text("utf-8"))


def test_every_gallery_spec_has_its_numbers_checked():
    names = {path.name.removesuffix(".mechanism.json") for path in MECHANISMS.glob("*.mechanism.json")}
    assert names - NOT_IN_THE_GALLERY == set(FACTS)


@pytest.mark.parametrize("name", sorted(FACTS))
def test_the_spec_states_only_numbers_its_inputs_give(name):
    assert all_problems(name, load(name)) == []


def test_the_arithmetic_in_the_notes_holds():
    notes = sorted((MECHANISMS / "sources").glob("*.md"))
    assert len(notes) >= len(FACTS) - 2  # three specs share the notes of request r-104
    assert {path.name: false_claims(path.read_text("utf-8")) for path in notes} == {path.name: [] for path in notes}


def test_a_figure_without_inputs_states_no_number():
    spec = load("web-worker")
    assert inputs_of(spec) == {}
    assert [(pointer, text) for pointer, text in texts(spec) if re.search(r"\d", text)] == []


def schedule_problems(spec: dict) -> list[str]:
    """Where a batching step's batch ("A (token 3 of 5)"), idle count or cells differ from the simulation."""
    i = inputs_of(spec)
    found = []
    for scenario in spec["scenarios"]:
        steps = batching_runs(i)[scenario["id"]]
        state = dict(scenario["initial"])
        if len(scenario["steps"]) != len(steps):
            found.append(f"{scenario['id']}: {len(scenario['steps'])} steps, the schedule has {len(steps)}")
        for k, (step, expected) in enumerate(zip(scenario["steps"], steps)):
            state.update(step["state"])
            batch = {name: int(done) for name, done, _ in re.findall(r"([ABC]) \(token (\d+) of (\d+)\)", state["batch"])}
            idle_now = number(re.match(NUMBER, state["idle"]).group(0))
            cells = {(key[1].upper(), int(key[2:])) for key in step["active"]}
            if batch != expected or idle_now != idle(int(i["slots"]), steps)[k] or cells != {(n, k) for n in expected}:
                found.append(f"{scenario['id']} step {k + 1} ({step['title']}): {batch}, {idle_now:g} idle, "
                             f"cells {sorted(cells)}; the schedule has {expected}")
    return found


def all_problems(name: str, spec: dict) -> list[str]:
    return problems(spec, FACTS[name](inputs_of(spec))) + (schedule_problems(spec) if name == "batching" else [])


def test_the_batching_steps_follow_the_simulated_schedule():
    spec = load("batching")
    assert [s["id"] for s in spec["scenarios"]] == ["static", "continuous"]
    assert schedule_problems(spec) == []


def test_a_changed_key_figure_is_caught_wherever_it_is_written():
    """Replacing every occurrence of one required figure (say 92 by 93 throughout) leaves it unstated."""
    for name, make in FACTS.items():
        spec = load(name)
        facts = make(inputs_of(spec))
        for value in sorted(facts.required):
            written = f"{value:,.0f}" if value == int(value) else f"{value:g}"
            changed = f"{value + 1:,.0f}" if value == int(value) else f"{value + 1:g}"
            raw = re.sub(rf"(?<![\d,.]){re.escape(written)}(?![\d]|,\d|\.\d)", changed,
                         (MECHANISMS / f"{name}.mechanism.json").read_text("utf-8"))
            if raw != (MECHANISMS / f"{name}.mechanism.json").read_text("utf-8"):
                assert all_problems(name, json.loads(raw)), f"{name}: {written} -> {changed} went unnoticed"


@pytest.mark.parametrize(("name", "old", "new"), [
    ("paged-kv-cache", "still 8 pages", "still 9 pages"),
    ("paged-kv-cache", "⌈113 ÷ 16⌉ = 8 pages", "⌈113 ÷ 16⌉ = 7 pages"),
    ("latency-ledger", "queue 18 ms + prefill 74 ms", "queue 18 ms + prefill 75 ms"),
    ("latency-ledger", "≈ 46.7 ms", "≈ 47.7 ms"),
    ("prefill-vs-decode", "127 further selections", "128 further selections"),
    ("batching", "6 idle slot steps", "5 idle slot steps"),
    ("chunked-prefill", "a 537 ms gap", "a 536 ms gap"),
    ("kv-cache-bytes", "bytes (2 GiB)", "bytes (4 GiB)"),
    ("serving-stack", "frees the 8 pages", "frees the 9 pages"),
])
def test_one_changed_number_is_reported(name, old, new):
    raw = (MECHANISMS / f"{name}.mechanism.json").read_text("utf-8")
    assert old in raw
    assert all_problems(name, json.loads(raw.replace(old, new, 1)))


def test_the_latency_ledger_columns_span_the_times_of_its_notes():
    """The ledger's proportional columns: queue, prefill, the instant of token 1, gap 1, gaps 2 to 30 and the last
    gap, each as long as the notes make it (to the 0.01 ms the spec writes), and together the last token's time."""
    spec = load("latency-ledger")
    i = inputs_of(spec)
    r = worked_request(i)
    layout = spec["layout"]
    assert (layout["time"], layout["unit"]) == ("proportional", "ms")
    expected = [i["queue_ms"], i["prefill_ms"], 0.0, r["gap"], (r["decode"] - 2) * r["gap"], r["gap"]]
    assert [column["span"] for column in layout["columns"]] == pytest.approx(expected, abs=0.005)
    assert sum(column["span"] for column in layout["columns"]) == pytest.approx(r["ttft"] + r["decode"] * r["gap"],
                                                                               abs=0.01)


def test_a_changed_input_is_reported():
    """Editing the notes' table (prefill 75 ms instead of 74) makes the unchanged ledger wrong."""
    spec = load("latency-ledger")
    i = inputs_of(spec) | {"prefill_ms": inputs_of(spec)["prefill_ms"] + 1}
    assert problems(spec, latency_ledger(i))
