"""Start-up of mechdiagram's commands beside the floor their dependencies set, in one run.

Each command is timed as a whole process, 10 times (``--runs``), interleaved with its floor (a
``python -c "import ..."`` of the libraries the command cannot do without), and the medians are
compared, on CPU time (user and system, the steadier figure on a shared machine).  Targets, with imports at
module top and the interpreter's normal exit (no start-up tricks):

- ``build`` of the reference spec at most 80 ms above ``import click, jinja2, jsonschema, svgwrite``;
- ``validate`` of a valid spec at most 60 ms above ``import click, jsonschema``;
- ``--version`` at most 10 ms above ``import click``.

Run from the repository root with the package installed:

    python bench/bench_startup.py [--runs 10] [--spec FILE] [--source-root DIR]

The spec is ``../shared/reference/prefill-decode.mechanism.json`` beside the repository when it is
there (its sources live elsewhere: it is built with ``--allow-missing-sources``), else the project's
own ``mechanisms/prefill-decode.mechanism.json``.  Every build writes into a new folder, so none is
skipped.  The children run without ``PYTHONDONTWRITEBYTECODE``, after one warm-up run of each, so that
they load compiled bytecode as an installed package does.  Prints a table; exits 1 when a target is
missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference" / "prefill-decode.mechanism.json"
OWN = ROOT / "mechanisms" / "prefill-decode.mechanism.json"


#: The children's environment: bytecode is written and read, as for an installed package.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def seconds(command: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user and system) of one child process; exits when it fails."""
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({child.returncode}):\n{err.decode('utf-8', 'replace')}")
    return elapsed, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="processes per command and per floor")
    parser.add_argument("--spec", type=Path, default=REFERENCE if REFERENCE.is_file() else OWN)
    parser.add_argument("--source-root", type=Path, default=ROOT)
    args = parser.parse_args()
    beside = Path(sys.executable).parent / "mechdiagram"
    exe = str(beside) if beside.is_file() else shutil.which("mechdiagram")
    if exe is None:
        sys.exit("mechdiagram is not installed: run `make setup` or `pip install .` first")
    spec, root = str(args.spec.resolve()), str(args.source_root.resolve())
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # (name, command, floor name, floor command, target ms above the floor)
        measures = [
            ("build", lambda n: [exe, "build", spec, "--source-root", root, "--allow-missing-sources",
                                 "-o", str(work / f"out{n}")],
             "import click, jinja2, jsonschema, svgwrite", 80.0),
            ("validate", lambda n: [exe, "validate", spec, "--source-root", root, "--allow-missing-sources"],
             "import click, jsonschema", 60.0),
            ("--version", lambda n: [exe, "--version"], "import click", 10.0),
        ]
        for _, command, _, _ in measures:  # warm-up: bytecode written, files in the page cache
            seconds(command(-1), work)
        times: dict[str, list[tuple[float, float]]] = {}
        for n in range(args.runs):
            for name, command, floor, _ in measures:
                times.setdefault(name, []).append(seconds(command(n), work))
                times.setdefault(floor, []).append(seconds([python, "-c", floor], work))

    def median_ms(name: str, part: int) -> float:
        return statistics.median(t[part] for t in times[name]) * 1000

    ok = True
    print(f"{'command':<10} {'wall':>7} {'cpu':>7}   {'floor':<37} {'wall':>7} {'cpu':>7}   "
          f"{'above (wall, cpu)':>17} {'target':>7}")
    for name, _, floor, budget in measures:
        above, above_cpu = median_ms(name, 0) - median_ms(floor, 0), median_ms(name, 1) - median_ms(floor, 1)
        ok &= above_cpu <= budget
        print(f"{name:<10} {median_ms(name, 0):>4.0f} ms {median_ms(name, 1):>4.0f} ms   {floor:<37} "
              f"{median_ms(floor, 0):>4.0f} ms {median_ms(floor, 1):>4.0f} ms   {above:>6.0f} ms {above_cpu:>4.0f} ms "
              f"{budget:>4.0f} ms  {'ok' if above_cpu <= budget else 'MISSED'}")
    print(f"spec: {args.spec.name}; {args.runs} processes each, medians; the target is on CPU time (user and "
          f"system); targets {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
