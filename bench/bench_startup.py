"""Start-up of mechdiagram's commands beside the floor their dependencies set, in one run.

Each command is timed as a whole process, 10 times (``--runs``), interleaved with its floor (a
``python -c "import ..."`` of the libraries the command cannot do without), and the medians are
compared, on CPU time (user and system, the steadier figure on a shared machine).  Targets, with imports at
module top and the interpreter's normal exit (no start-up tricks):

- ``build`` of the reference spec at most 80 ms above ``import click, jinja2, jsonschema, svgwrite``;
- ``validate`` of a valid spec at most 60 ms above ``import click, jsonschema``;
- ``--version`` at most 10 ms above ``import click``.

Where the time above a floor goes is measured in the same run (``--no-breakdown`` skips it): for ``build`` and
``validate``, two more children beside the floor import, without running anything, the other libraries the
command loads (the standard library's and msgspec's modules outside the floor), then those and mechdiagram's
own modules (the names come from one ``python -X importtime`` run of the command).  The steps between the
rows are the extra libraries, our own modules, and the command's work with the interpreter's teardown.

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
import re
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


def imported(command: list[str], cwd: Path, floor: str) -> tuple[list[str], list[str]]:
    """The modules ``command`` imports beyond those ``python -c floor`` imports, in the order ``-X importtime``
    finishes them: the other libraries' (standard library and third party), then mechdiagram's."""
    def names(argv: list[str]) -> list[str]:
        done = subprocess.run(argv, cwd=cwd, env={**ENV, "PYTHONPROFILEIMPORTTIME": "1"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        return re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", done.stderr, re.MULTILINE)
    before = set(names([sys.executable, "-c", floor]))
    found = [name for name in dict.fromkeys(names(command)) if name not in before and name != "__main__"]
    ours = [name for name in found if name == "mechdiagram" or name.startswith("mechdiagram.")]
    return [name for name in found if name not in ours], ours


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="processes per command and per floor")
    parser.add_argument("--spec", type=Path, default=REFERENCE if REFERENCE.is_file() else OWN)
    parser.add_argument("--source-root", type=Path, default=ROOT)
    parser.add_argument("--no-breakdown", dest="breakdown", action="store_false",
                        help="time the commands and floors only, not the rows that split the time above a floor")
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
        # (command, floor + the other libraries, floor + those + our modules, how many of ours) for the breakdown
        parts: list[tuple[str, str, str, int]] = []
        if args.breakdown:
            for name, command, floor, _ in measures[:2]:
                others, ours = imported(command(-2), work, floor)
                parts.append((name, "; ".join([floor, *(f"import {m}" for m in others)]),
                              "; ".join([floor, *(f"import {m}" for m in others + ours)]), len(ours)))
        times: dict[str, list[tuple[float, float]]] = {}
        for n in range(args.runs):
            for name, command, floor, _ in measures:
                times.setdefault(name, []).append(seconds(command(n), work))
                times.setdefault(floor, []).append(seconds([python, "-c", floor], work))
            for _, others, ours, _ in parts:
                for code in (others, ours):
                    times.setdefault(code, []).append(seconds([python, "-c", code], work))

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
    for name, others, ours, count in parts:
        floor = next(f for n, _, f, _ in measures if n == name)
        steps = [("other libraries", median_ms(others, 1) - median_ms(floor, 1)),
                 ("our modules", median_ms(ours, 1) - median_ms(others, 1)),
                 ("work and teardown", median_ms(name, 1) - median_ms(ours, 1))]
        print(f"{name} above its floor (CPU): " + ", ".join(f"{label} {ms:.0f} ms" for label, ms in steps)
              + f" ({count} modules of ours)")
    print(f"spec: {args.spec.name}; {args.runs} processes each, medians; the target is on CPU time (user and "
          f"system); targets {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
