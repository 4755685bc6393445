"""Marks (a step's ``marks``): each drawn as a disc in its colour with its own symbol, in both schemes, shown in its
step only (its keyframes and its stills), in places that do not move, with a legend of the marks a step shows in
that step (in room kept for every mark the scenario uses) and never in the poster; a lost message ends in a cross
short of its target; a spec without marks draws what it drew before."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

import pytest

from mechdiagram.layout import layout_scenario
from mechdiagram.layout.marks import LOST_SHORT, MARK_RADIUS
from mechdiagram.render.outputs import render_outputs, selected
from mechdiagram.render.svg import MARK_SYMBOLS, mark_symbol
from mechdiagram.render.theme import DARK, LIGHT, MARK_COLOURS
from mechdiagram.shared.model import MARKS, spec_from_data
from support.specs import marked_spec, minimal_spec
from support.svg import SVG_NS

SLUG = "tiny"



def _files(data: dict) -> dict[str, bytes]:
    return render_outputs(spec_from_data(data), SLUG, [], selected({"frames"}))


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    return _files(marked_spec())


def _marks(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG_NS}g") if g.get("data-mech-mark")]


def _legend(root: ET.Element) -> ET.Element | None:
    return next((g for g in root.iter(f"{SVG_NS}g") if g.get("class", "").endswith("-legend")), None)


def _contrast(a: str, b: str) -> float:
    def lum(colour: str) -> float:
        rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("mark", MARKS)
@pytest.mark.parametrize(("name", "scheme"), [("tiny.main.svg", 0), ("tiny.main.dark.svg", 1)])
def test_each_mark_is_a_disc_in_its_colour_with_its_own_symbol(files, mark, name, scheme):
    root = ET.fromstring(files[name])
    groups = [g for g in _marks(root) if g.get("data-mech-mark") == mark]
    assert len(groups) == 1
    disc, symbol = list(groups[0])
    palette = (LIGHT, DARK)[scheme]
    assert disc.tag == f"{SVG_NS}circle" and disc.get("r") == "8"
    assert disc.get("fill") == MARK_COLOURS[mark][scheme] and disc.get("stroke") == palette.bg
    centre = (float(disc.get("cx")), float(disc.get("cy")))
    assert symbol.tag == f"{SVG_NS}path" and symbol.get("d") == mark_symbol(mark, centre)
    assert symbol.get("stroke") == palette.bg and symbol.get("fill") == "none"


def test_the_marks_differ_in_symbol_and_meet_the_contrast_of_graphics_in_both_schemes():
    assert len(set(MARK_SYMBOLS.values())) == len(MARKS) == len(set(MARK_COLOURS.values()))
    for light, dark in MARK_COLOURS.values():
        # The disc against the page, and its symbol (the page's colour) against the disc: 3:1 (SC 1.4.11).
        assert _contrast(light, LIGHT.bg) >= 4.5 and _contrast(dark, DARK.bg) >= 4.5
        assert _contrast(light, LIGHT.lane_fill) >= 3 and _contrast(dark, DARK.lane_fill) >= 3


def test_a_mark_is_shown_in_its_steps_only_by_its_keyframes(files):
    svg = files["tiny.main.svg"].decode()
    root = ET.fromstring(svg)
    shown = {g.get("data-mech-mark"): g.get("data-mech-steps") for g in _marks(root)}
    assert shown == {"new": "1", "changed": "1", "removed": "2", "lost": "2", "error": "2", "waiting": "3",
                     "done": "3"}
    for group in _marks(root):
        assert group.get("visibility") == "hidden"
        index = next(c for c in group.get("class").split() if re.fullmatch(r"mech-[0-9a-f]{10}-h\d+", c))
        steps = [c for c in group.get("class").split() if re.fullmatch(r"mech-[0-9a-f]{10}-s\d+", c)]
        assert [s.rsplit("-s", 1)[1] for s in steps] == group.get("data-mech-steps").split()
        rule = re.search(rf"\.{index}{{animation:([\w-]+) ", svg)
        frames = re.search(rf"@keyframes {rule.group(1)}{{(.*?)}}\n", svg).group(1)
        opacities = re.findall(r"opacity:([\d.]+)", frames)
        assert "1" in opacities and "0" in opacities  # on in its step, off in the others


def test_each_still_shows_its_steps_marks_and_the_poster_none(files):
    expected = {1: {"new", "changed"}, 2: {"removed", "lost", "error"}, 3: {"waiting", "done"}}
    for number, marks in expected.items():
        root = ET.fromstring(files[f"tiny.main.frame-{number}.svg"])
        assert {g.get("data-mech-mark") for g in _marks(root)} == marks
        assert all(g.get("visibility") is None for g in _marks(root))  # drawn, not left to a style sheet
    poster = ET.fromstring(files["tiny.main.poster.svg"])
    assert _marks(poster) == [] and _legend(poster) is None
    assert "mk-" not in files["tiny.main.poster.svg"].decode()


def _legends(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG_NS}g") if g.get("class", "").endswith("-legend")]


def test_each_step_legend_names_the_marks_that_step_shows_in_the_order_of_marks(files):
    """One legend a set of marks, shown in the steps that mark with just those, its entries in MARKS order, from the
    same corner in every step; the room kept under the drawing is that of every mark the scenario uses."""
    root = ET.fromstring(files["tiny.main.svg"])
    found = {legend.get("data-mech-steps"): legend for legend in _legends(root)}
    assert {steps: [t.text for t in legend.iter(f"{SVG_NS}text")] for steps, legend in found.items()} == {
        "1": ["new", "changed"], "2": ["removed", "lost", "error"], "3": ["waiting", "done"]}
    for legend in found.values():
        words = [t.text for t in legend.iter(f"{SVG_NS}text")]
        assert [c.get("fill") for c in legend.iter(f"{SVG_NS}circle")] == [MARK_COLOURS[m][0] for m in words]
    firsts = {float(next(legend.iter(f"{SVG_NS}circle")).get("cx")) for legend in found.values()}
    assert len(firsts) == 1  # each starts where the others do
    still = ET.fromstring(files["tiny.main.frame-2.svg"])
    assert [[t.text for t in g.iter(f"{SVG_NS}text")] for g in _legends(still)] == [["removed", "lost", "error"]]
    spec = spec_from_data(marked_spec())
    layout = layout_scenario(spec, spec.scenarios[0])
    assert layout.legend is not None and [e.mark for e in layout.legend.entries] == list(MARKS)
    assert [[e.mark for e in entries] for entries in layout.legend.steps] == [
        ["new", "changed"], ["removed", "lost", "error"], ["waiting", "done"]]


def test_a_legend_only_when_marks_are_used_and_only_with_those():
    data = minimal_spec()
    data["scenarios"][0]["steps"][1]["marks"] = {"a1": "done"}
    files = _files(data)
    root = ET.fromstring(files["tiny.main.svg"])
    assert [t.text for t in _legend(root).iter(f"{SVG_NS}text")] == ["done"]
    assert _legend(root).get("data-mech-steps") == "2"
    assert _legend(ET.fromstring(files["tiny.main.frame-1.svg"])) is None  # step 1 shows no mark
    assert _legend(ET.fromstring(files["tiny.main.frame-2.svg"])) is not None
    plain = _files(minimal_spec())
    assert _legend(ET.fromstring(plain["tiny.main.svg"])) is None


def test_a_spec_without_marks_draws_the_same_bytes_and_empty_marks_too():
    data = minimal_spec()
    empty = copy.deepcopy(data)
    for step in empty["scenarios"][0]["steps"]:
        step["marks"] = {}
    assert _files(empty) == _files(data)


def test_marks_move_nothing_the_boxes_and_routes_are_those_of_the_spec_without_marks():
    plain, marked = spec_from_data(minimal_spec()), spec_from_data(marked_spec())
    a = layout_scenario(plain, plain.scenarios[0])
    b = layout_scenario(marked, marked.scenarios[0])
    assert a.boxes == b.boxes and a.arrows == b.arrows and a.width == b.width
    # the room kept: the legend's strip between the drawing and the panel, the marks' places fixed for all steps
    assert b.legend is not None and b.panel.y == a.panel.y + b.legend.h and b.height == a.height + b.legend.h
    assert set(b.marks) == {"a0", "ab", "a1", "b1", "b0"}


def test_a_box_mark_keeps_clear_of_the_poster_badges_and_the_ports():
    spec = spec_from_data(marked_spec())
    layout = layout_scenario(spec, spec.scenarios[0])
    for key in ("a0", "a1", "b1", "b0"):
        cx, cy = layout.marks[key]
        disc = (cx - MARK_RADIUS, cy - MARK_RADIUS, cx + MARK_RADIUS, cy + MARK_RADIUS)
        for badge in layout.badges:
            assert disc[2] <= badge.x or disc[0] >= badge.right or disc[3] <= badge.y or disc[1] >= badge.bottom
        box = layout.boxes[key]
        assert (cx in (box.x - 5, box.right + 5)) and (cy in (box.y - 5, box.bottom + 5))  # a corner
        for arrow in layout.arrows.values():
            for x, y in (arrow.points[0], arrow.head[0]):
                assert abs(x - cx) > MARK_RADIUS or abs(y - cy) > MARK_RADIUS  # no port under a mark


def sequence_spec() -> dict:
    """Three participants, a message lost in step 1 and one delivered in step 2."""
    data = minimal_spec()
    data["layout"] = {"view": "sequence"}
    data["targets"] = {
        "c": {"id": "c", "kind": "node", "label": "Client"},
        "s": {"id": "s", "kind": "node", "label": "Server"},
        "send": {"id": "send", "kind": "path", "from": "c", "to": "s", "label": "segment 2"},
    }
    data["scenarios"][0]["unselected"] = []
    data["scenarios"][0]["steps"] = [
        {"title": "Lost", "description": "It is dropped.", "duration": 1000, "active": ["c"], "paths": ["send"],
         "marks": {"send": "lost"}},
        {"title": "Again", "description": "Sent again.", "duration": 1000, "active": ["s"], "paths": ["send"],
         "marks": {"s": "new", "send": "done"}},
    ]
    return data


def test_a_lost_message_ends_in_a_cross_short_of_its_target():
    spec = spec_from_data(sequence_spec())
    layout = layout_scenario(spec, spec.scenarios[0])
    lost, delivered = layout.rows[0].messages[0], layout.rows[1].messages[0]
    assert lost.lost and not delivered.lost
    x = {line.key: line.x for line in layout.lifelines}
    assert lost.arrow.points[-1][0] == pytest.approx(x["s"] - LOST_SHORT, abs=0.11)
    assert delivered.arrow.head[0][0] > lost.arrow.points[-1][0] + LOST_SHORT / 2  # the delivered one reaches it
    files = _files(sequence_spec())
    still = files["tiny.main.frame-1.svg"].decode()
    cross = re.findall(r'<path class="[^"]*mk-cross mech-[0-9a-f]{10}-mk-cross-lost" d="([^"]+)"[^>]*stroke="(#\w+)"',
                       still)
    assert cross and cross[0][1] == MARK_COLOURS["lost"][0]
    root = ET.fromstring(files["tiny.main.frame-1.svg"])
    assert [t.text for t in _legend(root).iter(f"{SVG_NS}text")] == ["lost"]  # what the step shows
    assert _marks(root) == []  # the lost message's mark is its cross
    second = _marks(ET.fromstring(files["tiny.main.frame-2.svg"]))
    assert {g.get("data-mech-mark") for g in second} == {"new", "done"}
    # a delivered message's mark sits on its own line, a quarter of the way from its target
    (done,) = [g for g in second if g.get("data-mech-mark") == "done"]
    disc = next(iter(done))
    (start, end) = delivered.arrow.points
    assert float(disc.get("cy")) == end[1]
    assert float(disc.get("cx")) == pytest.approx(start[0] + 0.75 * (end[0] - start[0]), abs=0.11)


def test_the_inline_drawing_colours_marks_from_the_page_in_both_schemes(files):
    page = files["tiny.html"].decode()
    assert "--mech-mark-new:#1a7f37" in page and "--mech-mark-new:#3fb950" in page
    assert re.search(r"\.mech-[0-9a-f]{10}-mk-new\{fill:var\(--mech-mark-new\);stroke:var\(--mech-bg\);\}", page)
    plain = _files(minimal_spec())["tiny.html"].decode()
    assert "mark-new" not in plain


def test_a_steps_legend_leaves_out_a_mark_the_step_does_not_draw():
    """A mark on a message its step does not send (the message is drawn in other rows only) is not drawn in that
    step, and its legend does not name it; the layout keeps room for it (the scenario uses it)."""
    data = sequence_spec()
    data["targets"]["ack"] = {"id": "ack", "kind": "path", "from": "s", "to": "c", "label": "ack"}
    data["scenarios"][0]["steps"][1]["paths"].append("ack")
    data["scenarios"][0]["steps"][0]["marks"]["ack"] = "error"  # ack is drawn in step 2's row only
    spec = spec_from_data(data)
    layout = layout_scenario(spec, spec.scenarios[0])
    assert layout.legend is not None and "error" in [e.mark for e in layout.legend.entries]
    assert [[e.mark for e in entries] for entries in layout.legend.steps] == [["lost"], ["new", "done"]]


def test_a_mark_on_a_message_an_earlier_step_sent_is_drawn_on_that_row_and_one_sent_later_is_warned_of():
    """A new user's TLS handshake marked its ClientHello ``error`` in the step of the HelloRetryRequest, a later
    step: nothing was drawn and nothing warned.  The mark is drawn on the message's latest row up to its step, in
    its step only, and that step's legend names it; a mark on a message no step up to it sends is warned of (rule
    mark), at its key in the step's marks."""
    import json

    from mechdiagram.layout.checks import lay_out
    from mechdiagram.spec.load import parse_text

    data = sequence_spec()
    data["targets"]["retry"] = {"id": "retry", "kind": "path", "from": "s", "to": "c", "label": "retry"}
    steps = data["scenarios"][0]["steps"]
    steps[0]["marks"] = {}
    steps.append({"title": "Retry", "description": "The server asks again.", "duration": 1000, "active": ["s"],
                  "paths": ["retry"], "marks": {"send": "error"}})  # send: drawn in steps 1 and 2
    spec = spec_from_data(data)
    layout = layout_scenario(spec, spec.scenarios[0])
    assert [[e.mark for e in entries] for entries in layout.legend.steps] == [[], ["new", "done"], ["error"]]
    files = _files(data)
    third = _marks(ET.fromstring(files["tiny.main.frame-3.svg"]))
    assert [g.get("data-mech-mark") for g in third] == ["error"]
    disc = next(iter(third[0]))
    (start, end) = layout.rows[1].messages[0].arrow.points  # step 2's row: the latest that sends it
    assert float(disc.get("cy")) == end[1]
    assert float(disc.get("cx")) == pytest.approx(start[0] + 0.75 * (end[0] - start[0]), abs=0.11)
    assert [g.get("data-mech-mark") for g in _marks(ET.fromstring(files["tiny.main.frame-2.svg"]))] == ["new",
                                                                                                       "done"]
    assert not [f for f in lay_out(parse_text(json.dumps(data).encode(), "tiny.json"), spec).findings
                if f.rule == "mark"]
    # a later mark on a message lost in its own row: a disc on its line, clear of its cross (a new user's Raft
    # election marked its lost RequestVote waiting in a later step, and no disc was drawn)
    steps[0]["marks"] = {"send": "lost"}
    steps[1]["paths"] = []
    steps[2]["marks"] = {"send": "waiting"}
    lost_files = _files(data)
    lost = layout_scenario(spec_from_data(data), spec_from_data(data).scenarios[0]).rows[0].messages[0]
    assert lost.lost
    (waiting,) = _marks(ET.fromstring(lost_files["tiny.main.frame-3.svg"]))
    disc = next(iter(waiting))
    (start, end) = lost.arrow.points
    assert waiting.get("data-mech-mark") == "waiting" and float(disc.get("cy")) == end[1]
    assert float(disc.get("cx")) == pytest.approx(start[0] + 0.75 * (end[0] - start[0]), abs=0.11)
    assert _marks(ET.fromstring(lost_files["tiny.main.frame-1.svg"])) == []  # its own mark is its cross
    steps[1]["paths"] = ["send"]
    steps[2]["marks"] = {"send": "error"}
    steps[0]["marks"] = {"retry": "waiting"}  # retry is first sent in step 3
    text = json.dumps(data, indent=2)
    found = [f for f in lay_out(parse_text(text.encode(), "tiny.json"), spec_from_data(data)).findings
             if f.rule == "mark"]
    assert [(f.pointer, f.severity) for f in found] == [("/scenarios/0/steps/0/marks/retry", "warning")]
    assert "not drawn" in found[0].message and found[0].line == text.splitlines().index(
        next(line for line in text.splitlines() if '"retry": "waiting"' in line)) + 1


