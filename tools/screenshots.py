"""Screenshots of figures for people to look at: each spec's HTML page at 360, 768 and 1280 px, light and dark,
at its first, middle and last step (reduced motion, so that no frame is caught mid-fade).

    python tools/screenshots.py [SPEC_OR_FOLDER ...] [-o build/screenshots] [--source-root DIR]
                                [--widths 360,600,768,900,1280] [--all-scenarios]

Default: the gallery, ``mechanisms/``.  Builds the specs into a temporary folder with ``mechdiagram build``
(``--allow-missing-sources``, so that a draft spec can be looked at), then drives Debian's chromium through
playwright and writes ``SLUG-WIDTH-SCHEME-STEP.png`` of each page's first figure, its first scenario; with
``--all-scenarios``, ``SLUG-SCENARIO-WIDTH-SCHEME-STEP.png`` of each of its scenarios (SCENARIO its number, from 1).
``--widths`` takes other widths in CSS px (a new user looked at 600 and 900 px too, where the middle layouts show).
``make screenshots`` runs it; the test suite does not (it asserts on the pictures through the browser tests
instead).

It needs playwright, a test extra: ``make screenshots`` (or ``make test``) installs it, or
``.venv/bin/pip install '.[test]'`` after ``make gallery``; and Debian's ``chromium``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Debian's chromium as the machine's own (no browser download), with the flags a closed network needs.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

#: Widths in CSS px: a phone, a tablet or blog column, a laptop.
WIDTHS = (360, 768, 1280)


#: In the page: the first figure's selected step (1-based) and its number of steps, from its step tabs.
STEP_JS = """root => {
  const tabs = Array.from(root.querySelectorAll(".mech-tabs:not([hidden]) [role=tab]"));
  return [tabs.findIndex(tab => tab.getAttribute("aria-selected") === "true") + 1, tabs.length];
}"""


def _widths(text: str) -> tuple[int, ...]:
    """``--widths``: CSS px, comma-separated, each from 200 to 4000."""
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give widths in CSS px, comma-separated (360,768,1280)") from None
    if not widths or not all(200 <= width <= 4000 for width in widths):
        raise argparse.ArgumentTypeError(f"{text!r}: each width from 200 to 4000 px")
    return widths


def _shots(page_file: Path, widths: tuple[int, ...], every: bool, browser) -> list[tuple[int, str, int]]:
    """The (width, scheme, scenario index) of each picture set of ``page_file``: its first figure's every scenario
    when ``every``, else its first."""
    count = 1
    if every:
        page = browser.new_page()
        page.goto(page_file.as_uri())
        count = max(1, page.locator(".mech-scenario").first.locator("option").count())
        page.close()
    return [(width, scheme, scenario) for scenario in range(count) for width in widths for scheme in ("light", "dark")]


def _step(page) -> tuple[int, int]:
    selected, count = page.locator("[data-mech-figure]").first.evaluate(STEP_JS)
    return int(selected), int(count)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("specs", nargs="*", type=Path, default=[ROOT / "mechanisms"])
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "build" / "screenshots")
    parser.add_argument("--source-root", type=Path, default=None,
                        help="folder the sources are relative to (default: each spec's project, as validate reads it)")
    parser.add_argument("--widths", type=_widths, default=WIDTHS, help="CSS px, comma-separated (360,768,1280)")
    parser.add_argument("--all-scenarios", action="store_true", help="every scenario of the figure, not the first")
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium is not installed: run scripts/install-browser", file=sys.stderr)
        return 1
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("playwright is not installed: run make screenshots, or .venv/bin/pip install '.[test]'", file=sys.stderr)
        return 1

    args.output.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        built = Path(tmp)
        root = ["--source-root", str(args.source_root)] if args.source_root is not None else []
        done = subprocess.run([sys.executable, "-m", "mechdiagram", "build", *map(str, args.specs), "-o", str(built),
                               *root, "--allow-missing-sources", "--no-index"], check=False)
        if done.returncode != 0:
            return done.returncode
        pages = sorted(p for p in built.glob("*.html") if not p.name.endswith(".fragment.html"))
        made = 0
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            for page_file in pages:
                slug = page_file.name.removesuffix(".html")
                for width, scheme, scenario in _shots(page_file, args.widths, args.all_scenarios, browser):
                    name = f"{slug}-{scenario + 1}" if args.all_scenarios else slug
                    context = browser.new_context(color_scheme=scheme, reduced_motion="reduce",
                                                  viewport={"width": width, "height": 900})
                    page = context.new_page()
                    page.goto(page_file.as_uri())
                    if scenario:
                        page.locator(".mech-scenario").first.select_option(str(scenario))
                    # A window as tall as the page, so that the whole figure is in view: the player holds a
                    # panel whose drawing runs past the window's foot over that drawing (issue 26), which a
                    # picture of the whole figure would show half-way down.
                    tall = page.evaluate("document.documentElement.scrollHeight")
                    page.set_viewport_size({"width": width, "height": max(900, tall)})
                    steps = _step(page)[1] or 1
                    for label, step in (("first", 1), ("middle", (steps + 1) // 2), ("last", steps)):
                        while _step(page)[0] < step:
                            page.locator(".mech-next").first.click()
                        target = args.output / f"{name}-{width}-{scheme}-{label}.png"
                        # The page at its top, as a reader meets the figure: a sequence's heads strip, which
                        # sticks to the top of the view once the page scrolls, then lies on the drawing's heads.
                        page.evaluate("window.scrollTo(0, 0)")
                        page.locator(".mech-stage").first.screenshot(path=target)
                        made += 1
                    context.close()
            browser.close()
    print(f"{made} screenshot(s) of {len(pages)} page(s) in {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
