"""The explorer (issue 31): the drawing's structure as one ARIA tree over the shown drawing, walked by keys alone.

Every gallery figure's every box and labelled arrow is reached from the Tab stop by arrow keys, and each is heard
with its label, its state in the step and its arrows (chromium's accessibility tree, through playwright's aria
snapshot of the focused element); Page Up and Page Down change the step without moving the focus, and the names
follow; the focused item is ringed in the drawing, in the text colour, in both schemes; right to left mirrors
Left and Right; axe finds nothing with focus inside."""

from __future__ import annotations

import re

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FOCUSED_JS = """() => {
  const el = document.activeElement;
  return {index: Number(el.getAttribute('data-mech-item')), role: el.getAttribute('role'),
          label: el.getAttribute('aria-label'), expanded: el.getAttribute('aria-expanded'),
          level: el.getAttribute('aria-level'), cls: el.className};
}"""


def focused(page) -> dict:
    return page.evaluate(FOCUSED_JS)


def heard(page) -> str:
    """The focused element's role and accessible name in chromium's accessibility tree, isolates dropped."""
    line = page.locator(":focus").aria_snapshot().splitlines()[0]
    return bs.unisolated(re.sub(r"^- '?(.*?)'?:?$", r"\1", line).replace("''", "'"))


def walk(page) -> list[tuple[int, str]]:
    """Tab into the first figure's structure, then open every item (Right) and go down (Down) until the end:
    each item reached (its index in the structure) and what chromium says of it."""
    page.keyboard.press("Tab")
    assert focused(page)["role"] == "treeitem"
    seen: list[tuple[int, str]] = []
    for _ in range(2000):
        now = focused(page)
        seen.append((now["index"], heard(page)))
        if now["expanded"] == "false":
            page.keyboard.press("ArrowRight")
            assert focused(page)["expanded"] == "true" and focused(page)["index"] == now["index"]
        page.keyboard.press("ArrowDown")
        if focused(page)["index"] == now["index"]:
            return seen
    raise AssertionError("the walk did not end")


def expected_targets(spec: dict) -> tuple[set[str], set[str]]:
    """Every node key, and every labelled path the first scenario's drawing shows (a sequence shows the messages
    its steps send)."""
    nodes = {k for k, t in spec["targets"].items() if t["kind"] == "node"}
    paths = {k for k, t in spec["targets"].items() if t["kind"] == "path" and t.get("label")
             and t["from"] != t["to"]}
    if spec.get("layout", {}).get("view") == "sequence":
        paths &= {p for step in spec["scenarios"][0]["steps"] for p in step["paths"]}
    return nodes, paths


@pytest.mark.parametrize("slug", bs.mechanism_slugs())
def test_keys_alone_reach_every_box_and_labelled_arrow_and_hear_each(site, open_page, slug):
    spec = site.specs[slug]
    page = open_page(site.page(slug), clock=True)
    explore = bs.player_data(page)["scenarios"][0]["explore"]
    items = explore["items"]
    seen = walk(page)
    assert [index for index, _ in seen] == list(range(len(items)))  # in tree order, each once
    nodes, paths = expected_targets(spec)
    reached = {items[index]["key"] for index, _ in seen if items[index]["kind"] in ("node", "arrow")}
    assert nodes <= reached and paths <= reached, (nodes - reached, paths - reached)
    on = set(bs.player_data(page)["scenarios"][0]["steps"][0]["on"])
    for index, said in seen:
        item = items[index]
        role, name = said.split(" ", 1)
        assert role == "treeitem", said
        name = name.strip('"')
        assert name.startswith(bs.unisolated(item["head"])), (said, item)
        target = spec["targets"].get(item["key"])
        if item["kind"] == "node":
            assert (target.get("label") or target["id"]) in name
            state = "active in this step" if item["key"] in on else "not active in this step"
            assert f", {state}" in name, said
        elif item["kind"] == "arrow":
            assert name.startswith(f"Arrow {target['label']}:" if target.get("label") else "Arrow from"), said
            assert (", used in this step" if item["key"] in on else ", not used in this step") in name, said
    print(f"{slug}: {len(seen)} items reached by keys, {len(nodes)} boxes, {len(paths)} labelled arrows")


def test_the_tree_in_chromiums_accessibility_tree(site, open_page):
    page = open_page(site.page("web-worker"), clock=True)
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")  # Main thread opens
    snapshot = bs.unisolated(bs.figures(page).nth(0).locator("[role=tree]").first.aria_snapshot())
    lines = [line.strip() for line in snapshot.splitlines()]
    assert lines[0].startswith("- 'tree \"Structure of the drawing: arrow keys move, Enter follows an arrow")
    # a closed box's arrows are not in the tree (display: none), an open one's are
    assert lines[1] == ("- 'treeitem \"Reader, active in this step, 1 arrow out: prompt typed to Main thread, "
                        "1 arrow in: text on screen from Main thread\" [level=1]'")
    main = next(line for line in lines if line.startswith("- 'treeitem \"Main thread,"))
    assert main.endswith("[expanded] [level=1]':") and "2 arrows out: text on screen to Reader, generate to " \
        "Web Worker, 3 arrows in: prompt typed from Reader, token from Web Worker, done from Web Worker" in main
    assert "- 'treeitem \"Arrow generate: from Main thread to Web Worker, not used in this step\" [level=2]'" in lines
    assert sum(line.startswith("- 'tree ") or line.startswith("- tree ") for line in lines) == 1


