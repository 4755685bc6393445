"""How each kind of SVG element is painted: one table for the presentation attributes of every
still and the colour rules of the style sheet.

Every element the drawing stage writes has one or two *roles* (``node``, then ``node-on`` for a
highlighted box).  :data:`STYLES` gives each role's paint; a value starting with ``@`` names a
field of :class:`mechdiagram.render.theme.Palette`.  The drawing writes the merged paint of an element's
roles as presentation attributes, so any SVG renderer (librsvg, resvg, CairoSVG, a browser) draws
the same colours, fonts and strokes without CSS.  The style sheet of an SVG inlined in HTML
repeats the colour properties as ``var(--mech-…)`` rules, which a browser applies over the
attributes (CSS beats presentation attributes), so the page's colour scheme and its overrides
reach the figure.
"""

from __future__ import annotations

from functools import cache

from mechdiagram.layout.sizes import FONT_SIZE, PATH_LABEL_SIZE, TITLE_SIZE
from mechdiagram.render import theme


def _size(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


_DASH = "5 4"  # the dash pattern of "not used in this scenario" (unselected)
_REPLY_DASH = "7 4"  # a reply in the sequence view (UML's dashed return message): longer dashes, its own colour
_LABEL = _size(FONT_SIZE)
_SMALL = _size(PATH_LABEL_SIZE)

#: Font stack of every figure (presentation attribute): DejaVu Sans first, the font the measurements come from.
FONT_FAMILY = theme.FONT_FAMILY

#: Paint of each role.  Lengths are SVG user units.  Order matters: a variant role follows its base.
STYLES: dict[str, dict[str, str]] = {
    "bg": {"fill": "@bg"},
    "band": {"fill": "@lane_fill"},
    "lane": {"fill": "@muted", "font-size": _LABEL, "font-weight": "700"},
    # A column's header (layout.columns): a lane name's colour and size, regular and centred over its column (a
    # variant of "lane", with no colour of its own, so the style sheet has no rule for it).
    "colhead": {"font-weight": "400", "text-anchor": "middle"},
    "node": {"fill": "@node_fill", "stroke": "@node_stroke", "stroke-width": "1.5"},
    "node-dim": {"fill": "@bg", "stroke": "@dim_stroke", "stroke-dasharray": _DASH},
    "node-on": {"fill": "@active_fill", "stroke": "@active_stroke", "stroke-width": "3"},
    "ring": {"fill": "none", "stroke": "@active_stroke", "stroke-width": "2"},
    "label": {"fill": "@text", "font-size": _LABEL, "text-anchor": "middle"},
    "label-dim": {"fill": "@muted"},
    "label-on": {"fill": "@active_text", "font-weight": "700"},
    "path": {"fill": "none", "stroke": "@path", "stroke-width": "1.5"},
    "path-dim": {"stroke": "@dim_stroke", "stroke-dasharray": _DASH},
    # The time axis of a proportional grid and its ticks: a thin "path" (its break marks are "path" alone).
    "axis": {"stroke-width": "1"},
    "head": {"fill": "@path"},
    "head-dim": {"fill": "@dim_stroke"},
    "flow": {"fill": "none", "stroke": "@active_path", "stroke-width": "3", "stroke-linejoin": "round"},
    "head-on": {"fill": "@active_path"},
    "dot": {"fill": "@active_path", "stroke": "@bg", "stroke-width": "2"},
    # An arrow label over its halo: the halo is a text of its own, drawn just before the label, rather than
    # the label's stroke under paint-order: stroke, which CairoSVG ignores (Kozea/CairoSVG#218), painting
    # the halo over the label.  Browsers, librsvg and resvg draw it as they drew paint-order (measured:
    # README, "Pictures").
    "halo": {"fill": "none", "font-size": _SMALL, "stroke": "@bg", "stroke-width": "4", "stroke-linejoin": "round"},
    # A label on a lane's band: its halo is the band's colour (the page's made a dark patch on a dark band).
    "halo-band": {"stroke": "@lane_fill"},
    "halo-dim": {"font-style": "italic"},
    "plabel": {"fill": "@muted", "font-size": _SMALL},
    # The label of a path the scenario does not use (dashed): italic, as its colour is already the muted one.
    "plabel-dim": {"font-style": "italic"},
    # A label of the time axis: a path label's colour and size, centred under its tick.
    "tick": {"text-anchor": "middle"},
    "badge": {"fill": "@bg", "stroke": "@active_stroke", "stroke-width": "1.5"},
    "badge-text": {"fill": "@active_stroke", "font-size": _SMALL, "font-weight": "700", "text-anchor": "middle"},
    "panel": {"fill": "@panel_fill", "stroke": "@node_stroke", "stroke-width": "1"},
    "ptitle": {"fill": "@text", "font-size": _size(TITLE_SIZE), "font-weight": "700"},
    "pkey": {"fill": "@text", "font-size": _LABEL, "font-weight": "700"},
    "pval": {"fill": "@text", "font-size": _LABEL},
    # A code label (a node's or a path's, "text": "code"): the monospace face its lines were measured in.
    "code": {"font-family": theme.CODE_FONT_FAMILY},
}


#: Paint of the roles only the sequence view draws (:mod:`mechdiagram.layout.sequence`): lifelines (faint below the
#: rows drawn so far: each row's layers draw them over the row), activation
#: bars, replies (dashed, with an open head), a message's label in its own step and its halo, and a row's number in
#: the steps after it.  Kept apart from :data:`STYLES` so that the colour rules of other drawings stay as they were
#: (:func:`colour_rules`); each variant role follows its base, here or in :data:`STYLES`.
SEQUENCE_STYLES: dict[str, dict[str, str]] = {
    "lifeline": {"fill": "none", "stroke": "@node_stroke", "stroke-width": "1"},
    "lifeline-dim": {"stroke": "@dim_stroke", "stroke-dasharray": _DASH},
    "lifeline-ahead": {"stroke-opacity": "0.35"},
    "bar": {"fill": "@node_fill", "stroke": "@node_stroke", "stroke-width": "1"},
    "bar-on": {"fill": "@active_fill", "stroke": "@active_stroke"},
    "reply": {"stroke-dasharray": _REPLY_DASH},
    "open": {"fill": "none", "stroke": "@path", "stroke-width": "1.5", "stroke-linejoin": "miter"},
    "open-dim": {"stroke": "@dim_stroke"},
    "open-on": {"stroke": "@active_path", "stroke-width": "2.5"},
    "plabel-on": {"fill": "@text", "font-weight": "700"},
    "halo-on": {"stroke": "@lane_fill", "font-weight": "700"},
    "rownum": {"fill": "@muted", "font-size": _SMALL, "text-anchor": "middle"},
}

#: Every role's paint.
ALL_STYLES = {**STYLES, **SEQUENCE_STYLES}

#: The drawing's smallest font size, in user units (path labels and step badges): what decides how far a
#: drawing may shrink before some text falls below :data:`~mechdiagram.layout.sizes.MIN_TEXT_PX` CSS px.
SMALLEST_TEXT = min(float(paint["font-size"]) for paint in ALL_STYLES.values() if "font-size" in paint)


def _custom_property(field: str) -> str:
    return f"--mech-{field.replace('_', '-')}"


@cache
def attributes(roles: tuple[str, ...], palette: theme.Palette) -> dict[str, str]:
    """The presentation attributes of an element with ``roles`` (base role first), colours from
    ``palette``.  Raises ``KeyError`` for a role :data:`ALL_STYLES` does not have (a programming error)."""
    merged: dict[str, str] = {}
    for role in roles:
        merged.update(ALL_STYLES[role])
    return {name: getattr(palette, value[1:]) if value.startswith("@") else value
            for name, value in merged.items()}


def colour_rules(sequence: bool = False) -> list[tuple[str, list[tuple[str, str]]]]:
    """``[(role, [(property, "--mech-…"), …]), …]``: the colour properties of each role as custom
    properties, in :data:`STYLES` order (then :data:`SEQUENCE_STYLES`' for a ``sequence`` drawing), for the style
    sheet of an SVG inlined in HTML."""
    rules = []
    for role, paint in (ALL_STYLES if sequence else STYLES).items():
        colours = [(name, _custom_property(value[1:])) for name, value in paint.items() if value.startswith("@")]
        if colours:
            rules.append((role, colours))
    return rules
