"""The one jinja2 environment for every template (HTML and the SVG style sheet): package loader,
autoescaping always on, undefined names an error.

A site may replace templates with its own (``--template-dir``): :func:`template_dir` sets, for the
current thread or task, a folder searched before the package's templates (a jinja2 ``ChoiceLoader``).
They render in jinja2's sandbox (``jinja2.sandbox.SandboxedEnvironment``), which keeps a template from
Python's internals; what they write into the pages (markup, script) is still theirs to decide.

Compiled templates are kept in jinja2's own bytecode cache (``_jinja2-cache-UID`` in the temporary
folder, private to the user; jinja2 checks its owner and mode and each entry against the template's
source), so that a build does not parse and compile the templates again each time it starts.  Where
that folder cannot be used, templates are compiled in memory as before; output never depends on it.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

import jinja2
from jinja2.loaders import split_template_path
from markupsafe import Markup

from mechdiagram.layout.measure import keep_together
from mechdiagram.shared.files import display_path
from mechdiagram.spec.provenance import inside

_TEMPLATE_DIR: contextvars.ContextVar[Path | None] = contextvars.ContextVar("template_dir", default=None)


class _ConfinedLoader(jinja2.FileSystemLoader):
    """A site's template folder: a template reached through a link that leaves the folder is an error, so a
    template folder that came with a checkout cannot put another file of the machine into the pages."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        folder = self.searchpath[0]
        path = os.path.join(folder, *split_template_path(template))
        if os.path.lexists(path) and not inside(folder, path):
            raise jinja2.TemplateError(f"{template} leads out of the template folder {display_path(Path(folder))} "
                                       "through a link; a site's templates lie inside its template folder")
        return super().get_source(environment, template)


class _QuietCache(jinja2.FileSystemBytecodeCache):
    """jinja2's file system bytecode cache, but a cache entry that cannot be written is only not cached."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    try:
        return _QuietCache()
    except (OSError, RuntimeError):  # no private temporary folder to be had
        return None


@lru_cache(maxsize=8)
def environment(folder: Path | None = None) -> jinja2.Environment:
    """The shared environment; templates are package data under ``renderer/mechdiagram/templates``, found after those
    in ``folder`` when it is given."""
    package = jinja2.PackageLoader("mechdiagram", "templates")
    loader: jinja2.BaseLoader = package
    kind: type[jinja2.Environment] = jinja2.Environment
    cache = _bytecode_cache()
    if folder is not None:
        loader = jinja2.ChoiceLoader([_ConfinedLoader(folder), package])
        # A site's templates run in jinja2's sandbox: no attribute of Python's internals (``__globals__``,
        # ``__subclasses__``), so a template that came with a checkout cannot run code; and none is cached,
        # so that no template compiled outside the sandbox is ever loaded into it.
        from jinja2.sandbox import SandboxedEnvironment

        kind, cache = SandboxedEnvironment, None
    env = kind(
        loader=loader,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=cache,
    )
    env.filters["zip"] = zip
    env.filters["keep_together"] = keep_together
    return env


@contextlib.contextmanager
def template_dir(folder: Path | None) -> Iterator[None]:
    """Within the ``with`` block, :func:`template` looks in ``folder`` first (``None``: the package's only)."""
    token = _TEMPLATE_DIR.set(folder.resolve() if folder is not None else None)
    try:
        yield
    finally:
        _TEMPLATE_DIR.reset(token)


def template(name: str) -> jinja2.Template:
    """The template ``name`` (``page.html``, ``fragment.html``, ``svg.css``), from the template folder of
    :func:`template_dir` when it has one."""
    return environment(_TEMPLATE_DIR.get()).get_template(name)


#: Characters that make Markdown of prose (CommonMark: emphasis, code spans, links, a backslash escape): each is
#: written after a backslash by :func:`markdown_text`.
MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]])")


def markdown_text(text: str) -> Markup:
    """``text`` for a line of Markdown, never markup: ``&``, ``<`` and ``>`` as character references, and the
    characters of :data:`MARKDOWN_PUNCTUATION` after a backslash (CommonMark reads both as the characters), quotes
    and apostrophes as they are (a new user's title "A DNS lookup answered from a resolver's cache" came out as
    ``resolver&#39;s`` in the notes, autoescaped as HTML).  Marked safe for templates that write Markdown."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return Markup(MARKDOWN_PUNCTUATION.sub(r"\\\1", escaped))


def json_string(text: str) -> Markup:
    """``text`` as a JSON string literal (RFC 8259), its characters as they are (``json.dumps`` with
    ``ensure_ascii`` off), for templates that write JSON: jinja2's ``tojson`` writes ``'``, ``<``, ``>`` and ``&``
    as ``\\u`` escapes, safe in HTML and strange in a JSON file an author edits (``resolver\\u0027s``)."""
    return Markup(json.dumps(text, ensure_ascii=False))
