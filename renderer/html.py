"""Stage 6, HTML: the accessible figure with its step player, as a page and a fragment.

Templates are package data rendered by jinja2 with autoescaping on, so every
text an author wrote is escaped; the player's data travels as JSON through
jinja2's ``tojson`` filter (which escapes ``<``, ``>``, ``&`` and ``'``).
The standalone page makes no network request and carries a Content Security
Policy whose ``script-src`` admits only the player script, by its SHA-256.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any, TypedDict

from markupsafe import Markup

from . import theme
from .assets import static_text
from .layout import step_heading
from .layout.sizes import MIN_TEXT_PX, PATH_LABEL_SIZE
from .model import Spec
from .provenance import SourceCheck
from .svg import fmt
from .templating import template
from .timeline import Timeline

SOURCE_STATUS_TEXT = {
    "verified": "verified: the file matches its SHA-256",
    "unpinned": "not verified: no SHA-256 is declared",
    "unverified": "not verified: the file was not available when this figure was built",
}


#: Primary language subtags written right to left (the HTML dir attribute follows the spec's language).
RTL_LANGUAGES = frozenset({"ar", "arc", "ckb", "dv", "fa", "he", "ks", "ku", "ps", "sd", "syr", "ug", "ur", "yi"})


def _csp_hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def player_script_source() -> str:
    """The CSP source that admits the player's inline script (``'sha256-…'``), for a page that inlines
    the fragment (the preview server's)."""
    return f"'{_csp_hash(static_text('player.js'))}'"


class StepContext(TypedDict):
    """One transcript entry: durations in ms; ``state`` as (label, value) pairs."""

    title: str
    heading: str
    description: str
    duration: int
    seconds: str
    state: list[tuple[str, str]]


class ScenarioContext(TypedDict):
    """One scenario: its inline SVG (markup we generated) and its steps."""

    id: str
    title: str
    description: str
    svg: Markup
    min_width: str  # CSS px, as written: the SVG shrinks no further (its smallest text stays 12 px)
    max_width: str  # CSS px: nor does it grow past its own size
    steps: list[StepContext]
    timeline: list[dict[str, int]]


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
    chrome_language: str | None
    title: str
    description: str
    caption: str
    scenarios: list[ScenarioContext]
    limitations: list[str]
    sources: list[SourceContext]
    player_data: dict[str, Any]
    player_js: Markup
    player_css: Markup
    page_colours: dict[str, str]
    csp: str


def _ui_colours() -> list[tuple[str, str, str]]:
    """The player's colour custom properties, (name, light, dark), from the one palette (:mod:`renderer.theme`)."""
    roles = (("bg", "bg"), ("text", "text"), ("muted", "muted"), ("border", "node_stroke"),
             ("accent", "active_stroke"), ("focus", "active_stroke"))
    return [(f"--md-ui-{role}", getattr(theme.LIGHT, field), getattr(theme.DARK, field)) for role, field in roles]


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".")


def figure_context(spec: Spec, slug: str, svgs: list[str], checks: list[SourceCheck],
                   widths: list[float] | None = None) -> FigureContext:
    """Build the template context; ``svgs`` holds one inline SVG per scenario, in order, and ``widths``
    their natural widths (user units).  Each SVG is shown at most at its natural width and at least at
    the width at which its smallest text (:data:`PATH_LABEL_SIZE`) is :data:`MIN_TEXT_PX` CSS px."""
    scenarios: list[ScenarioContext] = []
    natural = widths if widths is not None else [0.0] * len(svgs)
    for scenario, svg, width in zip(spec.scenarios, svgs, natural, strict=True):
        min_width, max_width = width * MIN_TEXT_PX / PATH_LABEL_SIZE, width or 100000.0
        steps: list[StepContext] = [{
            "title": step.title,
            "heading": step_heading(scenario, i),
            "description": step.description,
            "duration": step.duration,
            "seconds": _seconds(step.duration),
            "state": [(spec.state_labels[k], step.state.get(k, "")) for k in spec.state_labels],
        } for i, step in enumerate(scenario.steps)]
        scenarios.append({
            "id": scenario.id, "title": scenario.title, "description": scenario.description,
            "svg": Markup(svg), "min_width": fmt(min_width), "max_width": fmt(max_width), "steps": steps,
            "timeline": Timeline.for_scenario(scenario).as_json(),
        })
    player_data = {"scenarios": [{
        "id": s["id"], "title": s["title"],
        "steps": [{"heading": st["heading"], "title": st["title"], "state": st["state"],
                   "start": w["start"], "duration": w["duration"]}
                  for st, w in zip(s["steps"], s["timeline"], strict=True)],
    } for s in scenarios]}
    js = static_text("player.js")
    sources: list[SourceContext] = [{
        "path": check.path,
        "description": spec.sources[check.index].description or "",
        "status": check.status,
        "status_text": SOURCE_STATUS_TEXT.get(check.status, check.status),
    } for check in checks]
    chrome = None if spec.language.lower().split("-")[0] == "en" else "en"
    direction = "rtl" if spec.language.lower().split("-")[0] in RTL_LANGUAGES else "ltr"
    return {
        "root_id": f"md-{slug}",
        "language": spec.language,
        "direction": direction,
        "chrome_language": chrome,
        "title": spec.title,
        "description": spec.description,
        "caption": spec.caption,
        "scenarios": scenarios,
        "limitations": list(spec.limitations),
        "sources": sources,
        "player_data": player_data,
        "player_js": Markup(js),
        "page_colours": {"bg": theme.LIGHT.bg, "text": theme.LIGHT.text, "dark_bg": theme.DARK.bg,
                         "dark_text": theme.DARK.text},
        "player_css": Markup(template("player.css").render(ui=_ui_colours(), sizes=theme.UI_SIZES)),
        "csp": (f"default-src 'none'; script-src '{_csp_hash(js)}'; style-src 'unsafe-inline'; "
                "img-src data:; base-uri 'none'; form-action 'none'"),
    }


def render_page(context: FigureContext) -> str:
    """The standalone HTML page (a whole document) for one spec."""
    return template("page.html").render(context)


def render_fragment(context: FigureContext) -> str:
    """The embeddable HTML fragment for one spec: style, figure, player and transcript."""
    return template("fragment.html").render(context)
