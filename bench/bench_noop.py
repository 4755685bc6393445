"""A no-op rebuild of a 200-spec gallery: nothing changed, so every spec is skipped.

Writes 200 synthetic specs (``--specs``; 30 targets and 12 steps each, as bench_build.py's batch)
into a temporary folder, builds them once, then times whole-process rebuilds that find every build
key unchanged (median of ``--runs``).  Target: 0.5 s or less.  Run from the repository root with the
package installed:

    python bench/bench_noop.py [--specs 200] [--runs 5]

The children run without ``PYTHONDONTWRITEBYTECODE``, as an installed package does.  Exits 1 when
the target is missed or a rebuild rendered anything.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_build import synthetic_spec

ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user and system) and stderr of one child process; exits when it fails."""
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    err = child.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} failed:\n{err}")
    return seconds, usage.ru_utime + usage.ru_stime, err


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--specs", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    beside = Path(sys.executable).parent / "mechdiagram"
    exe = str(beside) if beside.is_file() else shutil.which("mechdiagram")
    if exe is None:
        sys.exit("mechdiagram is not installed: run `make setup` or `pip install .` first")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "specs").mkdir()
        for n in range(args.specs):
            (work / "specs" / f"spec{n:04d}.mechanism.json").write_text(json.dumps(synthetic_spec(n, 3, 10, 12)),
                                                                        "utf-8")
        command = [exe, "build", "specs", "-o", "out", "--source-root", "."]
        first, _, _ = run(command, work)
        times, cpu = [], []
        for _ in range(args.runs):
            seconds, cpu_seconds, stderr = run(command, work)
            times.append(seconds)
            cpu.append(cpu_seconds)
            if f"(0 built, {args.specs} skipped as unchanged" not in stderr or "; no file written)" not in stderr:
                sys.exit(f"the rebuild rendered something:\n{stderr}")
    median = statistics.median(times)
    ok = median <= 0.5
    print(f"{args.specs} specs: first build {first:.2f} s; no-op rebuild median {median * 1000:.0f} ms "
          f"of {args.runs} (best {min(times) * 1000:.0f} ms, CPU median {statistics.median(cpu) * 1000:.0f} ms); "
          f"target at most 500 ms: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
