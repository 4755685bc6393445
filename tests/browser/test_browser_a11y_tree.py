"""The accessibility tree (playwright's aria snapshot): the SVG image named by the spec's title, the figure by its
caption, every control by its visible label, the status, and the transcript as one list item per step, in order
(SC 1.1.1, 1.3.1, 2.5.3, 4.1.2)."""

from __future__ import annotations

import re

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def quoted(text: str) -> str:
    """How the aria snapshot quotes a name."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def unquoted(line: str) -> str:
    """A snapshot line without the YAML single quotes it gets when a name holds ": " (``''`` is ``'``); what
    follows the quoted part (``:``, or ``: "3"``, the element's own text) is kept."""
    match = re.fullmatch(r"- '((?:[^']|'')*)'(:?.*)", line)
    if match is None:
        return line
    return "- " + match.group(1).replace("''", "'") + match.group(2)


def top_level_items(snapshot: str, role: str) -> list[str]:
    """The direct ``- role`` children of the snapshot's first node, each with its nested lines joined."""
    lines = snapshot.splitlines()
    assert lines and lines[0].startswith("- list"), snapshot
    items: list[list[str]] = []
    for line in lines[1:]:
        if re.match(rf"  - {role}\b", line):
            items.append([line])
        elif line.startswith("    ") and items:
            items[-1].append(line)
        else:
            raise AssertionError(f"unexpected line in the list: {line!r}\n{snapshot}")
    return ["\n".join(item) for item in items]


@pytest.mark.parametrize("slug", bs.mechanism_slugs() + list(bs.GENERATED))
def test_names_roles_and_transcript_in_the_accessibility_tree(site, open_page, slug):
    spec = site.specs[slug]
    page = open_page(site.page(slug), clock=True)  # time stands still: "Step 1" stays true
    root = bs.figures(page).nth(0)
    snapshot = root.aria_snapshot()
    # The status isolates author text with FSI ... PDI (bidi isolates); the words are what is checked here.
    lines = [unquoted(line.strip().replace("\u2068", "").replace("\u2069", "")) for line in snapshot.splitlines()]

    def has(prefix: str) -> None:
        assert any(line == prefix or line.startswith(prefix + ":") or line.startswith(prefix + " ")
                   for line in lines), f"{prefix!r} not in the tree:\n{snapshot}"

    has(f"- figure {quoted(spec['caption'])}")
    has(f"- img {quoted(spec['title'])}")
    assert sum(line.startswith("- img ") for line in lines) == 1, "hidden scenarios must not be in the tree"
    w = bs.words(spec)
    has(f'- group {quoted(w["controls"])}')
    for key in ("pauseName", "previousName", "nextName"):
        has(f"- button {quoted(w[key])}")
    steps = spec["scenarios"][0]["steps"]
    # the step indicator: a tablist with one tab per step, the first selected
    has(f"- tablist {quoted(w['steps'])}")
    for n, step in enumerate(steps, 1):
        tab = f"- tab {quoted(bs.say(spec, 'stepTab', n=str(n), title=step['title']))}"
        found = [line for line in lines if line.startswith(tab) or line.startswith("- '" + tab[2:])]
        assert len(found) == 1 and ("[selected]" in found[0]) == (n == 1), (tab, found)
    if len(spec["scenarios"]) > 1:
        has(f'- combobox {quoted(w["scenario"])}')
        for scenario in spec["scenarios"]:
            has(f"- option {quoted(scenario['title'])}")
    else:
        assert not any(line.startswith("- combobox") for line in lines)
    # the position is said once, by the status: "Step 1 of N: title." and the state
    heading = bs.say(spec, "stepOf", n="1", total=str(len(steps)), title=steps[0]["title"])
    said = [line for line in lines if bs.say(spec, "stepOf", n="1", total=str(len(steps)), title="") in line]
    assert len(said) == 1 and re.sub(r'^- paragraph: "?', "", said[0]).startswith(heading), (said, snapshot)
    has(f"- heading {quoted(w['transcript'])} [level=2]")

    lists = root.locator(".mech-steps")
    assert lists.count() == len(spec["scenarios"])
    for index, scenario in enumerate(spec["scenarios"]):
        items = top_level_items(lists.nth(index).aria_snapshot(), "listitem")
        assert len(items) == len(scenario["steps"]), items
        for item, step in zip(items, scenario["steps"]):
            # a title holding ": " is written as a YAML double-quoted string
            assert any(f"- strong: {form}" in item for form in (step["title"], quoted(step["title"]))), item
            assert step["description"] in item, (item, step["description"])
        if len(spec["scenarios"]) > 1:
            has(f'- heading {quoted(scenario["title"])} [level=3]')


def test_the_player_keeps_names_in_step_with_what_it_shows(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    root = bs.figures(page).nth(0)
    page.keyboard.press("Tab")
    snapshot = root.aria_snapshot()
    assert f'- button "{bs.PLAY_LABEL}"' in snapshot and "[pressed]" not in snapshot, snapshot
    root.locator(".mech-scenario").select_option("1")
    snapshot = root.aria_snapshot()
    assert '- option "Lost acknowledgement" [selected]' in snapshot, snapshot
    assert "- 'tab \"Step 1: Send again\" [selected]'" in snapshot.replace("\u2068", "").replace("\u2069", ""), snapshot
    assert sum(line.strip().startswith("- img ") for line in snapshot.splitlines()) == 1, snapshot
