"""The state panel under the diagram: a heading per frame and one row per ``stateLabels`` key."""

from __future__ import annotations

from msgspec.structs import replace

from mechdiagram.layout.geometry import Panel, PanelFrame, PanelRow
from mechdiagram.layout.measure import even_wrap, text_width, wrap
from mechdiagram.layout.sizes import (
    LINE_HEIGHT,
    PAD_X,
    PAD_Y,
    PANEL_COLUMN_GAP,
    PANEL_TEXT_INSET,
    STACKED_PANEL_WIDTH,
    STACKED_ROW_GAP,
    TITLE_LINE_HEIGHT,
    TITLE_SIZE,
)
from mechdiagram.shared.locale import Words, balance_isolates, words_for
from mechdiagram.shared.model import Scenario, Spec


def step_heading(scenario: Scenario, index: int, words: Words) -> str:
    """The state panel's heading for step ``index`` (0-based), the message ``stepOf`` (``Step 3 of 7: title``)
    with the title isolated (:meth:`~mechdiagram.shared.locale.Words.say`)."""
    return words.say("stepOf", n=str(index + 1), total=str(len(scenario.steps)), title=scenario.steps[index].title)


def _title_lines(text: str, width: float) -> tuple[str, ...]:
    return tuple(balance_isolates(wrap(text, width, TITLE_SIZE)))


def panel(spec: Spec, scenario: Scenario, x: float, top: float, width: float) -> Panel:
    """The panel at (``x``, ``top``), ``width`` wide; rows sit at the same height in every frame,
    spaced for the frame that needs most lines."""
    # The labels take up to 35 % of the width, and more where the longest value leaves room: a label wraps
    # only when the values need the width.
    values = [scenario.initial.get(k, "") or "–" for k in spec.state_labels]
    values += [step.state.get(k, "") or "–" for step in scenario.steps for k in spec.state_labels]
    spare = width - 2 * PAD_X - PANEL_COLUMN_GAP - max((text_width(v) for v in values), default=0)
    label_w = min(max((text_width(label) for label in spec.state_labels.values()), default=0),
                  max(width * 0.35, spare))
    # A panel too narrow for two columns (the narrow layout's) puts each value under its label, both at full width.
    stacked = width < STACKED_PANEL_WIDTH
    if stacked:
        label_w = width - 2 * PANEL_TEXT_INSET
    value_x = x + PANEL_TEXT_INSET if stacked else x + PAD_X + label_w + PANEL_COLUMN_GAP
    value_w = width - (value_x - x) - PAD_X
    title_w = width - 2 * PAD_X
    keys = list(spec.state_labels)
    words = words_for(spec.language, spec.messages)
    frames = [PanelFrame(_title_lines(words.say("posterTitle", scenario=scenario.title), title_w),
                         tuple(even_wrap(scenario.initial.get(k, "") or "–", value_w) for k in keys))]
    for i, step in enumerate(scenario.steps):
        frames.append(PanelFrame(_title_lines(step_heading(scenario, i, words), title_w),
                                 tuple(even_wrap(step.state.get(k, "") or "–", value_w) for k in keys)))
    title_lines = max(len(f.title) for f in frames)
    title_y = top + PAD_Y + TITLE_SIZE
    frames = [replace(f, title_y=round(title_y, 1)) for f in frames]  # at the top: spare room goes under a short one
    y = title_y + (title_lines - 1) * TITLE_LINE_HEIGHT + LINE_HEIGHT + 4
    rows = []
    for r, key in enumerate(keys):
        label = tuple(wrap(spec.state_labels[key], label_w))
        values_h = max(len(f.values[r]) for f in frames) * LINE_HEIGHT
        if stacked:
            rows.append(PanelRow(key, label, y, round(y + len(label) * LINE_HEIGHT, 1)))
            y += len(label) * LINE_HEIGHT + values_h + STACKED_ROW_GAP
        else:
            rows.append(PanelRow(key, label, y))
            y += max(len(label) * LINE_HEIGHT, values_h) + 4
    height = y - LINE_HEIGHT + 5 - (STACKED_ROW_GAP if stacked else 4) + PAD_Y - top  # last baseline, descent, padding
    return Panel(x, top, width, height, title_y, value_x, tuple(rows), frames[0], tuple(frames[1:]),
                 rtl=words.direction == "rtl")
