"""Helpers of the browser suite: specs the tests generate, the build, host pages and in-page measurements.

Imported by ``conftest.py`` (which puts this folder on ``sys.path``) and by the test modules.
Nothing here starts a browser; the fixtures in ``conftest.py`` do.
"""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mechdiagram.shared import locale
from mechdiagram.shared.assets import locale_tags

ROOT = Path(__file__).resolve().parents[2]
MECHANISMS = ROOT / "mechanisms"
#: The spec that leads ``Site.mechanisms`` (one scenario, one figure width): the host pages are made of it.
LEAD = "prefill-decode"

#: The origin a page that loads the player's module file is served from: a browser runs no module script of a
#: ``file:`` page (its origin is opaque, so the module's request fails CORS), as it does none of a page opened
#: from disk on a reader's machine.  Requests to it are answered from the file system by the test browser
#: (``conftest.serve_files``); no server runs.
ORIGIN = "http://mechdiagram.test"

#: Arguments for every chromium launch (no network services, no first-run UI).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

#: axe-core: every WCAG 2.0/2.1/2.2 A and AA rule plus best practices, and target-size
#: (WCAG 2.2 SC 2.5.8, which axe ships disabled).
AXE_OPTIONS = {
    "runOnly": {"type": "tag",
                "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
    "rules": {"target-size": {"enabled": True}},
    "resultTypes": ["violations"],
}

def words(spec: dict) -> dict[str, str]:
    """The tool's words a spec's figure uses: its language's catalogue entry with its messages block."""
    return locale.words_for(spec["language"], spec.get("messages")).messages


def say(spec: dict, key: str, **values: str) -> str:
    """Message ``key`` of a spec's figure filled in, without the isolates (the tests compare words)."""
    return locale.fill(words(spec)[key], **values)


def unisolated(text: str) -> str:
    """``text`` without the bidi isolates (FSI, PDI) around author text."""
    return text.replace("\u2068", "").replace("\u2069", "")


PLAY_LABEL = "Play animation"
PAUSE_LABEL = "Pause animation"

#: WCAG 2.2 SC 2.3.1: no more than three changes a second, so no step (or animation period) under this.
MIN_CHANGE_MS = 334

SMIL_ELEMENTS = ("animate", "animateMotion", "animateTransform", "animateColor", "set", "discard", "mpath")


# --------------------------------------------------------------------------- specs the tests generate

def relay_spec() -> dict:
    """English, two scenarios, lane grid, two labelled paths (one active per step), unselected targets."""
    def step(title, duration, active, paths, phase, description):
        return {"title": title, "description": description, "duration": duration, "active": active,
                "paths": paths, "state": {"phase": phase, "copies": f"{len(active)} active"}}
    return {
        "version": 1, "language": "en",
        "title": "Relay with an acknowledgement",
        "description": "A sender passes a message through a relay and waits for an acknowledgement.",
        "caption": "The relay forwards the message; in the lossy scenario the acknowledgement never returns.",
        "alt": "Two lanes, sender above relay, three columns; a send arrow goes down to the relay and an "
               "ack arrow returns up to the sender.",
        "sources": [],
        "limitations": ["Made for the browser tests.", "Timeouts are left out."],
        "layout": {"lanes": [{"key": "s", "label": "Sender"}, {"key": "r", "label": "Relay"}]},
        "targets": {
            "s0": {"id": "t-s0", "kind": "node", "label": "compose"},
            "s1": {"id": "t-s1", "kind": "node", "label": "wait for the acknowledgement"},
            "s2": {"id": "t-s2", "kind": "node", "label": "done"},
            "r0": {"id": "t-r0", "kind": "node", "label": "idle"},
            "r1": {"id": "t-r1", "kind": "node", "label": "relay message"},
            "r2": {"id": "t-r2", "kind": "node", "label": "drop"},
            "send": {"id": "t-send", "kind": "path", "from": "s0", "to": "r1", "label": "send"},
            "ack": {"id": "t-ack", "kind": "path", "from": "r1", "to": "s2", "label": "ack"},
        },
        "stateLabels": {"phase": "Phase", "copies": "Active boxes"},
        "scenarios": [
            {"id": "normal", "title": "Normal delivery", "description": "Nothing is lost.",
             "initial": {"phase": "idle", "copies": "none"}, "unselected": ["r2"],
             "steps": [
                 step("Compose", 1000, ["s0"], [], "compose", "The sender writes the message."),
                 step("Send", 1500, ["s1", "r1"], ["send"], "in flight", "The message travels to the relay."),
                 step("Acknowledge", 2000, ["s2"], ["ack"], "acknowledged", "The acknowledgement returns."),
             ]},
            {"id": "lossy", "title": "Lost acknowledgement", "description": "The relay drops the acknowledgement.",
             "initial": {"phase": "idle", "copies": "none"}, "unselected": ["s2", "r0", "ack"],
             "steps": [
                 step("Send again", 400, ["s0", "r1"], ["send"], "sent", "The sender sends."),
                 step("Drop", 600, ["r2"], [], "lost", "The relay drops the acknowledgement."),
             ]},
        ],
    }


def kreislauf_spec() -> dict:
    """German (so the English player chrome carries lang="en"), flow layout (keys without lane digits)."""
    return {
        "version": 1, "language": "de",
        "title": "Ein kleiner Kreislauf",
        "description": "Ein Auftrag wird angenommen, bearbeitet und abgeschlossen.",
        "caption": "Der Auftrag durchläuft drei Stationen.",
        "alt": "Drei Kästen in einer Reihe, verbunden durch zwei Pfeile.",
        "sources": [], "limitations": ["Nur für die Browser-Tests."],
        "targets": {
            "annahme": {"id": "k-annahme", "kind": "node", "label": "Annahme"},
            "arbeit": {"id": "k-arbeit", "kind": "node", "label": "Bearbeitung"},
            "ende": {"id": "k-ende", "kind": "node", "label": "Abschluss"},
            "weiter": {"id": "k-weiter", "kind": "path", "from": "annahme", "to": "arbeit", "label": "weiter"},
            "fertig": {"id": "k-fertig", "kind": "path", "from": "arbeit", "to": "ende", "label": "fertig"},
        },
        "stateLabels": {"stand": "Stand"},
        "scenarios": [{
            "id": "ablauf", "title": "Ablauf", "description": "Der gewöhnliche Ablauf.",
            "initial": {"stand": "offen"}, "unselected": ["ende"],
            "steps": [
                {"title": "Annehmen", "description": "Der Auftrag kommt an.", "duration": 900,
                 "active": ["annahme"], "paths": ["weiter"], "state": {"stand": "angenommen"}},
                {"title": "Bearbeiten", "description": "Der Auftrag wird bearbeitet.", "duration": 1200,
                 "active": ["arbeit"], "paths": ["fertig"], "state": {"stand": "in Arbeit"}},
            ],
        }],
    }


GENERATED = {"relay": relay_spec, "kreislauf": kreislauf_spec}


def language_spec(tag: str) -> dict:
    """The relay spec with ``language`` set to ``tag`` (a catalogue language); in Arabic its author text is
    Arabic, with a left-to-right scenario title ("Relay 2") in the right-to-left poster heading."""
    spec = relay_spec()
    spec["language"] = tag
    if tag == "ar":
        spec["title"] = "مرحّل مع إشعار استلام"
        spec["caption"] = "يمرر المرحّل الرسالة؛ وفي السيناريو الثاني لا يعود إشعار الاستلام."
        spec["scenarios"][0]["title"] = "Relay 2"
        for step, title in zip(spec["scenarios"][0]["steps"], ["كتابة", "إرسال", "إشعار"], strict=True):
            step["title"] = title
    return spec


#: One generated spec per language of the catalogue, by slug.
LANGUAGES = {f"lang-{tag}": tag for tag in locale_tags()}


def mechanism_specs() -> list[Path]:
    """The project's own specs, as the CLI would find them."""
    from mechdiagram.spec.discovery import discover
    return discover([MECHANISMS])


def mechanism_slugs() -> list[str]:
    """The specs' slugs, ``LEAD`` first: the tests that take one figure mean the project's first spec."""
    from mechdiagram.spec.discovery import slug_for
    return sorted((slug_for(path) for path in mechanism_specs()), key=lambda slug: slug != LEAD)


# --------------------------------------------------------------------------- the build

@dataclass
class Site:
    """Everything the suite built: ``out`` holds every output file plus the host pages."""

    out: Path
    mechanisms: list[str]
    generated: list[str]
    specs: dict[str, dict] = field(default_factory=dict)  # slug -> spec JSON
    multi: Path | None = None  # one fragment twice plus another spec's fragment
    two: Path | None = None  # two different figures (keyboard walk)
    img: dict[str, Path] = field(default_factory=dict)  # svg file name -> page showing it in <img>

    def page(self, slug: str) -> Path:
        return self.out / f"{slug}.html"

    def fragment(self, slug: str) -> str:
        return (self.out / f"{slug}.fragment.html").read_text("utf-8")

    @property
    def all_slugs(self) -> list[str]:
        return self.mechanisms + self.generated


def build(specs: list[Path], out: Path, allow_missing_sources: bool | None = None) -> None:
    """Run the real build (as ``mechdiagram build`` does, with ``--allow-missing-sources`` where asked); fail loudly
    on any finding that is an error."""
    from mechdiagram.shared.config import Options
    from mechdiagram.site.build import execute
    report = execute(Options(mode="build", specs=specs, output=out, source_root=ROOT,
                             allow_missing_sources=allow_missing_sources))
    problems = [f"{f.file}: {f.message}" for f in report.findings if f.is_error]
    assert report.exit_code == 0 and not problems, "build failed:\n" + "\n".join(problems)


def host_page(title: str, fragments: list[str]) -> str:
    """A minimal page that pastes fragments into its <main>, as a site embedding them would."""
    body = "\n".join(fragments)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"color-scheme\" content=\"light dark\">\n"
            f"<title>{html.escape(title)}</title>\n</head>\n<body>\n<main>\n<h1>{html.escape(title)}</h1>\n"
            f"{body}\n</main>\n</body>\n</html>\n")


