"""Screenshots from Firefox ESR (Gecko), the third engine readers use: every page of ``mechanisms/``, at
360 or 1280 px in turn, saved under ``build/screenshots/firefox/`` for a person to look at, each checked to be
the window's size and to show the figure (not a blank or error page).  Firefox serves for still
screenshots only here (playwright's Firefox needs its own build; geckodriver is not packaged)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

Image = pytest.importorskip("PIL.Image", reason="Pillow reads the screenshots")

ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "firefox"


@pytest.fixture(scope="module")
def firefox():
    found = shutil.which("firefox-esr") or shutil.which("firefox")
    if found is None:
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail("firefox-esr is missing (scripts/install-browser installs it)", pytrace=False)
        pytest.skip("firefox-esr is missing (scripts/install-browser installs it)")
    return found


def shoot(firefox: str, page: Path, width: int, out: Path) -> Image.Image:
    with tempfile.TemporaryDirectory() as home:
        subprocess.run([firefox, "--headless", f"--window-size={width},900", "--screenshot", str(out),
                        page.as_uri()], env={**os.environ, "HOME": home}, check=True, capture_output=True,
                       timeout=120)
    return Image.open(out).convert("RGB")


def test_every_figure_page_renders_in_firefox(site, firefox):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # Each page at one of the two widths, in turn (a Firefox start is three seconds): both widths, and the
    # narrow and the wide layout, are seen on several figures.
    for index, slug in enumerate(site.mechanisms):
        width = (360, 1280)[index % 2]
        picture = shoot(firefox, site.page(slug), width, ARTIFACTS / f"{slug}-{width}.png")
        assert picture.size == (width, 900), (slug, picture.size)
        colours = picture.getcolors(maxcolors=1 << 16)
        assert colours is None or len(colours) > 20, f"{slug} at {width} px looks blank in Firefox"
