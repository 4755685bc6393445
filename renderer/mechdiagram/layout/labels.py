"""Path label placement: each label goes beside a segment of its route, where it touches no box, no
node text and no other label, and preferably crosses no other route.

Candidates, best first: beside the longest segments (above or below a horizontal one, right or left
of a vertical one), at its middle, then at its quarters.  The first candidate free of boxes and
labels wins; among those it prefers one that crosses no route, then one that straddles no strip between
lane bands, then one clearly nearer its own route than any other (so that it names the right arrow), then
one with room around it.  When every candidate collides, the
least bad one is taken and the label marked not clean (``validate`` warns about it).

The search is bounded: one layout's labels share :data:`LABEL_BUDGET` tests of a candidate against a route's
segment.  Once it is spent, each label left takes the first candidate clear of boxes and labels, without
weighing the routes it crosses, and is marked ``crowded`` (one ``route`` warning says so).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from msgspec import Struct

from mechdiagram.layout.geometry import Point, Rect
from mechdiagram.layout.measure import text_width
from mechdiagram.layout.sizes import BOX_AIR, LABEL_REACH, PATH_LABEL_LINE, PATH_LABEL_SIZE, STRIP_AIR

#: Most tests of a candidate block against a route's segment that one layout's label placement may make: the
#: gallery's figures make at most 1,000; 150 labelled arrows among 20 boxes made 9 million (7 s), and stop here
#: after about 1 s.
LABEL_BUDGET = 1_000_000
#: Gap between a label and the segment it names: above or below a horizontal one ...
LABEL_GAP = 5.0
#: ... and beside a vertical one, within :data:`~mechdiagram.layout.sizes.LABEL_REACH` once the route's points are
#: written at 0.1 precision.
SIDE_GAP = LABEL_REACH - 0.5
#: Baseline of a label's first line below the top of its block: the ascent of the face the browser draws a label in
#: (chromium's ``getBBox`` of a 13-unit label is 12.2 to 12.4 units above its baseline and 15.0 to 15.3 tall), so
#: that the text the reader sees fills its block from the top.  At 0.85 of the size the text stood 1.2 to 1.4
#: units above its block, and a label over a horizontal run 6.2 units from it, past issue 27's 6 (measured in
#: chromium, ``tests/browser/test_browser_route_rules.py``).
FIRST_BASELINE = PATH_LABEL_SIZE * 0.95


class PlacedLabel(Struct, frozen=True):
    """A label's anchor (``at``: centre x, first baseline y; text-anchor middle), its block, whether
    it is clear of boxes and other labels, the ``lines`` it is drawn in (one of its wraps), and ``crowded``
    when it was placed after :data:`LABEL_BUDGET` was spent (without weighing the routes it crosses)."""

    at: Point
    block: Rect
    clean: bool
    lines: tuple[str, ...] = ()
    crowded: bool = False


class _Budget:
    """What is left of :data:`LABEL_BUDGET` for one layout's labels."""

    def __init__(self) -> None:
        self.left = LABEL_BUDGET


def label_size(lines: Sequence[str], code: bool = False) -> tuple[float, float]:
    """Width and height of a label block (a ``code`` label's in the monospace face)."""
    return max(text_width(line, PATH_LABEL_SIZE, code) for line in lines), len(lines) * PATH_LABEL_LINE


def _candidates(points: Sequence[Point], w: float, h: float) -> list[Rect]:
    segments = sorted(itertools.pairwise(points),
                      key=lambda s: -(abs(s[1][0] - s[0][0]) + abs(s[1][1] - s[0][1])))
    found: list[Rect] = []
    for fraction in (0.5, 0.3, 0.7, 0.15, 0.85):
        for a, b in segments:
            mx, my = a[0] + (b[0] - a[0]) * fraction, a[1] + (b[1] - a[1]) * fraction
            if a[1] == b[1]:  # horizontal: above, then below
                found.append(Rect(mx - w / 2, my - LABEL_GAP - h, w, h))
                found.append(Rect(mx - w / 2, my + LABEL_GAP, w, h))
            else:  # vertical: right, then left (a glyph's side bearing needs a unit more than above a line)
                found.append(Rect(mx + SIDE_GAP, my - h / 2, w, h))
                found.append(Rect(mx - SIDE_GAP - w, my - h / 2, w, h))
    return found


