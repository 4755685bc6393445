"""A step's ``labels`` (values that change): the layout is one for every step, its boxes and label blocks sized
for the widest and tallest text each target ever shows; a sequence's rows take the text their step has."""

from __future__ import annotations

import copy

from msgspec.structs import replace

from mechdiagram.layout import diagram, layout_scenario
from mechdiagram.layout.labels import label_size
from mechdiagram.layout.placement import box_lines, natural_width, path_label_lines
from mechdiagram.layout.sizes import LINE_HEIGHT, PAD_Y
from mechdiagram.layout.transposed import PAD_Y as TRANSPOSED_PAD_Y
from mechdiagram.shared.model import spec_from_data
from support.specs import minimal_spec

LONG = "first, now holding four pages of the request's cache"


def relabelled() -> dict:
    """The minimal spec whose steps change box a0's label (longer, then back) and path ab's."""
    data = minimal_spec()
    steps = data["scenarios"][0]["steps"]
    steps[0]["labels"] = {"a0": LONG, "ab": "flow of two longer words"}
    steps[1]["labels"] = {"a0": "first"}
    return data


def test_the_model_carries_each_steps_labels_forward_and_names_what_it_changes():
    spec = spec_from_data(relabelled())
    one, two = spec.scenarios[0].steps
    assert one.labels == {"a0": LONG, "ab": "flow of two longer words"} and one.relabelled == ("a0", "ab")
    assert two.labels == {"a0": "first", "ab": "flow of two longer words"} and two.relabelled == ("a0",)
    assert spec.texts("a0") == ("first", LONG) and spec.texts("ab") == ("flow", "flow of two longer words")
    assert spec.texts("b0") == ("third",) and spec.relabelled == {"a0", "ab"}
    assert two.label_of(spec.targets["ab"]) == "flow of two longer words"
    assert two.label_of(spec.targets["b1"]) == "fourth"


def test_a_box_is_sized_for_the_widest_and_tallest_of_its_texts_and_keeps_every_texts_lines():
    spec = spec_from_data(relabelled())
    for narrow in (False, True):
        drawn = diagram(spec, narrow=narrow)
        box = drawn.boxes["a0"]
        texts = dict(box.texts)
        assert set(texts) == {"first", LONG} and box.lines == texts["first"] == ("first",)
        long_lines = texts[LONG]
        assert len(long_lines) >= 2 and " ".join(long_lines) == LONG
        pad = TRANSPOSED_PAD_Y if narrow else PAD_Y  # the lane grid's narrow variant is transposed
        assert box.h >= len(long_lines) * LINE_HEIGHT + 2 * pad
        assert box.w >= natural_width(long_lines) - 0.1
        assert box.lines_of(LONG) == long_lines and box.lines_of(None) == ("first",)
        # the other boxes carry no texts: only a changed label does
        assert all(b.texts == () for key, b in drawn.boxes.items() if key != "a0")


def test_the_box_is_as_large_as_if_its_own_label_were_its_longest_text():
    spec = spec_from_data(relabelled())
    widest = spec_from_data(minimal_spec())
    widest = replace(widest, targets={**widest.targets, "a0": replace(widest.targets["a0"], label=LONG)})
    ours, theirs = diagram(spec).boxes["a0"], diagram(widest).boxes["a0"]
    assert (ours.w, ours.h) == (theirs.w, theirs.h)
    assert dict(ours.texts)[LONG] == theirs.lines == box_lines(LONG)


def test_a_path_labels_block_holds_its_largest_text():
    spec = spec_from_data(relabelled())
    for narrow in (False, True):
        arrow = diagram(spec, narrow=narrow).arrows["ab"]
        assert arrow.label_box is not None and arrow.label_lines
        for text in ("flow", "flow of two longer words"):
            lines = path_label_lines(text, narrow)
            assert arrow.lines_of(text) == lines
            w, h = label_size(lines)
            assert arrow.label_box.w >= w - 0.1 and arrow.label_box.h >= h - 0.1
            x, y = arrow.anchor_of(len(lines))
            assert x == arrow.label_at[0] and arrow.label_box.y < y < arrow.label_box.bottom


def test_the_layout_is_one_for_every_step_and_a_spec_without_labels_lays_out_as_before():
    spec = spec_from_data(relabelled())
    layout = layout_scenario(spec, spec.scenarios[0])
    assert layout.boxes == diagram(spec).boxes  # shared by every step: nothing in it depends on the step
    plain = spec_from_data(minimal_spec())
    before = diagram(plain)
    assert all(box.texts == () for box in before.boxes.values())
    assert all(arrow.texts == () for arrow in before.arrows.values())


def sequence_spec() -> dict:
    data = copy.deepcopy(minimal_spec())
    data["layout"] = {"view": "sequence"}
    data["targets"] = {
        "client": {"id": "client", "kind": "node", "label": "Client"},
        "server": {"id": "server", "kind": "node", "label": "Server"},
        "req": {"id": "req", "kind": "path", "from": "client", "to": "server", "label": "GET /page"},
    }
    data["scenarios"][0]["unselected"] = []
    data["scenarios"][0]["steps"] = [
        {"title": "Ask", "duration": 1000, "paths": ["req"]},
        {"title": "Ask again", "duration": 1000, "paths": ["req"], "labels": {"req": "GET /page?retry=1"}},
        {"title": "Once more", "duration": 1000, "paths": ["req"]},
    ]
    return data


def test_a_sequences_rows_take_the_label_their_step_has_from_the_changing_step_on():
    spec = spec_from_data(sequence_spec())
    rows = layout_scenario(spec, spec.scenarios[0]).rows
    texts = [" ".join(row.messages[0].arrow.label_lines) for row in rows]
    assert texts == ["GET /page", "GET /page?retry=1", "GET /page?retry=1"]


def test_a_code_labels_changed_texts_break_only_between_tokens():
    from mechdiagram.layout.measure import CODE_BREAKS, CONTINUATION

    data = minimal_spec()
    data["targets"]["a0"].update({"label": "/authorize", "text": "code"})
    data["targets"]["ab"].update({"label": "code_verifier", "text": "code"})
    long = "/callback?code=Sstw_cMq_long_value&state=xyz_state_value"
    data["scenarios"][0]["steps"][0]["labels"] = {"a0": long, "ab": "code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URW"}
    spec = spec_from_data(data)
    for narrow in (False, True):
        drawn = diagram(spec, narrow=narrow)
        for lines in (dict(drawn.boxes["a0"].texts)[long], *(lines for _, lines in drawn.arrows["ab"].texts)):
            # after a separator, or (a token wider than the narrow layout's label, as any code label's) with the mark
            assert all(line[-1] in CODE_BREAKS or (narrow and line[-1] == CONTINUATION) for line in lines[:-1]), lines
            assert narrow or not any(CONTINUATION in line for line in lines), lines
        assert "".join(dict(drawn.boxes["a0"].texts)[long]) == long