#: The column widths of :func:`columns_page`, in CSS px: a sidebar and a wide main column, on one wide screen.
COLUMNS = (300, 1240)


def columns_page(site: Site, slug: str) -> Path:
    """A page wider than both columns of :data:`COLUMNS`, with ``slug``'s fragment in each: the figure chooses
    its layout by its own width (a container query), not by the screen's."""
    columns = "\n".join(f'<div style="width:{width}px;flex:none">{site.fragment(slug)}</div>' for width in COLUMNS)
    path = site.out / f"columns-{slug}.html"
    path.write_text(host_page("One figure in two columns", [f'<div style="display:flex;gap:8px">{columns}</div>'])
                    .replace("<body>", '<body style="margin:0">'), "utf-8")
    return path


#: Of every figure on the page: the layouts drawn in its shown scene, the smallest rendered text size of the
#: drawn SVG, in CSS px (font size times the SVG's scale), and whether its current step's text is visible.
LAYOUTS_JS = r"""
() => Array.from(document.querySelectorAll("[data-mech-figure]")).map(root => {
  const scene = Array.from(root.querySelectorAll("[data-mech-scene]")).find(s => !s.hidden);
  const drawn = Array.from(scene.querySelectorAll(".mech-canvas-inner")).filter(b => b.getClientRects().length);
  const svg = drawn.length ? drawn[0].querySelector("svg") : null;
  let smallest = Infinity;
  if (svg) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const text of svg.querySelectorAll("text")) {
      const style = getComputedStyle(text);
      if (text.getClientRects().length && style.visibility === "visible") smallest = Math.min(smallest, parseFloat(style.fontSize) * scale);
    }
  }
  // The current step's panel text: hidden by its presentation attribute, shown by the style sheet's player
  // rule, which the narrow drawing takes from the wide one's <style> (shared classes, no sheet of its own).
  const current = svg && svg.querySelector("[data-mech-current]");
  return {drawn: drawn.map(b => b.classList.contains("mech-narrow") ? "narrow" : "wide"), smallest,
          current: current ? getComputedStyle(current).visibility : null};
})
"""


