"""Stage 6, HTML: the accessible figure with its step player, as a page and a fragment, and the player's files.

Templates are package data rendered by jinja2 with autoescaping on, so every
text an author wrote is escaped; the player's data travels as JSON in a single-quoted attribute of the figure,
through jinja2's ``tojson`` filter (which escapes ``<``, ``>``, ``&`` and ``'``, so that the JSON cannot end the
attribute).  The player is one ES module, ``static/player.js``, which defines the
``<mech-diagram>`` custom element, with one style sheet, ``templates/player.css``, the same for every figure.
The fragment names both (:func:`player_files`: content-hashed names, at the site's
:attr:`~mechdiagram.shared.config.Embedding.player_url`), which a build writes once to its output folder; the
standalone page inlines both, makes no network request, and carries a Content Security Policy whose
``script-src`` admits only the player module, by its SHA-256.
Every word the figure adds is a message of :mod:`mechdiagram.shared.locale` in the spec's
language; the player script holds none.
"""

from __future__ import annotations

import base64
import hashlib
import math
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypedDict

from markupsafe import Markup
from msgspec import Struct

from mechdiagram.layout.marks import MARK_WORDS
from mechdiagram.layout.sizes import FILL_SHARE, GROWTH, MIN_TEXT_PX, NARROW_GROWTH, TRANSPOSED_MAX_WIDTH
from mechdiagram.render import theme
from mechdiagram.render.explore import grid, step_states, structure
from mechdiagram.render.paint import SMALLEST_TEXT
from mechdiagram.render.svg import fmt
from mechdiagram.render.templating import template
from mechdiagram.render.timeline import Timeline
from mechdiagram.shared.assets import static_text
from mechdiagram.shared.config import Embedding
from mechdiagram.shared.locale import Words, direction, primary, words_for
from mechdiagram.shared.model import Scenario, Spec, Step
from mechdiagram.spec.provenance import SourceCheck

if TYPE_CHECKING:
    from jinja2 import Template

#: The message key (:mod:`mechdiagram.shared.locale`) of each source status as listed under the figure.
SOURCE_STATUS_KEY = {"verified": "sourceVerified", "unpinned": "sourceUnpinned", "unverified": "sourceUnverified"}

#: The player's words that its script needs (it explains a reduced-motion pause); the others are in the markup.
PLAYER_WORDS = ("reducedMotion",)

#: The explorer's words that change with the step (what an item says of it) and the phrase that joins them.
EXPLORER_WORDS = ("exploreActive", "exploreInactive", "exploreUsed", "exploreUnused", "exploreJoin")


def _csp_hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


#: The player files' names: ``mechdiagram-player.HASH.js`` and ``.css``.
PLAYER_STEM = "mechdiagram-player"

#: Hexadecimal digits of a player file's SHA-256 in its name: a changed file gets a new name, so a site can serve
#: it with a long cache lifetime.
PLAYER_HASH_DIGITS = 12


class PlayerFiles(Struct, frozen=True):
    """The player's two files, as the fragment names them and a build writes them to the output folder:
    the ES module (``js``, UTF-8 bytes) and its style sheet (``css``), each under a name holding
    :data:`PLAYER_HASH_DIGITS` hexadecimal digits of its SHA-256."""

    js_name: str
    js: bytes
    css_name: str
    css: bytes

    def files(self) -> dict[str, bytes]:
        """Both files by name."""
        return {self.js_name: self.js, self.css_name: self.css}


def _hashed(text: str, ending: str) -> tuple[str, bytes]:
    data = text.encode("utf-8")
    return f"{PLAYER_STEM}.{hashlib.sha256(data).hexdigest()[:PLAYER_HASH_DIGITS]}.{ending}", data


