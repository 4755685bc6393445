"""Where a step's marks go (``marks``: a target is ``new``, ``changed``, ``removed``, ``lost``, ``error``,
``waiting`` or ``done`` during that step) and the legend that names them.

Every place is worked out once for the scenario, so nothing moves between steps: a box's mark sits on one of its
corners, outside it (the top left first), clear of the poster's step badges (:mod:`.badges`) and of the ports,
which keep to the middle of a side (:data:`~mechdiagram.layout.sizes.PORT_SPREAD`); a path's on its route, clear
of boxes, arrowheads, labels and badges where a free place exists; a message's (the sequence view) on its line near
its target.  The legend takes a strip of its own between the drawing and the state panel, one entry a mark the
scenario uses, in :data:`~mechdiagram.shared.model.MARKS` order; a scenario without marks keeps no strip.
Sizes are SVG user units.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from mechdiagram.layout.geometry import Arrow, Badge, Box, GroupFrame, Legend, LegendEntry, Message, Point, Rect
from mechdiagram.layout.measure import text_width
from mechdiagram.layout.sizes import PATH_LABEL_SIZE
from mechdiagram.shared.locale import Words
from mechdiagram.shared.model import MARKS, Scenario

#: A mark's disc: its radius, and how far its centre sits outside each side of the box's corner.
MARK_RADIUS = 8.0
MARK_OFFSET = 5.0
#: A lost message (sequence view) stops this far short of its target's lifeline (or activation bar); its cross
#: reaches this far each way from its end.
LOST_SHORT = 26.0
CROSS = 5.0
#: The least room between a later mark's disc on a lost message and the message's cross.
MARK_CLEAR = 2.0
#: The legend: a line's height, the space between an entry's disc and its word and between two entries.
LEGEND_LINE = 24.0
LEGEND_GAP = 6.0
LEGEND_SPACE = 18.0

#: The word of each mark in the message catalogue.
MARK_WORDS = {mark: f"mark{mark.capitalize()}" for mark in MARKS}


def used_marks(scenario: Scenario) -> tuple[str, ...]:
    """The marks ``scenario``'s steps use, in :data:`~mechdiagram.shared.model.MARKS` order."""
    used = {mark for step in scenario.steps for mark in step.marks.values()}
    return tuple(mark for mark in MARKS if mark in used)


def _disc(centre: Point) -> Rect:
    x, y = centre
    return Rect(x - MARK_RADIUS, y - MARK_RADIUS, 2 * MARK_RADIUS, 2 * MARK_RADIUS)


def _along(arrow: Arrow, share: float) -> Point:
    """The point ``share`` (0 to 1) of the way along ``arrow``'s route (its segments are horizontal or vertical)."""
    pairs = list(zip(arrow.points, arrow.points[1:], strict=False))
    lengths = [abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in pairs]
    left = share * sum(lengths)
    for (a, b), length in zip(pairs, lengths, strict=True):
        if left <= length and length:
            t = left / length
            return round(a[0] + t * (b[0] - a[0]), 1), round(a[1] + t * (b[1] - a[1]), 1)
        left -= length
    return arrow.points[-1]


def mark_places(scenario: Scenario, boxes: dict[str, Box], arrows: dict[str, Arrow],
                badges: tuple[Badge, ...], groups: Mapping[str, GroupFrame] | None = None) -> dict[str, Point]:
    """The centre of the mark of every box, path and group (its frame in ``groups``) some step of ``scenario``
    marks (see the module docstring): the first free candidate, else the first.  A box's candidates are its four
    corners, top left first; a group frame's too, top right first (its label is at its top left); a path's the
    points 3/4, 1/4, 2/3 and 1/3 of the way along its route."""
    frames = groups or {}
    keys = dict.fromkeys(key for step in scenario.steps for key in step.marks)
    taken: list[Rect] = [*badges, *boxes.values(), *(a.head_box for a in arrows.values()),
                         *(a.label_box for a in arrows.values() if a.label_box is not None)]
    places: dict[str, Point] = {}
    for key in keys:
        if key in boxes:
            box = boxes[key]
            left, right = box.x - MARK_OFFSET, box.right + MARK_OFFSET
            top, bottom = box.y - MARK_OFFSET, box.bottom + MARK_OFFSET
            candidates = [(left, top), (right, top), (left, bottom), (right, bottom)]
            others = [rect for rect in taken if rect is not box]
        elif key in arrows:
            candidates = [_along(arrows[key], share) for share in (0.75, 0.25, 2 / 3, 1 / 3)]
            others = taken
        elif key in frames:
            frame = frames[key]
            candidates = [(frame.right, frame.y), (frame.right, frame.bottom), (frame.x, frame.bottom),
                          (frame.x, frame.y)]
            others = [*taken, *([frame.label_box] if frame.label_box is not None else [])]
        else:
            continue
        candidates = [(round(x, 1), round(y, 1)) for x, y in candidates]
        place = next((c for c in candidates if not any(_disc(c).overlaps(o) for o in others)), candidates[0])
        places[key] = place
        taken.append(_disc(place))
    return places


