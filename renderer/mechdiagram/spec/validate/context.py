"""What every rule of one validation run shares: the spec, the suggester and the findings so far."""

from __future__ import annotations

from msgspec import Struct, field

from mechdiagram.shared.findings import MAX_PER_RULE, Finding, Where, more_finding, pointer_join
from mechdiagram.spec.load import LoadedSpec
from mechdiagram.spec.validate.wording import Suggester

__all__ = ["RuleContext", "Where"]


class RuleContext(Struct):
    """Collects the findings of one run; :meth:`add` locates each by its JSON Pointer."""

    spec: LoadedSpec
    suggest: Suggester = field(default_factory=Suggester)
    findings: list[Finding] = field(default_factory=list)

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, where: Where, message: str, rule: str, *, key: bool = False) -> None:
        """Record an error at ``where``; ``key=True`` points at the member's name rather than its value.  Past
        :data:`~mechdiagram.shared.findings.MAX_PER_RULE` of one rule, an error is only counted
        (:meth:`omitted` says how many), so that 700,000 wrong strings cost no 700,000 located findings."""
        count = self.counts[rule] = self.counts.get(rule, 0) + 1
        if count > MAX_PER_RULE:
            return
        pointer = pointer_join(*where)
        line, column = self.spec.locate(pointer, key=key)
        self.findings.append(Finding(self.spec.display, pointer, message, rule, line=line, column=column))

    def omitted(self) -> list[Finding]:
        """One finding (rule ``more``) for each rule that had more errors than were recorded."""
        return [more_finding(self.spec.display, rule, count - MAX_PER_RULE)
                for rule, count in self.counts.items() if count > MAX_PER_RULE]