def test_arrows_lead_to_their_far_end_and_escape_goes_up_then_out(site, open_page):
    page = open_page(site.page("web-worker"), clock=True)
    items = bs.player_data(page)["scenarios"][0]["explore"]["items"]
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")  # Reader opens
    page.keyboard.press("ArrowRight")  # into its first arrow: prompt typed, to Main thread
    arrow = focused(page)
    assert items[arrow["index"]]["kind"] == "arrow" and arrow["level"] == "2"
    page.keyboard.press("Enter")  # follows it
    assert items[focused(page)["index"]]["key"] == "page" and focused(page)["level"] == "1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Escape")  # an arrow: up to its box
    assert items[focused(page)["index"]]["key"] == "page"
    page.keyboard.press("Home")
    assert focused(page)["index"] == 0
    page.keyboard.press("End")
    shown = page.evaluate("() => Array.from(document.querySelectorAll('[data-mech-item]'))"
                          ".filter(e => e.getClientRects().length).map(e => Number(e.dataset.mechItem))")
    assert focused(page)["index"] == shown[-1] and len(shown) < len(items)  # a closed item's arrows are hidden
    page.keyboard.press("Home")
    page.keyboard.press("Escape")  # at the top: out, to the step tabs
    assert bs.active_tag(page) == "0/mech-tab"
    for _ in range(6):  # back through the controls
        page.keyboard.press("Shift+Tab")
        if focused(page)["role"] == "treeitem":
            break
    assert focused(page)["index"] == 0  # the tree keeps its one stop where the reader left it


def test_page_down_changes_the_step_and_the_names_follow_without_moving_focus(site, open_page):
    page = open_page(site.page("web-worker"), clock=True)
    data = bs.player_data(page)["scenarios"][0]
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")  # Main thread
    index = focused(page)["index"]
    key = data["explore"]["items"][index]["key"]
    assert bs.state(page)["label"] == bs.PLAY_LABEL  # focus in the structure paused the player
    for step in (1, 2, 3, 2):
        if step > 1 or bs.step_of(page) != 1:
            page.keyboard.press("PageDown" if step > bs.step_of(page) else "PageUp")
        assert bs.step_of(page) == step and focused(page)["index"] == index
        state = "active in this step" if key in data["steps"][step - 1]["on"] else "not active in this step"
        assert f", {state}, " in bs.unisolated(focused(page)["label"]), (step, focused(page))
        assert bs.state(page)["live"] == "polite"  # the step the reader chose is announced
    page.clock.run_for(30_000)
    assert bs.step_of(page) == 2  # still paused


RING_JS = """root => {
  const svg = Array.from(root.querySelectorAll('.mech-scene:not([hidden]) svg')).find(s => s.getClientRects().length);
  const rings = Array.from(root.querySelectorAll('.mech-focus'));
  const shown = svg.querySelector('.mech-focus');
  if (!shown) { return {rings: rings.length}; }
  const part = shown.firstElementChild, cs = getComputedStyle(part);
  const bg = getComputedStyle(svg.querySelector('rect')).fill;
  const box = shown.getBoundingClientRect(), frame = root.querySelector('.mech-canvas').getBoundingClientRect();
  return {rings: rings.length, tag: part.localName, stroke: cs.stroke, width: cs.strokeWidth, bg,
          inside: box.left >= frame.left - 1 && box.right <= frame.right + 1, w: box.width, h: box.height};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_ring_shows_the_focused_box_or_arrow_in_the_drawing(site, open_page, scheme):
    page = open_page(site.page(bs.LEAD), scheme=scheme, clock=True)
    root = bs.figures(page).nth(0)
    assert root.evaluate(RING_JS) == {"rings": 0}
    page.keyboard.press("Tab")
    box = root.evaluate(RING_JS)
    assert box["tag"] == "rect" and box["w"] > 20 and box["h"] > 20 and box["inside"], box
    ratio = bs.contrast(bs.parse_colour(box["stroke"]), bs.parse_colour(box["bg"]))
    print(f"{scheme}: focus ring {box['stroke']} {box['width']} on {box['bg']}: {ratio:.2f}:1")
    assert ratio >= 3 and float(box["width"].rstrip("px")) >= 2, box  # WCAG 2.2 SC 1.4.11, 2.4.7
    items = bs.player_data(page)["scenarios"][0]["explore"]["items"]
    for _ in range(len(items)):
        if items[focused(page)["index"]]["kind"] == "arrow":
            break
        page.keyboard.press("ArrowRight")
        if items[focused(page)["index"]]["kind"] != "arrow":
            page.keyboard.press("ArrowDown")
    assert items[focused(page)["index"]]["kind"] == "arrow"
    arrow = root.evaluate(RING_JS)
    assert arrow["tag"] == "path" and arrow["inside"], arrow
    page.keyboard.press("Shift+Tab")  # focus leaves the structure: no ring
    assert root.evaluate(RING_JS) == {"rings": 0}


def test_left_and_right_mirror_right_to_left(site, open_page):
    page = open_page(site.page("lang-ar"), clock=True)
    page.keyboard.press("Tab")
    first = focused(page)
    assert first["expanded"] == "false"
    page.keyboard.press("ArrowRight")  # in Arabic, Right goes back: nothing to close
    assert focused(page)["expanded"] == "false"
    page.keyboard.press("ArrowLeft")  # and Left opens
    assert focused(page)["expanded"] == "true" and focused(page)["index"] == first["index"]
    page.keyboard.press("ArrowLeft")  # and enters
    assert focused(page)["level"] == "2"
    assert "سهم" in focused(page)["label"]  # the catalogue's Arabic words


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_with_focus_in_the_structure(site, open_page, check_axe, scheme):
    page = open_page(site.page(bs.LEAD), scheme=scheme)  # axe needs the page's own timers
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check_axe(page, f"{bs.LEAD}.html (focus on an arrow of the structure, {scheme})")
