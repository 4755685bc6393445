"""The output formats, one class each, found through one registry.

Every file a spec produces comes from an :class:`OutputFormat` registered with
:func:`register`: ``build`` writes what the formats render, ``check`` compares
it with the output folder, and retirement asks the formats which names a spec
may own (:func:`owned_by`), so a new format is one new class and nothing else
changes.  A format names its files with a pattern of ``{slug}`` (the spec's
output name), for a file per scenario ``{scenario}`` (the scenario id) and, for
a file per step, ``{step}`` (the step's number, from 1), as :mod:`mechdiagram.render.filenames`
reads them.  Each format renders from one :class:`~mechdiagram.render.job.RenderJob`.  A format belongs to a
``group`` that the command line and ``formats`` in ``[tool.mechdiagram]``
select; an ``optional`` group is written only when selected.

The drawing and HTML modules (svgwrite, jinja2) are imported when a spec is
rendered, not with this module: ``validate`` and a build that skips every spec
never load them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import ClassVar

from mechdiagram.layout import Diagram
from mechdiagram.render import filenames
from mechdiagram.render.job import Middle, RenderJob
from mechdiagram.shared.config import Embedding
from mechdiagram.shared.errors import RasterError
from mechdiagram.shared.model import Scenario, Spec
from mechdiagram.spec.provenance import SourceCheck


class OutputFormat:
    """One kind of output file.  Subclasses set :attr:`name`, :attr:`pattern` and :attr:`summary`
    and implement :meth:`render_spec` (one file per spec) or :meth:`render_scenario` (one per scenario)."""

    name: ClassVar[str]
    pattern: ClassVar[str]
    summary: ClassVar[str]
    #: The selectable group (``--frames``, ``formats = ["png"]``); defaults to the name.
    group: ClassVar[str] = ""
    #: True for a group written only when selected (frames, PNG, GIF).
    optional: ClassVar[bool] = False
    #: True when the format reads every step's still (:attr:`RenderJob.step_stills`).
    reads_steps: ClassVar[bool] = False
    #: True when the bytes come from the rasteriser (the manifest records its version).
    rasterised: ClassVar[bool] = False

    @classmethod
    def group_name(cls) -> str:
        """The group that selects this format."""
        return cls.group or cls.name

    @classmethod
    def per_scenario(cls) -> bool:
        """True when the format writes one file per scenario (or per step)."""
        return "{scenario}" in cls.pattern

    @classmethod
    def per_step(cls) -> bool:
        """True when the format writes one file per step of each scenario."""
        return "{step}" in cls.pattern

    @classmethod
    def file_name(cls, slug: str, scenario: str = "", step: int = 0) -> str:
        """The file name for ``slug`` (and ``scenario``, and the 1-based ``step``, where the pattern has them)."""
        return cls.pattern.format(slug=slug, scenario=scenario, step=step)

    @classmethod
    def owns(cls, slug: str, name: str) -> bool:
        """Whether ``name`` is a file this format writes for the spec named ``slug``, for any scenario id."""
        return filenames.matches(cls.pattern, name, slug)

    def key_parts(self) -> list[str]:
        """What besides the spec, its sources, the templates and the mechdiagram version decides this format's
        bytes, as strings for the build key (:mod:`mechdiagram.site.buildkey`): the rasteriser's name and version
        and the digest of the fonts for a picture, ``[]`` for the formats we write ourselves."""
        if not self.rasterised:
            return []
        try:
            from mechdiagram.render.raster import fonts_digest, rasteriser

            return [rasteriser(), fonts_digest()]
        except RasterError:
            return ["no rasteriser"]  # not installed: only a build that asks for pictures fails

    def render_spec(self, job: RenderJob) -> bytes:
        """The bytes of the spec's file (per-spec formats)."""
        raise NotImplementedError

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """The bytes of one scenario's file (per-scenario formats)."""
        raise NotImplementedError

    def render_step(self, job: RenderJob, scenario: Scenario, step: int) -> bytes:
        """The bytes of one step's file (per-step formats); ``step`` counts from 1."""
        raise NotImplementedError


_REGISTRY: dict[str, type[OutputFormat]] = {}


def register(cls: type[OutputFormat]) -> type[OutputFormat]:
    """Class decorator: add a format to the registry (in definition order).  Raises ``TypeError`` for a
    name already registered, or a pattern that does not start with ``{slug}.`` or has a dot-separated piece
    with more than one placeholder or an unknown one (:func:`_matches` reads patterns piece by piece)."""
    if cls.name in _REGISTRY:
        raise TypeError(f"output format {cls.name!r} is registered twice")
    if not filenames.readable(cls.pattern):
        raise TypeError(f"output format {cls.name!r}: pattern {cls.pattern!r} is not one owns() can read")
    _REGISTRY[cls.name] = cls
    return cls


def formats() -> list[OutputFormat]:
    """One instance of every registered format, in registration order."""
    return [cls() for cls in _REGISTRY.values()]


