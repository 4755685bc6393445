"""The preview server in chromium: the page reloads by itself after a save, under the server's own
Content Security Policy, and shows findings in place of the figure while the spec is invalid."""

from __future__ import annotations

import json

import pytest

from mechdiagram.serve import PreviewServer
from mechdiagram.shared.config import Options
from support.serve import spec_with_title
from support.specs import minimal_spec

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_preview_reloads_itself_and_shows_findings(browser, check_axe, tmp_path):
    spec = tmp_path / "tiny.mechanism.json"
    spec.write_text(spec_with_title("First title"), "utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    with PreviewServer(Options(specs=[tmp_path], source_root=tmp_path, jobs=1)) as server:
        try:
            page = context.new_page()
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(server.url + "preview/tiny")
            title = page.locator(".mech-root svg > title").first
            assert title.text_content(timeout=10000) == "First title"
            page.wait_for_selector(".mech-controls:not([hidden])")  # the player ran, under the preview's policy
            check_axe(page, "the preview of a figure")
            page.evaluate("window.mdMarker = 1")  # gone once the page reloads

            spec.write_text(spec_with_title("Second title"), "utf-8")
            page.wait_for_function("() => window.mdMarker === undefined", timeout=10000)
            assert title.text_content(timeout=10000) == "Second title"

            data = minimal_spec()
            data["scenarios"][0]["steps"][0]["active"] = ["a9"]
            spec.write_text(json.dumps(data, indent=2), "utf-8")
            page.wait_for_selector(".mech-serve-findings li", timeout=10000)
            assert "[unknown-target]" in page.inner_text(".mech-serve-findings")
            assert page.locator(".mech-root").count() == 0
            check_axe(page, "the preview's findings page")
            page.goto(server.url)
            check_axe(page, "the preview's index page")
        finally:
            context.close()
    assert problems == []  # no CSP violation, no script error
