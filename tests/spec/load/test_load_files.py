"""Reading the spec file: the size limit, files that are not regular files, missing files and loops;
a FIFO does not hang the CLI."""

from __future__ import annotations

import json
import os
import time

import pytest

from mechdiagram.spec.load import MAX_SPEC_BYTES, load_spec
from mechdiagram.spec.validate import validate
from support.cli import run_cli, run_subprocess
from support.specs import minimal_spec, position


def only(spec) -> object:
    assert len(spec.findings) == 1, spec.findings
    return spec.findings[0]


def test_a_5_mb_file_is_refused_without_parsing(tmp_path, monkeypatch):
    path = tmp_path / "big.mechanism.json"
    with open(path, "wb") as handle:
        handle.write(b'{"title": "' + b"x" * (5 * 1024 * 1024) + b'"}')
    monkeypatch.chdir(tmp_path)
    start = time.monotonic()
    result = run_cli("validate", "--source-root", ".", path.name)
    assert time.monotonic() - start < 5
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"big.mechanism.json: error: the file is {5 * 1024 * 1024 + 13} bytes; the limit for a spec is "
        f"{MAX_SPEC_BYTES} bytes (4 MiB) [limit-file-size]")


def test_a_file_at_the_size_limit_is_read(tmp_path):
    spec = minimal_spec()
    text = json.dumps(spec)
    spec["description"] = "x" * 4000
    spec["limitations"] = ["y" * 4000] * ((MAX_SPEC_BYTES - len(text)) // 4004 - 2)
    path = tmp_path / "edge.mechanism.json"
    path.write_text(json.dumps(spec))
    assert path.stat().st_size <= MAX_SPEC_BYTES
    loaded = load_spec(path)
    assert loaded.ok
    assert [f.rule for f in validate(loaded)] == ["maxItems"]


def test_spec_that_is_a_fifo_or_unreadable_gives_a_finding(tmp_path):
    fifo = tmp_path / "pipe.mechanism.json"
    os.mkfifo(fifo)
    finding = only(load_spec(fifo))
    assert (finding.rule, finding.message) == ("read", "cannot read the spec: not a regular file")
    missing = only(load_spec(tmp_path / "gone.mechanism.json"))
    assert missing.rule == "read" and "No such file" in missing.message
    loop = tmp_path / "loop.mechanism.json"
    loop.symlink_to(loop)
    assert only(load_spec(loop)).rule == "read"


@pytest.mark.slow  # a subprocess
def test_fifo_spec_through_the_cli_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.mechanism.json")
    result, _ = run_subprocess("validate", "--source-root", ".", "pipe.mechanism.json", cwd=tmp_path, timeout=30)
    assert result.returncode == 1
    assert "pipe.mechanism.json: error: cannot read the spec: not a regular file [read]" in result.stderr



def test_the_place_map_is_bounded_and_later_values_fall_back_to_their_ancestor(tmp_path, monkeypatch):
    """An unknown key holding many values: the map records the first MAX_PLACES values only, and a value past
    them is located at its nearest recorded ancestor (the key's array), so memory stays bounded."""
    from mechdiagram.spec import jsonpos

    data = minimal_spec()
    data["extra"] = list(range(100, 150))
    text = json.dumps(data, indent=1)
    full = jsonpos.value_offsets(text)
    assert "/extra/49" in full
    small = jsonpos.value_offsets(text, limit=len(full) - 30)
    assert len(small) == len(full) - 30 and "/extra/49" not in small and "/extra/0" in small
    assert small["/extra"] == full["/extra"]  # a container recorded before the cap still gets its end
    path = tmp_path / "extra.mechanism.json"
    path.write_text(text, "utf-8")
    assert load_spec(path).locate("/extra/49") == position(text, "149")
    monkeypatch.setattr(jsonpos, "MAX_PLACES", len(full) - 30)
    capped = load_spec(path)
    assert capped.locate("/extra/49") == capped.locate("/extra") == position(text, "[\n  100")


def test_findings_of_reading_are_capped_per_rule_and_counted(tmp_path):
    """A million NaNs once printed a million lines: the first MAX_PER_RULE are located, one ``more`` counts the
    rest."""
    from mechdiagram.shared.findings import MAX_PER_RULE

    data = minimal_spec()
    text = json.dumps(data)[:-1] + ', "extra": [' + ", ".join(["NaN"] * 250) + "]}"
    path = tmp_path / "nan.mechanism.json"
    path.write_text(text, "utf-8")
    loaded = load_spec(path)
    rules = [f.rule for f in loaded.findings]
    assert rules.count("non-finite-number") == MAX_PER_RULE
    assert [f.message for f in loaded.findings if f.rule == "more"] == [
        f"150 more finding(s) of rule non-finite-number not shown (the first {MAX_PER_RULE} are); fix those and run "
        "again"]


def test_a_key_repeated_past_the_place_cap_is_located_at_its_last_occurrence(tmp_path, monkeypatch):
    from mechdiagram.spec import jsonpos

    text = '{"title": "a", "extra": [' + ", ".join(["1"] * 50) + '], "title": "b"}'
    monkeypatch.setattr(jsonpos, "MAX_PLACES", 10)
    places = jsonpos.value_offsets(text)
    assert len(places) == 10 and text[places["/title"][0]:places["/title"][2]] == '"b"'
