"""mechdiagram.api.render_spec: one spec into its files in memory, the same bytes the CLI writes; and
--template-dir, whose templates come before the package's."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mechdiagram.api import render_player, render_spec
from mechdiagram.render import confined
from mechdiagram.render.outputs import formats
from mechdiagram.shared.config import Options
from mechdiagram.shared.errors import TemplateError, UsageError
from mechdiagram.site.build import execute
from support.cli import run_cli
from support.specs import MECHANISMS, ROOT, minimal_spec

SPEC = MECHANISMS / "prefill-decode.mechanism.json"
PACKAGE_TEMPLATES = ROOT / "renderer" / "mechdiagram" / "templates"


def test_render_spec_gives_the_bytes_build_writes(tmp_path):
    rendered = render_spec(SPEC, source_root=ROOT)
    assert rendered.ok and rendered.findings == []
    assert [c.status for c in rendered.checks] == ["verified"]
    execute(Options(mode="build", specs=[SPEC], output=tmp_path, source_root=ROOT, jobs=1))
    written = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name != "manifest.json"}
    player = render_player()
    assert rendered.files == {name: data for name, data in written.items() if name not in player}
    assert player == {name: data for name, data in written.items() if name.startswith("mechdiagram-player.")}
    fragment = rendered.files["prefill-decode.fragment.html"].decode("utf-8")
    assert all(f'"{name}"' in fragment for name in player)  # the fragment names the files build writes beside it
    assert "prefill-decode.html" in rendered.files and "prefill-decode.one-request.svg" in rendered.files
    assert sorted(rendered.files) == sorted(fmt.file_name("prefill-decode", "one-request") for fmt in formats()
                                            if not fmt.optional)


def test_render_spec_reports_bad_input_as_findings(write_spec):
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["active"] = ["a9"]
    rendered = render_spec(write_spec(data))
    assert not rendered.ok and rendered.files == {}
    assert [(f.pointer, f.rule) for f in rendered.findings] == [("/scenarios/0/steps/0/active/0", "unknown-target")]


def test_render_spec_without_rendering_validates_only(write_spec):
    rendered = render_spec(write_spec(minimal_spec()), render=False)
    assert rendered.ok and rendered.files == {} and rendered.slug == "tiny"


def test_render_spec_draws_one_scenario_alone_under_its_own_name(write_spec):
    data = minimal_spec()
    other = json.loads(json.dumps(data["scenarios"][0]))
    other["id"], other["title"] = "other", "Other"
    data["scenarios"].append(other)
    path = write_spec(data)
    whole = render_spec(path)
    alone = render_spec(path, scenario="other")
    assert alone.ok and alone.slug == "tiny-other"
    assert sorted(alone.files) == sorted(fmt.file_name("tiny-other", "other") for fmt in formats() if not fmt.optional)
    fragment = alone.files["tiny-other.fragment.html"].decode("utf-8")
    assert "Other" in fragment and whole.files["tiny.fragment.html"].decode("utf-8") != fragment
    assert "tiny-other.main.svg" not in alone.files and {"tiny.main.svg", "tiny.other.svg"} <= set(whole.files)


def test_render_spec_names_an_unknown_scenario_where_the_spec_lists_them(write_spec):
    rendered = render_spec(write_spec(minimal_spec()), scenario="nosuch")
    assert not rendered.ok and rendered.files == {}
    [finding] = rendered.findings
    assert (finding.pointer, finding.rule, finding.line) == ("/scenarios", "unknown-scenario", finding.line)
    assert finding.line is not None and "name one of" in finding.message


def _readme_api_example() -> str:
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("### Python API", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_builds_a_gallery_into_a_site(tmp_path, monkeypatch):
    code = _readme_api_example()
    assert len(code.strip().splitlines()) <= 10
    shutil.copytree(MECHANISMS, tmp_path / "mechanisms")
    (tmp_path / ".git").mkdir()  # a project of its own, whose root the specs' source paths start from
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    built = sorted(p.name for p in (tmp_path / "site" / "figures").iterdir())
    assert built == sorted(name for spec in sorted(MECHANISMS.glob("*.mechanism.json"))
                           for name in render_spec(spec, source_root=ROOT).files)


def _templates(tmp_path: Path) -> Path:
    folder = tmp_path / "templates"
    folder.mkdir()
    figure = (PACKAGE_TEMPLATES / "figure.html").read_text("utf-8")
    marker = '<div class="mech-stage">'
    assert marker in figure
    # A site's own markup beside the figure; the title still goes through autoescaping.
    (folder / "figure.html").write_text(
        figure.replace(marker, '<p class="site-note">From {{ title }}</p>\n' + marker, 1), "utf-8")
    return folder


def test_template_dir_templates_come_first_and_still_escape(tmp_path, write_spec):
    data = minimal_spec()
    data["title"] = "Queue <b>& serve</b>"
    spec = write_spec(data)
    plain = render_spec(spec)
    own = render_spec(spec, template_dir=_templates(tmp_path))
    fragment = own.files["tiny.fragment.html"].decode("utf-8")
    assert '<p class="site-note">From Queue &lt;b&gt;&amp; serve&lt;/b&gt;</p>' in fragment
    assert "site-note" in own.files["tiny.html"].decode("utf-8")  # page.html includes the same figure.html
    assert "site-note" not in plain.files["tiny.fragment.html"].decode("utf-8")
    assert own.files["tiny.main.svg"] == plain.files["tiny.main.svg"]  # svg.css not replaced: the same drawing


def test_template_dir_on_the_command_line(tmp_path, monkeypatch, write_spec):
    write_spec(minimal_spec())
    templates = _templates(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run_cli("build", "tiny.mechanism.json", "-o", "out", "--source-root", ".", "--template-dir", str(templates))
    assert result.exit_code == 0, result.stderr
    assert "site-note" in (tmp_path / "out" / "tiny.fragment.html").read_text("utf-8")
    assert run_cli("check", "tiny.mechanism.json", "-o", "out", "--source-root", ".").exit_code == 1
    assert run_cli("check", "tiny.mechanism.json", "-o", "out", "--source-root", ".",
                   "--template-dir", str(templates)).exit_code == 0


@pytest.mark.parametrize("text, where, message", [
    ("<p>\n{% if %}</p>\n", "fragment.html:2", "Expected an expression"),  # a syntax error
    ("<p>\n{{ title }}\n{{ nosuchvar }}</p>\n", "fragment.html:3", "'nosuchvar' is undefined"),  # while rendering
], ids=["syntax", "undefined"])
def test_a_broken_user_template_is_an_error_naming_its_file_and_line(tmp_path, monkeypatch, write_spec, text, where,
                                                                      message):
    spec = write_spec(minimal_spec())
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "fragment.html").write_text(text, "utf-8")
    with pytest.raises(TemplateError, match=rf"mine/{re.escape(where)}: {re.escape(message)}"):
        render_spec(spec, template_dir=folder)
    monkeypatch.chdir(tmp_path)
    result = run_cli("build", spec.name, "-o", "out", "--source-root", ".", "--template-dir", "mine")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert f"mine/{where}: {message}" in result.stderr and "(while rendering tiny.mechanism.json)" in result.stderr


@pytest.mark.parametrize("text, limits, message", [
    # a computation without bound: ended at its CPU limit (setrlimit's RLIMIT_CPU)
    ("{% set x = 3**(10**8) %}{{ x }}", {"CPU_SECONDS": 1},
     "the templates of mine (while rendering tiny.mechanism.json): stopped after 1 s of CPU time"),
    # the same, with a CPU limit it does not reach first: ended by the wall-clock limit
    ("{% set x = 3**(10**8) %}{{ x }}", {"WALL_SECONDS": 1},
     "the templates of mine (while rendering tiny.mechanism.json): stopped after 1 s without finishing"),
    # an allocation without bound: ended at its memory limit (RLIMIT_AS), located in the template
    ("<p>\n{% set x = [0] * 10**9 %}{{ x|length }}</p>", {},
     "mine/fragment.html:2: ran out of the memory a site's templates may use"),
], ids=["cpu", "wall", "memory"])
def test_a_site_template_without_bound_ends_at_its_limit(tmp_path, monkeypatch, write_spec, text, limits, message):
    spec = write_spec(minimal_spec())
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "fragment.html").write_text(text, "utf-8")
    for name, value in limits.items():
        monkeypatch.setattr(confined, name, value)
    monkeypatch.chdir(tmp_path)
    started = time.monotonic()
    with pytest.raises(TemplateError) as raised:
        render_spec(spec, template_dir="mine")
    assert raised.value.message.startswith(message), raised.value.message
    assert time.monotonic() - started < 30  # not the 60 s and 120 s of the package's limits
    # the package's own templates still render in this process, as before
    assert render_spec(spec).files["tiny.fragment.html"].startswith(b"<div class=\"mech-fragment\">")


def test_the_child_process_imports_nothing_from_the_working_folder(tmp_path, monkeypatch, write_spec):
    """A ``pickle.py`` (or any module the child imports) beside a spec never runs: the child is isolated (``-I``)."""
    spec = write_spec(minimal_spec())
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "page.html").write_text("<p>{{ title }}</p>", "utf-8")
    marker = tmp_path / "ran"
    for name in ("pickle", "mechdiagram", "copy", "random"):
        (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write('{name} ')\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    rendered = render_spec(spec.name, template_dir="mine")
    assert rendered.files["tiny.html"] == b"<p>Tiny mechanism</p>"
    assert not marker.exists(), marker.read_text()


def test_lower_limits_the_build_inherits_stay_and_are_enough(tmp_path, write_spec):
    """A build run under a hard CPU or memory limit lower than the child's (CI, a shared host) still renders."""
    spec = write_spec(minimal_spec())
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "page.html").write_text("<p>{{ title }}</p>", "utf-8")
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_CPU, (50, 50))\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1800 * 2**20, 1800 * 2**20))\n"
            "from mechdiagram.api import render_spec\n"
            f"sys.stdout.buffer.write(render_spec({str(spec)!r}, template_dir={str(tmp_path / 'mine')!r})"
            ".files['tiny.html'])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (0, b"<p>Tiny mechanism</p>"), done.stderr.decode()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_PDEATHSIG) is Linux's")
