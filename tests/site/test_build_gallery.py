"""``index.html``, the gallery page: written for a folder of specs, recorded in the manifest, never over
someone else's ``index.html``; ``--no-index`` skips it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import html5lib

from mechdiagram.render.html import readable_width
from mechdiagram.render.outputs import formats
from mechdiagram.render.svg import fmt as number
from mechdiagram.site.gallery import render_index
from support.cli import invoke
from support.specs import minimal_spec


def _project(root: Path) -> Path:
    specs = root / "specs"
    specs.mkdir(parents=True)
    for name, title in (("alpha", "Alpha <figure> & co"), ("beta", "Beta figure")):
        data = minimal_spec()
        data["title"], data["caption"], data["alt"] = title, f"Caption of {name}.", f"Alt text of {name}."
        (specs / f"{name}.mechanism.json").write_text(json.dumps(data), "utf-8")
    return specs


def _build(*extra: str):
    return invoke("build", "specs", "-o", "out", *extra)


def _doc(path: Path):
    return html5lib.parse(path.read_bytes(), namespaceHTMLElements=False)


def test_a_folder_build_writes_the_gallery_and_records_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _project(tmp_path)
    assert _build().exit_code == 0
    index = tmp_path / "out" / "index.html"
    doc = _doc(index)
    articles = doc.findall(".//article")
    assert [a.find("h2").find("a").text for a in articles] == ["Alpha <figure> & co", "Beta figure"]
    assert [a.find("h2").find("a").get("href") for a in articles] == ["alpha.html", "beta.html"]
    first = articles[0]
    img = first.find("picture/img")
    assert (img.get("src"), img.get("alt")) == ("alpha.main.poster.svg", "Alt text of alpha.")
    source = first.find("picture/source")
    assert (source.get("srcset"), source.get("media")) == ("alpha.main.poster.dark.svg", "(prefers-color-scheme: dark)")
    assert first.find("p").text == "Caption of alpha."
    narrow = first.findall("picture")[1]
    assert narrow.get("class") == "mech-thumb-narrow"
    assert (narrow.find("img").get("src"), narrow.find("img").get("alt")) == ("alpha.main.narrow.poster.svg",
                                                                              "Alt text of alpha.")
    assert narrow.find("source").get("srcset") == "alpha.main.narrow.poster.dark.svg"
    files = first.find("details")
    assert files.get("open") is None  # closed: the card stays short
    assert files.find("summary").text == f"Files ({len(files.findall('ul/li'))})"
    hrefs = [a.get("href") for a in files.findall("ul/li/a")]
    assert hrefs[:2] == ["alpha.html", "alpha.fragment.html"]  # pages first, then every file in registry order
    assert hrefs[2:] == [fmt.file_name("alpha", "main") for fmt in formats() if fmt.per_scenario() and not fmt.optional]
    assert all((tmp_path / "out" / href).is_file() for href in hrefs)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text("utf-8"))
    assert manifest["index"] == {"path": "index.html", "sha256": hashlib.sha256(index.read_bytes()).hexdigest()}
    assert "&lt;figure&gt; &amp; co" in index.read_text("utf-8")
    assert invoke("check", "specs", "-o", "out").exit_code == 0
    # the narrow poster replaces the wide one on a card narrower than the wide poster's 12 px width
    width = next(e["figure"]["width"] for e in manifest["specs"] if e["spec"].endswith("alpha.mechanism.json"))
    assert str(width) == (tmp_path / "out" / "alpha.main.poster.svg").read_text("utf-8").split('width="')[1].split('"')[0]
    rule = (f"@container (width < {number(readable_width(float(width)))}px) and (width < 36rem)"
            "{.mech-gallery>li:nth-child(1) .mech-thumb-wide{display:none}")
    assert rule in index.read_text("utf-8")


def test_a_record_of_an_earlier_release_shows_the_wide_poster_alone():
    """A manifest entry written before the record carried the drawing's width keeps its one thumbnail."""
    entry = {"figure": {"title": "T", "caption": "C", "alt": "A", "language": "en", "scenarios": [{"id": "main"}]},
             "outputs": [{"path": name} for name in ("t.main.poster.svg", "t.main.narrow.poster.svg")]}
    page = render_index({"t.mechanism.json": entry}).decode("utf-8")
    assert 'src="t.main.poster.svg"' in page and 'src="t.main.narrow.poster.svg"' not in page and "@container" not in page
    entry["figure"]["width"] = 1300
    page = render_index({"t.mechanism.json": entry}).decode("utf-8")
    assert 'src="t.main.narrow.poster.svg"' in page and "@container (width < 1200px)" in page


