"""The layout's text measurement against the browser's: for Latin, Greek, Cyrillic, CJK and Arabic
labels, our width is never less than chromium's (a label always fits its box) and at most :data:`CAUTION`
times it (labels do not wrap long before they need to).  Chromium is given the font files our metrics come
from (DejaVu Sans, as the package ships it, and Debian's Droid Sans Fallback for CJK) through
``@font-face``, so that the test does not depend on the fonts a machine has installed."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from mechdiagram.layout.measure import CONTINUATION, FONT_SIZE, text_width
from mechdiagram.layout.sizes import PATH_LABEL_SIZE
from support.specs import ROOT

#: The font files of the metrics (tools/font_metrics.py), by the URL the test page asks for them at.
FACES = {"https://fonts.test/DejaVuSans.ttf": ROOT / "renderer" / "mechdiagram" / "fonts" / "DejaVuSans.ttf",
         "https://fonts.test/DejaVuSans-Bold.ttf": ROOT / "renderer" / "mechdiagram" / "fonts" / "DejaVuSans-Bold.ttf",
         "https://fonts.test/DroidSansFallbackFull.ttf": Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
         "https://fonts.test/DejaVuSansMono.ttf": ROOT / "renderer" / "mechdiagram" / "fonts" / "DejaVuSansMono.ttf",
         "https://fonts.test/DejaVuSansMono-Bold.ttf":
             ROOT / "renderer" / "mechdiagram" / "fonts" / "DejaVuSansMono-Bold.ttf"}

#: The page's faces: regular and bold DejaVu Sans, and the CJK fallback after them.
FONT_FACES = ("@font-face{font-family:mech-metrics;font-weight:400;src:url(https://fonts.test/DejaVuSans.ttf)}"
              "@font-face{font-family:mech-metrics;font-weight:700;src:url(https://fonts.test/DejaVuSans-Bold.ttf)}"
              "@font-face{font-family:mech-cjk;src:url(https://fonts.test/DroidSansFallbackFull.ttf)}"
              "@font-face{font-family:mech-mono;font-weight:400;src:url(https://fonts.test/DejaVuSansMono.ttf)}"
              "@font-face{font-family:mech-mono;font-weight:700;src:url(https://fonts.test/DejaVuSansMono-Bold.ttf)}")
FONT_FAMILY = "mech-metrics, mech-cjk"
#: A code label's faces: the monospace face (DejaVu Sans Mono, as the package ships it), the CJK fallback after it.
CODE_FAMILY = "mech-mono, mech-cjk"

pytestmark = pytest.mark.slow

#: Largest ratio of our width to the browser's (WIDTH_SAFETY is 1.08; Arabic is measured in its isolated forms, up to 1.41 times its joined width).
CAUTION = 1.45

LABELS = [
    "Release request references", "feed token 1", "KV cache: 8 pages", "Wwwww iiiii", "Ωμέγα καὶ ἄλφα",
    "Кэш ключей и значений", "キャッシュに書き込む", "请求进入队列", "키-값 캐시", "ذاكرة التخزين المؤقت",
    "بدء الطلب", "שלום עולם",
]


def _browser_widths(browser, labels: list[tuple[str, str]], family: str, size: float = FONT_SIZE) -> list[float]:
    """Chromium's computed length of each ``(label, weight)`` drawn as an SVG ``<text>`` in ``family`` at ``size``
    px, every face of :data:`FONT_FACES` loaded first."""
    missing = [str(path) for path in FACES.values() if not path.is_file()]
    if missing:
        pytest.skip(f"font files not installed: {', '.join(missing)} (scripts/install-browser installs them)")
    texts = "".join(f'<text x="0" y="{20 * (i + 1)}" font-size="{size}" font-weight="{weight}">'
                    f"{html.escape(label)}</text>" for i, (label, weight) in enumerate(labels))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="800" height="{20 * len(labels) + 20}" '
           f'font-family="{html.escape(family)}">{texts}</svg>')
    page = browser.new_page()
    try:
        page.route("https://fonts.test/**", lambda route: route.fulfill(
            body=FACES[route.request.url].read_bytes(), content_type="font/ttf",
            headers={"Access-Control-Allow-Origin": "*"}))
        page.set_content(f"<!doctype html><html><head><style>{FONT_FACES}</style></head><body>{svg}</body></html>")
        loaded = page.evaluate("""async () => {
          await Promise.all(["400 14px mech-metrics", "700 14px mech-metrics", "14px mech-cjk", "400 14px mech-mono",
                             "700 14px mech-mono"].map(f => document.fonts.load(f, "a中")));
          await document.fonts.ready;
          return Array.from(document.fonts).map(f => f.status);
        }""")
        assert loaded == ["loaded"] * 5, loaded
        return page.evaluate("() => Array.from(document.querySelectorAll('text')).map(t => t.getComputedTextLength())")
    finally:
        page.close()


def test_measured_widths_bound_the_browsers(browser):
    widths = _browser_widths(browser, [(label, w) for label in LABELS for w in ("400", "700")], FONT_FAMILY)
    report = []
    for (label, weight), browser_width in zip(((label, w) for label in LABELS for w in ("400", "700")), widths):
        ours = text_width(label)
        report.append(f"{label} ({weight}): ours {ours:.1f}, chromium {browser_width:.1f}")
        assert ours >= browser_width, report[-1]
        # Hangul is measured at the CJK face's full em; the browser's Hangul face may be narrower.
        if weight == "700" and not any("\uac00" <= c <= "\ud7af" for c in label):
            assert ours <= CAUTION * browser_width, report[-1]
    print("\n".join(report))


#: Code labels: identifiers, a URL, a hash, the continuation mark, and a character the monospace face lacks.
CODE_LABELS = ["code_challenge", "/callback?code&state", "code_verifier", "max_new_tokens_per_step",
               "https://auth.example.com/authorize?response_type=code", "E9Melhoa2OwvFrEMTJguC" + CONTINUATION,
               "S256(code_verifier)", "iiiiWWWW", "Ωμέγα κλειδί", "キャッシュ_key"]


@pytest.mark.parametrize("size", [FONT_SIZE, PATH_LABEL_SIZE])
def test_code_widths_bound_the_browsers_in_the_monospace_face(browser, size):
    """A code label measured in DejaVu Sans Mono (``text_width(..., code=True)``) is never narrower than chromium
    draws it in the shipped face, regular (a box, a path label) or bold (an active box), and for text the face
    holds at most WIDTH_SAFETY (1.08) times wider: the box fits it and does not waste room."""
    labels = [(label, w) for label in CODE_LABELS for w in ("400", "700")]
    widths = _browser_widths(browser, labels, CODE_FAMILY, size)
    report = []
    for (label, weight), browser_width in zip(labels, widths, strict=True):
        ours = text_width(label, size, code=True)
        report.append(f"{label} ({weight}, {size} px): ours {ours:.1f}, chromium {browser_width:.1f}")
        assert ours >= browser_width, report[-1]
        if label.isascii():  # one face, every advance 1233/2048 em
            assert ours == pytest.approx(1.08 * browser_width, rel=0.01), report[-1]
        else:
            assert ours <= CAUTION * browser_width, report[-1]
    print("\n".join(report))
