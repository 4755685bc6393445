"""The explorer (issue 31): the drawing's structure over the shown drawing, walked by keys alone: an ARIA tree in
a layered graph, an ARIA grid in a lane grid (a row per lane) and a sequence (a row per step, a column per
participant).

Every gallery figure's every box and labelled arrow is reached from the Tab stop by arrow keys (and Enter into a
grid cell's arrows), and each is heard with its label, its state in the step and its arrows (chromium's
accessibility tree, through playwright's aria snapshot of the focused element); Page Up and Page Down change the
step without moving the focus, and the names follow; the focused item is ringed in the drawing, in the text
colour, in both schemes; right to left mirrors Left and Right; axe finds nothing with focus inside."""

from __future__ import annotations

import re

import browser_support as bs
import pytest

from support.outputs import render

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


def back_in(page, role: str) -> None:
    """From the step tabs, where Escape left the structure, Shift+Tab back through the controls into it, to an
    element of ``role``."""
    assert bs.active_tag(page) == "0/mech-tab"
    for _ in range(6):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement.getAttribute('role')") == role:
            return
    raise AssertionError(f"no {role} before the step tabs")


def expected_targets(spec: dict) -> tuple[set[str], set[str]]:
    """Every node key, and every labelled path the first scenario's drawing shows (a sequence shows the messages
    its steps send)."""
    nodes = {k for k, t in spec["targets"].items() if t["kind"] == "node"}
    paths = {k for k, t in spec["targets"].items() if t["kind"] == "path" and t.get("label")
             and t["from"] != t["to"]}
    if spec.get("layout", {}).get("view") == "sequence":
        paths &= {p for step in spec["scenarios"][0]["steps"] for p in step["paths"]}
    return nodes, paths


POSITION_JS = """() => {
  const el = document.activeElement;
  const num = name => el.hasAttribute(name) ? Number(el.getAttribute(name)) : -1;
  return {r: num('data-mech-r'), c: num('data-mech-c'), a: num('data-mech-a'), index: num('data-mech-item'),
          role: el.getAttribute('role'), label: el.getAttribute('aria-label') ?? el.textContent,
          arrows: el.getAttribute('role') === 'gridcell' ? el.querySelectorAll('[role=button]').length : 0,
          current: el.getAttribute('aria-current')};
}"""


def at(page) -> dict:
    """Where the focus is in a grid: (r, c) (row 0 the column headers, column 0 the row headers), ``a`` the arrow
    of its cell (-1 on the cell), the item it stands for (-1 for none), its role, name and arrows."""
    return page.evaluate(POSITION_JS)


def press(page, key: str) -> dict:
    page.keyboard.press(key)
    return at(page)


def to_cell(page, r: int, c: int, onward: str = "ArrowRight") -> dict:
    """Move the focus to the grid's cell (r, c) by keys: Control+Home, then Down and ``onward`` (the key that
    goes on along a row: Left in a right-to-left language)."""
    start = press(page, "Control+Home")
    for _ in range(r - start["r"]):
        page.keyboard.press("ArrowDown")
    for _ in range(c - start["c"]):
        page.keyboard.press(onward)
    now = at(page)
    assert (now["r"], now["c"]) == (r, c), now
    return now


def with_arrows(grid: dict) -> tuple[int, int]:
    """The first cell (r, c) of ``grid`` that has arrows."""
    return next((r + 1, c + 1) for r, row in enumerate(grid["rows"]) for c, cell in enumerate(row["cells"])
                if cell["arrows"])


def grid_walk(page) -> list[dict]:
    """Tab into the first figure's grid, Control+Home, then row by row: Right along the row, at each cell with
    arrows Enter, Down through them and Escape back; Home and Down to the next row. Each stop reached, with what
    chromium says of it."""
    page.keyboard.press("Tab")
    assert at(page)["role"] == "gridcell"
    now = press(page, "Control+Home")
    seen: list[dict] = []
    for _ in range(400):
        while True:
            seen.append({**now, "heard": heard(page)})
            if now["arrows"]:
                arrow = press(page, "Enter")
                for _ in range(now["arrows"]):
                    seen.append({**arrow, "heard": heard(page)})
                    arrow = press(page, "ArrowDown")
                back = press(page, "Escape")
                assert (back["r"], back["c"], back["a"]) == (now["r"], now["c"], -1)
            after = press(page, "ArrowRight")
            if (after["r"], after["c"]) == (now["r"], now["c"]):
                break
            now = after
        page.keyboard.press("Home")
        row = at(page)["r"]
        now = press(page, "ArrowDown")
        if now["r"] == row:
            return seen
    raise AssertionError("the walk did not end")


