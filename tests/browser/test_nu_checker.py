"""The built pages pass the Nu HTML Checker (vnu.jar): every page of the site the browser suite builds (the
gallery's figures, the generated layouts, the right-to-left and other languages, the gallery page), pages
holding one fragment and two, a Markdown post with two fragments as markdown-it
renders it, and every SVG.  (A page holding one fragment twice repeats its ids in the markup, which the player
renames once it runs: the browser tests check them there.)

The checker runs with ``--no-langdetect`` (a figure's language is the spec's ``language``; the detector guesses
from a few words).  :data:`KNOWN_FALSE_POSITIVES` lists, with the reason for each, the messages it gives on
markup that is right; anything else fails the test.  ``make test`` installs the checker
(``scripts/install-checker``) and names the jar in ``MECHDIAGRAM_NU_JAR``; without it the test skips, or under
``CI=true`` fails, as the browser tests do.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest
from markdown_it import MarkdownIt

from . import browser_support as bs
from .conftest import unavailable

pytestmark = [pytest.mark.slow]

#: (message type, pattern of the message, why the markup is right).
KNOWN_FALSE_POSITIVES = (
    ("error", re.compile(r"CSS: Unrecognized at-rule “@container”"),
     "container queries (CSS Containment Module Level 3) are unknown to the checker's CSS parser"),
    ("error", re.compile(r"CSS: “container(-name|-type)?”: Property “container(-name|-type)?” doesn't exist"),
     "the container property, of the same module"),
    ("info", re.compile(r"Inline script violates Content Security Policy \(meta tag\)"),
     "the checker admits no script by its hash; the browser tests open every page under its policy and fail on "
     "any error it logs"),
    ("info", re.compile(r"Resource violates Content Security Policy \(meta tag\): image “[^”]+\.poster\.svg” "
                        r"blocked by “img-src” directive"),
     "the gallery page admits its posters with img-src 'self', which the checker does not match for a file; "
     "test_browser_gallery sees every poster loaded"),
)


@pytest.fixture(scope="module")
def nu_jar() -> str:
    jar = os.environ.get("MECHDIAGRAM_NU_JAR")
    if not jar or not os.path.isfile(jar):
        unavailable(f"the Nu HTML Checker is not installed (MECHDIAGRAM_NU_JAR={jar!r}; make test installs it)")
    if not shutil.which("java"):
        unavailable("java is not installed (make test installs Debian's default-jre-headless)")
    return jar


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> bs.Site:
    return bs.build_site(tmp_path_factory.mktemp("nu"))


def run_checker(jar: str, paths: list) -> list[dict]:
    """The checker's messages on ``paths`` (one process for all of them)."""
    done = subprocess.run(["java", "-jar", jar, "--no-langdetect", "--also-check-svg", "--format", "json",
                           *map(str, paths)], capture_output=True, text=True, timeout=300, check=False)
    return json.loads(done.stderr or done.stdout)["messages"]


def unexplained(messages: list[dict]) -> list[str]:
    return [f"{m.get('url', '').rsplit('/', 1)[-1]}:{m.get('lastLine')}: {m['type']}: {m['message']}"
            for m in messages
            if not any(m["type"] == kind and pattern.search(m["message"]) for kind, pattern, _ in KNOWN_FALSE_POSITIVES)]


def test_the_built_pages_pass_the_nu_html_checker(site, nu_jar):
    pages = sorted(p for p in site.out.glob("*.html")
                   if not p.name.endswith(".fragment.html")  # checked inside a host page, as a site embeds them
                   and not p.name.startswith("img-")  # the suite's own <img> hosts
                   and p != site.multi)  # one fragment twice: its ids repeat until the player renames them
    assert site.two in pages  # two fragments
    figures = [site.page(slug) for slug in site.all_slugs]
    assert set(figures) <= set(pages) and site.out / "index.html" in pages
    host = site.out / "one-fragment.html"
    host.write_text(bs.host_page("One fragment", [site.fragment(site.mechanisms[0])]), "utf-8")
    post = site.out / "markdown-post.html"
    post.write_text(bs.host_page("A post", [MarkdownIt("commonmark").render(
        f"Before.\n\n{site.fragment(site.mechanisms[0])}\nBetween.\n\n{site.fragment('relay')}\nAfter.\n")]), "utf-8")
    svgs = sorted(site.out.glob("*.svg"))
    assert len(svgs) >= 8 * len(figures)  # wide and narrow, light and dark, animated and poster
    # A page with the faults this checker was brought in for proves that it runs and that the list above
    # forgives none of them.
    canary = site.out / "canary.html"
    canary.write_text(bs.host_page("Canary", [
        '<div aria-labelledby="x"><p id="x">x</p></div>',
        '<div role="tablist" aria-label="Steps"><button type="button" role="tab" aria-selected="true">1</button></div>',
        '<svg xmlns:ev="http://www.w3.org/2001/xml-events" role="img" aria-label="x"></svg>']), "utf-8")
    messages = run_checker(nu_jar, pages + [host, post] + svgs + [canary])
    caught = [m["message"] for m in messages if m.get("url", "").endswith("/canary.html")]
    assert [any(word in m for m in caught) for word in ("aria-labelledby", "role=tabpanel", "xmlns:ev")] == [True] * 3, caught
    left = [line for line in unexplained(messages) if "canary.html" not in line]
    assert left == [], "\n".join(left)
