"""Speed and memory of `mechdiagram build`, measured as whole processes.

Targets (issue: end to end): one build of a reference-sized spec (18 targets,
7 steps) under 0.5 s and under 100 MiB peak memory; a batch of synthetic
specs (200 specs of 30 targets and 12 steps each) at 100 specs per second or
more.  Run from the repository root with the package installed:

    python bench/bench_build.py [--runs 5] [--batch 200]

It writes specs into a temporary folder, runs the installed `mechdiagram`
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
    args = parser.parse_args()
    # The console script beside this interpreter (make bench runs .venv/bin/python), else one on PATH.
    beside = Path(sys.executable).parent / "mechdiagram"
    exe = str(beside) if beside.is_file() else shutil.which("mechdiagram")
    if exe is None:
        sys.exit("mechdiagram is not installed: run `make setup` or `pip install .` first")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
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
        seconds, peak = run([exe, "build", "specs", "-o", "out"], batch)
        per_spec = seconds * 1000 / args.batch
        rate = args.batch / seconds
        print(f"batch of {args.batch} specs (30 targets, 12 steps each), one process: {seconds:.2f} s, "
              f"{per_spec:.1f} ms per spec, {rate:.0f} specs per second, peak RSS {peak:.1f} MiB")
        ok &= rate >= 100
    print(f"cores: {os.cpu_count()}; targets {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
