"""A spec never overwrites another's files or the build's own: a spec named ``index`` (the gallery page's
name), a spec file that is the manifest's place or another file the build writes."""

from __future__ import annotations

import json

from support.cli import run_cli
from support.specs import minimal_spec


def test_a_spec_in_the_manifests_place_stops_the_run_and_is_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    spec = tmp_path / "out" / "manifest.json"
    spec.write_text(json.dumps(minimal_spec()), "utf-8")
    before = spec.read_bytes()
    result = run_cli("build", "out/manifest.json", "-o", "out", "--source-root", ".")
    assert result.exit_code == 2
    assert ("spec out/manifest.json is where the build writes its manifest.json: move the spec out of out, or "
            "build into another folder") in result.stderr
    assert spec.read_bytes() == before and sorted(p.name for p in (tmp_path / "out").iterdir()) == ["manifest.json"]
    assert run_cli("check", "out/manifest.json", "-o", "out", "--source-root", ".").exit_code == 2
    assert run_cli("validate", "out/manifest.json", "--source-root", ".").exit_code == 0  # validate writes nothing


def test_a_spec_whose_page_would_land_on_another_spec_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    kept = tmp_path / "out" / "tiny.html"  # a spec kept in the output folder, where tiny's page goes
    kept.write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "tiny.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    before = kept.read_bytes()
    result = run_cli("build", "tiny.mechanism.json", "out/tiny.html", "-o", "out", "--source-root", ".")
    assert result.exit_code == 1
    assert ("tiny.mechanism.json: error: would write out/tiny.html over the spec there: keep specs out of the "
            "output folder [output-collision]") in result.stderr
    assert kept.read_bytes() == before


def test_a_spec_named_index_is_refused_and_new_will_not_make_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "index.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "specs" / "tiny.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    result = run_cli("build", "specs", "-o", "out", "--source-root", ".")
    assert result.exit_code == 1
    assert ("specs/index.mechanism.json: error: would write its page as index.html, the gallery page's name; rename "
            "the spec (any name but 'index') [output-collision]") in result.stderr
    index = (tmp_path / "out" / "index.html").read_text("utf-8")
    assert "tiny.html" in index and "<title>Tiny mechanism</title>" not in index  # the gallery page, not the spec's
    assert run_cli("validate", "specs", "--source-root", ".").exit_code == 1
    refused = run_cli("new", "index")
    assert refused.exit_code == 2
    assert "NAME 'index' would write its page as index.html, the gallery page's name; choose another name" in refused.stderr
    assert not (tmp_path / "index.mechanism.json").exists()
