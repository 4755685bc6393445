"""The style sheets of an SVG drawing, from the templates ``svg.css`` (the motion: one ``@keyframes`` rule
per step's panel text and per highlight, from :class:`mechdiagram.render.timeline.Timeline`, with the reduced-motion
still) and ``svg-colours.css`` (the colour rules of an SVG inlined in HTML, whose colours follow the
page's colour scheme and custom properties).

Both are rendered through the one jinja2 environment (:mod:`mechdiagram.render.templating`, autoescape on), each
once per distinct input: the wide and narrow layouts of a scenario, and its standalone and inline forms,
share them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from markupsafe import Markup
from msgspec import Struct

from mechdiagram.render import theme
from mechdiagram.render.paint import colour_rules
from mechdiagram.render.templating import template
from mechdiagram.render.timeline import Timeline

if TYPE_CHECKING:
    from jinja2 import Template


class _Frame(Struct, frozen=True):
    """A step's panel text in ``svg.css``: its number (from 1) and its keyframes ``[(percent, opacity)]``.
    (Attributes, not dict keys: jinja2 looks an attribute up first, and a dict's failure costs more.)"""

    number: int
    stops: list[tuple[str, int]]


class _Shown(Struct, frozen=True):
    """A highlight in ``svg.css``: its index, the steps (from 1) that show it and its keyframes."""

    index: int
    steps: tuple[int, ...]
    stops: list[tuple[str, int]]


def motion_sheet(prefix: str, durations: tuple[int, ...], highlights: tuple[tuple[int, ...], ...]) -> str:
    """The motion of a drawing with ``prefix`` (``svg.css``, the package's or a site's), steps of ``durations``
    (ms) and highlights shown in the steps of each of ``highlights``; the wide and narrow layouts of a
    scenario, and its standalone and inline forms, share it."""
    return _motion_sheet(template("svg.css"), prefix, durations, highlights)


@lru_cache(maxsize=64)
def _motion_sheet(sheet: Template, prefix: str, durations: tuple[int, ...],
                  highlights: tuple[tuple[int, ...], ...]) -> str:
    """:func:`motion_sheet` rendered from ``sheet``: a site's template, or an edited one, is another key."""
    timeline = Timeline.from_durations(list(durations))
    count = len(durations)
    frames = [_Frame(w.index + 1, timeline.text_stops(w)) for w in timeline.windows]
    shown = [_Shown(i, steps, timeline.highlight_stops([k in steps for k in range(1, count + 1)]))
             for i, steps in enumerate(highlights)]
    return sheet.render(prefix=prefix, frames=frames, highlights=shown, steps=range(1, count + 1),
                        total=timeline.total, ease=timeline.ease_ms)


#: Stands for the prefix in the colour rules rendered once (:func:`_colour_rules_of`); a control character
#: that neither a prefix nor the palette holds.
_PREFIX_MARK = "\x02"


def colour_sheet(prefix: str, sequence: bool = False) -> str:
    """The colour rules that go before the motion of a drawing with ``prefix`` inlined in HTML
    (``svg-colours.css``): its colours follow the page's colour scheme.  A ``sequence`` drawing's also colour the
    sequence view's own roles (:data:`~mechdiagram.render.paint.SEQUENCE_STYLES`)."""
    return _colour_rules_of(template("svg-colours.css"), sequence).replace(_PREFIX_MARK, prefix)


@lru_cache(maxsize=4)
def _colour_rules_of(sheet: Template, sequence: bool = False) -> str:
    """``sheet`` (``svg-colours.css``, the package's or a site's) rendered once, with :data:`_PREFIX_MARK` for the
    prefix: the rules are the same for every drawing of a view but for their prefix."""
    return sheet.render(
        prefix=_PREFIX_MARK, light=theme.LIGHT.custom_properties(), dark=theme.DARK.custom_properties(),
        colours=colour_rules(sequence),
        font=Markup(theme.FONT_FAMILY))  # our constant, with quotes autoescaping would mangle
