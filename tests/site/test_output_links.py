"""Nothing is written outside the output folder: the folder ``-o`` names is resolved once (it may be a link
itself), and inside it a symbolic link is never followed.  An output name that is a link (the figure page,
the manifest, the gallery page) is replaced by a regular file with a warning naming it, the file it led to
keeps its bytes, and ``check`` reports links among the outputs.  The attack is a cloned repository with a
committed link into the user's home; the same holds for ``schema -o``, ``new``, ``templates -o`` and
serve's ``-o``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from mechdiagram.serve.snapshot import build_snapshot
from mechdiagram.shared.config import Options
from mechdiagram.site.manifest import MANIFEST
from support.cli import invoke
from support.specs import minimal_spec

#: What the user's own file holds before the build: it must hold exactly this after it.
KEYS = b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOriginalKeyOfTheUser user@laptop\n"


def _git(*args: str, cwd: Path) -> None:
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1",
                   "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
                   "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", *args], cwd=cwd, env=environment, check=True, capture_output=True, timeout=60)


@pytest.fixture
def cloned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clone of a repository that commits ``output/x.html -> ../../home/.ssh/authorized_keys`` and a dangling
    ``output/manifest.json -> ../../home/planted.json``, beside a ``home`` folder with the user's keys; the
    clone is the working directory."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    (tmp_path / "home" / ".ssh").mkdir(parents=True)
    (tmp_path / "home" / ".ssh" / "authorized_keys").write_bytes(KEYS)
    origin = tmp_path / "origin"
    (origin / "mechanisms").mkdir(parents=True)
    spec = minimal_spec()
    spec["caption"] = "A caption.\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAttackersKey attacker@example.org"
    (origin / "mechanisms" / "x.mechanism.json").write_text(json.dumps(spec, indent=2), "utf-8")
    (origin / "output").mkdir()
    (origin / "output" / "x.html").symlink_to("../../home/.ssh/authorized_keys")
    (origin / "output" / MANIFEST).symlink_to("../../home/planted.json")
    _git("init", "-q", cwd=origin)
    _git("add", "-A", cwd=origin)
    _git("commit", "-q", "-m", "figures", cwd=origin)
    _git("clone", "-q", str(origin), "clone", cwd=tmp_path)
    clone = tmp_path / "clone"
    assert (clone / "output" / "x.html").is_symlink()  # the clone holds the links, as committed
    assert (clone / "output" / "x.html").resolve() == (tmp_path / "home" / ".ssh" / "authorized_keys").resolve()
    monkeypatch.chdir(clone)
    return clone


def test_a_committed_link_in_a_cloned_repository_writes_nothing_outside_the_output(cloned: Path):
    home = cloned.parent / "home"
    checked = invoke("check", "mechanisms", "-o", "output", "--source-root", ".")
    assert checked.exit_code == 1
    assert ("output/x.html: error: is a symbolic link (output of mechanisms/x.mechanism.json), which build never "
            "writes through") in checked.stderr, checked.stderr

    built = invoke("build", "mechanisms", "-o", "output", "--source-root", ".")
    assert built.exit_code == 0, built.stderr
    assert (home / ".ssh" / "authorized_keys").read_bytes() == KEYS
    assert not (home / "planted.json").exists() and not (home / "planted.json").is_symlink()
    assert sorted(p.name for p in home.rglob("*")) == [".ssh", "authorized_keys"]
    page = cloned / "output" / "x.html"
    assert not page.is_symlink() and b"Tiny mechanism" in page.read_bytes()
    manifest = cloned / "output" / MANIFEST
    assert not manifest.is_symlink() and json.loads(manifest.read_bytes())["specs"][0]["spec"]
    warned = [line for line in built.stderr.splitlines() if "[output-link]" in line]
    assert warned == [
        "output/x.html: warning: was a symbolic link; mechdiagram never writes through a link in its output "
        "folder, so it was replaced by a regular file (the file the link led to is unchanged) [output-link]",
        "output/manifest.json: warning: was a symbolic link; mechdiagram never writes through a link in its output "
        "folder, so it was replaced by a regular file (the file the link led to is unchanged) [output-link]",
    ], built.stderr

    again = invoke("check", "mechanisms", "-o", "output", "--source-root", ".")
    assert again.exit_code == 0, again.stderr


def test_a_link_put_among_up_to_date_outputs_is_not_skipped_but_replaced(tmp_path: Path, monkeypatch):
    """A build that would skip the spec (its build key unchanged) still replaces an output that became a link
    to a file with the very bytes the manifest records; the gallery page as a link is replaced too."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    assert invoke("build", "specs", "-o", "out", "--source-root", ".").exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for name in ("x.html", "index.html"):
        (elsewhere / name).write_bytes((tmp_path / "out" / name).read_bytes())
        (tmp_path / "out" / name).unlink()
        (tmp_path / "out" / name).symlink_to(elsewhere / name)
    before = {name: (elsewhere / name).read_bytes() for name in ("x.html", "index.html")}
    checked = invoke("check", "specs", "-o", "out", "--source-root", ".")
    assert checked.exit_code == 1 and checked.stderr.count("is a symbolic link") == 2, checked.stderr

    built = invoke("build", "specs", "-o", "out", "--source-root", ".")
    assert built.exit_code == 0, built.stderr
    assert "skipped" not in built.stderr.splitlines()[-1], built.stderr
    for name in ("x.html", "index.html"):
        assert not (tmp_path / "out" / name).is_symlink(), name
        assert (elsewhere / name).read_bytes() == before[name], name
    assert built.stderr.count("[output-link]") == 2, built.stderr
    assert invoke("check", "specs", "-o", "out", "--source-root", ".").exit_code == 0


