"""WebKit (WebKitGTK's MiniBrowser, the engine of Safari and of every iOS browser) driven through WebKitWebDriver
with selenium, under a virtual X display (xvfb-run).

:func:`start_webkit` starts the driver on a free port with the environment WebKitGTK needs in a container and
returns a :class:`WebKit` whose ``driver`` is a selenium session; :meth:`WebKit.stop` ends the session and the
driver's process group (only the processes it started).

Reduced motion: WebKitWebDriver has no media emulation, so ``prefers-reduced-motion`` comes from the system, as
it does for a reader. WebKitGTK's UI process answers it from the GTK setting ``gtk-enable-animations``
(``reduce`` when it is false; GTK 4.22 and newer: ``gtk-interface-reduced-motion``), in
``SystemSettingsManagerProxy::reducedMotion`` (WebKit, Source/WebKit/UIProcess/gtk/SystemSettingsManagerProxyGtk.cpp).
GTK 3 (the toolkit of webkit2gtk-4.1, whose MiniBrowser we drive) reads its settings' defaults from
``$XDG_CONFIG_HOME/gtk-3.0/settings.ini`` (gtk/gtksettings.c, ``gtk_settings_init``), and nothing overrides them
under xvfb-run: Xvfb runs no XSETTINGS manager. So each session gets a folder of its own as ``XDG_CONFIG_HOME``
whose ``settings.ini`` says ``gtk-enable-animations`` true or false (:func:`write_gtk_settings`): the motion
tests see animations whatever the developer's own GTK settings say, the reduced-motion tests see ``reduce``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import browser_support as bs

#: Where Debian's webkit2gtk-driver package puts the MiniBrowser that WebKitWebDriver automates.
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")

#: WebKitGTK in a container: no bubblewrap sandbox (it needs user namespaces), no GPU compositing.
WEBKIT_ENV = {"WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS": "1", "WEBKIT_DISABLE_COMPOSITING_MODE": "1"}

START_TIMEOUT_S = 60


def write_gtk_settings(config_home: Path, *, animations: bool) -> Path:
    """Write ``config_home/gtk-3.0/settings.ini`` with ``gtk-enable-animations`` set; return the file.

    With ``animations=False``, a WebKitGTK started with ``XDG_CONFIG_HOME=config_home`` matches
    ``(prefers-reduced-motion: reduce)`` (see the module's docstring for the WebKit and GTK sources).
    """
    folder = config_home / "gtk-3.0"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "settings.ini"
    path.write_text(f"[Settings]\ngtk-enable-animations={'true' if animations else 'false'}\n", "utf-8")
    return path


def missing() -> str | None:
    """Why WebKit cannot run here, or None."""
    for command in ("WebKitWebDriver", "xvfb-run"):
        if shutil.which(command) is None:
            return f"{command} is not installed (scripts/install-browser installs webkit2gtk-driver and xvfb)"
    if not MINIBROWSER.is_file():
        return f"no MiniBrowser at {MINIBROWSER} (Debian's webkit2gtk-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError as exc:
        return f"selenium is not installed ({exc})"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class WebKit:
    """A running WebKitWebDriver (its process group) and one selenium session."""

    process: subprocess.Popen
    driver: object
    config_home: Path  # the session's XDG_CONFIG_HOME (its GTK settings), removed by stop()

    def stop(self) -> None:
        try:
            self.driver.quit()  # type: ignore[attr-defined]
        finally:
            os.killpg(self.process.pid, 15)
            self.process.wait(timeout=30)
            shutil.rmtree(self.config_home, ignore_errors=True)


def start_webkit(*, reduced_motion: bool = False) -> WebKit:
    """Start WebKitWebDriver under xvfb-run on a free port and open a MiniBrowser session.

    ``reduced_motion=True``: the session's GTK settings turn animations off, so its pages match
    ``(prefers-reduced-motion: reduce)``; otherwise they turn them on (``no-preference``).
    """
    from selenium import webdriver
    from selenium.webdriver.common.options import ArgOptions

    port = free_port()
    config_home = Path(tempfile.mkdtemp(prefix="mechdiagram-webkit-config-"))
    write_gtk_settings(config_home, animations=not reduced_motion)
    process = subprocess.Popen(["xvfb-run", "-a", "WebKitWebDriver", f"--port={port}"],
                               env={**os.environ, **WEBKIT_ENV, "XDG_CONFIG_HOME": str(config_home)},
                               start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + START_TIMEOUT_S
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("WebKitWebDriver did not start") from None
                time.sleep(0.1)
        options = ArgOptions()
        options.set_capability("browserName", "MiniBrowser")
        options.set_capability("webkitgtk:browserOptions", {"binary": str(MINIBROWSER), "args": ["--automation"]})
        driver = webdriver.Remote(command_executor=f"http://127.0.0.1:{port}", options=options)
    except BaseException:
        os.killpg(process.pid, 15)
        process.wait(timeout=30)
        shutil.rmtree(config_home, ignore_errors=True)
        raise
    return WebKit(process, driver, config_home)


#: Calls back once the page's ``<img id="shot">`` (:func:`browser_support.img_page`) has loaded and decoded.
IMG_LOADED_JS = """
const done = arguments[arguments.length - 1], img = document.getElementById("shot");
const ready = () => img.decode().then(() => done(img.naturalWidth), () => done(0));
if (img.complete) { ready(); } else { img.addEventListener("load", ready); img.addEventListener("error", () => done(0)); }
"""


def shoot_img_over_time(driver, url: str, times=(0.0, 1.5, 3.0)) -> tuple[dict[float, bytes], dict[float, tuple]]:
    """Open ``url`` (an :func:`browser_support.img_page`) and take element screenshots (PNG) of its ``<img>`` at
    ``times`` seconds after it loaded, as test_browser_svg's ``shoot_over_time`` does in chromium; also return
    each shot's time window (seconds from the load, begun and done) for the caller to check."""
    driver.get(url)
    assert driver.execute_async_script(IMG_LOADED_JS) > 0, f"the image of {url} did not load"
    image = driver.find_element("css selector", "#shot")
    return bs.shots_over_time(lambda at: image.screenshot_as_png, times)


def differing_pixels(a: bytes, b: bytes) -> int:
    """How many pixels of two PNGs differ in any RGBA channel; -1 when their sizes differ (Pillow decodes)."""
    import io

    from PIL import Image, ImageChops

    first, second = (Image.open(io.BytesIO(data)).convert("RGBA") for data in (a, b))
    if first.size != second.size:
        return -1
    red, green, blue, alpha = ImageChops.difference(first, second).split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), ImageChops.lighter(blue, alpha))
    return first.width * first.height - largest.histogram()[0]
