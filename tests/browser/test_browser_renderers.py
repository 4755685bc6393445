"""Every still SVG looks the same in chromium, librsvg (``rsvg-convert``) and resvg, and the animated
SVG's base state in a renderer that does not animate is the poster.

Each still is rasterised at its natural size by the three renderers.  Tolerances: the mean absolute
difference per colour channel from chromium's picture is at most :data:`MEAN_TOLERANCE` (of 255; measured 0.9 to 1.5; text
anti-aliasing and hinting differ between renderers, colours and geometry must not), and no cell of an
8 by 8 grid is empty (plain background) in one renderer where chromium drew something.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

Image = pytest.importorskip("PIL.Image", reason="Pillow compares the pictures")
ImageChops = pytest.importorskip("PIL.ImageChops")
ImageStat = pytest.importorskip("PIL.ImageStat")
resvg_py = pytest.importorskip("resvg_py", reason="resvg-py rasterises with resvg")

#: Largest mean absolute difference per channel (0-255) between a renderer's picture and chromium's.
MEAN_TOLERANCE = 3.0
GRID = 8


def chromium_png(browser, svg: Path) -> Image.Image:
    page = browser.new_page(viewport={"width": 1600, "height": 1200})
    try:
        page.goto(svg.as_uri())
        size = page.evaluate("() => [document.documentElement.width.baseVal.value, "
                             "document.documentElement.height.baseVal.value]")
        page.set_viewport_size({"width": int(size[0]), "height": int(size[1])})
        data = page.screenshot(clip={"x": 0, "y": 0, "width": int(size[0]), "height": int(size[1])})
    finally:
        page.close()
    return Image.open(io.BytesIO(data)).convert("RGB")


def rsvg_png(svg: Path) -> Image.Image:
    data = subprocess.run(["rsvg-convert", str(svg)], check=True, capture_output=True).stdout
    return Image.open(io.BytesIO(data)).convert("RGB")


def resvg_png(svg: Path) -> Image.Image:
    return Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_path=str(svg))))).convert("RGB")


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    assert a.size == b.size, (a.size, b.size)
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def empty_cells(picture: Image.Image, reference: Image.Image) -> list[tuple[int, int]]:
    """Grid cells where ``reference`` has more than one colour and ``picture`` has only one."""
    width, height = reference.size
    found = []
    for row in range(GRID):
        for column in range(GRID):
            box = (column * width // GRID, row * height // GRID, (column + 1) * width // GRID,
                   (row + 1) * height // GRID)
            drawn = reference.crop(box).getcolors(maxcolors=1 << 16) or [(0, 0), (0, 1)]
            mine = picture.crop(box).getcolors(maxcolors=1 << 16) or [(0, 0), (0, 1)]
            if len(drawn) > 1 and len(mine) == 1:
                found.append((row, column))
    return found


@pytest.fixture(scope="module")
def stills(site) -> list[Path]:
    names = sorted(p for p in site.out.glob("*.poster*.svg"))
    assert names
    return names


@pytest.fixture(scope="module")
def rsvg():
    if shutil.which("rsvg-convert") is None:
        pytest.skip("rsvg-convert is missing (Debian librsvg2-bin, installed by scripts/install-browser)")


#: Where the pictures and the measured differences go, for a person to look at (not committed).
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "renderers"


def test_every_still_looks_the_same_in_chromium_librsvg_and_resvg(browser, stills, rsvg):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    report = []
    for svg in stills:
        reference = chromium_png(browser, svg)
        reference.save(ARTIFACTS / f"{svg.stem}.chromium.png")
        for name, picture in (("librsvg", rsvg_png(svg)), ("resvg", resvg_png(svg))):
            picture.save(ARTIFACTS / f"{svg.stem}.{name}.png")
            difference = mean_difference(picture, reference)
            report.append(f"{svg.name} {name}: mean difference {difference:.2f}")
            assert difference <= MEAN_TOLERANCE, report[-1]
            assert empty_cells(picture, reference) == [], f"{svg.name}: {name} left cells empty"
        (ARTIFACTS / "report.txt").write_text("\n".join(report) + "\n", "utf-8")


def test_the_animated_svg_shows_the_poster_where_nothing_animates(stills, rsvg):
    for poster in stills:
        animated = poster.with_name(poster.name.replace(".poster", ""))
        for render in (rsvg_png, resvg_png):
            assert mean_difference(render(animated), render(poster)) < 0.5, (animated.name, render.__name__)


def test_stills_are_not_black_in_any_renderer(stills, rsvg):
    """The defect this guards against: colours only in CSS custom properties drew a black slab."""
    for svg in stills:
        for render in (rsvg_png, resvg_png):
            picture = render(svg)
            corner = picture.getpixel((2, 2))
            expected = (13, 17, 23) if ".dark." in svg.name else (255, 255, 255)
            assert corner == expected, (svg.name, render.__name__, corner)
