"""``mechdiagram serve`` as a process: it prints its URL and findings, and stops cleanly on Ctrl-C."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli import invoke
from support.serve import WAIT_SECONDS, request, spec_with_title, wait_for
from support.specs import minimal_spec

URL = re.compile(r"^mechdiagram: previewing .+ at (http://127\.0\.0\.1:(\d+)/) \(Ctrl-C to stop\)$")


def start(cwd: Path, *args: str) -> tuple[subprocess.Popen, int]:
    process = subprocess.Popen([sys.executable, "-c", "from mechdiagram.cli import run; run()", "serve", *args],
                               cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline().rstrip("\n")  # the URL line comes after the first build
    found = URL.match(line)
    assert found, (line, process.stderr.read() if process.poll() is not None else "")
    return process, int(found.group(2))


def stop(process: subprocess.Popen, sig: int = signal.SIGINT) -> tuple[str, str]:
    process.send_signal(sig)
    out, err = process.communicate(timeout=WAIT_SECONDS)
    return out, err


@pytest.mark.slow
def test_it_prints_the_url_serves_and_stops_cleanly_on_ctrl_c(tmp_path):
    (tmp_path / "specs").mkdir()
    spec = tmp_path / "specs" / "tiny.mechanism.json"
    spec.write_text(spec_with_title("Served"), "utf-8")
    process, port = start(tmp_path, "specs")
    try:
        assert "<title>Served</title>" in request(port, "/tiny.html").text
        data = minimal_spec()
        data["scenarios"][0]["steps"][0]["active"] = ["a9"]
        text = json.dumps(data, indent=2)
        spec.write_text(text, "utf-8")
        wait_for(lambda: request(port, "/tiny.html").status == 404 or None, what="the failed build")
    finally:
        out, err = stop(process)
    assert process.returncode == 0, err
    assert "Traceback" not in err and "Aborted" not in err
    line = text[:text.index('"a9"')].count("\n") + 1
    column = text.index('"a9"') - text.rfind("\n", 0, text.index('"a9"'))
    assert re.search(rf"^specs/tiny\.mechanism\.json:{line}:{column}: error: /scenarios/0/steps/0/active/0: "
                     r".*\[unknown-target\]$", err, re.M), err
    assert err.rstrip().endswith("mechdiagram: preview stopped")
    assert not (tmp_path / "output").exists()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


@pytest.mark.slow
def test_sigterm_stops_it_cleanly_too_and_port_is_honoured(tmp_path):
    (tmp_path / "tiny.mechanism.json").write_text(spec_with_title("Served"), "utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    process, port = start(tmp_path, "tiny.mechanism.json", "--port", str(free))
    assert port == free
    out, err = stop(process, signal.SIGTERM)
    assert process.returncode == 0 and "Traceback" not in err


def test_help_ends_with_an_example():
    result = invoke("serve", "--help")
    assert result.exit_code == 0
    assert "Example: mechdiagram serve mechanisms --open" in result.output


def test_a_missing_spec_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("serve", "nowhere.mechanism.json")
    assert result.exit_code == 2 and "nowhere.mechanism.json" in result.output + result.stderr


def test_open_opens_the_url_and_ctrl_c_ends_with_status_0(tmp_path, monkeypatch):
    from mechdiagram.serve import PreviewServer

    (tmp_path / "tiny.mechanism.json").write_text(spec_with_title("Served"), "utf-8")
    monkeypatch.chdir(tmp_path)
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", opened.append)

    def interrupted(self) -> None:
        assert request(self.port, "/tiny.html").status == 200
        raise KeyboardInterrupt
    monkeypatch.setattr(PreviewServer, "wait", interrupted)
    result = invoke("serve", "tiny.mechanism.json", "--open")
    assert result.exit_code == 0, result.output
    assert len(opened) == 1 and URL.match(result.stdout.strip().splitlines()[0]).group(1) == opened[0]
    assert result.stderr.rstrip().endswith("mechdiagram: preview stopped")
    assert not (tmp_path / "output").exists()


def test_a_stopped_build_is_not_called_built(capsys):
    from mechdiagram.cli.preview import _print_build
    from mechdiagram.serve import BuildEvent
    from mechdiagram.serve.snapshot import Snapshot
    from mechdiagram.shared.findings import Finding

    stopped = Snapshot(0, (), {}, (Finding("mechdiagram", None, "t/figure.html:28: 'x' is undefined", "template"),))
    _print_build(BuildEvent(stopped, True, 12.0))
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == "mechdiagram: the build stopped after 12 ms; the preview shows the last good build and why"
