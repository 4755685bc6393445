"""``mechdiagram serve``: a live preview on the loopback address that rebuilds after every save.

The stages: :mod:`~renderer.serve.snapshot` builds the specs into memory (through
:mod:`renderer.build`), :mod:`~renderer.serve.state` holds the current build for the request
threads, :mod:`~renderer.serve.pages` maps request paths to answers (the allow-list),
:mod:`~renderer.serve.handler` checks the Host header and streams reload events, and
:mod:`~renderer.serve.server` ties them to watchfiles and the HTTP server.
"""

from .server import LOOPBACK, BuildEvent, PreviewServer
from .snapshot import Snapshot, SpecPreview

__all__ = ["LOOPBACK", "BuildEvent", "PreviewServer", "Snapshot", "SpecPreview"]