def _nudged(candidates: list[Rect], hard: Sequence[Rect], soft: Sequence[Rect] = (),
            own: Sequence[tuple[Point, Point]] = ()) -> list[Rect]:
    """Each candidate, then, where it overlaps an obstacle, the same block slid along the route just
    clear of it (by at most half its own size); and where it straddles one of the ``soft`` strips, slid
    just above and just below it (by at most its height) where that keeps it as far from its ``own`` route
    as it was (along a vertical run: not away from a horizontal one, nor onto the one its run turns into)."""
    out: list[Rect] = []
    for block in candidates:
        out.append(block)
        for rect in soft:
            if block.overlaps(rect):
                gap = _gap_to_segments(block, own)
                out.extend(moved for dy in (rect.y - block.bottom, rect.bottom - block.y) if abs(dy) <= block.h
                           if abs(_gap_to_segments(moved := Rect(block.x, block.y + dy, block.w, block.h), own) - gap)
                           <= 0.5)
        for rect in hard:
            if not block.overlaps(rect):
                continue
            for dx in (rect.x - block.right, rect.right - block.x):
                if abs(dx) <= block.w / 2 + 1:
                    out.append(Rect(block.x + dx, block.y, block.w, block.h))
            for dy in (rect.y - block.bottom, rect.bottom - block.y):
                if abs(dy) <= block.h / 2 + 1:
                    out.append(Rect(block.x, block.y + dy, block.w, block.h))
    return out


#: Room around a label beyond which more room does not count.
CLEAR_AIR = 16.0
#: A label names the route it is beside only when every other route is at least this much further away.
AMBIGUOUS = 8.0


def _gap(block: Rect, rect: Rect) -> float:
    """The distance between two rectangles (0 when they touch or overlap)."""
    dx = max(rect.x - block.right, block.x - rect.right, 0.0)
    dy = max(rect.y - block.bottom, block.y - rect.bottom, 0.0)
    return max(dx, dy) if dx == 0 or dy == 0 else (dx * dx + dy * dy) ** 0.5


def _segment_rect(segment: tuple[Point, Point]) -> Rect:
    (ax, ay), (bx, by) = segment
    return Rect(min(ax, bx), min(ay, by), abs(bx - ax), abs(by - ay))


def _gap_to_segments(block: Rect, segments: Sequence[tuple[Point, Point]]) -> float:
    """The distance from a block to the nearest of ``segments`` (each a degenerate rectangle); infinite
    when there are none."""
    best = float("inf")
    for (ax, ay), (bx, by) in segments:
        dx = max(min(ax, bx) - block.right, block.x - max(ax, bx), 0.0)
        dy = max(min(ay, by) - block.bottom, block.y - max(ay, by), 0.0)
        gap = max(dx, dy) if dx == 0 or dy == 0 else (dx * dx + dy * dy) ** 0.5
        best = min(best, gap)
    return best


def _crosses(block: Rect, segments: Sequence[tuple[Point, Point]]) -> int:
    grown = block.grown(1.0)
    count = 0
    for a, b in segments:
        if grown.crossed_by(a, b) or (a[0] == b[0] == grown.x) or (a[1] == b[1] == grown.y):
            count += 1
    return count