@pytest.mark.parametrize("slug", bs.mechanism_slugs())
def test_keys_alone_reach_every_box_and_labelled_arrow_and_hear_each(site, open_page, slug):
    spec = site.specs[slug]
    page = open_page(site.page(slug), clock=True)
    explore = bs.player_data(page)["scenarios"][0]["explore"]
    items = explore["items"]
    on = set(bs.player_data(page)["scenarios"][0]["steps"][0]["on"])
    nodes, paths = expected_targets(spec)
    if explore["grid"] is None:
        seen = [{"index": index, "heard": said} for index, said in walk(page)]
        assert [stop["index"] for stop in seen] == list(range(len(items)))  # in tree order, each once
        roles = {"treeitem"}
    else:
        seen = grid_walk(page)
        grid = explore["grid"]
        width = len(grid["columns"])
        cells = [(stop["r"], stop["c"]) for stop in seen if stop["a"] < 0]
        assert len(cells) == len(set(cells)) and all(0 < c <= width or c == 0 for _, c in cells)
        assert sum(1 for r, c in cells if r > 0 and c > 0) == width * len(grid["rows"])  # every cell, each once
        roles = {"gridcell", "rowheader", "columnheader", "button"}
    reached = {items[stop["index"]]["key"] for stop in seen
               if stop["index"] >= 0 and items[stop["index"]]["kind"] in ("node", "arrow")}
    assert nodes <= reached and paths <= reached, (nodes - reached, paths - reached)
    sequence = explore["grid"] is not None and explore["grid"]["rows"][0]["step"] >= 0
    for stop in seen:
        role, name = stop["heard"].split(" ", 1)
        assert role in roles, stop
        name = name.strip('"')
        if stop["index"] < 0:  # a sequence's cell or step, an empty cell: the build's own words
            continue
        item = items[stop["index"]]
        assert name.startswith(bs.unisolated(item["head"])), (stop, item)
        target = spec["targets"].get(item["key"])
        # a sequence's arrow speaks of its row's step; anything else of the current one
        step_on = on if not (sequence and item["kind"] == "arrow") else set(
            bs.player_data(page)["scenarios"][0]["steps"][explore["grid"]["rows"][stop["r"] - 1]["step"]]["on"])
        if item["kind"] == "node":
            assert (target.get("label") or target["id"]) in name
            state = "active in this step" if item["key"] in step_on else "not active in this step"
            assert f", {state}" in name, stop
        elif item["kind"] == "arrow":
            assert name.startswith(f"Arrow {target['label']}:" if target.get("label") else "Arrow from"), stop
            assert (", used in this step" if item["key"] in step_on else ", not used in this step") in name, stop
    print(f"{slug}: {len(seen)} stops reached by keys, {len(nodes)} boxes, {len(paths)} labelled arrows")


def test_the_tree_in_chromiums_accessibility_tree(site, open_page):
    page = open_page(site.page("serving-stack"), clock=True)
    items = bs.player_data(page)["scenarios"][0]["explore"]["items"]
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")  # the first box opens
    snapshot = bs.unisolated(bs.figures(page).nth(0).locator("[role=tree]").first.aria_snapshot())
    lines = [line.strip() for line in snapshot.splitlines()]
    assert lines[0].startswith("- 'tree \"Structure of the drawing: arrow keys move, Enter follows an arrow")
    first = bs.unisolated(items[0]["head"])
    assert lines[1].startswith(f"- 'treeitem \"{first}, ") and lines[1].endswith("[expanded] [level=1]':"), lines[1]
    arrows = [n for n, item in enumerate(items) if item["parent"] == 0]
    assert lines[2] == "- group:" and "[level=2]" in lines[3]  # the open box's arrows, a level under it
    assert lines[3].startswith(f"- 'treeitem \"{bs.unisolated(items[arrows[0]]['head'])}, ")
    # a closed box's arrows are not in the tree (display: none), an open one's are; a group is a level above
    assert sum(line.startswith("- 'treeitem") for line in lines) == len(arrows) + sum(
        1 for item in items if item["parent"] < 0)
    group = next(item for item in items if item["kind"] == "group")
    assert any(line.startswith(f"- 'treeitem \"{bs.unisolated(group['head'])}, 3 boxes\" [level=1]") for line in lines)
    assert sum(line.startswith("- 'tree ") or line.startswith("- tree ") for line in lines) == 1


