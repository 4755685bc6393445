"""Layout: the lane grid, its overrides, the flow fallback, and labels that fit their boxes."""

from __future__ import annotations

import itertools

import pytest

from mechdiagram.layout import diagram, grid_cells, layout_scenario
from mechdiagram.layout import sizes as L
from mechdiagram.layout.measure import CONTINUATION, text_width, wrap
from mechdiagram.shared.model import spec_from_data
from support.reference_spec import LABELS, LANES, reference_spec
from support.specs import minimal_spec


def laid_out(data: dict):
    spec = spec_from_data(data)
    return spec, layout_scenario(spec, spec.scenarios[0])


def node(key: str, label: str | None = None) -> dict:
    return {"id": f"t-{key}".replace("_", "-").replace(".", "-"), "kind": "node", "label": label or key}


def path(key: str, source: str, dest: str) -> dict:
    return {"id": f"p-{key}", "kind": "path", "from": source, "to": dest}


def with_targets(targets: dict) -> dict:
    data = minimal_spec()
    data["targets"] = targets
    data["scenarios"][0]["unselected"] = []
    for step in data["scenarios"][0]["steps"]:
        step["active"], step["paths"] = [], []
    return data


# --- the lane grid ---------------------------------------------------------------------------------

def test_reference_spec_is_a_3_by_6_grid():
    spec = spec_from_data(reference_spec())
    cells, labels = grid_cells(spec)
    expected = {f"{lane}{column}": (row, column) for row, lane in enumerate(LANES) for column in range(6)}
    assert cells == expected
    assert labels == [None, None, None]
    _, layout = laid_out(reference_spec())
    assert layout.cells == expected
    rows = sorted({box.y for box in layout.boxes.values()})
    columns = sorted({box.x for box in layout.boxes.values()})
    assert len(rows) == 3 and len(columns) == 6
    for key, box in layout.boxes.items():
        row, column = expected[key]
        assert (box.y, box.x) == (rows[row], columns[column])
    assert layout.lanes == ()  # no lane labels without a layout block


def test_rows_follow_the_first_appearance_of_each_lane():
    data = reference_spec()
    order = ["kv3", "work0", "out5"]  # kv appears first, then work, then out
    data["targets"] = {key: data["targets"][key] for key in order + [k for k in data["targets"] if k not in order]}
    cells, _ = grid_cells(spec_from_data(data))
    assert {key[:-1] for key, (row, _) in cells.items() if row == 0} == {"kv"}
    assert {key[:-1] for key, (row, _) in cells.items() if row == 1} == {"work"}
    assert {key[:-1] for key, (row, _) in cells.items() if row == 2} == {"out"}


def test_columns_are_the_sorted_distinct_indexes_as_numbers():
    data = with_targets({"a10": node("a10"), "a2": node("a2"), "b5": node("b5"), "b2": node("b2")})
    cells, _ = grid_cells(spec_from_data(data))
    # 2 < 5 < 10 numerically (a text sort would put 10 first)
    assert cells == {"a2": (0, 0), "b2": (1, 0), "b5": (1, 1), "a10": (0, 2)}


def test_lane_keys_with_digits_inside_the_lane_name():
    data = with_targets({"gpu0_q1": node("gpu0_q1"), "gpu0_q2": node("gpu0_q2"), "cpu_q1": node("cpu_q1")})
    cells, _ = grid_cells(spec_from_data(data))
    assert cells == {"gpu0_q1": (0, 0), "gpu0_q2": (0, 1), "cpu_q1": (1, 0)}


def test_layout_lanes_reorder_the_rows_and_label_them():
    data = reference_spec()
    data["layout"] = {"lanes": ["kv", {"key": "work", "label": "Engine work"}]}
    spec = spec_from_data(data)
    cells, labels = grid_cells(spec)
    assert cells["kv0"] == (0, 0) and cells["kv5"] == (0, 5)
    assert cells["work0"] == (1, 0) and cells["work5"] == (1, 5)
    assert cells["out0"] == (2, 0)  # lanes not listed follow, in order of appearance
    assert labels == [None, "Engine work", None]
    layout = layout_scenario(spec, spec.scenarios[0])
    assert [header.lines for header in layout.lanes] == [("Engine work",)]
    header = layout.lanes[0]
    assert header.y == layout.boxes["work0"].y
    # lane headers sit to the left of the grid
    assert header.x + header.w <= min(box.x for box in layout.boxes.values())