def img_page(svg_name: str, alt: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Image</title>"
            "<style>body{margin:0;background:#fff}img{display:block}</style></head>\n"
            f"<body><main><img id=\"shot\" src=\"{html.escape(svg_name)}\" alt=\"{html.escape(alt)}\"></main></body>\n"
            "</html>\n")


def build_site(root: Path) -> Site:
    specs_dir = root / "specs"
    specs_dir.mkdir()
    made = {name: make() for name, make in GENERATED.items()}
    made.update({slug: language_spec(tag) for slug, tag in LANGUAGES.items()})
    for name, spec in made.items():
        (specs_dir / f"{name}.mechanism.json").write_text(json.dumps(spec, indent=2, ensure_ascii=False), "utf-8")
    out = root / "site"
    own = mechanism_specs()
    assert own, f"no specs in {MECHANISMS}"
    build(own + [specs_dir], out)
    from mechdiagram.spec.discovery import slug_for
    site = Site(out, mechanism_slugs(), list(GENERATED))
    for path in own:
        site.specs[slug_for(path)] = json.loads(path.read_text("utf-8"))
    site.specs.update(made)
    first = site.mechanisms[0]
    site.multi = out / "multi.html"
    site.multi.write_text(host_page("Three figures, two of them the same",
                                    [site.fragment(first), site.fragment(first), site.fragment("relay")]), "utf-8")
    site.two = out / "two.html"
    site.two.write_text(host_page("Two figures", [site.fragment("relay"), site.fragment(first)]), "utf-8")
    for slug in site.mechanisms:
        spec = site.specs[slug]
        for scenario in spec["scenarios"]:
            for kind in ("", ".poster"):
                name = f"{slug}.{scenario['id']}{kind}.svg"
                page = out / f"img-{slug}.{scenario['id']}{kind}.html"
                page.write_text(img_page(name, spec["alt"]), "utf-8")
                site.img[name] = page
    return site