def test_the_output_folder_may_itself_be_a_link(tmp_path: Path, monkeypatch):
    """``-o`` naming a link to a folder (a web root) builds into that folder; no warning."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "www").mkdir()
    (tmp_path / "site").symlink_to(tmp_path / "www", target_is_directory=True)
    built = invoke("build", "specs", "-o", "site", "--source-root", ".")
    assert built.exit_code == 0 and "warning" not in built.stderr, built.stderr
    assert (tmp_path / "www" / "x.html").is_file() and (tmp_path / "site").is_symlink()
    assert invoke("check", "specs", "-o", "site", "--source-root", ".").exit_code == 0


def test_serve_writing_its_output_replaces_a_link(tmp_path: Path):
    """``serve -o`` writes as ``build`` does: a link among the outputs is replaced, its target untouched,
    and the warning is among the preview's findings."""
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "out").mkdir()
    (tmp_path / "mine.html").write_bytes(b"mine")
    (tmp_path / "out" / "x.html").symlink_to(tmp_path / "mine.html")
    snapshot = build_snapshot(Options(specs=[tmp_path / "specs"], output=tmp_path / "out", source_root=tmp_path,
                                      jobs=1), write=True)
    assert (tmp_path / "mine.html").read_bytes() == b"mine"
    assert not (tmp_path / "out" / "x.html").is_symlink()
    assert (tmp_path / "out" / "x.html").read_bytes() == snapshot.files["x.html"]
    assert [f.rule for f in snapshot.general] == ["output-link"]


def test_new_and_templates_refuse_a_name_that_is_a_link(tmp_path: Path, monkeypatch):
    """``new`` and ``templates -o`` never replace a file: a link at one of their names, dangling or not, is
    refused as there already, and nothing is created where it leads."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "queue.notes.md").symlink_to(tmp_path / "planted-notes.md")
    made = invoke("new", "queue", "--dir", "specs")
    assert made.exit_code != 0 and "specs/queue.notes.md exists already" in made.stderr, made.stderr
    assert not (tmp_path / "planted-notes.md").exists() and not (tmp_path / "specs" / "queue.mechanism.json").exists()
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html").symlink_to(tmp_path / "planted-page.html")
    copied = invoke("templates", "-o", "templates", "page.html")
    assert copied.exit_code != 0 and "templates/page.html already exists" in copied.stderr, copied.stderr
    assert not (tmp_path / "planted-page.html").exists()


def test_an_output_folder_swapped_for_a_link_during_the_build_stops_the_writes(tmp_path: Path, monkeypatch):
    """Another process renames the output folder away and links its name elsewhere while the specs render: the
    build stops with an error naming the folder, and nothing is written where the link leads."""
    from mechdiagram.site import build

    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "out").mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real_render = build.render_spec

    def swapped_meanwhile(*args, **kwargs):
        (tmp_path / "out").rename(tmp_path / "out.real")
        (tmp_path / "out").symlink_to(elsewhere, target_is_directory=True)
        return real_render(*args, **kwargs)

    monkeypatch.setattr(build, "render_spec", swapped_meanwhile)
    stopped = invoke("build", "specs", "-o", "out", "--source-root", ".")
    assert stopped.exit_code == 1
    assert "was moved or replaced by a link during the build; nothing more was written there" in stopped.stderr
    assert list(elsewhere.iterdir()) == []


def test_a_link_put_at_an_unchanged_output_during_the_build_is_replaced(tmp_path: Path, monkeypatch):
    """An output found unchanged, then made a link before the files are put in place, is still replaced by a
    regular file (not only warned about), and the file the link leads to keeps its bytes."""
    from mechdiagram.site import build

    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    assert invoke("build", "specs", "-o", "out", "--source-root", ".").exit_code == 0
    page = (tmp_path / "out" / "x.html").read_bytes()
    (tmp_path / "mine.html").write_bytes(b"mine")
    real_write_out = build.write_out

    def linked_meanwhile(*args, **kwargs):
        (tmp_path / "out" / "x.html").unlink()
        (tmp_path / "out" / "x.html").symlink_to(tmp_path / "mine.html")
        return real_write_out(*args, **kwargs)

    monkeypatch.setattr(build, "write_out", linked_meanwhile)
    built = invoke("build", "specs", "-o", "out", "--source-root", ".", "--force")
    assert built.exit_code == 0, built.stderr
    assert not (tmp_path / "out" / "x.html").is_symlink() and (tmp_path / "out" / "x.html").read_bytes() == page
    assert (tmp_path / "mine.html").read_bytes() == b"mine"
    assert "out/x.html: warning: was a symbolic link" in built.stderr, built.stderr
    monkeypatch.setattr(build, "write_out", real_write_out)
    assert invoke("check", "specs", "-o", "out", "--source-root", ".").exit_code == 0