def test_layout_positions_override_one_node():
    data = reference_spec()
    data["layout"] = {"positions": {"kv5": {"row": 3, "column": 7}}}
    cells, _ = grid_cells(spec_from_data(data))
    assert cells["kv5"] == (3, 7)
    assert cells["kv4"] == (2, 4)


# --- the flow fallback -----------------------------------------------------------------------------

def test_non_lane_keys_fall_back_to_flow_along_the_arrows():
    data = with_targets({
        "client": node("client"), "gateway": node("gateway"), "server": node("server"), "db": node("db"),
        "cache": node("cache"),
        "c_g": path("c_g", "client", "gateway"), "g_s": path("g_s", "gateway", "server"),
        "s_d": path("s_d", "server", "db"), "g_c": path("g_c", "gateway", "cache"),
    })
    cells, labels = grid_cells(spec_from_data(data))
    assert labels == []
    # columns are the longest-path rank; nodes of one rank stack in rows
    assert cells == {"client": (0, 0), "gateway": (0, 1), "server": (0, 2), "db": (0, 3), "cache": (1, 2)}


def test_one_non_lane_key_makes_the_whole_spec_flow():
    data = with_targets({"a0": node("a0"), "a1": node("a1"), "summary": node("summary")})
    cells, _ = grid_cells(spec_from_data(data))
    assert cells == {"a0": (0, 0), "a1": (0, 1), "summary": (0, 2)}  # rows of FLOW_COLUMNS, not lanes