def test_the_child_process_ends_with_the_build_however_it_ends(tmp_path, write_spec):
    spec = write_spec(minimal_spec())
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "page.html").write_text("{% set x = 3**(10**8) %}{{ x }}", "utf-8")
    build = subprocess.Popen([sys.executable, "-c", "from mechdiagram.api import render_spec\n"
                              f"render_spec({str(spec)!r}, template_dir={str(tmp_path / 'mine')!r})"])
    try:
        child = None
        for _ in range(200):  # the child appears once the parent has imported the package
            child = next((p for p in Path("/proc").iterdir() if p.name.isdigit() and _parent_of(p) == build.pid), None)
            if child is not None:
                break
            time.sleep(0.05)
        assert child is not None, "no child process started"
        time.sleep(0.3)  # past its prctl
        build.kill()  # as the OOM killer or kill -9 would
        build.wait()
        for _ in range(100):
            if not child.exists() or _state(child) == "Z":
                break
            time.sleep(0.05)
        assert not child.exists() or _state(child) == "Z", f"the child {child.name} outlived its build"
    finally:
        build.kill()


def _status(process: Path) -> dict[str, str]:
    try:
        lines = (process / "status").read_text().splitlines()
    except OSError:
        return {}
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


def _parent_of(process: Path) -> int:
    return int(_status(process).get("PPid", "0"))


