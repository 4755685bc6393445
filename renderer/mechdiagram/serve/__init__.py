"""``mechdiagram serve``: a live preview on the loopback address that rebuilds after every save.

The stages: :mod:`~mechdiagram.serve.snapshot` builds the specs into memory (through
:mod:`mechdiagram.site.build`), :mod:`~mechdiagram.serve.state` holds the current build for the request
threads, :mod:`~mechdiagram.serve.pages` maps request paths to answers (the allow-list),
:mod:`~mechdiagram.serve.handler` checks the Host header and streams reload events, and
:mod:`~mechdiagram.serve.server` ties them to watchfiles and the HTTP server.
"""

from mechdiagram.serve.server import LOOPBACK, BuildEvent, PreviewServer
from mechdiagram.serve.snapshot import Snapshot, SpecPreview

__all__ = ["LOOPBACK", "BuildEvent", "PreviewServer", "Snapshot", "SpecPreview"]
