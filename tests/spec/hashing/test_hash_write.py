"""``mechdiagram hash --write``: fills in and corrects the source digests of a spec and changes no other
byte (line endings, escapes, links and file modes kept); it refuses when a source is missing, outside
the source root, or the spec is invalid."""

from __future__ import annotations

import hashlib
import json
import os
import stat

import pytest
from click.testing import CliRunner

import mechdiagram.spec.hashing
from mechdiagram.cli import main
from mechdiagram.shared.errors import OutputError
from support.cli import invoke, run_cli
from support.reference_spec import dumps, reference_spec, write_sources
from support.specs import minimal_spec

WRONG = "0" * 64


@pytest.fixture
def pinned(tmp_path, monkeypatch):
    """The working folder, holding the reference spec's source files; returns it and their digests."""
    monkeypatch.chdir(tmp_path)
    digests = write_sources(tmp_path)
    return tmp_path, digests


def _spec_text(data: dict) -> str:
    return dumps(data)


def test_write_fills_in_a_missing_digest_and_replaces_a_wrong_one(pinned):
    root, digests = pinned
    data = reference_spec()
    data["sources"][0]["sha256"] = WRONG                       # wrong: replaced
    data["sources"][1]["sha256"] = digests["notes/old-figure.svg"]  # right: kept
    # sources[2] has no sha256: filled in
    before = _spec_text(data)
    spec = root / "reference.mechanism.json"
    spec.write_text(before, "utf-8")

    result = invoke("hash", "--write", "reference.mechanism.json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == ["reference.mechanism.json: 2 source digest(s) written",
                                          "mechdiagram: 1 of 1 spec(s) now hold their sources' digests; 2 source digest(s) written"]
    after = spec.read_text("utf-8")

    expected = before.replace(f'"sha256": "{WRONG}"', f'"sha256": "{digests["notes/article.md"]}"')
    expected = expected.replace(
        '      "path": "notes/provenance.json",\n',
        f'      "path": "notes/provenance.json",\n      "sha256": "{digests["notes/provenance.json"]}",\n')
    assert expected != before
    assert after == expected  # every other byte is unchanged
    # the result is what json would say, and now validates with every source verified
    assert [s.get("sha256") for s in json.loads(after)["sources"]] == [
        digests["notes/article.md"], digests["notes/old-figure.svg"], digests["notes/provenance.json"]]
    check = invoke("validate", "reference.mechanism.json", "--format", "json")
    assert check.exit_code == 0 and json.loads(check.stdout)["findings"] == []

    again = invoke("hash", "--write", "reference.mechanism.json")
    assert again.exit_code == 0
    assert again.stderr.splitlines() == ["reference.mechanism.json: source digests already current",
                                         "mechdiagram: 1 of 1 spec(s) now hold their sources' digests; 0 source digest(s) written"]
    assert spec.read_text("utf-8") == expected


def test_write_inserts_after_path_when_path_is_the_last_member(pinned):
    root, digests = pinned
    text = ('{\n'
            '    "version": 1, "language": "en", "title": "T", "description": "D", "caption": "C", "alt": "A",\n'
            '    "sources": [\n'
            '        {\n'
            '            "description": "The article.",\n'
            '            "path": "notes/article.md"\n'
            '        },\n'
            '        {"path": "notes/provenance.json", "sha256": "' + WRONG + '"}\n'
            '    ],\n'
            '    "targets": {"a0": {"id": "a0", "kind": "node", "label": "x"}},\n'
            '    "stateLabels": {},\n'
            '    "scenarios": [{"id": "s", "title": "S", "steps": [{"title": "one", "duration": 1000}]}]\n'
            '}\n')
    spec = root / "custom.mechanism.json"
    spec.write_text(text, "utf-8")
    assert invoke("hash", "--write", "custom.mechanism.json").exit_code == 0
    expected = text.replace(
        '            "path": "notes/article.md"\n',
        f'            "path": "notes/article.md",\n            "sha256": "{digests["notes/article.md"]}"\n',
    ).replace(WRONG, digests["notes/provenance.json"])
    assert spec.read_text("utf-8") == expected


def test_write_keeps_crlf_line_endings_and_non_ascii_text(pinned):
    root, digests = pinned
    data = reference_spec()
    data["sources"][0]["sha256"] = WRONG
    data["sources"][0]["description"] = "Ünïcödé notes — with “quotes”"
    before = _spec_text(data).replace("\n", "\r\n")
    spec = root / "crlf.mechanism.json"
    spec.write_bytes(before.encode("utf-8"))
    assert invoke("hash", "--write", "crlf.mechanism.json").exit_code == 0
    after = spec.read_bytes().decode("utf-8")
    expected = before.replace(WRONG, digests["notes/article.md"]).replace(
        "1" * 64, digests["notes/old-figure.svg"]).replace(
        '      "path": "notes/provenance.json",\r\n',
        f'      "path": "notes/provenance.json",\r\n      "sha256": "{digests["notes/provenance.json"]}",\r\n')
    assert after == expected
    assert "\n" not in after.replace("\r\n", "")