def player_files(embedding: Embedding) -> PlayerFiles:
    """The player module and its style sheet (``player.css`` of the current template folder,
    :func:`~mechdiagram.render.templating.template_dir`, with ``embedding``'s colour-mode selectors).
    Raises ``jinja2.TemplateError`` for a site's ``player.css`` that fails."""
    css = _player_css(template("player.css"), embedding.dark(), embedding.light())
    return PlayerFiles(*_hashed(static_text("player.js"), "js"), *_hashed(css, "css"))


def player_script_source() -> str:
    """The CSP source that admits the player module inlined (``'sha256-…'``), as the standalone page does."""
    return f"'{_csp_hash(static_text('player.js'))}'"


class StepContext(TypedDict):
    """One transcript entry and step tab: durations in ms; ``state`` as (label, value, changed) triples
    (``changed``: the step changes the row's value); ``relabels`` one phrase for each label the step changes
    (a step's ``labels``: message ``labelChanged`` with the text before and the text from this step on), as
    (text, author) pieces, the author's text to isolate; ``tab_name`` the
    step tab's accessible name and ``announcement`` what the live region says of the step (plain text, author
    text isolated); ``seconds`` the duration in the tool's words."""

    title: str
    tab_name: str
    announcement: str
    description: str
    duration: int
    seconds: str
    state: list[tuple[str, str, bool]]
    relabels: list[list[tuple[str, bool]]]
    groups: list[str]  # the step's active groups, each in the tool's words ("Highlighted group: …")
    marks: list[str]  # the step's marks in words: "page 7 (new)", in the order the step gives them


class LayoutContext(TypedDict):
    """One layout of a scenario's drawing as the figure inlines it: ``name`` (``wide``, ``middle``, ``narrow``) and the
    SVG (markup we generated)."""

    name: str
    svg: Markup
    min_width: str  # CSS px, as written: the SVG shrinks no further (its smallest text stays 12 px)
    max_width: str  # CSS px: nor does it grow past its own size
    strip: Markup  # a lane grid's names, held at the frame's left edge while the drawing scrolls ("" for none)
    strip_share: str  # the strip's width, in per cent of the drawing's
    heads: Markup  # a sequence's heads strip (svg.ScenarioSvgs.heads), kept in view over the drawing; else empty


class ScenarioContext(TypedDict):
    """One scenario: its layouts (the wide one first, the narrow one last) and its steps.  ``wide_from`` is the
    figure width (CSS px, as written) from which the wide layout is shown, the narrow one below it, or the
    middle one from ``middle_from`` and the upper middle one from ``upper_from`` ("" when it has none)."""

    id: str
    title: str
    description: str
    layouts: list[LayoutContext]
    wide_from: str
    middle_from: str
    upper_from: str
    steps: list[StepContext]
    timeline: list[dict[str, int]]
    ease: int  # ms a highlight eases between steps (Timeline.ease_ms): the player moves the picture half of it early


class SourceContext(TypedDict):
    """One provenance source as listed under the figure."""

    path: str
    description: str
    status: str
    status_text: str


class FigureContext(TypedDict):
    """The template context of ``fragment.html`` and ``page.html``."""

    root_id: str
    language: str
    direction: str  # "rtl" for right-to-left languages (HTML dir attribute), else "ltr"
    chrome_language: str | None  # the words' language when the catalogue has none for the spec's, else None
    words: dict[str, str]
    title: str
    description: str
    caption: str
    scenarios: list[ScenarioContext]
    limitations: list[str]
    sources: list[SourceContext]
    player_data: dict[str, Any]  # the player's data (the words it shows, the step windows), for its attribute
    player_js: Markup  # the player module, for the standalone page to inline
    player_css: Markup  # its style sheet, likewise
    player_js_url: str  # the module's URL for the fragment: the site's player URL and the file's hashed name
    player_css_url: str  # the style sheet's, likewise
    page_colours: dict[str, str]
    page_padding: str  # CSS length: the standalone page's space beside its content
    measure: str  # CSS length: the longest line of prose (theme.MEASURE), the page's summary and the caption
    csp: str
    figure: Markup  # figure.html rendered with this context: the figure, player and transcript
    fit_width: str  # CSS px: the figure's width where its container sizes to content (its narrowest layout's)


