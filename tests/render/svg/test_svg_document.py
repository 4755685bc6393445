"""The SVG: well-formed XML, accessible naming, prefixed ids and classes, one frame per step (the
poster is frame 0), dimmed targets, the state panel, real text, deterministic output."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from mechdiagram.render.svg import prefix_for
from support.cli import run_cli
from support.outputs import render as outputs
from support.reference_spec import STEPS, reference_spec
from support.specs import minimal_spec
from support.svg import SVG_NS, local, stylesheet, text_of, value_changed, value_y, with_class, words

PREFIX = prefix_for("ref", "one-request")
TINY = prefix_for("tiny", "main")


# --- XML and accessibility -------------------------------------------------------------------------

def test_svg_files_are_xml_with_a_declaration(reference_outputs):
    for name in ("ref.one-request.svg", "ref.one-request.poster.svg"):
        data = reference_outputs[name]
        assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<svg')
        root = ET.fromstring(data)
        assert root.tag == f"{SVG_NS}svg"
        data.decode("utf-8")


def test_root_is_an_image_named_and_described_by_title_and_desc(animated, poster):
    spec = reference_spec()
    for root in (animated, poster):
        assert root.get("role") == "img"
        assert root.get("lang") == "en"
        ids = {e.get("id"): e for e in root.iter() if e.get("id")}
        title = ids[root.get("aria-labelledby")]
        desc = ids[root.get("aria-describedby")]
        assert local(title.tag) == "title" and title.text == spec["title"]
        assert local(desc.tag) == "desc" and desc.text == spec["alt"]
        # the <title> is the first child, as the SVG accessibility mapping expects
        assert list(root)[0] is title
        assert root.get("viewBox")


def test_lang_comes_from_the_spec():
    data = minimal_spec()
    data["language"] = "pt-BR"
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    assert root.get("lang") == "pt-BR"


def test_no_script_no_smil_no_foreign_content(reference_outputs):
    for name in ("ref.one-request.svg", "ref.one-request.poster.svg"):
        root = ET.fromstring(reference_outputs[name])
        tags = {local(e.tag) for e in root.iter()}
        assert not tags & {"script", "animate", "set", "animateTransform", "animateMotion", "foreignObject",
                           "image", "use", "a"}
        for element in root.iter():
            for attribute in element.attrib:
                assert not local(attribute).lower().startswith("on"), (element.tag, attribute)
                assert "href" not in attribute
        assert b"<script" not in reference_outputs[name]


def test_author_text_is_escaped():
    data = minimal_spec()
    data["title"] = 'A <b>bold</b> & "quoted" title'
    data["targets"]["a0"]["label"] = "<script>alert(1)</script>"
    svg = outputs(data, "tiny")["tiny.main.svg"]
    root = ET.fromstring(svg)
    assert b"<script>" not in svg and b"<b>" not in svg
    assert root.find(f"{SVG_NS}title").text == 'A <b>bold</b> & "quoted" title'
    labels = [text_of(e) for e in with_class(root, f"{TINY}-label")]
    assert labels.count("<script>alert(1)</script>") == 1


# --- prefixes --------------------------------------------------------------------------------------

def test_every_id_class_and_keyframes_name_has_the_prefix(reference_outputs):
    assert prefix_for("ref", "one-request") == PREFIX
    for name in ("ref.one-request.svg", "ref.one-request.poster.svg"):
        root = ET.fromstring(reference_outputs[name])
        ids = [e.get("id") for e in root.iter() if e.get("id")]
        classes = [c for e in root.iter() for c in (e.get("class") or "").split()]
        assert len(ids) > 18 and len(classes) > 50
        assert len(ids) == len(set(ids))
        for token in ids + classes:
            assert token == PREFIX or token.startswith(PREFIX + "-"), token
        if name.endswith(".poster.svg"):
            assert root.find(f"{SVG_NS}defs") is None  # a still has no style sheet
            continue
        sheet = stylesheet(root)
        assert sheet.errors == []
        selectors = [c for rule in sheet.rules for c in rule.classes]  # also inside @media and @supports
        assert selectors
        for selector in selectors:
            assert selector == PREFIX or selector.startswith(PREFIX + "-"), selector
        for keyframes_name in sheet.keyframes:
            assert keyframes_name.startswith(PREFIX + "-")


def test_prefixes_keep_two_scenarios_apart():
    data = minimal_spec()
    second = dict(data["scenarios"][0], id="other", title="Other")
    data["scenarios"].append(second)
    files = outputs(data, "tiny")
    first_ids = {e.get("id") for e in ET.fromstring(files["tiny.main.svg"]).iter() if e.get("id")}
    other_ids = {e.get("id") for e in ET.fromstring(files["tiny.other.svg"]).iter() if e.get("id")}
    assert first_ids and other_ids and not first_ids & other_ids
    assert all(i.startswith(prefix_for("tiny", "other") + "-") for i in other_ids)


def test_prefix_is_a_valid_identifier_for_any_slug():
    assert re.fullmatch(r"mech-[0-9a-f]{10}", prefix_for("my spec.v2", "s1"))
    assert re.fullmatch(r"mech-[0-9a-f]{10}", prefix_for("ünï cödé", "x"))
    assert prefix_for("a", "b") == prefix_for("a", "b")


def test_prefixes_cannot_collide_through_hyphens():
    """Readable joins would collide: spec q + scenario one-request vs spec q-one + scenario request,
    and scenario fast's classes (fast-path) vs scenario fast-path's root class."""
    assert prefix_for("q", "one-request") != prefix_for("q-one", "request")
    fast, fast_path = prefix_for("x", "fast"), prefix_for("x", "fast-path")
    assert not fast_path.startswith(fast + "-") and not fast.startswith(fast_path + "-")


# --- frames, dimming, the state panel ----------------------------------------------------------------

def test_every_step_has_a_frame_and_the_poster_is_frame_0(animated):
    frames = with_class(animated, f"{PREFIX}-frame")
    assert [f.get("data-mech-frame") for f in frames] == [str(n) for n in range(8)]
    assert f"{PREFIX}-poster" in frames[0].get("class").split()
    for number, frame in enumerate(frames):
        assert f"{PREFIX}-f{number}" in frame.get("class").split()


def test_step_frames_show_their_active_targets_and_state(animated):
    frames = with_class(animated, f"{PREFIX}-frame")
    for number, (title, _, active, stage, artifact) in enumerate(STEPS, start=1):
        frame = frames[number]
        assert [words(t) for t in with_class(frame, f"{PREFIX}-ptitle")] == [f"Step {number} of 7: \u2068{title}\u2069"]
        assert not with_class(frame, f"{PREFIX}-pval")  # the values are the panel's own, shown by step
        values = [v for v in with_class(animated, f"{PREFIX}-val") if f"{PREFIX}-t{number}" in v.get("class").split()]
        assert [words(t) for t in values] == [stage, artifact]
        assert all(v.get("visibility") == "hidden" for v in values)  # until the style sheet shows them
        on = [g for g in with_class(animated, f"{PREFIX}-on") if str(number) in g.get("data-mech-steps").split()]
        assert len(on) == len(active)
        lit = [t for t in with_class(animated, f"{PREFIX}-lit") if f"{PREFIX}-t{number}" in t.get("class").split()]
        assert len(lit) == len(active)  # one text per active box, which the style sheet makes bold


def test_a_row_the_step_does_not_change_keeps_its_one_text(animated):
    """Each row has one text per distinct value, shown across every step that holds it (and one more, with the
    changed mark, for the step that changes the row to it)."""
    values = with_class(animated, f"{PREFIX}-val")
    seen = [(value_y(v), words(v), value_changed(v)) for v in values]
    assert len(seen) == len(set(seen)) and None not in {y for y, _, _ in seen}
    for number in range(1, len(STEPS) + 1):
        rows = [value_y(v) for v in values if f"{PREFIX}-t{number}" in v.get("class").split()]
        assert len(rows) == len(set(rows)) == 2, number


def test_unselected_nodes_are_dimmed():
    data = minimal_spec()
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    groups = {e.get("id"): e.get("class").split() for e in with_class(root, f"{TINY}-n")}
    assert groups == {
        f"{TINY}-n-t-a0": [f"{TINY}-n"],
        f"{TINY}-n-t-a1": [f"{TINY}-n"],
        f"{TINY}-n-t-b0": [f"{TINY}-n", f"{TINY}-dim"],
        f"{TINY}-n-t-b1": [f"{TINY}-n"],
    }
    dim = root.find(f".//*[@id='{TINY}-n-t-b0']")
    assert dim.find(f"{SVG_NS}rect").get("stroke-dasharray") == "5 4"
    assert root.find(f".//*[@id='{TINY}-n-t-a0']").find(f"{SVG_NS}rect").get("stroke-dasharray") is None


def test_unselected_paths_are_dimmed():
    data = minimal_spec()
    data["scenarios"][0]["unselected"] = ["ab"]
    data["scenarios"][0]["steps"][0]["paths"] = []
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    paths = root.find(f".//{SVG_NS}g[@class='{TINY}-paths']")
    arrows = list(paths)
    assert len(arrows) == 1
    assert f"{TINY}-dim" in arrows[0].get("class").split()
    assert arrows[0].find(f"{SVG_NS}path").get("stroke-dasharray") == "5 4"
    # its label (and the label's halo) is italic: its colour is the muted one of every arrow label already
    styles = {e.get("class"): e.get("font-style") for e in root.iter(f"{SVG_NS}text")
              if f"{TINY}-plabel" in e.get("class", "") or f"{TINY}-halo" in e.get("class", "")}
    # (the label lies on its lane's band, so its halo is the band's colour: halo-band, before the variant)
    assert styles == {f"{TINY}-halo {TINY}-halo-band {TINY}-halo-dim": "italic",
                      f"{TINY}-plabel {TINY}-plabel-dim": "italic"}
    # a selected path is not dimmed, nor its label
    root = ET.fromstring(outputs(minimal_spec(), "tiny")["tiny.main.svg"])
    paths = root.find(f".//{SVG_NS}g[@class='{TINY}-paths']")
    assert f"{TINY}-dim" not in list(paths)[0].get("class").split()
    assert {e.get("font-style") for e in root.iter(f"{SVG_NS}text")} == {None}


def test_state_panel_shows_every_state_label(animated, poster):
    for root in (animated, poster):
        keys = [text_of(e) for e in with_class(root, f"{PREFIX}-pkey")]
        assert "Stage" in keys and "Artifact" in keys
    # and every value of every step
    values = " ".join(text_of(e) for e in with_class(animated, f"{PREFIX}-pval"))
    for _, _, _, stage, _ in STEPS:
        assert stage in values


def test_node_labels_are_real_text(animated):
    labels = [" ".join(t.strip() for t in e.itertext() if t.strip())
              for e in with_class(animated, f"{PREFIX}-label")]
    assert "Release request references" in labels
    assert "queue" in labels


def test_svg_output_is_deterministic():
    assert outputs(reference_spec()) == outputs(reference_spec())


def test_integer_valued_floats_are_integers(write_spec, spec_data, monkeypatch):
    """JSON Schema counts 1000.0 as an integer, so the renderer must too (it once crashed on row 1.0)."""
    spec_data["scenarios"][0]["steps"][0]["duration"] = 1000.0
    spec_data["layout"] = {"positions": {"b0": {"row": 2.0, "column": 0.0}}}
    path = write_spec(spec_data)
    monkeypatch.chdir(path.parent)
    result = run_cli("build", "--source-root", ".", "-o", "out", path.name)
    assert result.exit_code == 0, result.output
    svg = (path.parent / "out" / "tiny.main.svg").read_text("utf-8")
    assert "1000.0" not in svg and "3000.0ms" not in svg


def test_arrow_labels_sit_on_a_halo_drawn_before_them():
    """CairoSVG ignores ``paint-order`` (Kozea/CairoSVG#218) and painted a label's own halo stroke over its
    words, so each label is two texts: first the halo (the words as a 4-unit stroke in the background
    colour, no fill), then the words (filled, no stroke).  Nothing in the drawing relies on ``paint-order``."""
    from mechdiagram.render.theme import DARK, LIGHT
    data = minimal_spec()
    data["targets"]["ab"]["label"] = "flow back to the queue"  # two lines
    files = outputs(data, "tiny")
    for name, palette in (("tiny.main.svg", LIGHT), ("tiny.main.poster.svg", LIGHT), ("tiny.main.dark.svg", DARK)):
        root = ET.fromstring(files[name])
        assert [e for e in root.iter() if e.get("paint-order") is not None] == []
        (group,) = with_class(root, f"{TINY}-plabels")
        halo, label = list(group)
        # The label lies on its lane's band: the halo is the band's colour, which the page's made a patch on.
        assert halo.get("class") == f"{TINY}-halo {TINY}-halo-band" and label.get("class") == f"{TINY}-plabel"
        assert (halo.get("fill"), halo.get("stroke"), halo.get("stroke-width")) == ("none", palette.lane_fill, "4")
        assert (label.get("fill"), label.get("stroke")) == (palette.muted, None)
        assert [(t.get("x"), t.get("y"), t.text) for t in halo] == [(t.get("x"), t.get("y"), t.text) for t in label]
        assert [t.text for t in label] == ["flow back to", "the queue"], name
        assert halo.get("text-anchor") == label.get("text-anchor") == "middle"
        assert group.get("aria-hidden") == "true"  # the words twice, but never read out


def test_lane_bands_stand_out_from_the_page_in_both_schemes():
    """A lane's tint against the page: as visible in the dark scheme as in the light one (1.09:1 in the dark was
    all but invisible)."""
    from mechdiagram.render import theme

    def ratio(a: str, b: str) -> float:
        def lum(colour: str) -> float:
            values = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
            r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in values)
            return 0.2126 * r + 0.7152 * g + 0.0722 * b
        high, low = sorted((lum(a), lum(b)), reverse=True)
        return (high + 0.05) / (low + 0.05)

    for palette in (theme.LIGHT, theme.DARK):
        assert ratio(palette.lane_fill, palette.bg) >= 1.1, palette
    assert ratio(theme.DARK.lane_fill, theme.DARK.bg) >= 1.2


def test_a_label_off_the_bands_has_a_halo_of_the_page_colour():
    """A halo is the colour of what lies under most of its label: a lane's band, or the page (a label beside a
    track of the narrow layout, or any label of a figure without lanes)."""
    from mechdiagram.layout import diagram
    from mechdiagram.render.theme import LIGHT
    from mechdiagram.shared.model import spec_from_data
    from support.topologies import topologies

    data = topologies()["serving"]  # a layered layout: no lanes, no bands
    assert diagram(spec_from_data(data)).bands == ()
    root = ET.fromstring(next(v for k, v in outputs(data, "flow").items() if k.endswith(".svg") and k.count(".") == 2))
    halos = [e for e in root.iter(f"{SVG_NS}text") if "-halo" in e.get("class", "")]
    assert halos and {(h.get("class").split()[-1].rsplit("-", 1)[-1], h.get("stroke")) for h in halos} == {
        ("halo", LIGHT.bg)}
