"""The suite's own footing: the browser starts, a missing browser fails CI, pages stay offline and error-free."""

from __future__ import annotations

import os
import subprocess
import sys

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HERE = os.path.dirname(os.path.abspath(__file__))


def test_browser_launches(browser):
    assert browser.is_connected()
    assert browser.version


@pytest.mark.parametrize("ci", ["true", None])
def test_missing_chromium_fails_under_ci_and_skips_otherwise(ci):
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["MECHDIAGRAM_CHROMIUM"] = os.path.join(HERE, "no-such-chromium")
    if ci:
        env["CI"] = ci
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         f"{HERE}/test_browser_setup.py::test_browser_launches"],
        cwd=bs.ROOT, env=env, capture_output=True, text=True, timeout=120)
    output = run.stdout + run.stderr
    if ci:
        assert run.returncode != 0, output
        assert "1 error" in output and "CI=true" in output, output
    else:
        assert run.returncode == 0, output
        assert "1 skipped" in output and "no chromium executable" in output, output


def test_pages_load_offline_without_errors(site, open_page):
    """Every page runs its player under its own Content Security Policy, logs no error and asks the network
    for nothing (requests other than file: are aborted and recorded)."""
    for path in [site.page(slug) for slug in site.all_slugs] + [site.multi, site.two]:
        page = open_page(path)
        assert page.opened.errors == [], (path.name, page.opened.errors)
        assert page.opened.requests == [], (path.name, page.opened.requests)
        ready = page.evaluate("Array.from(document.querySelectorAll('[data-mech-figure]'))"
                              ".map(r => r.hasAttribute('data-mech-ready') && !r.querySelector('.mech-controls').hidden)")
        assert ready and all(ready), (path.name, ready)