def _state(process: Path) -> str:
    return _status(process).get("State", "X")[:1]


@pytest.mark.parametrize("text, message", [
    ('x{{ "%c"|format(55296) }}', "a template of mine wrote '\\ud800', which is not text UTF-8 can write"),
    (b"<p>\xff</p>", "mine/page.html is not UTF-8 (invalid start byte at byte 3)"),
], ids=["lone-surrogate", "not-utf8"])
def test_a_template_that_writes_or_is_no_text_is_a_located_error(tmp_path, monkeypatch, write_spec, text, message):
    spec = write_spec(minimal_spec())
    (tmp_path / "mine").mkdir()
    page = tmp_path / "mine" / "page.html"
    page.write_bytes(text) if isinstance(text, bytes) else page.write_text(text, "utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TemplateError) as raised:
        render_spec(spec.name, template_dir="mine")
    assert raised.value.message.startswith(message), raised.value.message


def test_a_site_template_out_of_memory_on_the_command_line(tmp_path, monkeypatch, write_spec):
    write_spec(minimal_spec())
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "page.html").write_text("{% set x = [0] * 10**9 %}{{ x|length }}", "utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("build", "tiny.mechanism.json", "-o", "out", "--source-root", ".", "--template-dir", "mine")
    assert result.exit_code == 1 and "Traceback" not in result.stderr, result.stderr
    assert ("mine/page.html:1: ran out of the memory a site's templates may use (mechdiagram.render.confined) "
            "(while rendering tiny.mechanism.json)") in result.stderr
    assert not (tmp_path / "out" / "tiny.html").exists()
    assert len(result.stderr.splitlines()) == 1  # one line of text, no exception escaped


def test_template_dir_in_pyproject_and_a_check_without_the_templates(tmp_path, monkeypatch, write_spec):
    write_spec(minimal_spec())
    _templates(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.mechdiagram]\ntemplate-dir = "templates"\n', "utf-8")
    assert run_cli("build", "tiny.mechanism.json", "-o", "out", "--source-root", ".").exit_code == 0
    assert "site-note" in (tmp_path / "out" / "tiny.fragment.html").read_text("utf-8")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text("utf-8"))
    assert manifest["specs"][0]["templates"] == "own"
    assert run_cli("check", "tiny.mechanism.json", "-o", "out", "--source-root", ".").exit_code == 0
    (tmp_path / "pyproject.toml").write_text("", "utf-8")  # the same check, now without the templates
    stale = run_cli("check", "tiny.mechanism.json", "-o", "out", "--source-root", ".")
    assert stale.exit_code == 1
    assert ("out/tiny.fragment.html: error: differs from a fresh build (output of tiny.mechanism.json): it was built "
            "with templates of your own (--template-dir), which this check was not given; give check the same "
            "--template-dir (or set template-dir in [tool.mechdiagram]), or run mechdiagram build -o out "
            "--source-root . tiny.mechanism.json to build it with the built-in templates [stale-output]") in stale.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.mechdiagram]\ntemplate-dir = "nowhere"\n', "utf-8")
    refused = run_cli("check", "tiny.mechanism.json", "-o", "out", "--source-root", ".")
    assert refused.exit_code == 1 and "template-dir 'nowhere' is not a folder" in refused.stderr


