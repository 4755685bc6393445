"""The layered (Sugiyama) layout of a spec that is not a lane grid: nodes ranked along the path arrows.

Phases, as in ELK Layered and dagre:

1. **Cycle breaking** (ours): a depth-first search in file order marks back edges, which are
   laid out as if reversed and drawn back against the flow.
2. **Layering and crossing minimisation** (grandalf's ``SugiyamaLayout``: longest-path ranking,
   dummy vertices on long edges, barycentre sweeps between layers).
3. **Cell assignment** (ours): each layer becomes a column (flow to the right) or a row (flow
   downward), and each node's place in its layer moves towards the median place of its
   neighbours in the layer before, keeping the order, so that chains run straight.
4. **Folding** (ours, :func:`folded`): a graph of many layers (a long chain) is folded back and forth
   into bands, as a line of text wraps but turning at each end, so that its drawing keeps a readable shape
   (the layout stage chooses the number of bands by the drawing's aspect ratio).

:func:`layered_cells` returns each node's (row, column) cell; sizes are the placement's business.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

#: Rounds of crossing minimisation (each a sweep down and up the layers).
ORDERING_ROUNDS = 4


def back_edges(nodes: Sequence[str], edges: Sequence[tuple[str, str]]) -> set[tuple[str, str]]:
    """The back edges of a depth-first search from ``nodes`` in their order: without them ``edges`` has no cycle.

    A cycle (fetch -> decode -> execute -> fetch, a request and its reply) would otherwise leave
    every node on it unranked; its closing edge is drawn all the same, as an arrow back.
    """
    out: dict[str, list[str]] = {key: [] for key in nodes}
    for src, dest in edges:
        out[src].append(dest)
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    back: set[tuple[str, str]] = set()
    for root in nodes:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(out[root]))]
        while stack:  # iterative: any depth
            key, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[key] = 2
                stack.pop()
            elif state.get(child) == 1:
                back.add((key, child))
            elif child not in state:
                state[child] = 1
                stack.append((child, iter(out[child])))
    return back


def cycle_breakings(nodes: Sequence[str], edges: Sequence[tuple[str, str]]) -> tuple[bool, ...]:
    """The ``from_last`` values of :func:`layered_cells` that break the cycles of ``edges`` differently: ``(False,)``
    for a graph whose searches from the first and from the last node find the same back edges (one without a
    cycle), else ``(False, True)``.  Of a request and its reply, which is the arrow back is a choice the graph
    does not make (OAuth's browser, client and servers call one another both ways): the layout stage draws
    both layerings and keeps the one whose arrows cross and meet least, as ELK Layered tries several orders."""
    if back_edges(nodes, edges) == back_edges(list(reversed(nodes)), edges):
        return (False,)
    return (False, True)


class _View:
    """The size grandalf asks of every vertex; only layer order is read back, so any size will do."""

    w = h = 1.0


def _layers(nodes: Sequence[str], edges: Sequence[tuple[str, str]]) -> list[list[str]]:
    """Layers of the acyclic ``edges`` over ``nodes``, each in crossing-reduced order (dummies dropped)."""
    # Imported here: a lane grid (most specs) never needs grandalf, so validating one does not pay for it.
    from grandalf.graphs import Edge, Graph, Vertex
    from grandalf.layouts import SugiyamaLayout
    from grandalf.utils import Poset

    vertices = {key: Vertex(key) for key in nodes}
    for vertex in vertices.values():
        vertex.view = _View()
    edge_list = [Edge(vertices[a], vertices[b]) for a, b in edges]
    graph = Graph(list(vertices.values()), edge_list)
    order = {id(edge): i for i, edge in enumerate(edge_list)}
    layers: list[list[str]] = []
    for component in graph.C:  # connected components, in the order of their first node
        # grandalf gathers a component's edges in a set of objects hashed by address, so their order (and with
        # it the layers' order) changed from one process to the next: put them back in the order given.
        component.sE = Poset(sorted(component.sE, key=lambda edge: order[id(edge)]))
        sugiyama = SugiyamaLayout(component)
        sugiyama.init_all(roots=[v for v in component.sV if not v.e_in()], inverted_edges=[])
        for _ in range(ORDERING_ROUNDS):
            for _step in sugiyama.ordering_step():
                pass
        for depth, layer in enumerate(sugiyama.layers):
            while len(layers) <= depth:
                layers.append([])
            layers[depth].extend(v.data for v in layer if isinstance(getattr(v, "data", None), str))
    return layers


def _closest_increasing(wanted: list[float]) -> list[int]:
    """Distinct increasing places, each as close to its wish as the order allows (the least total
    distance): with q_i = p_i - i this is an L1 isotonic regression, solved by pooling adjacent
    violators into blocks at their median."""
    blocks: list[list[float]] = []  # each block: the shifted wishes it pools
    for i, wish in enumerate(wanted):
        blocks.append([wish - i])
        while len(blocks) > 1 and _median(blocks[-2]) > _median(blocks[-1]):
            last = blocks.pop()
            blocks[-1].extend(last)
    places: list[int] = []
    for block in blocks:
        level = max(0, round(_median(block)))
        if places:
            level = max(level, places[-1] - len(places) + 1)
        start = len(places)
        places.extend(level + start + n for n in range(len(block)))
    return places


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2]


def _aligned(layers: list[list[str]], neighbours: dict[str, list[str]]) -> dict[str, tuple[int, int]]:
    """(layer, place) per node: a node's place follows the median place of its neighbours in earlier
    layers (a node with none, of its neighbours in later layers); places within a layer keep their order
    and never repeat."""
    place: dict[str, int] = {}
    for layer in layers:
        wanted: list[float] = []
        for i, key in enumerate(layer):
            seen = sorted(place[n] for n in neighbours[key] if n in place)
            wanted.append(float(seen[(len(seen) - 1) // 2]) if seen else float(i))
        for key, spot in zip(layer, _closest_increasing(wanted), strict=True):
            place[key] = spot
    # Then back from the last layer: a node with no neighbour in an earlier layer (a source, such as a
    # load balancer fanning out) follows the median of its neighbours in later layers instead of the top.
    depth_of = {key: depth for depth, layer in enumerate(layers) for key in layer}
    for depth in range(len(layers) - 1, -1, -1):
        layer = layers[depth]
        wanted = []
        moved = False
        for key in layer:
            earlier = [n for n in neighbours[key] if depth_of[n] < depth]
            later = sorted(place[n] for n in neighbours[key] if depth_of[n] > depth)
            if not earlier and later:
                wanted.append(float(later[(len(later) - 1) // 2]))
                moved = True
            else:
                wanted.append(float(place[key]))
        if moved:
            for key, spot in zip(layer, _closest_increasing(wanted), strict=True):
                place[key] = spot
    return {key: (depth, place[key]) for depth, layer in enumerate(layers) for key in layer}


def layered_cells(nodes: Sequence[str], edges: Sequence[tuple[str, str]], *,
                  down: bool, from_last: bool = False) -> dict[str, tuple[int, int]]:
    """(row, column) of every node: layers are columns (``down=False``) or rows (``down=True``).

    ``edges`` are (from, to) node keys, self-loops excluded; back edges are found here, by a depth-first search
    from the first node, or with ``from_last`` from the last (:func:`cycle_breakings`).
    """
    back = back_edges(list(reversed(nodes)) if from_last else nodes, edges)
    forward = [edge for edge in edges if edge not in back]
    forward += [(b, a) for a, b in edges if (a, b) in back and (b, a) not in forward]
    unique = list(dict.fromkeys(forward))
    layers = _layers(nodes, unique)
    neighbours: dict[str, list[str]] = {key: [] for key in nodes}
    for a, b in unique:
        neighbours[a].append(b)
        neighbours[b].append(a)
    placed = _aligned(layers, neighbours)
    return {key: (depth, place) if down else (place, depth) for key, (depth, place) in placed.items()}


def folded(cells: Mapping[str, tuple[int, int]], bands: int, *, down: bool) -> dict[str, tuple[int, int]]:
    """The (row, column) cells of :func:`layered_cells` folded back and forth (boustrophedon) into ``bands``
    bands of at most ``ceil(layers / bands)`` layers each: with layers as rows (``down``) the bands are columns
    of rows, running down, then up, then down; with layers as columns they are rows of columns, running right,
    then left.  Each band is as wide as the widest layer, and a chain's last node in one band sits beside its
    first in the next, so the arrow between them is the shortest of all.  One band (or fewer) leaves the cells
    as they are."""
    if bands <= 1 or not cells:
        return dict(cells)
    layer = 0 if down else 1
    per_band = math.ceil((max(cell[layer] for cell in cells.values()) + 1) / bands)
    across = max(cell[1 - layer] for cell in cells.values()) + 1  # the widest layer's places
    out: dict[str, tuple[int, int]] = {}
    for key, cell in cells.items():
        band, along = divmod(cell[layer], per_band)
        along = along if band % 2 == 0 else per_band - 1 - along
        spot = band * across + cell[1 - layer]
        out[key] = (along, spot) if down else (spot, along)
    return out
