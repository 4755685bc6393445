"""Digests: large files are hashed in bounded memory, a FIFO is never opened for reading, and a
mismatch that is only a line-ending change says so."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from mechdiagram.shared.model import Source
from mechdiagram.spec import provenance
from mechdiagram.spec.provenance import check_source, file_sha256

PLACEHOLDER = "0" * 64
LONG_TEXT = "".join(f"line {i}\n" for i in range(30000))  # > 64 KiB: endings straddle read chunks


def check(root: Path, path: str, sha256: str | None = PLACEHOLDER, **kw):
    return check_source(0, Source(path, sha256), root, **kw)


def _zeros_digest(size: int) -> str:
    digest, block = hashlib.sha256(), bytes(1 << 20)
    for _ in range(size >> 20):
        digest.update(block)
    return digest.hexdigest()


def test_large_file_is_hashed_in_chunks(source_root):
    size = 50 * 1024 * 1024
    big = source_root / "big.bin"
    with open(big, "wb") as handle:
        handle.truncate(size)  # sparse: 50 MB of zeros without writing them
    expected = _zeros_digest(size)
    tracemalloc.start()
    try:
        actual = file_sha256(big)
        verified = check(source_root, "big.bin", expected)
        mismatch = check(source_root, "big.bin", PLACEHOLDER)  # also streams the two line-ending variants
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert actual == expected
    assert verified.status == "verified"
    assert mismatch.status == "mismatch" and mismatch.actual == expected
    assert peak < 4 * 1024 * 1024, f"peak {peak} bytes: the file was read whole"


def _crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode()


@pytest.mark.parametrize("on_disk, pinned, ending, text", [
    (lambda t: _crlf(t), lambda t: t.encode(), "LF", LONG_TEXT),    # committed LF, checked out as CRLF
    (lambda t: t.encode(), lambda t: _crlf(t), "CRLF", LONG_TEXT),  # pinned on Windows, checked out as LF
    (lambda t: _crlf(t), lambda t: t.encode(), "LF", "notes about the mechanism\n"),  # one short line
], ids=["pinned-lf", "pinned-crlf", "pinned-lf-one-line"])
def test_line_ending_mismatch_says_so(source_root, on_disk, pinned, ending, text):
    (source_root / "eol.txt").write_bytes(on_disk(text))
    result = check(source_root, "eol.txt", hashlib.sha256(pinned(text)).hexdigest())
    assert result.status == "mismatch"
    assert f"the file matches once its line endings are converted to {ending}" in result.message
    assert "line endings" in result.message and ".gitattributes" in result.message


def test_past_the_stated_size_no_line_ending_hint_is_sought(source_root, monkeypatch):
    """A wrong digest on a source larger than MAX_LINE_ENDING_HINT_BYTES is reported without hashing the file
    twice more: the hint is left out, the digest found is still given."""
    text = LONG_TEXT
    (source_root / "eol.txt").write_bytes(_crlf(text))
    pinned = hashlib.sha256(text.encode()).hexdigest()
    assert "converted to LF" in check(source_root, "eol.txt", pinned).message
    monkeypatch.setattr(provenance, "MAX_LINE_ENDING_HINT_BYTES", len(_crlf(text)) - 1)
    hashed: list[Path] = []
    monkeypatch.setattr(provenance, "_line_ending_digests", lambda path: hashed.append(path) or {})
    result = check(source_root, "eol.txt", pinned)
    assert result.status == "mismatch" and hashed == []
    assert "line endings" not in result.message
    assert f"found {hashlib.sha256(_crlf(text)).hexdigest()}" in result.message
    assert len(_crlf(text)) > provenance.MAX_LINE_ENDING_HINT_BYTES


def test_crlf_split_across_a_chunk_boundary(source_root):
    chunk = provenance._CHUNK
    lf = b"x" * (chunk - 1) + b"\n" + b"tail\n"
    crlf = b"x" * (chunk - 1) + b"\r\n" + b"tail\r\n"  # the \r ends the first chunk, the \n starts the next
    (source_root / "edge.txt").write_bytes(crlf)
    result = check(source_root, "edge.txt", hashlib.sha256(lf).hexdigest())
    assert "converted to LF" in result.message


def test_a_real_mismatch_does_not_blame_line_endings(source_root):
    (source_root / "other.txt").write_bytes(b"one\r\ntwo\r\n")
    pinned = hashlib.sha256(b"one\nthree\n").hexdigest()
    result = check(source_root, "other.txt", pinned)
    assert result.status == "mismatch"
    assert "line endings" not in result.message
    assert f"expected {pinned}, found {hashlib.sha256(b'one' + bytes([13, 10]) + b'two' + bytes([13, 10])).hexdigest()}" \
        in result.message


@pytest.mark.slow  # a subprocess
def test_file_sha256_refuses_a_fifo_without_blocking(source_root):
    """Even called directly (a path swapped for a FIFO after it was examined), opening does not wait."""
    os.mkfifo(source_root / "pipe")
    code = ("import sys; from mechdiagram.spec.provenance import file_sha256\n"
            "try:\n    file_sha256(sys.argv[1])\nexcept OSError as exc:\n    print(exc.strerror)\n")
    result = subprocess.run([sys.executable, "-c", code, str(source_root / "pipe")], capture_output=True, text=True,
                            timeout=30)
    assert result.stdout.strip() == "not a regular file"