def test_write_refuses_when_a_source_is_missing(pinned):
    root, digests = pinned
    data = reference_spec()
    data["sources"].append({"path": "notes/gone.md"})
    data["sources"][0]["sha256"] = WRONG
    before = _spec_text(data).encode("utf-8")
    spec = root / "reference.mechanism.json"
    spec.write_bytes(before)
    mtime = spec.stat().st_mtime_ns
    result = invoke("hash", "--write", "reference.mechanism.json")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "reference.mechanism.json:24:15: error: /sources/3/path: source notes/gone.md: no such file under the source "
        "root (the current folder); nothing written [source-missing]",
        "mechdiagram: 0 of 1 spec(s) now hold their sources' digests; 0 source digest(s) written; 1 not updated: a spec with an error keeps its digests until it is fixed",
    ]
    assert spec.read_bytes() == before
    assert spec.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in root.iterdir()) == ["notes", "reference.mechanism.json"]  # no temporary file left


def test_write_refuses_a_source_outside_the_root(pinned):
    root, _ = pinned
    data = reference_spec()
    data["sources"] = [{"path": "../outside.md"}]
    (root.parent / "outside.md").write_text("x", "utf-8")
    spec = root / "reference.mechanism.json"
    spec.write_text(_spec_text(data), "utf-8")
    before = spec.read_bytes()
    result = invoke("hash", "--write", "reference.mechanism.json")
    assert result.exit_code == 1
    assert ("/sources/0/path: source ../outside.md: the path climbs out of the source root with '..' "
            "(the current folder); nothing written [source-refused]") in result.stderr
    assert spec.read_bytes() == before


def test_write_refuses_an_invalid_spec(pinned):
    root, _ = pinned
    data = reference_spec()
    data["scenarios"][0]["steps"][0]["duration"] = 0
    spec = root / "reference.mechanism.json"
    spec.write_text(_spec_text(data), "utf-8")
    before = spec.read_bytes()
    result = invoke("hash", "--write", "reference.mechanism.json")
    assert result.exit_code == 1
    assert "error: /scenarios/0/steps/0/duration: duration must be at least 334 ms" in result.stderr
    assert spec.read_bytes() == before


