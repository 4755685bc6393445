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
    assert run_cli("validate", "specs", "--source-root", ".").exit_code == 0  # validate knows not the build's flags
    # A spec file named index built alone (no gallery page) or with --no-index writes its own index.html.
    alone = run_cli("build", "specs/index.mechanism.json", "-o", "alone", "--source-root", ".")
    assert alone.exit_code == 0 and "<title>Tiny mechanism</title>" in (tmp_path / "alone" / "index.html").read_text()
    assert run_cli("build", "specs", "-o", "plain", "--source-root", ".", "--no-index").exit_code == 0
    refused = run_cli("new", "index")
    assert refused.exit_code == 2
    assert "NAME 'index' would write its page as index.html, the gallery page's name; choose another name" in refused.stderr
    assert not (tmp_path / "index.mechanism.json").exists()


def test_a_skipped_spec_refused_for_a_collision_counts_as_failed_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for folder in ("p", "q"):
        (tmp_path / "ss" / folder).mkdir(parents=True)
        (tmp_path / "ss" / folder / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    first = run_cli("build", "ss", "-o", "out", "--source-root", ".")
    assert first.exit_code == 1
    again = run_cli("build", "ss/q", "ss/p", "-o", "out", "--source-root", ".")  # p/x is unchanged: skipped, then refused
    assert again.exit_code == 1
    summary = again.stderr.splitlines()[-1]
    assert summary == ("mechdiagram: 0 of 2 spec(s) built into out/ (0 file(s) written, 4 unchanged); 2 failed, "
                       "their previous output left unchanged")  # was "(-1 built, 1 skipped ...)"


def test_jobs_past_four_per_core_start_four_per_core(tmp_path, monkeypatch):
    import concurrent.futures

    from mechdiagram.shared.config import Options
    from mechdiagram.site import build, workers
    from mechdiagram.site.build import execute

    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, max_workers: int, **kwargs: object) -> None:
            started.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(workers, "ProcessPoolExecutor", Counted)
    monkeypatch.setattr(build.os, "cpu_count", lambda: 1)
    (tmp_path / "specs").mkdir()
    for k in range(build.PARALLEL_THRESHOLD + 2):
        data = minimal_spec()
        data["title"] = f"Spec {k}"
        (tmp_path / "specs" / f"s{k}.mechanism.json").write_text(json.dumps(data), "utf-8")
    report = execute(Options(mode="validate", specs=[tmp_path / "specs"], source_root=tmp_path, jobs=1000))
    assert report.exit_code == 0 and len(report.results) == build.PARALLEL_THRESHOLD + 2
    assert started == [4] == [workers.worker_limit()]


def test_a_spec_named_index_is_refused_where_the_output_already_has_a_gallery(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    (tmp_path / "one").mkdir()
    (tmp_path / "specs" / "tiny.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "one" / "index.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    assert run_cli("build", "specs", "-o", "out", "--source-root", ".").exit_code == 0
    gallery = (tmp_path / "out" / "index.html").read_bytes()
    result = run_cli("build", "one/index.mechanism.json", "-o", "out", "--source-root", ".")
    assert result.exit_code == 1 and "the gallery page's name" in result.stderr
    assert (tmp_path / "out" / "index.html").read_bytes() == gallery
