"""The sequence view (``"layout": {"view": "sequence"}``): participants as headed columns with lifelines, and
time running down, one row per step.

Two phases, each with typed output:

* :func:`participants` (shared by every scenario of a spec, so that a participant keeps its place): the node
  targets in ``layout.order``, then the others in the order the steps first name them (as an active node or a
  message's end), then in file order; their heads, a row of boxes (two staggered rows where a narrow drawing
  leaves a head less room than its longest word), and the distance between neighbouring lifelines, as wide as
  their heads and the labels of the messages between them need, within :data:`GAP_MAX` (six participants fit
  900 units), then wider where the drawing's width is free (within :data:`WIDE_BUDGET`) and labels would wrap
  (:func:`_widened`) and, in the narrow variant, as wide as :data:`NARROW_FIT_WIDTH` allows, down to
  :data:`NARROW_GAP_MIN` (a long code name in a head wraps there rather than widen it).
* :func:`rows` (one scenario): a row per step, its messages stacked in the order the step lists them, each a
  horizontal arrow from its ``from`` lifeline to its ``to`` lifeline (a loop for a message to itself) with its
  label above its line, centred over the message (a loop's starts right of its lifeline) and kept inside the
  drawing; activation bars on the lifelines of
  the step's active nodes; a badge with the step's number at the left.

Each message has a band of the row to itself (its label, then its line), so no message crosses another's label;
lifelines pass behind the labels, which the drawing puts on a background.  Lengths are SVG user units.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from msgspec import Struct

from mechdiagram.layout.geometry import (
    Activation,
    Arrow,
    Badge,
    Box,
    GroupFrame,
    Lifeline,
    Message,
    Point,
    Rect,
    SequenceRow,
)
from mechdiagram.layout.groups import stacked_order
from mechdiagram.layout.labels import FIRST_BASELINE, label_size
from mechdiagram.layout.marks import lost_end
from mechdiagram.layout.measure import even_wrap, text_width, tokens
from mechdiagram.layout.routing import _head
from mechdiagram.layout.sizes import (
    ARROW_HEAD,
    BADGE_HEIGHT,
    BADGE_PAD,
    FONT_SIZE,
    LINE_HEIGHT,
    MARGIN,
    MIN_WIDTH,
    NARROW_MIN_WIDTH,
    PAD_X,
    PAD_Y,
    PATH_LABEL_LINE,
    PATH_LABEL_SIZE,
    PATH_LABEL_WIDTH,
    SPREAD_WIDTH,
)
from mechdiagram.shared.model import PathTarget, Scenario, Spec
from mechdiagram.shared.views import SEQUENCE

__all__ = ["SEQUENCE", "Participants", "Rows", "participant_order", "participants", "rows"]

#: A head's padding beside its text (a box's), and its least width and height.
HEAD_PAD_X = PAD_X
HEAD_MIN_WIDTH = 64.0
HEAD_MIN_HEIGHT = 40.0
#: Least room between two heads side by side, and between the two rows of staggered heads.
HEAD_GAP = 12.0
#: Distance between neighbouring lifelines: at least GAP_MIN, at most GAP_MAX (wide: with a 28-unit gutter, six
#: participants whose outer heads are at most GAP_MAX - HEAD_GAP wide take 2 × 20 + 28 + 5 × 136 + 120 = 868 units,
#: under the 900 CSS px the issue's width rule allows).
GAP_MIN = 96.0
GAP_MAX = 136.0
#: The wide drawing's width within which lifelines move further apart than GAP_MAX where their messages' labels
#: would wrap (six participants at GAP_MAX: the width above), each as far as its labels need to fit on a line of at
#: most LABEL_LINE_MAX: the free width of a sequence of few participants goes to its labels, not to empty margins.
WIDE_BUDGET = 868.0
LABEL_LINE_MAX = 280.0
#: The narrow variant: the widest drawing a 320 px screen (WCAG 2.2 SC 1.4.10's reflow width) shows whole with its
#: 13-unit labels at 12 CSS px or more: 320 px less 4 × 8 px, the page's and the figure's padding at that width
#: (theme.EDGE_SPACE), times 13 / 12; a drawing that cannot be this narrow is made as narrow as it can (five
#: participants fit a 360 px phone's 351); the least distance between lifelines, below which the drawing keeps this
#: distance and scrolls sideways in its frame instead.
NARROW_FIT_WIDTH = 312.0
NARROW_GAP_MIN = 52.0
#: How many pitches the narrow variant tries before it takes the widest that fits (each narrower by what the one
#: before overshot NARROW_FIT_WIDTH, or wider by what it left free: two or three suffice).
NARROW_TRIES = 4
#: A narrow try within this many units of NARROW_FIT_WIDTH is taken as it is.
NARROW_SLACK = 8.0
#: How far a message's label keeps inside its span at each end, and its block's foot above its line.
LABEL_INSET = 8.0
LABEL_GAP = 6.0
#: The background behind a label reaches this far beyond its text (the lifelines pass behind it).
LABEL_BACKGROUND = 2.0
#: Air between one message's line (or loop) and the next message's label in a row; a row's padding above and
#: below its messages; the top of the first row below the lowest head.
MESSAGE_AIR = 10.0
ROW_PAD = 8.0
ROWS_TOP_GAP = 12.0
#: A row with no message is as tall as its badge and its padding.
ROW_MIN_HEIGHT = BADGE_HEIGHT + 2 * ROW_PAD
#: A message to its own lifeline: a loop this wide and tall, right of the lifeline.
SELF_WIDTH = 28.0
SELF_HEIGHT = 16.0
#: An activation bar's width, centred on its lifeline.
BAR_WIDTH = 10.0
#: A self-message's label starts this far right of its lifeline: clear of an activation bar.
SELF_LABEL_START = BAR_WIDTH / 2 + 4.0
#: Lifelines run this far below the last row.
LIFELINE_TAIL = 16.0
#: Room between the step badges' column and the first head.
GUTTER_AIR = 8.0


class Participants(Struct, frozen=True):
    """The shared part of a sequence: ``order`` (node keys, left to right), ``heads`` by key, each lifeline's
    ``x``, the canvas ``width``, the foot of the lowest head (``heads_bottom``) and the step badges' column
    (``gutter``, from MARGIN)."""

    order: tuple[str, ...]
    heads: dict[str, Box]
    x: dict[str, float]
    width: float
    heads_bottom: float
    gutter: float
    groups: dict[str, GroupFrame] = {}


def participant_order(spec: Spec) -> list[str]:
    """The participants, left to right: ``layout.order``, then the nodes in the order the steps first name them
    (active, or a message's ``from`` then ``to``), scenario by scenario, then the rest in file order."""
    nodes = [node.key for node in spec.nodes]
    known = set(nodes)
    order = [key for key in dict.fromkeys(spec.layout.order) if key in known]
    targets = spec.targets
    seen = set(order)
    for scenario in spec.scenarios:
        for step in scenario.steps:
            named = list(step.active)
            for key in step.paths:
                path = targets.get(key)
                if isinstance(path, PathTarget):
                    named += [path.source, path.dest]
            for key in named:
                if key in known and key not in seen:
                    seen.add(key)
                    order.append(key)
    order += [key for key in nodes if key not in seen]
    return stacked_order(spec, order) if spec.groups else order


def _message_lines(path: PathTarget, room: float, text: str | None = None) -> tuple[str, ...]:
    """A message's label (or ``text``, the one a step's labels give it) wrapped to ``room`` units, its lines
    balanced (a ``code`` label in the monospace face, broken at its punctuation as a box's code is)."""
    shown = text if text is not None else path.label
    return even_wrap(shown, room, PATH_LABEL_SIZE, path.code) if shown else ()


def _one_line(path: PathTarget) -> float:
    """The width of a message's label on one line, at most LABEL_LINE_MAX (then it wraps to that width)."""
    if not path.label:
        return 0.0
    return label_size(_message_lines(path, LABEL_LINE_MAX), path.code)[0]


def _badge_width(number: int) -> float:
    """The width of the badge of step ``number``."""
    return max(BADGE_HEIGHT, text_width(str(number), PATH_LABEL_SIZE) + 2 * BADGE_PAD)


def _gutter(spec: Spec) -> float:
    """The step badges' column: as wide as the badge of the highest step number, and GUTTER_AIR."""
    most = max((len(s.steps) for s in spec.scenarios), default=1)
    return math.ceil(_badge_width(most)) + GUTTER_AIR


def _head_lines(label: str, room: float, code: bool = False, whole: bool = True) -> tuple[str, ...]:
    """A head's label in lines at most ``room`` wide (its longest word ``whole``, wider if need be, else broken
    with the continuation mark; a ``code`` label, in the monospace face, breaks between the pieces of its tokens,
    as a box's code does)."""
    return even_wrap(label, max(room, _longest_word(label, code=code)) if whole else room, FONT_SIZE, code)


def _longest_word(label: str, size: float = FONT_SIZE, code: bool = False) -> float:
    """The width of the widest word of ``label`` at ``size`` (of a ``code`` label: the widest piece a line does not
    break inside, :func:`~mechdiagram.layout.measure.tokens`)."""
    return max((text_width(word, size, code) for word in tokens(label, code)), default=0.0)


def participants(spec: Spec, *, narrow: bool = False, spread: bool = False, fit: float | None = None) -> Participants:
    """Heads and lifeline places of the spec's participants (see the module docstring): wide, or for the
    ``narrow`` variant (a phone's).  ``spread`` (wide only) moves the lifelines of a sequence narrower than
    :data:`SPREAD_WIDTH` further apart, each gap by as much, until the drawing is that wide: the wide variant of a
    figure that fills a wide screen (issue 26), whose natural width is the middle variant's.  ``fit`` (user units)
    lays the heads out as the narrow variant does, evenly apart and staggered where their names need it, but as
    wide as ``fit`` allows instead of :data:`NARROW_FIT_WIDTH`: the middle variant of a sequence whose natural
    width is wider than a figure between a phone's and the wide drawing's holds at 12 CSS px."""
    order = participant_order(spec)
    labels = {node.key: node.label or node.key for node in spec.nodes}
    gutter = _gutter(spec)
    count = len(order)
    index = {key: i for i, key in enumerate(order)}
    # What each gap between neighbours needs for the labels of the messages across it alone, and the gap right of
    # a participant for its self-messages' loops and labels (from SELF_LABEL_START right of the lifeline).
    needs = [GAP_MIN] * max(count - 1, 0)
    right_need = 0.0
    for path in spec.paths:
        if path.source not in index or path.dest not in index:
            continue
        # As wide as the widest text the label shows (a step's labels change it from that step's row on).
        w = max((label_size(_message_lines(path, PATH_LABEL_WIDTH, text), path.code)[0]
                 for text in spec.texts(path.key)), default=0.0)
        a, b = sorted((index[path.source], index[path.dest]))
        if a == b:
            need = max(SELF_WIDTH, SELF_LABEL_START + w) + LABEL_INSET
            if a < count - 1:
                needs[a] = max(needs[a], need)
            else:
                right_need = max(right_need, need)
        elif b == a + 1:
            needs[a] = max(needs[a], w + 2 * LABEL_INSET)
    head_room = GAP_MAX - HEAD_GAP - 2 * HEAD_PAD_X
    codes = frozenset(key for key in order if spec.targets[key].code)
    lines = {key: _head_lines(labels[key], head_room, key in codes) for key in order}
    widths = {key: _head_width(lines[key], key in codes) for key in order}
    staggered = False
    fitted = NARROW_FIT_WIDTH if narrow else fit
    if fitted is not None and count:
        # As wide a pitch as fits, heads and all: tried, then narrowed by what it overshoots.
        pitch = max(NARROW_GAP_MIN, min((fitted - 2 * MARGIN - gutter) / count, GAP_MAX))
        loop = SELF_WIDTH + LABEL_INSET if right_need else 0.0  # its label may move left, over the lifeline
        fit = fitted - 1  # room for the rounding up of the canvas and of each coordinate
        staggered, lines, widths, pitch = _narrow_heads(order, labels, pitch, codes)
        fitting = None  # the widest try that fits
        for _ in range(NARROW_TRIES):
            total = (2 * MARGIN + max(widths[order[0]] / 2, gutter + BAR_WIDTH / 2) + (count - 1) * pitch
                     + max(widths[order[-1]] / 2, loop))
            if total <= fit and (fitting is None or pitch > fitting[3]):
                fitting = (staggered, lines, widths, pitch)
            if count < 2 or (total > fit and pitch <= NARROW_GAP_MIN) or fit - NARROW_SLACK <= total <= fit:
                break
            # Narrower by what it overshoots, or wider by what it leaves free (to GAP_MAX): the labels between
            # the lifelines take the width a phone has, rather than leave it empty at the right.
            tried = min(GAP_MAX, max(NARROW_GAP_MIN, pitch + (fit - total) / (count - 1)))
            if tried == pitch:
                break
            staggered, lines, widths, pitch = _narrow_heads(order, labels, tried, codes)
        if fitting is not None:
            staggered, lines, widths, pitch = fitting
        right_need = min(right_need, SELF_WIDTH + LABEL_INSET)
        gaps = [pitch] * max(count - 1, 0)
    else:
        # Within GAP_MAX, but never so near that two heads touch (a word too long for GAP_MAX widens its head).
        apart = [(widths[a] + widths[b]) / 2 + HEAD_GAP for a, b in itertools.pairwise(order)]
        gaps = [max(min(GAP_MAX, max(need, heads)), heads) for need, heads in zip(needs, apart, strict=True)]
        if count:
            left_part = max(widths[order[0]] / 2, gutter + BAR_WIDTH / 2)
            right_need = _widened(spec, index, gaps, left_part, max(widths[order[-1]] / 2, right_need))
            short = SPREAD_WIDTH - (2 * MARGIN + left_part + sum(gaps) + max(widths[order[-1]] / 2, right_need))
            if spread and count > 1 and short > 0:
                extra = math.floor(short / (count - 1) * 10) / 10  # to the 0.1 unit below: never past it
                gaps = [round(gap + extra, 1) for gap in gaps]
    height = max((len(lines[key]) for key in order), default=1) * LINE_HEIGHT + 2 * PAD_Y
    height = max(HEAD_MIN_HEIGHT, height)
    left = MARGIN + gutter
    # The heads sit above the rows, so the first may reach over the step badges' column; its lifeline (and bar)
    # keeps right of that column.
    x = MARGIN + max(widths[order[0]] / 2 if order else 0.0, gutter + BAR_WIDTH / 2)
    xs: dict[str, float] = {}
    for i, key in enumerate(order):
        xs[key] = round(x, 1)
        if i < len(gaps):
            x += gaps[i]
    right_edge = max((xs[key] + max(widths[key] / 2, 0.0) for key in order), default=left)
    if order:
        last = order[-1]
        right_edge = max(right_edge, xs[last] + right_need)
    width = max(NARROW_MIN_WIDTH if narrow else MIN_WIDTH, math.ceil(right_edge + MARGIN))
    # Fewer participants than the least width holds: centred in it.
    shift = round((width - MARGIN - right_edge) / 2, 1) if right_edge + MARGIN < width else 0.0
    heads: dict[str, Box] = {}
    for i, key in enumerate(order):
        xs[key] = round(xs[key] + shift, 1)
        w = round(widths[key], 1)
        top = MARGIN + (height + HEAD_GAP if staggered and i % 2 else 0.0)
        heads[key] = Box(round(xs[key] - w / 2, 1), top, w, round(height, 1), key, lines[key])
    bottom = max((box.bottom for box in heads.values()), default=MARGIN)
    if not spec.groups:
        return Participants(tuple(order), heads, xs, float(width), bottom, gutter)
    heads, bands = _group_bands(spec, order, heads, xs, float(width))
    bottom = max([*(box.bottom for box in heads.values()), *(band.bottom for band in bands.values())])
    return Participants(tuple(order), heads, xs, float(width), bottom, gutter, bands)


#: A group's band over its members' heads: its label's air above and below, and the room between it and the heads.
BAND_AIR = 4.0
BAND_TO_HEADS = 6.0


def _group_bands(spec: Spec, order: list[str], heads: dict[str, Box], xs: dict[str, float],
                 width: float) -> tuple[dict[str, Box], dict[str, GroupFrame]]:
    """The heads moved down under the groups' bands, and each group's band (:class:`GroupFrame`, ``centred``): a
    strip over its members' heads, from its first member head's left edge to its last one's right edge, or, where
    a neighbour's head reaches within 2 units of that edge (the narrow variant's staggered heads), from half-way
    between the two lifelines, 1 unit short of it, so that neighbouring bands never meet; its label wrapped to
    its width and centred; every band as tall as the most lines any label takes."""
    spans: dict[str, tuple[float, float, tuple[str, ...]]] = {}
    for key, group in spec.groups.items():
        places = sorted(order.index(m) for m in group.members if m in heads)
        if not places:
            continue
        first, last = order[places[0]], order[places[-1]]
        left, right = heads[first].x, heads[last].right
        if places[0] > 0 and heads[order[places[0] - 1]].right > left - 2:  # staggered heads: half-way between
            left = (xs[order[places[0] - 1]] + xs[first]) / 2 + 1
        if places[-1] < len(order) - 1 and heads[order[places[-1] + 1]].x < right + 2:
            right = (xs[last] + xs[order[places[-1] + 1]]) / 2 - 1
        left, right = max(left, MARGIN / 2), min(right, width - MARGIN / 2)
        spans[key] = (left, right, even_wrap(group.label, max(right - left - 2 * BAND_AIR, 1.0), PATH_LABEL_SIZE))
    lines = max((len(text) for _, _, text in spans.values()), default=1)
    strip = lines * PATH_LABEL_LINE + 2 * BAND_AIR
    moved = {key: Box(box.x, round(box.y + strip + BAND_TO_HEADS, 1), box.w, box.h, box.key, box.lines)
             for key, box in heads.items()}
    bands = {}
    for key, (left, right, text) in spans.items():
        widest = max(text_width(line, PATH_LABEL_SIZE) for line in text)
        top = MARGIN
        block = Rect(round((left + right - widest) / 2, 1), round(top + BAND_AIR, 1), math.ceil(widest * 10) / 10,
                     len(text) * PATH_LABEL_LINE)
        bands[key] = GroupFrame(round(left, 1), top, round(right - left, 1), round(strip, 1), key=key, lines=text,
                                label_x=round((left + right) / 2, 1), label_y=round(top + BAND_AIR + 12, 1),
                                label_box=block, centred=True)
    return moved, bands


def _widened(spec: Spec, index: dict[str, int], gaps: list[float], left: float, right: float) -> float:
    """Widen ``gaps`` (between neighbouring lifelines, in place) where their messages' labels would wrap, within
    WIDE_BUDGET; returns the room right of the last lifeline (``right``, widened likewise for its self-messages).
    Each gap wishes its labels' width on one line of at most LABEL_LINE_MAX (a message across several gaps, its
    share in each; a self-message, its label from SELF_LABEL_START); the budget left beside ``left`` (the first
    lifeline's distance from the margin) is shared among the wishes in proportion."""
    count = len(gaps) + 1
    wishes = [0.0] * len(gaps)
    right_wish = 0.0
    for path in spec.paths:
        if path.source not in index or path.dest not in index or not path.label:
            continue
        a, b = sorted((index[path.source], index[path.dest]))
        if a == b:
            want = SELF_LABEL_START + _one_line(path) + LABEL_INSET
            if a < count - 1:
                wishes[a] = max(wishes[a], want)
            else:
                right_wish = max(right_wish, want)
            continue
        share = (_one_line(path) + 2 * LABEL_INSET) / (b - a)
        for i in range(a, b):
            wishes[i] = max(wishes[i], share)
    more = [max(wish - gap, 0.0) for wish, gap in zip(wishes, gaps, strict=True)] + [max(right_wish - right, 0.0)]
    room = WIDE_BUDGET - (2 * MARGIN + left + sum(gaps) + right)
    wanted = sum(more)
    if room <= 0 or wanted <= 0:
        return right
    share = min(1.0, room / wanted)
    for i in range(len(gaps)):
        gaps[i] += math.ceil(more[i] * share)
    return right + math.ceil(more[-1] * share)


def _narrow_heads(order: list[str], labels: dict[str, str], pitch: float, codes: frozenset[str] = frozenset()
                  ) -> tuple[bool, dict[str, tuple[str, ...]], dict[str, float], float]:
    """The narrow variant's heads at ``pitch`` between lifelines: whether they are staggered, their lines and widths,
    and the pitch, widened where a word needs it.  One row where each head keeps its longest word whole within
    the pitch, else two staggered rows, each head up to two pitches wide; a word wider still widens the pitch (the
    drawing then scrolls sideways rather than break the word); a label of ``codes`` (code, in the monospace face)
    breaks between the pieces of its tokens, and a piece wider than a staggered head between its characters (with
    the continuation mark), so that a long identifier wraps in its head rather than widen the pitch."""
    def need(key: str) -> float:
        word = _longest_word(labels[key], code=key in codes) + 2 * HEAD_PAD_X
        return min(word, 2 * pitch - HEAD_GAP) if key in codes else word

    widest = max(need(key) for key in order)
    staggered = len(order) > 1 and widest > pitch - HEAD_GAP
    if staggered:
        pitch = max(pitch, (widest + HEAD_GAP) / 2)
    elif widest > pitch - HEAD_GAP:
        pitch = widest + HEAD_GAP
    most = (2 * pitch if staggered else pitch) - HEAD_GAP
    lines = {key: _head_lines(labels[key], most - 2 * HEAD_PAD_X, key in codes, whole=key not in codes)
             for key in order}
    widths = {key: max(min(_head_width(lines[key], key in codes), most), need(key) if key in codes else
                       _longest_word(labels[key]) + 2 * HEAD_PAD_X) for key in order}
    return staggered, lines, widths, pitch


def _head_width(lines: tuple[str, ...], code: bool = False) -> float:
    widest = max((text_width(line, FONT_SIZE, code) for line in lines), default=0.0)
    return math.ceil(max(HEAD_MIN_WIDTH, widest + 2 * HEAD_PAD_X) * 10) / 10


class Rows(Struct, frozen=True):
    """One scenario's rows and lifelines, and the foot of the drawing (``bottom``: the lifelines' ends)."""

    rows: tuple[SequenceRow, ...]
    lifelines: tuple[Lifeline, ...]
    bottom: float


#: A message's label keeps this far from an activation bar it is moved off (user units), its background included.
BAR_AIR = LABEL_BACKGROUND + 2.0


def _label(lines: tuple[str, ...], centre: float, line_y: float, low: float, high: float,
           code: bool = False, bars: Sequence[float] = (), ends: Sequence[float] = (),
           span: tuple[float, float] | None = None) -> tuple[Point, Rect]:
    """The anchor (centre x, first baseline) and background of a label of ``lines`` (``code``: in the monospace
    face) whose foot is LABEL_GAP above ``line_y``, centred on ``centre`` and moved inside ``low``..``high`` where
    it would leave it.  Where it would cover one of the activation ``bars`` its message passes over (their lifelines'
    x; a message from the first to the third participant, its label over the second one's bar: a new user's Raft
    election), or of the bars at its ``ends`` (a message from the coordinator to its log, "force ABORT", ran into the
    log's bar: a new user's two-phase commit), it is moved along its line as little as takes it :data:`BAR_AIR` clear
    of each, where that keeps it over its message's ``span`` (the x extent of its line); else it stays."""
    w, h = label_size(lines, code)
    x = min(max(centre - w / 2, low), high - w) if w <= high - low else low

    def clear(left: float, at: Sequence[float]) -> bool:
        return all(left + w <= bar - BAR_WIDTH / 2 - BAR_AIR or left >= bar + BAR_WIDTH / 2 + BAR_AIR for bar in at)

    if not clear(x, [*bars, *ends]):
        first, last = span if span is not None else (low, high)
        tries = [each for bar in (*bars, *ends) for each in (bar - BAR_WIDTH / 2 - BAR_AIR - w,
                                                             bar + BAR_WIDTH / 2 + BAR_AIR)]
        fits = [left for left in tries
                if max(low, first) <= left <= min(high, last) - w and clear(left, [*bars, *ends])]
        if fits:
            x = min(fits, key=lambda left: (abs(left - x), left))
    top = line_y - LABEL_GAP - h
    background = Rect(round(x - LABEL_BACKGROUND, 1), round(top - LABEL_BACKGROUND / 2, 1),
                      round(w + 2 * LABEL_BACKGROUND, 1), round(h + LABEL_BACKGROUND, 1))
    return (round(x + w / 2, 1), round(top + FIRST_BASELINE, 1)), background


def rows(spec: Spec, scenario: Scenario, shared: Participants) -> Rows:
    """The rows of ``scenario`` under the heads of ``shared`` (see the module docstring)."""
    targets = spec.targets
    x = shared.x
    low, high = MARGIN + shared.gutter, shared.width - MARGIN
    y = shared.heads_bottom + ROWS_TOP_GAP
    # Right of each lifeline: the distance to the next, or to the drawing's edge.
    right_room = {key: (x[after] if after else high) - x[key]
                  for key, after in zip(shared.order, (*shared.order[1:], None), strict=True)}
    drawn: list[SequenceRow] = []
    for number, step in enumerate(scenario.steps, start=1):
        active = {key for key in step.active if key in x}
        slot = y + ROW_PAD
        messages: list[Message] = []
        for key in step.paths:
            path = targets.get(key)
            if not isinstance(path, PathTarget) or path.source not in x or path.dest not in x:
                continue
            source, dest = path.source, path.dest
            x0, x1 = x[source], x[dest]
            self_loop = source == dest
            lost = step.marks.get(key) == "lost" and not self_loop
            # Its span's width (a self-message's: the room right of its lifeline), but no narrower than
            # PATH_LABEL_WIDTH or its longest word (it may reach past the span, in its own band of the row), nor
            # wider than the drawing.
            span = right_room[source] - SELF_LABEL_START + LABEL_INSET if self_loop else abs(x1 - x0)
            text = step.label_of(path)  # its label as this step has it (a step's labels, from that step on)
            longest = _longest_word(text or "", PATH_LABEL_SIZE, path.code)
            room = min(max(span - 2 * LABEL_INSET, PATH_LABEL_WIDTH, longest), high - low)
            # The room its label has clear of its ends' bars: between them, or a self-message's right of its bar to
            # the drawing's edge (a new user's "roll back" on the last lifeline was pushed back over its bar).
            between = high - x0 - SELF_LABEL_START - LABEL_BACKGROUND if self_loop else \
                span - sum(BAR_WIDTH / 2 + BAR_AIR + LABEL_BACKGROUND for key in {source, dest} if key in active)
            lines = _message_lines(path, room, text)
            if lines and longest <= between < room and label_size(lines, path.code)[0] > between:
                lines = _message_lines(path, between, text)  # wrapped into more lines there, not over the bars
            label_h = label_size(lines, path.code)[1] if lines else 0.0
            line_y = round(slot + (label_h + LABEL_GAP if lines else ARROW_HEAD / 2), 1)
            out = BAR_WIDTH / 2 if source in active else 0.0
            into = BAR_WIDTH / 2 if dest in active else 0.0
            over: list[float] = []  # the bars of the lifelines it passes over, between its ends
            if self_loop:
                loop_y = round(line_y + SELF_HEIGHT, 1)
                start: Point = (round(x0 + out, 1), line_y)
                head, base = _head((round(x0 + into, 1), loop_y), "right")
                points: tuple[Point, ...] = (start, (round(x0 + SELF_WIDTH, 1), line_y),
                                             (round(x0 + SELF_WIDTH, 1), loop_y), base)
                # Its label starts right of the lifeline and its bar, over the loop, clear of the bar.
                centre = x0 + SELF_LABEL_START + (label_size(lines, path.code)[0] / 2 if lines else 0.0)
                bottom = loop_y + ARROW_HEAD / 2
            else:
                sign = 1 if x1 > x0 else -1
                start = (round(x0 + sign * out, 1), line_y)
                end: Point = (round(x1 - sign * into, 1), line_y)
                if lost:  # it never arrives: its line stops short, where its cross is drawn
                    end = lost_end(start, end)
                head, base = _head(end, "left" if sign > 0 else "right")
                points = (start, end if lost else base)
                centre, bottom = (x0 + x1) / 2, line_y + ARROW_HEAD / 2
                over = [x[key] for key in shared.order if key in active and min(x0, x1) < x[key] < max(x0, x1)]
            ends = [x[key] for key in (source, dest) if key in active]
            at, background = _label(lines, centre, line_y, low, high, path.code, over, ends,
                                    (min(x0, x1), max(x0, x1))) if lines else ((0.0, 0.0), None)
            arrow = Arrow(key, points, head, at, "middle", lines, background)
            messages.append(Message(key, arrow, path.style == "reply", self_loop, lost))
            slot = bottom + MESSAGE_AIR
        h = max(ROW_MIN_HEIGHT, (slot - MESSAGE_AIR + ROW_PAD - y) if messages else 0.0)
        h = round(h, 1)
        first_line = messages[0].arrow.points[0][1] if messages else y + h / 2
        bw = _badge_width(number)
        badge = Badge(MARGIN, round(first_line - BADGE_HEIGHT / 2, 1), round(bw, 1), BADGE_HEIGHT, "", str(number))
        bars = tuple(Activation(round(x[key] - BAR_WIDTH / 2, 1), round(y, 1), BAR_WIDTH, h, key)
                     for key in shared.order if key in active)
        drawn.append(SequenceRow(MARGIN, round(y, 1), round(shared.width - 2 * MARGIN, 1), h, number, badge,
                                 tuple(messages), bars))
        y = round(y + h, 1)
    bottom = round(y + LIFELINE_TAIL, 1)
    lifelines = tuple(Lifeline(key, x[key], shared.heads[key].bottom, bottom) for key in shared.order)
    return Rows(tuple(drawn), lifelines, bottom)

