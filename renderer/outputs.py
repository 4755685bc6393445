"""The output formats, one class each, found through one registry.

Every file a spec produces comes from an :class:`OutputFormat` registered with
:func:`register`: ``build`` writes what the formats render, ``check`` compares
it with the output folder, and retirement asks the formats which names a spec
may own (:func:`owned_by`), so a new format is one new class and nothing else
changes.  A format names its files with a pattern of ``{slug}`` (the spec's
output name) and, for a file per scenario, ``{scenario}`` (the scenario id).

The drawing and HTML modules (svgwrite, jinja2) are imported when a spec is
rendered, not with this module: ``validate`` and a build that skips every spec
never load them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from .layout import Diagram, diagram, layout_scenario
from .model import Scenario, Spec
from .provenance import SourceCheck

if TYPE_CHECKING:
    from .html import FigureContext
    from .svg import ScenarioSvgs

#: Scenario ids as the schema allows them (``{scenario}`` in a pattern).
_SCENARIO_ID = r"[A-Za-z][A-Za-z0-9_-]*"


def slug_for(path: Path) -> str:
    """The output name of a spec: its file name without ``.mechanism.json`` (or ``.json``), lower case,
    with runs of other characters than ``a-z0-9_-`` made ``-``."""
    name = path.name
    for suffix in (".mechanism.json", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-") or "mechanism"


@dataclass
class RenderJob:
    """One valid spec on its way to files: what every format reads, each part computed once.

    ``slug`` is the spec's output name; ``checks`` its source verification results.
    """

    spec: Spec
    slug: str
    checks: Sequence[SourceCheck]
    diagram: Diagram | None = None

    @cached_property
    def drawings(self) -> dict[str, ScenarioSvgs]:
        """Each scenario drawn once, by scenario id: the animated SVG and its poster still."""
        from .svg import prefix_for, render_scenario

        return {scenario.id: render_scenario(self.spec, scenario, layout_scenario(self.spec, scenario, self.diagram),
                                             prefix_for(self.slug, scenario.id))
                for scenario in self.spec.scenarios}

    @cached_property
    def narrow(self) -> dict[str, ScenarioSvgs]:
        """Each scenario drawn once in the narrow layout (one column of boxes, for a phone-wide ``<img>``)."""
        from .svg import prefix_for, render_scenario

        shared = diagram(self.spec, narrow=True)
        return {scenario.id: render_scenario(self.spec, scenario, layout_scenario(self.spec, scenario, shared),
                                             prefix_for(self.slug, scenario.id), stills=())
                for scenario in self.spec.scenarios}

    @cached_property
    def figure(self) -> FigureContext:
        """The HTML template context, inlining every scenario's animated SVG."""
        from .html import figure_context

        drawn = [self.drawings[scenario.id] for scenario in self.spec.scenarios]
        return figure_context(self.spec, self.slug, [d.inline for d in drawn], list(self.checks),
                              [d.width for d in drawn])


class OutputFormat:
    """One kind of output file.  Subclasses set :attr:`name`, :attr:`pattern` and :attr:`summary`
    and implement :meth:`render_spec` (one file per spec) or :meth:`render_scenario` (one per scenario)."""

    name: ClassVar[str]
    pattern: ClassVar[str]
    summary: ClassVar[str]

    @classmethod
    def per_scenario(cls) -> bool:
        """True when the format writes one file per scenario."""
        return "{scenario}" in cls.pattern

    @classmethod
    def file_name(cls, slug: str, scenario: str = "") -> str:
        """The file name for ``slug`` (and ``scenario``, for a per-scenario format)."""
        return cls.pattern.format(slug=slug, scenario=scenario)

    @classmethod
    def owns(cls, slug: str, name: str) -> bool:
        """Whether ``name`` is a file this format writes for the spec named ``slug``, for any scenario id."""
        regex = re.escape(cls.pattern).replace(re.escape("{slug}"), re.escape(slug))
        regex = regex.replace(re.escape("{scenario}"), _SCENARIO_ID)
        return re.fullmatch(regex, name) is not None

    def key_parts(self) -> list[str]:
        """What besides the spec, its sources, the templates and the mechdiagram version decides this format's
        bytes (a rasteriser's version, a font file's digest), as strings for the build key
        (:mod:`renderer.buildkey`); ``[]`` for the formats we write ourselves."""
        return []

    def render_spec(self, job: RenderJob) -> bytes:
        """The bytes of the spec's file (per-spec formats)."""
        raise NotImplementedError

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """The bytes of one scenario's file (per-scenario formats)."""
        raise NotImplementedError


_REGISTRY: dict[str, type[OutputFormat]] = {}


def register(cls: type[OutputFormat]) -> type[OutputFormat]:
    """Class decorator: add a format to the registry (in definition order).  Raises ``TypeError`` for a
    name already registered."""
    if cls.name in _REGISTRY:
        raise TypeError(f"output format {cls.name!r} is registered twice")
    _REGISTRY[cls.name] = cls
    return cls


