"""Specs of many shapes, made in code, for the layout's geometry tests: chains, cycles, fan-out and
fan-in, opposite pairs, long skip edges across a lane grid, lanes with long names, a 40-node graph, long and CJK
labels."""

from __future__ import annotations

import copy

from support.specs import minimal_spec


def node(label: str, n: int) -> dict:
    return {"id": f"t{n}", "kind": "node", "label": label}


def path(a: str, b: str, n: int, label: str | None = None) -> dict:
    entry = {"id": f"p{n}", "kind": "path", "from": a, "to": b}
    if label:
        entry["label"] = label
    return entry


def with_graph(nodes: dict[str, str], edges: list[tuple[str, str, str | None]]) -> dict:
    """A valid spec with ``nodes`` (key -> label) and ``edges`` (from, to, label), one step per node."""
    data = copy.deepcopy(minimal_spec())
    targets = {key: node(label, i) for i, (key, label) in enumerate(nodes.items())}
    for n, (a, b, label) in enumerate(edges):
        targets[f"e{n}"] = path(a, b, n, label)
    data["targets"] = targets
    keys = [k for k in targets if not k.startswith("e")]
    scenario = data["scenarios"][0]
    scenario["unselected"] = []
    scenario["steps"] = [{"title": f"Step {i + 1}", "duration": 1000, "active": [key],
                          "paths": [f"e{i}"] if i < len(edges) else []} for i, key in enumerate(keys[:6])]
    return data


def serving_flow() -> dict:
    """The ten-node serving flow of the figures issue."""
    names = {"client": "Client", "gateway": "API gateway", "tokenizer": "Tokenizer", "scheduler": "Scheduler",
             "gpu": "GPU worker", "kv": "KV cache", "sampler": "Sampler", "detok": "Detokenizer",
             "streamer": "Token streamer", "metrics": "Metrics"}
    edges = [("client", "gateway", "request"), ("gateway", "tokenizer", "text"),
             ("tokenizer", "scheduler", "token ids"), ("scheduler", "gpu", "batch"), ("gpu", "kv", "write K/V"),
             ("kv", "gpu", "read K/V"), ("gpu", "sampler", "logits"), ("sampler", "detok", "token id"),
             ("detok", "streamer", "text piece"), ("streamer", "client", "SSE chunk"),
             ("gateway", "metrics", "latency"), ("sampler", "scheduler", "done?")]
    return with_graph(names, edges)


def compiler_pipeline() -> dict:
    """A new user's compiler pipeline: eleven phases in a chain, three groups, a side box for diagnostics, two pairs of
    opposite arrows inside groups.  Its wide layout folds the chain into bands, 984 units wide."""
    nodes = {"source": "Source files", "lexer": "Lexer", "parser": "Parser", "typeck": "Type checker",
             "diag": "Diagnostics", "lower": "IR lowering", "inline": "Inliner",
             "simplify": "Simplifier (constant folding, DCE)", "isel": "Instruction selection",
             "regalloc": "Register allocation", "link": "Linker"}
    edges = [("source", "lexer", "characters"), ("lexer", "parser", "tokens"), ("parser", "typeck", "AST"),
             ("parser", "diag", "syntax errors"), ("typeck", "diag", "type errors"), ("typeck", "lower", "typed AST"),
             ("lower", "inline", "SSA IR"), ("inline", "simplify", "inlined IR"),
             ("simplify", "inline", "changed: run again"), ("simplify", "isel", "optimised IR"),
             ("isel", "regalloc", "virtual registers"), ("regalloc", "isel", "spill code"),
             ("regalloc", "link", "object file")]
    data = with_graph(nodes, edges)
    data["groups"] = {"frontend": {"label": "Front end", "members": ["lexer", "parser", "typeck"]},
                      "optimiser": {"label": "Optimiser", "members": ["inline", "simplify"]},
                      "backend": {"label": "Back end", "members": ["isel", "regalloc"]}}
    return data


