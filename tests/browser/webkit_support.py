"""WebKit (WebKitGTK's MiniBrowser, the engine of Safari and of every iOS browser) driven through WebKitWebDriver
with selenium, under a virtual X display (xvfb-run).

:func:`start_webkit` starts the driver on a free port with the environment WebKitGTK needs in a container and
returns a :class:`WebKit` whose ``driver`` is a selenium session; :meth:`WebKit.stop` ends the session and the
driver's process group (only the processes it started).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

#: Where Debian's webkit2gtk-driver package puts the MiniBrowser that WebKitWebDriver automates.
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")

#: WebKitGTK in a container: no bubblewrap sandbox (it needs user namespaces), no GPU compositing.
WEBKIT_ENV = {"WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS": "1", "WEBKIT_DISABLE_COMPOSITING_MODE": "1"}

START_TIMEOUT_S = 60


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

    def stop(self) -> None:
        try:
            self.driver.quit()  # type: ignore[attr-defined]
        finally:
            os.killpg(self.process.pid, 15)
            self.process.wait(timeout=30)


def start_webkit() -> WebKit:
    """Start WebKitWebDriver under xvfb-run on a free port and open a MiniBrowser session."""
    from selenium import webdriver
    from selenium.webdriver.common.options import ArgOptions

    port = free_port()
    process = subprocess.Popen(["xvfb-run", "-a", "WebKitWebDriver", f"--port={port}"],
                               env={**os.environ, **WEBKIT_ENV}, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
        raise
    return WebKit(process, driver)
