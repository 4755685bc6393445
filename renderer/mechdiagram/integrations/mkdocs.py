"""The MkDocs plugin (``plugins: [mechdiagram]``, the ``mkdocs.plugins`` entry point ``mechdiagram``).

It loads the Markdown extension (:mod:`mechdiagram.integrations.markdown`) with the site's settings: spec paths
relative to the folder of ``mkdocs.yml``, the cache in ``cache_dir`` there, the figures' and the player's files
written into ``assets`` of the site's output folder.  It puts the player (module and style sheet) into the
``<head>`` of every page, so that a page reached by Material's instant navigation from a page without figures
finds it loaded.  The player URL is the path of ``site_url`` plus ``assets`` (one URL on every page, which
instant navigation needs), else relative to each page.  Under ``mkdocs serve`` each figure's spec and sources are
watched, so that a change rebuilds the site and with it the figure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from mechdiagram.integrations.figures import CACHE_DIR
from mechdiagram.integrations.markdown import MechanismExtension
from mechdiagram.shared.errors import MechdiagramError


class MechdiagramConfig(base.Config):  # type: ignore[no-untyped-call]  # MkDocs' __init_subclass__
    """The plugin's settings in ``mkdocs.yml``: ``cache_dir`` (relative to the folder of ``mkdocs.yml``),
    ``assets`` (the folder of the site the figures' and the player's files go to), ``dark_selectors`` and
    ``light_selectors`` (a colour-mode switch of the theme besides those mechdiagram knows)."""

    cache_dir = c.Type(str, default=CACHE_DIR.as_posix())
    assets = c.Type(str, default="assets/mechdiagram")
    dark_selectors = c.ListOfItems(c.Type(str), default=[])
    light_selectors = c.ListOfItems(c.Type(str), default=[])


class MechdiagramPlugin(BasePlugin[MechdiagramConfig]):  # type: ignore[no-untyped-call]
    """Figures of ``mechanism`` fences in every page, the player on every page, and ``mkdocs serve`` watching
    each figure's spec and sources.  Kept across the rebuilds of ``mkdocs serve`` (it has ``on_startup``)."""

    def __init__(self) -> None:
        self.extension: MechanismExtension | None = None
        self.server: LiveReloadServer | None = None
        self.absolute = False
        self._player_url = ""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Nothing to do but exist: a plugin with this hook is kept across ``mkdocs serve``'s rebuilds."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """Add the Markdown extension, with the site's folders and player URL, to ``markdown_extensions``."""
        project = Path(config.config_file_path or ".").resolve().parent
        assets = self.config.assets.strip("/") + "/"
        site_path = urlsplit(config.site_url).path if config.site_url else ""
        self.absolute = bool(config.site_url)
        url = (site_path if site_path.endswith("/") else site_path + "/") + assets if self.absolute else assets
        settings = {"base_dir": str(project), "cache_dir": str(project / self.config.cache_dir),
                    "output_dir": str(Path(config.site_dir) / assets), "player_url": url,
                    "dark_selectors": list(self.config.dark_selectors),
                    "light_selectors": list(self.config.light_selectors)}
        if self.extension is None:
            self.extension = MechanismExtension(**settings)
        else:
            self.extension.setConfigs(settings)
        try:
            self.extension.builder()
        except MechdiagramError as exc:
            raise PluginError(f"mechdiagram: {exc.message}") from exc
        self.extension.figures.clear()
        config.markdown_extensions.append(self.extension)  # type: ignore[arg-type]  # Markdown takes an instance
        self._player_url = url
        return config

    def on_page_markdown(self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Name the page in warnings, and give the figures a player URL relative to it when the site has no
        ``site_url``."""
        assert self.extension is not None
        self.extension.setConfig("page", page.file.src_uri)
        self.extension.setConfig("player_url", self._page_player_url(page))
        return markdown

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        """The page with the player's two tags just before ``</head>``."""
        assert self.extension is not None
        tags = self.extension.builder().player_tags(self._page_player_url(page))
        head = output.find("</head>")
        return output if head < 0 else output[:head] + tags + output[head:]

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Write the player's files (every page loads them), and under ``mkdocs serve`` watch the specs and
        sources of the figures built."""
        assert self.extension is not None
        self.extension.setConfig("player_url", self._player_url)
        builder = self.extension.builder()
        try:
            builder.write(builder.player())
        except MechdiagramError as exc:
            raise PluginError(f"mechdiagram: {exc.message}") from exc
        self._watch()

    def on_serve(self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any) -> LiveReloadServer:
        """Watch the files of the figures of the first build (and, from here on, of each rebuild)."""
        self.server = server
        self._watch()
        return server

    def _watch(self) -> None:
        if self.server is None or self.extension is None:
            return
        for path in sorted({p for figure in self.extension.figures for p in figure.dependencies}):
            if path.exists():
                self.server.watch(str(path))

    def _page_player_url(self, page: Page) -> str:
        if self.absolute:
            return self._player_url
        return get_relative_url(self._player_url, page.url or "index.html").rstrip("/") + "/"


__all__ = ["MechdiagramConfig", "MechdiagramPlugin"]