def dead_letter_queue() -> dict:
    """A new user's dead-letter queue (issue 26): a consumer takes orders off a queue, inserts them, and sends a
    failed one to a retry queue, which delivers it again, or after three tries to a dead-letter queue.  944 units
    across; drawn down the page its retry arrow crossed another, so that it had no middle layout."""
    names = {"producer": "Producer", "queue": "orders queue", "consumer": "Consumer",
             "retry": "Retry queue (30 s delay)", "dlq": "Dead-letter queue", "db": "Orders DB"}
    edges = [("producer", "queue", "publish"), ("queue", "consumer", "deliver"), ("consumer", "db", "insert"),
             ("consumer", "retry", "nack: timeout"), ("retry", "queue", "redeliver"),
             ("consumer", "dlq", "after 3 tries")]
    return with_graph(names, edges)


def ci_pipeline() -> dict:
    """A new user's CI pipeline (issue 26): a push checked out and built, the build fanning out to five jobs that
    fan in to a deploy.  810 units across; drawn down the page its five jobs did not fit a middle layout's width
    side by side, so that it had none."""
    names = {"push": "git push", "checkout": "Checkout", "build": "Build", "lint": "Lint", "unit": "Unit tests",
             "integ": "Integration tests", "docs": "Docs build", "scan": "Security scan",
             "deploy": "Deploy to staging"}
    jobs = ("lint", "unit", "integ", "docs", "scan")
    edges: list[tuple[str, str, str | None]] = [("push", "checkout", "webhook"), ("checkout", "build", None)]
    edges += [("build", job, None) for job in jobs] + [(job, "deploy", None) for job in jobs]
    return with_graph(names, edges)


def topologies() -> dict[str, dict]:
    """Every shape by name."""
    shapes: dict[str, dict] = {}
    shapes["chain"] = with_graph({f"n{i}x": f"stage {i}" for i in range(6)},
                                 [(f"n{i}x", f"n{i + 1}x", f"hop {i}") for i in range(5)])
    shapes["cycle"] = with_graph({"fetch": "fetch", "decode": "decode", "execute": "execute"},
                                 [("fetch", "decode", None), ("decode", "execute", None), ("execute", "fetch", "next PC")])
    fan = {"lb": "load balancer", "agg": "aggregator"} | {f"w{i}x": f"worker {i}" for i in range(6)}
    shapes["fan-out-in"] = with_graph(fan, [("lb", f"w{i}x", None) for i in range(6)]
                                      + [(f"w{i}x", "agg", None) for i in range(6)])
    shapes["opposite-pairs"] = with_graph({"client": "client", "server": "server", "db": "database"},
                                          [("client", "server", "request"), ("server", "client", "response"),
                                           ("server", "db", "read"), ("db", "server", "rows")])
    grid = {f"{lane}{i}": f"{lane} step {i}" for lane in ("a", "b", "c") for i in range(5)}
    shapes["grid-skips"] = with_graph(grid, [("a0", "a4", "skip ahead"), ("a1", "c3", "diagonal"),
                                             ("c4", "a0", "back to start"), ("b2", "b3", None), ("b3", "b2", "reply"),
                                             ("a2", "c2", "down two lanes")])
    lanes = {f"{lane}{i}": f"{lane} step {i}" for lane in ("a", "b") for i in range(3)}
    shapes["long-lane-names"] = with_graph(lanes, [("a0", "a1", "next"), ("a2", "a0", "back to the start"),
                                                   ("b0", "b2", "skip"), ("b1", "b0", None)])
    shapes["long-lane-names"]["layout"] = {"lanes": [
        {"key": "a", "label": "Without chunking: two running streams"},
        {"key": "b", "label": "With chunking: the long prompt beside them"}]}
    forty = {f"n{i}x": f"node {i}" for i in range(40)}
    shapes["forty"] = with_graph(forty, [(f"n{i}x", f"n{j}x", None) for i in range(40) for j in (2 * i + 1, 3 * i + 2)
                                         if j < 40])
    shapes["long-and-cjk"] = with_graph(
        {"a": "一个很长的中文标签，用来测试换行和宽度", "b": "A very long label that should wrap over several lines in its box",
         "c": "短", "d": "مرحلة فك الترميز"},
        [("a", "b", "長いラベル：テスト"), ("b", "c", "a long path label here"), ("c", "d", "التالي"), ("d", "a", None)])
    shapes["serving"] = serving_flow()
    shapes["dead-letter-queue"] = dead_letter_queue()
    shapes["ci-pipeline"] = ci_pipeline()
    return shapes
