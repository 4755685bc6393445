"""Stage 7, integrations: mechdiagram inside an author's docs site, at the site's build time.

:mod:`.figures` builds one figure of a page through the one-spec API (:mod:`mechdiagram.api`) and caches it by
digest; :mod:`.markdown` is the Python-Markdown extension (MkDocs, Zensical, a ``pymdownx.superfences`` custom
fence), :mod:`.mkdocs` the MkDocs plugin, :mod:`.sphinx` the Sphinx extension (also importable as
``mechdiagram.sphinx``), and :mod:`.embed` the ``<picture>`` a README needs (``mechdiagram embed``).  The modules
that import MkDocs, Sphinx or docutils are imported only by those tools (the ``mkdocs`` and ``sphinx`` extras).
"""
