"""The player's files as a build-level output: written once per output folder beside the fragments, recorded in
the manifest, retired when a build writes others, compared by ``check``, never written through a link."""

from __future__ import annotations

import json
import os
from pathlib import Path

from mechdiagram.api import render_player
from mechdiagram.shared.config import Embedding, Options
from mechdiagram.site.build import execute
from support.specs import minimal_spec


def _project(tmp_path: Path) -> None:
    (tmp_path / "specs").mkdir()
    for name in ("one", "two"):
        (tmp_path / "specs" / f"{name}.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")


def _options(tmp_path: Path, mode: str = "build", embedding: Embedding | None = None) -> Options:
    return Options(mode=mode, specs=[tmp_path / "specs"], output=tmp_path / "out", source_root=tmp_path, jobs=1,
                   embedding=embedding or Embedding())


def _players(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.startswith("mechdiagram-player."))


def _findings(report) -> list[str]:
    return [f"{Path(f.file).name}: {f.message}" for f in report.output_findings]


def test_one_copy_recorded_and_named_by_every_fragment(tmp_path):
    _project(tmp_path)
    execute(_options(tmp_path))
    out = tmp_path / "out"
    player = render_player()
    assert _players(out) == sorted(player)
    assert all((out / name).read_bytes() == data for name, data in player.items())
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert sorted(item["path"] for item in manifest["player"]) == sorted(player)
    for name in ("one", "two"):
        fragment = (out / f"{name}.fragment.html").read_text("utf-8")
        assert all(f'"{file}"' in fragment for file in player)


def test_check_reports_a_missing_or_edited_player_file_and_build_puts_it_back(tmp_path):
    _project(tmp_path)
    execute(_options(tmp_path))
    out = tmp_path / "out"
    js, css = sorted(render_player(), key=lambda n: n.endswith(".css"))
    (out / js).unlink()
    (out / css).write_text("/* edited */", "utf-8")
    report = execute(_options(tmp_path, "check"))
    assert report.exit_code == 1
    assert sorted(line.split(": run ")[0] for line in _findings(report)) == sorted([
        f"{js}: missing (the player of the fragments)",
        f"{css}: differs from a fresh build (the player of the fragments)"])
    second = execute(_options(tmp_path))  # every spec unchanged: skipped, but the player is written again
    assert all(r.skipped for r in second.results)
    assert (out / js).read_bytes() == render_player()[js] and (out / css).read_bytes() == render_player()[css]
    assert execute(_options(tmp_path, "check")).exit_code == 0


def test_new_colour_selectors_retire_the_old_style_sheet_and_check_says_so_until_then(tmp_path):
    _project(tmp_path)
    execute(_options(tmp_path))
    out = tmp_path / "out"
    before = _players(out)
    own = Embedding(dark_selectors=("html.night",))
    stale = execute(_options(tmp_path, "check", own))
    assert any("no fragment names any more" in line for line in _findings(stale))  # the old style sheet
    execute(_options(tmp_path, embedding=own))
    after = _players(out)
    assert after == sorted(render_player(embedding=own)) and after != before
    old_css = next(name for name in before if name.endswith(".css"))
    assert not (out / old_css).exists()  # retired; the module is the same file and stays
    assert "html.night" in next((out / n).read_text("utf-8") for n in after if n.endswith(".css"))
    assert execute(_options(tmp_path, "check", own)).exit_code == 0


def test_a_player_file_someone_edited_is_not_retired(tmp_path):
    _project(tmp_path)
    execute(_options(tmp_path))
    out = tmp_path / "out"
    old_css = next(name for name in _players(out) if name.endswith(".css"))
    (out / old_css).write_text("/* mine now */", "utf-8")
    execute(_options(tmp_path, embedding=Embedding(dark_selectors=("html.night",))))
    assert (out / old_css).read_text("utf-8") == "/* mine now */"


def test_a_link_at_a_player_name_is_replaced_not_written_through(tmp_path):
    _project(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "elsewhere.js"
    target.write_text("keep me", "utf-8")
    js = next(name for name in render_player() if name.endswith(".js"))
    os.symlink(target, out / js)
    report = execute(_options(tmp_path))
    assert target.read_text("utf-8") == "keep me"
    assert not (out / js).is_symlink() and (out / js).read_bytes() == render_player()[js]
    assert any(f.rule == "output-link" for f in report.output_findings)


def test_building_some_specs_keeps_the_player_files_the_other_fragments_name(tmp_path):
    """A build of one spec after a change of selectors leaves the other spec's fragment naming the earlier style
    sheet: that file stays (recorded), until a build of every spec retires it."""
    _project(tmp_path)
    execute(_options(tmp_path))
    out = tmp_path / "out"
    old_css = next(name for name in _players(out) if name.endswith(".css"))
    own = Embedding(dark_selectors=("html.night",))
    one = Options(mode="build", specs=[tmp_path / "specs" / "one.mechanism.json"], output=out, source_root=tmp_path,
                  jobs=1, embedding=own)
    execute(one)
    assert old_css in (out / "two.fragment.html").read_text("utf-8") and (out / old_css).is_file()
    recorded = {item["path"] for item in json.loads((out / "manifest.json").read_text("utf-8"))["player"]}
    assert recorded == set(render_player(embedding=own)) | {old_css}
    execute(_options(tmp_path, embedding=own))  # every spec: now no fragment names it
    assert not (out / old_css).exists()
    assert {item["path"] for item in json.loads((out / "manifest.json").read_text("utf-8"))["player"]} == set(
        render_player(embedding=own))
