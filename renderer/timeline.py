"""The animation timeline of one scenario, shared by the SVG keyframes and the player.

A :class:`Timeline` is a list of :class:`Window` s, one per step, laid end to
end.  The SVG writes each window as a ``@keyframes`` rule and the HTML player
reads the same windows (as JSON), so the two cannot drift apart.  Durations and
offsets are integer milliseconds; keyframe offsets are percentages written at
:data:`PERCENT_DECIMALS` decimals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import TimelineError
from .model import Scenario

#: Shortest step, in ms: at most three changes a second (WCAG 2.2 SC 2.3.1).
MIN_STEP_MS = 334
PERCENT_DECIMALS = 4


@dataclass(frozen=True)
class Window:
    """Step ``index`` (0-based) shows from ``start`` ms for ``duration`` ms."""

    index: int
    start: int
    duration: int

    @property
    def end(self) -> int:
        """First millisecond after the window."""
        return self.start + self.duration


def fmt_percent(value: float, decimals: int = PERCENT_DECIMALS) -> str:
    """A percentage at fixed precision without trailing zeros: ``14.2857%``."""
    text = f"{value:.{decimals}f}".rstrip("0").rstrip(".")
    return f"{text}%"


@dataclass(frozen=True)
class Timeline:
    """Windows laid end to end from 0 ms; ``total`` is the loop length in ms.

    Raises :class:`TimelineError` when windows do not tile ``[0, total)``
    exactly or a window is shorter than :data:`MIN_STEP_MS`.
    """

    windows: tuple[Window, ...]

    def __post_init__(self) -> None:
        if not self.windows:
            raise TimelineError("a timeline needs at least one step")
        expected = 0
        for i, window in enumerate(self.windows):
            if window.index != i or window.start != expected:
                raise TimelineError(f"step {i + 1} starts at {window.start} ms, expected {expected} ms")
            if window.duration < MIN_STEP_MS:
                raise TimelineError(f"step {i + 1} lasts {window.duration} ms; the shortest is {MIN_STEP_MS} ms "
                                    "(WCAG 2.2 SC 2.3.1)")
            expected = window.end

    @classmethod
    def from_durations(cls, durations: list[int]) -> Timeline:
        """Lay durations (ms) end to end."""
        windows, start = [], 0
        for i, duration in enumerate(durations):
            windows.append(Window(i, start, duration))
            start += duration
        return cls(tuple(windows))

    @classmethod
    def for_scenario(cls, scenario: Scenario) -> Timeline:
        """The timeline of a scenario's steps."""
        return cls.from_durations([step.duration for step in scenario.steps])

    @property
    def total(self) -> int:
        """Loop length in ms: the sum of the step durations."""
        return self.windows[-1].end

    def keyframe_stops(self, window: Window) -> list[tuple[str, bool]]:
        """Keyframe offsets for one window: ``[(percent, visible), ...]``.

        Used with ``step-end`` timing, each stop holds until the next one, so
        the window's layer is visible exactly during ``[start, end)``.
        """
        stops: list[tuple[str, bool]] = []
        decimals = self.percent_decimals
        if window.start > 0:
            stops.append(("0%", False))
        stops.append((fmt_percent(100 * window.start / self.total, decimals), True))
        if window.end < self.total:
            stops.append((fmt_percent(100 * window.end / self.total, decimals), False))
        else:
            stops.append(("100%", True))
        return stops

    @property
    def percent_decimals(self) -> int:
        """Decimals that place every keyframe within 0.1 ms of its step boundary: at least
        :data:`PERCENT_DECIMALS`, more for loops longer than 100 s."""
        return max(PERCENT_DECIMALS, math.ceil(math.log10(max(self.total, 1) / 100)) + 1)

    def as_json(self) -> list[dict[str, int]]:
        """``[{"start": ms, "duration": ms}, ...]`` for the player."""
        return [{"start": w.start, "duration": w.duration} for w in self.windows]
