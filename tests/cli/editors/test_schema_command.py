"""``mechdiagram schema [-o PATH]`` and how ``new`` points ``$schema`` at the project's copy."""

from __future__ import annotations

import json

import pytest

from mechdiagram.shared.assets import schema
from support.cli import invoke
from support.specs import ROOT

SCHEMA_FILE = ROOT / "schema" / "mechanism.schema.json"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_schema_prints_the_schema_byte_for_byte():
    result = invoke("schema")
    assert result.exit_code == 0
    assert result.stdout == SCHEMA_FILE.read_text("utf-8")
    assert json.loads(result.stdout)["$id"] == "urn:mechdiagram:schema:mechanism:v1"


def test_schema_output_writes_a_file_or_into_a_folder(folder):
    first = invoke("schema", "-o", "schema/")
    assert first.exit_code == 0, first.output
    assert first.stderr == "schema/mechanism.schema.json: schema written\n"
    assert (folder / "schema" / "mechanism.schema.json").read_bytes() == SCHEMA_FILE.read_bytes()
    again = invoke("schema", "-o", "schema")  # an existing folder, without the slash
    assert again.stderr == "schema/mechanism.schema.json: schema already current\n"
    named = invoke("schema", "-o", "editor/my.schema.json")
    assert named.exit_code == 0
    assert (folder / "editor" / "my.schema.json").read_bytes() == SCHEMA_FILE.read_bytes()


def test_schema_output_that_cannot_be_written_is_a_one_line_error(folder):
    (folder / "blocker").write_text("a file\n")
    result = invoke("schema", "-o", "blocker/mechanism.schema.json")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: cannot write blocker/mechanism.schema.json")
    assert (folder / "blocker").read_text() == "a file\n"


def test_new_points_schema_at_the_projects_copy_by_a_relative_path(folder):
    (folder / "pyproject.toml").write_text("[project]\nname = 'blog'\n", "utf-8")
    assert invoke("schema", "-o", "schema/").exit_code == 0
    made = invoke("new", "queue", "--dir", "content/mechanisms")
    assert made.exit_code == 0, made.output
    assert made.stderr == "wrote content/mechanisms/queue.mechanism.json and content/mechanisms/queue.notes.md\n"
    spec_path = folder / "content" / "mechanisms" / "queue.mechanism.json"
    ref = json.loads(spec_path.read_text("utf-8"))["$schema"]
    assert ref == "../../schema/mechanism.schema.json"
    assert (spec_path.parent / ref).resolve() == (folder / "schema" / "mechanism.schema.json").resolve()


def test_new_prefers_the_nearest_copy_and_ignores_other_schemas(folder):
    (folder / "schema").mkdir()
    (folder / "schema" / "mechanism.schema.json").write_text(json.dumps(schema()), "utf-8")
    (folder / "mechanisms").mkdir()
    (folder / "mechanisms" / "mechanism.schema.json").write_text('{"$id": "urn:someone-else"}', "utf-8")
    made = invoke("new", "queue", "--dir", "mechanisms")
    assert made.exit_code == 0
    assert json.loads((folder / "mechanisms" / "queue.mechanism.json").read_text())["$schema"] == \
        "../schema/mechanism.schema.json"
    # That copy is ours by $id but not byte-identical: new says how to refresh it.
    assert "schema/mechanism.schema.json differs from this mechdiagram's schema; refresh it with " \
           "`mechdiagram schema -o schema/mechanism.schema.json`" in made.stderr
    (folder / "mechanisms" / "mechanism.schema.json").write_text(SCHEMA_FILE.read_text("utf-8"), "utf-8")
    assert invoke("new", "kv", "--dir", "mechanisms").exit_code == 0
    assert json.loads((folder / "mechanisms" / "kv.mechanism.json").read_text())["$schema"] == "mechanism.schema.json"


def test_new_without_a_copy_uses_the_id_and_says_how_to_get_one(folder):
    made = invoke("new", "queue")
    assert made.exit_code == 0
    assert json.loads((folder / "queue.mechanism.json").read_text())["$schema"] == schema()["$id"]
    assert "no copy of the schema in this project" in made.stderr
    assert "`mechdiagram schema -o schema/`" in made.stderr


def test_new_names_a_file_in_the_schemas_place_that_is_not_the_schema(folder):
    (folder / "schema").mkdir()
    (folder / "schema" / "mechanism.schema.json").write_text("{}", "utf-8")
    made = invoke("new", "queue")
    assert made.exit_code == 0
    assert json.loads((folder / "queue.mechanism.json").read_text())["$schema"] == schema()["$id"]
    assert "no copy of the schema" not in made.stderr
    assert (f"schema/mechanism.schema.json is not mechdiagram's schema (its $id is not {schema()['$id']}), so "
            f"$schema is {schema()['$id']}; for editor completion replace it: "
            "`mechdiagram schema -o schema/mechanism.schema.json`") in made.stderr


def test_new_does_not_look_above_the_project(tmp_path, monkeypatch):
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "mechanism.schema.json").write_text(SCHEMA_FILE.read_text("utf-8"), "utf-8")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("", "utf-8")
    monkeypatch.chdir(project)
    assert invoke("new", "queue").exit_code == 0
    assert json.loads((project / "queue.mechanism.json").read_text())["$schema"] == schema()["$id"]


def test_readme_shows_the_editor_set_up_and_no_checkout_path_command():
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "python -P -c" not in readme and "mechdiagram.__file__" not in readme
    section = readme.split("### new, schema: starting a spec and editor set-up", 1)[1].split("\n## ", 1)[0]
    block = section.split("```json\n", 1)[1].split("```", 1)[0]
    settings = json.loads(block)
    (mapping,) = settings["json.schemas"]
    assert mapping == {"fileMatch": ["mechanisms/*.mechanism.json"], "url": "./schema/mechanism.schema.json"}
    assert "JSON Schema Mappings" in section and "mechanisms/*.mechanism.json" in section
    # The commands it shows exist, and the $schema it promises is what new writes.
    assert "mechdiagram schema -o schema/" in section and "mechdiagram new queue --dir mechanisms" in section
    assert '"../schema/mechanism.schema.json"' in section


def test_new_run_inside_a_git_project_finds_the_copy_at_its_top(folder, monkeypatch):
    """A project marked by .git alone (no pyproject.toml): `new`, run from a folder inside it, looks up to the
    project's top for the copy, as the build looks there for sources; the notes path is relative to that top."""
    (folder / ".git").mkdir()
    (folder / "schema").mkdir()
    (folder / "schema" / "mechanism.schema.json").write_text(SCHEMA_FILE.read_text("utf-8"), "utf-8")
    (folder / "content" / "mechanisms").mkdir(parents=True)
    monkeypatch.chdir(folder / "content" / "mechanisms")
    made = invoke("new", "queue")
    assert made.exit_code == 0, made.stderr
    written = json.loads((folder / "content" / "mechanisms" / "queue.mechanism.json").read_text("utf-8"))
    assert written["$schema"] == "../../schema/mechanism.schema.json"
    assert written["sources"][0]["path"] == "content/mechanisms/queue.notes.md"
    assert (folder / "content" / "mechanisms" / "queue.notes.md").read_bytes().endswith(b".\n")