def owned_by(slug: str, name: str) -> bool:
    """Whether a file ``name`` (no folder) is one some format writes for the spec named ``slug``."""
    return format_of(slug, name) is not None


def format_of(slug: str, name: str) -> type[OutputFormat] | None:
    """The format that writes a file ``name`` (no folder) for the spec named ``slug``, or ``None``."""
    return next((cls for cls in _REGISTRY.values() if cls.owns(slug, name)), None)


def groups() -> dict[str, bool]:
    """Every format group, in registration order, with whether it is optional (``{"svg": False, ...}``)."""
    found: dict[str, bool] = {}
    for cls in _REGISTRY.values():
        found.setdefault(cls.group_name(), cls.optional)
    return found


def selected(extra: Collection[str]) -> Callable[[OutputFormat], bool]:
    """A ``chosen`` filter for :func:`render_outputs`: every format of a group that is not optional,
    and those of the optional groups named in ``extra`` (``{"frames", "png"}``)."""
    return lambda fmt: not fmt.optional or fmt.group_name() in extra


@register
class AnimatedSvg(OutputFormat):
    """The animated SVG of a scenario: CSS keyframes, no script, works in ``<img>``."""

    name = "svg"
    pattern = "{slug}.{scenario}.svg"
    summary = "animated SVG per scenario"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.svg``: the drawing with every step's keyframes."""
        from mechdiagram.render.svg import svg_document

        return svg_document(job.drawings[scenario.id].animated)


@register
class PosterSvg(OutputFormat):
    """The poster still of a scenario, for print, slides and readers who asked for reduced motion."""

    name = "poster"
    group = "svg"
    pattern = "{slug}.{scenario}.poster.svg"
    summary = "still poster SVG per scenario"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.poster.svg``: frame 0, without keyframes."""
        from mechdiagram.render.svg import svg_document

        return svg_document(job.drawings[scenario.id].stills[0])


@register
class DarkSvg(OutputFormat):
    """The animated SVG in dark colours, for ``<picture>``'s ``prefers-color-scheme: dark`` source."""

    name = "svg-dark"
    group = "svg"
    pattern = "{slug}.{scenario}.dark.svg"
    summary = "animated SVG per scenario, dark colours"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.dark.svg``: the animated SVG with the dark palette."""
        from mechdiagram.render.svg import svg_document

        return svg_document(job.drawings[scenario.id].dark)


@register
class PosterDarkSvg(OutputFormat):
    """The poster still in dark colours."""

    name = "poster-dark"
    group = "svg"
    pattern = "{slug}.{scenario}.poster.dark.svg"
    summary = "still poster SVG per scenario, dark colours"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.poster.dark.svg``: the poster with the dark palette."""
        from mechdiagram.render.svg import svg_document

        return svg_document(job.drawings[scenario.id].dark_stills[0])


@register
class NarrowSvg(OutputFormat):
    """The animated SVG laid out for a phone-wide ``<img>``: one column of boxes, so that its text stays
    at 12 CSS px or more in a 330 px wide image (a README, a phone)."""

    name = "svg-narrow"
    group = "svg"
    pattern = "{slug}.{scenario}.narrow.svg"
    summary = "animated SVG per scenario, narrow layout"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.narrow.svg``."""
        from mechdiagram.render.svg import svg_document

        return svg_document(job.narrow[scenario.id].animated)


@register
class NarrowDarkSvg(OutputFormat):
    """The narrow animated SVG in dark colours."""

    name = "svg-narrow-dark"
    group = "svg"
    pattern = "{slug}.{scenario}.narrow.dark.svg"
    summary = "animated SVG per scenario, narrow layout, dark colours"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.narrow.dark.svg``."""
        from mechdiagram.render.svg import svg_document

        return svg_document(job.narrow[scenario.id].dark)


@register
class NarrowPosterSvg(OutputFormat):
    """The poster still in the narrow layout: the gallery page's thumbnail where a card is too narrow for the
    wide poster's text to stay at 12 CSS px."""

    name = "poster-narrow"
    group = "svg"
    pattern = "{slug}.{scenario}.narrow.poster.svg"
    summary = "still poster SVG per scenario, narrow layout"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.narrow.poster.svg``: frame 0 of the narrow layout, without keyframes."""
        from mechdiagram.render.svg import svg_document

        return svg_document(job.narrow[scenario.id].stills[0])


@register
class NarrowPosterDarkSvg(OutputFormat):
    """The narrow poster still in dark colours."""

    name = "poster-narrow-dark"
    group = "svg"
    pattern = "{slug}.{scenario}.narrow.poster.dark.svg"
    summary = "still poster SVG per scenario, narrow layout, dark colours"

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.narrow.poster.dark.svg``: the narrow poster with the dark palette."""
        from mechdiagram.render.svg import svg_document

        return svg_document(job.narrow[scenario.id].dark_stills[0])


