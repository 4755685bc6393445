"""A killed build leaves nothing behind for good: its worker processes end with it (Linux), a later build
removes the temporary files no process will rename (``check`` reports them), and the files it put in place
before its manifest recorded them are retired as recorded files are (its journal is read into the manifest).
Real processes are killed with SIGKILL, a bounded number of times, each wait bounded in time."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

from mechdiagram.site.manifest import JOURNAL, MANIFEST
from mechdiagram.site.staging import stale_temporaries
from support.cli import invoke
from support.specs import ROOT, minimal_spec

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; workers end with "
                                "their parent on Linux only")

#: Specs in a build that starts worker processes (mechdiagram.site.build.PARALLEL_THRESHOLD is 8).
SPECS = 12


def _specs(folder: Path, scenario: str = "main", count: int = SPECS) -> None:
    folder.mkdir(exist_ok=True)
    for i in range(count):
        spec = minimal_spec()
        spec["title"] = f"Figure {i}"
        spec["scenarios"][0]["id"] = scenario
        (folder / f"spec{i:02}.mechanism.json").write_text(json.dumps(spec), "utf-8")


def _start_build(cwd: Path, *args: str) -> subprocess.Popen[bytes]:
    """``mechdiagram build specs -o out`` in ``cwd``, from this tree's code, in a process group of its own."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "renderer")}
    return subprocess.Popen([sys.executable, "-c", "from mechdiagram.cli import run; run()", "build", "specs", "-o",
                             "out", "--source-root", ".", *args], cwd=cwd, env=environment, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def _state_and_parent(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent pid from /proc, or ``None`` when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return fields[0], int(fields[1])


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            info = _state_and_parent(int(entry.name))
            if info is not None and info[1] == parent and info[0] != "Z":
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    info = _state_and_parent(pid)
    return info is not None and info[0] != "Z"  # a zombie has ended; only its exit status waits for a reaper


def _started(build: int) -> bool:
    return len(_children(build)) >= 2


def _ended(workers: list[int]) -> bool:
    return not any(_alive(w) for w in workers)


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_workers_end_when_their_build_is_killed(tmp_path: Path):
    """``kill -9`` of a build with worker processes: every worker has ended within 10 s, three times over."""
    _specs(tmp_path / "specs")
    for _ in range(3):
        build = _start_build(tmp_path, "-j", "2", "--force")
        try:
            assert _wait_for(partial(_started, build.pid), 60), "the build started no workers"
            workers = _children(build.pid)
            os.kill(build.pid, signal.SIGKILL)
            build.wait(timeout=10)
            assert _wait_for(partial(_ended, workers), 10), [w for w in workers if _alive(w)]
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(build.pid, signal.SIGKILL)  # the build's group: any worker still there


def _dead_pid() -> int:
    """A pid no process has now."""
    pid = 4_000_000
    while _state_and_parent(pid) is not None:
        pid -= 1
    return pid


def test_stale_temporary_files_are_reported_by_check_and_removed_by_build(tmp_path: Path, monkeypatch):
    """Temporary files named by dead processes (as a killed build leaves them) are stale; one named by a live
    process (a build under way) is not.  ``check`` reports the stale ones, ``build`` removes them alone."""
    monkeypatch.chdir(tmp_path)
    _specs(tmp_path / "specs", count=1)
    assert invoke("build", "specs", "-o", "out", "--source-root", ".").exit_code == 0
    dead, other = _dead_pid(), _dead_pid() - 1
    stale = [f".spec00.html.{dead}-0.tmp", f".spec00.main.svg.{dead}w{other}-3.tmp"]
    live = [f".spec00.html.{os.getpid()}-0.tmp", f".spec00.main.svg.{dead}w{os.getpid()}-1.tmp"]
    # Names that look alike but are not ours: no file of ours is called "backup"; no process has that number.
    foreign = [".backup.2024-01.tmp", ".spec00.html.4294967297-1.tmp", ".x.99999999999999999999-1.tmp"]
    for name in stale + live + foreign:
        (tmp_path / "out" / name).write_bytes(b"half a figure")
    assert stale_temporaries(tmp_path / "out") == sorted(stale)

    checked = invoke("check", "specs", "-o", "out", "--source-root", ".")
    assert checked.exit_code == 1
    assert (f"out: error: 2 temporary file(s) that an interrupted build left ({', '.join(sorted(stale))}): run "
            "mechdiagram build -o out --source-root . specs to remove them [stale-output]") in checked.stderr, \
        checked.stderr
    built = invoke("build", "specs", "-o", "out", "--source-root", ".")
    assert built.exit_code == 0, built.stderr
    assert "removed 2 temporary file(s) that an interrupted build left" in built.stderr, built.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.name.endswith(".tmp")) == sorted(live + foreign)


def _recorded(out: Path) -> set[str]:
    manifest = json.loads((out / MANIFEST).read_bytes())
    names = {item["path"] for entry in manifest["specs"] for item in entry["outputs"]}
    return (names | ({manifest["index"]["path"]} if "index" in manifest else set())
            | {item["path"] for item in manifest.get("player", [])})


def _build_until_the_disk_fills(monkeypatch, after: int) -> list[str]:
    """``mechdiagram build specs -o out`` whose disk fills at the rename after ``after`` renames (as the real
    rename does on failure, the temporary file goes); the names it put in place."""
    from mechdiagram.shared.errors import OutputError
    from mechdiagram.site import staging

    renamed: list[str] = []
    real_move = staging.move_into_place

    def disk_fills(temp: str, path: Path, overwrite: bool) -> None:
        if len(renamed) == after:
            os.unlink(temp)
            raise OutputError(f"cannot write {path.name}: No space left on device")
        renamed.append(path.name)
        real_move(temp, path, overwrite)

    monkeypatch.setattr(staging, "move_into_place", disk_fills)
    stopped = invoke("build", "specs", "-o", "out", "--source-root", ".")
    monkeypatch.setattr(staging, "move_into_place", real_move)
    assert stopped.exit_code != 0 and "No space left on device" in stopped.stderr, stopped.stderr
    return renamed


def test_files_an_interrupted_build_put_in_place_are_retired_later(tmp_path: Path, monkeypatch):
    """A build stopped after renaming some of a spec's new files (here: the disk fills at its sixth rename)
    leaves its journal; the next build reads it, and once the spec is back to its old scenario the files of the
    stopped build's scenario are retired.  Before the journal they stayed for good, unrecorded."""

    monkeypatch.chdir(tmp_path)
    _specs(tmp_path / "specs", count=1)
    assert invoke("build", "specs", "-o", "out", "--source-root", ".").exit_code == 0
    out = tmp_path / "out"
    _specs(tmp_path / "specs", scenario="renamed", count=1)
    renamed = _build_until_the_disk_fills(monkeypatch, after=5)
    put_in_place = sorted(p.name for p in out.iterdir() if ".renamed." in p.name and p.is_file())
    assert put_in_place == sorted(renamed) and len(put_in_place) == 5, (put_in_place, renamed)
    assert not set(put_in_place) & _recorded(out)  # the manifest does not know them
    assert (out / JOURNAL).is_file()
    checked = invoke("check", "specs", "-o", "out", "--source-root", ".")
    assert checked.exit_code == 1 and "an interrupted build left its journal" in checked.stderr, checked.stderr

    _specs(tmp_path / "specs", count=1)  # back to the old scenario
    built = invoke("build", "specs", "-o", "out", "--source-root", ".")
    assert built.exit_code == 0, built.stderr
    assert not [p.name for p in out.iterdir() if ".renamed." in p.name]
    assert not (out / JOURNAL).exists()
    assert {p.name for p in out.iterdir()} == _recorded(out) | {MANIFEST}
    assert invoke("check", "specs", "-o", "out", "--source-root", ".").exit_code == 0


def test_two_interrupted_builds_in_a_row_lose_no_record(tmp_path: Path, monkeypatch):
    """A build stopped after putting some of scenario ``b``'s files in place leaves them recorded only in its
    journal; the next build, to scenario ``c``, replaces that journal and is stopped before it deletes them.  Its
    journal must still record them (files it was about to retire), or they stay for good, unrecorded (seen once in
    25 runs of the SIGKILL test above, which stops builds at random times)."""

    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    _specs(tmp_path / "specs", count=1)
    assert invoke("build", "specs", "-o", "out", "--source-root", ".").exit_code == 0
    for scenario, after in (("b", 5), ("c", 0)):  # the disk fills after 5 renames, then at the first
        _specs(tmp_path / "specs", scenario=scenario, count=1)
        _build_until_the_disk_fills(monkeypatch, after=after)
    left = sorted(p.name for p in out.iterdir() if ".b." in p.name)
    assert len(left) == 5 and not set(left) & _recorded(out)  # in place, in no manifest: only in a journal
    _specs(tmp_path / "specs", count=1)
    assert invoke("build", "specs", "-o", "out", "--source-root", ".").exit_code == 0
    assert {p.name for p in out.iterdir()} == _recorded(out) | {MANIFEST}
    assert not [p.name for p in out.iterdir() if ".b." in p.name or ".c." in p.name]


def test_a_folder_at_an_output_name_stops_the_build_before_anything_is_put_in_place(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _specs(tmp_path / "specs", count=1)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "spec00.main.narrow.dark.svg").mkdir()
    stopped = invoke("build", "specs", "-o", "out", "--source-root", ".")
    assert stopped.exit_code != 0 and "spec00.main.narrow.dark.svg: it is not a regular file" in stopped.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["spec00.main.narrow.dark.svg"]


@pytest.mark.parametrize("journal", [
    b'{"specs":[{"spec":"x","outputs":5}]}',
    b'{"specs":[{"spec":"x","outputs":null}]}',
    b'{"specs":[{"spec":"\\u0000x","outputs":[]}]}',
    b'{"specs":[{"spec":"x","outputs":[{"path":7,"sha256":[]}]}],"index":{"sha256":5}}',
    b'{"specs":5}',
    b"not json",
], ids=["outputs-int", "outputs-null", "nul-key", "odd-items", "specs-int", "not-json"])
def test_a_damaged_journal_is_passed_over(tmp_path: Path, monkeypatch, journal: bytes):
    """A journal of another shape than a build writes (damaged, or crafted in a cloned repository) is read as
    far as it makes sense and never stops check or build; the build then removes it."""
    monkeypatch.chdir(tmp_path)
    _specs(tmp_path / "specs", count=1)
    assert invoke("build", "specs", "-o", "out", "--source-root", ".").exit_code == 0
    (tmp_path / "out" / JOURNAL).write_bytes(journal)
    checked = invoke("check", "specs", "-o", "out", "--source-root", ".")
    assert checked.exit_code == 1 and "an interrupted build left its journal" in checked.stderr, checked.stderr
    built = invoke("build", "specs", "-o", "out", "--source-root", ".")
    assert built.exit_code == 0, built.stderr
    assert not (tmp_path / "out" / JOURNAL).exists()
    assert invoke("check", "specs", "-o", "out", "--source-root", ".").exit_code == 0


@pytest.mark.slow
def test_after_real_kills_a_build_leaves_only_recorded_files(tmp_path: Path, monkeypatch):
    """Builds killed with SIGKILL at spread times (eight of them, switching the specs' scenario each time),
    then one whole build: the folder holds exactly the files its manifest records, and no temporary file."""
    monkeypatch.chdir(tmp_path)
    _specs(tmp_path / "specs")
    assert invoke("build", "specs", "-o", "out", "--source-root", ".", "-j", "1").exit_code == 0
    started = time.monotonic()
    whole = _start_build(tmp_path, "-j", "2", "--force")
    whole.wait(timeout=120)
    duration = time.monotonic() - started
    for attempt in range(8):
        _specs(tmp_path / "specs", scenario=f"s{attempt}")
        build = _start_build(tmp_path, "-j", "2")
        time.sleep(duration * (0.3 + 0.1 * attempt))
        workers = _children(build.pid)
        os.kill(build.pid, signal.SIGKILL)
        build.wait(timeout=10)
        assert _wait_for(partial(_ended, workers), 10)
    _specs(tmp_path / "specs")
    assert invoke("build", "specs", "-o", "out", "--source-root", ".").exit_code == 0
    out = tmp_path / "out"
    assert {p.name for p in out.iterdir()} == _recorded(out) | {MANIFEST}
    assert invoke("check", "specs", "-o", "out", "--source-root", ".").exit_code == 0
