"""The render job: one valid spec on its way to files, with what every output format reads (the drawings
in both layouts, the pictures, the HTML figure's context), each part computed once and only when a format
asks for it.

The drawing and HTML modules (svgwrite, jinja2) and the rasteriser are imported by the part that needs
them, not with this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from msgspec import Struct

from mechdiagram.layout import Diagram, diagram, layout_scenario, middle_diagram
from mechdiagram.layout.sizes import UPPER_WIDTH
from mechdiagram.shared.config import Embedding
from mechdiagram.shared.model import Spec
from mechdiagram.shared.views import SEQUENCE
from mechdiagram.spec.provenance import SourceCheck

if TYPE_CHECKING:
    from mechdiagram.render.html import FigureContext
    from mechdiagram.render.svg import ScenarioSvgs


class Middle(Struct, frozen=True):
    """A spec's middle layout as validation laid it out (:func:`~mechdiagram.layout.middle_diagram`): ``diagram``
    ``None`` where the spec has none."""

    diagram: Diagram | None


class RenderJob(Struct, dict=True):
    """One valid spec on its way to files: what every format reads, each part computed once.

    ``slug`` is the spec's output name; ``checks`` its source verification results; ``embedding`` how a site
    embeds the HTML figure (where it finds the player, the colour-mode switches it follows).
    """

    spec: Spec
    slug: str
    checks: Sequence[SourceCheck]
    diagram: Diagram | None = None
    narrow_diagram: Diagram | None = None  # the narrow layout's, when validation computed it already
    step_stills: bool = False  # also serialise every step's still (formats with ``reads_steps``)
    embedding: Embedding = Embedding()
    middle_layout: Middle | None = None  # the middle layout, when validation computed it already

    @cached_property
    def drawings(self) -> dict[str, ScenarioSvgs]:
        """Each scenario drawn once, by scenario id: the animated SVG, its poster still and, with
        ``step_stills``, the still of every step."""
        from mechdiagram.render.svg import prefix_for, render_scenario

        return {scenario.id: render_scenario(self.spec, scenario, layout_scenario(self.spec, scenario, self.diagram),
                                             prefix_for(self.slug, scenario.id),
                                             tuple(range(len(scenario.steps) + 1)) if self.step_stills else (0,))
                for scenario in self.spec.scenarios}

    @cached_property
    def narrow(self) -> dict[str, ScenarioSvgs]:
        """Each scenario drawn once in the narrow layout (one column of boxes, for a phone-wide ``<img>``,
        the HTML figure in a narrow column and the gallery page's thumbnail on a phone), with its poster still
        and ids of its own (``variant``)."""
        from mechdiagram.render.svg import prefix_for, render_scenario

        shared = self.narrow_diagram or diagram(self.spec, narrow=True, wide=self.diagram)
        return {scenario.id: render_scenario(self.spec, scenario,
                                             layout_scenario(self.spec, scenario, shared, narrow=True),
                                             prefix_for(self.slug, scenario.id), variant="narrow")
                for scenario in self.spec.scenarios}

    @cached_property
    def middle(self) -> dict[str, ScenarioSvgs]:
        """Each scenario drawn once in the middle layout, a lane grid's, a sequence's or a layered graph's, for a
        figure between a phone's and the wide drawing's width (:func:`~mechdiagram.layout.middle_diagram`), ids of
        its own (``variant``); empty when the spec has none.  Only the HTML figure inlines it."""
        laid_out = self.middle_layout
        return self._between(laid_out.diagram if laid_out is not None else middle_diagram(self.spec, wide=self.diagram),
                             "middle")

    @cached_property
    def upper(self) -> dict[str, ScenarioSvgs]:
        """Each scenario drawn once in the upper middle layout (``middle_diagram(spec, UPPER_WIDTH)``), ids of its
        own: a lane grid's for a figure too wide for the middle one to fill and too narrow for the wide grid, a
        layered graph's natural drawing where its wide one is spread (:func:`~mechdiagram.layout.diagram`); empty
        when the spec has none (a sequence's middle layout reaches the spread wide one).  Only the HTML figure
        inlines it."""
        if self.spec.layout.view == SEQUENCE:
            return {}
        return self._between(middle_diagram(self.spec, UPPER_WIDTH, wide=self.diagram), "upper")

    def _between(self, shared: Diagram | None, variant: str) -> dict[str, ScenarioSvgs]:
        """Each scenario drawn in ``shared``, a layout between the narrow and the wide one, with ids of ``variant``;
        empty for ``None``."""
        from mechdiagram.render.svg import prefix_for, render_scenario

        if shared is None:
            return {}
        # Not a phone's: its state panel and legend as wide as the drawing (layout_scenario's narrow is a phone's).
        return {scenario.id: render_scenario(self.spec, scenario, layout_scenario(self.spec, scenario, shared),
                                             prefix_for(self.slug, scenario.id), variant=variant)
                for scenario in self.spec.scenarios}

    @cached_property
    def pictures(self) -> dict[tuple[str, int], bytes]:
        """PNG bytes of every still, by (scenario id, frame: 0 the poster, K step K), each rasterised once.
        Raises :class:`~mechdiagram.shared.errors.RasterError` without the ``raster`` extra."""
        from mechdiagram.render.raster import rasterise  # only the picture formats load the rasteriser's module

        return {(scenario_id, k): rasterise(svg) for scenario_id, drawn in self.drawings.items()
                for k, svg in sorted(drawn.stills.items())}

    @cached_property
    def figure(self) -> FigureContext:
        """The HTML template context, inlining every scenario's animated SVG in both layouts, wide and
        narrow (their colours follow the page).  The two layouts have the same classes and keyframes, so
        the narrow one goes without its style sheet when it is the wide one's, as it is for every spec
        today (a ``<style>`` applies to the whole page, shown or not): 13 kB less a scenario."""
        from mechdiagram.render.html import UPPER_SCROLLS_FROM, figure_context, wide_from

        drawn = [self.drawings[scenario.id] for scenario in self.spec.scenarios]
        narrow = [self.narrow[scenario.id] for scenario in self.spec.scenarios]
        # The middle layout where it shows: from a narrower figure than the wide one does, and than the upper one
        # (a spread grid's natural drawing may show from a narrower figure than its transposed middle one); the upper
        # one where it shows from a narrower figure than the wide one's 12 px text and a wider one than the middle
        # layout does.
        upper = [u if (u := self.upper.get(scenario.id)) and wide_from(u.width) < wide_from(d.width, UPPER_SCROLLS_FROM)
                 else None for scenario, d in zip(self.spec.scenarios, drawn, strict=True)]
        middle = [m if (m := self.middle.get(scenario.id)) and wide_from(m.width) < wide_from(d.width)
                  and (u is None or wide_from(m.width) <= wide_from(u.width)) else None
                  for scenario, d, u in zip(self.spec.scenarios, drawn, upper, strict=True)]
        upper = [u if u is not None and (m is None or wide_from(m.width) < wide_from(u.width)) else None
                 for u, m in zip(upper, middle, strict=True)]
        return figure_context(self.spec, self.slug, [d.inline for d in drawn], list(self.checks),
                              [d.width for d in drawn],
                              [(n.inline_bare if n.inline_css == d.inline_css else n.inline, n.width)
                               for d, n in zip(drawn, narrow, strict=True)], self.embedding,
                              [((d.strip, d.strip_width), (n.strip, n.strip_width))
                               for d, n in zip(drawn, narrow, strict=True)],
                              [[d.focus, *([u.focus] if u else []), *([m.focus] if m else []), n.focus]
                               for d, u, m, n in zip(drawn, upper, middle, narrow, strict=True)],
                              [(d.heads, n.heads) for d, n in zip(drawn, narrow, strict=True)],
                              [(m.inline_bare if m.inline_css == d.inline_css else m.inline, m.width, m.heads)
                               if m else None for d, m in zip(drawn, middle, strict=True)],
                              [(u.inline_bare if u.inline_css == d.inline_css else u.inline, u.width, u.heads)
                               if u else None for d, u in zip(drawn, upper, strict=True)])