def _ui_colours() -> list[tuple[str, str, str]]:
    """The player's colour custom properties, (name, light, dark), from the one palette
    (:mod:`mechdiagram.render.theme`)."""
    roles = (("bg", "bg"), ("text", "text"), ("muted", "muted"), ("border", "node_stroke"),
             ("accent", "active_stroke"), ("focus", "active_stroke"))
    return [(f"--mech-ui-{role}", getattr(theme.LIGHT, field), getattr(theme.DARK, field)) for role, field in roles]


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".")


def _phrase(message: str, **values: str) -> list[tuple[str, bool]]:
    """``message`` in pieces ``(text, author)``: the tool's words, and each ``{name}`` filled from ``values``
    (``author`` True: the template isolates it in a ``<bdi>``); a name not given stays as it is written."""
    pieces: list[tuple[str, bool]] = []
    for i, part in enumerate(re.split(r"\{([A-Za-z]+)\}", message)):
        if i % 2 and part in values:
            pieces.append((values[part], True))
        elif part:
            pieces.append((part if i % 2 == 0 else "{" + part + "}", False))
    return pieces


def _steps(spec: Spec, scenario: Scenario, words: Words) -> list[StepContext]:
    """Each step's transcript entry and tab: its title, the labels it changes (``labelChanged``: the text before,
    the text from this step on) and the state, each row the step changes said so (``stateRowChanged``), as the
    panel marks it."""
    total = str(len(scenario.steps))
    steps: list[StepContext] = []
    before = scenario.initial
    shown: dict[str, str] = {}  # the labels changed so far, by target key
    for i, step in enumerate(scenario.steps):
        state = [(label, step.state.get(k, ""),
                  (step.state.get(k, "") or "–") != (before.get(k, "") or "–"))
                 for k, label in spec.state_labels.items()]
        before = step.state
        relabels = [(shown.get(key) or spec.targets[key].label or "", step.labels[key]) for key in step.relabelled]
        phrases = [_phrase(words["labelChanged"], label=old, value=new) for old, new in relabels]
        shown = dict(step.labels)
        sentences = [words.say("stepOf", n=str(i + 1), total=total, title=step.title)]
        # An active group is named in words (its frame's highlight alone would be lost on a screen reader).
        groups = [words.say("groupActive", label=spec.groups[key].label) for key in step.active if key in spec.groups]
        sentences += groups
        sentences += [words.say("labelChanged", label=old, value=new) for old, new in relabels]
        sentences += [words.say("stateRowChanged" if changed else "stateRow", label=label, value=value or "–")
                      for label, value, changed in state]
        marks = [words.say("marked", label=_target_name(spec, key, step), mark=words[MARK_WORDS[mark]])
                 for key, mark in step.marks.items() if key in spec.targets or key in spec.groups]
        sentences += marks
        steps.append({
            "title": step.title,
            "tab_name": words.say("stepTab", n=str(i + 1), title=step.title),
            "announcement": " ".join(words.say("sentence", text=text) for text in sentences),
            "description": step.description,
            "duration": step.duration,
            "seconds": words.say("duration", seconds=_seconds(step.duration)),
            "state": state,
            "relabels": phrases,
            "groups": groups,
            "marks": marks,
        })
    return steps


def _target_name(spec: Spec, key: str, step: Step) -> str:
    """What the transcript calls target or group ``key`` in ``step``: its label as the step shows it (a step's
    ``labels`` change it), else its key."""
    if key in spec.groups:
        return spec.groups[key].label
    return step.label_of(spec.targets[key]) or key


#: A figure at least this wide (CSS px) shows its wide layout even where the wide drawing needs more width for
#: 12 px text: the drawing then keeps that width and scrolls in its frame (a timeline of many columns on a
#: desktop screen reads better so than as the phone's one column of boxes).
WIDE_SCROLLS_FROM = 960.0



