"""Figures in real docs sites, built by their own tools: an MkDocs site (Material, with instant navigation and a
light/dark palette toggle, ``plugins: [mechdiagram]``), a Sphinx project (Furo, an .rst page and a MyST page,
``extensions = ["mechdiagram.sphinx"]``) and a Hugo site (Debian's hugo; the README's shortcode over ``build``
output), each with two figures.  In each, both players work (also after an instant
page change that starts from a page without figures), the site's own dark toggle recolours the figures, axe finds
nothing inside them, no console error, every id is unique and the player module is loaded once a page.

The sites are served from the test origin (:data:`browser_support.ORIGIN`, answered by the browser from the file system):
MkDocs' ``site_url`` is the site folder's URL there, since Material navigates instantly only on its own origin."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import browser_support as bs
import pytest

from mechdiagram.render import theme

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LIGHT = [[bs.rgb(theme.LIGHT.bg)] * 2] * 2
DARK = [[bs.rgb(theme.DARK.bg)] * 2] * 2


def _project(root: Path) -> Path:
    """A project folder with two specs: the lead spec (with its pinned source) and the generated ``relay``."""
    (root / "mechanisms" / "sources").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.mechdiagram]\n", "utf-8")
    lead = bs.MECHANISMS / f"{bs.LEAD}.mechanism.json"
    shutil.copy(lead, root / "mechanisms")
    for source in json.loads(lead.read_text("utf-8"))["sources"]:
        shutil.copy(bs.ROOT / source["path"], root / source["path"])
    (root / "mechanisms" / "relay.mechanism.json").write_text(json.dumps(bs.relay_spec(), indent=2), "utf-8")
    return root


def _run(*command: str, cwd: Path) -> None:
    done = subprocess.run([sys.executable, "-m", *command], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr


MKDOCS_YML = """site_name: Figures
site_url: {url}
use_directory_urls: false
nav: [index.md, figures.md]
theme:
  name: material
  font: false
  features: [navigation.instant]
  palette:
    - scheme: default
      toggle: {{icon: material/weather-night, name: Dark mode}}
    - scheme: slate
      toggle: {{icon: material/weather-sunny, name: Light mode}}
plugins: [mechdiagram]
"""

FIGURES_MD = f"""# Figures

What the first figure shows.

```mechanism
mechanisms/{bs.LEAD}.mechanism.json
```

What the second one shows.

~~~mechanism scenario=lossy
mechanisms/relay.mechanism.json
~~~

The end.
"""


@pytest.fixture(scope="module")
def mkdocs_site(tmp_path_factory) -> Path:
    """The MkDocs site, built by ``mkdocs build --strict``: its ``site`` folder."""
    root = _project(tmp_path_factory.mktemp("mkdocs"))
    site = root / "site"
    (root / "mkdocs.yml").write_text(MKDOCS_YML.format(url=bs.ORIGIN + site.resolve().as_posix() + "/"), "utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Home\n\nNo figure here: see [the figures](figures.md).\n", "utf-8")
    (root / "docs" / "figures.md").write_text(FIGURES_MD, "utf-8")
    _run("mkdocs", "build", "--strict", cwd=root)
    return site


RST = f"""Figures
=======

.. toctree::

   myst

What the first figure shows.

.. mechanism:: /../mechanisms/{bs.LEAD}.mechanism.json

What the second one shows.

.. mechanism:: ../mechanisms/relay.mechanism.json
   :caption: The relay, with a caption of the page's.
"""

MYST = f"""# The MyST page

```{{mechanism}} ../mechanisms/relay.mechanism.json
:scenario: lossy
```

Between the figures.

