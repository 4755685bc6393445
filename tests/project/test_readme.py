"""The README's example spec is valid, and the commands it documents exist."""

from __future__ import annotations

import json
import re
import shlex

import yaml
from click.testing import CliRunner

from mechdiagram.cli import main
from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import validate
from support.specs import ROOT


def _readme() -> str:
    return (ROOT / "README.md").read_text("utf-8")


def test_readme_example_spec_validates():
    block = re.search(r"```json\n(.*?)```", _readme(), re.S).group(1)
    loaded = parse_text(block.encode("utf-8"), "README.md")
    assert loaded.findings == []
    assert validate(loaded) == []
    assert json.loads(block)["scenarios"][0]["steps"][1]["paths"] == ["handoff"]


def test_readme_names_every_command_and_option():
    readme = _readme()
    for command in ("build", "validate", "check", "hash", "new", "schema", "embed"):
        assert f"mechdiagram {command}" in readme
        result = CliRunner().invoke(main, [command, "--help"])
        assert result.exit_code == 0
        for option in re.findall(r"(--[a-z-]+)", result.output):
            if option not in ("--help", "--no-allow-missing-sources"):
                assert option in readme, f"{command} {option} is not documented"


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert "make test" in ci
    # ... in a sanitised environment, so that a command installed by hand cannot make CI pass
    run = next(line for line in ci.splitlines() if line.strip().endswith("make test"))
    assert run.startswith("env -i ") and 'PATH="$MINIMAL_PATH"' in run and "CI=true" in run
    assert "MINIMAL_PATH=/usr/sbin:/usr/bin:/sbin:/bin" in ci
    assert "```sh\nmake test\n```" in _readme()
    assert "```sh\nmake gallery\n```" in _readme()


def test_readme_sample_findings_are_what_the_tool_prints(tmp_path, monkeypatch):
    block = re.search(r"```json\n(.*?)```", _readme(), re.S).group(1)
    block = block.replace('"active": ["stage1"], "paths": ["handoff"]', '"active": ["stage3"], "paths": ["handoff"]')
    (tmp_path / "mechanisms").mkdir()
    (tmp_path / "mechanisms" / "queue.mechanism.json").write_text(block, "utf-8")
    (tmp_path / ".git").mkdir()  # the project's folder, which source paths are relative to
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "--allow-missing-sources"])
    printed = result.stderr.splitlines()[:-1]
    sample = re.search(r"stage3\"\]` in its second step:\n\n```\n(.*?)```", _readme(), re.S).group(1).splitlines()
    assert printed == sample


def _ci_section() -> str:
    readme = _readme()
    start = readme.index("### CI: annotations, JSON and pre-commit")
    return readme[start:readme.index("\n## ", start)]


def test_readme_actions_job_runs_check_and_passes_here(monkeypatch):
    """The GitHub Actions job in the README is YAML whose last step runs ``mechdiagram check``; that
    command line passes on this repository's own committed output."""
    block = re.search(r"```yaml\n(jobs:.*?)```", _ci_section(), re.S).group(1)
    steps = yaml.safe_load(block)["jobs"]["diagrams"]["steps"]
    command = shlex.split(steps[-1]["run"])
    assert command[:2] == ["mechdiagram", "check"] and "--format" in command
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, command[1:])
    assert result.exit_code == 0, result.output
    # Nothing is wrong but two arrows the route rules (issue "edges and labels") still find in the gallery (the
    # serving stack's narrow "logits" and "feed" each cross "pages"); warnings, not failures, and named here so
    # that a new one fails this test until it is fixed or listed.
    assert [line.split("::", 2)[1] for line in result.stdout.splitlines()] == [
        "warning file=mechanisms/serving-stack.mechanism.json,line=124,col=5,title=route",
        "warning file=mechanisms/serving-stack.mechanism.json,line=131,col=5,title=route"], result.stdout


def test_readme_pre_commit_example_names_the_hooks():
    block = re.search(r"```yaml\n(repos:.*?)```", _ci_section(), re.S).group(1)
    hooks = [hook["id"] for hook in yaml.safe_load(block)["repos"][0]["hooks"]]
    manifest = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert hooks == [hook["id"] for hook in manifest] == ["mechdiagram-validate", "mechdiagram-check"]


def test_readme_annotation_sample_is_what_the_tool_prints(tmp_path, monkeypatch):
    block = re.search(r"```json\n(.*?)```", _readme(), re.S).group(1)
    block = block.replace('"active": ["stage1"], "paths": ["handoff"]', '"active": ["stage3"], "paths": ["handoff"]')
    (tmp_path / "mechanisms").mkdir()
    (tmp_path / "mechanisms" / "queue.mechanism.json").write_text(block, "utf-8")
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "--allow-missing-sources", "--format", "github"])
    sample = re.search(r"```\n(::error .*?)\n```", _ci_section(), re.S).group(1)
    assert sample in result.stdout.splitlines()