def test_a_string_path_is_taken_and_a_missing_template_folder_is_refused(tmp_path):
    spec = tmp_path / "string.mechanism.json"
    spec.write_text(json.dumps(minimal_spec()), "utf-8")
    rendered = render_spec(str(spec))
    assert rendered.ok and rendered.slug == "string" and "string.html" in rendered.files
    with pytest.raises(UsageError, match="is not a folder"):
        render_spec(spec, template_dir=tmp_path / "no-such-folder")


def test_a_site_template_cannot_reach_python_internals(tmp_path, monkeypatch, write_spec):
    """A template that came with a checkout (template-dir in its pyproject.toml) runs in jinja2's sandbox."""
    spec = write_spec(minimal_spec())
    folder = tmp_path / "t"
    folder.mkdir()
    marker = tmp_path / "pwned"
    (folder / "fragment.html").write_text(
        f"{{{{ cycler.__init__.__globals__.os.system('touch {marker}') }}}}{{{{ figure }}}}", "utf-8")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.mechdiagram]\ntemplate-dir = "t"\n', "utf-8")
    result = run_cli("check", spec.name, "-o", "out", "--source-root", ".")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "t/fragment.html:1: access to attribute '__init__' of 'type' object is unsafe" in result.stderr
    assert not marker.exists()


def test_template_dir_in_pyproject_is_a_folder_of_the_project_and_the_command_line_wins(tmp_path, monkeypatch,
                                                                                       write_spec):
    spec = write_spec(minimal_spec())
    templates = _templates(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "elsewhere").mkdir()

    def with_config(value: str, *args: str):
        (tmp_path / "pyproject.toml").write_text(f"[tool.mechdiagram]\ntemplate-dir = {json.dumps(value)}\n", "utf-8")
        return run_cli(*args)

    build = ("build", spec.name, "-o", "out", "--source-root", ".")
    assert "template-dir 'nope' is not a folder" in with_config("nope", *build).stderr
    assert with_config("nope", *build, "--template-dir", str(templates)).exit_code == 0  # the command line's wins
    assert with_config("nope", "validate", spec.name, "--source-root", ".").exit_code == 0  # validate renders nothing
    for value in ("", ".", "..", "../elsewhere", str(tmp_path.parent)):
        refused = with_config(value, *build)
        assert refused.exit_code == 1, value
        assert f"template-dir {value!r} must name a folder inside the project, below its pyproject.toml" \
            in refused.stderr, value
    (templates / "out").mkdir()
    inside = with_config("templates", "build", spec.name, "-o", "templates/out", "--source-root", ".")
    assert inside.exit_code == 2
    assert ("the template folder templates holds the output folder templates/out: every build would change its own "
            "templates' key; keep them apart") in inside.stderr