@register
class FrameSvg(OutputFormat):
    """The still of each step, for print, slides and social cards (``--frames``)."""

    name = "frames"
    pattern = "{slug}.{scenario}.frame-{step}.svg"
    summary = "still SVG of each step"
    optional = True
    reads_steps = True

    def render_step(self, job: RenderJob, scenario: Scenario, step: int) -> bytes:
        """``NAME.SCENARIO.frame-K.svg``: the poster's drawing frozen at step K, the step in its title."""
        from mechdiagram.render.svg import svg_document

        return svg_document(job.drawings[scenario.id].stills[step])


@register
class PosterPng(OutputFormat):
    """The poster as a PNG, for places that take no SVG (``--png``)."""

    name = "poster-png"
    group = "png"
    pattern = "{slug}.{scenario}.poster.png"
    summary = "poster PNG per scenario"
    optional = True
    rasterised = True

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.poster.png``: the poster still rasterised (:mod:`mechdiagram.render.raster`)."""
        return job.pictures[(scenario.id, 0)]


@register
class FramePng(OutputFormat):
    """Each step's still as a PNG (``--png``)."""

    name = "frame-png"
    group = "png"
    pattern = "{slug}.{scenario}.frame-{step}.png"
    summary = "PNG of each step"
    optional = True
    reads_steps = True
    rasterised = True

    def render_step(self, job: RenderJob, scenario: Scenario, step: int) -> bytes:
        """``NAME.SCENARIO.frame-K.png``: step K's still rasterised."""
        return job.pictures[(scenario.id, step)]


@register
class AnimatedGif(OutputFormat):
    """The scenario as an animated GIF, each step held for its duration, looping (``--gif``)."""

    name = "gif"
    pattern = "{slug}.{scenario}.gif"
    summary = "animated GIF per scenario"
    optional = True
    reads_steps = True
    rasterised = True

    def render_scenario(self, job: RenderJob, scenario: Scenario) -> bytes:
        """``NAME.SCENARIO.gif``: step stills 1 to N, each for its ``duration`` (see
        :func:`mechdiagram.render.raster.gif`)."""
        from mechdiagram.render.raster import gif

        return gif([job.pictures[(scenario.id, k)] for k in range(1, len(scenario.steps) + 1)],
                   [step.duration for step in scenario.steps])


@register
class Page(OutputFormat):
    """The standalone HTML page: figure, step player, transcript, limitations and sources."""

    name = "page"
    group = "html"
    pattern = "{slug}.html"
    summary = "standalone HTML page"

    def render_spec(self, job: RenderJob) -> bytes:
        """``NAME.html``, UTF-8."""
        from mechdiagram.render.html import render_page

        return render_page(job.figure).encode("utf-8")


@register
class Fragment(OutputFormat):
    """The embeddable HTML fragment: the page's figure without the document around it."""

    name = "fragment"
    group = "html"
    pattern = "{slug}.fragment.html"
    summary = "embeddable HTML fragment"

    def render_spec(self, job: RenderJob) -> bytes:
        """``NAME.fragment.html``, UTF-8."""
        from mechdiagram.render.html import render_fragment

        return render_fragment(job.figure).encode("utf-8")


def render_outputs(spec: Spec, slug: str, checks: Sequence[SourceCheck],
                   chosen: Callable[[OutputFormat], bool] | None = None,
                   diagram: Diagram | None = None, narrow: Diagram | None = None,
                   embedding: Embedding | None = None, middle: Middle | None = None) -> dict[str, bytes]:
    """Every file of one valid spec, by file name: per scenario the per-scenario (and per-step) formats'
    files, then the per-spec formats' files, each in registration order.  ``chosen`` filters the formats
    (default: those not optional, :func:`selected`); ``diagram``, ``narrow`` and ``middle`` are the spec's laid-out
    figure, wide, narrow and in its middle layout, when validation computed them already; ``embedding`` how a site
    embeds the HTML figure.
    Raises :class:`~mechdiagram.shared.errors.RasterError` for a picture format without the ``raster`` extra."""
    chosen = chosen or selected(())
    active = [fmt for fmt in formats() if chosen(fmt)]
    job = RenderJob(spec, slug, checks, diagram, narrow, step_stills=any(fmt.reads_steps for fmt in active),
                    embedding=embedding or Embedding(), middle_layout=middle)
    outputs: dict[str, bytes] = {}
    for scenario in spec.scenarios:
        for fmt in active:
            if fmt.per_step():
                for step in range(1, len(scenario.steps) + 1):
                    outputs[fmt.file_name(slug, scenario.id, step)] = fmt.render_step(job, scenario, step)
            elif fmt.per_scenario():
                outputs[fmt.file_name(slug, scenario.id)] = fmt.render_scenario(job, scenario)
    for fmt in active:
        if not fmt.per_scenario():
            outputs[fmt.file_name(slug)] = fmt.render_spec(job)
    return outputs
