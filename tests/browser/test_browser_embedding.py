"""The fragment in the pages authors put it in: pasted into Markdown (CommonMark, by markdown-it-py, and
Python-Markdown, MkDocs' renderer), inserted by a script through ``innerHTML``, and swapped in as a site
that navigates without reloading does (Material for MkDocs' instant navigation).  In each, every player
works, the page loads one copy of the player module, and the site's own dark-mode switch recolours every
figure, both ways."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import browser_support as bs
import markdown
import pytest
from markdown_it import MarkdownIt

from mechdiagram.api import render_player, render_spec
from mechdiagram.render import theme
from mechdiagram.shared.config import DARK_SELECTORS, LIGHT_SELECTORS, Embedding
from support.specs import minimal_spec

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The two figures of every page: two different specs (the second a scenario of 1000 ms steps).
SLUGS = (bs.LEAD, "relay")

#: A post written in Markdown with both fragments pasted in, each after a paragraph.
POST = "# A post\n\nWhat the first figure shows.\n\n{0}\nWhat the second one shows.\n\n{1}\nThe end.\n"


def _markdown_page(site, name: str, render) -> Path:
    path = site.out / f"{name}.html"
    body = render(POST.format(*(site.fragment(slug) for slug in SLUGS)))
    path.write_text(bs.host_page(f"Two figures through {name}", [body]), "utf-8")
    return path


def _player_tags(site) -> str:
    """The two lines by which a fragment names the player's files (its style sheet and module)."""
    return "\n".join(line for line in site.fragment(bs.LEAD).splitlines()[1:3])


def _inner_html_page(site) -> Path:
    """A page that loads the player once and, after it has loaded, puts both fragments into ``<main>`` with
    ``innerHTML`` (whose ``<script>`` elements never run)."""
    markup = json.dumps("\n".join(site.fragment(slug) for slug in SLUGS)).replace("</", "<\\/")
    path = site.out / "inner-html.html"
    path.write_text(bs.host_page("Figures inserted by innerHTML", []).replace(
        "</head>", f"{_player_tags(site)}\n</head>").replace(
        "</main>", f"</main>\n<script type=\"module\">\nawait customElements.whenDefined('mech-diagram');\n"
                   f"document.querySelector('main').innerHTML += {markup};\n</script>"), "utf-8")
    return path


def _swapping_page(site) -> Path:
    """A page with both fragments whose ``window.swap()`` replaces the content of ``<main>`` with another page's
    (parsed by DOMParser) and each of its scripts with a new one of the same attributes and text, as Material for
    MkDocs' instant navigation does; the other page holds the same two figures, in the other order."""
    other = bs.host_page("The other page", [site.fragment(slug) for slug in reversed(SLUGS)])
    path = site.out / "swapping.html"
    path.write_text(bs.host_page("Figures swapped in", [site.fragment(slug) for slug in SLUGS]).replace(
        "</main>", "</main>\n<script>\nconst OTHER = " + json.dumps(other).replace("</", "<\\/") + ";\n"
        "window.swap = () => {\n"
        "  const next = new DOMParser().parseFromString(OTHER, 'text/html').querySelector('main');\n"
        "  document.querySelector('main').replaceChildren(...Array.from(next.childNodes).map(n => document.adoptNode(n)));\n"
        "  for (const old of document.querySelectorAll('main script')) {\n"
        "    const fresh = document.createElement('script');\n"
        "    for (const {name, value} of old.attributes) fresh.setAttribute(name, value);\n"
        "    fresh.textContent = old.textContent;\n"
        "    old.replaceWith(fresh);\n"
        "  }\n"
        "};\n</script>"), "utf-8")
    return path


def _players_work(page) -> None:
    """Both figures' players run on their own clock and answer their own buttons."""
    figures = bs.figures(page)
    assert figures.count() == 2
    assert page.evaluate("document.querySelectorAll('mech-diagram[data-mech-ready]').length") == 2
    assert [bs.step_of(page, index) for index in range(2)] == [1, 1]
    relay = next(index for index in range(2) if figures.nth(index).get_attribute("id").startswith("mech-relay"))
    page.clock.run_for(1000)  # relay's first step is 1000 ms; prefill-decode's 2500
    assert bs.step_of(page, relay) == 2 and bs.step_of(page, 1 - relay) == 1
    figures.nth(1 - relay).locator(".mech-next").dispatch_event("click")  # no pointer: the paused clock holds rAF
    assert bs.step_of(page, 1 - relay) == 2 and bs.step_of(page, relay) == 2
    ids = page.evaluate("Array.from(document.querySelectorAll('[id]'), e => e.id)")
    assert len(ids) == len(set(ids))


def _module_loads(page) -> list[str]:
    """The requests of ``page`` for the player module."""
    return [url for url in page.opened.loaded if re.search(r"/mechdiagram-player\.[0-9a-f]{12}\.js$", url)]


@pytest.mark.parametrize("name", ["markdown-it", "python-markdown"])
def test_two_fragments_pasted_into_markdown_keep_working(site, open_page, check_axe, name):
    render = MarkdownIt("commonmark").render if name == "markdown-it" else markdown.markdown
    body = render(POST.format(*(site.fragment(slug) for slug in SLUGS)))
    for slug in SLUGS:  # the Markdown pipeline left each fragment as it was: one HTML block
        assert site.fragment(slug).strip() in body, slug
    path = _markdown_page(site, name, render)
    page = open_page(path, clock=True)
    _players_work(page)
    assert len(_module_loads(page)) == 1
    assert page.opened.errors == [] and page.opened.requests == []
    check_axe(open_page(path), f"two fragments through {name}")  # axe's own timers need a running clock


