"""Speed of the sequence view: a 6-participant, 20-step sequence beside the reference-sized lane grid (18 targets,
7 steps) of ``bench_build.py``.

Target (issue 28): the sequence builds as fast as the reference-sized grid, within the noise of a shared machine:
the median CPU time (user and system) of its whole-process build at most 1.2 times the grid's (wall time is
printed too, but on a machine shared with other work it varies by half), and its layout (wide and narrow) within
the 20 ms the grid's layout is held to.  Run from the repository root with the package installed:

    python bench/bench_sequence.py [--runs 7] [--work-dir DIR]

The sequence is the tests' generated one (``tests/support/sequences.py``: messages near and far, replies,
self-messages).  Prints the medians; exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_build import layout_ms, run, synthetic_spec  # noqa: E402 (after the paths it needs)

from support.sequences import sequence_spec  # noqa: E402

#: The sequence's build may take this much longer than the grid's, for the noise of one machine's runs.
SLACK = 1.2
#: The layout budget of bench_build.py's reference-sized grid, in ms, which the sequence is held to as well.
LAYOUT_MS = 20.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="whole-process builds of each spec")
    parser.add_argument("--work-dir", type=Path, default=ROOT / "build" / "bench",
                        help="folder to build in (a new temporary folder inside it), as bench_build.py's")
    args = parser.parse_args()
    beside = Path(sys.executable).parent / "mechdiagram"
    exe = str(beside) if beside.is_file() else shutil.which("mechdiagram")
    if exe is None:
        sys.exit("mechdiagram is not installed: run `make setup` or `pip install .` first")
    specs = {"reference-sized grid (18 targets, 7 steps)": synthetic_spec(0, 3, 6, 7),
             "sequence (6 participants, 20 steps)": sequence_spec(6, 20)}
    args.work_dir.mkdir(parents=True, exist_ok=True)
    medians: list[float] = []
    ok = True
    with tempfile.TemporaryDirectory(dir=args.work_dir) as tmp:
        for n, (name, spec) in enumerate(specs.items()):
            folder = Path(tmp) / f"spec{n}"
            folder.mkdir()
            (folder / "it.mechanism.json").write_text(json.dumps(spec), "utf-8")
            times, cpus = [], []
            for _ in range(args.runs):
                shutil.rmtree(folder / "out", ignore_errors=True)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                times.append(run([exe, "build", "it.mechanism.json", "-o", "out"], folder)[0])
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            medians.append(statistics.median(cpus))
            ms, cpu = layout_ms(spec)
            print(f"{name}: build median {medians[-1] * 1000:.0f} ms CPU, {statistics.median(times) * 1000:.0f} ms "
                  f"wall, of {args.runs}; layout wide and narrow {ms:.1f} ms, {cpu:.1f} ms CPU (target: at most "
                  f"{LAYOUT_MS:.0f} ms)")
            ok &= ms <= LAYOUT_MS
    ratio = medians[1] / medians[0]
    ok &= ratio <= SLACK
    print(f"sequence / grid build CPU: {ratio:.2f} (target: at most {SLACK}); targets {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
