"""The one jinja2 environment: compiled templates come from jinja2's bytecode cache when it can be used,
and the output never depends on it."""

from __future__ import annotations

import jinja2

from mechdiagram.api import render_spec
from mechdiagram.render import templating
from mechdiagram.render.outputs import formats
from support.specs import MECHANISMS, ROOT

SPEC = MECHANISMS / "prefill-decode.mechanism.json"


def _env(cache: jinja2.BytecodeCache | None) -> jinja2.Environment:
    env = templating.environment()
    return jinja2.Environment(loader=env.loader, autoescape=True, trim_blocks=True, lstrip_blocks=True,
                              keep_trailing_newline=True, undefined=jinja2.StrictUndefined, bytecode_cache=cache)


#: A context of ``player.css``.
CONTEXT = {"ui": [], "sizes": [], "switches": ["640"], "wide_switches": ["1024"], "tab": {"size": 44, "gap": 2}, "tab_rows": [], "drawing": [],
           "dark": "[data-theme=\"dark\"]", "light": "[data-theme=\"light\"]"}


def test_templates_render_the_same_from_the_cache_without_it_and_when_it_cannot_write(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    fresh = _env(templating._QuietCache(str(folder))).get_template("player.css").render(**CONTEXT)
    assert any(folder.iterdir())  # the compiled template was stored
    cached = _env(templating._QuietCache(str(folder))).get_template("player.css").render(**CONTEXT)
    unwritable = _env(templating._QuietCache(str(tmp_path / "missing"))).get_template("player.css")
    plain = _env(None).get_template("player.css").render(**CONTEXT)
    assert fresh == cached == plain == unwritable.render(**CONTEXT)


def test_without_a_private_temporary_folder_there_is_no_cache(monkeypatch):
    def refuse(*args, **kwargs):
        raise RuntimeError("Cannot determine safe temp directory.")

    monkeypatch.setattr(templating, "_QuietCache", refuse)
    assert templating._bytecode_cache() is None
    templating.environment.cache_clear()
    try:
        assert templating.environment().bytecode_cache is None
        assert len(render_spec(SPEC, source_root=ROOT).files) == len([fmt for fmt in formats() if not fmt.optional])
    finally:
        templating.environment.cache_clear()
