"""The Python-Markdown extension: a fenced block of info string ``mechanism`` becomes the figure of the spec it names.

::

    ```mechanism scenario=one-request
    mechanisms/prefill-decode.mechanism.json
    ```

Load it as ``mechdiagram.integrations.markdown`` (``markdown.Markdown(extensions=[...])``, ``markdown_extensions``
of ``mkdocs.yml`` or ``zensical.toml``), or give :func:`fence_format` and :func:`fence_validator` to
``pymdownx.superfences`` as a custom fence named ``mechanism``.  The body is the spec's path, relative to
``base_dir``; ``scenario=ID`` on the fence line draws that scenario alone.  The figure is built when the page is
(:class:`~mechdiagram.integrations.figures.FigureBuilder`, cached in ``cache_dir``), its files and the player's are
written into ``output_dir`` (when set; each only when changed), and the fence becomes the figure's fragment, a
``<div>`` that loads the player from ``player_url``: a block of its own, never inside a ``<p>``.  A spec with errors
becomes the list of its findings, and each finding is logged as a warning (:data:`LOGGER`, which ``mkdocs build
--strict`` counts).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from mechdiagram.integrations.figures import (
    CACHE_DIR,
    Figure,
    FigureBuilder,
    findings_html,
    located,
    parse_scenario,
    site_project,
)
from mechdiagram.shared.config import Embedding, player_url
from mechdiagram.shared.errors import MechdiagramError
from mechdiagram.shared.findings import Finding

#: The logger of the extension's warnings: under ``mkdocs.``, so that ``mkdocs build --strict`` (which counts the
#: warnings of the ``mkdocs`` logger's tree) fails on them; elsewhere a logger like any other.
LOGGER = "mkdocs.plugins.mechdiagram"

#: The info string of a figure's fence.
INFO = "mechanism"

#: A fence of :data:`INFO`: three or more backticks or tildes, the info string and its options, the body, and the
#: same fence (CommonMark 4.5, as Python-Markdown's fenced_code takes it, at the start of a line).
FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*\{?\.?" + INFO + r"(?=[ \t}]|\n)(?P<options>[^\n`]*?)\}?[ \t]*\n"
                   r"(?P<body>.*?)(?<=\n)(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)
#: Any fenced code block, whatever its info string: a mechanism fence shown inside a longer one (a page that explains
#: the fence) is the outer block's text, not a figure.
ANY_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[^\n]*\n(?:.*?(?<=\n))?(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)


class MechanismExtension(Extension):
    """The extension; its settings (Python-Markdown's ``config``): ``base_dir`` (the folder spec paths are relative
    to, default the working directory), ``cache_dir`` (the cache folder, default :data:`~.figures.CACHE_DIR`
    under ``base_dir``; ``""`` for none), ``output_dir`` (the folder of the site's output the figures' and the
    player's files are written into; ``""``: not written), ``player_url`` (the URL of that folder as the pages
    load it, default ``""``: beside the page), ``dark_selectors`` and ``light_selectors`` (the site's colour-mode
    switch, :class:`~mechdiagram.shared.config.Embedding`), and ``page`` (the page's name in warnings)."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "base_dir": ["", "folder spec paths are relative to (default: the working directory)"],
            "cache_dir": [CACHE_DIR.as_posix(), "cache folder, relative to base_dir ('' for none)"],
            "output_dir": ["", "folder of the site's output the figures' and the player's files go to"],
            "player_url": ["", "URL of output_dir as the site's pages load it"],
            "dark_selectors": [[], "CSS selectors of the site's dark mode"],
            "light_selectors": [[], "CSS selectors of the site's light mode"],
            "page": ["", "the page's name, for warnings"],
        }
        super().__init__(**kwargs)
        self._builder: FigureBuilder | None = None
        #: Every figure built through this extension since it was made (the MkDocs plugin watches their files).
        self.figures: list[Figure] = []

    def builder(self) -> FigureBuilder:
        """The :class:`~.figures.FigureBuilder` of the current settings (a new one when they changed)."""
        from mechdiagram.shared.config import colour_selectors

        embedding = Embedding(player_url(str(self.getConfig("player_url")), "player_url"),
                              colour_selectors(list(self.getConfig("dark_selectors")), "dark_selectors"),
                              colour_selectors(list(self.getConfig("light_selectors")), "light_selectors"))
        cache = self.getConfig("cache_dir")
        base = self.base_dir()
        cache_dir = base / str(cache) if cache else None
        output = str(self.getConfig("output_dir"))
        output_dir = Path(output) if output else None
        current = self._builder
        if current is None or (current.embedding, current.cache_dir, current.output_dir, current.root) != (
                embedding, cache_dir, output_dir, site_project(base)):
            self._builder = current = FigureBuilder(embedding=embedding, cache_dir=cache_dir, output_dir=output_dir,
                                                    site=base)
        return current

    def base_dir(self) -> Path:
        """The folder spec paths are relative to."""
        return Path(str(self.getConfig("base_dir")) or ".")

    def render(self, body: str, options: str) -> str:
        """The HTML of one fence: ``body`` the spec's path, ``options`` what follows the info string.  Builds the
        figure, writes its files and the player's into the output folder, logs each finding (a warning whatever
        its severity, naming the page), and returns the fragment or the findings' block."""
        shown = body.strip()
        log = logging.getLogger(LOGGER)
        page = str(self.getConfig("page"))
        where = f" (in {page})" if page else ""
        try:
            scenario = parse_scenario(options)
        except MechdiagramError as exc:
            finding = Finding(page or "the page", None, exc.message, "fence-options")
            log.warning("mechdiagram: %s%s", located(finding), where)
            return findings_html(shown, [finding])
        builder = self.builder()
        figure = builder.figure(self.base_dir() / shown, scenario, shown=shown)
        self.figures.append(figure)
        for finding in figure.findings:
            log.warning("mechdiagram: %s%s", located(finding), where)
        if figure.ok:
            builder.write({**figure.files, **builder.player()})
        return figure.html

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Register the fence's preprocessor before ``fenced_code`` (25) and superfences, and make this
        extension what :func:`fence_format` uses for ``md``."""
        md.registerExtension(self)
        md.preprocessors.register(MechanismFences(md, self), "mechdiagram", 28)
        md.mechdiagram = self  # type: ignore[attr-defined]  # what fence_format finds


class MechanismFences(Preprocessor):
    """Replaces each :data:`FENCE` that is not inside another fenced block (:data:`ANY_FENCE`) with a placeholder of
    the figure's HTML, on a block of its own."""

    def __init__(self, md: Markdown, extension: MechanismExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        """The page's lines with every mechanism fence replaced."""
        text = "\n".join(lines)

        def replace(block: re.Match[str]) -> str:
            match = FENCE.fullmatch(block.group(0))
            if match is None:
                return block.group(0)  # another fence, and whatever it holds
            stashed = self.md.htmlStash.store(self.extension.render(match.group("body"), match.group("options")))
            # Blank lines around: the placeholder is a paragraph of its own, which the raw HTML postprocessor
            # replaces whole with the figure's <div> (a block-level element), never wraps in a <p>.
            return f"\n\n{stashed}\n\n"

        return ANY_FENCE.sub(replace, text).split("\n")


def _extension(md: Markdown) -> MechanismExtension:
    """The :class:`MechanismExtension` of ``md``, or a new one with the default settings registered on it."""
    found = getattr(md, "mechdiagram", None)
    if isinstance(found, MechanismExtension):
        return found
    extension = MechanismExtension()
    md.mechdiagram = extension  # type: ignore[attr-defined]
    return extension


def fence_validator(language: str, inputs: dict[str, str], options: dict[str, str], attrs: dict[str, str],
                    md: Markdown) -> bool:
    """``pymdownx.superfences``' validator of a ``mechanism`` fence: takes ``scenario=ID`` into ``options``;
    any other option refuses the fence (superfences then leaves it a code block)."""
    for name, value in inputs.items():
        if name != "scenario":
            return False
        options[name] = value
    return True


def fence_format(source: str, language: str, class_name: str, options: dict[str, str], md: Markdown,
                 **kwargs: Any) -> str:
    """``pymdownx.superfences``' formatter of a ``mechanism`` fence: the figure of the spec ``source`` names
    (:meth:`MechanismExtension.render`, with the settings of the extension when ``md`` loads it too)."""
    scenario = options.get("scenario")
    return _extension(md).render(source, f"scenario={scenario}" if scenario else "")


def makeExtension(**kwargs: Any) -> MechanismExtension:  # noqa: N802 (Python-Markdown's name)
    """The extension, as Python-Markdown loads it by its module's name."""
    return MechanismExtension(**kwargs)


__all__ = ["FENCE", "LOGGER", "MechanismExtension", "fence_format", "fence_validator", "makeExtension"]
