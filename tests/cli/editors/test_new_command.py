"""``mechdiagram new NAME``: a small valid spec showing every field, pinned notes, never overwriting."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mechdiagram.cli.scaffold import plan_new, write_new
from mechdiagram.render.outputs import formats
from mechdiagram.shared.assets import schema
from mechdiagram.shared.errors import OutputExistsError, UsageError
from mechdiagram.shared.files import sha256_hex, write_file
from support.cli import invoke
from support.outputs import PLAYER_FILES


def _schema_properties(node) -> set[str]:
    """Every property name the schema declares, at any depth."""
    found: set[str] = set()
    if isinstance(node, dict):
        found.update((node.get("properties") or {}).keys())
        for value in node.values():
            found |= _schema_properties(value)
    elif isinstance(node, list):
        for value in node:
            found |= _schema_properties(value)
    return found


def _keys_used(node) -> set[str]:
    """Every object key in a JSON value, at any depth."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            found.add(key)
            found |= _keys_used(value)
    elif isinstance(node, list):
        for value in node:
            found |= _keys_used(value)
    return found


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_new_spec_validates_builds_and_pins_its_notes(folder):
    made = invoke("new", "queue", "--dir", "mechanisms")
    assert made.exit_code == 0, made.output
    spec_path = folder / "mechanisms" / "queue.mechanism.json"
    notes_path = folder / "mechanisms" / "queue.notes.md"
    assert made.stderr.splitlines()[0] == "wrote mechanisms/queue.mechanism.json and mechanisms/queue.notes.md"
    spec = json.loads(spec_path.read_text("utf-8"))
    # No pyproject.toml or .git above: the source root is the spec's own folder (mechdiagram.shared.config.spec_project).
    assert spec["sources"][0]["path"] == "queue.notes.md"
    assert spec["sources"][0]["sha256"] == sha256_hex(notes_path.read_bytes())
    assert spec["title"] == "Queue"
    assert "mechdiagram hash --write mechanisms/queue.mechanism.json" in notes_path.read_text("utf-8")

    checked = invoke("validate", "mechanisms")
    assert checked.exit_code == 0, checked.output
    # No finding at all: not even an unpinned-source or route warning.
    assert checked.stderr == "mechdiagram: 1 of 1 spec(s) valid\n"
    built = invoke("build", "mechanisms", "-o", "out", "--format", "json")
    assert built.exit_code == 0, built.output
    document = json.loads(built.stdout)
    assert document["findings"] == []
    expected = {fmt.file_name("queue", "first-run") for fmt in formats() if not fmt.optional}
    assert sorted(p.name for p in (folder / "out").iterdir()) == sorted({"manifest.json", "index.html", *expected,
                                                                        *PLAYER_FILES})
    assert "queue.first-run.svg" in expected and "queue.html" in expected
    manifest = json.loads((folder / "out" / "manifest.json").read_text("utf-8"))
    (entry,) = manifest["specs"]
    assert [s["status"] for s in entry["sources"]] == ["verified"]


def _schema_keys_used(spec: dict) -> set[str]:
    """The schema's keys a spec uses: keys of by-key maps (target keys, state rows, positions) are the author's."""
    used = set(spec) | _keys_used({k: v for k, v in spec.items() if k not in ("targets", "stateLabels")})
    return used | _keys_used(list(spec["targets"].values()))


def test_new_spec_shows_every_field_of_the_schema(folder):
    """The grid spec and the sequence spec (``--view sequence``) use every key of the schema between them: a
    sequence's keys (view, order, a reply's style, groups: a lane grid has none) and a grid's (lanes, positions)
    exclude each other."""
    assert invoke("new", "queue").exit_code == 0
    assert invoke("new", "talk", "--view", "sequence").exit_code == 0
    spec = json.loads((folder / "queue.mechanism.json").read_text("utf-8"))
    sequence = json.loads((folder / "talk.mechanism.json").read_text("utf-8"))
    declared = _schema_properties(schema())
    assert "unselected" in declared and "positions" in declared  # the walk reaches $defs and layout
    assert declared - _schema_keys_used(spec) == {"view", "order", "style", "groups", "members"}
    assert declared - _schema_keys_used(spec) - _schema_keys_used(sequence) == set()
    assert spec["$schema"] == schema()["$id"]
    scenario = spec["scenarios"][0]
    assert scenario["unselected"] and all(step["description"] for step in scenario["steps"])
    assert {t["kind"] for t in spec["targets"].values()} == {"node", "path"}
    lanes = spec["layout"]["lanes"]
    assert any(isinstance(lane, str) for lane in lanes) and any(isinstance(lane, dict) for lane in lanes)