#: The figure widths at which a scene may change layouts are multiples of this (CSS px), so that one style sheet,
#: the same for every figure, holds every switch (:func:`switches`).
SWITCH_STEP = 16


#: A scene with an upper middle layout (``middle_diagram(spec, UPPER_WIDTH)``: a lane grid's, or the natural drawing
#: of a layered graph's spread wide one) shows its wide drawing
#: from the width at which its text is 12 px, or from this width when that is more (CSS px: the widest figure,
#: theme.MAX_WIDTH_REM): below it the upper middle layout fills the figure instead of the wide grid scrolling in it
#: (issue 26: six gallery grids scrolled from 960 to 1,058-1,214 px).
UPPER_SCROLLS_FROM = float(theme.MAX_WIDTH_REM * 16)


def wide_from(width: float, scrolls_from: float = WIDE_SCROLLS_FROM) -> float:
    """The figure width, in CSS px, from which a scene shows its wide drawing ``width`` user units wide: its
    :func:`readable_width` rounded up to a multiple of :data:`SWITCH_STEP` (its text is then a little larger than
    12 px, never smaller), or ``scrolls_from`` when that is less (:data:`WIDE_SCROLLS_FROM`;
    :data:`UPPER_SCROLLS_FROM` for a scene with an upper middle layout)."""
    return float(min(math.ceil(readable_width(width) / SWITCH_STEP) * SWITCH_STEP, scrolls_from))


def switches() -> list[str]:
    """Every width :func:`wide_from` can give up to :data:`WIDE_SCROLLS_FROM` (CSS px, as written), ascending: the
    container queries of ``player.css`` for every layout (a middle or an upper middle layout, at most
    :data:`~mechdiagram.layout.sizes.UPPER_WIDTH` wide, shows from under 740 px)."""
    return [fmt(float(at)) for at in range(SWITCH_STEP, int(WIDE_SCROLLS_FROM) + 1, SWITCH_STEP)]


def wide_switches() -> list[str]:
    """The widths :func:`wide_from` gives above :data:`WIDE_SCROLLS_FROM` (to :data:`UPPER_SCROLLS_FROM`), where
    only a wide layout switches: ``player.css``'s container queries for it."""
    return [fmt(float(at)) for at in range(int(WIDE_SCROLLS_FROM) + SWITCH_STEP, int(UPPER_SCROLLS_FROM) + 1,
                                           SWITCH_STEP)]


def readable_width(width: float) -> float:
    """The least width, in CSS px, at which a drawing ``width`` user units wide shows its smallest text
    (:data:`~mechdiagram.render.paint.SMALLEST_TEXT`) at :data:`MIN_TEXT_PX` CSS px or more (WCAG 2.2 SC 1.4.4 as the
    README's accessibility statement claims it): rounded up to the 0.1 px the figure writes, so that the
    text is never a rounding under."""
    return math.ceil(round(width * MIN_TEXT_PX / SMALLEST_TEXT * 10, 6)) / 10


def _layout(name: str, svg: str, width: float, strip: tuple[str, float] = ("", 0.0), heads: str = "",
            until: float = 0.0) -> LayoutContext:
    """A layout shown at most at its natural ``width`` (user units) times :data:`GROWTH` and at least at its
    :func:`readable_width`, with its lane names' ``strip`` (markup we generated, and its width in user units) when
    it has one, and ``heads``, its heads strip, a sequence's (shown at the same size).  ``until``, the figure width
    (CSS px) from which the next layout up shows, lets it grow to :data:`FILL_SHARE` of that, at most
    :data:`NARROW_GROWTH` times ``width`` (the phone's layout under a middle one)."""
    most = max(width * GROWTH, min(FILL_SHARE * until, width * NARROW_GROWTH))
    return {"name": name, "svg": Markup(svg), "min_width": fmt(readable_width(width)),
            "max_width": fmt(most or 100000.0), "strip": Markup(strip[0]),
            # to 0.001 %: 0.01 px of a 1,000 px drawing (fmt's 0.1 would be a pixel)
            "strip_share": f"{100 * strip[1] / width:.3f}".rstrip("0").rstrip(".") if strip[0] and width else "",
            "heads": Markup(heads)}


