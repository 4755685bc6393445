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

#: Paint of the roles only a figure whose panel marks a changed value draws: a state value the step changes, bold
#: in the active colour beside a diamond (``pmark``), so that the change is told by a shape and the weight as well
#: as the colour (WCAG 2.2 SC 1.4.1).  Kept apart from :data:`STYLES`, as :data:`SEQUENCE_STYLES` is, so that a
#: drawing whose panel never changes has none of its rules.
CHANGE_STYLES: dict[str, dict[str, str]] = {
    "pval-on": {"fill": "@active_stroke", "font-weight": "700"},
    "pmark": {"fill": "@active_stroke"},
}

#: Paint of the roles only a figure with groups draws (the spec's ``groups``): the enclosure, tinted as a lane's band
#: with a thin frame, its label (a lane name's colour and weight, a path label's size), and the frame of an active
#: group (a highlighted box's stroke).  Kept apart, as :data:`SEQUENCE_STYLES` are, so that the colour rules of
#: figures without groups stay as they were.
GROUP_STYLES: dict[str, dict[str, str]] = {
    "group": {"fill": "@lane_fill", "stroke": "@node_stroke", "stroke-width": "1"},
    "group-label": {"fill": "@muted", "font-size": _SMALL, "font-weight": "700"},
    "group-on": {"fill": "none", "stroke": "@active_stroke", "stroke-width": "3"},
}

#: Paint of the roles of marks (a step's ``marks``): a mark's disc in its colour, ringed in the background's so that
#: it stands clear of what it sits on; the symbol on it in the background's colour; a lost message's cross; a legend
#: entry's words.  Kept apart from :data:`STYLES`, as :data:`SEQUENCE_STYLES` is, so that a drawing without marks
#: keeps its colour rules.
MARK_STYLES: dict[str, dict[str, str]] = {
    **{f"mk-{mark}": {"fill": f"@{theme.mark_field(mark)}", "stroke": "@bg", "stroke-width": "2"}
       for mark in theme.MARK_COLOURS},
    "mk-sym": {"fill": "none", "stroke": "@bg", "stroke-width": "2", "stroke-linecap": "round",
               "stroke-linejoin": "round"},
    "mk-cross": {"fill": "none", "stroke": "@path", "stroke-width": "2.5", "stroke-linecap": "round"},
    **{f"mk-cross-{mark}": {"stroke": f"@{theme.mark_field(mark)}", "stroke-width": "3"}
       for mark in theme.MARK_COLOURS},
    "legend": {"fill": "@text", "font-size": _SMALL},
}

#: Every role's paint.
ALL_STYLES = {**STYLES, **SEQUENCE_STYLES, **CHANGE_STYLES, **GROUP_STYLES, **MARK_STYLES}

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
    return {name: _colour(palette, value[1:]) if value.startswith("@") else value
            for name, value in merged.items()}


def _colour(palette: theme.Palette, field: str) -> str:
    """``palette``'s colour ``field``; a mark's colour, which no palette holds, as its placeholder (the drawing's
    colouring puts each scheme's in: :func:`mechdiagram.render.theme.mark_colours`)."""
    return str(getattr(palette, field)) if hasattr(palette, field) else f"\x01{field}\x01"


def colour_rules(sequence: bool = False, changes: bool = False, groups: bool = False,
                 marks: bool = False) -> list[tuple[str, list[tuple[str, str]]]]:
    """``[(role, [(property, "--mech-…"), …]), …]``: the colour properties of each role as custom
    properties, in :data:`STYLES` order (then :data:`SEQUENCE_STYLES`' for a ``sequence`` drawing,
    :data:`CHANGE_STYLES`' for a drawing whose panel marks ``changes``, :data:`GROUP_STYLES`' for one with
    ``groups``, and :data:`MARK_STYLES`' for one with ``marks``), for the style sheet of an SVG inlined in HTML."""
    rules = []
    styles = {**STYLES, **(SEQUENCE_STYLES if sequence else {}), **(CHANGE_STYLES if changes else {}),
              **(GROUP_STYLES if groups else {}), **(MARK_STYLES if marks else {})}
    for role, paint in styles.items():
        colours = [(name, _custom_property(value[1:])) for name, value in paint.items() if value.startswith("@")]
        if colours:
            rules.append((role, colours))
    return rules
