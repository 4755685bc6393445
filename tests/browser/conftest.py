"""Fixtures of the browser suite: chromium driven by playwright, axe-core, WebKit driven by selenium through
WebKitWebDriver (:mod:`webkit_support`), and the site the tests build.

Without playwright or a chromium the suite skips, except under ``CI=true``, where it fails: a CI run
that silently skipped every accessibility check would pass while proving nothing.
``MECHDIAGRAM_CHROMIUM`` names the browser executable to use instead of the one on ``PATH``.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import browser_support as bs
import webkit_support


def on_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1")


def unavailable(reason: str):
    """Skip, or under ``CI=true`` fail, because the browser suite cannot run."""
    if on_ci():
        pytest.fail(f"browser tests cannot run: {reason} (CI=true: a missing browser is a failure, not a skip)",
                    pytrace=False)
    pytest.skip(f"browser tests cannot run: {reason}")


def chromium_executable(playwright=None) -> str | None:
    """``$MECHDIAGRAM_CHROMIUM``, else chromium on ``PATH``, else playwright's own download if present."""
    override = os.environ.get("MECHDIAGRAM_CHROMIUM")
    if override is not None:
        return override if os.path.isfile(override) and os.access(override, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    if playwright is not None:
        try:
            bundled = playwright.chromium.executable_path
        except Exception:
            return None
        if bundled and os.path.isfile(bundled):
            return bundled
    return None


@pytest.fixture(scope="session")
def playwright_runtime():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        unavailable(f"playwright is not installed ({exc})")
    runtime = sync_playwright().start()
    yield runtime
    runtime.stop()


@pytest.fixture(scope="session")
def launch(playwright_runtime):
    """``launch(*extra_args)``: a chromium started with :data:`browser_support.CHROMIUM_ARGS` plus ``extra_args``;
    closed at the end of the session."""
    executable = chromium_executable(playwright_runtime)
    if executable is None:
        unavailable("no chromium executable (install Debian's chromium: scripts/install-browser)")
    started = []

    def start(*extra: str):
        try:
            browser = playwright_runtime.chromium.launch(executable_path=executable,
                                                         args=bs.CHROMIUM_ARGS + list(extra))
        except Exception as exc:
            unavailable(f"chromium at {executable} does not start: {exc}")
        started.append(browser)
        return browser

    yield start
    for browser in started:
        browser.close()


@pytest.fixture(scope="session")
def browser(launch):
    return launch()


def webkit_session(*, reduced_motion: bool):
    """Yield the driver of a :func:`webkit_support.start_webkit` session; stop it afterwards."""
    reason = webkit_support.missing()
    if reason:
        unavailable(f"WebKit: {reason}")
    try:
        running = webkit_support.start_webkit(reduced_motion=reduced_motion)
    except Exception as exc:
        unavailable(f"WebKit does not start: {exc}")
    yield running.driver
    running.stop()


@pytest.fixture(scope="session")
def webkit():
    """A selenium session in WebKitGTK's MiniBrowser (see :mod:`webkit_support`), for the whole session; its GTK
    settings turn animations on (``prefers-reduced-motion: no-preference``)."""
    yield from webkit_session(reduced_motion=False)


@pytest.fixture(scope="session")
def webkit_reduced():
    """A second MiniBrowser session whose GTK settings turn animations off, so that its pages match
    ``(prefers-reduced-motion: reduce)`` (WebKitWebDriver has no media emulation: see :mod:`webkit_support`)."""
    yield from webkit_session(reduced_motion=True)


@pytest.fixture(scope="session")
def axe():
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError as exc:
        unavailable(f"axe-playwright-python is not installed ({exc})")
    return Axe()


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> bs.Site:
    """Every spec in mechanisms/ plus the generated ones, built by mechdiagram.site.build, and the host pages."""
    return bs.build_site(tmp_path_factory.mktemp("browser"))


#: The origin a page that loads the player's module file is served from (:data:`browser_support.ORIGIN`).
ORIGIN = bs.ORIGIN


def page_url(path: Path) -> str:
    """Where :func:`open_page` opens ``path``: from :data:`ORIGIN` when the page loads the player's module from a
    file (a fragment in a host page), else as a ``file:`` URL (a standalone page, which inlines the module, opens
    from disk as a reader's would)."""
    text = Path(path).read_text("utf-8", errors="replace")
    return ORIGIN + Path(path).resolve().as_posix() if '<script type="module" src=' in text else Path(path).as_uri()


def serve_files(context) -> None:
    """Answer ``context``'s requests to :data:`ORIGIN` with the file of the same path (404 when there is none)."""
    def answer(request_route):
        from urllib.parse import unquote, urlsplit

        local = Path(unquote(urlsplit(request_route.request.url).path))
        if local.is_file():
            request_route.fulfill(path=str(local))
        else:
            request_route.fulfill(status=404, body="")
    context.route(ORIGIN + "/**", answer)


@pytest.fixture(scope="session")
def site_url(site):
    """``site_url(path)``: the URL of ``path`` (a file of ``site.out``) on a web server on 127.0.0.1 that serves
    ``site.out``, for a browser that cannot be told to answer requests itself (WebKit through WebDriver) and a page
    that loads the player's module file, which no browser runs from a ``file:`` page."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format, *args):  # noqa: A002 (the base class's name)
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site.out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def url(path: Path) -> str:
        return f"http://127.0.0.1:{server.server_address[1]}/{Path(path).relative_to(site.out).as_posix()}"

    yield url
    server.shutdown()
    server.server_close()


class Opened:
    """What :func:`open_page` records about one page: uncaught errors, console errors, network requests."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []  # aborted: neither a file nor the test origin's
        self.loaded: list[str] = []  # every request the page made


@pytest.fixture
def open_page(browser):
    """``open_page(path, scheme=, motion=, clock=, touch=, browser=)`` -> a page showing ``path`` (file://)
    once every player on it has started.

    Each page gets its own context: ``scheme`` is the emulated ``prefers-color-scheme``, ``motion`` the
    emulated ``prefers-reduced-motion``; ``clock=True`` installs playwright's clock, paused, before the page
    loads, so the player's timers advance only through ``page.clock.run_for``.  ``page.opened`` is an
    :class:`Opened`.  A page that loads the player's module file is opened from :data:`ORIGIN`
    (:func:`page_url`); any other request that is not for a file is aborted and recorded.

    Opening a page closes the one opened before it, unless that one was opened with ``keep=True``: a page left
    open goes on animating its figures, and a test that walks twenty pages ran twice as long for the pages
    behind it.
    """
    contexts = []
    browser_default = browser
    last: list = []  # the page opened last without keep=True

    def open_(path: Path, *, scheme: str = "light", motion: str = "no-preference", clock: bool = False,
              touch: bool = False, browser=None, viewport=(1280, 900), keep: bool = False):
        while last:
            last.pop().close()
        context = (browser or browser_default).new_context(
            color_scheme=scheme, reduced_motion=motion, has_touch=touch,
            viewport={"width": viewport[0], "height": viewport[1]})
        contexts.append(context)
        opened = Opened()

        def route(request_route):
            opened.requests.append(request_route.request.url)
            request_route.abort()

        context.route(lambda url: not url.startswith(("file:", ORIGIN + "/")), route)
        serve_files(context)
        page = context.new_page()
        page.on("pageerror", lambda error: opened.errors.append(f"uncaught: {error}"))
        page.on("request", lambda request: opened.loaded.append(request.url))
        page.on("console", lambda message: opened.errors.append(f"console: {message.text}")
                if message.type == "error" else None)
        if clock:
            page.clock.install(time=0)
            page.clock.pause_at(1000)
        page.goto(page_url(path))
        page.wait_for_function("document.querySelectorAll('[data-mech-figure]:not([data-mech-ready])').length === 0")
        page.opened = opened
        if not keep:
            last.append(context)
        return page

    yield open_
    for context in contexts:
        context.close()


@pytest.fixture
def check_axe(axe):
    """``check_axe(page, what)``: run axe-core with :data:`browser_support.AXE_OPTIONS`; fail listing every
    violation.  Returns axe's response."""
    def run(page, what: str) -> None:
        results = axe.run(page, options=bs.AXE_OPTIONS)
        assert results.violations_count == 0, f"axe on {what}:\n{results.generate_report()}"
        return results.response
    return run


@pytest.fixture(scope="module")
def context(browser):
    """A browser context without motion, 1,280 by 900 px, that loads nothing but local files: the geometry and the
    route rules are measured in one, a page per figure."""
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    context.route(lambda url: not url.startswith("file:"), lambda route: route.abort())
    yield context
    context.close()