def test_new_view_sequence_writes_a_small_valid_sequence(folder):
    """``new NAME --view sequence``: a sequence of three participants with a message to itself and two replies,
    which validates with no finding and builds; its drawing has a row per step and a lifeline per participant."""
    made = invoke("new", "talk", "--view", "sequence", "--dir", "mechanisms")
    assert made.exit_code == 0, made.output
    spec = json.loads((folder / "mechanisms" / "talk.mechanism.json").read_text("utf-8"))
    assert spec["layout"] == {"view": "sequence", "order": ["client", "server", "database"]}
    paths = [t for t in spec["targets"].values() if t["kind"] == "path"]
    assert any(t["from"] == t["to"] for t in paths) and sum(t.get("style") == "reply" for t in paths) == 2
    assert spec["sources"][0]["sha256"] == sha256_hex((folder / "mechanisms" / "talk.notes.md").read_bytes())
    checked = invoke("validate", "mechanisms")
    assert checked.exit_code == 0, checked.output
    assert checked.stderr == "mechdiagram: 1 of 1 spec(s) valid\n"
    built = invoke("build", "mechanisms", "-o", "out")
    assert built.exit_code == 0, built.output
    svg = (folder / "out" / "talk.first-request.svg").read_text("utf-8")
    assert svg.count("-row-current") == 3
    assert svg.count("-lifelines") == 1


def test_new_title_names_the_spec_as_the_author_writes_it(folder):
    """``--title``: a new user's "dns-resolution" was titled "Dns resolution"; the title the author gives is the
    spec's and its notes' heading, escaped as JSON and as Markdown and never markup, and it validates.  A title with
    nothing visible, or of two lines, is refused before anything is written.  Its quotes and apostrophes stay as typed
    in both files (a new user's "resolver's" came out as resolver&#39;s in the notes and resolver\\u0027s in the
    spec)."""
    title = 'DNS "resolution" <b> from a resolver\'s *cache*'
    made = invoke("new", "dns-resolution", "--title", title, "--dir", "mechanisms")
    assert made.exit_code == 0, made.output
    text = (folder / "mechanisms" / "dns-resolution.mechanism.json").read_text("utf-8")
    assert json.loads(text)["title"] == title
    assert '  "title": "DNS \\"resolution\\" <b> from a resolver\'s *cache*",\n' in text
    # in the Markdown notes, <, > and & as character references and Markdown's punctuation after a backslash:
    # rendered, they read as the title, never as markup
    assert (folder / "mechanisms" / "dns-resolution.notes.md").read_text("utf-8").startswith(
        '# Notes for DNS "resolution" &lt;b&gt; from a resolver\'s \\*cache\\*\n')
    checked = invoke("validate", "mechanisms")
    assert checked.exit_code == 0 and checked.stderr == "mechdiagram: 1 of 1 spec(s) valid\n", checked.output
    assert json.loads((folder / "mechanisms" / "dns-resolution.mechanism.json").read_text("utf-8"))["title"] \
        != "Dns resolution"
    for bad in ("  ", "two\nlines", "x" * 501):
        refused = invoke("new", "other", "--title", bad)
        assert refused.exit_code == 2 and "--title" in refused.output, refused.output
        assert not (folder / "other.mechanism.json").exists() and not (folder / "other.notes.md").exists()
    assert invoke("new", "dns-lookup").exit_code == 0
    assert json.loads((folder / "dns-lookup.mechanism.json").read_text("utf-8"))["title"] == "Dns lookup"


def test_new_refuses_an_unknown_view(folder):
    made = invoke("new", "talk", "--view", "pie")
    assert made.exit_code == 2 and "pie" in made.output and "'graph'" in made.output
    assert not (folder / "talk.mechanism.json").exists()


def test_new_view_graph_writes_a_small_valid_layered_graph(folder):
    """``new NAME --view graph``: a layered graph (no lane keys, no ``layout``) of five boxes, two of them in a
    group a step lights up, an opposite pair of labelled arrows, a dimmed box; it validates with no finding (no
    route warning in any layout) and builds, its query and rows drawn straight between the service and the
    database in the wide layout, the group's frame round its two members."""
    made = invoke("new", "orders", "--view", "graph", "--dir", "mechanisms")
    assert made.exit_code == 0, made.output
    data = json.loads((folder / "mechanisms" / "orders.mechanism.json").read_text("utf-8"))
    assert "layout" not in data and data["groups"] == {"backend": {"label": "Back end",
                                                                   "members": ["orders", "database"]}}
    assert any("backend" in step["active"] for step in data["scenarios"][0]["steps"])
    checked = invoke("validate", "mechanisms")
    assert checked.exit_code == 0 and checked.stderr == "mechdiagram: 1 of 1 spec(s) valid\n", checked.output
    built = invoke("build", "mechanisms", "-o", "out")
    assert built.exit_code == 0, built.output
    from mechdiagram.layout import diagram
    from mechdiagram.shared.model import spec_from_data

    spec = spec_from_data(data)
    assert not spec.lane_grid
    wide = diagram(spec)
    assert [len(wide.arrows[key].points) for key in ("query", "rows")] == [2, 2]
    frame = wide.groups["backend"]
    for key in ("orders", "database"):
        box = wide.boxes[key]
        assert frame.x < box.x and box.right < frame.x + frame.w
    assert '-group-label"' in (folder / "out" / "orders.first-request.svg").read_text("utf-8")