# --------------------------------------------------------------------------- colour

def parse_colour(text: str) -> tuple[float, float, float, float] | None:
    """``rgb(1, 2, 3)`` / ``rgba(1, 2, 3, 0.5)`` / ``rgb(1 2 3 / 50%)`` -> (r, g, b, alpha); None for none."""
    match = re.fullmatch(r"\s*rgba?\(([^)]*)\)\s*", text or "")
    if not match:
        return None
    parts = [p for p in re.split(r"[\s,/]+", match.group(1)) if p]
    values = [float(p[:-1]) / 100 if p.endswith("%") else float(p) for p in parts]
    r, g, b = values[:3]
    return (r, g, b, values[3] if len(values) > 3 else 1.0)


def blend(top: tuple, bottom: tuple, alpha: float | None = None) -> tuple[float, float, float, float]:
    a = top[3] if alpha is None else alpha
    return tuple(top[i] * a + bottom[i] * (1 - a) for i in range(3)) + (1.0,)


def luminance(colour: tuple) -> float:
    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple, b: tuple) -> float:
    """WCAG 2.2 contrast ratio of two opaque colours."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def hex_of(colour: tuple) -> str:
    return "#" + "".join(f"{round(c):02x}" for c in colour[:3])


# --------------------------------------------------------------------------- in-page scripts

#: For every rendered <text> of every visible inline SVG but a heads strip (or of the SVG document itself): its category
#: (active, dimmed or normal), its fill and opacity, and the colours of what is painted under it, found by
#: hit testing (document.elementsFromPoint) at its centre and near its corners.  A text drawn over a halo
#: (the text before it, the same words as a wide stroke without fill: mechdiagram.render.paint) sits on its halo, which
#: is not measured itself.  Also the painted non-text parts against the
#: background: node borders, arrows, the active ring and the active fill.
MEASURE_SVG_JS = r"""
() => {
  const SHAPES = new Set(["rect", "polygon", "path", "line", "circle", "ellipse", "polyline"]);
  const out = {texts: [], parts: [], hidden: []};
  // Not a sequence's heads strip: a copy of the drawing's heads over them, which hit testing passes through
  // (pointer-events: none), and which test_browser_sequence compares with the heads under it, pixel by pixel.
  const svgs = Array.from(document.querySelectorAll("svg")).filter(
      s => s.getClientRects().length && !s.closest("[data-mech-heads]"));
  const opacity = (el, stop) => {
    let o = 1;
    for (let e = el; e && e !== stop.parentNode; e = e.parentNode) {
      if (e.nodeType === 1) o *= parseFloat(getComputedStyle(e).opacity);
    }
    return o;
  };
  const paint = (el, which) => {
    const cs = getComputedStyle(el);
    return {colour: cs[which], alpha: parseFloat(cs[which + "Opacity"]) * opacity(el, el.ownerSVGElement || el)};
  };
  for (const svg of svgs) {
    const prefix = svg.getAttribute("class").split(/\s+/)[0];
    const bgRect = svg.querySelector("." + prefix + "-bg");
    const bg = getComputedStyle(bgRect).fill;
    // A highlighted box's label is drawn over the highlights: active while bold (its step), dimmed by its role.
    const lit = el => el.classList.contains(prefix + "-lit");
    const category = el => el.closest("." + prefix + "-on") || (lit(el) && Number(getComputedStyle(el).fontWeight) >= 700)
                         ? "active"
                         : el.closest("." + prefix + "-dim") || el.classList.contains(prefix + "-label-dim") ? "dimmed" : "normal";
    const visible = el => getComputedStyle(el).visibility === "visible" && el.getClientRects().length > 0;
    const isHalo = el => el && el.localName === "text" && el.classList.contains(prefix + "-halo");
    for (const text of svg.querySelectorAll("text")) {
      if (!visible(text) || isHalo(text)) continue;
      const cs = getComputedStyle(text);
      const box = text.getBoundingClientRect();
      const entry = {svg: prefix, category: category(text), text: text.textContent,
                     cls: text.getAttribute("class"), fill: paint(text, "fill"),
                     fontWeight: cs.fontWeight, under: []};
      const halo = text.previousElementSibling;
      if (isHalo(halo) && halo.textContent === text.textContent && visible(halo)
          && getComputedStyle(halo).stroke !== "none" && parseFloat(getComputedStyle(halo).strokeWidth) >= 2) {
        entry.under.push({how: "halo", ...paint(halo, "stroke")});
        out.texts.push(entry);
        continue;
      }
      const inset = Math.min(2, box.width / 4, box.height / 4);
      const points = [[box.x + box.width / 2, box.y + box.height / 2],
                      [box.left + inset, box.top + inset], [box.right - inset, box.top + inset],
                      [box.left + inset, box.bottom - inset], [box.right - inset, box.bottom - inset]];
      let covered = 0;
      for (const [x, y] of points) {
        const matrix = svg.getScreenCTM().inverse();
        const local = new DOMPoint(x, y).matrixTransform(matrix);
        const point = new DOMPoint(local.x, local.y);
        const under = [];
        let found = false, hidden = false;
        for (const el of document.elementsFromPoint(x, y)) {
          if (!svg.contains(el) || !SHAPES.has(el.localName)) continue;
          const ecs = getComputedStyle(el);
          const inFill = ecs.fill !== "none" && el.isPointInFill(point);
          const inStroke = ecs.stroke !== "none" && el.isPointInStroke(point);
          if (text.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) {
            // painted after the text: an opaque fill here hides the text at this point (as an active box
            // of a step frame hides the normal label under it); it is not a background
            if (inFill && parseFloat(ecs.fillOpacity) === 1 && !/rgba|transparent/.test(ecs.fill)) { hidden = true; break; }
            continue;
          }
          if (inFill) {
            under.push({how: "fill of " + el.getAttribute("class"), ...paint(el, "fill")});
            found = true;
            break;
          }
          if (inStroke) under.push({how: "stroke of " + el.getAttribute("class"), ...paint(el, "stroke")});
        }
        if (hidden) { covered++; continue; }
        if (!found) under.push({how: "nothing painted: the SVG background", colour: bg, alpha: 1});
        entry.under.push(...under);
      }
      if (covered === points.length) { out.hidden.push(entry.text); continue; }
      out.texts.push(entry);
    }
    const P = "." + prefix + "-";
    const parts = [
      ["node border", P + "n:not(" + P + "dim) > " + P + "node", "stroke"],
      ["dimmed node border", P + "dim > " + P + "node", "stroke"],
      ["active node border", P + "on > " + P + "node", "stroke"],
      ["active node fill", P + "on > " + P + "node", "fill"],
      ["active ring", P + "ring", "stroke"],
      ["arrow", ":not(" + P + "dim) > " + P + "path", "stroke"],
      ["arrow head", ":not(" + P + "dim) > " + P + "head", "fill"],
      ["dimmed arrow", P + "dim > " + P + "path", "stroke"],
      ["dimmed arrow head", P + "dim > " + P + "head", "fill"],
      ["active arrow", P + "flow", "stroke"],
      ["active arrow head", P + "head-on", "fill"],
      ["panel border", P + "panel", "stroke"],
    ];
    for (const [name, selector, which] of parts) {
      for (const el of svg.querySelectorAll(selector)) {
        if (!visible(el)) continue;
        const cs = getComputedStyle(el);
        out.parts.push({svg: prefix, part: name, ...paint(el, which), bg,
                        strokeWidth: cs.strokeWidth, dash: cs.strokeDasharray});
      }
    }
  }
  return out;
}
"""

#: Text of the HTML page outside the SVGs (every element with its own text), and the controls' borders and
#: focus outlines, each with the background it is drawn on (the nearest ancestor with a background colour,
#: else the canvas).
MEASURE_HTML_JS = r"""
() => {
  const canvas = (() => {
    const probe = document.createElement("div");
    probe.style.background = "Canvas";
    document.body.appendChild(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
  })();
  const background = el => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (c && c !== "transparent" && !/rgba\([^)]*,\s*0\)$/.test(c)) return c;
    }
    return canvas;
  };
  const texts = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg, script, style") || !el.getClientRects().length) continue;
    if (getComputedStyle(el).visibility !== "visible") continue;
    const own = Array.from(el.childNodes).filter(n => n.nodeType === 3 && n.textContent.trim());
    if (!own.length && el.localName !== "select") continue;
    const cs = getComputedStyle(el);
    texts.push({tag: el.localName, cls: el.getAttribute("class") || "", text: el.textContent.trim().slice(0, 60),
                colour: cs.color, bg: background(el), fontSize: cs.fontSize, fontWeight: cs.fontWeight});
  }
  const controls = [];
  for (const el of document.querySelectorAll(".mech-controls button, .mech-controls select")) {
    if (!el.getClientRects().length) continue;
    const cs = getComputedStyle(el);
    controls.push({name: el.textContent.trim().slice(0, 30) || el.localName, border: cs.borderTopColor,
                   borderWidth: cs.borderTopWidth, bg: background(el.parentElement)});
  }
  return {texts, controls};
}
"""

#: The keyframe windows an inline SVG declares: per frame its animation shorthand and its keyframes.
KEYFRAMES_JS = r"""
(svg) => {
  const prefix = svg.getAttribute("class").split(/\s+/)[0];
  const frames = {};
  const rules = [];
  const walk = list => { for (const r of list) { rules.push(r); if (r.cssRules) walk(r.cssRules); } };
  walk(svg.querySelector("style").sheet.cssRules);
  for (const rule of rules) {
    if (rule.type === CSSRule.STYLE_RULE) {
      const m = rule.selectorText.match(new RegExp("^\\." + prefix + "-f(\\d+)$"));
      if (m && rule.style.animationName) {
        frames[m[1]] = Object.assign(frames[m[1]] || {}, {
          name: rule.style.animationName, duration: rule.style.animationDuration,
          timing: rule.style.animationTimingFunction, iterations: rule.style.animationIterationCount});
      }
    } else if (rule.type === CSSRule.KEYFRAMES_RULE) {
      const m = rule.name.match(new RegExp("^" + prefix + "-k(\\d+)$"));
      if (m) {
        frames[m[1]] = Object.assign(frames[m[1]] || {}, {
          stops: Array.from(rule.cssRules).map(k => [k.keyText, k.style.visibility])});
      }
    }
  }
  return frames;
}
"""


def ms(text: str) -> float:
    """A CSS time (``1400ms``, ``17s``) in ms."""
    text = text.strip()
    return float(text[:-2]) if text.endswith("ms") else float(text[:-1]) * 1000


def keyframe_windows(frames: dict) -> list[dict]:
    """``[{"start": ms, "duration": ms}, ...]`` from :data:`KEYFRAMES_JS` output: each step's panel heading is
    shown (visibility) from its window's start to its end, switched there (``step-end``), never faded."""
    windows = []
    for number in sorted(frames, key=int):
        frame = frames[number]
        assert frame["timing"] == "step-end" and frame["iterations"] == "infinite", frame
        total = ms(frame["duration"])
        stops = sorted((float(offset.rstrip("%")), shown == "visible") for offset, shown in frame["stops"])
        shown = [i for i, (_, visible) in enumerate(stops) if visible]
        assert shown, f"frame {number} is never visible: {stops}"
        assert shown == list(range(shown[0], shown[-1] + 1)), f"frame {number} shows twice: {stops}"
        begin = stops[shown[0]][0]
        end = stops[shown[-1] + 1][0] if shown[-1] + 1 < len(stops) else 100.0
        windows.append({"start": round(begin * total / 100), "duration": round((end - begin) * total / 100),
                        "total": total})
    return windows


