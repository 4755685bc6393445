"""Speed and memory of `mechdiagram build`, measured as whole processes.

Targets: one build of a reference-sized spec (18 targets, 7 steps) under 0.5 s
and under 100 MiB peak memory; a batch of synthetic specs (200 specs of 30
targets and 12 steps each) at 100 specs per second or more; the layered layout
and routing of a 10-node flow with a dozen paths, and the layout of the
reference-sized spec, at most 20 ms a build (validation lays the figure out
once and the drawing reuses it); a 40-node graph is reported.  Run from the repository root with the package installed:

    python bench/bench_build.py [--runs 5] [--batch 200] [--work-dir DIR]

It writes specs into a temporary folder (inside ``build/bench``: see ``--work-dir``), runs the installed `mechdiagram`
console script, and prints milliseconds per spec.  It exits 1 when a target
is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def synthetic_spec(n: int, lanes: int, columns: int, steps: int) -> dict:
    """A valid spec with ``lanes * columns`` nodes in a grid and ``steps`` steps of 1000 ms."""
    names = [f"lane{chr(97 + i)}" for i in range(lanes)]
    targets = {f"{lane}{c}": {"id": f"s{n}-{lane}{c}", "kind": "node", "label": f"{lane} step {c} work"}
               for c in range(columns) for lane in names}
    keys = list(targets)
    return {
        "version": 1, "language": "en", "title": f"Synthetic mechanism {n}",
        "description": "Benchmark input.", "caption": "Benchmark caption.", "alt": "Benchmark grid.",
        "sources": [], "limitations": ["Synthetic."],
        "targets": targets,
        "stateLabels": {"stage": "Stage", "artifact": "Artifact"},
        "scenarios": [{
            "id": "main", "title": "Main", "description": "Benchmark scenario.",
            "initial": {"stage": "start", "artifact": "none"}, "unselected": [keys[-1]],
            "steps": [{"title": f"Step {s}", "description": f"Step {s} of the benchmark.", "duration": 1000,
                       "active": keys[s % len(keys): s % len(keys) + lanes], "paths": [],
                       "state": {"stage": f"stage {s}", "artifact": f"artifact {s}"}} for s in range(steps)],
        }],
    }


def flow_spec(nodes: int, edges: list[tuple[int, int]], labels: bool = True) -> dict:
    """A valid spec of ``nodes`` boxes keyed ``n<i>x`` (not a lane grid: the layered layout) and paths."""
    targets: dict[str, dict] = {f"n{i}x": {"id": f"n{i}", "kind": "node", "label": f"stage {i} of the flow"}
                                for i in range(nodes)}
    for k, (a, b) in enumerate(edges):
        targets[f"e{k}"] = {"id": f"e{k}", "kind": "path", "from": f"n{a}x", "to": f"n{b}x"}
        if labels:
            targets[f"e{k}"]["label"] = f"hop {k}"
    spec = synthetic_spec(0, 1, 1, 4)
    spec["targets"] = targets
    spec["scenarios"][0]["unselected"] = []
    for s, step in enumerate(spec["scenarios"][0]["steps"]):
        step["active"], step["paths"] = [f"n{s}x"], [f"e{s}"]
    return spec


#: The ten-node serving flow: a chain with a KV-cache round trip, a metrics branch, a loop back to the
#: scheduler and the stream back to the client.
SERVING_EDGES = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 4), (4, 6), (6, 7), (7, 8), (8, 0), (1, 9), (6, 3)]
FORTY_EDGES = [(i, j) for i in range(40) for j in (2 * i + 1, 3 * i + 2) if j < 40]


def layout_ms(spec: dict, repeat: int = 20) -> tuple[float, float]:
    """Median milliseconds of laying out ``spec``'s first scenario in both its layouts, wide and narrow (a build
    draws both), in this process: wall-clock time, and the CPU time of this process (which other work on a busy
    machine inflates far less)."""
    from mechdiagram.layout import diagram, layout_scenario
    from mechdiagram.shared.model import spec_from_data

    model = spec_from_data(spec)

    def both() -> None:
        layout_scenario(model, model.scenarios[0])
        layout_scenario(model, model.scenarios[0], diagram(model, narrow=True))

    both()  # warm: imports and caches
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        both()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(times) * 1000, statistics.median(cpu) * 1000


def run(command: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="whole-process builds of the reference-sized spec")
    parser.add_argument("--batch", type=int, default=200, help="synthetic specs in the batch")
    parser.add_argument("--work-dir", type=Path, default=ROOT / "build" / "bench",
                        help="folder to build in, a new temporary folder inside it [default: build/bench of the "
                             "repository, not the system's temporary folder: ext4 skips inodes freed in the last "
                             "60 to 300 s when it creates a file, so where a test run just deleted thousands of "
                             "files each new file costs more system time, whatever the build does]")
    args = parser.parse_args()
    # The console script beside this interpreter (make bench runs .venv/bin/python), else one on PATH.
    beside = Path(sys.executable).parent / "mechdiagram"
    exe = str(beside) if beside.is_file() else shutil.which("mechdiagram")
    if exe is None:
        sys.exit("mechdiagram is not installed: run `make setup` or `pip install .` first")
    ok = True
    args.work_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.work_dir) as tmp:
        work = Path(tmp)
        one = work / "one"
        one.mkdir()
        (one / "reference.mechanism.json").write_text(json.dumps(synthetic_spec(0, 3, 6, 7)), "utf-8")
        times, peaks = [], []
        for _ in range(args.runs):
            shutil.rmtree(one / "out", ignore_errors=True)
            seconds, peak = run([exe, "build", "reference.mechanism.json", "-o", "out"], one)
            times.append(seconds)
            peaks.append(peak)
        median = statistics.median(times)
        print(f"reference-sized spec (18 targets, 7 steps), {args.runs} whole-process builds: "
              f"median {median * 1000:.0f} ms, best {min(times) * 1000:.0f} ms, peak RSS {max(peaks):.1f} MiB")
        ok &= median < 0.5 and max(peaks) < 100

        batch = work / "batch"
        (batch / "specs").mkdir(parents=True)
        for n in range(args.batch):
            spec = json.dumps(synthetic_spec(n, 3, 10, 12))
            (batch / "specs" / f"spec{n:04d}.mechanism.json").write_text(spec, "utf-8")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds, peak = run([exe, "build", "specs", "-o", "out"], batch)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        per_spec = seconds * 1000 / args.batch
        rate = args.batch / seconds
        print(f"batch of {args.batch} specs (30 targets, 12 steps each), one process: {seconds:.2f} s, "
              f"{per_spec:.1f} ms per spec, {rate:.0f} specs per second, peak RSS {peak:.1f} MiB; CPU "
              f"{after.ru_utime - before.ru_utime:.2f} s user, {after.ru_stime - before.ru_stime:.2f} s system "
              f"(the build and its workers)")
        ok &= rate >= 100

        reference = synthetic_spec(0, 3, 6, 7)
        reference["targets"]["lanea0"]["label"] = "Release request references"
        reference["targets"]["p1"] = {"id": "p1", "kind": "path", "from": "lanea1", "to": "laneb1", "label": "logits"}
        reference["targets"]["p2"] = {"id": "p2", "kind": "path", "from": "laneb1", "to": "lanea2",
                                      "label": "next input"}
        for name, spec, budget in (("reference-sized lane grid with 2 paths", reference, 20.0),
                                   ("10-node flow, 12 labelled paths", flow_spec(10, SERVING_EDGES), 20.0),
                                   ("40-node graph, 45 paths", flow_spec(40, FORTY_EDGES, labels=False), None)):
            ms, cpu = layout_ms(spec)
            verdict = f"(target: at most {budget:.0f} ms)" if budget else "(reported only)"
            print(f"layout and routing (wide and narrow), {name}: median {ms:.1f} ms, {cpu:.1f} ms CPU {verdict}")
            if budget is not None:
                ok &= ms <= budget
        flow = work / "flow"
        flow.mkdir()
        (flow / "serving.mechanism.json").write_text(json.dumps(flow_spec(10, SERVING_EDGES)), "utf-8")
        times = [run([exe, "build", "serving.mechanism.json", "-o", "out"], flow)[0] for _ in range(args.runs)]
        print(f"10-node flow, {args.runs} whole-process builds: median {statistics.median(times) * 1000:.0f} ms")
    print(f"cores: {os.cpu_count()}; targets {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