def figure_context(spec: Spec, slug: str, svgs: list[str], checks: list[SourceCheck],
                   widths: list[float] | None = None,
                   narrow: list[tuple[str, float]] | None = None,
                   embedding: Embedding | None = None,
                   strips: list[tuple[tuple[str, float], tuple[str, float]]] | None = None,
                   shapes: list[list[dict[str, dict[str, Any]]]] | None = None,
                   heads: list[tuple[str, str]] | None = None,
                   middle: list[tuple[str, float, str] | None] | None = None,
                   upper: list[tuple[str, float, str] | None] | None = None) -> FigureContext:
    """Build the template context; ``embedding`` says where the fragment finds the player (:func:`player_files`)
    and which colour-mode switches of a site the figure follows.  ``svgs`` holds one inline SVG per scenario,
    in order, and ``widths``
    their natural widths (user units); ``narrow`` the same scenarios' narrow layout (SVG, width), when
    the figure has one.  Each SVG is shown at most at :data:`GROWTH` times its natural width and at least at its
    :func:`readable_width`; the figure shows the wide layout from :func:`wide_from` (the container query of
    ``player.css``: the wide one's readable width, at most WIDE_SCROLLS_FROM) and the narrow one below it.
    ``strips`` are each scenario's lane-name strips, wide and narrow
    (:meth:`~mechdiagram.render.svg._Drawer.lane_strip`: markup and width), which the figure
    holds at its frame's left edge while a lane grid scrolls in it;
    ``shapes`` holds each scenario's focus rings, one mapping a layout in the same order
    (:func:`~mechdiagram.render.explore.focus_shapes`): with them the player data carries the explorer's
    structure (:func:`~mechdiagram.render.explore.structure`), its grid in a lane grid or a sequence
    (:func:`~mechdiagram.render.explore.grid`, else ``None``) and each step's ``on`` keys (its active boxes and
    arrows) and ``states`` (:func:`~mechdiagram.render.explore.step_states`); without them the figure has no
    explorer;
    ``middle`` holds each scenario's middle layout (SVG, width, heads strip: a lane grid's or a sequence's,
    :func:`~mechdiagram.layout.middle_diagram`) or ``None``: shown from its own :func:`wide_from` to the wide
    one's (it is made for a figure of 600 to 1000 px, issue 26); the caller gives one only
    where its :func:`wide_from` is less than the wide one's, and its rings in ``shapes`` between the wide and the
    narrow layout's;
    ``upper`` holds each scenario's upper middle layout likewise (a lane grid's, or a spread layered graph's natural
    drawing: ``middle_diagram(spec, UPPER_WIDTH)``) or ``None``: shown from its own :func:`wide_from` to the wide
    one's, which is then at most :data:`UPPER_SCROLLS_FROM`; the caller gives one only where it shows from a wider
    figure than the middle one and a narrower one than the wide one, and its rings in ``shapes`` between the wide
    and the middle layout's;
    ``heads`` holds each scenario's heads strips (wide, narrow), a sequence's (:attr:`ScenarioSvgs.heads
    <mechdiagram.render.svg.ScenarioSvgs.heads>`): ``figure.html`` keeps them in view over the drawing while it
    scrolls (the player shows them)."""
    words = words_for(spec.language, spec.messages)
    scenarios: list[ScenarioContext] = []
    natural = widths if widths is not None else [0.0] * len(svgs)
    narrow_layouts = narrow if narrow is not None else [None] * len(svgs)
    held = strips if strips is not None else [(("", 0.0), ("", 0.0))] * len(svgs)
    tops = heads if heads is not None else [("", "")] * len(svgs)
    between = middle if middle is not None else [None] * len(svgs)
    above = upper if upper is not None else [None] * len(svgs)
    for scenario, svg, width, second, (wide_strip, narrow_strip), top, third, fourth in zip(
            spec.scenarios, svgs, natural, narrow_layouts, held, tops, between, above, strict=True):
        fourth = fourth if second else None
        layouts = ([_layout("wide", svg, width, wide_strip, top[0])]
                   + ([_layout("upper", fourth[0], fourth[1], heads=fourth[2])] if fourth else [])
                   + ([_layout("middle", third[0], third[1], heads=third[2])] if second and third else [])
                   + ([_layout("narrow", second[0], second[1], narrow_strip, top[1],
                               until=wide_from(third[1]) if third else wide_from(fourth[1]) if fourth else 0.0)]
                      if second else []))
        steps = _steps(spec, scenario, words)
        scenarios.append({
            "id": scenario.id, "title": scenario.title, "description": scenario.description,
            "layouts": layouts,
            "wide_from": fmt(wide_from(width, UPPER_SCROLLS_FROM if fourth else WIDE_SCROLLS_FROM)) if second else "",
            "middle_from": fmt(wide_from(third[1])) if second and third else "",
            "upper_from": fmt(wide_from(fourth[1])) if fourth else "", "steps": steps,
            "timeline": (timeline := Timeline.for_scenario(scenario)).as_json(), "ease": timeline.ease_ms,
        })
    player_data: dict[str, Any] = {"words": {key: words[key] for key in PLAYER_WORDS}, "scenarios": [{
        "id": s["id"], "ease": s["ease"],
        "steps": [{"announcement": st["announcement"], "start": w["start"], "duration": w["duration"]}
                  for st, w in zip(s["steps"], s["timeline"], strict=True)],
    } for s in scenarios]}
    if shapes is not None:
        player_data["words"].update({key: words[key] for key in EXPLORER_WORDS})
        for data, scenario, rings in zip(player_data["scenarios"], spec.scenarios, shapes, strict=True):
            explore = structure(spec, scenario, rings[0], words)
            data["explore"] = {**explore, "shapes": rings, "grid": grid(spec, scenario, explore, words)}
            for step_data, step in zip(data["steps"], scenario.steps, strict=True):
                step_data["on"] = list(dict.fromkeys((*step.active, *step.paths)))
                if states := step_states(step, words):
                    step_data["states"] = states
    embedding = embedding or Embedding()
    player = player_files(embedding)
    sources: list[SourceContext] = [{
        "path": check.path,
        "description": spec.sources[check.index].description or "",
        "status": check.status,
        "status_text": words[SOURCE_STATUS_KEY[check.status]] if check.status in SOURCE_STATUS_KEY else check.status,
    } for check in checks]
    context: FigureContext = {
        "root_id": f"mech-{slug}",
        "language": spec.language,
        "direction": direction(spec.language),
        "chrome_language": None if primary(words.language) == primary(spec.language) else words.language,
        "words": dict(words.messages),
        "title": spec.title,
        "description": spec.description,
        "caption": spec.caption,
        "scenarios": scenarios,
        "limitations": list(spec.limitations),
        "sources": sources,
        "player_data": player_data,
        "player_js": Markup(player.js.decode("utf-8")),
        "player_css": Markup(player.css.decode("utf-8")),
        "player_js_url": embedding.player_url + player.js_name,
        "player_css_url": embedding.player_url + player.css_name,
        "page_colours": {"bg": theme.LIGHT.bg, "text": theme.LIGHT.text, "dark_bg": theme.DARK.bg,
                         "dark_text": theme.DARK.text},
        "page_padding": theme.EDGE_SPACE,
        "measure": theme.MEASURE,
        "csp": (f"default-src 'none'; script-src {player_script_source()}; style-src 'unsafe-inline'; "
                "img-src data:; base-uri 'none'; form-action 'none'"),
        "figure": Markup(""),
        # A float, an inline-block or a flex item sizes to its content, which the figure's container query
        # hides (inline-size containment): there the figure takes the width of its narrowest layout.
        # At most a 360 px phone's figure: a lane grid that keeps its grid on a phone scrolls in its frame there.
        "fit_width": fmt(min(max(float(layout["min_width"]) for s in scenarios for layout in s["layouts"][-1:]),
                             readable_width(TRANSPOSED_MAX_WIDTH))),
    }
    # The figure, rendered once for both the page and the fragment, which put it in place.
    context["figure"] = Markup(template("figure.html").render(context))
    return context