```{{mechanism}} ../mechanisms/{bs.LEAD}.mechanism.json
:caption: The lead figure.
```
"""


@pytest.fixture(scope="module")
def sphinx_site(tmp_path_factory) -> Path:
    """The Sphinx project, built by ``sphinx-build -W``: its output folder."""
    root = _project(tmp_path_factory.mktemp("sphinx"))
    (root / "docs").mkdir()
    (root / "docs" / "conf.py").write_text('project = "Figures"\nhtml_theme = "furo"\n'
                                           'extensions = ["myst_parser", "mechdiagram.sphinx"]\n', "utf-8")
    (root / "docs" / "index.rst").write_text(RST, "utf-8")
    (root / "docs" / "myst.md").write_text(MYST, "utf-8")
    _run("sphinx", "-W", "-q", "-b", "html", "docs", "out", cwd=root)
    return root / "out"


def _players_work(page) -> None:
    """Both figures are ready, and each answers its own buttons: paused, Next (or Previous, at the last step) moves it
    one step and leaves the other where it is."""
    figures = bs.figures(page)
    assert figures.count() == 2
    assert page.evaluate("document.querySelectorAll('mech-diagram[data-mech-ready]').length") == 2
    for index in range(2):
        if bs.state(page, index)["label"] == bs.PAUSE_LABEL:
            figures.nth(index).locator(".mech-play").click()
        assert bs.state(page, index)["label"] == bs.PLAY_LABEL
    for index in range(2):
        other = 1 - index
        before, held = bs.step_of(page, index), bs.step_of(page, other)
        last = len(bs.player_data(page, index)["scenarios"][bs.state(page, index)["scenario"]]["steps"])
        button, moved = (".mech-next", before + 1) if before < last else (".mech-prev", before - 1)
        figures.nth(index).locator(button).click()
        assert bs.step_of(page, index) == moved
        assert bs.step_of(page, other) == held


def _module_loads(page) -> list[str]:
    return [url for url in page.opened.loaded if re.search(r"/mechdiagram-player\.[0-9a-f]{12}\.js(\?[^#]*)?$", url)]


def _clean(page, axe) -> None:
    """axe finds nothing inside the figures; every id is unique and resolves; nothing failed or was refused."""
    results = axe.run(page, context={"include": [["mech-diagram"]]}, options=bs.AXE_OPTIONS)
    assert results.violations_count == 0, results.generate_report()
    ids = page.evaluate(bs.ids_report_js())
    assert ids["duplicates"] == [] and ids["broken"] == [] and ids["foreign"] == [], ids
    assert page.opened.errors == [] and page.opened.requests == []


def test_mkdocs_material_figures_work_after_an_instant_page_change_and_follow_the_palette(mkdocs_site, open_page,
                                                                                           axe):
    page = open_page(mkdocs_site / "index.html")
    assert bs.figures(page).count() == 0
    assert len(_module_loads(page)) == 1  # on a page without figures too, for the pages instant navigation brings
    page.evaluate("window.notReloaded = true")
    page.get_by_role("link", name="the figures").click()
    page.wait_for_function("document.querySelectorAll('mech-diagram[data-mech-ready]').length === 2")
    assert page.url.endswith("/figures.html") and page.evaluate("window.notReloaded === true")  # instant
    _players_work(page)
    assert len(_module_loads(page)) == 1
    assert bs.colours(page) == LIGHT
    page.locator("form[data-md-component=palette] label:not([hidden])").click()  # the site's toggle: dark
    assert page.evaluate("document.body.dataset.mdColorScheme") == "slate"
    assert bs.colours(page) == DARK
    page.locator("form[data-md-component=palette] label:not([hidden])").click()  # and light again
    assert bs.colours(page) == LIGHT
    _clean(page, axe)


def test_mkdocs_material_figures_page_opened_directly(mkdocs_site, open_page, axe):
    page = open_page(mkdocs_site / "figures.html", scheme="dark")
    _players_work(page)
    assert len(_module_loads(page)) == 1
    # The palette has no "media" entries: Material shows its first scheme whatever the system's, and the figures
    # follow the page, not the system.
    assert page.evaluate("document.body.dataset.mdColorScheme") == "default"
    assert bs.colours(page) == LIGHT
    _clean(page, axe)


@pytest.mark.parametrize("name", ["index.html", "myst.html"])
def test_sphinx_furo_figures_work_and_follow_the_theme_toggle(sphinx_site, open_page, axe, name):
    page = open_page(sphinx_site / name)
    _players_work(page)
    assert len(_module_loads(page)) == 1
    assert bs.colours(page) == LIGHT
    page.locator("button.theme-toggle:visible").first.click()  # Furo: auto, then dark (on a light system)
    assert page.evaluate("document.body.dataset.theme") == "dark"
    assert bs.colours(page) == DARK
    page.locator("button.theme-toggle:visible").first.click()  # then light
    assert page.evaluate("document.body.dataset.theme") == "light"
    assert bs.colours(page) == LIGHT
    _clean(page, axe)


HUGO_TOML = """baseURL = "{url}"
uglyURLs = true
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
"""

#: A page layout with the site's own dark-mode switch: a button that toggles the class ``dark`` on ``<html>``.
HUGO_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }}</title></head>
<body><main><h1>{{ .Title }}</h1>
<button type="button" onclick="document.documentElement.classList.toggle('dark')">Dark mode</button>
{{ .Content }}</main></body>
</html>
"""

#: The README's shortcode.
HUGO_SHORTCODE = '{{ readFile (printf "static/figures/%s.fragment.html" (.Get 0)) | safeHTML }}\n'

HUGO_CONTENT = f"""---
title: Figures
---
What the first figure shows.

{{{{< mechanism {bs.LEAD} >}}}}

What the second one shows.

{{{{< mechanism relay >}}}}
"""


@pytest.fixture(scope="module")
def hugo_site(tmp_path_factory) -> Path:
    """The Hugo site, its figures built by ``mechdiagram build`` into ``static/figures`` and included by the
    README's shortcode: its ``public`` folder.  Skipped without Debian's hugo (``scripts/install-browser``)."""
    if shutil.which("hugo") is None:
        pytest.skip("hugo is not installed (Debian's hugo package: scripts/install-browser installs it)")
    root = _project(tmp_path_factory.mktemp("hugo"))
    public = root / "public"
    (root / "hugo.toml").write_text(HUGO_TOML.format(url=bs.ORIGIN + public.resolve().as_posix() + "/"), "utf-8")
    for name, text in {"layouts/_default/single.html": HUGO_PAGE, "layouts/index.html": HUGO_PAGE,
                       "layouts/shortcodes/mechanism.html": HUGO_SHORTCODE, "content/figures.md": HUGO_CONTENT}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    _run("mechdiagram", "build", "mechanisms", "-o", "static/figures", "--no-index",
         "--player-url", public.resolve().as_posix() + "/figures/", cwd=root)
    done = subprocess.run(["hugo", "--quiet"], cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return public


def test_hugo_shortcode_figures_work_and_follow_the_sites_switch(hugo_site, open_page, axe):
    page = open_page(hugo_site / "figures.html")
    _players_work(page)
    assert len(_module_loads(page)) == 1
    assert bs.colours(page) == LIGHT
    page.get_by_role("button", name="Dark mode").click()
    assert bs.colours(page) == DARK
    page.get_by_role("button", name="Dark mode").click()
    assert bs.colours(page) == LIGHT
    _clean(page, axe)
