"""``mechdiagram embed``: the ``<picture>`` of a spec names the files ``build`` writes, relative to the folder given,
in light and dark, wide from the width its text reads at 12 px and narrow below, with the spec's alt text."""

from __future__ import annotations

import json
import math

import html5lib
import pytest

from mechdiagram.render.html import readable_width
from support.cli import ERROR, invoke
from support.specs import MECHANISMS

NS = {"h": "http://www.w3.org/1999/xhtml"}
SPEC = MECHANISMS / "prefill-decode.mechanism.json"


def parse(text: str):
    return html5lib.parse(text, namespaceHTMLElements=True).find("h:body", NS)


def test_the_picture_names_the_built_files_relative_to_the_folder_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "site" / "figures"
    assert invoke("build", str(SPEC), "-o", str(out)).exit_code == 0
    (tmp_path / "docs").mkdir()
    result = invoke("embed", str(SPEC), "-o", str(out), "--relative-to", "docs")
    assert result.exit_code == 0, result.stderr
    body = parse(result.stdout)
    picture, paragraph = list(body)
    sources = [(s.get("srcset"), s.get("media")) for s in picture.findall("h:source", NS)]
    img = picture.find("h:img", NS)
    spec = json.loads(SPEC.read_text("utf-8"))
    from mechdiagram.api import render_spec

    wide = f"(min-width: {math.ceil(readable_width(render_spec(SPEC).figure['width']))}px)"
    stem = "../site/figures/prefill-decode.one-request"
    assert sources == [(f"{stem}.dark.svg", f"{wide} and (prefers-color-scheme: dark)"), (f"{stem}.svg", wide),
                       (f"{stem}.narrow.dark.svg", "(prefers-color-scheme: dark)")]
    assert img.get("src") == f"{stem}.narrow.svg" and img.get("alt") == spec["alt"]
    assert paragraph.find("h:a", NS).get("href") == "../site/figures/prefill-decode.html"
    for url in [s for s, _ in sources] + [img.get("src")]:  # every file is one the build wrote
        assert (tmp_path / "docs" / url).resolve().is_file(), url


def test_a_column_narrower_than_the_wide_drawing_reads_gets_the_narrow_one_alone(tmp_path):
    result = invoke("embed", str(SPEC), "-o", str(tmp_path), "--relative-to", str(tmp_path), "--column", "830")
    picture = list(parse(result.stdout))[0]
    assert [s.get("srcset") for s in picture.findall("h:source", NS)] == ["prefill-decode.one-request.narrow.dark.svg"]
    assert picture.find("h:img", NS).get("src") == "prefill-decode.one-request.narrow.svg"


def test_the_output_setting_of_the_project_is_the_default_folder(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.mechdiagram]\noutput = "public/figures"\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    result = invoke("embed", str(SPEC))
    assert 'src="public/figures/prefill-decode.one-request.narrow.svg"' in result.stdout


def test_a_bad_spec_or_scenario_prints_located_findings_and_fails(tmp_path):
    result = invoke("embed", str(SPEC), "--scenario", "nosuch")
    assert result.exit_code == 1 and result.stdout == ""
    match = ERROR.match(result.stderr.splitlines()[0])
    assert match and match["pointer"] == "/scenarios" and match["rule"] == "unknown-scenario", result.stderr
    bad = tmp_path / "bad.mechanism.json"
    bad.write_text("{", "utf-8")
    result = invoke("embed", str(bad))
    assert result.exit_code == 1 and result.stdout == "" and ERROR.match(result.stderr.splitlines()[0])


def test_alt_text_with_blank_lines_stays_one_html_block_in_markdown(tmp_path):
    """An alt text with a blank line in it cannot end Markdown's HTML block inside the attribute (where CommonMark
    would read the rest as Markdown and its link as attributes of the <img>): the picture is printed on lines
    with no blank one, and its alt is the text with its white space collapsed."""
    from markdown_it import MarkdownIt

    data = json.loads(SPEC.read_text("utf-8"))
    data["alt"] = "A figure.\n\n[x](onload=alert(document.domain)//)\n\n\tend"
    (tmp_path / ".git").mkdir()  # the project: its sources as in ours
    for source in data["sources"]:
        (tmp_path / source["path"]).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / source["path"]).write_bytes((MECHANISMS.parent / source["path"]).read_bytes())
    spec = tmp_path / "mechanisms" / "alt.mechanism.json"
    spec.write_text(json.dumps(data), "utf-8")
    assert invoke("build", str(spec), "-o", str(tmp_path / "out")).exit_code == 0
    result = invoke("embed", str(spec), "-o", str(tmp_path / "out"), "--relative-to", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "\n\n" not in result.stdout.strip()
    rendered = MarkdownIt("commonmark").render(result.stdout)
    img = parse(rendered).find(".//h:img", NS)
    assert img.get("alt") == "A figure. [x](onload=alert(document.domain)//) end"
    assert not [e for e in parse(rendered).iter() if e.get("onload") is not None]
    assert [a.get("href") for a in parse(rendered).iter("{http://www.w3.org/1999/xhtml}a")] == ["out/alt.html"]


def test_a_column_that_is_not_a_finite_width_is_refused(tmp_path):
    for value, said in [("nan", "not a number"), ("inf", "100000"), ("0.5", "1")]:
        result = invoke("embed", str(SPEC), "-o", str(tmp_path), "--column", value)
        assert result.exit_code == 2 and "--column" in result.stderr and said in result.stderr, (value, result.stderr)
    from mechdiagram.integrations.embed import picture
    from mechdiagram.shared.errors import UsageError

    for value in [float("nan"), float("inf"), 0.0]:
        with pytest.raises(UsageError, match="finite width"):
            picture(SPEC, output=tmp_path, relative_to=tmp_path, column=value)
