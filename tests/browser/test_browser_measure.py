"""The layout's text measurement against the browser's: for Latin, Greek, Cyrillic, CJK and Arabic
labels in the figures' font stack, our width is never less than chromium's (a label always fits its
box) and at most :data:`CAUTION` times it (labels do not wrap long before they need to)."""

from __future__ import annotations

import html

import pytest

from mechdiagram.layout.measure import FONT_SIZE, text_width
from mechdiagram.render.paint import FONT_FAMILY

pytestmark = pytest.mark.slow

#: Largest ratio of our width to the browser's (WIDTH_SAFETY is 1.08; Arabic is measured in its isolated forms, up to 1.41 times its joined width).
CAUTION = 1.45

LABELS = [
    "Release request references", "feed token 1", "KV cache: 8 pages", "Wwwww iiiii", "Ωμέγα καὶ ἄλφα",
    "Кэш ключей и значений", "キャッシュに書き込む", "请求进入队列", "키-값 캐시", "ذاكرة التخزين المؤقت",
    "بدء الطلب", "שלום עולם",
]


def test_measured_widths_bound_the_browsers(browser):
    texts = "".join(f'<text x="0" y="{20 * (i + 1)}" font-size="{FONT_SIZE}" font-weight="{weight}">'
                    f"{html.escape(label)}</text>"
                    for i, (label, weight) in enumerate((label, w) for label in LABELS for w in ("400", "700")))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="800" height="{40 * len(LABELS) + 20}" '
           f'font-family="{html.escape(FONT_FAMILY)}">{texts}</svg>')
    page = browser.new_page()
    try:
        page.set_content(f"<!doctype html><html><body>{svg}</body></html>")
        widths = page.evaluate("() => Array.from(document.querySelectorAll('text')).map(t => t.getComputedTextLength())")
    finally:
        page.close()
    report = []
    for (label, weight), browser_width in zip(((label, w) for label in LABELS for w in ("400", "700")), widths):
        ours = text_width(label)
        report.append(f"{label} ({weight}): ours {ours:.1f}, chromium {browser_width:.1f}")
        assert ours >= browser_width, report[-1]
        # Hangul is measured at the CJK face's full em; the browser's Hangul face may be narrower.
        if weight == "700" and not any("\uac00" <= c <= "\ud7af" for c in label):
            assert ours <= CAUTION * browser_width, report[-1]
    print("\n".join(report))
