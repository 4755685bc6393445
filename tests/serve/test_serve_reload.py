"""The preview rebuilds after a save, tells open pages to reload, and shows findings while a spec is invalid."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from pathlib import Path

from mechdiagram.shared.config import Options
from mechdiagram.site.build import execute
from support.html_doc import parse_html
from support.serve import EventStream, request, spec_with_title, wait_for
from support.specs import ROOT, minimal_spec


def generation_of(page: str) -> int:
    found = re.search(r'data-generation="(\d+)"', page)
    assert found, page
    return int(found.group(1))


def index_links(server) -> list[str]:
    table = parse_html(request(server.port, "/").text).find("table", cls="mech-serve-specs")
    return [a.attrs["href"] for a in table.find_all("a")]


def test_a_save_gives_the_rebuilt_page_and_a_reload_event(served, site):
    shell = request(served.port, "/preview/tiny")
    assert shell.status == 200
    before = generation_of(shell.text)
    stream = EventStream(served.port, before)
    try:
        (site / "tiny.mechanism.json").write_text(spec_with_title("Retitled after a save"), "utf-8")
        name, data = stream.next_event()  # bounded: the stream's socket times out (its latency: bench_serve.py)
    finally:
        stream.close()
    assert name == "reload" and int(data) == before + 1
    page = request(served.port, "/tiny.html")
    assert page.status == 200 and "<title>Retitled after a save</title>" in page.text
    assert generation_of(request(served.port, "/preview/tiny").text) == before + 1


def test_a_page_made_before_the_last_build_is_told_at_once(served, site):
    (site / "tiny.mechanism.json").write_text(spec_with_title("Newer"), "utf-8")
    wait_for(lambda: served.state.snapshot.generation == 2 or None, what="the rebuild")
    stream = EventStream(served.port, 1)  # a page still showing generation 1 connects late
    try:
        assert stream.next_event() == ("reload", "2")
    finally:
        stream.close()


def test_served_files_are_the_bytes_build_writes(served, site, tmp_path):
    report = execute(Options(specs=[site], output=tmp_path / "built", source_root=tmp_path, jobs=1))
    assert report.exit_code == 0
    # The preview serves every spec's files; the gallery page (index.html) is the build's own.
    names = sorted(p.name for p in (tmp_path / "built").iterdir() if p.name not in ("manifest.json", "index.html"))
    assert names == sorted(served.state.snapshot.files)
    for name in names:
        answer = request(served.port, "/" + name)
        assert answer.status == 200
        assert answer.body == (tmp_path / "built" / name).read_bytes()
        assert b"__mechdiagram" not in answer.body  # the reload script is in the server's own pages only
    assert request(served.port, "/tiny.main.svg").headers["content-type"] == "image/svg+xml"


def test_an_invalid_spec_shows_its_findings_in_place_of_the_figure(served, site):
    data = minimal_spec()
    data["scenarios"][0]["steps"][1]["active"] = ["a1", "<img src=x onerror=alert(1)>"]
    text = json.dumps(data, indent=2)
    (site / "tiny.mechanism.json").write_text(text, "utf-8")
    wait_for(lambda: served.state.snapshot.specs[0].failed or None, what="the failed build")
    line = text[:text.index('"<img')].count("\n") + 1
    column = text.index('"<img') - text.rfind("\n", 0, text.index('"<img'))
    page = request(served.port, "/preview/tiny")
    assert page.status == 200
    document = parse_html(page.text)
    findings = [li.words() for li in document.find("ul", cls="mech-serve-findings").find_all("li")]
    assert any(f"tiny.mechanism.json:{line}:{column}" in item and "/scenarios/0/steps/1/active/1" in item
               and "[unknown-target]" in item for item in findings), findings
    assert "<img src=x" not in page.text and "&lt;img src=x onerror=alert(1)&gt;" in page.text
    assert document.find_all(cls="mech-root") == []  # no figure
    assert request(served.port, "/tiny.html").status == 404  # no stale figure beside the findings
    assert served.events[-1].changed and served.events[-1].snapshot.specs[0].failed

    (site / "tiny.mechanism.json").write_text(spec_with_title("Fixed"), "utf-8")
    wait_for(lambda: request(served.port, "/tiny.html").status == 200 or None, what="the fixed figure")
    fixed = request(served.port, "/preview/tiny")
    assert parse_html(fixed.text).find(cls="mech-root").find("svg").find("title").text() == "Fixed"
    assert fixed.text.count(request(served.port, "/tiny.fragment.html").text) == 1  # the built fragment, inlined


def test_the_last_of_a_stream_of_saves_wins_and_no_half_page_is_served(served, site):
    spec = site / "tiny.mechanism.json"
    answers: list = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            answers.append(request(served.port, "/tiny.html"))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for n in range(40):
            spec.write_text(spec_with_title(f"Save {n}"), "utf-8")  # a plain, non-atomic write, as many editors do
            time.sleep(0.005)
        wait_for(lambda: "<title>Save 39</title>" in request(served.port, "/tiny.html").text or None,
                 what="the last save")
        time.sleep(0.5)
    finally:
        stop.set()
        reader.join()
    assert "<title>Save 39</title>" in request(served.port, "/tiny.html").text
    assert len(answers) > 5
    for answer in answers:
        assert answer.status in (200, 404)  # 404 while a half-written save did not parse
        if answer.status == 200:
            assert answer.text.endswith("</html>\n") and answer.text.startswith("<!DOCTYPE html>")
            assert int(answer.headers["content-length"]) == len(answer.body)
    assert all(thread.is_alive() for thread in served._threads)


def test_a_folder_gets_an_index_and_a_new_spec_joins_it(served, site):
    assert index_links(served)[0] == "/preview/tiny"
    (site / "more").mkdir()
    (site / "more" / "second.mechanism.json").write_text(spec_with_title("Second"), "utf-8")
    wait_for(lambda: served.state.snapshot.spec("second"), what="the new spec")
    links = index_links(served)
    assert "/preview/second" in links and "/second.html" in links


def test_one_spec_file_redirects_to_its_preview(site, start_server):
    server = start_server(site / "tiny.mechanism.json")
    answer = request(server.port, "/")
    assert answer.status == 302 and answer.headers["location"] == "/preview/tiny"


def test_a_source_file_is_watched_too(site, start_server, tmp_path: Path):
    data = minimal_spec()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "n.md").write_text("first\n")
    data["sources"] = [{"path": "notes/n.md", "sha256": "0" * 64, "description": "Notes."}]
    (site / "tiny.mechanism.json").write_text(json.dumps(data, indent=2), "utf-8")
    server = start_server(site)
    assert server.state.snapshot.specs[0].failed  # the digest does not match
    (tmp_path / "notes" / "n.md").write_bytes(b"0")  # still a mismatch: a new message with the new digest
    digest = hashlib.sha256(b"0").hexdigest()
    wait_for(lambda: any(digest in f.message for f in server.state.snapshot.findings) or None,
             what="the rebuild after the source changed")


def test_a_renamed_spec_leaves_a_page_that_waits_for_it(served, site):
    spec = site / "tiny.mechanism.json"
    text = spec.read_text("utf-8")
    spec.unlink()
    wait_for(lambda: served.state.snapshot.spec("tiny") is None or None, what="the spec to go")
    missing = request(served.port, "/preview/tiny")
    assert missing.status == 404 and 'src="/__mechdiagram/reload.js"' in missing.text
    stream = EventStream(served.port, generation_of(missing.text))
    try:
        spec.write_text(text, "utf-8")
        assert stream.next_event()[0] == "reload"
    finally:
        stream.close()
    assert request(served.port, "/preview/tiny").status == 200
    assert request(served.port, "/preview/%3Cb%3E").text.count("<b>") == 0  # the name is escaped


def test_a_save_whose_event_was_lost_is_still_built(site, start_server, monkeypatch):
    # watchfiles that reports no change at all, only its timeouts (as when it drops an event at a timeout).
    from mechdiagram.serve import server as server_module

    def deaf_watch(*roots, stop_event, **kwargs):
        while not stop_event.wait(0.05):
            yield set()

    monkeypatch.setattr(server_module.watchfiles, "watch", deaf_watch)
    served = start_server(site)
    time.sleep(0.3)
    assert [e.snapshot.generation for e in served.events] == [1]  # no change on disk: no build on waking
    spec = site / "tiny.mechanism.json"
    spec.write_text(spec_with_title("Saved while deaf"), "utf-8")
    wait_for(lambda: served.state.snapshot.generation == 2 or None, what="the rebuild")
    assert "<title>Saved while deaf</title>" in request(served.port, "/tiny.html").text


def test_editing_a_template_of_template_dir_rebuilds(site, tmp_path):
    from mechdiagram.serve import PreviewServer

    templates = tmp_path / "site-templates"
    templates.mkdir()
    (templates / "fragment.html").write_text("<p>first</p>{{ figure }}", "utf-8")
    options = Options(specs=[site], output=tmp_path / "output", source_root=tmp_path, jobs=1, template_dir=templates)
    with PreviewServer(options) as server:
        assert "<p>first</p>" in request(server.port, "/tiny.fragment.html").text
        (templates / "fragment.html").write_text("<p>second</p>{{ figure }}", "utf-8")
        wait_for(lambda: "<p>second</p>" in request(server.port, "/tiny.fragment.html").text or None,
                 what="the page of the edited template")
        assert server.state.snapshot.generation == 2
        (templates / "parts").mkdir()  # a template in a folder below, included
        (templates / "parts" / "note.html").write_text("<p>part one</p>", "utf-8")
        (templates / "fragment.html").write_text("{% include 'parts/note.html' %}{{ figure }}", "utf-8")
        wait_for(lambda: "<p>part one</p>" in request(server.port, "/tiny.fragment.html").text or None,
                 what="the included template")
        (templates / "parts" / "note.html").write_text("<p>part two</p>", "utf-8")
        wait_for(lambda: "<p>part two</p>" in request(server.port, "/tiny.fragment.html").text or None,
                 what="the edited included template")


def test_a_page_of_an_earlier_server_on_the_port_reloads_at_once(site, tmp_path):
    from mechdiagram.serve import PreviewServer

    options = Options(specs=[site], source_root=tmp_path, jobs=1)
    with PreviewServer(options) as first:
        port = first.port
        page = request(port, "/preview/tiny").text
    session = re.search(r'data-session="([0-9a-f]+)"', page)
    assert session and generation_of(page) == 1
    (site / "tiny.mechanism.json").write_text(spec_with_title("Changed while stopped"), "utf-8")
    with PreviewServer(options, port=port) as second:
        assert second.state.snapshot.generation == 1  # a new server counts from 1 again
        assert f'data-session="{second.state.snapshot.session}"' in request(port, "/preview/tiny").text
        assert second.state.snapshot.session != session.group(1)
        stream = EventStream(port, 1, session=session.group(1))
        try:
            assert stream.next_event() == ("reload", "1")  # at once, though the generation is the same
        finally:
            stream.close()
        assert second.state.wait_for_change(1, 0.2, second.state.snapshot.session) is None  # its own page waits


def test_a_template_folder_that_goes_away_is_a_finding_not_an_internal_error(site, tmp_path):
    from mechdiagram.serve import PreviewServer

    templates = tmp_path / "site-templates"
    templates.mkdir()
    (templates / "fragment.html").write_text("<p>mine</p>{{ figure }}", "utf-8")
    options = Options(specs=[site], source_root=tmp_path, jobs=1, template_dir=templates)
    with PreviewServer(options) as server:
        templates.rename(tmp_path / "gone")
        event = server.rebuild()
        assert [(f.rule, "internal error" in f.message) for f in event.snapshot.general] == [("usage", False)]
        assert "is not a folder" in event.snapshot.general[0].message
        assert "<p>mine</p>" in request(server.port, "/tiny.fragment.html").text  # the last good build stays


def test_a_template_added_to_the_site_folder_while_serving_is_used(site, tmp_path):
    from mechdiagram.serve import PreviewServer

    templates = tmp_path / "site-templates"
    templates.mkdir()
    (templates / "svg.css").write_text((ROOT / "renderer" / "mechdiagram" / "templates" / "svg.css").read_text("utf-8"), "utf-8")
    options = Options(specs=[site], source_root=tmp_path, jobs=1, template_dir=templates)
    with PreviewServer(options) as server:
        assert "<p>added</p>" not in request(server.port, "/tiny.fragment.html").text
        (templates / "fragment.html").write_text("<p>added</p>{{ figure }}", "utf-8")  # jinja2 had the package's
        wait_for(lambda: "<p>added</p>" in request(server.port, "/tiny.fragment.html").text or None,
                 what="the added template")
        (templates / "svg.css").write_text((templates / "svg.css").read_text("utf-8") + "/* EDITED */\n", "utf-8")
        wait_for(lambda: "EDITED" in request(server.port, "/tiny.main.svg").text or None, what="the edited svg.css")
