"""``mechdiagram hash FILE...``: print digests as sha256sum does; a folder or an unreadable file fails."""

from __future__ import annotations

import hashlib
import json

import jsonschema
import pytest

from support.cli import invoke, run_cli
from support.reference_spec import SOURCE_TEXT, write_sources
from support.specs import ROOT


@pytest.fixture
def pinned(tmp_path, monkeypatch):
    """The working folder, holding the reference spec's source files; returns it and their digests."""
    monkeypatch.chdir(tmp_path)
    digests = write_sources(tmp_path)
    return tmp_path, digests


def test_hash_prints_digest_and_file(pinned):
    root, digests = pinned
    result = invoke("hash", "notes/article.md")
    assert result.exit_code == 0
    assert result.stdout == f"{digests['notes/article.md']}  notes/article.md\n"
    expected = hashlib.sha256(SOURCE_TEXT["notes/article.md"].encode("utf-8")).hexdigest()
    assert digests["notes/article.md"] == expected


def test_hash_prints_one_line_per_file_in_order(pinned):
    root, digests = pinned
    names = ["notes/provenance.json", "notes/article.md", "notes/old-figure.svg"]
    result = invoke("hash", *names)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"{digests[name]}  {name}" for name in names]


def test_hash_of_a_folder_fails_with_exit_1(pinned):
    result = invoke("hash", "notes")
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: notes: not a regular file"


def test_unreadable_file_for_hash_command(source_root, monkeypatch, deny_open):
    deny_open("a.md")
    monkeypatch.chdir(source_root)
    result = run_cli("hash", "notes/a.md")
    assert result.exit_code == 1
    assert "cannot read notes/a.md: Permission denied" in result.output


def test_hash_json_prints_the_digests_as_a_report(pinned):
    root, digests = pinned
    names = ["notes/provenance.json", "notes/article.md"]
    result = invoke("hash", "--format", "json", *names)
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document == {
        "version": 1, "findings": [],
        "summary": {"specs": None, "failed": None, "stale": 0, "exit": 0, "message": "2 file(s) hashed"},
        "digests": [{"file": name, "sha256": digests[name]} for name in names],
    }
    schema = json.loads((ROOT / "schema" / "report.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)
