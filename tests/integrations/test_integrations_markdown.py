"""The Python-Markdown extension and the figure builder under it: a ``mechanism`` fence becomes the figure in place
(a block of its own), its files and the player's are written once, an unchanged figure comes from the cache, and a
bad spec is a located warning and a list of findings where the figure goes."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

import html5lib
import markdown
import pytest

from mechdiagram.integrations import figures as figures_module
from mechdiagram.integrations.figures import FigureBuilder
from mechdiagram.integrations.markdown import LOGGER
from support.specs import minimal_spec, position

EXTENSION = "mechdiagram.integrations.markdown"
NS = {"h": "http://www.w3.org/1999/xhtml"}


def project(root: Path, **changes) -> Path:
    """A project folder (a pyproject.toml) with ``specs/tiny.mechanism.json``: the minimal spec with two scenarios
    and one pinned source, ``notes.md``; ``changes`` replace keys of the spec."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.mechdiagram]\n", "utf-8")
    notes = root / "notes.md"
    notes.write_text("Notes the figure is drawn from.\n", "utf-8")
    spec = minimal_spec()
    spec["sources"] = [{"path": "notes.md", "sha256": hashlib.sha256(notes.read_bytes()).hexdigest()}]
    second = json.loads(json.dumps(spec["scenarios"][0]))
    second.update(id="other", title="Other")
    spec["scenarios"].append(second)
    spec.update(changes)
    (root / "specs").mkdir(exist_ok=True)
    (root / "specs" / "tiny.mechanism.json").write_text(json.dumps(spec, indent=2), "utf-8")
    return root


def convert(text: str, root: Path, **config) -> str:
    settings = {"base_dir": str(root), "output_dir": str(root / "site" / "assets"), "player_url": "/assets/", **config}
    return markdown.Markdown(extensions=[EXTENSION], extension_configs={EXTENSION: settings}).convert(text)


def body(html: str):
    return html5lib.parse(f"<!DOCTYPE html><html><body>{html}</body></html>", namespaceHTMLElements=True).find(
        "h:body", NS)


PAGE = "# A page\n\nBefore.\n\n```mechanism\nspecs/tiny.mechanism.json\n```\n\nAfter.\n"


def test_a_fence_becomes_the_figure_as_a_block_of_its_own(tmp_path):
    root = project(tmp_path)
    page = body(convert(PAGE, root))
    children = [child.tag.split("}")[1] for child in page]
    assert children == ["h1", "p", "div", "p"]  # the figure between the paragraphs, in none of them
    wrapper = page[2]
    assert wrapper.get("class") == "mech-fragment"
    figure = wrapper.find("h:mech-diagram", NS)
    assert figure is not None and figure.get("id") == "mech-tiny"
    assert [s["id"] for s in json.loads(figure.get("data-mech-player"))["scenarios"]] == ["main", "other"]
    script = wrapper.find("h:script", NS)
    assert script.get("type") == "module" and script.get("src").startswith("/assets/mechdiagram-player.")


def test_the_figures_and_players_files_are_written_once(tmp_path):
    root = project(tmp_path)
    convert(PAGE, root)
    assets = root / "site" / "assets"
    names = sorted(p.name for p in assets.iterdir())
    assert "tiny.fragment.html" in names and "tiny.main.svg" in names and "tiny.other.narrow.dark.svg" in names
    assert sum(name.startswith("mechdiagram-player.") for name in names) == 2
    stamps = {p.name: p.stat().st_mtime_ns for p in assets.iterdir()}
    builder = FigureBuilder(cache_dir=root / ".cache" / "mechdiagram", output_dir=assets,
                            embedding=figures_module.Embedding("/assets/"))
    figure = builder.figure(root / "specs" / "tiny.mechanism.json")
    assert builder.write({**figure.files, **builder.player()}) == []  # every file there already, as it is
    assert {p.name: p.stat().st_mtime_ns for p in assets.iterdir()} == stamps


def test_an_unchanged_figure_comes_from_the_cache_and_a_changed_source_does_not(tmp_path, monkeypatch):
    root = project(tmp_path)
    renders = []
    real = figures_module.render_spec
    monkeypatch.setattr(figures_module, "render_spec", lambda *a, **k: renders.append(a[0]) or real(*a, **k))
    first = convert(PAGE, root)
    assert len(renders) == 1
    assert sorted(p.name for p in (root / ".cache").iterdir()) == ["mechdiagram"]  # the folder it names
    assert convert(PAGE, root) == first and len(renders) == 1  # a new Markdown instance, from the cache
    (root / "notes.md").write_text("Notes, edited.\n", "utf-8")
    changed = convert(PAGE, root)
    assert len(renders) == 2  # the source's bytes are part of the key
    assert "mech-findings" in changed  # and the figure now says that the pinned digest no longer matches


