"""Writes are atomic: ``write_file`` writes a temporary file beside the target and renames it over the
target; a failure at any point (an OSError, or KeyboardInterrupt) leaves the old file intact and no
``*.tmp`` behind."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from mechdiagram.shared import files as files_module
from mechdiagram.shared.errors import OutputError
from mechdiagram.shared.files import write_file

OLD, NEW = b"old contents\n", b"new contents\n"


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or p.name.startswith("."))


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "out" / "figure.svg"
    path.parent.mkdir()
    path.write_bytes(OLD)
    return path


def test_write_file_replaces_and_reports_a_change(target):
    assert write_file(target, NEW) is True
    assert target.read_bytes() == NEW
    assert leftovers(target.parent) == []


def test_write_file_leaves_an_identical_file_alone(target):
    before = target.stat().st_mtime_ns
    assert write_file(target, OLD) is False
    assert target.stat().st_mtime_ns == before


@pytest.mark.parametrize("error", [OSError(errno.EXDEV, "Invalid cross-device link"), KeyboardInterrupt()],
                         ids=["oserror", "keyboardinterrupt"])
def test_failed_rename_keeps_the_old_file(target, monkeypatch, error):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(files_module.os, "replace", fail)
    with pytest.raises(OutputError if isinstance(error, OSError) else KeyboardInterrupt) as info:
        write_file(target, NEW)
    if isinstance(error, OSError):
        assert "cannot write" in str(info.value.message) and "figure.svg" in info.value.message
    assert target.read_bytes() == OLD
    assert leftovers(target.parent) == []


@pytest.mark.parametrize("error", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()],
                         ids=["disk-full", "keyboardinterrupt"])
def test_failure_in_the_middle_of_the_write_keeps_the_old_file(target, monkeypatch, error):
    real = os.write

    def half_written(fd, data):
        """The temporary file's write stores half of the data and then fails."""
        real(fd, bytes(data[: len(data) // 2]))
        raise error

    monkeypatch.setattr(files_module.os, "write", half_written)
    with pytest.raises(OutputError if isinstance(error, OSError) else KeyboardInterrupt):
        write_file(target, NEW * 1000)
    assert target.read_bytes() == OLD
    assert leftovers(target.parent) == []


def test_a_short_write_is_continued(target, monkeypatch):
    real = os.write

    def short(fd, data):
        return real(fd, bytes(data[:7]))  # at most 7 bytes a call, as a write may store less than asked

    monkeypatch.setattr(files_module.os, "write", short)
    assert write_file(target, NEW * 100) is True
    assert target.read_bytes() == NEW * 100
    assert leftovers(target.parent) == []


def test_new_files_get_the_umask_permissions(tmp_path):
    old = os.umask(0o027)
    try:
        write_file(tmp_path / "a.svg", NEW)
    finally:
        os.umask(old)
    assert (tmp_path / "a.svg").stat().st_mode & 0o777 == 0o640


def test_interrupt_during_fsync_keeps_the_old_file(target, monkeypatch):
    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files_module.os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_file(target, NEW)
    assert target.read_bytes() == OLD
    assert leftovers(target.parent) == []


def test_a_directory_in_the_way_is_a_clear_error(tmp_path):
    (tmp_path / "figure.svg").mkdir()
    with pytest.raises(OutputError, match="cannot write"):
        write_file(tmp_path / "figure.svg", NEW)
    assert leftovers(tmp_path) == []


def test_staging_removes_what_its_workers_staged_and_never_handed_over(tmp_path):
    """An interrupted parallel build: a worker staged a file whose result never reached the build.  Closing
    the staging removes every temporary file named for this build's workers, and nothing of another build's."""
    from mechdiagram.site.staging import Staging

    folder = tmp_path / "out"
    folder.mkdir()
    ours = folder / f".x.svg.{os.getpid()}w4242-0.tmp"
    other_build = folder / f".x.svg.{os.getpid() + 1}w4242-0.tmp"
    taken_over = folder / f".y.svg.{os.getpid()}w4242-1.tmp"
    for path in (ours, other_build, taken_over):
        path.write_bytes(NEW)
    staging = Staging(folder, 1)
    staging.adopt("spec", "y.svg", str(taken_over))
    assert staging.commit([("spec", "y.svg", b"")]) == [True]
    staging.close()
    assert (folder / "y.svg").read_bytes() == NEW
    assert leftovers(folder) == [other_build.name]


def test_a_worker_names_its_temporary_files_for_its_build(tmp_path, monkeypatch):
    """stage_file in a worker marked for build 123: the temporary file is .NAME.123wPID-N.tmp, which the
    build's Staging.close finds; a file that holds the bytes already is not staged."""
    from mechdiagram.shared.files import stage_file, worker_tag

    monkeypatch.setattr(files_module, "_TAG", [])
    worker_tag(123)
    temp = stage_file(tmp_path / "out" / "figure.svg", NEW)
    assert temp is not None and Path(temp).name.startswith(f".figure.svg.123w{os.getpid()}-")
    assert Path(temp).read_bytes() == NEW and Path(temp).name.endswith(".tmp")
    os.replace(temp, tmp_path / "out" / "figure.svg")
    assert stage_file(tmp_path / "out" / "figure.svg", NEW) is None


def test_staging_writes_on_its_pool_and_leaves_no_thread_once_closed(tmp_path):
    import threading

    from mechdiagram.site import staging as staging_module
    from mechdiagram.site.staging import Staging

    writers: dict[str, str] = {}
    real = staging_module.stage_file

    def recording(path, data, *, sync=False):
        writers[path.name] = threading.current_thread().name
        return real(path, data, sync=sync)

    staging = Staging(tmp_path, 2)
    try:
        staging_module.stage_file, saved = recording, staging_module.stage_file
        staging.stage("a", "a.svg", b"A")
        staging.stage("b", "b.svg", b"B")
        staging.stage("a", "a.html", b"H")
        assert staging.commit([("a", "a.svg", b"A"), ("b", "b.svg", b"B"), ("a", "a.html", b"H")]) == [True] * 3
    finally:
        staging_module.stage_file = saved
        staging.close()
    assert all(name.startswith("ThreadPoolExecutor") for name in writers.values()), writers
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {"a.svg": b"A", "b.svg": b"B", "a.html": b"H"}


def test_an_error_writing_the_first_owners_file_comes_at_commit_and_leaves_nothing(tmp_path):
    from mechdiagram.site.staging import Staging

    (tmp_path / "a.svg").mkdir()  # a folder where the file goes
    staging = Staging(tmp_path, 2)
    try:
        staging.stage("a", "a.svg", NEW)  # raises nothing yet: the build goes on to the other specs
        staging.stage("a", "a.html", NEW)
        with pytest.raises(OutputError, match=r"a\.svg"):
            staging.commit([("a", "a.svg", NEW), ("a", "a.html", NEW)])
    finally:
        staging.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.svg"]  # the folder, no temporary file