def test_flow_without_arrows_fills_rows_of_flow_columns():
    keys = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"]
    data = with_targets({key: node(key) for key in keys})
    cells, _ = grid_cells(spec_from_data(data))
    assert L.FLOW_COLUMNS == 5
    assert cells == {key: (i // 5, i % 5) for i, key in enumerate(keys)}


def test_flow_with_a_cycle_still_places_every_node_once():
    data = with_targets({"x": node("x"), "y": node("y"), "xy": path("xy", "x", "y"), "yx": path("yx", "y", "x")})
    cells, _ = grid_cells(spec_from_data(data))
    assert set(cells) == {"x", "y"}
    assert len(set(cells.values())) == 2


# --- geometry: no overlaps, labels fit -------------------------------------------------------------

def _overlap(a, b) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def _assert_labels_fit(layout, spec):
    inner = L.BOX_WORD_WIDTH - 2 * L.PAD_X  # a long word may widen its box this far
    for key, box in layout.boxes.items():
        assert box.lines, key
        for line in box.lines:
            assert text_width(line) <= box.w - 2 * L.PAD_X, (key, line)
            assert text_width(line) <= inner
        assert len(box.lines) * L.LINE_HEIGHT + 2 * L.PAD_Y <= box.h + 1e-9, key
        # the block of lines is centred inside the box, clear of its top and bottom edge
        top = box.first_baseline - 0.75 * L.LINE_HEIGHT
        assert top >= box.y + L.PAD_Y - 1e-9
        assert top + len(box.lines) * L.LINE_HEIGHT <= box.y + box.h - L.PAD_Y + 1e-9
        # nothing of the label is lost (a word broken between characters ends its line with the continuation mark)
        lines = [line.removesuffix(CONTINUATION) for line in box.lines]
        assert " ".join(lines).split() == spec.targets[key].label.split() or \
            "".join(lines).replace(" ", "") == spec.targets[key].label.replace(" ", "")
        # every box is inside the canvas
        assert box.x >= 0 and box.y >= 0 and box.x + box.w <= layout.width and box.y + box.h <= layout.height


def test_reference_labels_fit_their_boxes():
    spec, layout = laid_out(reference_spec())
    _assert_labels_fit(layout, spec)
    release = layout.boxes["kv5"]
    assert spec.targets["kv5"].label == LABELS["kv"][5] == "Release request references"
    assert text_width("Release request references") > L.BOX_MAX_WIDTH - 2 * L.PAD_X  # so it must wrap ...
    assert len(release.lines) >= 2                                                  # ... and it does
    assert " ".join(release.lines) == "Release request references"
    # every box of a column has the column's width, and no column is wider than its widest label needs
    columns: dict[int, set[float]] = {}
    for key, box in layout.boxes.items():
        columns.setdefault(layout.cells[key][1], set()).add(box.w)
    assert all(len(widths) == 1 for widths in columns.values())
    for col, (width,) in columns.items():
        widest = max(text_width(line) for key, box in layout.boxes.items() if layout.cells[key][1] == col
                     for line in box.lines)
        assert width == pytest.approx(max(L.BOX_MIN_WIDTH, widest + 2 * L.PAD_X), abs=0.1)  # at 0.1 precision
    for a, b in itertools.combinations(layout.boxes.values(), 2):
        assert not _overlap(a, b), (a.key, b.key)


@pytest.mark.parametrize("label", [
    "Release request references",
    "A rather long label that needs several lines to fit inside a box",
    "Supercalifragilisticexpialidocious-and-then-some-more",
    "WWWWWWWWWWWWWWWWWWWW MMMMMMMMMMMMMMMM",
    "漢字のラベルはとても長くなることがあります",
    "mixed ünïcödé wörds — and dashes",
])
def test_any_label_fits_its_box(label):
    data = minimal_spec()
    data["targets"]["a1"]["label"] = label
    spec, layout = laid_out(data)
    _assert_labels_fit(layout, spec)
    for a, b in itertools.combinations(layout.boxes.values(), 2):
        assert not _overlap(a, b), (a.key, b.key)


def test_tall_label_makes_its_whole_row_taller_and_pushes_the_next_row_down():
    data = minimal_spec()
    data["targets"]["a1"]["label"] = "one two three four five six seven eight nine ten eleven twelve"
    _, layout = laid_out(data)
    a0, a1, b0 = layout.boxes["a0"], layout.boxes["a1"], layout.boxes["b0"]
    assert len(a1.lines) > 2
    assert a0.h == a1.h > L.BOX_MIN_HEIGHT
    assert b0.y >= a1.y + a1.h + L.GAP_Y


def test_wrap_is_greedy_and_never_exceeds_the_width():
    text = "the quick brown fox jumps over the lazy dog " * 3
    lines = wrap(text, 100)
    assert " ".join(lines) == " ".join(text.split())
    for line, following in zip(lines, lines[1:]):
        assert text_width(line) <= 100
        # greedy: the next line's first word would not have fitted
        assert text_width(f"{line} {following.split()[0]}") > 100
    assert wrap("", 100) == [""]


def test_text_width_scales_with_size_and_length():
    assert text_width("ab") > text_width("a") > 0
    assert text_width("abc", 28) == pytest.approx(2 * text_width("abc", 14))
    assert text_width("W") > text_width("i")
    assert text_width("\u0301") == 0  # a combining mark takes no room


def test_arrows_run_from_edge_to_edge():
    data = minimal_spec()
    _, layout = laid_out(data)
    arrow = layout.arrows["ab"]
    source, dest = layout.boxes["a0"], layout.boxes["b1"]

    def inside(point, box):
        return box.x < point[0] < box.x + box.w and box.y < point[1] < box.y + box.h

    assert not inside(arrow.start, source) and not inside(arrow.head[0], dest)
    # within a few px of the boxes they join
    assert abs(arrow.start[0] - (source.x + source.w)) <= 4 or abs(arrow.start[1] - (source.y + source.h)) <= 4
    assert abs(arrow.head[0][0] - dest.x) <= 9 or abs(arrow.head[0][1] - dest.y) <= 9  # 8 px clear of an active outline


def test_layout_is_deterministic():
    spec = spec_from_data(reference_spec())
    assert layout_scenario(spec, spec.scenarios[0]) == layout_scenario(spec, spec.scenarios[0])


def test_flow_layout_breaks_cycles_instead_of_stacking_them():
    """fetch -> decode -> execute -> fetch: one column each, the closing edge drawn back."""
    data = minimal_spec()
    data["targets"] = {
        "fetch": {"id": "f", "kind": "node", "label": "fetch"},
        "decode": {"id": "d", "kind": "node", "label": "decode"},
        "execute": {"id": "e", "kind": "node", "label": "execute"},
        "p1": {"id": "p1", "kind": "path", "from": "fetch", "to": "decode"},
        "p2": {"id": "p2", "kind": "path", "from": "decode", "to": "execute"},
        "p3": {"id": "p3", "kind": "path", "from": "execute", "to": "fetch", "label": "next PC"},
    }
    data["scenarios"][0]["unselected"] = []
    data["scenarios"][0]["steps"] = [{"title": "Go", "duration": 1000, "active": ["fetch"], "paths": ["p3"]}]
    spec = spec_from_data(data)
    cells, _ = grid_cells(spec)
    assert cells == {"fetch": (0, 0), "decode": (0, 1), "execute": (0, 2)}


def test_flow_layout_puts_a_fan_out_in_one_column_and_its_reply_back():
    data = minimal_spec()
    targets = {"lb": {"id": "lb", "kind": "node", "label": "balancer"}}
    for i in range(3):
        targets[f"w{i}x"] = {"id": f"w{i}", "kind": "node", "label": f"worker {i}"}
        targets[f"to{i}"] = {"id": f"to{i}", "kind": "path", "from": "lb", "to": f"w{i}x"}
    targets["reply"] = {"id": "reply", "kind": "path", "from": "w0x", "to": "lb"}
    data["targets"] = targets
    data["scenarios"][0]["unselected"] = []
    data["scenarios"][0]["steps"] = [{"title": "Go", "duration": 1000, "active": ["lb"]}]
    cells, _ = grid_cells(spec_from_data(data))
    # the workers share a column; the balancer, fanning out, sits level with the middle one
    assert cells == {"lb": (1, 0), "w0x": (0, 1), "w1x": (1, 1), "w2x": (2, 1)}


def test_an_arrow_label_beside_the_last_column_stays_inside_the_drawing():
    data = minimal_spec()
    data["targets"]["ab"].update({"from": "a1", "to": "b1", "label": "a rather long label"})
    _, layout = laid_out(data)
    arrow = layout.arrows["ab"]
    assert arrow.label_box is not None
    # beside its vertical run, the text is held to the block's edge nearest it (issue 27: at most 6 units from it)
    assert arrow.label_anchor == "start" and arrow.label_at[0] == pytest.approx(arrow.label_box.x, abs=0.05)
    assert arrow.label_box.x >= 10 and arrow.label_box.right + 10 <= layout.width
    assert arrow.label_box.w == pytest.approx(max(text_width(line, L.PATH_LABEL_SIZE) for line in arrow.label_lines))


def test_a_long_word_keeps_its_box_wide_enough_to_stay_whole():
    data = minimal_spec()
    data["targets"]["a0"]["label"] = "wait for the acknowledgement"
    spec, layout = laid_out(data)
    box = layout.boxes["a0"]
    assert "acknowledgement" in box.lines  # never "acknowledgeme" / "nt"
    assert box.w >= text_width("acknowledgement") + 2 * L.PAD_X


def test_cjk_wrapping_never_starts_a_line_with_closing_punctuation():
    """JLREQ line-start prohibition: a comma, colon or full stop that would begin a line takes the character
    before it along, at every width, and no character is lost or added."""
    from mechdiagram.layout.measure import NO_LINE_START, wrap

    text = "一个很长的中文标签，用来测试换行是否正确：日本語のラベル：テスト。"
    for width in range(40, 240, 7):
        lines = wrap(text, width)
        assert "".join(lines) == text, width
        assert not any(line[0] in NO_LINE_START for line in lines), (width, lines)
    assert wrap(text, 100)[1] == "文标签，用来"  # "，" stays after the character it follows


def test_a_short_panel_heading_sits_at_the_top_and_values_wrap_balanced():
    """The panel keeps room for its longest heading; a shorter one sits at the top of that room, the spare
    room under it (a new user and a designer both read a blank band above a heading as a fault); a value on
    several lines is balanced, no word left alone."""
    from mechdiagram.layout.panel import panel

    data = reference_spec()
    data["scenarios"][0]["steps"][0]["title"] = "A step title long enough for two lines"
    data["scenarios"][0]["steps"][1]["title"] = "Short"
    data["scenarios"][0]["steps"][1]["state"] = dict.fromkeys(data["stateLabels"], "Decode pass 1 of 31 with the KV cache")
    spec = spec_from_data(data)
    drawn = panel(spec, spec.scenarios[0], 20, 0, 250)
    first, second = drawn.steps[0], drawn.steps[1]
    longest = max(len(f.title) for f in (drawn.poster, *drawn.steps))
    assert len(first.title) == longest > len(second.title) == 1, (first.title, second.title)
    assert first.title_y == second.title_y == drawn.title_y == 0 + L.PAD_Y + L.TITLE_SIZE
    values = second.values[0]
    assert values == ("Decode pass 1 of 31", "with the KV cache"), values  # greedy: "… 31 with" / "the KV cache"


@pytest.mark.parametrize("text, width, lines", [
    ("中中中\u0301。", 50, ["中中", "中\u0301。"]),  # a combining mark stays with its letter
    ("彼は「こんにちは。」と言った", 137.08, ["彼は「こんにち", "は。」と言った"]),  # two closing marks in a row
    ("。。。。。。", 20, None),  # nothing but marks: broken where the width says, nothing lost
])
def test_a_moved_line_start_keeps_marks_and_characters_together(text, width, lines):
    from mechdiagram.layout.measure import NO_LINE_START

    got = wrap(text, width)
    assert "".join(got) == text
    if lines is not None:
        assert got == lines
        assert not any(line[0] in NO_LINE_START for line in got)


@pytest.mark.parametrize("text, kept", [
    ("time to first token is 92 ms here", "92 ms"),
    ("token 1 at 512 ms, then decodes", "512 ms,"),  # a unit keeps its comma and its number
    ("the cache holds 2 GiB of keys", "2 GiB"),
    ("the allocator hands out fill page 7", "page 7"),  # a short last number stays with its word
])
def test_wrapping_keeps_a_number_with_its_unit_and_a_last_number_with_its_word(text, kept):
    widest = max(text_width(word) for word in text.split())  # narrower, a word is broken anyway
    tried = 0
    for width in range(int(widest) + 1, 300, 3):
        lines = wrap(text, width)
        assert " ".join(lines) == text
        if text_width(kept) <= width:
            assert any(kept in line for line in lines), (width, lines)
            tried += 1
    assert tried > 20



def test_a_lane_name_too_long_for_the_header_column_heads_its_lane_from_above():
    """More than LANE_HEADER_LINES lines in the column: every name goes in a strip above its lane, on one line
    where the lane's width allows, inside the lane's band; the boxes start at the margin, and the figure is
    narrower by the column."""
    data = reference_spec()
    data["layout"] = {"lanes": [{"key": "work", "label": "Engine work"}, "out", "kv"]}
    short = layout_scenario(spec_from_data(data), spec_from_data(data).scenarios[0])
    data["layout"]["lanes"][0]["label"] = "Engine work, one forward pass per step for every request"
    spec = spec_from_data(data)
    layout = layout_scenario(spec, spec.scenarios[0])
    header = layout.lanes[0]
    assert header.above and len(header.lines) == 1
    assert len(wrap(header.lines[0], L.LANE_HEADER_WIDTH - L.LANE_HEADER_AIR)) > L.LANE_HEADER_LINES
    work0 = layout.boxes["work0"]
    assert header.y + header.h + L.LANE_HEADER_GAP == pytest.approx(work0.y)
    assert header.x == work0.x == min(box.x for box in layout.boxes.values())
    band = layout.bands[0]
    assert band.y < header.y and band.y + band.h > work0.y + work0.h
    assert work0.x < short.boxes["work0"].x
    # A name that fits the column (two lines at most) keeps the column.
    assert not any(h.above for h in short.lanes) and short.lanes[0].x + short.lanes[0].w <= min(
        box.x for box in short.boxes.values())


def test_a_box_label_on_several_lines_is_balanced_and_keeps_its_words():
    from mechdiagram.layout.placement import box_lines

    assert box_lines("paused: no token", 140) == ("paused:", "no token")  # greedy: "paused: no" / "token"
    for label in ("Scheduler: admits requests into the running batch and owns their KV-cache pages",
                  "next token after a 537 ms gap", "一个很长的中文标签，用来测试换行是否正确"):
        lines = box_lines(label, 140)
        assert "".join(lines).replace(" ", "") == label.replace(" ", "")
        assert all(text_width(line) <= L.BOX_WORD_WIDTH - 2 * L.PAD_X for line in lines), lines
        if " " in label:
            assert [w for line in lines for w in line.split()] == label.split()


def _lanes_spec(targets: dict, lanes: list, positions: dict | None = None) -> dict:
    """A lane grid of ``targets`` (key -> label for nodes, (from, to, label) for paths) with ``lanes``."""
    data = minimal_spec()
    data["targets"] = {key: ({"id": f"t-{key}", "kind": "node", "label": value} if isinstance(value, str) else
                             {"id": f"t-{key}", "kind": "path", "from": value[0], "to": value[1],
                              **({"label": value[2]} if value[2] else {})}) for key, value in targets.items()}
    nodes = [key for key, value in targets.items() if isinstance(value, str)]
    for step in data["scenarios"][0]["steps"]:
        step["active"], step["paths"] = [nodes[0]], []
    data["scenarios"][0]["unselected"] = []
    data["layout"] = {"lanes": lanes, **({"positions": positions} if positions else {})}
    return data


LONG_NAME = "Engine work, one forward pass per step for every request"


@pytest.mark.parametrize("targets", [
    {"a0": "first", "a1": "second", "b0": "third", "b1": "fourth", "down": ("a1", "b1", None)},
    {"a0": "first", "b0": "second", "p": ("a0", "b0", "data"), "q": ("b0", "a0", "back")},
])
def test_a_path_from_one_lane_to_another_keeps_the_header_column(targets):
    """A name in a strip would stand between the lanes, in the way of every route from above (the routes
    went around the figure instead): with a path across lanes, long names wrap in the column."""
    data = _lanes_spec(targets, ["a", {"key": "b", "label": LONG_NAME}])
    spec = spec_from_data(data)
    drawn = diagram(spec)
    assert not any(h.above for h in drawn.lanes)
    arrow = drawn.arrows["down" if "down" in targets else "p"]
    assert len(arrow.points) == 2 and arrow.clean  # straight down, between the two boxes


def test_strips_that_leave_a_label_no_room_give_way_to_the_column():
    data = _lanes_spec({"a0": "first", "a1": "second", "b1": "third", "go": ("a0", "a1", "a long path label here"),
                        "back": ("a1", "a0", "a long path label here")},
                       [{"key": "a", "label": "Scheduler and queue of waiting requests"}, {"key": "b", "label": "B"}])
    drawn = diagram(spec_from_data(data))
    assert all(arrow.clean for arrow in drawn.arrows.values())
    assert not any(h.above for h in drawn.lanes)


def test_only_the_lanes_drawn_decide_on_strips():
    data = _lanes_spec({"a0": "first", "b0": "second", "z0": "third"},
                       [{"key": "a", "label": "Work"}, {"key": "b", "label": "Cache"},
                        {"key": "z", "label": "A very long lane name that is never drawn: its one node moved"}],
                       {"z0": {"row": 0, "column": 2}})
    drawn = diagram(spec_from_data(data))
    assert [h.lines for h in drawn.lanes] == [("Work",), ("Cache",)] and not any(h.above for h in drawn.lanes)


@pytest.mark.parametrize("text, kept", [("token 1 at 512 ms، then decodes", "512 ms،"),
                                        ("the step takes (512 ms) in all", "(512 ms)")])
def test_a_unit_keeps_arabic_punctuation_and_brackets_with_its_number(text, kept):
    widest = max(text_width(word) for word in text.split())
    for width in range(int(widest) + 1, 300, 3):
        if text_width(kept) <= width:
            assert any(kept in line for line in wrap(text, width)), width


def test_a_narrow_panel_puts_each_value_under_its_label_at_full_width():
    """Under STACKED_PANEL_WIDTH (the narrow layout's panel), a label and its value each take the whole width:
    "Since the long prompt arrived" on two lines, not four; the value starts under the label's last line."""
    from mechdiagram.layout.panel import panel

    data = reference_spec()
    data["stateLabels"] = {"since": "Since the long prompt arrived", "gap": "Gap"}
    for step in data["scenarios"][0]["steps"]:
        step["state"] = {"since": "512 + 25 = 537 ms", "gap": "25 ms"}
    data["scenarios"][0]["initial"] = {"since": "0 ms", "gap": "–"}
    spec = spec_from_data(data)
    narrow = panel(spec, spec.scenarios[0], 20, 0, 264)
    wide = panel(spec, spec.scenarios[0], 20, 0, 600)
    first, second = narrow.rows
    assert first.label == ("Since the long prompt", "arrived") and narrow.value_x == narrow.label_x
    assert first.value_baseline == first.y + 2 * L.LINE_HEIGHT and second.y > first.value_baseline
    assert narrow.steps[0].values[0] == ("512 + 25 = 537 ms",)
    assert wide.rows[0].value_baseline == wide.rows[0].y and wide.value_x > wide.label_x + text_width("Gap")
    assert narrow.h > 0 and second.value_baseline + 5 + L.PAD_Y <= narrow.y + narrow.h + 0.01


def test_strips_stay_beside_many_labelled_routes_that_have_room():
    """Five labelled routes of three lines between two boxes of a lane: the rows grow for them, every label is
    clean, and the strips stay (the column, tried only when a label is not, would make the figure wider)."""
    targets = {"work0": "first", "work1": "second", "kv0": "third", "kv1": "fourth", "k": ("kv0", "kv1", None)}
    targets |= {f"m{i}": ("work0", "work1", f"messages {i}") for i in range(5)}
    drawn = diagram(spec_from_data(_lanes_spec(targets, [{"key": "work", "label": LONG_NAME},
                                                         {"key": "kv", "label": LONG_NAME}])))
    assert all(h.above for h in drawn.lanes) and all(a.clean for a in drawn.arrows.values())


def test_the_narrow_layout_stacks_its_panel_up_to_the_wide_layouts_least_width():
    """Routes on tracks widen a narrow figure past a phone's 400 units; its panel still stacks while it is
    narrower than any wide layout's panel."""
    from mechdiagram.layout.sizes import MIN_WIDTH, STACKED_PANEL_WIDTH

    assert STACKED_PANEL_WIDTH == MIN_WIDTH - 2 * L.MARGIN  # every wide panel is at least this wide
    checked = 0
    # messages enough, and long enough, for a figure wider than 400 units and narrower than MIN_WIDTH
    for count, label in itertools.product(range(3, 10), ("messages {}", "a message {}")):
        # Not a lane grid (whose narrow variant is transposed or its wide grid, issue 26): a stacked column.
        targets = {"workx": "first", "worky": "second"}
        targets |= {f"m{i}": ("workx", "worky", label.format(i)) for i in range(count)}
        spec = spec_from_data(_lanes_spec(targets, []))
        narrow = layout_scenario(spec, spec.scenarios[0], diagram(spec, narrow=True))
        if 400 < narrow.width < MIN_WIDTH:
            checked += 1
            assert narrow.panel.value_x == narrow.panel.label_x, count
    assert checked


def test_a_narrow_column_too_wide_for_a_phone_has_a_phones_panel_at_its_left():
    """OAuth's column (4 boxes, 11 arrows both ways) is 688 units wide with its tracks: it scrolls in its frame on
    a phone, and its panel was as wide, so the frame's edge cut it wherever the player held it.  It is a phone's,
    at the drawing's left, each value under its label, as a kept lane grid's is."""
    from mechdiagram.layout.sizes import NARROW_MIN_WIDTH, TRANSPOSED_MAX_WIDTH
    from support.edge_topologies import edge_topologies

    spec = spec_from_data(edge_topologies()["oauth"])
    drawn = diagram(spec, narrow=True)
    assert drawn.direction == "down" and drawn.width > TRANSPOSED_MAX_WIDTH
    shown = layout_scenario(spec, spec.scenarios[0], drawn, narrow=True)
    assert (shown.panel.x, shown.panel.w) == (L.MARGIN, NARROW_MIN_WIDTH - 2 * L.MARGIN)
    assert shown.panel.value_x == shown.panel.label_x
    reference = spec_from_data(reference_spec())
    fits = layout_scenario(reference, reference.scenarios[0], diagram(reference, narrow=True), narrow=True)
    assert fits.width <= TRANSPOSED_MAX_WIDTH and fits.panel.w == pytest.approx(fits.width - 2 * L.MARGIN, abs=1)


def test_the_header_column_is_as_wide_as_its_names_need_within_bounds():
    from mechdiagram.layout.placement import lane_headers

    assert lane_headers(["Engine work", None, "KV cache"]) == (L.LANE_HEADER_WIDTH, [("Engine work",), (), ("KV cache",)])
    width, lines = lane_headers(["Load balancer", "App server 1"])  # 116 wrapped both to two lines
    assert lines == [("Load balancer",), ("App server 1",)]
    assert L.LANE_HEADER_WIDTH < width <= L.LANE_HEADER_MAX_WIDTH
    assert text_width("Load balancer") + L.LANE_HEADER_AIR <= width
    width, lines = lane_headers(["Request A: 5 tokens"])  # two short lines need no wider column
    assert (width, lines) == (L.LANE_HEADER_WIDTH, [("Request A:", "5 tokens")])