def test_fragments_inserted_by_inner_html_start_their_players(site, open_page):
    page = open_page(_inner_html_page(site), clock=True)
    page.wait_for_function("document.querySelectorAll('mech-diagram[data-mech-ready]').length === 2")
    _players_work(page)
    assert len(_module_loads(page)) == 1
    assert page.opened.errors == []


def test_content_swapped_in_without_a_reload_gets_working_players(site, open_page):
    page = open_page(_swapping_page(site), clock=True)
    _players_work(page)
    before = page.evaluate("Array.from(document.querySelectorAll('mech-diagram'), e => e.id)")
    page.evaluate("window.swap()")
    page.wait_for_function("document.querySelectorAll('mech-diagram[data-mech-ready]').length === 2")
    after = page.evaluate("Array.from(document.querySelectorAll('mech-diagram'), e => e.id)")
    assert after == list(reversed(before))  # the other page's figures, new elements
    _players_work(page)
    page.evaluate("window.swap()")  # and again: the module ran once, and nothing throws
    page.wait_for_function("document.querySelectorAll('mech-diagram[data-mech-ready]').length === 2")
    assert len(_module_loads(page)) == 1
    assert page.opened.errors == []


def test_a_figure_taken_off_the_page_stops_its_timer_and_resumes_when_put_back(site, open_page):
    page = open_page(_markdown_page(site, "markdown-it", MarkdownIt("commonmark").render), clock=True)
    relay = page.locator("mech-diagram[id^='mech-relay']")
    relay.evaluate("root => { window.kept = root; root.remove(); }")
    page.clock.run_for(5000)  # no timer of the removed figure runs (its step would change)
    assert page.evaluate("kept.querySelector('[aria-selected=true]').textContent") == "1"
    page.evaluate("document.querySelector('main').append(kept)")
    page.clock.run_for(1000)
    assert page.evaluate("kept.querySelector('[aria-selected=true]').textContent") == "2"
    assert page.opened.errors == []


#: What a site's switch looks like: (element, attribute, value), each turning the figures dark or light.
SWITCHES = [
    ("body", "data-md-color-scheme", "slate", "default"),  # Material for MkDocs
    ("html", "data-theme", "dark", "light"),  # Furo, Docusaurus, Starlight
    ("html", "class", "dark", "light"),
    ("body", "class", "dark", "light"),
]


LIGHT = [bs.rgb(theme.LIGHT.bg)] * 2
DARK = [bs.rgb(theme.DARK.bg)] * 2


@pytest.mark.parametrize(("element", "attribute", "dark", "light"), SWITCHES)
def test_each_sites_dark_mode_switch_recolours_every_figure_both_ways(site, open_page, element, attribute, dark,
                                                                      light):
    assert any(dark in s for s in DARK_SELECTORS) and any(light in s for s in LIGHT_SELECTORS)
    path = _markdown_page(site, "markdown-it", MarkdownIt("commonmark").render)
    for system, switched, expected in (("light", dark, DARK), ("dark", light, LIGHT)):
        page = open_page(path, scheme=system)
        assert bs.colours(page) == [LIGHT if system == "light" else DARK] * 2  # the reader's setting, at first
        page.evaluate(f"document.querySelector('{element}').setAttribute('{attribute}', '{switched}')")
        assert bs.colours(page) == [expected] * 2, (element, attribute, switched)
        page.evaluate(f"document.querySelector('{element}').removeAttribute('{attribute}')")
        assert bs.colours(page) == [LIGHT if system == "light" else DARK] * 2


def test_an_authors_own_selectors_switch_the_figure(tmp_path, open_page):
    """``dark-selectors`` and ``light-selectors`` of ``[tool.mechdiagram]`` reach the player's style sheet (and its
    name, so that a fragment of one setting never loads another's)."""
    spec = tmp_path / "tiny.mechanism.json"
    spec.write_text(json.dumps(minimal_spec()), "utf-8")
    own = Embedding(dark_selectors=('html[data-mode="night"]',), light_selectors=('html[data-mode="day"]',))
    files = {**render_spec(spec, source_root=tmp_path, embedding=own).files, **render_player(embedding=own)}
    assert set(render_player(embedding=own)) != set(render_player())
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    page_path = tmp_path / "host.html"
    page_path.write_text(bs.host_page("Own switch", [files["tiny.fragment.html"].decode("utf-8")]), "utf-8")
    for system, mode, expected in (("light", "night", DARK), ("dark", "day", LIGHT)):
        page = open_page(page_path, scheme=system)
        page.evaluate(f"document.documentElement.dataset.mode = '{mode}'")
        assert bs.colours(page) == [expected], (system, mode)


def test_the_fragment_has_no_blank_line_even_when_author_text_has_one(tmp_path):
    data = minimal_spec()
    data["caption"] = "A caption\n\nin two paragraphs, as an author might paste it."
    data["scenarios"][0]["steps"][0]["description"] = "First line.\n   \nAfter an empty line."
    spec = tmp_path / "tiny.mechanism.json"
    spec.write_text(json.dumps(data), "utf-8")
    fragment = render_spec(spec, source_root=tmp_path).files["tiny.fragment.html"].decode("utf-8")
    assert all(line.strip() for line in fragment.splitlines())
    rendered = MarkdownIt("commonmark").render(f"Before.\n\n{fragment}\nAfter.\n")
    assert fragment in rendered  # one HTML block, passed through whole
    assert html.escape("in two paragraphs") in fragment and re.search(r"First line\.\s+After an empty line", fragment)
