"""What every rule of one validation run shares: the spec, the suggester and the findings so far."""

from __future__ import annotations

from msgspec import Struct, field

from mechdiagram.shared.findings import Finding, Where, pointer_join
from mechdiagram.spec.load import LoadedSpec
from mechdiagram.spec.validate.wording import Suggester

__all__ = ["RuleContext", "Where"]


class RuleContext(Struct):
    """Collects the findings of one run; :meth:`add` locates each by its JSON Pointer."""

    spec: LoadedSpec
    suggest: Suggester = field(default_factory=Suggester)
    findings: list[Finding] = field(default_factory=list)

    def add(self, where: Where, message: str, rule: str, *, key: bool = False) -> None:
        """Record an error at ``where``; ``key=True`` points at the member's name rather than its value."""
        pointer = pointer_join(*where)
        line, column = self.spec.locate(pointer, key=key)
        self.findings.append(Finding(self.spec.display, pointer, message, rule, line=line, column=column))