def ids_report_js() -> str:
    """Duplicate ids, and id references (aria-labelledby, aria-describedby, aria-controls, for) that do not
    resolve or that point out of their own figure."""
    return r"""
() => {
  const counts = {};
  for (const el of document.querySelectorAll("[id]")) counts[el.id] = (counts[el.id] || 0) + 1;
  const duplicates = Object.entries(counts).filter(([, n]) => n > 1);
  const broken = [], foreign = [];
  for (const name of ["aria-labelledby", "aria-describedby", "aria-controls", "for"]) {
    for (const el of document.querySelectorAll("[" + name + "]")) {
      for (const token of el.getAttribute(name).split(/\s+/).filter(Boolean)) {
        const target = document.getElementById(token);
        if (!target) { broken.push([name, token]); continue; }
        const home = el.closest("[data-mech-figure]");
        if (home && target.closest("[data-mech-figure]") !== home) foreign.push([name, token]);
      }
    }
  }
  return {count: Object.keys(counts).length, duplicates, broken, foreign};
}
"""


# --------------------------------------------------------------------------- the player, seen from outside

#: The visible state of one figure's player (argument: the figure's root element).
STATE_JS = r"""
(root) => {
  // The text a reader hears: the button's text without its aria-hidden parts (the invisible other word).
  // The text a reader hears: the button's text without its aria-hidden parts (the other name, the short word).
  const heard = el => Array.from(el.childNodes).map(n => n.nodeType === 3 ? n.textContent
    : n.getAttribute("aria-hidden") === "true" ? "" : heard(n)).join("");
  const play = root.querySelector(".mech-play");
  const status = root.querySelector(".mech-status");
  const scenes = Array.from(root.querySelectorAll("[data-mech-scene]"));
  const shown = scenes.filter(s => !s.hidden && s.getClientRects().length);
  // The scene's drawings, one per layout (wide, narrow); the style sheet shows one of them, by the figure's width.
  const svgs = shown.length ? Array.from(shown[0].querySelectorAll("svg[role=img]")) : [];  // not the lane names' copy
  const svg = svgs.find(s => s.getClientRects().length) || null;
  const layout = s => Array.from(s.closest(".mech-canvas-inner").classList).find(c => c !== "mech-canvas-inner")
    .replace(/^mech-/, "");
  const flow = svg && svg.querySelector("circle[class$='-dot']");  // the dot travelling along active routes
  const select = root.querySelector(".mech-scenario");
  // The step indicator: the shown tablist's tabs; the position is its selected tab.
  const lists = Array.from(root.querySelectorAll("[role='tablist']")).filter(l => !l.hidden);
  const tabs = lists.length ? Array.from(lists[0].querySelectorAll("[role='tab']")) : [];
  const selected = tabs.filter(t => t.getAttribute("aria-selected") === "true").map(t => tabs.indexOf(t));
  return {
    label: heard(play).trim(),
    pressed: play.getAttribute("aria-pressed"),
    position: selected.length === 1 ? `Step ${selected[0] + 1} of ${tabs.length}` : `selected: ${selected}`,
    tablists: lists.length,
    tabStops: tabs.filter(t => t.tabIndex === 0).map(t => tabs.indexOf(t)),
    focusedTab: tabs.indexOf(document.activeElement),
    status: status.textContent.replace(/[\u2068\u2069]/g, "").trim(),  // author text is isolated (FSI ... PDI)
    isolated: status.textContent.includes("\u2068"),
    live: status.getAttribute("aria-live"),
    atomic: status.getAttribute("aria-atomic"),
    scenes: shown.map(s => Number(s.dataset.mechScene)),
    scenario: select ? Number(select.value) : 0,
    visibleFrames: svg ? Array.from(svg.querySelectorAll("[data-mech-frame]"))
      .filter(f => getComputedStyle(f).visibility === "visible").map(f => Number(f.dataset.mechFrame)) : [],
    svgPaused: svg ? svg.hasAttribute("data-mech-paused") : null,
    // every layout's, the hidden one's too: the player keeps them at one step and one play state
    layouts: svgs.map(layout),
    shownLayout: svg ? layout(svg) : null,
    currentFrames: svgs.map(s => { const f = s.querySelector("[data-mech-current]"); return f ? Number(f.dataset.mechFrame) : 0; }),
    pausedLayouts: svgs.map(s => s.hasAttribute("data-mech-paused")),
    flowState: flow ? getComputedStyle(flow).animationPlayState : null,
    flowName: flow ? getComputedStyle(flow).animationName : null,
    focusInside: root.contains(document.activeElement),
  };
}
"""