def place_labels(routes: dict[str, Sequence[Point]], wraps: dict[str, tuple[tuple[str, ...], ...]],
                 obstacles: Sequence[Rect], strips: Sequence[Rect] = (),
                 code: frozenset[str] = frozenset(),
                 heads: dict[str, tuple[Point, Point, Point]] | None = None,
                 least: dict[str, tuple[float, float]] | None = None) -> dict[str, PlacedLabel]:
    """Place the label of every route that has ``wraps`` (its lines, wrapped in the ways it may be,
    preferred first), in the order of ``routes``.  A later wrap is tried only when the ones before it
    found no place clear of boxes, labels and routes.  Labels keep :data:`BOX_AIR` from ``obstacles``,
    and off ``strips`` (the thin strips between lane bands, which a label's text should not straddle)
    wherever a place clear of the obstacles and routes allows.  The labels of the routes in ``code`` are
    measured in the monospace face.  ``heads`` (by route: an arrowhead's three corners, tip first) count as their
    routes' lines when a label is weighed against the other routes.  ``least`` gives, by route, the least width
    and height of its label's block: a label a step changes is placed as large as its largest text."""
    hard = [rect.grown(BOX_AIR) for rect in obstacles]
    soft = [rect.grown(STRIP_AIR) for rect in strips]
    segments = {key: list(itertools.pairwise(points)) for key, points in routes.items()}
    # Another route's arrowhead (its base, the widest part) counts as that route's line: a label beside it names
    # that arrow.
    outlines = {key: [*segs, *([(heads[key][1], heads[key][2])] if heads and key in heads else [])]
                for key, segs in segments.items()}
    placed: dict[str, PlacedLabel] = {}
    budget = _Budget()
    for key in _placing_order(routes, outlines):
        points = routes[key]
        ways = wraps.get(key, ())
        if not ways or len(points) < 2:
            continue
        # Only what lies near the route can touch a candidate or change its score: the rest is left out.
        floor = (least or {}).get(key, (0.0, 0.0))

        def size(lines: tuple[str, ...], key: str = key, floor: tuple[float, float] = floor) -> tuple[float, float]:
            w, h = label_size(lines, key in code)
            return max(w, floor[0]), max(h, floor[1])

        reach = 2 * max(max(size(lines)) for lines in ways) + CLEAR_AIR + AMBIGUOUS + LABEL_GAP
        xs, ys = [x for x, _ in points], [y for _, y in points]
        area = Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).grown(reach)
        others = [seg for other, segs in outlines.items() if other != key for seg in segs
                  if area.overlaps(_segment_rect(seg).grown(1.0))]
        taken = [rect for rect in (label.block.grown(3.0) for label in placed.values()) if area.overlaps(rect)]
        near_hard = [rect for rect in hard if area.overlaps(rect)]
        near = [rect for rect in obstacles if area.overlaps(rect.grown(BOX_AIR))]
        near_soft = [rect for rect in soft if area.overlaps(rect)]
        chosen: tuple[tuple[int, ...], Rect, tuple[str, ...]] | None = None
        for text in ways:
            score, block = _best(points, segments[key], others, size(text), near_hard, taken,
                                 near, near_soft, budget)
            if chosen is None or score[:6] < chosen[0][:6]:
                chosen = (score, block, text)
            if score[:5] == (0, 0, 0, 0, 0) or score == (0,):  # a later wrap may name its own arrow better
                break
        assert chosen is not None
        score, block, lines = chosen
        placed[key] = PlacedLabel((block.cx, block.y + FIRST_BASELINE), block, score[0] == 0, lines,
                                  crowded=budget.left <= 0)
    return placed


#: How far beside a label's longest run another arrow's parallel run leaves it fewer places (user units): a label of
#: path-label width and its gaps.
CROWDING_REACH = 120.0


