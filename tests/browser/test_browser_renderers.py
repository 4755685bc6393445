"""Every still SVG looks the same in chromium, librsvg (``rsvg-convert``), resvg and CairoSVG, and the animated
SVG's base state in a renderer that does not animate is the poster.

Each still is rasterised at its natural size (one pixel per user unit) by the four renderers, and each picture
is held to chromium's:

- the mean absolute difference per colour channel is at most :data:`MEAN_TOLERANCE` (of 255) for librsvg and
  resvg, whose text is shaped and kerned as chromium's is (anti-aliasing and hinting differ; colours and
  geometry must not), and at most :data:`CAIROSVG_TOLERANCE` for CairoSVG, whose text is not (see there);
- no cell of an 8 by 8 grid is empty (plain background) where chromium drew something (:data:`DRAWN`);
- every arrow label is drawn: inside the box chromium gives its words, the picture has at least
  :data:`LABEL_INK` times as many pixels of the label's colour as chromium's.  A halo painted over its label
  (CairoSVG ignores ``paint-order``, Kozea/CairoSVG#218, so the halo is a text of its own: mechdiagram.render.paint)
  leaves none.
"""

from __future__ import annotations

import io
import math
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

Image = pytest.importorskip("PIL.Image", reason="Pillow compares the pictures")
ImageChops = pytest.importorskip("PIL.ImageChops")
ImageStat = pytest.importorskip("PIL.ImageStat")
resvg_py = pytest.importorskip("resvg_py", reason="resvg-py rasterises with resvg")
cairosvg = pytest.importorskip("cairosvg", reason="CairoSVG (the test extra, over Debian's libcairo2) rasterises")

#: Largest mean absolute difference per channel (0-255) between librsvg's or resvg's picture and chromium's.
#: Measured 0.77 to 1.99 (librsvg) and 0.88 to 2.22 (resvg, the most on the Arabic figures) over the stills.
MEAN_TOLERANCE = 3.0
#: The same for CairoSVG 2.9.1, measured 2.01 to 4.17 (web-worker.cancel); with every <text> taken out of the
#: stills, 0.08 to 0.21 (resvg: 0.09 to 0.13), so colours and geometry agree and the rest is text.  CairoSVG draws
#: text through cairo's toy font API, one character at a time with that character's own advance: no kerning and no
#: shaping, so a line drifts a pixel or more from chromium's by its end (the figures with the most text, web-worker
#: and serving-stack, measure 3.9 to 4.2); the bidi isolates around author text (U+2068, U+2069) become
#: missing-glyph boxes that push the rest of a panel heading right (up to 2.3 of a figure's mean: kreislauf, 3.95
#: with them, 1.66 without); right-to-left text is not reordered and CJK text, without a fallback font, is
#: missing-glyph boxes (lang-ar, lang-ja).  The bound is the largest measured and a little room; the label check
#: below holds what a mean cannot (the halo over the labels moved the mean by 0.38 at most).  The narrow posters,
#: a column of text-filled boxes with little else, drift the most: kv-cache-bytes' grouped-query measures 4.61, and
#: 5.11 since its narrow layout is transposed (lanes side by side) and its boxes hold the running product.
CAIROSVG_TOLERANCE = 5.3
#: Stills whose text CairoSVG cannot draw at all (CJK, without a fallback font): a cell holding nothing but such text
#: (a transposed grid's row label) is left empty by it, not a fault of the drawing.
NO_GLYPHS = ("lang-ja.",)
#: Least share of chromium's label-coloured pixels inside an arrow label's box: measured 0.87 to 1.18, and 0.00 for
#: every one of the 132 labels in CairoSVG while the halo was the label's own stroke under paint-order.
LABEL_INK = 0.5
GRID = 8

#: In page, the still's arrow labels: their box in user units (pixels here) and their fill.
LABELS_JS = """() => Array.from(document.querySelectorAll("text"))
  .filter(t => /-plabel$/.test(t.getAttribute("class")))
  .map(t => { const b = t.getBBox();
              return {text: t.textContent, box: [b.x, b.y, b.x + b.width, b.y + b.height],
                      fill: getComputedStyle(t).fill}; })"""


def chromium_png(browser, svg: Path) -> tuple[Image.Image, list[dict]]:
    """Chromium's picture of ``svg`` and its arrow labels (:data:`LABELS_JS`)."""
    page = browser.new_page(viewport={"width": 1600, "height": 1200})
    try:
        page.goto(svg.as_uri())
        size = page.evaluate("() => [document.documentElement.width.baseVal.value, "
                             "document.documentElement.height.baseVal.value]")
        page.set_viewport_size({"width": int(size[0]), "height": int(size[1])})
        data = page.screenshot(clip={"x": 0, "y": 0, "width": int(size[0]), "height": int(size[1])})
        labels = page.evaluate(LABELS_JS)
    finally:
        page.close()
    return Image.open(io.BytesIO(data)).convert("RGB"), labels


def rsvg_png(svg: Path) -> Image.Image:
    data = subprocess.run(["rsvg-convert", str(svg)], check=True, capture_output=True).stdout
    return Image.open(io.BytesIO(data)).convert("RGB")


def resvg_png(svg: Path) -> Image.Image:
    return Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_path=str(svg))))).convert("RGB")


def cairosvg_png(svg: Path) -> Image.Image:
    """CairoSVG at its defaults: 96 dpi, scale 1, so one pixel per user unit like the others."""
    return Image.open(io.BytesIO(cairosvg.svg2png(url=str(svg)))).convert("RGB")


#: Each renderer held to chromium: (name, rasterise, largest mean difference).
RENDERERS = (("librsvg", rsvg_png, MEAN_TOLERANCE), ("resvg", resvg_png, MEAN_TOLERANCE),
             ("cairosvg", cairosvg_png, CAIROSVG_TOLERANCE))


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    assert a.size == b.size, (a.size, b.size)
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


