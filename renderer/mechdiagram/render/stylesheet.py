"""The style sheets of an SVG drawing, from the templates ``svg.css`` (the motion: one ``@keyframes`` rule
per step's panel heading, per panel value, per highlight and per highlighted box's label, from
:class:`mechdiagram.render.timeline.Timeline`, with the reduced-motion still) and ``svg-colours.css`` (the colour
rules of an SVG inlined in HTML, whose colours follow the page's colour scheme and custom properties).

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
from mechdiagram.render.timeline import Stop, Timeline

if TYPE_CHECKING:
    from jinja2 import Template


class _Frame(Struct, frozen=True):
    """A step's panel heading in ``svg.css``: its number (from 1) and its keyframes ``[(percent, shown, "")]``.
    (Attributes, not dict keys: jinja2 looks an attribute up first, and a dict's failure costs more.)"""

    number: int
    stops: list[Stop]


class _Shown(Struct, frozen=True):
    """A highlight in ``svg.css``: its index, the steps (from 1) that show it and its keyframes."""

    index: int
    steps: tuple[int, ...]
    stops: list[Stop]


class _Lit(Struct, frozen=True):
    """The label of the box of highlight ``index`` in ``svg.css``: its keyframes ``[(percent, fill, weight)]``
    (fills as palette placeholders, :func:`colour_token`), switched at the step boundaries."""

    index: int
    stops: list[tuple[str, str, int]]


class _Value(Struct, frozen=True):
    """A state-panel value in ``svg.css``: its index and its keyframes ``[(percent, shown, "")]``."""

    index: int
    stops: list[Stop]


def colour_token(field: str) -> str:
    """The placeholder of palette field ``field`` in a motion sheet: the drawing's colouring
    (:mod:`mechdiagram.render.svg`) puts the colour of each file's scheme, or the custom property of an inline
    drawing, in its place."""
    return f"\x01{field}\x01"


def motion_sheet(prefix: str, durations: tuple[int, ...], highlights: tuple[tuple[int, ...], ...],
                 lit: tuple[tuple[int, str], ...] = (), values: tuple[tuple[int, ...], ...] = ()) -> str:
    """The motion of a drawing with ``prefix`` (``svg.css``, the package's or a site's), steps of ``durations``
    (ms), highlights shown in the steps of each of ``highlights``, the labels of highlighted boxes ``lit`` as
    (highlight index, palette field of the label's own fill) and state-panel values shown in the steps of each of
    ``values``; the wide and narrow layouts of a scenario, and its standalone and inline forms, share it.
    Colours are placeholders (:func:`colour_token`), put in by the caller."""
    return _motion_sheet(template("svg.css"), prefix, durations, highlights, lit, values)


@lru_cache(maxsize=64)
def _motion_sheet(sheet: Template, prefix: str, durations: tuple[int, ...],
                  highlights: tuple[tuple[int, ...], ...], lit: tuple[tuple[int, str], ...],
                  values: tuple[tuple[int, ...], ...]) -> str:
    """:func:`motion_sheet` rendered from ``sheet``: a site's template, or an edited one, is another key."""
    timeline = Timeline.from_durations(list(durations))
    count = len(durations)
    numbers = range(1, count + 1)
    frames = [_Frame(w.index + 1, timeline.step_stops([k == w.index + 1 for k in numbers])) for w in timeline.windows]
    shown = [_Shown(i, steps, timeline.highlight_stops([k in steps for k in numbers]))
             for i, steps in enumerate(highlights)]
    labels = []
    for index, base in lit:
        on = [k in highlights[index] for k in numbers]
        labels.append(_Lit(index, [(at, colour_token("active_text" if value else base), 700 if value else 400)
                                   for at, value, _ in timeline.step_stops(on)]))
    shown_values = [_Value(j, timeline.step_stops([k in steps for k in numbers])) for j, steps in enumerate(values)]
    return sheet.render(prefix=prefix, frames=frames, highlights=shown, labels=labels, values=shown_values,
                        steps=numbers, total=timeline.total, ease=timeline.ease_ms,
                        active_text=colour_token("active_text"))


#: Stands for the prefix in the colour rules rendered once (:func:`_colour_rules_of`); a control character
#: that neither a prefix nor the palette holds.
_PREFIX_MARK = "\x02"


def colour_sheet(prefix: str, sequence: bool = False, changes: bool = False, groups: bool = False,
                 marks: bool = False) -> str:
    """The colour rules that go before the motion of a drawing with ``prefix`` inlined in HTML
    (``svg-colours.css``): its colours follow the page's colour scheme.  A ``sequence`` drawing's also colour the
    sequence view's own roles (:data:`~mechdiagram.render.paint.SEQUENCE_STYLES`), one whose panel marks
    ``changes`` the changed values' (:data:`~mechdiagram.render.paint.CHANGE_STYLES`), one with ``groups`` the
    groups' (:data:`~mechdiagram.render.paint.GROUP_STYLES`), and one with ``marks`` the marks'
    (:data:`~mechdiagram.render.paint.MARK_STYLES`, with the marks' colours as custom properties)."""
    return _colour_rules_of(template("svg-colours.css"), sequence, changes, groups, marks).replace(_PREFIX_MARK, prefix)


def _mark_properties(palette: theme.Palette) -> list[tuple[str, str]]:
    """The marks' colours that go with ``palette`` as custom properties: ``[("--mech-mark-new", "#1a7f37"), …]``."""
    return [(f"--mech-{name.replace('_', '-')}", value) for name, value in theme.mark_colours(palette).items()]


@lru_cache(maxsize=8)
def _colour_rules_of(sheet: Template, sequence: bool = False, changes: bool = False, groups: bool = False,
                     marks: bool = False) -> str:
    """``sheet`` (``svg-colours.css``, the package's or a site's) rendered once, with :data:`_PREFIX_MARK` for the
    prefix: the rules are the same for every drawing of a view but for their prefix."""
    light, dark = theme.LIGHT.custom_properties(), theme.DARK.custom_properties()
    if marks:
        light, dark = light + _mark_properties(theme.LIGHT), dark + _mark_properties(theme.DARK)
    return sheet.render(
        prefix=_PREFIX_MARK, light=light, dark=dark,
        colours=colour_rules(sequence, changes, groups, marks),
        font=Markup(theme.FONT_FAMILY))  # our constant, with quotes autoescaping would mangle
