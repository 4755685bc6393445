"""The console script ends as Python does: other threads are waited for (a thread pool left running too),
atexit functions run, standard output is flushed whole, and the exit status is the command's."""

from __future__ import annotations

import subprocess
import sys

import pytest

from support.specs import MECHANISMS

#: Runs the console script's entry point with the arguments given after the probe's own code.
PROBE = """
import sys
{setup}
from mechdiagram.entry import run
sys.argv = ["mechdiagram", *sys.argv[1:]]
run()
"""


def _run(setup: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROBE.format(setup=setup), *args], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.slow
def test_atexit_functions_run_and_output_is_flushed():
    setup = ("import atexit, os\n"
             "class Finaliser:\n    def __del__(self):\n        os.write(1, b'FINALISED')\n"
             "keep = Finaliser()\n"
             "atexit.register(lambda: print('ATEXIT'))")
    done = _run(setup, "--version")
    assert done.returncode == 0
    assert done.stdout.startswith("mechdiagram, version ")
    assert "ATEXIT\n" in done.stdout  # printed by the atexit function, after the version, and flushed


@pytest.mark.slow
def test_other_threads_and_a_thread_pool_left_running_are_waited_for():
    setup = ("import threading, time\n"
             "from concurrent.futures import ThreadPoolExecutor\n"
             "def late(word):\n    time.sleep(0.3)\n    sys.stdout.write(word + '\\n')\n    sys.stdout.flush()\n"
             "threading.Thread(target=late, args=('THREAD',)).start()\n"
             "ThreadPoolExecutor(2).submit(late, 'POOL')  # never shut down: its exit hook stops it")
    done = _run(setup, "--version")
    assert done.returncode == 0
    # Each thread's word on a line of its own (one write each), in whatever order the threads and the
    # command ran: on a loaded machine the threads can finish before the command prints.
    lines = done.stdout.splitlines()
    assert len(lines) == 3, done.stdout
    assert sorted(line for line in lines if not line.startswith("mechdiagram, version ")) == ["POOL", "THREAD"]


@pytest.mark.slow
def test_a_long_output_reaches_a_pipe_whole():
    import io

    from mechdiagram.shared.assets import schema_text

    done = _run("", "schema")
    assert done.returncode == 0
    assert len(schema_text()) > 1.5 * io.DEFAULT_BUFFER_SIZE  # its end is still in the buffer at exit
    assert done.stdout.rstrip("\n") == schema_text().rstrip("\n")


@pytest.mark.slow
@pytest.mark.parametrize(("args", "status"), [
    (["validate", str(MECHANISMS / "prefill-decode.mechanism.json")], 0),
    (["validate", "--no-such-option"], 2),
])
def test_the_exit_status_is_the_commands(args, status, tmp_path):
    done = _run("", *args)
    assert done.returncode == status, done.stderr
    bad = tmp_path / "bad.mechanism.json"
    bad.write_text('{"version": 1}', "utf-8")
    assert _run("", "validate", str(bad)).returncode == 1


@pytest.mark.slow
def test_a_reader_that_goes_away_gets_no_traceback():
    probe = subprocess.Popen([sys.executable, "-c", PROBE.format(setup=""), "schema"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    assert probe.stdout is not None and probe.stderr is not None
    probe.stdout.close()  # the reader goes away before the schema is written
    err = probe.stderr.read().decode()
    assert probe.wait(timeout=60) == 1, err
    assert "Traceback" not in err


@pytest.mark.slow
def test_python_m_renderer_ends_as_python_does_for_what_wraps_it(tmp_path):
    """cProfile writes its profile at exit: `python -m cProfile -o F -m mechdiagram` writes one."""
    profile = tmp_path / "prof.out"
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "mechdiagram", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("mechdiagram, version ")
    assert profile.stat().st_size > 1000
    usage = subprocess.run([sys.executable, "-m", "mechdiagram", "validate", "--no-such-option"], capture_output=True,
                           text=True, timeout=60)
    assert usage.returncode == 2