#: How far (in the farthest channel, of 255) a pixel's colour must be from its cell's commonest colour to count as
#: something drawn: a glyph's anti-aliasing that strays a pixel past a cell's edge is 1 from the background.
DRAWN = 16


def _drawn(cell: Image.Image) -> bool:
    """Whether ``cell`` holds something drawn: a colour :data:`DRAWN` or more from its commonest colour."""
    colours = cell.getcolors(maxcolors=1 << 16)
    if colours is None:
        return True
    ground = max(colours)[1]
    return any(max(abs(a - b) for a, b in zip(colour, ground, strict=True)) >= DRAWN for _, colour in colours)


def empty_cells(picture: Image.Image, reference: Image.Image) -> list[tuple[int, int]]:
    """Grid cells where ``reference`` has something drawn and ``picture`` has nothing (:func:`_drawn`)."""
    width, height = reference.size
    found = []
    for row in range(GRID):
        for column in range(GRID):
            box = (column * width // GRID, row * height // GRID, (column + 1) * width // GRID,
                   (row + 1) * height // GRID)
            if _drawn(reference.crop(box)) and not _drawn(picture.crop(box)):
                found.append((row, column))
    return found


def _rgb(css: str) -> tuple[int, ...]:
    """``rgb(87, 96, 106)`` -> (87, 96, 106)."""
    return tuple(int(v) for v in css[css.index("(") + 1:css.index(")")].split(","))


def ink(picture: Image.Image, label: dict, background: tuple[int, ...]) -> int:
    """Pixels in ``label``'s box at least half as far from ``background`` (in their farthest channel) as the
    label's fill is: its words, and any line not under its halo."""
    crop = picture.crop(tuple(round(v) for v in label["box"]))
    fill = _rgb(label["fill"])
    threshold = max(abs(f - b) for f, b in zip(fill, background)) / 2
    distance = ImageChops.difference(crop, Image.new("RGB", crop.size, background)).split()
    farthest = ImageChops.lighter(ImageChops.lighter(distance[0], distance[1]), distance[2])
    return sum(farthest.histogram()[math.ceil(threshold):])


@pytest.fixture(scope="module")
def stills(site) -> list[Path]:
    names = sorted(p for p in site.out.glob("*.poster*.svg"))
    assert names
    return names


@pytest.fixture(scope="module")
def rsvg():
    if shutil.which("rsvg-convert") is None:
        pytest.skip("rsvg-convert is missing (Debian librsvg2-bin, installed by scripts/install-browser)")


#: Where the measured differences go, with the pictures of any still that failed, to look at (not committed).
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "renderers"


@pytest.fixture(scope="module")
def rendered():
    """``rendered(render, svg)``: ``render(svg)``, each picture made once for the module's three tests."""
    pictures: dict[tuple[str, Path], Image.Image] = {}

    def get(render, svg: Path) -> Image.Image:
        key = (render.__name__, svg)
        if key not in pictures:
            pictures[key] = render(svg)
        return pictures[key]
    return get


def test_every_still_looks_the_same_in_chromium_librsvg_resvg_and_cairosvg(browser, stills, rsvg, rendered):
    report, failures = [], []
    labels_seen = 0
    for svg in stills:
        reference, labels = chromium_png(browser, svg)
        background = reference.getpixel((2, 2))
        drawn = [ink(reference, label, background) for label in labels]
        assert all(drawn), (svg.name, labels, drawn)
        labels_seen += len(labels)
        failed = len(failures)
        for name, render, tolerance in RENDERERS:
            picture = rendered(render, svg)
            difference = mean_difference(picture, reference)
            shares = [ink(picture, label, background) / ours for label, ours in zip(labels, drawn)]
            report.append(f"{svg.name} {name}: mean difference {difference:.2f}"
                          + (f", label ink {min(shares):.2f} to {max(shares):.2f}" if shares else ""))
            if difference > tolerance:
                failures.append(f"{report[-1]} (at most {tolerance})")
            if empty_cells(picture, reference) and not (name == "cairosvg" and svg.name.startswith(NO_GLYPHS)):
                failures.append(f"{svg.name}: {name} left cells {empty_cells(picture, reference)} empty")
            failures += [f"{svg.name}: {name} drew arrow label {label['text']!r} with {share:.2f} of chromium's ink"
                         for label, share in zip(labels, shares) if share < LABEL_INK]
        if len(failures) > failed:  # the pictures of a still that failed, to look at
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            reference.save(ARTIFACTS / f"{svg.stem}.chromium.png")
            for name, render, _ in RENDERERS:
                rendered(render, svg).save(ARTIFACTS / f"{svg.stem}.{name}.png")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "report.txt").write_text("\n".join(report) + "\n", "utf-8")
    assert labels_seen > 100, labels_seen  # the gallery and the generated specs label their arrows
    assert failures == [], "\n".join(failures)


def test_the_animated_svg_shows_the_poster_where_nothing_animates(stills, rsvg, rendered):
    for poster in stills:
        animated = poster.with_name(poster.name.replace(".poster", ""))
        for _, render, _ in RENDERERS:
            assert mean_difference(render(animated), rendered(render, poster)) < 0.5, (animated.name, render.__name__)


def test_stills_are_not_black_in_any_renderer(stills, rsvg, rendered):
    """The defect this guards against: colours only in CSS custom properties drew a black slab."""
    for svg in stills:
        for _, render, _ in RENDERERS:
            corner = rendered(render, svg).getpixel((2, 2))
            expected = (13, 17, 23) if ".dark." in svg.name else (255, 255, 255)
            assert corner == expected, (svg.name, render.__name__, corner)