#: A step tab's least width and height, CSS px (WCAG 2.2 SC 2.5.5, Target Size), and the gap between tabs.
TAB_SIZE = 44
TAB_GAP = 2


def tab_rows(counts: tuple[int, ...]) -> list[dict[str, int]]:
    """For each number of steps in ``counts``: the figure widths (CSS px) below which its tabs no longer fit
    on one row (``one``) and from which they fit on two (``two``), and the columns of two even rows
    (``columns``): in between, the tabs take two rows of (nearly) as many each, not a full row and a tab
    or two alone on the next."""
    rows = []
    for count in sorted(set(counts)):
        columns = -(-count // 2)
        if count > 2:
            rows.append({"count": count, "columns": columns, "one": count * TAB_SIZE + (count - 1) * TAB_GAP,
                         "two": columns * TAB_SIZE + (columns - 1) * TAB_GAP})
    return rows


def two_row_counts() -> tuple[int, ...]:
    """The step counts whose tabs may take two even rows (:func:`tab_rows`): those whose two rows fit the widest
    figure (:data:`~mechdiagram.render.theme.MAX_WIDTH_REM`); more tabs fill rows as the grid places them."""
    widest = theme.MAX_WIDTH_REM * 16
    columns = (widest + TAB_GAP) // (TAB_SIZE + TAB_GAP)  # the most tabs a row of the widest figure holds
    return tuple(range(3, 2 * columns + 1))


@lru_cache(maxsize=16)
def _player_css(sheet: Template, dark: tuple[str, ...], light: tuple[str, ...]) -> str:
    """``sheet`` (``player.css``) rendered: the same text for every figure, with every layout switch
    (:func:`switches`), the tab rows of every step count (:func:`two_row_counts`), and the colours of both
    schemes under the colour-mode selectors ``dark`` and ``light``."""
    return sheet.render(ui=_ui_colours(), sizes=theme.UI_SIZES, switches=switches(), wide_switches=wide_switches(),
                        tab={"size": TAB_SIZE, "gap": TAB_GAP}, tab_rows=tab_rows(two_row_counts()),
                        drawing=[(name, value, dark_value) for (name, value), (_, dark_value)
                                 in zip(theme.LIGHT.custom_properties(), theme.DARK.custom_properties(), strict=True)],
                        # Selectors of the site's config, of the characters config.colour_selectors allows (no
                        # "<", "&", "{", "}" or ";"): written as they are, their quotes not turned into entities.
                        dark=Markup(", ".join(dark)), light=Markup(", ".join(light)))


def render_page(context: FigureContext) -> str:
    """The standalone HTML page (a whole document) for one spec."""
    return template("page.html").render(context)


def render_fragment(context: FigureContext) -> str:
    """The embeddable HTML fragment for one spec: the links to the player's files, the figure and transcript.

    CommonMark ends an HTML block at a blank line (CommonMark 0.31.2, 4.6, which Markdown pipelines from
    markdown-it to goldmark follow), so the fragment has none: a line of only white space (author text with
    an empty line in it) is dropped, which the browser renders the same, since the figure holds no
    preformatted text."""
    text = template("fragment.html").render(context)
    return "".join(line for line in text.splitlines(keepends=True) if line.strip())
