"""The Sphinx extension: ``extensions = ["mechdiagram.sphinx"]`` (this module, re-exported under that name).

The directive ``.. mechanism:: path/to/spec.mechanism.json`` (MyST: ```` ```{mechanism} path ````) puts the spec's
figure into the page, with the options ``:scenario: ID`` (that scenario alone) and ``:caption:`` (a caption of
the page's, under the figure).  The path is relative to the document, or to the source folder when it starts with
``/``, as Sphinx's ``image`` and ``literalinclude`` take theirs.  The figure is built while the document is read
(:class:`~mechdiagram.integrations.figures.FigureBuilder`, cached in ``mechdiagram_cache_dir``, default
``.cache/mechdiagram`` beside ``conf.py``), its files written into ``_static/mechdiagram/`` of the output, and the
spec and its sources noted as the document's dependencies, so that an incremental build reads the document
again when one of them changes.  Every page loads the player (``app.add_js_file`` and ``add_css_file``).  A
finding is a warning at the directive's line (an error under ``-W``), and the page shows the findings where the
figure would be.  ``mechdiagram_dark_selectors`` and ``mechdiagram_light_selectors`` name a theme's colour-mode
switch besides those mechdiagram knows (Furo's is among them).
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from mechdiagram import __version__
from mechdiagram.integrations.figures import CACHE_DIR, FigureBuilder, located
from mechdiagram.shared.config import Embedding, colour_selectors
from mechdiagram.shared.errors import MechdiagramError

#: The folder under the output's ``_static/`` that holds the player's and the figures' files.
STATIC = "mechdiagram"

logger = logging.getLogger(__name__)


#: The figure builder of each build environment (one a process: Sphinx's parallel readers each have theirs), made
#: when the builder starts (:func:`_player`); never pickled with the environment.
_BUILDERS: weakref.WeakKeyDictionary[BuildEnvironment, FigureBuilder] = weakref.WeakKeyDictionary()


def _builder(app: Sphinx) -> FigureBuilder:
    """The site's :class:`FigureBuilder`, made from the project's settings and kept for the environment."""
    found = _BUILDERS.get(app.env)
    if found is not None:
        return found
    config = app.config
    cache = config.mechdiagram_cache_dir
    try:
        embedding = Embedding("", colour_selectors(list(config.mechdiagram_dark_selectors),
                                                   "mechdiagram_dark_selectors"),
                              colour_selectors(list(config.mechdiagram_light_selectors),
                                               "mechdiagram_light_selectors"))
    except MechdiagramError as exc:
        from sphinx.errors import ConfigError

        raise ConfigError(exc.message) from exc
    builder = FigureBuilder(embedding=embedding, site=Path(app.confdir),
                            cache_dir=Path(app.confdir) / cache if cache else None,
                            output_dir=Path(app.outdir) / "_static" / STATIC)
    _BUILDERS[app.env] = builder
    return builder


class mechanism_figure(nodes.figure):  # noqa: N801 (docutils names node classes in lower case)
    """A figure with a caption of the page's: written ``<figure class="mech-embed">`` by the HTML builders, without
    the ``align-default`` class (centred text) a docutils figure gets, which the transcript must not inherit; other
    builders write it as a figure."""


def _visit_html(translator: Any, node: mechanism_figure) -> None:
    translator.body.append('<figure class="mech-embed">\n')


def _depart_html(translator: Any, node: mechanism_figure) -> None:
    translator.body.append("</figure>\n")


def _visit_other(translator: Any, node: mechanism_figure) -> None:
    translator.visit_figure(node)


def _depart_other(translator: Any, node: mechanism_figure) -> None:
    translator.depart_figure(node)


class MechanismDirective(SphinxDirective):
    """``.. mechanism:: PATH`` with ``:scenario:`` and ``:caption:``: the figure (a raw HTML block, in a
    :class:`mechanism_figure` with the caption when there is one), or the findings block, warned of at the
    directive."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {"scenario": directives.unchanged_required,
                                             "caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        """The directive's nodes; its findings logged as warnings at its line."""
        shown = self.arguments[0].strip()
        _, path = self.env.relfn2path(shown, self.env.docname)
        builder = _BUILDERS[self.env]
        figure = builder.figure(Path(path), self.options.get("scenario"), shown=shown)
        for dependency in figure.dependencies:
            self.env.note_dependency(str(dependency))
        for finding in figure.findings:
            logger.warning("mechdiagram: %s", located(finding), location=(self.env.docname, self.lineno),
                           type="mechdiagram", subtype=finding.rule)
        html = figure.html
        if figure.ok:
            html = html.replace(builder.player_tags(), "", 1)  # every page's <head> loads the player
            builder.write(figure.files)
        raw = nodes.raw("", html, format="html")
        caption = self.options.get("caption")
        if not caption:
            return [raw]
        holder = mechanism_figure("", raw)
        text, messages = self.state.inline_text(caption, self.lineno)
        holder += nodes.caption(caption, "", *text)
        self.set_source_info(holder)
        return [holder, *messages]


def _player(app: Sphinx) -> None:
    """Write the player's files into ``_static/mechdiagram/`` and load them from every page."""
    builder = _builder(app)
    if app.builder.format != "html":
        return
    files = builder.player()
    builder.write(files)
    for name in sorted(files):
        if name.endswith(".css"):
            app.add_css_file(f"{STATIC}/{name}")
        else:
            app.add_js_file(f"{STATIC}/{name}", type="module")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive, its settings and the player; parallel reading and writing are safe (each process
    builds and caches its own figures; files are written atomically)."""
    app.add_config_value("mechdiagram_cache_dir", CACHE_DIR.as_posix(), "env", types=[str])
    app.add_config_value("mechdiagram_dark_selectors", [], "env", types=[list])
    app.add_config_value("mechdiagram_light_selectors", [], "env", types=[list])
    app.add_node(mechanism_figure, html=(_visit_html, _depart_html), latex=(_visit_other, _depart_other),
                 text=(_visit_other, _depart_other), man=(_visit_other, _depart_other),
                 texinfo=(_visit_other, _depart_other))
    app.add_directive("mechanism", MechanismDirective)
    app.connect("builder-inited", _player)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}


__all__ = ["MechanismDirective", "setup"]