def figures(page):
    return page.locator("[data-mech-figure]")


#: Of every figure on the page: its background and its shown drawing's background rectangle's fill (``--mech-bg``).
COLOURS_JS = """() => Array.from(document.querySelectorAll('mech-diagram'), root => {
  const svg = Array.from(root.querySelectorAll('svg')).find(s => s.getClientRects().length);
  return [getComputedStyle(root).backgroundColor, getComputedStyle(svg.querySelector('rect[class$="-bg"]')).fill];
})"""


def colours(page) -> list[list[str]]:
    """:data:`COLOURS_JS` of ``page``: ``[background, drawing's background]`` of each figure, as ``rgb(…)``."""
    return page.evaluate(COLOURS_JS)


def rgb(hex_colour: str) -> str:
    """``#rrggbb`` as a computed style writes it: ``rgb(r, g, b)``."""
    return "rgb({}, {}, {})".format(*(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)))


#: Finish the figure's running CSS transitions (the eases between steps), so what follows sees the step's
#: settled state (argument: the figure's root element).
SETTLE_JS = "root => root.getAnimations({subtree: true}).filter(a => a instanceof CSSTransition).forEach(a => a.finish())"


def settle(page, index: int = 0) -> None:
    """Finish figure ``index``'s eases between steps (:data:`SETTLE_JS`)."""
    figures(page).nth(index).evaluate(SETTLE_JS)


