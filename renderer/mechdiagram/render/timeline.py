"""The animation timeline of one scenario, shared by the SVG keyframes and the player.

A :class:`Timeline` is a list of :class:`Window` s, one per step, laid end to
end.  The SVG writes each window as a ``@keyframes`` rule and the HTML player
reads the same windows (as JSON), so the two cannot drift apart.  Durations and
offsets are integer milliseconds; keyframe offsets are percentages written at
:data:`PERCENT_DECIMALS` decimals.
"""

from __future__ import annotations

import math

from msgspec import Struct

from mechdiagram.shared.errors import TimelineError
from mechdiagram.shared.model import Scenario

#: Shortest step, in ms: at most three changes a second (WCAG 2.2 SC 2.3.1).
MIN_STEP_MS = 334
PERCENT_DECIMALS = 4

#: Longest ease between two steps' highlights, in ms; never more than a third of the shortest step.
EASE_MS = 250

#: The loop holds its last step this many times the step's duration before it starts again, so that a reader
#: sees where the scenario ends before step 1 comes back (the step's own duration is its time in the transcript).
LAST_STEP_HOLD = 1.5

#: A keyframe ``(percent, value, timing)``: ``timing`` is the CSS timing function from this keyframe to the next
#: when it differs from the animation's own, else ``""``.
Stop = tuple[str, float, str]


class Window(Struct, frozen=True):
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


class Timeline(Struct, frozen=True):
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
        """Lay durations (ms) end to end, the last one held :data:`LAST_STEP_HOLD` times as long (rounded to the ms)."""
        windows, start = [], 0
        for i, duration in enumerate(durations):
            if i == len(durations) - 1:
                duration = round(duration * LAST_STEP_HOLD)
            windows.append(Window(i, start, duration))
            start += duration
        return cls(tuple(windows))

    @classmethod
    def for_scenario(cls, scenario: Scenario) -> Timeline:
        """The timeline of a scenario's steps."""
        return cls.from_durations([step.duration for step in scenario.steps])

    @property
    def total(self) -> int:
        """Loop length in ms: the sum of the windows (the step durations, the last one held)."""
        return self.windows[-1].end

    @property
    def percent_decimals(self) -> int:
        """Decimals that place every keyframe within 0.1 ms of its step boundary: at least
        :data:`PERCENT_DECIMALS`, more for loops longer than 100 s."""
        return max(PERCENT_DECIMALS, math.ceil(math.log10(max(self.total, 1) / 100)) + 1)

    @property
    def ease_ms(self) -> int:
        """How long a highlight takes to ease in or out, in ms: :data:`EASE_MS`, or a third of the
        shortest step when that is shorter (so eases never meet, and nothing changes more than three
        times a second, WCAG 2.2 SC 2.3.1)."""
        return min(EASE_MS, min(w.duration for w in self.windows) // 3)

    def _at(self, ms: float) -> str:
        return fmt_percent(100 * ms / self.total, self.percent_decimals)

    def highlight_stops(self, on: list[bool]) -> list[Stop]:
        """Keyframes ``[(percent, value, timing), ...]`` of a highlight that is shown (1) in the steps where
        ``on`` (one flag per window) is true and hidden (0) elsewhere, for an animation timed ``ease-in-out``.

        Where a step boundary changes it, the highlight eases across the boundary: from
        ``ease_ms / 2`` before to ``ease_ms / 2`` after, so it is half-way exactly at the boundary,
        to the millisecond, where the text of the step switches (:meth:`step_stops`).  The boundary where the
        loop wraps is no exception: the ease's first half ends the loop (``ease-in``) at 0.5 and its second half
        (``ease-out``) starts it, which join as one ``ease-in-out``.  Raises :class:`TimelineError` for a wrong
        count of flags.
        """
        if len(on) != len(self.windows):
            raise TimelineError(f"{len(on)} highlight flags for {len(self.windows)} steps")
        half = self.ease_ms / 2
        wraps = on[-1] != on[0]
        stops: list[Stop] = [("0%", 0.5, "ease-out"), (self._at(half), int(on[0]), "")] if wraps else \
            [("0%", int(on[0]), "")]
        for window in self.windows[1:]:
            before, after = on[window.index - 1], on[window.index]
            if before != after:
                stops += [(self._at(window.start - half), int(before), ""),
                          (self._at(window.start + half), int(after), "")]
        if wraps:
            stops += [(self._at(self.total - half), int(on[-1]), "ease-in"), ("100%", 0.5, "")]
        else:
            stops.append(("100%", int(on[-1]), ""))
        return stops

    def step_stops(self, on: list[bool]) -> list[Stop]:
        """Keyframes ``[(percent, value, ""), ...]`` of text shown (1) in the steps where ``on`` (one flag per
        window) is true and hidden (0) elsewhere, for an animation timed ``step-end``: it switches exactly at the
        step boundaries (to within 0.1 ms of rounding), never fading, so that a step's text and the next one's
        never show together and never leave a gap.  Raises :class:`TimelineError` for a wrong count of flags."""
        if len(on) != len(self.windows):
            raise TimelineError(f"{len(on)} text flags for {len(self.windows)} steps")
        stops: list[Stop] = [("0%", int(on[0]), "")]
        for window in self.windows[1:]:
            if on[window.index] != on[window.index - 1]:
                stops.append((self._at(window.start), int(on[window.index]), ""))
        stops.append(("100%", int(on[-1]), ""))
        return stops

    def as_json(self) -> list[dict[str, int]]:
        """``[{"start": ms, "duration": ms}, ...]`` for the player."""
        return [{"start": w.start, "duration": w.duration} for w in self.windows]