def test_arrows_lead_to_their_far_end_and_escape_goes_up_then_out(site, open_page):
    page = open_page(site.page("serving-stack"), clock=True)
    items = bs.player_data(page)["scenarios"][0]["explore"]["items"]
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")  # the first box opens
    page.keyboard.press("ArrowRight")  # into its first arrow
    arrow = focused(page)
    assert items[arrow["index"]]["kind"] == "arrow" and arrow["level"] == "2"
    page.keyboard.press("Enter")  # follows it
    far = items[items[arrow["index"]]["far"]]
    assert focused(page)["index"] == items[arrow["index"]]["far"] and far["kind"] == "node"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Escape")  # an arrow: up to its box
    assert items[focused(page)["index"]]["key"] == far["key"]
    page.keyboard.press("Home")
    assert focused(page)["index"] == 0
    page.keyboard.press("End")
    shown = page.evaluate("() => Array.from(document.querySelectorAll('[data-mech-item]'))"
                          ".filter(e => e.getClientRects().length).map(e => Number(e.dataset.mechItem))")
    assert focused(page)["index"] == shown[-1] and len(shown) < len(items)  # a closed item's arrows are hidden
    page.keyboard.press("Home")
    page.keyboard.press("Escape")  # at the top: out, to the step tabs
    back_in(page, "treeitem")
    assert focused(page)["index"] == 0  # the tree keeps its one stop where the reader left it


def test_page_down_changes_the_step_and_the_names_follow_without_moving_focus(site, open_page):
    page = open_page(site.page("serving-stack"), clock=True)
    data = bs.player_data(page)["scenarios"][0]
    page.keyboard.press("Tab")
    index = focused(page)["index"]
    key = data["explore"]["items"][index]["key"]
    assert bs.state(page)["label"] == bs.PLAY_LABEL  # focus in the structure paused the player
    states = []
    for step in (1, 2, 3, 2):
        if step > 1 or bs.step_of(page) != 1:
            page.keyboard.press("PageDown" if step > bs.step_of(page) else "PageUp")
        assert bs.step_of(page) == step and focused(page)["index"] == index
        state = "active in this step" if key in data["steps"][step - 1]["on"] else "not active in this step"
        assert f", {state}, " in bs.unisolated(focused(page)["label"]), (step, focused(page))
        states.append(state)
        assert bs.state(page)["live"] == "polite"  # the step the reader chose is announced
    assert len(set(states)) == 2, states  # the steps chosen change what the box says
    page.clock.run_for(30_000)
    assert bs.step_of(page) == 2  # still paused