def test_new_writes_the_same_bytes_every_time(tmp_path, monkeypatch):
    outputs = []
    for place in ("one", "two"):
        (tmp_path / place).mkdir()
        monkeypatch.chdir(tmp_path / place)
        assert invoke("new", "prefill-decode.mechanism.json").exit_code == 0
        outputs.append(((tmp_path / place / "prefill-decode.mechanism.json").read_bytes(),
                        (tmp_path / place / "prefill-decode.notes.md").read_bytes()))
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0][0])["title"] == "Prefill decode"
    assert outputs[0][0].endswith(b"}\n") and b"\r" not in outputs[0][0]


def test_new_follows_the_configured_source_root(folder):
    (folder / "pyproject.toml").write_text('[tool.mechdiagram]\nsource-root = "content"\n', "utf-8")
    made = invoke("new", "kv", "--dir", "content/figures")
    assert made.exit_code == 0, made.output
    spec = json.loads((folder / "content" / "figures" / "kv.mechanism.json").read_text("utf-8"))
    assert spec["sources"][0]["path"] == "figures/kv.notes.md"
    checked = invoke("validate", "content/figures")
    assert checked.exit_code == 0, checked.output
    assert checked.stderr == "mechdiagram: 1 of 1 spec(s) valid\n"


def test_new_refuses_a_folder_outside_the_source_root(folder):
    (folder / "root").mkdir()
    made = invoke("new", "q", "--source-root", "root", "--dir", "elsewhere")
    assert made.exit_code == 2
    assert "elsewhere is not under the source root root" in made.stderr
    assert not (folder / "elsewhere").exists()


@pytest.mark.parametrize("existing", ["queue.mechanism.json", "queue.notes.md"])
def test_new_never_overwrites(folder, existing):
    (folder / existing).write_bytes(b"mine\n")
    made = invoke("new", "queue")
    assert made.exit_code == 2
    assert f"{existing} exists already; new never overwrites a file" in made.stderr
    assert (folder / existing).read_bytes() == b"mine\n"
    assert sorted(p.name for p in folder.iterdir()) == [existing]


def test_new_refuses_a_dangling_symbolic_link(folder):
    (folder / "queue.mechanism.json").symlink_to(folder / "nowhere.json")
    assert invoke("new", "queue").exit_code == 2
    assert not (folder / "nowhere.json").exists()


@pytest.mark.parametrize("name", ["../escape", "sub/queue", "/abs/queue", "..", "a\\b"])
def test_new_refuses_a_name_that_leaves_the_folder(tmp_path, monkeypatch, name):
    inner = tmp_path / "inner"
    inner.mkdir()
    monkeypatch.chdir(inner)
    made = invoke("new", name)
    assert made.exit_code == 2
    assert "is a path, which would leave the folder" in made.stderr
    assert list(tmp_path.rglob("*.mechanism.json")) == [] and list(tmp_path.rglob("*.md")) == []


@pytest.mark.parametrize("name", ["1queue", "-queue", "q u", "", "x" * 65, "qu\u00e9ue"])
def test_new_refuses_a_name_that_is_not_a_plain_identifier(folder, name):
    made = invoke("new", "--", name)
    assert made.exit_code == 2
    assert "must be a letter followed by up to 63 letters, digits, '-' or '_'" in made.stderr
    assert list(folder.iterdir()) == []


def test_write_new_removes_its_notes_when_the_spec_appears_meanwhile(folder):
    plan = plan_new("queue", folder, folder, folder)
    (folder / "queue.mechanism.json").write_bytes(b"raced\n")
    with pytest.raises(UsageError, match=r"queue\.mechanism\.json exists already"):
        write_new(plan)
    assert (folder / "queue.mechanism.json").read_bytes() == b"raced\n"
    assert sorted(p.name for p in folder.iterdir()) == ["queue.mechanism.json"]


def test_help_of_new_and_schema_ends_with_an_example():
    for command, example in (("new", "Example: mechdiagram new queue --dir mechanisms"),
                             ("schema", "Example: mechdiagram schema -o schema/mechanism.schema.json")):
        result = invoke(command, "--help")
        assert result.exit_code == 0
        assert result.output.strip().endswith(example), result.output  # the last thing the help says


@pytest.mark.parametrize("links", [True, False])
def test_write_file_without_overwrite_never_replaces_a_file(tmp_path, monkeypatch, links):
    if not links:  # a file system without hard links: the check-then-rename fallback
        def no_link(*args, **kwargs):
            raise PermissionError(1, "Operation not permitted")
        monkeypatch.setattr(os, "link", no_link)
    target = tmp_path / "new.json"
    assert write_file(target, b"first\n", overwrite=False) is True
    assert target.read_bytes() == b"first\n"
    with pytest.raises(OutputExistsError) as caught:
        write_file(target, b"first\n", overwrite=False)  # even with the same bytes
    assert caught.value.path == target and "exists already" in caught.value.message
    assert target.read_bytes() == b"first\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.json"]  # no temporary file left
