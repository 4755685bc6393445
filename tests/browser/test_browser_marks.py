"""Marks in the browser: the per-step stills that show marks look the same in chromium, librsvg, resvg and
CairoSVG (each mark's colour drawn where chromium draws it), the HTML player shows a step's marks and legend in
that step only, and axe finds nothing on a figure with marks in either scheme."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import browser_support as bs
import pytest
from test_browser_renderers import RENDERERS, chromium_png, empty_cells, mean_difference

from mechdiagram.layout import layout_scenario
from mechdiagram.render.outputs import render_outputs, selected
from mechdiagram.render.svg import prefix_for, render_scenario, svg_document
from mechdiagram.render.theme import MARK_COLOURS
from mechdiagram.shared.model import spec_from_data
from support.specs import marked_spec

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Least share of chromium's pixels of a mark's colour, around the mark, that another renderer draws.
MARK_INK = 0.7



@pytest.fixture(scope="module")
def stills(tmp_path_factory) -> list[tuple[Path, int]]:
    """Each step's still of :func:`marked_spec`, light (the ``--frames`` files) and dark, with its scheme (0, 1)."""
    folder = tmp_path_factory.mktemp("marks")
    data = marked_spec()
    spec = spec_from_data(data)
    files = render_outputs(spec, "tiny", [], selected({"frames"}))
    found = []
    for number in (1, 2, 3):
        path = folder / f"tiny.main.frame-{number}.svg"
        path.write_bytes(files[path.name])
        found.append((path, 0))
    scenario = spec.scenarios[0]
    svgs = render_scenario(spec, scenario, layout_scenario(spec, scenario), prefix_for("tiny", "main"), (1, 2, 3))
    for number, svg in svgs.dark_stills.items():
        path = folder / f"tiny.main.frame-{number}.dark.svg"
        path.write_bytes(svg_document(svg))
        found.append((path, 1))
    return found


def colour_ink(picture, colour: str) -> int:
    """Pixels of ``picture`` within 24 of ``colour`` in every channel."""
    target = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return sum(1 for pixel in picture.get_flattened_data() if all(abs(a - b) <= 24 for a, b in zip(pixel, target)))


def test_stills_with_marks_look_the_same_in_every_renderer(browser, stills):
    failures = []
    for svg, scheme in stills:
        reference, _ = chromium_png(browser, svg)
        text = svg.read_text("utf-8")
        marks = [mark for mark in MARK_COLOURS if f'data-mech-mark="{mark}"' in text]
        assert marks, svg.name
        for name, render, tolerance in RENDERERS:
            if name == "librsvg" and shutil.which("rsvg-convert") is None:
                continue
            picture = render(svg)
            difference = mean_difference(picture, reference)
            if difference > tolerance:
                failures.append(f"{svg.name} {name}: mean difference {difference:.2f} (at most {tolerance})")
            if empty_cells(picture, reference):
                failures.append(f"{svg.name}: {name} left cells {empty_cells(picture, reference)} empty")
            for mark in marks:
                colour = MARK_COLOURS[mark][scheme]
                ours, theirs = colour_ink(reference, colour), colour_ink(picture, colour)
                assert ours > 100, (svg.name, mark, ours)  # chromium draws the disc (and its legend entry)
                if theirs < MARK_INK * ours:
                    failures.append(f"{svg.name}: {name} drew {theirs} pixels of {mark}, chromium {ours}")
    assert failures == [], "\n".join(failures)


MARKS_JS = """(rid) => Array.from(document.querySelectorAll(
    `#${rid}-panel-0 .mech-wide svg [data-mech-mark], #${rid}-panel-0 .mech-wide svg g[class$="-legend"]`))
  .map(g => ({mark: g.getAttribute('data-mech-mark') || 'legend', steps: g.getAttribute('data-mech-steps'),
              shown: getComputedStyle(g).visibility === 'visible' && getComputedStyle(g).opacity === '1'}))"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_player_shows_a_steps_marks_and_axe_finds_nothing(site, open_page, check_axe, scheme):
    page = open_page(site.page("batching"), scheme=scheme, viewport=(1280, 900))
    page.keyboard.press("Tab")  # focus entering the player stops it
    rid = page.locator("mech-diagram").get_attribute("id")
    for step in (3, 1, 8):
        page.locator(f"#{rid}-tab-0-{step}").click()
        page.wait_for_timeout(600)  # past the highlights' ease
        seen = page.evaluate(MARKS_JS, rid)
        assert seen, "no marks in the batching figure"
        for entry in seen:
            assert entry["shown"] == (str(step) in entry["steps"].split()), (step, entry)
        # One legend, naming what the step marks (step 1 marks nothing).
        assert sum(entry["mark"] == "legend" and entry["shown"] for entry in seen) == (step != 1), (step, seen)
        if step == 8:
            assert any(entry["mark"] == "done" and entry["shown"] for entry in seen)
            assert any(entry["mark"] == "legend" and entry["shown"] for entry in seen)
        check_axe(page, f"batching.html, step {step} ({scheme})")


LEGEND_IN_VIEW_JS = """(figure) => {
  const svg = Array.from(figure.querySelectorAll('[data-mech-canvas] svg[role=img]')).find(s => s.getClientRects().length);
  const frame = svg.closest('[data-mech-canvas]').getBoundingClientRect();
  const legends = Array.from(svg.querySelectorAll('g[class$="-legend"]')).filter(g => {
    const style = getComputedStyle(g); return style.visibility === 'visible' && style.opacity === '1'; });
  return {frame: [frame.left, frame.right], scrolled: Math.abs(svg.closest('[data-mech-canvas]').scrollLeft),
          legends: legends.map(g => { const r = g.getBoundingClientRect(); return [r.left, r.right, g.textContent]; })};
}"""


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_kept_grid_holds_its_legend_in_view_on_a_phone(tmp_path, open_page, language):
    """A lane grid too wide for a phone scrolls in its frame, its legend a phone's wide at its left and held in view
    with the state panel, in either direction, wherever the player scrolls the frame to show a step's boxes."""
    from support.grids import grid_spec

    data = grid_spec(5, 9, seed=3, unit=None)
    data["language"] = language
    boxes = [key for key, target in data["targets"].items() if target["kind"] == "node"]
    for number, step in enumerate(data["scenarios"][0]["steps"]):
        far = boxes[-1 - number * 3]  # a box far along the lane, so the frame scrolls to it
        step.update(active=[far], marks={far: "new", boxes[number]: "done"})
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "wide.mechanism.json").write_text(json.dumps(data), "utf-8")
    bs.build([tmp_path / "specs"], tmp_path / "site")
    page = open_page(tmp_path / "site" / "wide.html", viewport=(360, 800), motion="reduce")
    figure = bs.figures(page).nth(0)
    rid = figure.get_attribute("id")
    scrolled = []
    for number in range(1, len(data["scenarios"][0]["steps"]) + 1):
        page.locator(f"#{rid}-tab-0-{number}").click()
        page.wait_for_timeout(300)
        seen = figure.evaluate(LEGEND_IN_VIEW_JS)
        (left, right, words), = seen["legends"]
        assert seen["frame"][0] <= left < right <= seen["frame"][1] and words, seen
        scrolled.append(seen["scrolled"])
    assert max(scrolled) > 0  # the frame was scrolled away from the drawing's left in some step