def test_the_grid_in_chromiums_accessibility_tree(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    explore = bs.player_data(page)["scenarios"][0]["explore"]
    page.keyboard.press("Tab")
    snapshot = bs.unisolated(bs.figures(page).nth(0).locator("[role=grid]").first.aria_snapshot())
    lines = [line.strip() for line in snapshot.splitlines()]
    assert lines[0].startswith("- 'grid \"Structure of the drawing as a grid: arrow keys move, Enter goes into")
    assert [line for line in lines if line.startswith("- columnheader")] == [
        '- columnheader "Column 1"', '- columnheader "Column 2"', '- columnheader "Column 3"']
    heads = [line for line in lines if line.startswith("- rowheader")]
    assert heads == [f'- rowheader "{bs.unisolated(row["head"])}, {n} boxes"' for row, n in zip(
        explore["grid"]["rows"], [sum(c["item"] >= 0 for c in row["cells"]) for row in explore["grid"]["rows"]],
        strict=True)]
    cells = [line for line in lines if "gridcell" in line]
    assert len(cells) == 3 * len(heads)
    assert sum("gridcell \"empty\"" in line for line in cells) == sum(
        c["item"] < 0 for row in explore["grid"]["rows"] for c in row["cells"])
    assert any(line.startswith("- 'button \"Arrow ") or line.startswith('- button "Arrow ') for line in lines)
    assert sum(line.startswith("- 'grid ") for line in lines) == 1


def test_grid_keys_move_by_cell_go_into_arrows_and_follow_them(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    explore = bs.player_data(page)["scenarios"][0]["explore"]
    grid, items = explore["grid"], explore["items"]
    page.keyboard.press("Tab")
    assert (at(page)["r"], at(page)["c"]) == (1, 1)  # the first cell is the stop
    assert (press(page, "ArrowRight")["c"], press(page, "ArrowDown")["r"]) == (2, 2)
    assert press(page, "ArrowUp")["r"] == 1 and press(page, "ArrowLeft")["c"] == 1
    assert press(page, "ArrowUp")["r"] == 1  # no focusable column header over a lane grid's cells
    assert press(page, "End")["c"] == len(grid["columns"]) and press(page, "Home")["c"] == 0  # the lane
    last = press(page, "Control+End")
    assert (last["r"], last["c"]) == (len(grid["rows"]), len(grid["columns"]))
    assert (press(page, "Control+Home")["r"], at(page)["c"]) == (1, 0)
    lane = at(page)
    assert lane["role"] == "rowheader" and items[lane["index"]]["kind"] == "group"
    first = press(page, "Enter")  # into the lane: its first box
    assert first["role"] == "gridcell" and first["index"] >= 0 and first["r"] == 1
    # the cell of a box with an arrow: Enter goes into its arrows, Enter follows one, Escape comes back
    r, c = with_arrows(grid)
    to_cell(page, r, c)
    cell = grid["rows"][r - 1]["cells"][c - 1]
    arrow = press(page, "Enter")
    assert arrow["role"] == "button" and arrow["index"] == cell["arrows"][0] and arrow["a"] == 0
    assert bs.unisolated(arrow["label"]).startswith("Arrow ")
    assert press(page, "Escape")["a"] == -1 and (at(page)["r"], at(page)["c"]) == (r, c)
    page.keyboard.press("Enter")
    there = press(page, "Enter")  # follows the arrow to the cell of its other end
    assert there["a"] == -1 and there["index"] == items[cell["arrows"][0]]["far"]
    assert press(page, "Escape")["c"] == 0  # up a level, to the cell's lane
    page.keyboard.press("Escape")  # and out, to the step tabs
    back_in(page, "rowheader")
    assert at(page)["c"] == 0  # the grid keeps its one stop where the reader left it


def test_a_sequence_grid_by_steps_and_participants(site, open_page):
    page = open_page(site.page("web-worker"), clock=True)
    data = bs.player_data(page)["scenarios"][0]
    grid, items = data["explore"]["grid"], data["explore"]["items"]
    page.keyboard.press("Tab")
    cell = at(page)
    assert (cell["r"], cell["c"], cell["role"]) == (1, 1, "gridcell")
    assert cell["label"] == grid["rows"][0]["cells"][0]["name"]
    participant = press(page, "ArrowUp")  # the column header: the participant, the level above its cells
    assert participant["role"] == "columnheader" and items[participant["index"]]["key"] == grid["rows"][0][
        "cells"][0]["key"]
    assert ", 1 arrow out: " in bs.unisolated(participant["label"]) or " arrows out: " in bs.unisolated(
        participant["label"])
    assert press(page, "Enter")["r"] == 1 and press(page, "Escape")["r"] == 0  # Enter enters, Escape returns
    step = press(page, "Control+End")
    assert (step["r"], step["c"]) == (len(grid["rows"]), len(grid["columns"]))
    header = press(page, "Home")
    assert header["role"] == "rowheader" and header["current"] is None
    page.keyboard.press("Enter")  # a step's row header shows its step; focus stays
    assert bs.step_of(page) == len(grid["rows"]) and at(page)["current"] == "step" and at(page)["c"] == 0
    # a cell with messages: Enter goes into them, and one leads to the other participant's cell in its step
    r, c = with_arrows(grid)
    to_cell(page, r, c)
    arrow = press(page, "Enter")
    assert arrow["role"] == "button"
    step_on = data["steps"][grid["rows"][r - 1]["step"]]["on"]
    assert items[arrow["index"]]["key"] in step_on and ", used in this step" in arrow["label"]
    there = press(page, "Enter")
    far = items[items[arrow["index"]]["far"]]["key"]
    assert there["r"] == r and grid["rows"][r - 1]["cells"][there["c"] - 1]["key"] == far
    page.keyboard.press("PageUp")  # Page Up changes the step from inside; the cell stays and says the same
    assert bs.step_of(page) == len(grid["rows"]) - 1 and (at(page)["r"], at(page)["c"]) == (r, there["c"])
    assert at(page)["label"] == grid["rows"][r - 1]["cells"][there["c"] - 1]["name"]


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
    grid = bs.player_data(page)["scenarios"][0]["explore"]["grid"]
    to_cell(page, *with_arrows(grid))
    page.keyboard.press("Enter")
    assert at(page)["role"] == "button"
    arrow = root.evaluate(RING_JS)
    assert arrow["tag"] == "path" and arrow["inside"], arrow
    page.keyboard.press("Shift+Tab")  # focus leaves the structure: no ring
    assert root.evaluate(RING_JS) == {"rings": 0}


RING_BOX_JS = """root => {
  const svg = Array.from(root.querySelectorAll('.mech-scene:not([hidden]) svg')).find(s => s.getClientRects().length);
  const r = svg.querySelector('.mech-focus rect');
  const [x, y, w, h] = ['x', 'y', 'width', 'height'].map(name => Number(r.getAttribute(name)));
  return [x + w / 2, y + h / 2, w, h];
}"""


def relay_with_a_gap() -> dict:
    """The relay, its relay lane's first box left out: an empty cell in a grid a phone shows transposed."""
    spec = bs.relay_spec()
    del spec["targets"]["r0"]
    spec["scenarios"][1]["unselected"].remove("r0")
    return spec


@pytest.mark.parametrize(("slug", "width", "across"), [("paged-kv-cache", 1280, True), ("relay-gap", 360, False)])
def test_an_empty_cell_is_ringed_where_its_lane_and_its_column_meet(site, open_page, tmp_path, slug, width, across):
    """In a wide grid (lanes across) and a phone's transposed one (lanes down): the empty cell's ring (centre and
    size, in the drawing's units) shares one axis with a box of its lane and the other with a box of its column."""
    if slug == "relay-gap":
        for name, data in render(relay_with_a_gap(), slug).items():
            (tmp_path / name).write_bytes(data)
    page = open_page(site.page(slug) if slug != "relay-gap" else tmp_path / f"{slug}.html", clock=True,
                     viewport=(width, 900))
    root = bs.figures(page).nth(0)
    grid = bs.player_data(page)["scenarios"][0]["explore"]["grid"]
    r, c = next((r + 1, c + 1) for r, row in enumerate(grid["rows"]) for c, cell in enumerate(row["cells"])
                if cell["item"] < 0 and any(other["item"] >= 0 for other in row["cells"])
                and any(other["cells"][c]["item"] >= 0 for other in grid["rows"]))
    page.keyboard.press("Tab")
    to_cell(page, r, c)
    empty = root.evaluate(RING_BOX_JS)
    assert empty[2] > 20 and empty[3] > 20, empty
    to_cell(page, r, next(cc + 1 for cc, cell in enumerate(grid["rows"][r - 1]["cells"]) if cell["item"] >= 0))
    lane = root.evaluate(RING_BOX_JS)
    to_cell(page, next(rr + 1 for rr, row in enumerate(grid["rows"]) if row["cells"][c - 1]["item"] >= 0), c)
    column = root.evaluate(RING_BOX_JS)
    print(f"{slug} at {width} px: empty {empty}, its lane's box {lane}, its column's box {column}")
    lane_axis = 1 if across else 0  # lanes are rows: they give the height; else columns: they give the width
    time_axis = 1 - lane_axis
    assert abs(empty[lane_axis] - lane[lane_axis]) < 0.5 and abs(empty[2 + lane_axis] - lane[2 + lane_axis]) < 0.5
    assert abs(empty[time_axis] - column[time_axis]) < 0.5 and abs(empty[2 + time_axis] - column[2 + time_axis]) < 0.5
    assert abs(empty[time_axis] - lane[time_axis]) > 20  # and it is not where the lane's box is


def test_left_and_right_mirror_right_to_left(site, open_page):
    page = open_page(site.page("lang-ar"), clock=True)
    page.keyboard.press("Tab")
    first = at(page)
    assert (first["r"], first["c"]) == (1, 1)
    assert press(page, "ArrowLeft")["c"] == 2  # in Arabic, Left goes on, as the cells read
    assert press(page, "ArrowRight")["c"] == 1  # and Right back
    assert press(page, "ArrowRight")["c"] == 0  # to the lane, the row's head at the right
    grid = page.locator("[role=grid]").first
    assert grid.get_attribute("aria-label").startswith("بنية الرسم كشبكة")  # the catalogue's Arabic words
    to_cell(page, *with_arrows(bs.player_data(page)["scenarios"][0]["explore"]["grid"]), onward="ArrowLeft")
    assert "سهم" in press(page, "Enter")["label"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_with_focus_in_the_structure(site, open_page, check_axe, scheme):
    page = open_page(site.page(bs.LEAD), scheme=scheme)  # axe needs the page's own timers
    page.keyboard.press("Tab")
    to_cell(page, *with_arrows(bs.player_data(page)["scenarios"][0]["explore"]["grid"]))
    page.keyboard.press("Enter")
    check_axe(page, f"{bs.LEAD}.html (focus on an arrow of the structure's grid, {scheme})")
    page = open_page(site.page("serving-stack"), scheme=scheme)
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check_axe(page, f"serving-stack.html (focus on an arrow of the structure's tree, {scheme})")


COVERED_JS = """root => {
  const svg = Array.from(root.querySelectorAll('.mech-scene:not([hidden]) [data-mech-canvas] svg'))
    .find(s => s.getClientRects().length);
  const ring = svg.querySelector('.mech-focus').getBoundingClientRect();
  const strip = root.querySelector('.mech-scene:not([hidden]) [data-mech-heads]');
  const held = strip.hasAttribute('data-mech-stuck') ? strip.getBoundingClientRect() : null;
  return {held: !!held, covered: !!held && ring.top < held.bottom && ring.bottom > held.top,
          inView: ring.top >= 0 && ring.bottom <= innerHeight};
}"""


def test_a_sequences_held_heads_never_cover_the_ring(site, open_page):
    """On a phone a sequence's heads strip is held at the top of the view once the page has scrolled past the
    heads; the ring of a cell or a message the keys reach is brought into view below it, not under it."""
    page = open_page(site.page("web-worker"), clock=True, viewport=(360, 740))
    root = bs.figures(page).nth(0)
    grid = bs.player_data(page)["scenarios"][0]["explore"]["grid"]
    page.keyboard.press("Tab")
    held = []
    for r in range(1, len(grid["rows"]) + 1):
        for c in range(1, len(grid["columns"]) + 1):
            to_cell(page, r, c - 1 if c > 1 else c)
            # the page scrolled past the heads (the strip is held), then the keys move on to the cell
            root.evaluate("r => window.scrollBy(0, r.querySelector('.mech-scene:not([hidden]) [data-mech-canvas]')"
                          ".getBoundingClientRect().top + 170)")
            page.keyboard.press("ArrowRight" if c > 1 else "ArrowUp")
            if c == 1:
                page.keyboard.press("ArrowDown")
            facts = root.evaluate(COVERED_JS)
            assert not facts["covered"] and facts["inView"], (r, c, facts)
            held.append(facts["held"])
    assert sum(held) >= len(held) / 2, held  # the strip stayed held for most: the case this is about


def built(tmp_path, data: dict, slug: str):
    """``data`` rendered into ``tmp_path``: its standalone page."""
    for name, content in render(data, slug).items():
        (tmp_path / name).write_bytes(content)
    return tmp_path / f"{slug}.html"


RING_Y_JS = """root => {
  const svg = Array.from(root.querySelectorAll('.mech-scene:not([hidden]) [data-mech-canvas] svg[role=img]'))
    .find(s => s.getClientRects().length);
  const box = svg.querySelector('.mech-focus path').getBBox();
  return [box.y, box.y + box.height];
}"""


def test_a_message_sent_again_is_ringed_in_the_row_of_the_step_that_sends_it(open_page, tmp_path):
    from support.sequences import oauth_spec
    data = oauth_spec()
    steps = data["scenarios"][0]["steps"]
    steps.append({**steps[0], "title": "Again", "paths": ["login"]})
    page = open_page(built(tmp_path, data, "again"), clock=True)
    root = bs.figures(page).nth(0)
    shapes = bs.player_data(page)["scenarios"][0]["explore"]["shapes"][0]
    page.keyboard.press("Tab")
    grid = bs.player_data(page)["scenarios"][0]["explore"]["grid"]
    column = next(c + 1 for c, cell in enumerate(grid["rows"][-1]["cells"]) if cell["arrows"])
    for r in (1, len(steps)):
        to_cell(page, r, column)
        page.keyboard.press("Enter")
        top, bottom = root.evaluate(RING_Y_JS)
        band = shapes[f"#row{r}"]["r"]
        assert band[1] - 1 <= top and bottom <= band[1] + band[3] + 1, (r, top, bottom, band)
        page.keyboard.press("Escape")


def test_however_focus_comes_the_grid_keeps_one_stop(site, open_page):
    page = open_page(site.page(bs.LEAD), clock=True)
    stops = "() => document.querySelectorAll('[data-mech-figure] .mech-explore [tabindex=\"0\"]').length"
    page.evaluate("() => document.querySelector('.mech-explore [data-mech-r=\"2\"][data-mech-c=\"3\"]').focus()")
    assert page.evaluate(stops) == 1 and (at(page)["r"], at(page)["c"]) == (2, 3)  # focus mode, a click
    assert press(page, "ArrowRight")["c"] == 4 and page.evaluate(stops) == 1
    prevented = page.evaluate("""() => { const e = new KeyboardEvent('keydown', {key: 'ArrowLeft', altKey: true,
      bubbles: true, cancelable: true}); document.activeElement.dispatchEvent(e); return e.defaultPrevented; }""")
    assert not prevented and at(page)["c"] == 4  # Alt+Left is the browser's Back, not the grid's
    to_cell(page, *with_arrows(bs.player_data(page)["scenarios"][0]["explore"]["grid"]))
    page.keyboard.press("Enter")
    items = bs.player_data(page)["scenarios"][0]["explore"]["items"]
    arrow = at(page)
    there = press(page, " ")  # Space, as on any button, follows the arrow
    assert there["a"] == -1 and there["index"] == items[arrow["index"]]["far"]


NAMES_JS = """root => {
  const svg = Array.from(root.querySelectorAll('.mech-scene:not([hidden]) [data-mech-canvas] svg[role=img]'))
    .find(s => s.getClientRects().length);
  const ring = svg.querySelector('.mech-focus').getBoundingClientRect();
  const names = svg.parentElement.querySelector('.mech-lane-names').getBoundingClientRect();
  const frame = svg.closest('[data-mech-canvas]').getBoundingClientRect();
  return {left: ring.left, names: names.right, frameRight: frame.right, right: ring.right};
}"""


def test_a_kept_grids_held_lane_names_never_cover_the_ring(site, open_page):
    """On a phone a lane grid too wide to transpose scrolls in its frame with its lane names held at the left;
    going back along a lane, each ring comes out from under the names."""
    page = open_page(site.page(bs.LEAD), clock=True, viewport=(360, 800))
    root = bs.figures(page).nth(0)
    grid = bs.player_data(page)["scenarios"][0]["explore"]["grid"]
    page.keyboard.press("Tab")
    page.keyboard.press("End")
    for _ in range(len(grid["columns"]) - 1):
        facts = root.evaluate(NAMES_JS)
        assert facts["left"] >= facts["names"] - 0.5 and facts["right"] <= facts["frameRight"] + 0.5, facts
        page.keyboard.press("ArrowLeft")


def test_a_resize_brings_the_ring_into_view_in_the_layout_it_shows(site, open_page):
    page = open_page(site.page("batching"), clock=True, viewport=(1280, 700))
    root = bs.figures(page).nth(0)
    page.keyboard.press("Tab")
    page.keyboard.press("Control+End")
    page.set_viewport_size({"width": 360, "height": 640})
    page.wait_for_function("() => document.querySelector('[data-mech-canvas] .mech-narrow').getClientRects().length")
    box = root.evaluate(RING_BOX_JS)
    seen = root.evaluate("""root => { const svg = Array.from(root.querySelectorAll(
      '.mech-scene:not([hidden]) [data-mech-canvas] svg[role=img]')).find(s => s.getClientRects().length);
      const r = svg.querySelector('.mech-focus').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }""")
    assert box[2] > 20 and seen