def test_the_gallery_follows_a_changed_spec_and_check_reports_it_stale(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    specs = _project(tmp_path)
    assert _build().exit_code == 0
    data = json.loads((specs / "beta.mechanism.json").read_text("utf-8"))
    data["caption"] = "A new caption."
    (specs / "beta.mechanism.json").write_text(json.dumps(data), "utf-8")
    checked = invoke("check", "specs", "-o", "out")
    assert checked.exit_code == 1
    assert ("out/index.html: error: differs from a fresh build (the gallery page of the specs): run mechdiagram "
            "build -o out specs [stale-output]") in \
        checked.stderr.splitlines()
    assert _build().exit_code == 0
    assert "A new caption." in (tmp_path / "out" / "index.html").read_text("utf-8")


def test_a_foreign_index_is_never_overwritten(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _project(tmp_path)
    (tmp_path / "out").mkdir()
    foreign = tmp_path / "out" / "index.html"
    foreign.write_text("<p>the site's own home page</p>", "utf-8")
    result = _build()
    assert result.exit_code == 0  # a warning: the figures are built all the same
    assert foreign.read_text("utf-8") == "<p>the site's own home page</p>"
    assert ("out/index.html: warning: was not written by mechdiagram (manifest.json does not record its bytes), "
            "so it is left as it is; move it away or pass --no-index [index-foreign]") in result.stderr.splitlines()
    assert "index" not in json.loads((tmp_path / "out" / "manifest.json").read_text("utf-8"))
    assert (tmp_path / "out" / "alpha.html").is_file()
    assert invoke("check", "specs", "-o", "out").exit_code == 0  # nothing of ours is stale
    foreign.unlink()
    assert _build().exit_code == 0
    assert "Beta figure" in foreign.read_text("utf-8")


def test_an_index_edited_after_the_build_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    specs = _project(tmp_path)
    assert _build().exit_code == 0
    index = tmp_path / "out" / "index.html"
    index.write_text(index.read_text("utf-8") + "<!-- edited by hand -->", "utf-8")
    (specs / "beta.mechanism.json").unlink()
    result = _build()
    assert result.exit_code == 0 and "[index-foreign]" in result.stderr
    assert index.read_text("utf-8").endswith("<!-- edited by hand -->")


def test_no_index_and_file_builds_write_no_gallery(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    specs = _project(tmp_path)
    assert _build("--no-index").exit_code == 0
    assert not (tmp_path / "out" / "index.html").exists()
    assert invoke("build", str(specs / "alpha.mechanism.json"), "-o", "files").exit_code == 0
    assert not (tmp_path / "files" / "index.html").exists()
    assert (tmp_path / "files" / "alpha.html").is_file()
    (tmp_path / "pyproject.toml").write_text("[tool.mechdiagram]\nindex = false\n", "utf-8")
    assert invoke("build", "specs", "-o", "cfg").exit_code == 0
    assert not (tmp_path / "cfg" / "index.html").exists()
    assert invoke("build", "specs", "-o", "cfg", "--index").exit_code == 0
    assert (tmp_path / "cfg" / "index.html").is_file()


def test_a_failed_spec_keeps_its_place_in_the_gallery(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    specs = _project(tmp_path)
    assert _build().exit_code == 0
    (specs / "beta.mechanism.json").write_text("{", "utf-8")
    assert _build().exit_code == 1
    titles = [a.find("h2").find("a").text for a in _doc(tmp_path / "out" / "index.html").findall(".//article")]
    assert titles == ["Alpha <figure> & co", "Beta figure"]  # beta's previous output is still there