def test_a_bad_spec_is_a_located_warning_and_its_findings_stand_where_the_figure_goes(tmp_path, caplog):
    spec = minimal_spec()
    spec["scenarios"][0]["steps"][0]["active"] = ["nosuch"]
    root = project(tmp_path, scenarios=spec["scenarios"])
    text = (root / "specs" / "tiny.mechanism.json").read_text("utf-8")
    line, column = position(text, '"nosuch"')
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        page = body(convert(PAGE, root, page="guide/page.md"))
    warnings = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert len(warnings) == 1, warnings
    assert f":{line}:{column}: error: /scenarios/0/steps/0/active/0:" in warnings[0]
    assert warnings[0].endswith("(in guide/page.md)")
    block = page[2]
    assert block.tag.endswith("div") and block.get("class") == "mech-findings" and block.get("role") == "note"
    items = ["".join(li.itertext()) for li in block.iter("{http://www.w3.org/1999/xhtml}li")]
    assert len(items) == 1 and f":{line}:{column}: error: /scenarios/0/steps/0/active/0:" in items[0]
    assert not (root / "site" / "assets").exists()  # nothing written for a figure that was not drawn


def test_scenario_draws_that_scenario_alone_and_an_unknown_one_is_located(tmp_path, caplog):
    root = project(tmp_path)
    page = body(convert(PAGE.replace("```mechanism", "```mechanism scenario=other"), root))
    figure = page[2].find("h:mech-diagram", NS)
    assert [s["id"] for s in json.loads(figure.get("data-mech-player"))["scenarios"]] == ["other"]
    assert (root / "site" / "assets" / "tiny-other.other.svg").is_file()  # beside the whole figure's, never over it
    line, column = position((root / "specs" / "tiny.mechanism.json").read_text("utf-8"), '"scenarios": [')
    column += len('"scenarios": ')  # the value's place
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        convert(PAGE.replace("```mechanism", "```mechanism scenario=nosuch"), root)
    [warning] = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert f"tiny.mechanism.json:{line}:{column}: error: /scenarios:" in warning and "main, other" in warning


def test_superfences_takes_the_fence_as_a_custom_fence(tmp_path):
    from mechdiagram.integrations.markdown import fence_format, fence_validator

    root = project(tmp_path)
    settings = {"custom_fences": [{"name": "mechanism", "class": "mechanism", "format": fence_format,
                                   "validator": fence_validator}]}
    md = markdown.Markdown(extensions=["pymdownx.superfences"], extension_configs={"pymdownx.superfences": settings})
    import os

    cwd = Path.cwd()
    os.chdir(root)  # without the extension's settings, paths are relative to the working directory
    try:
        page = body(md.convert(PAGE.replace("```mechanism", '```mechanism scenario="other"')))
    finally:
        os.chdir(cwd)
    assert [child.tag.split("}")[1] for child in page] == ["h1", "p", "div", "p"]
    figure = page[2].find("h:mech-diagram", NS)
    assert [s["id"] for s in json.loads(figure.get("data-mech-player"))["scenarios"]] == ["other"]


@pytest.mark.parametrize("options", ["scenario", "colour=red"])
def test_an_unknown_fence_option_is_a_finding(tmp_path, caplog, options):
    root = project(tmp_path)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        html = convert(PAGE.replace("```mechanism", f"```mechanism {options}"), root)
    assert "mech-findings" in html and "scenario=ID" in html
    assert len([r for r in caplog.records if r.name == LOGGER]) == 1


def test_only_a_fence_of_the_info_string_mechanism_is_taken(tmp_path):
    root = project(tmp_path)
    for other in ("```mechanisms", "```mechanism-other", "```json"):
        html = convert(PAGE.replace("```mechanism", other, 1), root)
        assert "mech-diagram" not in html and "mech-findings" not in html, other
    assert "<mech-diagram" in convert(PAGE.replace("```mechanism", "~~~~ {.mechanism}").replace("\n```\n", "\n~~~~\n"),
                                      root)


@pytest.mark.parametrize("named", ["../creds.json", "{outside}/elsewhere.mechanism.json", "notes.md"])
def test_a_fence_names_only_a_spec_of_the_sites_project_and_never_shows_another_files_contents(tmp_path, named,
                                                                                             caplog):
    """A page (a pull request's) cannot publish a file's contents, or whether it exists, through the findings block:
    a spec is a *.mechanism.json file of the site's project, whatever the fence says."""
    root = project(tmp_path / "site-project")
    (tmp_path / "creds.json").write_text('{"version": "sk-live-SECRET123"}', "utf-8")
    outside = tmp_path / "other"
    outside.mkdir()
    (outside / "elsewhere.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    shown = named.format(outside=outside.as_posix())
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        html = convert(f"```mechanism\n{shown}\n```\n", root)
    assert "SECRET" not in html and "SECRET" not in caplog.text
    assert "a figure&#x27;s spec is a file *.mechanism.json of the site&#x27;s project" in html
    assert "[spec-path]" in caplog.text and "<mech-diagram" not in html
    assert not (root / "site" / "assets").exists() or not any((root / "site" / "assets").iterdir())


def test_a_mechanism_fence_shown_inside_a_longer_fence_stays_text(tmp_path):
    """A page that explains the fence shows it in a longer fence: that is code, not a figure."""
    root = project(tmp_path)
    page = "Write:\n\n````markdown\n```mechanism\nspecs/tiny.mechanism.json\n```\n````\n\n" + PAGE
    settings = {"base_dir": str(root), "output_dir": str(root / "site" / "assets")}
    html = markdown.Markdown(extensions=["fenced_code", EXTENSION], extension_configs={EXTENSION: settings}).convert(page)
    assert html.count("<mech-diagram") == 1  # the page's own fence, after the example
    code = body(html).find(".//h:pre/h:code", NS)
    assert "```mechanism\nspecs/tiny.mechanism.json\n```" in code.text
