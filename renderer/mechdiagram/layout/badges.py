"""Step badges of the poster: the whole scenario at a glance.

The poster (the still that reduced motion, non-browser renderers and the gallery show) numbers
the story on the figure itself: every box a step highlights carries a small badge with the
numbers of those steps (``2``, ``3–5``, ``1, 4``), and a step that highlights only paths puts its
badge on the first such path.  Badges are placed at a box corner or on a route, clear of other
boxes, arrowheads, path labels, lane headers and each other where a free place exists (a path's badge has
places along its route, its longest run's middle first, and a box's badge four corners).
"""

from __future__ import annotations

from collections.abc import Sequence

from mechdiagram.layout.geometry import Arrow, Badge, Box, Point, Rect
from mechdiagram.layout.measure import text_width
from mechdiagram.layout.sizes import BADGE_HEIGHT, BADGE_PAD, PATH_LABEL_SIZE
from mechdiagram.shared.model import Scenario


def step_numbers(steps: list[int]) -> str:
    """Sorted 1-based step numbers as text, runs of three or more joined: ``[1, 2, 3, 5]`` → ``1–3, 5``."""
    parts: list[str] = []
    run: list[int] = []
    for n in sorted(set(steps)) + [0]:
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            parts.append(f"{run[0]}–{run[-1]}" if len(run) >= 3 else ", ".join(str(k) for k in run))
        run = [n]
    return ", ".join(parts)


def _free(rect: Rect, obstacles: list[Rect], placed: list[Rect], segments: list[tuple[Point, Point]]) -> bool:
    return (not any(rect.overlaps(o) for o in obstacles) and not any(rect.overlaps(b) for b in placed)
            and not any(rect.crossed_by(a, b) for a, b in segments))


#: Where along a route's segment its path's badge may sit, in order: its middle, then a quarter from either end.
BADGE_FRACTIONS = (0.5, 0.25, 0.75)


def _route_places(arrow: Arrow) -> list[tuple[float, float]]:
    """The places a path's badge may take on its route: on its segments, longest first, at each of
    :data:`BADGE_FRACTIONS` (the longest one's middle first, as before; a badge there covered the path's own label,
    "SSA IR" in a new user's compiler pipeline, where a quarter along the same run was free)."""
    pairs = sorted(zip(arrow.points, arrow.points[1:], strict=False),
                   key=lambda s: -(abs(s[1][0] - s[0][0]) + abs(s[1][1] - s[0][1])))
    return [(x0 + (x1 - x0) * f, y0 + (y1 - y0) * f) for (x0, y0), (x1, y1) in pairs for f in BADGE_FRACTIONS]


def place_badges(scenario: Scenario, boxes: dict[str, Box], arrows: dict[str, Arrow],
                 obstacles: list[Rect], names: Sequence[Rect] = ()) -> tuple[Badge, ...]:
    """Badges of ``scenario``'s steps (see the module docstring), in drawing order.

    ``obstacles`` are the rectangles a badge should not cover besides boxes (path-label blocks,
    lane headers).  A badge that finds no free place takes the first candidate place that covers no
    other box, arrowhead, badge or text of ``names`` (the lane names: a route or a path label may then pass
    under it), else its first one.
    """
    heads = [a.head_box for a in arrows.values()]
    on_box: dict[str, list[int]] = {}
    on_path: dict[str, list[int]] = {}
    for number, step in enumerate(scenario.steps, start=1):
        shown = [key for key in step.active if key in boxes]
        for key in shown:
            on_box.setdefault(key, []).append(number)
        if not shown:
            first = next((key for key in step.paths if key in arrows), None)
            if first is not None:
                on_path.setdefault(first, []).append(number)
    placed: list[Rect] = []
    badges: list[Badge] = []
    # A path's badge has few places, on its route: placed first, so that no box's badge takes them.
    for key, numbers in [*on_path.items(), *on_box.items()]:
        text = step_numbers(numbers)
        w = max(BADGE_HEIGHT, text_width(text, PATH_LABEL_SIZE) + 2 * BADGE_PAD)
        if key in boxes:
            box = boxes[key]
            others = [b for k, b in boxes.items() if k != key]
            top, bottom = box.y - 2, box.bottom + 2  # mostly outside the box, clear of its text
            centres = [(box.x + w / 2 + 4, top), (box.right - w / 2 - 4, top),
                       (box.x + w / 2 + 4, bottom), (box.right - w / 2 - 4, bottom)]
            segments = [seg for a in arrows.values() for seg in zip(a.points, a.points[1:], strict=False)]
        else:
            others = list(boxes.values())
            centres = _route_places(arrows[key])
            segments = [seg for k, a in arrows.items() if k != key for seg in zip(a.points, a.points[1:], strict=False)]
        candidates = [Rect(round(cx - w / 2, 1), round(cy - BADGE_HEIGHT / 2, 1), round(w, 1), BADGE_HEIGHT)
                      for cx, cy in centres]
        rect = next((c for c in candidates if _free(c, [*others, *heads, *obstacles], placed, segments)),
                    next((c for c in candidates if _free(c, [*others, *heads, *names], placed, [])), candidates[0]))
        placed.append(rect)
        badges.append(Badge(rect.x, rect.y, rect.w, rect.h, key, text))
    return tuple(badges)
