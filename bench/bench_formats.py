"""The cost of each output format, measured as whole `mechdiagram build` processes.

Targets (on the project's 2-core machine): SVG and HTML for the whole gallery
(`mechanisms/`) within 1 s, every format (`--frames --png --gif`) within 10 s.
The same builds run over a generated set of specs too (`--generated N` specs of
18 targets and 7 steps, as the reference spec has), reported without a target.  Each configuration is built
into a fresh folder `--runs` times and the median reported; a format's cost is
its configuration's median less the base build's (SVG and HTML only).  Run from
the repository root with the package and its raster extra installed:

    python bench/bench_formats.py [--runs 3] [--generated 10]

It exits 1 when a target of the gallery is missed.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_build import synthetic_spec  # a sibling script, not a package

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {"svg+html": [], "+frames": ["--frames"], "+png": ["--png"], "+gif": ["--gif"],
           "all": ["--frames", "--png", "--gif"]}
BASE_TARGET_S, ALL_TARGET_S = 1.0, 10.0


def mechdiagram() -> str:
    beside = Path(sys.executable).with_name("mechdiagram")
    return str(beside) if beside.exists() else "mechdiagram"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build_seconds(specs: Path, flags: list[str], runs: int, work: Path) -> tuple[float, float, int]:
    """Median wall-clock and CPU seconds (the build process and its workers) of a build of ``specs`` with
    ``flags`` into a fresh folder, and the number of files written.  On a machine shared with other work
    the wall-clock time grows with the load; the CPU time much less."""
    times, cpus, files = [], [], 0
    for run in range(runs):
        out = work / f"out-{run}"
        shutil.rmtree(out, ignore_errors=True)
        start, cpu = time.perf_counter(), _children_cpu()
        subprocess.run([mechdiagram(), "build", str(specs), "-o", str(out), "--source-root", str(ROOT), "-j", "0",
                        *flags], check=True, capture_output=True, cwd=work)
        times.append(time.perf_counter() - start)
        cpus.append(_children_cpu() - cpu)
        files = sum(1 for _ in out.iterdir())
    return statistics.median(times), statistics.median(cpus), files


def measure(label: str, specs: Path, runs: int, work: Path) -> tuple[dict[str, float], bool]:
    results = {name: build_seconds(specs, flags, runs, work) for name, flags in CONFIGS.items()}
    base, base_cpu, _ = results["svg+html"]
    print(f"\n{label}")
    print(f"{'build':<10} {'wall':>9} {'cost':>10} {'CPU':>9} {'CPU cost':>10} {'files':>6}")
    for name, (seconds, cpu, files) in results.items():
        cost = "" if name == "svg+html" else f"{(seconds - base) * 1000:+.0f} ms"
        cpu_cost = "" if name == "svg+html" else f"{(cpu - base_cpu) * 1000:+.0f} ms"
        print(f"{name:<10} {seconds * 1000:6.0f} ms {cost:>10} {cpu * 1000:6.0f} ms {cpu_cost:>10} {files:>6}")
    ok = base <= BASE_TARGET_S and results["all"][0] <= ALL_TARGET_S
    print(f"targets (wall): svg+html <= {BASE_TARGET_S:.0f} s, all <= {ALL_TARGET_S:.0f} s: "
          f"{'met' if ok else 'MISSED'}")
    return {name: seconds for name, (seconds, _, _) in results.items()}, ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--generated", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        _, gallery_ok = measure("mechanisms/ (the gallery)", ROOT / "mechanisms", args.runs, work)
        generated = work / "generated"
        generated.mkdir()
        for n in range(args.generated):
            (generated / f"gen{n}.mechanism.json").write_text(json.dumps(synthetic_spec(n, 3, 6, 7)), "utf-8")
        measure(f"{args.generated} generated specs (18 targets, 7 steps each), reported", generated, args.runs, work)
    return 0 if gallery_ok else 1


if __name__ == "__main__":
    sys.exit(main())
