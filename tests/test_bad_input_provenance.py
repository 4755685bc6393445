"""Provenance is hard to fool: paths that leave the source root are refused, odd files give clear
errors without hanging, large files are hashed in bounded memory, and a line-ending change says so."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from renderer import provenance
from renderer.cli import main
from renderer.model import Source
from renderer.provenance import check_source, file_sha256

DIGEST = "0" * 64


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A source root with one good file, beside a secret file outside it."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("secret\n")
    base = tmp_path / "root"
    (base / "notes").mkdir(parents=True)
    (base / "notes" / "a.md").write_text("notes\n")
    return base


def check(root: Path, path: str, sha256: str | None = DIGEST, **kw):
    return check_source(0, Source(path, sha256), root, **kw)


@pytest.mark.parametrize("path", ["/etc/passwd", "//server/share/x", "\\\\server\\share\\x", "C:\\x.md", "c:/x.md",
                                  "C:x.md", "\\notes\\a.md"])
def test_absolute_paths_are_refused(root, path):
    result = check(root, path)
    assert (result.status, result.failed) == ("refused", True)
    assert "the path is absolute; give it relative to the source root" in result.message


@pytest.mark.parametrize("path", ["../outside/secret.txt", "notes/../../outside/secret.txt", "..", "./../x",
                                  "notes/../notes/../../x", "notes\\..\\..\\outside\\secret.txt"])
def test_climbing_out_with_dotdot_is_refused(root, path):
    result = check(root, path)
    assert result.status == "refused"
    assert "climbs out of the source root with '..'" in result.message


def test_dotdot_that_stays_inside_is_fine(root):
    digest = hashlib.sha256(b"notes\n").hexdigest()
    assert check(root, "notes/../notes/a.md", digest).status == "verified"


def test_symlink_leading_outside_is_refused(root):
    (root / "link.txt").symlink_to(root.parent / "outside" / "secret.txt")
    (root / "dirlink").symlink_to(root.parent / "outside", target_is_directory=True)
    (root / "notes" / "up").symlink_to(Path(".."))  # inside: root itself
    (root / "notes" / "upup").symlink_to(Path("../.."))  # outside
    secret = hashlib.sha256(b"secret\n").hexdigest()
    for path in ("link.txt", "dirlink/secret.txt", "notes/upup/outside/secret.txt"):
        result = check(root, path, secret)
        assert result.status == "refused", path
        assert "leads out of the source root through a symbolic link" in result.message
        assert result.actual is None  # the file outside was never read
    assert check(root, "notes/up/notes/a.md", hashlib.sha256(b"notes\n").hexdigest()).status == "verified"


def test_symlink_inside_the_root_is_followed(root):
    (root / "alias.md").symlink_to(root / "notes" / "a.md")
    assert check(root, "alias.md", hashlib.sha256(b"notes\n").hexdigest()).status == "verified"


def test_symlink_loop_is_a_clear_error(root):
    (root / "loop").symlink_to(root / "loop")
    (root / "ping").symlink_to(root / "pong")
    (root / "pong").symlink_to(root / "ping")
    for path in ("loop", "ping"):
        result = check(root, path)
        assert (result.status, result.failed) == ("unreadable", True)
        assert result.message == f"source {path}: the path is a loop of symbolic links"


def test_dangling_symlink_is_missing(root):
    (root / "dangling").symlink_to(root / "nowhere")
    assert check(root, "dangling").status == "missing"


def test_directory_is_a_clear_error(root):
    result = check(root, "notes")
    assert (result.status, result.failed) == ("unreadable", True)
    assert result.message == "source notes: the path is a directory, not a file"
    assert check(root, ".").status == "unreadable"


def test_fifo_is_a_clear_error_and_does_not_hang(root):
    os.mkfifo(root / "pipe")
    result = check(root, "pipe")
    assert (result.status, result.failed) == ("unreadable", True)
    assert "not a regular file (a FIFO, socket or device)" in result.message


def test_fifo_through_the_cli_does_not_hang(root, spec_data):
    """In a separate process with a timeout, so a blocking open() fails the test instead of hanging it."""
    import json
    os.mkfifo(root / "pipe")
    spec_data["sources"] = [{"path": "pipe", "sha256": DIGEST}]
    (root / "s.mechanism.json").write_text(json.dumps(spec_data, indent=2))
    for command in (["validate", "--source-root", ".", "s.mechanism.json"], ["hash", "pipe"]):
        result = subprocess.run([sys.executable, "-c", "from renderer.cli import run; run()", *command], cwd=root,
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 1
        assert "Traceback" not in result.stderr
    assert "[source-unreadable]" in subprocess.run(
        [sys.executable, "-c", "from renderer.cli import run; run()", "validate", "--source-root", ".",
         "s.mechanism.json"], cwd=root, capture_output=True, text=True, timeout=30).stderr


def test_file_sha256_refuses_a_fifo_without_blocking(root):
    """Even called directly (a path swapped for a FIFO after it was examined), opening does not wait."""
    os.mkfifo(root / "pipe")
    code = ("import sys; from renderer.provenance import file_sha256\n"
            "try:\n    file_sha256(sys.argv[1])\nexcept OSError as exc:\n    print(exc.strerror)\n")
    result = subprocess.run([sys.executable, "-c", code, str(root / "pipe")], capture_output=True, text=True,
                            timeout=30)
    assert result.stdout.strip() == "not a regular file"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a chmod 000 file anyway; see the test below")
def test_unreadable_file_chmod_000(root):
    target = root / "notes" / "a.md"
    target.chmod(0)
    try:
        result = check(root, "notes/a.md")
    finally:
        target.chmod(0o644)
    assert (result.status, result.failed) == ("unreadable", True)
    assert "Permission denied" in result.message


def test_unreadable_file_simulated(root, monkeypatch):
    """What chmod 000 does for anyone but root: open() fails with EACCES."""
    real_open = os.open

    def deny(path, *args, **kwargs):
        if str(path).endswith("a.md"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(provenance.os, "open", deny)
    result = check(root, "notes/a.md")
    assert (result.status, result.failed) == ("unreadable", True)
    assert result.message == "source notes/a.md: cannot read the file: Permission denied"


def test_unreadable_file_for_hash_command(root, monkeypatch):
    real_open = os.open

    def deny(path, *args, **kwargs):
        if str(path).endswith("a.md"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(provenance.os, "open", deny)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["hash", "notes/a.md"], catch_exceptions=False)
    assert result.exit_code == 1
    assert "cannot read notes/a.md: Permission denied" in result.output


def _zeros_digest(size: int) -> str:
    digest, block = hashlib.sha256(), bytes(1 << 20)
    for _ in range(size >> 20):
        digest.update(block)
    return digest.hexdigest()


def test_large_file_is_hashed_in_chunks(root):
    size = 50 * 1024 * 1024
    big = root / "big.bin"
    with open(big, "wb") as handle:
        handle.truncate(size)  # sparse: 50 MB of zeros without writing them
    expected = _zeros_digest(size)
    tracemalloc.start()
    try:
        actual = file_sha256(big)
        verified = check(root, "big.bin", expected)
        mismatch = check(root, "big.bin", DIGEST)  # also streams the two line-ending variants
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert actual == expected
    assert verified.status == "verified"
    assert mismatch.status == "mismatch" and mismatch.actual == expected
    assert peak < 4 * 1024 * 1024, f"peak {peak} bytes: the file was read whole"


def _crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode()


@pytest.mark.parametrize("on_disk, pinned, ending", [
    (lambda t: _crlf(t), lambda t: t.encode(), "LF"),      # committed LF, checked out as CRLF
    (lambda t: t.encode(), lambda t: _crlf(t), "CRLF"),    # pinned on Windows, checked out as LF
])
def test_line_ending_mismatch_says_so(root, on_disk, pinned, ending):
    text = "".join(f"line {i}\n" for i in range(30000))  # > 64 KiB: endings straddle read chunks
    (root / "eol.txt").write_bytes(on_disk(text))
    result = check(root, "eol.txt", hashlib.sha256(pinned(text)).hexdigest())
    assert result.status == "mismatch"
    assert f"the file matches once its line endings are converted to {ending}" in result.message
    assert "line endings" in result.message and ".gitattributes" in result.message


def test_crlf_split_across_a_chunk_boundary(root):
    chunk = provenance._CHUNK
    lf = b"x" * (chunk - 1) + b"\n" + b"tail\n"
    crlf = b"x" * (chunk - 1) + b"\r\n" + b"tail\r\n"  # the \r ends the first chunk, the \n starts the next
    (root / "edge.txt").write_bytes(crlf)
    result = check(root, "edge.txt", hashlib.sha256(lf).hexdigest())
    assert "converted to LF" in result.message


def test_a_real_mismatch_does_not_blame_line_endings(root):
    (root / "other.txt").write_bytes(b"one\r\ntwo\r\n")
    pinned = hashlib.sha256(b"one\nthree\n").hexdigest()
    result = check(root, "other.txt", pinned)
    assert result.status == "mismatch"
    assert "line endings" not in result.message
    assert f"expected {pinned}, found {hashlib.sha256(b'one' + bytes([13, 10]) + b'two' + bytes([13, 10])).hexdigest()}" \
        in result.message


def test_refused_sources_fail_the_cli_with_a_located_finding(root, spec_data, monkeypatch):
    import json
    (root / "link.txt").symlink_to(root.parent / "outside" / "secret.txt")
    spec_data["sources"] = [{"path": "../outside/secret.txt", "sha256": DIGEST},
                            {"path": "/etc/hostname"},
                            {"path": "link.txt", "sha256": DIGEST}]
    (root / "s.mechanism.json").write_text(json.dumps(spec_data, indent=2))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["build", "--source-root", ".", "-o", "out", "--allow-missing-sources",
                                       "s.mechanism.json"], catch_exceptions=False)
    assert result.exit_code == 1
    lines = [l for l in result.stderr.splitlines() if "[source-refused]" in l]
    assert [l.split(": error: ")[1].split(":")[0] for l in lines] == ["/sources/0/path", "/sources/1/path",
                                                                       "/sources/2/path"]
    for line in lines:
        assert line.startswith("s.mechanism.json:") and line.split(":")[1].isdigit()
    assert not (root / "out" / "s.html").exists()
