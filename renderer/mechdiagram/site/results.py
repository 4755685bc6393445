"""What a run produced, spec by spec: the objects :func:`mechdiagram.site.build.execute` returns."""

from __future__ import annotations

from msgspec import Struct, field

from mechdiagram.render.figure import FigureRecord
from mechdiagram.shared.files import sha256_hex
from mechdiagram.shared.findings import Finding
from mechdiagram.spec.load import LoadedSpec
from mechdiagram.spec.provenance import SourceCheck


class SpecResult(Struct):
    """What one spec produced: findings, source checks and, if it passed, its output files.

    ``slug`` is its output name; ``key`` its path relative to the output
    folder (its manifest key); ``outputs`` maps a file name inside the output
    folder to its bytes; ``build_key`` its build key (:mod:`mechdiagram.site.buildkey`), ``None`` when it has
    none; ``skipped`` is True when ``build`` found the key unchanged and left its output as it was.
    """

    loaded: LoadedSpec
    slug: str
    key: str
    findings: list[Finding] = field(default_factory=list)
    checks: list[SourceCheck] = field(default_factory=list)
    outputs: dict[str, bytes] = field(default_factory=dict)
    build_key: str | None = None
    skipped: bool = False
    figure: FigureRecord | None = None  # the gallery's record of the spec
    digests: dict[str, str] = field(default_factory=dict)  # of outputs, by name: see digest()
    #: Outputs a worker process staged for ``build``, by name: the temporary file that holds the bytes (then
    #: ``outputs`` keeps the name with empty bytes, and ``digests`` the real digest), or ``None`` when the
    #: file holds them already (:func:`mechdiagram.shared.files.stage_file`).
    staged: dict[str, str | None] = field(default_factory=dict)

    def digest(self, name: str) -> str:
        """The hex SHA-256 of output ``name``, computed once (a worker process computes them all before
        sending the result back: see :func:`mechdiagram.site.build.process`)."""
        found = self.digests.get(name)
        if found is None:
            found = self.digests[name] = sha256_hex(self.outputs[name])
        return found

    @property
    def failed(self) -> bool:
        """True when any finding is an error."""
        return any(f.is_error for f in self.findings)

    def refuse(self, finding: Finding) -> None:
        """Fail the spec with ``finding``, dropping its outputs (nothing of it is written); a failed spec is
        not also counted as skipped."""
        self.findings.append(finding)
        self.outputs = {}
        self.skipped = False


class Report(Struct):
    """The outcome of a run: per-spec results plus findings about the output folder and the files
    written, left unchanged and deleted (names inside the output folder)."""

    results: list[SpecResult]
    output_findings: list[Finding] = field(default_factory=list)  # the output folder's, index.html's too
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        """Every finding, spec by spec, then those about the output folder."""
        return [f for r in self.results for f in r.findings] + self.output_findings

    @property
    def skipped_specs(self) -> int:
        """How many specs ``build`` skipped because nothing that decides their output changed."""
        return sum(r.skipped and not r.failed for r in self.results)

    @property
    def failed_specs(self) -> int:
        """How many specs failed."""
        return sum(r.failed for r in self.results)

    @property
    def exit_code(self) -> int:
        """0 when nothing failed, else 1."""
        return 1 if self.failed_specs or any(f.is_error for f in self.output_findings) else 0