def state(page, index: int = 0) -> dict:
    """:data:`STATE_JS` of figure ``index`` on ``page``, its eases finished first."""
    settle(page, index)
    return figures(page).nth(index).evaluate(STATE_JS)


def step_of(page, index: int = 0) -> int:
    """The step figure ``index`` shows (1-based), checked three ways: selected tab, status, visible frame."""
    s = state(page, index)
    match = re.fullmatch(r"Step (\d+) of (\d+)", s["position"])
    assert match, s
    number = int(match.group(1))
    steps = player_data(page, index)["scenarios"][s["scenario"]]["steps"]
    assert len(steps) == int(match.group(2)), s
    assert s["status"].startswith(unisolated(steps[number - 1]["announcement"])), s
    assert s["visibleFrames"] == [number], s
    assert s["currentFrames"] == [number] * len(s["layouts"]), s  # the hidden layout is at the same step
    assert s["pausedLayouts"] == [s["svgPaused"]] * len(s["layouts"]), s
    return number


def player_data(page, index: int = 0) -> dict:
    return json.loads(figures(page).nth(index).get_attribute("data-mech-player"))


def active_tag(page) -> str:
    """The focused element, described: ``figure#/class`` (figure index or -), e.g. ``1/mech-next``."""
    return page.evaluate("""() => {
      const el = document.activeElement;
      const roots = Array.from(document.querySelectorAll('[data-mech-figure]'));
      const n = roots.findIndex(r => r.contains(el));
      const cls = (el.getAttribute('class') || el.localName).split(/\\s+/).filter(c => c !== 'mech-button').join('.');
      return (n < 0 ? '-' : String(n)) + '/' + cls;
    }""")