def formats() -> list[OutputFormat]:
    """One instance of every registered format, in registration order."""
    return [cls() for cls in _REGISTRY.values()]


def owned_by(slug: str, name: str) -> bool:
    """Whether a file ``name`` (no folder) is one some format writes for the spec named ``slug``."""
    return any(cls.owns(slug, name) for cls in _REGISTRY.values())


@register
class AnimatedSvg(OutputFormat):
    """The animated SVG of a scenario: CSS keyframes, no script, works in ``<img>``."""

    name = "svg"
    pattern = "{slug}.{scenario}.svg"
    summary = "animated SVG per scenario"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.svg``: the drawing with every step's keyframes."""
        from .svg import svg_document

        return svg_document(job.drawings[scenario.id].animated)


@register
class PosterSvg(OutputFormat):
    """The poster still of a scenario, for print, slides and readers who asked for reduced motion."""

    name = "poster"
    pattern = "{slug}.{scenario}.poster.svg"
    summary = "still poster SVG per scenario"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.poster.svg``: frame 0, without keyframes."""
        from .svg import svg_document

        return svg_document(job.drawings[scenario.id].stills[0])


@register
class DarkSvg(OutputFormat):
    """The animated SVG in dark colours, for ``<picture>``'s ``prefers-color-scheme: dark`` source."""

    name = "svg-dark"
    pattern = "{slug}.{scenario}.dark.svg"
    summary = "animated SVG per scenario, dark colours"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.dark.svg``: the animated SVG with the dark palette."""
        from .svg import svg_document

        return svg_document(job.drawings[scenario.id].dark)


@register
class PosterDarkSvg(OutputFormat):
    """The poster still in dark colours."""

    name = "poster-dark"
    pattern = "{slug}.{scenario}.poster.dark.svg"
    summary = "still poster SVG per scenario, dark colours"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.poster.dark.svg``: the poster with the dark palette."""
        from .svg import svg_document

        return svg_document(job.drawings[scenario.id].dark_stills[0])


@register
class NarrowSvg(OutputFormat):
    """The animated SVG laid out for a phone-wide ``<img>``: one column of boxes, so that its text stays
    at 12 CSS px or more in a 330 px wide image (``<picture>``'s ``max-width`` source)."""

    name = "svg-narrow"
    pattern = "{slug}.{scenario}.narrow.svg"
    summary = "animated SVG per scenario, narrow layout"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.narrow.svg``."""
        from .svg import svg_document

        return svg_document(job.narrow[scenario.id].animated)


@register
class NarrowDarkSvg(OutputFormat):
    """The narrow animated SVG in dark colours."""

    name = "svg-narrow-dark"
    pattern = "{slug}.{scenario}.narrow.dark.svg"
    summary = "animated SVG per scenario, narrow layout, dark colours"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.narrow.dark.svg``."""
        from .svg import svg_document

        return svg_document(job.narrow[scenario.id].dark)


@register
class Page(OutputFormat):
    """The standalone HTML page: figure, step player, transcript, limitations and sources."""

    name = "page"
    pattern = "{slug}.html"
    summary = "standalone HTML page"

    def render_spec(self, job: RenderJob) -> bytes:
        """``NAME.html``, UTF-8."""
        from .html import render_page

        return render_page(job.figure).encode("utf-8")


@register
class Fragment(OutputFormat):
    """The embeddable HTML fragment: the page's figure without the document around it."""

    name = "fragment"
    pattern = "{slug}.fragment.html"
    summary = "embeddable HTML fragment"

    def render_spec(self, job: RenderJob) -> bytes:
        """``NAME.fragment.html``, UTF-8."""
        from .html import render_fragment

        return render_fragment(job.figure).encode("utf-8")


def render_outputs(spec: Spec, slug: str, checks: Sequence[SourceCheck],
                   chosen: Callable[[OutputFormat], bool] = lambda fmt: True,
                   diagram: Diagram | None = None) -> dict[str, bytes]:
    """Every file of one valid spec, by file name: per scenario the per-scenario formats' files, then
    the per-spec formats' files, each in registration order.  ``chosen`` filters the formats;
    ``diagram`` is the spec's laid-out figure when validation computed it already."""
    job = RenderJob(spec, slug, checks, diagram)
    active = [fmt for fmt in formats() if chosen(fmt)]
    outputs: dict[str, bytes] = {}
    for scenario in spec.scenarios:
        for fmt in active:
            if fmt.per_scenario():
                outputs[fmt.file_name(slug, scenario.id)] = fmt.render_scenario(job, scenario)
    for fmt in active:
        if not fmt.per_scenario():
            outputs[fmt.file_name(slug)] = fmt.render_spec(job)
    return outputs