def test_a_later_mark_on_a_short_lost_message_keeps_clear_of_its_cross():
    """On a phone a lost message between neighbouring lifelines is a short line (a break-it review: 16 units, the
    disc's centre 4 units from the cross's): the later mark's disc keeps clear of the cross, at the line's start."""
    import math

    from mechdiagram.layout import diagram
    from mechdiagram.layout.marks import CROSS, message_mark

    data = sequence_spec()
    data["targets"].update({f"p{i}": {"id": f"p{i}", "kind": "node", "label": f"P{i}"} for i in range(4)})
    data["layout"]["order"] = ["c", "s", "p0", "p1", "p2", "p3"]
    data["scenarios"][0]["steps"][1]["marks"] = {"send": "error"}
    data["scenarios"][0]["steps"][1]["paths"] = []
    spec = spec_from_data(data)
    layout = layout_scenario(spec, spec.scenarios[0], diagram(spec, narrow=True))
    lost = layout.rows[0].messages[0]
    assert lost.lost
    cross_at = lost.arrow.points[-1]
    assert math.dist(lost.arrow.points[0], cross_at) < 2 * (MARK_RADIUS + CROSS)  # too short for a quarter of it
    assert math.dist(message_mark(lost), cross_at) >= MARK_RADIUS + CROSS
