"""Ports: where a route meets a box, on which side and how far along it.

Each route uses the sides of its two boxes that face each other (:func:`facing`); the routes that
share a side are spread along it, in the order of where they go, so that two opposite paths between
the same boxes run apart, and a port alone on its side lines up with the other end
(:func:`port_fractions`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from msgspec import Struct

from mechdiagram.layout.geometry import Box, Point, Rect
from mechdiagram.layout.sizes import PORT_PITCH, PORT_SPREAD, PORT_SPREAD_TWO

#: Sides of a box and their outward unit normals.
SIDES: dict[str, tuple[int, int]] = {"right": (1, 0), "left": (-1, 0), "bottom": (0, 1), "top": (0, -1)}


class PathEnds(Struct, frozen=True):
    """A path to route: its key and the keys of its source and target boxes."""

    key: str
    source: str
    dest: str


def port(box: Rect, side: str, fraction: float = 0.5) -> Point:
    """The point ``fraction`` of the way along ``side`` of ``box`` (from its top or left end)."""
    if side in ("left", "right"):
        return (box.x if side == "left" else box.right, box.y + box.h * fraction)
    return (box.x + box.w * fraction, box.y if side == "top" else box.bottom)


def out(point: Point, side: str, distance: float) -> Point:
    """``point`` moved ``distance`` outwards from ``side``."""
    nx, ny = SIDES[side]
    return (point[0] + nx * distance, point[1] + ny * distance)


def side_cost(box: Rect, other: Rect, side: str) -> float:
    """0 for the side that faces ``other`` along the axis they are furthest apart on, more otherwise."""
    dx, dy = other.cx - box.cx, other.cy - box.cy
    facing = ("right" if dx >= 0 else "left") if abs(dx) >= abs(dy) else ("bottom" if dy >= 0 else "top")
    if side == facing:
        return 0.0
    opposite = {"right": "left", "left": "right", "top": "bottom", "bottom": "top"}[facing]
    return 120.0 if side == opposite else 30.0


def port_fractions(boxes: dict[str, Box], paths: Sequence[PathEnds],
                    sides: dict[str, tuple[str, str]]) -> dict[tuple[str, str], float]:
    """Where each route meets its box, as a fraction along the side, by (path key, "source" or "dest"):
    the routes on one side share it out, ordered by where they go; a port alone on its side lines up
    with the other end's port, so that the route runs straight."""
    users: dict[tuple[str, str], list[tuple[float, float, str, str]]] = {}
    for p in paths:
        out_side, in_side = sides[p.key]
        # Routes to one box are ordered by where they meet it (the middle of the side each uses), so that they
        # nest instead of crossing: one into its left side above one out of its bottom.
        users.setdefault((p.source, out_side), []).append(
            (_along(out_side, boxes[p.dest]), _toward(out_side, port(boxes[p.dest], in_side)), p.key, "source"))
        users.setdefault((p.dest, in_side), []).append(
            (_along(in_side, boxes[p.source]), _toward(in_side, port(boxes[p.source], out_side)), p.key, "dest"))
    fractions: dict[tuple[str, str], float] = {}
    for items in users.values():
        items.sort()
        for n, (_, _, key, end) in enumerate(items):
            # Spread over the middle half of the side, or 70 % of it for three or more, so that labels of
            # routes side by side have room between them.
            spread = PORT_SPREAD_TWO if len(items) <= 2 else PORT_SPREAD
            fractions[(key, end)] = 0.5 if len(items) == 1 else 0.5 - spread / 2 + spread * n / (len(items) - 1)
    for p in paths:
        out_side, in_side = sides[p.key]
        if {out_side, in_side} not in ({"left", "right"}, {"top", "bottom"}):
            continue
        for end, owner, side, other, other_end, other_side in (
                ("dest", p.dest, in_side, p.source, "source", out_side),
                ("source", p.source, out_side, p.dest, "dest", in_side)):
            if len(users[(owner, side)]) != 1:
                continue
            there = port(boxes[other], other_side, fractions[(p.key, other_end)])
            alone = boxes[owner]
            low, size = (alone.y, alone.h) if side in ("left", "right") else (alone.x, alone.w)
            fraction = (there[1 if side in ("left", "right") else 0] - low) / size
            if 0.15 <= fraction <= 0.85:
                fractions[(p.key, end)] = fraction
            break
    return fractions


def ports_length(count: int) -> float:
    """The length of a box side that ``count`` ports share :data:`~mechdiagram.layout.sizes.PORT_PITCH` apart
    (spread over PORT_SPREAD of it, or PORT_SPREAD_TWO for two: :func:`port_fractions`)."""
    if count < 2:
        return 0.0
    return math.ceil((count - 1) * PORT_PITCH / (PORT_SPREAD_TWO if count == 2 else PORT_SPREAD))


def port_room(boxes: dict[str, Box], paths: Sequence[PathEnds],
              flow: str | None = None) -> dict[str, tuple[float, float]]:
    """The boxes too small for their ports: by key, the least height and width that give the routes on each of
    its sides (:func:`end_sides` in a layout flowing ``flow``) PORT_PITCH between their ports."""
    counts: dict[tuple[str, str], int] = {}
    for p in paths:
        out_side, in_side = end_sides(boxes[p.source], boxes[p.dest], flow)
        for key, side in ((p.source, out_side), (p.dest, in_side)):
            counts[(key, side)] = counts.get((key, side), 0) + 1
    room: dict[str, tuple[float, float]] = {}
    for key, box in boxes.items():
        height = ports_length(max(counts.get((key, "left"), 0), counts.get((key, "right"), 0)))
        width = ports_length(max(counts.get((key, "top"), 0), counts.get((key, "bottom"), 0)))
        if height > box.h or width > box.w:
            room[key] = (height, width)
    return room


#: The sides an arrow with the flow of a layered layout leaves and enters by (ELK Layered's, dagre's): the
#: next layer's side, whatever the rows between them, so that a fan-out leaves one side as a fan.
FLOW_SIDES = {"right": ("right", "left"), "down": ("bottom", "top")}


def end_sides(source: Rect, dest: Rect, flow: str | None = None) -> tuple[str, str]:
    """The sides a route leaves ``source`` and enters ``dest`` by: in a layered layout flowing ``flow`` (``"right"``
    or ``"down"``), an arrow to a later layer takes :data:`FLOW_SIDES`; any other the sides that face each other
    (:func:`facing`)."""
    if (flow == "right" and dest.x >= source.right) or (flow == "down" and dest.y >= source.bottom):
        return FLOW_SIDES[flow]
    return facing(source, dest)


def facing(source: Rect, dest: Rect) -> tuple[str, str]:
    """The sides of ``source`` and ``dest`` that face each other (see :func:`side_cost`)."""
    return (min(SIDES, key=lambda side: side_cost(source, dest, side)),
            min(SIDES, key=lambda side: side_cost(dest, source, side)))


def _toward(side: str, point: Point) -> float:
    """Where ``point`` lies along ``side``'s direction."""
    return point[1] if side in ("left", "right") else point[0]


def _along(side: str, other: Rect) -> float:
    """Where ``other`` lies along ``side``'s direction: routes to boxes further along go further along."""
    return other.cy if side in ("left", "right") else other.cx
