"""The sequence view's geometry (``"layout": {"view": "sequence"}``), over specs generated with 2 to 8 participants
and 3 to 30 steps, wide and narrow, measured on the layout the drawing is handed and on the SVG written from it."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from mechdiagram.layout import diagram, layout_scenario
from mechdiagram.layout.geometry import Layout, Message, Rect
from mechdiagram.layout.route_rules import block_distance, message_faults
from mechdiagram.layout.sequence import LABEL_GAP, participant_order
from mechdiagram.layout.sizes import ARROW_HEAD, LABEL_REACH, MIN_TEXT_PX
from mechdiagram.render.html import readable_width
from mechdiagram.render.svg import prefix_for, render_scenario
from mechdiagram.shared.model import Spec, spec_from_data
from support.sequences import SHORT_NAMES, oauth_spec, sequence_spec, tcp_spec

#: (participants, steps): every count of participants from 2 to 8, steps from 3 to 30.
SIZES = [(2, 3), (3, 30), (4, 12), (5, 7), (5, 20), (6, 20), (7, 25), (8, 30), (8, 3)]
#: The widest a figure's column is at a 360 px phone: 360 less the page's and the figure's padding, 9 px each side
#: (theme.EDGE_SPACE, 2.5vw there).
PHONE_COLUMN = 360 - 4 * 9


def _layouts(data: dict, narrow: bool) -> list[tuple[Spec, Layout]]:
    spec = spec_from_data(data)
    shared = diagram(spec, narrow=narrow)
    return [(spec, layout_scenario(spec, scenario, shared)) for scenario in spec.scenarios]


def _messages(layout: Layout) -> list[tuple[int, Message]]:
    return [(row.number, message) for row in layout.rows for message in row.messages]


def _segments(message: Message) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    return list(itertools.pairwise(message.arrow.points))


CASES = [pytest.param(sequence_spec(p, s), narrow, id=f"{p}x{s}-{'narrow' if narrow else 'wide'}")
         for p, s in SIZES for narrow in (False, True)]
CASES += [pytest.param(oauth_spec(), narrow, id=f"oauth-{'narrow' if narrow else 'wide'}") for narrow in (False, True)]
#: Heads whose words are longer than GAP_MAX leaves them (and two-line message labels of one long word).
LONG = ("Authorization server", "Internationalisation service", "Telecommunications gateway", "Counterrevolutionary")
CASES += [pytest.param(sequence_spec(5, 8, names=LONG), narrow, id=f"long-words-{'narrow' if narrow else 'wide'}")
          for narrow in (False, True)]


@pytest.mark.parametrize("data, narrow", CASES)
def test_messages_are_horizontal_in_their_steps_order_top_to_bottom(data, narrow):
    for spec, layout in _layouts(data, narrow):
        scenario = next(s for s in spec.scenarios if len(s.steps) == len(layout.rows))
        assert [row.number for row in layout.rows] == list(range(1, len(scenario.steps) + 1))
        for row, step in zip(layout.rows, scenario.steps, strict=True):
            assert [m.key for m in row.messages] == list(step.paths)  # every listed path, in the order listed
            for message in row.messages:
                points = message.arrow.points
                ys = {y for _, y in points}
                assert row.y <= min(ys) and max(ys) <= row.bottom, (row.number, message.key)
                tip = message.arrow.head[0]
                if message.self_loop:  # out and back along horizontal runs, one vertical between them
                    assert points[0][1] == points[1][1] and points[-2][1] > points[0][1]
                    assert points[-1][1] == points[-2][1] == tip[1]
                else:
                    assert len(points) == 2 and points[0][1] == points[1][1] == tip[1], message.key
                    path = spec.targets[message.key]
                    x = {line.key: line.x for line in layout.lifelines}
                    # From its from lifeline to its to lifeline (the tip at the lifeline, or at its bar's edge).
                    assert abs(points[0][0] - x[path.source]) <= 5.01  # type: ignore[union-attr]
                    assert abs(tip[0] - x[path.dest]) <= 6.01  # type: ignore[union-attr]
        lines = [message.arrow.points[0][1] for _, message in _messages(layout)]
        assert lines == sorted(lines) and len(set(lines)) == len(lines)
        rows = layout.rows
        assert all(a.bottom <= b.y + 0.01 for a, b in itertools.pairwise(rows))


@pytest.mark.parametrize("data, narrow", CASES)
def test_no_message_crosses_another_messages_label_and_each_label_is_over_its_own(data, narrow):
    for _, layout in _layouts(data, narrow):
        messages = [m for _, m in _messages(layout)]
        labelled = [m for m in messages if m.arrow.label_box is not None]
        for message in labelled:
            box = message.arrow.label_box
            assert box is not None
            line_y = message.arrow.points[0][1]
            # Above its own line, LABEL_GAP (less its background's half-padding) over it.
            assert box.bottom <= line_y - LABEL_GAP + 1.01 and line_y - box.bottom <= LABEL_GAP + 1.01, message.key
            xs = [p[0] for p in (*message.arrow.points, *message.arrow.head)]
            assert box.x < max(xs) and min(xs) < box.right, message.key  # over the message, not beside it
            assert box.x >= 0 and box.right <= layout.width
            for other in messages:
                if other is message:
                    continue
                assert not any(box.crossed_by(a, b) for a, b in _segments(other)), (message.key, other.key)
                assert not box.overlaps(other.arrow.head_box), (message.key, other.key)
        for a, b in itertools.combinations(labelled, 2):
            assert not a.arrow.label_box.overlaps(b.arrow.label_box), (a.key, b.key)  # type: ignore[union-attr]


@pytest.mark.parametrize("data, narrow", CASES)
def test_heads_lifelines_and_badges_keep_apart(data, narrow):
    for _, layout in _layouts(data, narrow):
        heads = list(layout.boxes.values())
        for a, b in itertools.combinations(heads, 2):
            assert not a.overlaps(b), (a.key, b.key)
        for line in layout.lifelines:
            own = layout.boxes[line.key]
            assert line.x == pytest.approx(own.cx, abs=0.11) and line.top == own.bottom
            assert line.bottom >= layout.rows[-1].bottom
            for head in heads:
                if head.key != line.key:  # another head (of the lower row, staggered) is beside it, not on it
                    assert not head.grown(4).crossed_by((line.x, line.top), (line.x, line.bottom)), (line.key, head.key)
        rows_top = layout.rows[0].y
        assert rows_top >= max(h.bottom for h in heads)
        for row in layout.rows:
            badge = row.badge
            assert badge is not None and badge.text == str(row.number)
            assert badge.right < min(line.x for line in layout.lifelines) - 5 and row.y <= badge.y and badge.bottom <= row.bottom + 0.01
            for message in row.messages:
                if message.arrow.label_box is not None:
                    assert not badge.overlaps(message.arrow.label_box)
        panel = layout.panel
        assert panel.y > layout.lifelines[0].bottom and panel.y + panel.h <= layout.height


@pytest.mark.parametrize("participants", range(2, 7))
def test_the_wide_sequence_is_at_most_900_px_wide_for_up_to_six_participants(participants):
    """At its natural size, whatever its labels ask (the free width goes to them within WIDE_BUDGET)."""
    for steps in (3, 8, 20, 30):
        for extra in ({}, {"replies": False, "names": SHORT_NAMES}):
            ((_, layout),) = _layouts(sequence_spec(participants, steps, **extra), narrow=False)
            assert layout.width <= 900, (participants, steps, layout.width)


def test_a_sequence_of_few_participants_gives_its_free_width_to_its_labels():
    """The TCP handshake's three participants: the lifelines move apart (past GAP_MAX, within WIDE_BUDGET) so
    that its sentence-long labels take one or two lines, not four to seven; its self-messages' labels take the room
    right of their lifeline likewise."""
    from mechdiagram.layout.sequence import GAP_MAX, LABEL_LINE_MAX, WIDE_BUDGET

    ((spec, layout),) = _layouts(tcp_spec(), narrow=False)
    xs = [line.x for line in layout.lifelines]
    assert xs[1] - xs[0] > GAP_MAX + 100 and xs[2] - xs[1] > GAP_MAX and layout.width <= WIDE_BUDGET
    lines = {m.key: m.arrow.label_lines for _, m in _messages(layout)}
    assert max(len(v) for v in lines.values()) == 2 and lines["syn"] == ("SYN seq=1000",)
    assert lines["estab"] == ("ESTABLISHED: start the", "retransmission timer")  # a self-message's
    assert all(m.arrow.label_box.w <= LABEL_LINE_MAX + 4 for _, m in _messages(layout))  # type: ignore[union-attr]
    # Narrow, the three fill a phone's drawing (the widest that fits NARROW_FIT_WIDTH), not its left two thirds.
    ((_, narrow),) = _layouts(tcp_spec(), narrow=True)
    assert readable_width(narrow.width) <= PHONE_COLUMN and narrow.width >= 304


@pytest.mark.parametrize("participants", range(2, 7))
def test_a_wide_sequence_is_spread_to_fill_a_wide_screen_and_its_natural_width_is_the_upper_middle_layout(
        participants):
    """Issue 26: a sequence narrower than SPREAD_WIDTH (800 units: 85 % of a 1,440 px screen's figure at 1.5 times)
    is drawn that wide, every gap between lifelines wider by as much and the heads as they were; its natural
    drawing is the upper middle layout (shown below the wide one's 12 px width), and the middle one is fitted to
    MIDDLE_WIDTH where that is narrower (a Raft election's five participants, 692 units at their natural width,
    showed the phone's drawing in 79 % of a 672 px figure), else the natural one too; one already as wide has none."""
    from mechdiagram.layout import middle_diagram
    from mechdiagram.layout.sizes import MIDDLE_WIDTH, SPREAD_WIDTH, UPPER_WIDTH

    spec = spec_from_data(sequence_spec(participants, 5))
    wide, middle = diagram(spec), middle_diagram(spec, UPPER_WIDTH)
    fitted = middle_diagram(spec)
    if middle is None:
        assert wide.width >= SPREAD_WIDTH and fitted is None
        return
    assert fitted is not None and (fitted == middle if middle.width <= MIDDLE_WIDTH else fitted.width <= MIDDLE_WIDTH)
    assert diagram(spec, narrow=True).width < fitted.width <= middle.width
    assert middle.width < wide.width == SPREAD_WIDTH
    assert wide.sequence is not None and middle.sequence is not None
    gaps = [b - a for a, b in itertools.pairwise(wide.sequence.x[key] for key in wide.sequence.order)]
    natural = [b - a for a, b in itertools.pairwise(middle.sequence.x[key] for key in middle.sequence.order)]
    grown = [g - n for g, n in zip(gaps, natural, strict=True)]  # each by as much (to the 0.1 places are rounded to)
    assert min(grown) > 0 and max(grown) - min(grown) <= 0.2, (gaps, natural)
    assert [(b.w, b.h) for b in wide.boxes.values()] == [(b.w, b.h) for b in middle.boxes.values()]
    layout = layout_scenario(spec, spec.scenarios[0], wide)
    assert layout.width == SPREAD_WIDTH and not message_faults(layout)


@pytest.mark.parametrize("names", ["short", "long"])
@pytest.mark.parametrize("participants", [7, 8])
def test_a_sequence_wider_than_the_spread_width_has_a_middle_layout_fitted_to_its_width(participants, names):
    """A new user's DNS lookup (five participants with long names, 846 units wide, never spread) had no middle
    layout: a 768 px figure showed the phone's drawing grown to 78 % of its width, its staggered heads a third of
    the window.  A sequence as wide as the spread width or wider gets one fitted to MIDDLE_WIDTH as a phone's is to
    its width, between the narrow and the wide drawing, whose messages keep every rule; none where it would be no
    narrower than the wide one or no wider than the narrow one (eight long names: 622 units both)."""
    from mechdiagram.layout import middle_diagram
    from mechdiagram.layout.sizes import MIDDLE_WIDTH

    kept = {} if names == "short" else {"names": ("Stub resolver (laptop)", "Recursive resolver", "Root server",
                                                  ".org TLD server", "example.org name server")}
    spec = spec_from_data(sequence_spec(participants, 8, **kept))
    wide, narrow, middle = diagram(spec), diagram(spec, narrow=True), middle_diagram(spec)
    if (participants, names) == (8, "long"):
        assert middle is None and narrow.width > MIDDLE_WIDTH
        return
    assert middle is not None and middle.sequence is not None
    assert narrow.width < middle.width <= MIDDLE_WIDTH < wide.width, (narrow.width, middle.width, wide.width)
    heads = sorted(middle.boxes.values(), key=lambda box: box.x)
    assert all(not a.overlaps(b) for a, b in itertools.combinations(heads, 2))
    layout = layout_scenario(spec, spec.scenarios[0], middle)
    assert layout.width == middle.width and not message_faults(layout)


@pytest.mark.parametrize("participants", range(2, 6))
def test_the_narrow_sequence_keeps_text_of_12_px_at_360_px_for_up_to_five_participants(participants):
    """The narrow drawing fits a 360 px phone's column with its smallest text (13 units) at 12 CSS px or more, so
    it neither scrolls nor shrinks its text below 12 px (readable_width is where the text is 12 px): participants
    named in words of up to eight letters ("Resource server" of the OAuth flow), four of them with the generated
    specs' longer names ("Identity provider", "Resource API")."""
    for steps in (3, 20):
        ((_, layout),) = _layouts(sequence_spec(participants, steps, names=SHORT_NAMES), narrow=True)
        assert readable_width(layout.width) <= PHONE_COLUMN, (participants, steps, layout.width)
        if participants <= 4:
            ((_, layout),) = _layouts(sequence_spec(participants, steps), narrow=True)
            assert readable_width(layout.width) <= PHONE_COLUMN, (participants, steps, layout.width)
    ((_, layout), _) = _layouts(oauth_spec(), narrow=True)
    assert readable_width(layout.width) <= PHONE_COLUMN


def test_a_head_keeps_its_words_whole_and_the_drawing_scrolls_instead():
    """Five participants with words of up to eight letters in 14-unit bold need more than a phone's column: each
    head keeps its words whole (never broken between letters), and the lifelines are as far apart as that needs."""
    ((spec, layout),) = _layouts(sequence_spec(5, 3), narrow=True)
    for head in layout.boxes.values():
        assert [w for line in head.lines for w in line.split()] == spec.targets[head.key].label.split()  # type: ignore[union-attr]


def test_eight_participants_keep_their_lifelines_apart_and_scroll_instead():
    """Past what a phone holds, the narrow drawing keeps NARROW_GAP_MIN between lifelines (and so scrolls)."""
    from mechdiagram.layout.sequence import NARROW_GAP_MIN

    ((_, layout),) = _layouts(sequence_spec(8, 5), narrow=True)
    xs = sorted(line.x for line in layout.lifelines)
    assert min(b - a for a, b in itertools.pairwise(xs)) >= NARROW_GAP_MIN - 0.11
    assert readable_width(layout.width) > PHONE_COLUMN


def test_participants_keep_their_order_and_places_in_every_scenario():
    data = oauth_spec()
    spec = spec_from_data(data)
    assert participant_order(spec) == ["user", "browser", "app", "auth", "api"]
    (_, first), (_, second) = _layouts(data, narrow=False)
    assert first.boxes == second.boxes and [row.number for row in second.rows] == list(range(1, 7))
    assert [line.x for line in first.lifelines] == [line.x for line in second.lifelines]


def test_without_order_participants_come_in_the_order_the_steps_first_name_them():
    data = sequence_spec(4, 6)
    spec = spec_from_data(data)
    named: list[str] = []
    for step in spec.scenarios[0].steps:
        for key in [*step.active, *(end for p in step.paths for end in (spec.targets[p].source,  # type: ignore[union-attr]
                                                                          spec.targets[p].dest))]:  # type: ignore[union-attr]
            if key not in named:
                named.append(key)
    assert participant_order(spec) == named + [k for k in ("p0", "p1", "p2", "p3") if k not in named]
    data["layout"]["order"] = ["p3"]
    assert participant_order(spec_from_data(data))[0] == "p3"


def test_a_path_listed_again_is_drawn_again_in_its_later_row():
    data = oauth_spec()
    steps = data["scenarios"][0]["steps"]
    steps[6]["paths"] = ["call", "data", "call"]
    ((_, layout), _) = _layouts(data, narrow=False)
    assert [m.key for m in layout.rows[6].messages] == ["call", "data", "call"]
    first, _, again = layout.rows[6].messages
    assert again.arrow.points[0][1] > first.arrow.points[0][1]
    assert [p[0] for p in again.arrow.points] == [p[0] for p in first.arrow.points]


def test_active_nodes_have_activation_bars_in_their_row_and_messages_meet_them():
    ((spec, layout), _) = _layouts(oauth_spec(), narrow=False)
    for row, step in zip(layout.rows, spec.scenarios[0].steps, strict=True):
        assert sorted(bar.key for bar in row.bars) == sorted(step.active)
        for bar in row.bars:
            assert (bar.y, bar.bottom) == (row.y, row.bottom) and bar.cx == pytest.approx(layout.boxes[bar.key].cx, abs=0.11)
        for message in row.messages:
            if not message.self_loop and message.arrow.head[0][0] > message.arrow.points[0][0]:
                target = spec.targets[message.key].dest  # type: ignore[union-attr]
                bar = next((b for b in row.bars if b.key == target), None)
                assert bar is not None or target not in step.active
                assert bar is None or message.arrow.head[0][0] == pytest.approx(bar.x - 1, abs=0.11)  # the tip at the bar's edge


# --- the SVG written from the layout ---------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def _drawn(data: dict, scenario: int = 0, narrow: bool = False):
    spec = spec_from_data(data)
    layout = layout_scenario(spec, spec.scenarios[scenario], diagram(spec, narrow=narrow))
    prefix = prefix_for("seq", spec.scenarios[scenario].id)
    svgs = render_scenario(spec, spec.scenarios[scenario], layout, prefix, stills=(0, 1, len(layout.rows)))
    return spec, layout, prefix, svgs


def _rows_in(svg: str, prefix: str) -> dict[str, list[ET.Element]]:
    root = ET.fromstring(svg)
    found: dict[str, list[ET.Element]] = {"current": [], "earlier": []}
    for group in root.iter(f"{SVG}g"):
        classes = group.get("class", "").split()
        for mode in found:
            if f"{prefix}-row-{mode}" in classes:
                found[mode].append(group)
    return found


def test_each_row_is_shown_in_its_own_step_emphasised_then_muted_and_never_before():
    spec, layout, prefix, svgs = _drawn(oauth_spec())
    count = len(layout.rows)
    rows = _rows_in(svgs.animated, prefix)
    assert len(rows["current"]) == count and len(rows["earlier"]) == count - 1
    for number, group in enumerate(rows["current"], start=1):
        assert group.get("data-mech-steps") == str(number) and group.get("visibility") == "hidden"
        assert f"{prefix}-s{number}" in group.get("class", "").split()
    for number, group in enumerate(rows["earlier"], start=1):
        assert group.get("data-mech-steps") == " ".join(str(k) for k in range(number + 1, count + 1))
    # Each row's highlight has keyframes (the existing machinery: one animation per highlight).
    for group in rows["current"] + rows["earlier"]:
        index = next(c for c in group.get("class", "").split() if re.fullmatch(rf"{prefix}-h\d+", c))
        assert f".{index}{{animation:" in svgs.animated
    # The still of step 1 shows row 1 alone, emphasised; the last step's every row, the last emphasised.
    first = _rows_in(svgs.stills[1], prefix)
    assert (len(first["current"]), len(first["earlier"])) == (1, 0)
    last = _rows_in(svgs.stills[count], prefix)
    assert (len(last["current"]), len(last["earlier"])) == (1, count - 1)


def test_the_poster_shows_every_row_numbered():
    spec, layout, prefix, svgs = _drawn(oauth_spec())
    root = ET.fromstring(svgs.stills[0])
    poster = next(g for g in root.iter(f"{SVG}g") if g.get("data-mech-frame") == "0")
    rows = [g for g in poster.iter(f"{SVG}g") if f"{prefix}-row" in g.get("class", "").split()]
    assert len(rows) == len(layout.rows)
    numbers = [t.text for g in rows for t in g.iter(f"{SVG}text") if f"{prefix}-badge-text" in t.get("class", "")]
    assert numbers == [str(k) for k in range(1, len(layout.rows) + 1)]
    # Every message of every row is drawn once in the poster: its line, as a horizontal path.
    lines = [p.get("d") for g in rows for p in g.iter(f"{SVG}path") if f"{prefix}-path" in p.get("class", "")]
    assert len(lines) == sum(len(row.messages) for row in layout.rows)
    for d in lines:
        ys = [float(y) for y in re.findall(r"[ML]\S+ (\S+)", d)]
        assert ys[0] == ys[-1] or len(ys) == 4  # horizontal, or a self-message's loop


def test_replies_are_dashed_with_open_heads_and_unselected_targets_dimmed():
    spec, layout, prefix, svgs = _drawn(oauth_spec(), scenario=1)
    root = ET.fromstring(svgs.stills[0])
    poster = next(g for g in root.iter(f"{SVG}g") if g.get("data-mech-frame") == "0")
    replies = {k for k, t in spec.targets.items() if getattr(t, "style", None) == "reply"}
    shown = [m for row in layout.rows for m in row.messages]
    dashed = [p for p in poster.iter(f"{SVG}path") if f"{prefix}-reply" in p.get("class", "").split()]
    assert len(dashed) == sum(m.key in replies for m in shown) > 0
    assert all(p.get("stroke-dasharray") for p in dashed)
    heads = [p for p in poster.iter(f"{SVG}polyline") if f"{prefix}-open" in p.get("class", "").split()]
    assert len(heads) == len(dashed) and all(h.get("fill") == "none" for h in heads)
    # The resource server is unselected in this scenario: its head and lifeline are dashed.
    head = next(g for g in root.iter(f"{SVG}g") if g.get("id", "").endswith("-n-api"))
    assert f"{prefix}-dim" in head.get("class", "").split()
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == f"{prefix}-lifelines")
    lifelines = [p for p in group.iter(f"{SVG}path") if f"{prefix}-lifeline-dim" in p.get("class", "").split()]
    assert len(lifelines) == 2  # whole to the first row, faint below it


def test_lifelines_grow_with_the_story_faint_below_the_rows_drawn():
    """Each lifeline is whole from its head to the first row and faint below it; each row's layers (its own step's,
    the later steps', the poster's) draw the lifelines whole over the row, the last row's down to their ends: a still
    of step K shows them whole to the foot of row K and faint below, the poster whole."""
    spec, layout, prefix, svgs = _drawn(oauth_spec())
    first, last = layout.rows[0], layout.rows[-1]
    root = ET.fromstring(svgs.animated)
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == f"{prefix}-lifelines")
    faint = [p for p in group.iter(f"{SVG}path") if f"{prefix}-lifeline-ahead" in p.get("class", "").split()]
    assert len(faint) == len(layout.lifelines) and all(p.get("stroke-opacity") == "0.35" for p in faint)
    for path, line in zip(faint, layout.lifelines, strict=True):
        assert [float(n) for n in re.findall(r"[\d.]+", path.get("d"))] == pytest.approx(
            [line.x, first.y, line.x, line.bottom], abs=0.05)

    def whole_to(svg: str) -> float:  # the lowest point of the whole lifeline runs drawn in rows
        ys = [float(y) for g in ET.fromstring(svg).iter(f"{SVG}g") if f"{prefix}-row" in g.get("class", "")
              for p in g.iter(f"{SVG}path") if f"{prefix}-lifeline" in p.get("class", "").split()
              for y in re.findall(r"V(\S+)", p.get("d"))]
        return max(ys, default=0.0)

    assert whole_to(svgs.stills[1]) == pytest.approx(first.bottom)
    assert whole_to(svgs.stills[len(layout.rows)]) == pytest.approx(layout.lifelines[0].bottom)
    assert whole_to(svgs.stills[0]) == pytest.approx(layout.lifelines[0].bottom)
    assert layout.lifelines[0].bottom > last.bottom


def test_a_spec_without_a_view_draws_no_sequence():
    data = oauth_spec()
    del data["layout"]
    data["targets"] = {k: v for k, v in data["targets"].items() if v.get("from") != v.get("to") or "from" not in v}
    for s in data["scenarios"]:
        for step in s["steps"]:
            step["paths"] = [p for p in step["paths"] if p in data["targets"]]
    spec = spec_from_data(data)
    layout = layout_scenario(spec, spec.scenarios[0])
    assert layout.rows == () and layout.lifelines == () and layout.direction != "sequence" and layout.arrows


def test_text_stays_readable_where_the_figure_shows_the_wide_sequence():
    """The HTML figure shows the wide drawing from the width where its 13-unit text is 12 CSS px; a six-participant
    sequence reaches that below the 960 px from which a figure scrolls instead (render.html.WIDE_SCROLLS_FROM)."""
    ((_, layout),) = _layouts(sequence_spec(6, 20), narrow=False)
    assert readable_width(layout.width) * 13 / 12 == pytest.approx(layout.width, abs=0.2)
    assert layout.width * MIN_TEXT_PX / 13 <= 900


def test_geometry_rects_are_typed():
    ((_, layout), _) = _layouts(oauth_spec(), narrow=False)
    assert all(isinstance(row, Rect) for row in layout.rows)


# --- the edge rules (issue 27) among messages ---------------------------------------------------------------------

#: Generated sequences of 2 to 8 participants and 3 to 30 steps (self-messages and replies among them), with long
#: and short names and without replies, the OAuth flow, and a TCP handshake with a retransmission.
RULE_CASES = [pytest.param(sequence_spec(p, s, **extra), narrow,
                           id=f"{p}x{s}{'-short' if extra else ''}-{'narrow' if narrow else 'wide'}")
              for p in range(2, 9) for s in (3, 8, 17, 30) for extra in ({}, {"replies": False, "names": SHORT_NAMES})
              for narrow in (False, True)]
RULE_CASES += [pytest.param(oauth_spec(), narrow, id=f"oauth-{'narrow' if narrow else 'wide'}") for narrow in (False, True)]
RULE_CASES += [pytest.param(tcp_spec(), narrow, id=f"tcp-{'narrow' if narrow else 'wide'}") for narrow in (False, True)]
RULE_CASES += [pytest.param(sequence_spec(5, 8, names=LONG), narrow, id=f"long-words-{'narrow' if narrow else 'wide'}")
               for narrow in (False, True)]


@pytest.mark.parametrize("data, narrow", RULE_CASES)
def test_messages_keep_the_edge_rules_among_themselves(data, narrow):
    """No false junction, no message within 6 units of another's arrowhead, no parallel run under 12 units, no
    crossing, no more than two bends (a self-message's loop), and every label at most 6 units from its own message,
    nearer it than any other and crossed by none (layout.route_rules, measured among the messages; the lifelines,
    which messages cross by nature, are not arrows)."""
    for _, layout in _layouts(data, narrow):
        assert message_faults(layout) == []
        for _, message in _messages(layout):
            box = message.arrow.label_box
            if box is not None:  # within LABEL_REACH of its own line, and over it
                assert block_distance(box, message.arrow.points) <= LABEL_REACH


def test_validate_warns_of_a_message_that_breaks_a_rule_with_its_pointer_and_layout(monkeypatch):
    """Rule route on a sequence: a message whose label is drawn far from its line (here moved there, in the narrow
    layout) is a warning at the path's key, naming the layout, the scenario and the step."""
    import json

    import msgspec.structs

    from mechdiagram.layout import checks
    from mechdiagram.layout import layout_scenario as lay
    from mechdiagram.spec.load import parse_text
    from mechdiagram.spec.validate import check_spec

    def moved(spec, scenario, shared):
        drawn = lay(spec, scenario, shared)
        if shared.width != narrow or scenario.id != "sign-in":  # the narrow layout's alone (not the middle one)
            return drawn
        row = drawn.rows[5]
        message = row.messages[0]
        box = message.arrow.label_box
        assert box is not None and message.key == "token"
        far = msgspec.structs.replace(message.arrow, label_box=Rect(box.x, box.y - 30, box.w, box.h))
        rows = list(drawn.rows)
        rows[5] = msgspec.structs.replace(row, messages=(msgspec.structs.replace(message, arrow=far), *row.messages[1:]))
        return msgspec.structs.replace(drawn, rows=tuple(rows))

    text = json.dumps(oauth_spec(), indent=2)
    loaded = parse_text(text.encode(), "oauth.mechanism.json")
    validation = check_spec(loaded)
    assert validation.spec is not None
    assert checks.lay_out(loaded, validation.spec).findings == []
    narrow = diagram(validation.spec, narrow=True).width
    assert narrow != diagram(validation.spec).width
    monkeypatch.setattr(checks, "layout_scenario", moved)
    [finding] = checks.lay_out(loaded, validation.spec).findings
    assert (finding.pointer, finding.rule, finding.severity) == ("/targets/token", "route", "warning")
    assert finding.line == text.splitlines().index('    "token": {') + 1
    assert 'in the narrow layout (scenario "sign-in", step 6)' in finding.message, finding.message
    assert "label" in finding.message and "from its arrow" in finding.message


def test_a_narrow_head_of_a_long_code_name_wraps_inside_it_instead_of_widening_the_drawing():
    """A participant named by a long identifier (``"text": "code"``): in the narrow layout its head breaks at the
    identifier's dots and, where a piece is still wider than a staggered head, between its characters (with the
    continuation mark), so four participants still fit a phone's column; the wide layout keeps its pieces whole."""
    from mechdiagram.layout.measure import CONTINUATION

    data = sequence_spec(4, 6)
    data["targets"]["p1"].update(label="io.grpc.netty.NettyServerHandler", text="code")
    ((_, narrow),) = _layouts(data, narrow=True)
    head = narrow.boxes["p1"]
    assert readable_width(narrow.width) <= PHONE_COLUMN, narrow.width
    assert head.lines[:2] == ("io.grpc.", "netty.") and any(line.endswith(CONTINUATION) for line in head.lines)
    assert "".join(line.removesuffix(CONTINUATION) for line in head.lines) == "io.grpc.netty.NettyServerHandler"
    ((_, wide),) = _layouts(data, narrow=False)
    assert wide.boxes["p1"].lines == ("io.grpc.netty.", "NettyServerHandler")


def test_a_label_over_a_lifeline_it_passes_moves_off_that_lifelines_activation_bar():
    """A message from the first participant to the third while the second is active: centred, its label covered the
    second's bar (a new user's Raft election, "AppendEntries t2" from S3 to S5 over S4's).  It moves along its line
    just clear of the bar, still over its own line, between its ends; one whose span has no such room stays centred."""
    data = sequence_spec(3, 1)
    data["targets"] = {key: value for key, value in data["targets"].items() if value["kind"] == "node"}
    data["targets"]["far"] = {"id": "far", "kind": "path", "from": "p0", "to": "p2", "label": "AppendEntries t2"}
    data["scenarios"][0]["steps"][0].update(active=["p0", "p1"], paths=["far"])
    [(_, layout)] = _layouts(data, narrow=False)
    [row] = layout.rows
    [message] = row.messages
    block = message.arrow.label_box
    (x0, line_y), (x1, _) = message.arrow.points[0], message.arrow.points[-1]
    bar = next(bar for bar in row.bars if bar.key == "p1")
    assert block is not None and (block.right <= bar.x - 2 or block.x >= bar.x + bar.w + 2), (block, bar)
    assert min(x0, x1) <= block.x and block.right <= max(x0, x1) + ARROW_HEAD  # over its own line
    assert block.bottom <= line_y  # above it


def test_a_label_between_two_active_participants_wraps_between_their_bars():
    """A message between neighbours both active (a coordinator forcing its decision to its log): where its label on
    one line would run over their activation bars and its words fit between them, it wraps into more lines there
    (a new user's "force ABORT" ran into both bars in the middle layout, 768 px); the wide layout, with room, keeps
    it on one line."""
    from mechdiagram.layout import middle_diagram

    data = sequence_spec(6, 1)
    data["targets"] = {key: value for key, value in data["targets"].items() if value["kind"] == "node"}
    data["targets"]["force"] = {"id": "force", "kind": "path", "from": "p1", "to": "p2", "label": "force ABORT"}
    data["scenarios"][0]["steps"][0].update(active=["p1", "p2"], paths=["force"])
    spec = spec_from_data(data)
    for shared, lines in ((middle_diagram(spec), 2), (diagram(spec), 1)):
        assert shared is not None
        [row] = layout_scenario(spec, spec.scenarios[0], shared).rows
        [message] = row.messages
        assert len(message.arrow.label_lines) == lines, (shared.width, message.arrow.label_lines)
        assert not [bar for bar in row.bars if message.arrow.label_box.overlaps(bar)], (message.arrow.label_box, row.bars)


def test_a_self_message_on_the_last_lifeline_wraps_right_of_its_bar():
    """A message to itself on the last participant, its label of short words wider than the room right of its bar:
    it wraps into lines that fit there, instead of being pushed back over its own bar (a new user's "roll back" on
    their last node, in the middle layout)."""
    from mechdiagram.layout import middle_diagram

    data = sequence_spec(6, 1)
    data["targets"] = {key: value for key, value in data["targets"].items() if value["kind"] == "node"}
    data["targets"]["undo"] = {"id": "undo", "kind": "path", "from": "p5", "to": "p5", "label": "go back to it"}
    data["scenarios"][0]["steps"][0].update(active=["p5"], paths=["undo"])
    data["layout"]["order"] = [f"p{i}" for i in range(6)]  # p5 last, though the step names it first
    spec = spec_from_data(data)
    shared = middle_diagram(spec)
    assert shared is not None
    [row] = layout_scenario(spec, spec.scenarios[0], shared).rows
    [message] = row.messages
    [bar] = row.bars
    assert len(message.arrow.label_lines) > 1, message.arrow.label_lines
    assert message.arrow.label_box.x >= bar.x + bar.w, (message.arrow.label_box, bar)