def marked_row(scenario: Scenario, number: int, key: str) -> int | None:
    """The sequence view's row (its step's number, 1-based) whose message ``key`` the mark step ``number`` gives it
    is drawn on: the step's own row where it sends that message, else the row of the latest step before it that
    does (a new user's TLS handshake marked its ClientHello ``error`` in the HelloRetryRequest's step, and nothing
    was drawn); ``None`` where no step up to it sends it (:func:`~mechdiagram.layout.checks.unshown_marks` warns)."""
    for earlier in range(number, 0, -1):
        if key in scenario.steps[earlier - 1].paths:
            return earlier
    return None


def message_mark(message: Message) -> Point:
    """The centre of a message's mark (sequence view): on its line a quarter of the way from its end.  A lost
    message's line ends short of its target, in the cross that is its own step's ``lost`` mark; a later step's mark
    on it is a disc on its line clear of the cross, at the line's start where the line is too short for that (a
    phone's lifelines 52 units apart leave a lost line of 16 units: a break-it review found the disc over the
    cross)."""
    centre = _along(message.arrow, 0.75)
    end = message.arrow.points[-1]
    if message.lost and math.dist(centre, end) < MARK_RADIUS + CROSS + MARK_CLEAR:
        return message.arrow.points[0]
    return centre


def lost_end(start: Point, end: Point) -> Point:
    """Where a lost message from ``start`` towards ``end`` (a horizontal line) stops: :data:`LOST_SHORT` short."""
    sign = 1 if end[0] >= start[0] else -1
    return round(end[0] - sign * LOST_SHORT, 1), end[1]


def cross(centre: Point) -> str:
    """The two strokes of a lost message's cross at ``centre``, as SVG path data."""
    x, y = centre
    return (f"M{_n(x - CROSS)} {_n(y - CROSS)} L{_n(x + CROSS)} {_n(y + CROSS)} "
            f"M{_n(x + CROSS)} {_n(y - CROSS)} L{_n(x - CROSS)} {_n(y + CROSS)}")


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _legend_entries(marks: tuple[str, ...], words: Words, x: float, y: float,
                    width: float) -> tuple[tuple[LegendEntry, ...], int]:
    """``marks`` as legend entries from (``x``, ``y``) within ``width``, and the number of lines they take."""
    rtl = words.direction == "rtl"
    entries: list[LegendEntry] = []
    line, used = 0, 0.0
    for mark in marks:
        text = words[MARK_WORDS[mark]]
        w = 2 * MARK_RADIUS + LEGEND_GAP + text_width(text, PATH_LABEL_SIZE)
        if used and used + LEGEND_SPACE + w > width:
            line, used = line + 1, 0.0
        start = used + (LEGEND_SPACE if used else 0.0)
        used = start + w
        cy = y + line * LEGEND_LINE + LEGEND_LINE / 2
        if rtl:
            cx = x + width - start - MARK_RADIUS
            text_x = cx - MARK_RADIUS - LEGEND_GAP - (w - 2 * MARK_RADIUS - LEGEND_GAP) / 2
        else:
            cx = x + start + MARK_RADIUS
            text_x = cx + MARK_RADIUS + LEGEND_GAP + (w - 2 * MARK_RADIUS - LEGEND_GAP) / 2
        entries.append(LegendEntry(mark, round(cx, 1), round(cy, 1), round(text_x, 1), round(cy + 4.5, 1), text))
    return tuple(entries), line + 1


def legend(scenario: Scenario, words: Words, x: float, y: float, width: float,
           shown: Callable[[int, str], bool] | None = None) -> Legend | None:
    """The legend of ``scenario``'s marks from (``x``, ``y``) within ``width``: one entry a mark, a disc and its
    word (from ``words``), laid in lines from the left (from the right in a right-to-left language); ``None``
    when no step marks anything.  Its ``entries`` are every mark the scenario uses, whose lines set the room kept
    for it (so that nothing moves between steps); ``steps`` are each step's own entries, the marks that step shows
    (on the targets that ``shown(step number, key)`` says the drawing shows in it: all without it) laid out from
    the same corner: a step's legend names only what the step shows."""
    marks = used_marks(scenario)
    if not marks:
        return None
    entries, lines = _legend_entries(marks, words, x, y, width)
    steps = []
    for number, step in enumerate(scenario.steps, start=1):
        own = {mark for key, mark in step.marks.items() if shown is None or shown(number, key)}
        own_entries, taken = _legend_entries(tuple(mark for mark in marks if mark in own), words, x, y, width)
        steps.append(own_entries)
        lines = max(lines, taken)
    return Legend(x, y, width, lines * LEGEND_LINE, entries, tuple(steps))


__all__ = ["CROSS", "LOST_SHORT", "MARK_RADIUS", "MARK_WORDS", "cross", "legend", "lost_end", "mark_places",
           "marked_row", "message_mark", "used_marks"]