def _placing_order(routes: dict[str, Sequence[Point]],
                   outlines: dict[str, list[tuple[Point, Point]]]) -> list[str]:
    """The order labels are placed in: the routes whose longest run has the most other arrows' runs beside it (parallel,
    within :data:`CROWDING_REACH`, overlapping it) first, else in the order of ``routes``.  A label between two
    neighbours has one place, one outside them two: placed in the order given, the outer runs' labels took the places
    between the runs, and the middle one of three arrows between two boxes one above the other had none (a new user's
    cache hierarchy)."""
    def crowding(key: str) -> int:
        points = routes[key]
        if len(points) < 2:
            return 0
        (ax, ay), (bx, by) = max(itertools.pairwise(points),
                                 key=lambda s: abs(s[1][0] - s[0][0]) + abs(s[1][1] - s[0][1]))
        vertical = abs(ax - bx) < 0.05
        lo, hi = sorted((ay, by) if vertical else (ax, bx))
        count = 0
        for other, segments in outlines.items():
            if other == key:
                continue
            for (cx, cy), (dx, dy) in segments:
                if vertical and abs(cx - dx) < 0.05 and 0.05 < abs(cx - ax) <= CROWDING_REACH \
                        and min(cy, dy) < hi and max(cy, dy) > lo:
                    count += 1
                    break
                if not vertical and abs(cy - dy) < 0.05 and 0.05 < abs(cy - ay) <= CROWDING_REACH \
                        and min(cx, dx) < hi and max(cx, dx) > lo:
                    count += 1
                    break
        return count

    return sorted(routes, key=lambda key: -crowding(key))


def _best(points: Sequence[Point], own: Sequence[tuple[Point, Point]], others: Sequence[tuple[Point, Point]],
          size: tuple[float, float], hard: Sequence[Rect], taken: Sequence[Rect],
          obstacles: Sequence[Rect], soft: Sequence[Rect] = (), budget: _Budget | None = None
          ) -> tuple[tuple[int, ...], Rect]:
    """The best place for a block of ``size`` beside ``points``: its score (bumps into boxes and labels,
    routes crossed, ``soft`` strips straddled, whether another route is about as near, whether it is further than
    :data:`~mechdiagram.layout.sizes.LABEL_REACH` from its own, room, candidate order; lower is better).  Each
    candidate weighed spends ``len(own) + len(others)`` of ``budget``; once it is spent, the first candidate with
    fewest bumps wins, its crossings not counted (score ``(bumps,)``)."""
    w, h = size
    best: tuple[tuple[int, ...], Rect] | None = None
    for order, block in enumerate(_nudged(_candidates(points, w, h), hard, soft, own)):
        bumps = sum(block.overlaps(rect) for rect in hard) + sum(block.overlaps(rect) for rect in taken)
        if budget is not None and budget.left <= 0:
            if best is None or (bumps,) < best[0][:1]:
                best = ((bumps,), block)
            if bumps == 0:
                break
            continue
        if budget is not None:
            budget.left -= len(own) + len(others)
        crosses = _crosses(block, others) + _crosses(block, own)  # its own route too: the halo hides a line
        if best is not None and (bumps, crosses) > best[0][:2]:
            continue  # worse whatever its room
        # A label nearer another route than its own (or about as near) names the wrong arrow.
        other_gap, own_gap = _gap_to_segments(block, others), _gap_to_segments(block, own)
        ambiguous = int(other_gap < own_gap + AMBIGUOUS)
        # A label further than LABEL_REACH from its own route (issue 27's rule; a twentieth of a unit for the
        # points' 0.1 precision) reads as floating free of it: a place slid off a box's air along the route, beside
        # the line, beats one slid away from the line.
        far = int(own_gap > LABEL_REACH + 0.05)
        # Among free places, one with room around it reads as its own route's: it keeps off other
        # routes and boxes (in steps of 4 px, up to CLEAR_AIR), and earlier candidates win ties.
        room = min(other_gap, *(_gap(block, rect) for rect in obstacles), CLEAR_AIR)
        straddles = sum(block.overlaps(rect) for rect in soft)
        score = (bumps, crosses, straddles, ambiguous, far, -int(room // 4), order)
        if best is None or score < best[0]:
            best = (score, block)
        if score[:6] == (0, 0, 0, 0, 0, -int(CLEAR_AIR // 4)):
            break
    assert best is not None
    return best