def shots_over_time(take: Callable[[float], bytes],
                    times: tuple[float, ...] = (0.0, 1.5, 3.0)) -> tuple[dict[float, bytes], dict[float, tuple[float, float]]]:
    """Screenshots by ``take(at)`` at ``times`` seconds from now (the image having loaded), and each shot's
    time window (seconds from the start, begun and done), for the caller to check it fell where intended; the
    chromium and WebKit tests of an animated ``<img>`` share it."""
    start = time.monotonic()
    shots, windows = {}, {}
    for at in times:
        delay = start + at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        begun = time.monotonic() - start
        shots[at] = take(at)
        windows[at] = (begun, time.monotonic() - start)
    return shots, windows


#: A page style that keeps the wide layout at every width, as a browser without container queries does: where it is
#: wider than the figure, it scrolls in its frame.
WIDE_ONLY = ".mech-canvas-inner.mech-wide{display:block!important}.mech-canvas-inner.mech-narrow{display:none!important}"

#: In page, of a drawing ``svg`` and a step number: the page boxes (left, right, top, bottom, CSS px) of what the step
#: highlights as a reader sees it: its boxes (not a group's whole frame), and in a sequence its row's activation bars,
#: message lines and heads (not the row's band, which spans the drawing).
HIGHLIGHTED_JS = r"""
(svg, step) => {
  const layers = Array.from(svg.querySelectorAll(`g[data-mech-steps~='${step}']`));
  const lit = (layer, suffix) => Array.from(layer.classList).some(name => name.endsWith(suffix));
  const boxes = layers.filter(layer => lit(layer, "-on") && !layer.querySelector("rect[class$='-group-on']"));
  const row = layers.filter(layer => lit(layer, "-row-current"))
    .flatMap(layer => Array.from(layer.querySelectorAll("[class$='-bar-on'], [class$='-flow'], [class$='-head-on']")));
  return [...boxes, ...row].map(element => element.getBoundingClientRect())
    .map(r => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom}));
}
"""
