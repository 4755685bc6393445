"""`mechdiagram serve`: time from a save to the reloaded page, median of several saves.

Target: 300 ms or less.  It starts the installed `mechdiagram serve` console script on a
reference-sized spec (18 targets, 7 steps, two arrows) in a temporary folder and, for each save,
opens the preview's reload event stream (as the page's script does), rewrites the spec with a new
title, waits for the `reload` event and fetches the rebuilt preview (as the reload does), checking
that its figure shows the new title.  The time runs from just before the write to the end of that fetch.
It also reports the 10-node flow with a dozen labelled arrows, whose build alone takes longer.
Run from the repository root with the package installed:

    python bench/bench_serve.py [--saves 9] [--browser]

With ``--browser`` it also opens the preview in chromium (through playwright, as the browser tests
do) and times each save until the reloaded preview has loaded, its figure showing the new title.

It prints milliseconds per save and exits 1 when the median misses the target.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import SERVING_EDGES, flow_spec, synthetic_spec

TARGET_MS = 300.0
URL = re.compile(r"at http://127\.0\.0\.1:(\d+)/")


def get(port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        return conn.getresponse().read()
    finally:
        conn.close()


def save_to_reload_ms(port: int, spec_path: Path, spec: dict, title: str) -> float:
    """One save: write ``spec`` titled ``title``, wait for the reload event, fetch the page."""
    shell = get(port, "/preview/bench").decode()
    generation = re.search(r'data-generation="(\d+)"', shell)
    assert generation, shell
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/__mechdiagram/events?since={generation.group(1)}")
    stream = conn.getresponse()
    spec["title"] = title
    text = json.dumps(spec, indent=2)
    start = time.perf_counter()
    spec_path.write_text(text, "utf-8")
    while not stream.fp.readline().startswith(b"event: reload"):
        pass
    page = get(port, "/preview/bench").decode()  # what the reload fetches: the preview, its figure inlined
    elapsed = (time.perf_counter() - start) * 1000
    conn.close()
    assert f">{title}</title>" in page, "the reloaded page is not the rebuilt one"  # the figure's SVG title
    return elapsed


def browser_save_ms(page, spec_path: Path, spec: dict, title: str) -> float:
    """One save seen in chromium: from the write until the reloaded preview, whose figure shows ``title``,
    fired its load event.  The end is read from the page's own Navigation Timing (epoch ms), so
    playwright's polling does not count."""
    spec["title"] = title
    text = json.dumps(spec, indent=2)
    start = time.time() * 1000
    spec_path.write_text(text, "utf-8")
    page.wait_for_function("""title => {
      const heading = document.querySelector('.mech-root svg > title');
      const timing = performance.getEntriesByType('navigation')[0];
      return heading !== null && heading.textContent === title && timing && timing.loadEventEnd > 0;
    }""", arg=title, polling=5, timeout=30000)
    loaded = page.evaluate("() => performance.timeOrigin + performance.getEntriesByType('navigation')[0].loadEventEnd")
    return float(loaded) - start


def measure(exe: str, spec: dict, saves: int, browser=None) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        spec_path = folder / "bench.mechanism.json"
        spec_path.write_text(json.dumps(spec, indent=2), "utf-8")
        process = subprocess.Popen([exe, "serve", spec_path.name], cwd=folder, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True)
        try:
            assert process.stdout is not None
            found = URL.search(process.stdout.readline())
            assert found, "mechdiagram serve printed no URL"
            port = int(found.group(1))
            time.sleep(1.0)  # let the watcher settle
            times = []
            page = None
            if browser is not None:
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{port}/preview/bench")
            for n in range(saves):
                if page is not None:
                    times.append(browser_save_ms(page, spec_path, spec, f"Benchmark save {n}"))
                else:
                    times.append(save_to_reload_ms(port, spec_path, spec, f"Benchmark save {n}"))
                time.sleep(0.2)  # saves a person makes, not a stream
            if page is not None:
                page.close()
            return times
        finally:
            process.terminate()
            process.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=9, help="saves to time for each spec")
    parser.add_argument("--browser", action="store_true",
                        help="also time the reload in chromium (playwright and Debian's chromium, as the tests use)")
    args = parser.parse_args()
    beside = Path(sys.executable).parent / "mechdiagram"
    exe = str(beside) if beside.is_file() else shutil.which("mechdiagram")
    if exe is None:
        sys.exit("mechdiagram is not installed: run `make setup` or `pip install .` first")
    reference = synthetic_spec(0, 3, 6, 7)
    reference["targets"]["p1"] = {"id": "p1", "kind": "path", "from": "lanea1", "to": "laneb1", "label": "logits"}
    reference["targets"]["p2"] = {"id": "p2", "kind": "path", "from": "laneb1", "to": "lanea2", "label": "token"}
    failed = False
    cases = (("reference-sized spec (18 targets, 7 steps)", reference, TARGET_MS),
             ("10-node flow with 12 labelled arrows", flow_spec(10, SERVING_EDGES), None))
    for name, spec, target in cases:
        times = measure(exe, spec, args.saves)
        failed |= report(f"{name}, save to reloaded page (event and page fetched)", times, target)
    if args.browser:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as runtime:
            browser = runtime.chromium.launch(executable_path=shutil.which("chromium"))
            for name, spec, target in cases:
                times = measure(exe, spec, args.saves, browser)
                failed |= report(f"{name}, save to reloaded page in chromium", times, target)
            browser.close()
    return 1 if failed else 0


def report(name: str, times: list[float], target: float | None) -> bool:
    """Print one line; True when the median misses ``target`` (ms)."""
    median = statistics.median(times)
    goal = f"target <= {target:.0f} ms" if target is not None else "reported"
    print(f"{name}, {len(times)} saves: median {median:.0f} ms (min {min(times):.0f}, max {max(times):.0f}); {goal}")
    return target is not None and median > target


if __name__ == "__main__":
    raise SystemExit(main())
