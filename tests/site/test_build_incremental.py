"""Incremental builds: a spec whose build key is unchanged is skipped, anything that decides its output
changing renders it again, --force renders all, check never skips, and another version's manifest is
named once."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from mechdiagram import __version__
from mechdiagram.shared.config import Options
from mechdiagram.site.build import execute
from mechdiagram.site.manifest import MANIFEST
from support.cli import run_cli
from support.outputs import PLAYER_FILES
from support.specs import minimal_spec

NOTES = b"queue 18 ms, prefill 74 ms\n"


def _project(tmp_path: Path, count: int = 1) -> Path:
    """``specs/`` with ``count`` valid specs, each with one source pinned by SHA-256 (no warnings)."""
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "n.md").write_bytes(NOTES)
    for n in range(count):
        spec = minimal_spec()
        spec["title"] = f"Tiny mechanism {n}"
        spec["sources"] = [{"path": "notes/n.md", "sha256": hashlib.sha256(NOTES).hexdigest(), "description": "N."}]
        path = tmp_path / "specs" / f"s{n}.mechanism.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(spec, indent=2), "utf-8")
    return tmp_path / "specs"


def _options(tmp_path: Path, mode: str = "build", **more) -> Options:
    return Options(mode=mode, specs=[tmp_path / "specs"], output=tmp_path / "out", source_root=tmp_path,
                   jobs=1, **more)


def _entry(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "out" / MANIFEST).read_text("utf-8"))["specs"][0]


def test_an_unchanged_spec_is_not_rebuilt(tmp_path, monkeypatch):
    _project(tmp_path)
    first = execute(_options(tmp_path))
    assert [r.skipped for r in first.results] == [False]
    key = _entry(tmp_path)["build"]
    assert len(key) == 64
    rendered: list[Path] = []
    import mechdiagram.site.build as build_module
    real = build_module.process
    monkeypatch.setattr(build_module, "process", lambda path, options: rendered.append(path) or real(path, options))
    second = execute(_options(tmp_path))
    assert rendered == []  # not even loaded and validated again
    assert [r.skipped for r in second.results] == [True]
    assert second.written == [] and second.unchanged == [MANIFEST]
    assert _entry(tmp_path)["build"] == key
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        [MANIFEST, "index.html", *PLAYER_FILES] + [o["path"] for o in _entry(tmp_path)["outputs"]])


def test_a_changed_source_forces_a_rebuild(tmp_path):
    _project(tmp_path)
    execute(_options(tmp_path))
    assert execute(_options(tmp_path)).results[0].skipped
    (tmp_path / "notes" / "n.md").write_bytes(NOTES + b"decode 31 passes\n")
    report = execute(_options(tmp_path))
    result = report.results[0]
    assert not result.skipped
    assert [f.rule for f in result.findings] == ["source-mismatch"]  # verified again, so the change is caught
    assert report.exit_code == 1


def test_a_changed_spec_template_or_option_renders_again(tmp_path):
    specs = _project(tmp_path)
    execute(_options(tmp_path))
    spec = specs / "s0.mechanism.json"
    spec.write_text(spec.read_text("utf-8").replace("Tiny mechanism 0", "Small mechanism"), "utf-8")
    changed = execute(_options(tmp_path))
    assert not changed.results[0].skipped
    assert any(name.endswith(".html") for name in changed.written)
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "unused.html").write_text("x", "utf-8")
    assert not execute(_options(tmp_path, template_dir=templates)).results[0].skipped
    assert execute(_options(tmp_path, template_dir=templates)).results[0].skipped
    (templates / "unused.html").write_text("y", "utf-8")  # any file of the folder is part of the key
    assert not execute(_options(tmp_path, template_dir=templates)).results[0].skipped
    assert not execute(_options(tmp_path, template_dir=templates, allow_missing_sources=True)).results[0].skipped


def test_an_edited_or_deleted_output_is_rendered_again(tmp_path):
    _project(tmp_path)
    execute(_options(tmp_path))
    page = tmp_path / "out" / "s0.html"
    original = page.read_bytes()
    page.write_bytes(b"edited")
    again = execute(_options(tmp_path))
    assert not again.results[0].skipped and page.read_bytes() == original
    page.unlink()
    assert not execute(_options(tmp_path)).results[0].skipped and page.read_bytes() == original


def test_force_renders_every_spec(tmp_path):
    _project(tmp_path, count=2)
    execute(_options(tmp_path))
    forced = execute(_options(tmp_path, force=True))
    assert [r.skipped for r in forced.results] == [False, False]
    assert all(r.outputs for r in forced.results)


def test_a_spec_with_warnings_is_always_rendered_so_they_show(tmp_path):
    specs = _project(tmp_path)
    spec = specs / "s0.mechanism.json"
    data = json.loads(spec.read_text("utf-8"))
    del data["sources"][0]["sha256"]
    spec.write_text(json.dumps(data), "utf-8")
    execute(_options(tmp_path))
    assert "build" not in _entry(tmp_path)
    again = execute(_options(tmp_path))
    assert not again.results[0].skipped
    assert [f.rule for f in again.results[0].findings] == ["source-unpinned"]


def test_check_never_skips(tmp_path):
    _project(tmp_path)
    execute(_options(tmp_path))
    (tmp_path / "out" / "s0.main.svg").write_bytes(b"<svg/>")
    # Same key, but check renders and compares; the build key is in what it expects of the manifest too.
    report = execute(_options(tmp_path, "check"))
    assert [(Path(f.file).name, f.rule) for f in report.output_findings] == [("s0.main.svg", "stale-output")]
    execute(_options(tmp_path, force=True))
    assert execute(_options(tmp_path, "check")).exit_code == 0


def test_skipped_specs_count_in_the_summary(tmp_path, monkeypatch):
    _project(tmp_path, count=3)
    monkeypatch.chdir(tmp_path)
    run_cli("build", "specs", "-o", "out", "--source-root", ".")
    spec = tmp_path / "specs" / "s1.mechanism.json"
    spec.write_text(spec.read_text("utf-8").replace("Tiny mechanism 1", "Changed"), "utf-8")
    result = run_cli("build", "specs", "-o", "out", "--source-root", ".")
    assert result.exit_code == 0
    assert "3 of 3 spec(s) up to date in out/ (1 built, 2 skipped as unchanged since their last build, --force rebuilds them; " in result.stderr
    forced = run_cli("build", "specs", "-o", "out", "--source-root", ".", "--force")
    assert "skipped" not in forced.stderr


def test_the_manifest_records_the_version_and_check_names_another_once(tmp_path, monkeypatch):
    _project(tmp_path, count=2)
    monkeypatch.chdir(tmp_path)
    run_cli("build", "specs", "-o", "out", "--source-root", ".")
    manifest = tmp_path / "out" / MANIFEST
    data = json.loads(manifest.read_text("utf-8"))
    assert data["version"] == __version__
    data["version"] = "0.0.1"
    manifest.write_text(json.dumps(data), "utf-8")
    result = run_cli("check", "specs", "-o", "out", "--source-root", ".")
    assert result.exit_code == 1
    findings = [line for line in result.stderr.splitlines() if "[stale-output]" in line]
    assert findings == [f"out/manifest.json: error: built by 0.0.1, this is {__version__}: "
                        "rebuild with mechdiagram build [stale-output]"]
    rebuilt = run_cli("build", "specs", "-o", "out", "--source-root", ".")
    assert "skipped" not in rebuilt.stderr  # the version is part of every build key
    assert run_cli("check", "specs", "-o", "out", "--source-root", ".").exit_code == 0


@pytest.mark.parametrize("version", [None, 7])
def test_a_manifest_without_a_version_string_asks_for_a_rebuild(tmp_path, version):
    _project(tmp_path)
    execute(_options(tmp_path))
    manifest = tmp_path / "out" / MANIFEST
    data = json.loads(manifest.read_text("utf-8"))
    if version is None:
        del data["version"]
    else:
        data["version"] = version
    manifest.write_text(json.dumps(data), "utf-8")
    report = execute(_options(tmp_path, "check"))
    assert [f.message for f in report.output_findings] == [
        f"built by a version that did not record itself, this is {__version__}: rebuild with mechdiagram build"]


def test_the_build_key_does_not_depend_on_where_the_project_lives(tmp_path):
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        _project(tmp_path / name)
        execute(_options(tmp_path / name))
    assert (tmp_path / "one" / "out" / MANIFEST).read_bytes() == (tmp_path / "two" / "out" / MANIFEST).read_bytes()


def test_the_build_key_does_not_depend_on_an_unused_optional_extra(monkeypatch):
    """A build without --png must key the same whether or not the raster extra is installed (a committed
    manifest once changed with the machine's installed extras)."""
    from mechdiagram.render import raster
    from mechdiagram.shared import errors
    from mechdiagram.site import buildkey

    with_extra = buildkey.run_key(template_dir=None).digest

    def missing() -> str:
        raise errors.RasterError("not installed")

    monkeypatch.setattr(raster, "rasteriser", missing)
    assert buildkey.run_key(template_dir=None).digest == with_extra
    assert buildkey.run_key(template_dir=None, extra_formats={"png"}).digest != with_extra


def test_a_no_op_rebuild_says_that_nothing_was_written(tmp_path, monkeypatch):
    """It compared the manifest alone, and "0 file(s) written, 1 unchanged" read as if one figure file were."""
    from support.specs import minimal_spec

    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "tiny.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    first = run_cli("build", "specs", "-o", "out", "--source-root", "specs")
    assert first.exit_code == 0 and "file(s) written" in first.stderr
    again = run_cli("build", "specs", "-o", "out", "--source-root", "specs")
    assert again.stderr.splitlines()[-1] == ("mechdiagram: 1 of 1 spec(s) up to date in out/ (0 built, 1 skipped as "
                                             "unchanged since their last build, --force rebuilds them; no file written)")


def test_the_message_catalogue_and_the_picture_fonts_are_in_the_build_key(monkeypatch):
    """Editing a locale file (an editable install) rebuilt nothing; the fonts decide every PNG and GIF."""
    from mechdiagram.render import raster
    from mechdiagram.shared import assets
    from mechdiagram.site import buildkey

    names = [name for name, _ in assets.package_data()]
    assert {f"locales/{tag}.json" for tag in assets.locale_tags()} <= set(names)
    plain = buildkey.run_key(template_dir=None).digest
    pictures = buildkey.run_key(template_dir=None, extra_formats={"png"}).digest
    data = dict(assets.package_data())
    data["locales/en.json"] = data["locales/en.json"] + b" "
    monkeypatch.setattr(assets, "package_data", lambda: tuple(sorted(data.items())))
    monkeypatch.setattr(buildkey, "package_data", assets.package_data)
    assert buildkey.run_key(template_dir=None).digest != plain  # a changed catalogue rebuilds every spec
    monkeypatch.undo()
    monkeypatch.setattr(raster, "fonts_digest", lambda: "0" * 64)
    assert buildkey.run_key(template_dir=None).digest == plain  # fonts: the picture formats' key only
    assert buildkey.run_key(template_dir=None, extra_formats={"png"}).digest != pictures


def test_a_template_through_a_linked_folder_is_in_the_key_and_a_link_loop_ends(tmp_path):
    from mechdiagram.site.buildkey import _folder_files

    templates = tmp_path / "templates"
    shared = templates / "shared-parts"
    shared.mkdir(parents=True)
    (shared / "part.html").write_text("one", "utf-8")
    (templates / "page.html").write_text("{% include 'sub/part.html' %}", "utf-8")
    (templates / "sub").symlink_to(shared, target_is_directory=True)  # a link inside the folder
    (shared / "loop").symlink_to(templates, target_is_directory=True)  # back up: walked once
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "big.bin").write_text("not a template", "utf-8")
    (templates / "out").symlink_to(tmp_path / "elsewhere", target_is_directory=True)  # out: not hashed
    before = _folder_files(templates)
    assert [name for name, _ in before] == ["page.html", "shared-parts/part.html"]  # each real folder once
    (shared / "part.html").write_text("two", "utf-8")
    assert _folder_files(templates) != before
