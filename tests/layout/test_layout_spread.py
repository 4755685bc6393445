"""Issue 26: a wide drawing narrower than SPREAD_WIDTH is spread to it (its columns further apart), so that grown 1.5
times it fills 85 % of a wide screen's figure; its natural drawing is the figure's upper middle variant.  A chain of
three boxes (520 units) filled 62 % of a 1,408 px screen's figure, a lane grid of three columns (648 units) 78 %."""

from __future__ import annotations

from mechdiagram.layout import ASPECT_RANGE, SPREAD_SLACK, _broken, diagram, middle_diagram
from mechdiagram.layout.checks import against_flow
from mechdiagram.layout.route_rules import faults
from mechdiagram.layout.sizes import MARGIN, SPREAD_WIDTH, UPPER_WIDTH
from mechdiagram.shared.model import spec_from_data
from support.grids import grid_spec
from support.topologies import topologies, with_graph


def _chain(count: int) -> dict:
    names = ["Annahme", "Bearbeitung", "Abschluss", "Versand", "Rechnung", "Archiv"][:count]
    keys = [name.lower() for name in names]  # no lane digits: a layered graph, not a lane grid
    return with_graph(dict(zip(keys, names, strict=True)), [(a, b, "weiter") for a, b in zip(keys, keys[1:], strict=False)])


def _gaps(drawn) -> list[float]:
    """The room between neighbouring columns' boxes, left to right (user units)."""
    columns: dict[int, list] = {}
    for key, (_, column) in drawn.cells.items():
        columns.setdefault(column, []).append(drawn.boxes[key])
    edges = [(min(b.x for b in boxes), max(b.x + b.w for b in boxes)) for _, boxes in sorted(columns.items())]
    return [round(b[0] - a[1], 1) for a, b in zip(edges, edges[1:], strict=False)]


def test_a_chain_of_three_is_spread_to_the_spread_width_and_keeps_its_natural_drawing():
    """Three boxes in a row: the wide drawing is SPREAD_WIDTH wide, its boxes in the same cells and sizes, each gap
    wider by as much; no rule is broken more often; the natural drawing, the one ``spread=False`` gives, is the
    upper middle variant, and no middle one is made (the natural one is no wider than a middle one)."""
    spec = spec_from_data(_chain(3))
    wide, natural = diagram(spec), diagram(spec, spread=False)
    assert wide.natural == natural and natural.natural is None
    assert natural.width < SPREAD_WIDTH - SPREAD_SLACK <= wide.width <= SPREAD_WIDTH
    assert wide.cells == natural.cells
    assert [(b.w, b.h, b.y) for b in wide.boxes.values()] == [(b.w, b.h, b.y) for b in natural.boxes.values()]
    grown = [round(a - b, 1) for a, b in zip(_gaps(wide), _gaps(natural), strict=True)]
    assert len(set(grown)) == 1 and grown[0] > 100, grown
    assert faults(wide.arrows, wide.against) == [] == faults(natural.arrows, natural.against)
    assert all(arrow.clean for arrow in wide.arrows.values())
    assert middle_diagram(spec, UPPER_WIDTH, wide=wide) == natural
    assert middle_diagram(spec, wide=wide) is None


def test_a_lane_grid_is_spread_along_its_columns():
    """A lane grid of two lanes and three columns: its columns move apart to SPREAD_WIDTH, its lanes keep their
    heights, and its routes stay clean."""
    data = grid_spec(2, 3, seed=3)
    spec = spec_from_data(data)
    wide, natural = diagram(spec), diagram(spec, spread=False)
    assert natural.width < SPREAD_WIDTH - SPREAD_SLACK <= wide.width <= SPREAD_WIDTH, (natural.width, wide.width)
    assert [b.h for b in wide.bands] == [b.h for b in natural.bands]
    assert all(arrow.clean for arrow in wide.arrows.values())
    assert len(faults(wide.arrows, frozenset())) <= len(faults(natural.arrows, frozenset()))


def test_a_lane_grid_under_proportional_time_is_not_spread():
    """Its columns' slots are its time: spreading its gaps would draw the spans out of proportion."""
    spec = spec_from_data(grid_spec(2, 3, seed=3, spans=[1.0, 2.0, 1.0]))
    wide = diagram(spec)
    assert wide.natural is None and wide == diagram(spec, spread=False)


def test_a_folded_chain_is_spread_no_further_than_its_aspect_ratio_allows():
    """A chain of five, folded into rows (its aspect ratio in range): spread, it keeps its aspect ratio at most
    ASPECT_RANGE's top (a first version drew it 4:1)."""
    for count in (5, 6):
        spec = spec_from_data(_chain(count))
        wide = diagram(spec)
        natural = wide.natural or wide
        assert ASPECT_RANGE[0] <= natural.width / (natural.bottom + MARGIN) <= ASPECT_RANGE[1]
        assert wide.width / (wide.bottom + MARGIN) <= ASPECT_RANGE[1] + 0.01, (count, wide.width, wide.bottom)


def test_a_drawing_wider_than_the_spread_width_or_nearly_so_is_not_spread():
    """The serving stack (818 units) and forty boxes are drawn as they were."""
    shapes = topologies()
    for data in (shapes["forty"],):
        spec = spec_from_data(data)
        wide = diagram(spec)
        assert wide.natural is None and wide.width >= SPREAD_WIDTH - SPREAD_SLACK


def test_a_spread_drawing_breaks_no_rule_more_often_than_its_natural_one():
    """Over the held-back topologies, every spread drawing breaks each rule of route_rules no more often than its
    natural drawing, and has no more routes and labels that are not clean."""
    spread = 0
    for name, data in topologies().items():
        spec = spec_from_data(data)
        wide = diagram(spec)
        if wide.natural is None:
            continue
        spread += 1
        natural = wide.natural
        assert wide.width <= SPREAD_WIDTH and natural.width < wide.width, name
        after, unclean_after = _broken(wide.arrows, against_flow(spec, wide, narrow=False), wide.groups)
        before, unclean_before = _broken(natural.arrows, against_flow(spec, natural, narrow=False), natural.groups)
        assert unclean_after <= unclean_before, name
        assert all(count <= before.get(kind, 0) for kind, count in after.items()), (name, before, after)
    assert spread >= 2, spread