def test_write_uses_the_source_root_option(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    digests = write_sources(tmp_path / "src")
    data = reference_spec()
    spec = tmp_path / "reference.mechanism.json"
    spec.write_text(_spec_text(data), "utf-8")
    assert invoke("hash", "--write", "reference.mechanism.json").exit_code == 1  # not under "."
    result = invoke("hash", "--write", "--source-root", "src", "reference.mechanism.json")
    assert result.exit_code == 0, result.stderr
    assert [s.get("sha256") for s in json.loads(spec.read_text("utf-8"))["sources"]] == [
        digests["notes/article.md"], digests["notes/old-figure.svg"], digests["notes/provenance.json"]]


def test_one_refused_spec_does_not_stop_the_others(pinned):
    root, digests = pinned
    good, bad = reference_spec(), reference_spec()
    bad["sources"].append({"path": "notes/gone.md"})
    (root / "good.mechanism.json").write_text(_spec_text(good), "utf-8")
    (root / "bad.mechanism.json").write_text(_spec_text(bad), "utf-8")
    bad_before = (root / "bad.mechanism.json").read_bytes()
    result = invoke("hash", "--write", "bad.mechanism.json", "good.mechanism.json")
    assert result.exit_code == 1
    assert "good.mechanism.json: 3 source digest(s) written" in result.stderr.splitlines()
    assert (root / "bad.mechanism.json").read_bytes() == bad_before


def test_hash_write_replaces_a_malformed_digest(tmp_path, monkeypatch):
    """An uppercase (malformed) sha256 is what --write is for: it is replaced, not refused."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_bytes(b"notes\n")
    data = minimal_spec()
    data["sources"] = [{"path": "notes.txt", "sha256": "A" * 64}]
    spec = tmp_path / "x.mechanism.json"
    spec.write_text(json.dumps(data, indent=2), "utf-8")
    result = CliRunner().invoke(main, ["hash", "--write", str(spec)])
    assert result.exit_code == 0, result.output
    expected = hashlib.sha256(b"notes\n").hexdigest()
    assert json.loads(spec.read_text("utf-8"))["sources"][0]["sha256"] == expected
    assert spec.read_text("utf-8") == json.dumps(data, indent=2).replace("A" * 64, expected)


def test_hash_write_goes_through_a_symlink_and_keeps_the_mode(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_bytes(b"n\n")
    data = minimal_spec()
    data["sources"] = [{"path": "notes.txt"}]
    real = tmp_path / "real.mechanism.json"
    real.write_text(json.dumps(data, indent=2), "utf-8")
    os.chmod(real, 0o600)
    link = tmp_path / "link.mechanism.json"
    link.symlink_to(real.name)
    result = CliRunner().invoke(main, ["hash", "--write", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert json.loads(real.read_text("utf-8"))["sources"][0]["sha256"] == hashlib.sha256(b"n\n").hexdigest()


def test_hash_write_finds_sources_whose_keys_are_escaped(tmp_path, spec_data, monkeypatch):
    """``"p\\u0061th"`` is the key ``path``: hash --write used to fail with KeyError on it."""
    (tmp_path / "notes.md").write_text("notes\n")
    spec_data["sources"] = [{"path": "notes.md"}]
    text = json.dumps(spec_data, indent=2).replace('"path": "notes.md"', '"p\\u0061th": "notes.md"')
    (tmp_path / "s.mechanism.json").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = run_cli("hash", "--write", "--source-root", ".", "s.mechanism.json")
    assert result.exit_code == 0, result.output
    written = (tmp_path / "s.mechanism.json").read_text()
    assert '"p\\u0061th": "notes.md",\n      "sha256": "' in written
    assert run_cli("validate", "--source-root", ".", "s.mechanism.json").exit_code == 0


def test_a_spec_that_cannot_be_written_does_not_stop_the_others(pinned, monkeypatch):
    root, digests = pinned
    for name in ("a", "b"):
        (root / f"{name}.mechanism.json").write_text(_spec_text(reference_spec()), "utf-8")
    real_write = mechdiagram.spec.hashing.write_file

    def refuse_a(path, data, mode=None):
        if path.name == "a.mechanism.json":
            raise OutputError("cannot write a.mechanism.json: Read-only file system")
        return real_write(path, data, mode=mode)

    monkeypatch.setattr(mechdiagram.spec.hashing, "write_file", refuse_a)
    result = invoke("hash", "--write", "--format", "json", "a.mechanism.json", "b.mechanism.json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["findings"] == [{"file": "a.mechanism.json", "line": None, "column": None, "pointer": None,
                                     "rule": "hash-write", "severity": "error",
                                     "message": "cannot write a.mechanism.json: Read-only file system"}]
    assert document["summary"]["message"] == "1 of 2 spec(s) now hold their sources' digests; 3 source digest(s) written; 1 not updated: a spec with an error keeps its digests until it is fixed"
    assert [s["sha256"] for s in json.loads((root / "b.mechanism.json").read_text("utf-8"))["sources"]] == [
        digests["notes/article.md"], digests["notes/old-figure.svg"], digests["notes/provenance.json"]]


def test_hash_write_keeps_an_edit_saved_while_it_hashes(tmp_path, monkeypatch):
    """An editor saves the spec while ``hash --write`` hashes a large source: nothing is written, the saved
    text stays, and the command says so and exits 1.  The source is a 64 MiB sparse file (no disk used); the
    save lands while it is hashed (the real hashing, wrapped so that the save comes before it returns)."""
    monkeypatch.chdir(tmp_path)
    big = tmp_path / "trace.bin"
    with open(big, "wb") as handle:
        handle.truncate(64 * 1024 ** 2)
    data = minimal_spec()
    data["sources"] = [{"path": "trace.bin"}]
    spec = tmp_path / "s.mechanism.json"
    spec.write_text(json.dumps(data, indent=2), "utf-8")
    edited = json.dumps({**data, "title": "Saved while hashing"}, indent=2)
    real_sha256 = mechdiagram.spec.hashing.file_sha256

    def hashed_while_saved(path):
        digest = real_sha256(path)
        spec.write_text(edited, "utf-8")  # the editor's save, before hash --write is done
        return digest

    monkeypatch.setattr(mechdiagram.spec.hashing, "file_sha256", hashed_while_saved)
    result = invoke("hash", "--write", "s.mechanism.json")
    assert spec.read_text("utf-8") == edited
    assert result.exit_code == 1
    assert ("s.mechanism.json: error: changed while its sources were hashed, so nothing was written (the edit is "
            "kept); run hash --write again [spec-changed]") in result.stderr, result.stderr
    monkeypatch.setattr(mechdiagram.spec.hashing, "file_sha256", real_sha256)
    again = invoke("hash", "--write", "s.mechanism.json")
    assert again.exit_code == 0, again.stderr
    written = json.loads(spec.read_text("utf-8"))
    assert written["title"] == "Saved while hashing"
    assert written["sources"][0]["sha256"] == hashlib.sha256(bytes(64 * 1024 ** 2)).hexdigest()