def test_a_site_template_reached_through_a_link_out_of_its_folder_is_refused(tmp_path, monkeypatch, write_spec):
    spec = write_spec(minimal_spec())
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "secret.txt").write_text("SECRET", "utf-8")
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "sub").symlink_to(tmp_path / "private", target_is_directory=True)
    (folder / "fragment.html").write_text("{% include 'sub/secret.txt' %}{{ figure }}", "utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("build", spec.name, "-o", "out", "--source-root", ".", "--template-dir", "t")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "Error: t/fragment.html:1: sub/secret.txt leads out of the template folder t through a link" in result.stderr
    assert not (tmp_path / "out").exists() or "SECRET" not in "".join(
        p.read_text("utf-8", "replace") for p in (tmp_path / "out").iterdir())


def test_a_site_svg_css_does_not_reach_a_later_render_without_it(tmp_path, write_spec):
    spec = write_spec(minimal_spec())
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "svg.css").write_text((PACKAGE_TEMPLATES / "svg.css").read_text("utf-8") + "/* SITE-CSS */\n", "utf-8")
    assert "SITE-CSS" in render_spec(spec, template_dir=folder).files["tiny.main.svg"].decode("utf-8")
    assert "SITE-CSS" not in render_spec(spec).files["tiny.main.svg"].decode("utf-8")  # same process, no folder


@pytest.mark.parametrize("text, error", [("{{ 1 / 0 }}", "ZeroDivisionError: division by zero"),
                                         ("{{ range(10000000) | list | length }}", "OverflowError")])
def test_a_site_templates_runtime_error_is_located(tmp_path, monkeypatch, write_spec, text, error):
    spec = write_spec(minimal_spec())
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "fragment.html").write_text("<p>\n" + text + "{{ figure }}", "utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("build", spec.name, "-o", "out", "--source-root", ".", "--template-dir", "t")
    assert result.exit_code == 1 and "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert f"t/fragment.html:2: {error}" in result.stderr


@pytest.mark.parametrize("arguments, message", [
    ({"path": "a\0b.mechanism.json"}, "path 'a\\x00b.mechanism.json' holds a NUL character"),
    ({"source_root": "src\0"}, "source_root 'src\\x00' holds a NUL character"),
    ({"path": 42}, "path must be a path or a string, not int"),
    ({"extra_formats": None}, "extra_formats must be a collection of format group names, not None"),
    ({"extra_formats": "png"}, "extra_formats must be a collection of format group names, not 'png'"),
    ({"extra_formats": ["pdf"]}, "extra_formats names unknown format group 'pdf'; the optional groups are "),
    ({"extra_formats": ["svg"]}, "extra_formats names unknown format group 'svg'"),
    ({"project": "pyproject.toml"}, "project must be a mechdiagram.shared.config.Project or None, not str"),
    ({"path": b"tiny.mechanism.json"}, "path must be a path or a string, not bytes"),
    ({"allow_missing_sources": "no"}, "allow_missing_sources must be True, False or None, not 'no'"),
], ids=["nul-path", "nul-root", "int-path", "formats-none", "formats-str", "formats-pdf", "formats-not-optional",
        "project-str", "bytes-path", "allow-str"])
def test_odd_arguments_are_usage_errors(write_spec, arguments, message):
    """The API refuses what it cannot use with a MechdiagramError (a UsageError) naming the argument, never a
    TypeError or ValueError from deep inside."""
    from mechdiagram.shared.errors import UsageError

    given = {"path": write_spec(minimal_spec()), **arguments}
    with pytest.raises(UsageError) as refused:
        render_spec(given.pop("path"), **given)
    assert refused.value.message.startswith(message), refused.value.message


def test_the_optional_format_groups_are_accepted(write_spec):
    rendered = render_spec(write_spec(minimal_spec()), extra_formats=frozenset({"frames"}), source_root=".")
    assert rendered.ok and any(name.endswith(".png") or "frame" in name for name in rendered.files)
