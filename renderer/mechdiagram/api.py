"""The Python API: build one spec into its files in memory, for site generators and preview servers.

:func:`render_spec` runs the same stages as ``mechdiagram build`` (the CLI's
builds go through it) without writing anything::

    from pathlib import Path
    from mechdiagram.api import render_spec

    rendered = render_spec(Path("mechanisms/queue.mechanism.json"))
    for finding in rendered.findings:
        print(finding.as_dict())
    if rendered.ok:
        for name, data in rendered.files.items():
            Path("site/figures", name).write_bytes(data)
"""

from __future__ import annotations

import contextlib
import os
import traceback
from collections.abc import Collection, Iterator
from pathlib import Path

import msgspec
from msgspec import Struct, field

from mechdiagram.layout import Diagram
from mechdiagram.layout.checks import LaidOut, lay_out
from mechdiagram.render.figure import FigureRecord, figure_record
from mechdiagram.render.job import Middle
from mechdiagram.render.outputs import groups, render_outputs, selected
from mechdiagram.shared.config import Embedding, Project, spec_project
from mechdiagram.shared.errors import TemplateError, UsageError
from mechdiagram.shared.files import display_path
from mechdiagram.shared.findings import Finding, capped, sorted_findings
from mechdiagram.shared.model import Spec
from mechdiagram.spec.discovery import slug_for
from mechdiagram.spec.load import LoadedSpec, load_spec
from mechdiagram.spec.provenance import SourceCheck, check_sources
from mechdiagram.spec.validate import check_spec


class RenderedSpec(Struct):
    """One spec built in memory.

    ``files`` maps an output file name (``NAME.SCENARIO.svg``, ``NAME.html``…, no folder) to its bytes,
    empty when the spec failed or was only validated; ``findings`` are every problem found, sorted
    (:class:`~mechdiagram.shared.findings.Finding`); ``checks`` each source's verification; ``slug`` the spec's
    output name; ``loaded`` the file as read; ``figure`` the gallery page's record of it.
    """

    loaded: LoadedSpec
    slug: str
    findings: list[Finding] = field(default_factory=list)
    checks: list[SourceCheck] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    figure: FigureRecord | None = None  # what the gallery page shows of it (mechdiagram.site.gallery)

    @property
    def ok(self) -> bool:
        """True when no finding is an error (warnings allowed)."""
        return not any(f.is_error for f in self.findings)


def render_spec(path: Path | str, *, source_root: Path | str | None = None, allow_missing_sources: bool | None = None,
                template_dir: Path | str | None = None, render: bool = True, project: Project | None = None,
                extra_formats: Collection[str] = (), embedding: Embedding | None = None,
                scenario: str | None = None) -> RenderedSpec:
    """Load, validate, verify the sources of, lay out (a valid spec) and (when ``render`` and the spec passed)
    render the spec at ``path``: each stage once, in that order.

    ``source_root`` is the folder source paths are relative to (default: the spec's project's, see
    :func:`mechdiagram.shared.config.spec_project`, or ``project`` when the caller looked it up already);
    ``allow_missing_sources`` reports a missing source file as unverified instead of failing
    (default: the project's setting, else no);
    ``template_dir`` is a folder of jinja2 templates found before the package's own (trusted code);
    ``extra_formats`` names the optional format groups to render too (``{"frames", "png", "gif"}``);
    ``embedding`` says where the fragment finds the player's files and which colour-mode switches of a site the
    figure follows (:class:`~mechdiagram.shared.config.Embedding`; write the files of :func:`render_player` where
    its ``player_url`` leads);
    ``scenario`` (a scenario ``id``) draws that scenario alone, under the output name ``SLUG-SCENARIO`` so that its
    files never overwrite the whole figure's in one folder; a valid spec without it gets an ``unknown-scenario``
    finding at ``/scenarios``.
    Bad input never raises: it is in :attr:`RenderedSpec.findings`.  Raises
    :class:`~mechdiagram.shared.errors.TemplateError` when a template of ``template_dir`` fails, and
    :class:`~mechdiagram.shared.errors.RenderError` or :class:`~mechdiagram.shared.errors.TimelineError` only for a spec
    the validator accepted but the drawing cannot take (a bug), and :class:`~mechdiagram.shared.errors.UsageError` when
    ``template_dir`` is not a folder, or for an argument of the wrong kind (a path holding NUL, ``extra_formats``
    that is not a collection of optional group names, ``project`` that is not a ``Project``, ``embedding`` that is not
    an ``Embedding``).  ``path``,
    ``source_root`` and ``template_dir`` may be strings.
    """
    path = _path_argument("path", path)
    source_root = _path_argument("source_root", source_root) if source_root is not None else None
    templates, embedded = _site_arguments(template_dir, embedding)
    if allow_missing_sources is not None and not isinstance(allow_missing_sources, bool):
        raise UsageError(f"allow_missing_sources must be True, False or None, not {allow_missing_sources!r}")
    if project is not None and not isinstance(project, Project):
        raise UsageError(f"project must be a mechdiagram.shared.config.Project or None, not {type(project).__name__}")
    if isinstance(extra_formats, str) or not isinstance(extra_formats, Collection) or \
            not all(isinstance(name, str) for name in extra_formats):
        raise UsageError(f"extra_formats must be a collection of format group names, not {extra_formats!r}")
    optional = [name for name, is_optional in groups().items() if is_optional]
    unknown = sorted(name for name in extra_formats if name not in optional)
    if unknown:
        raise UsageError(f"extra_formats names unknown format group {unknown[0]!r}; the optional groups are "
                         + ", ".join(optional))
    loaded = load_spec(path, display_path(path))
    rendered = RenderedSpec(loaded, slug_for(path), list(loaded.findings))
    if not loaded.ok:
        return rendered
    validation = check_spec(loaded)
    spec = validation.spec
    if scenario is not None and validation.spec is not None:
        spec = _scenario_alone(validation.spec, scenario)
        if spec is None:
            rendered.findings.append(_unknown_scenario(loaded, validation.spec, scenario))
            return rendered
        rendered.slug = slug_for(Path(f"{rendered.slug}-{scenario}.mechanism.json"))
    if source_root is None or allow_missing_sources is None:
        project = project or spec_project(path)
    root = source_root if source_root is not None else project.source_root if project else Path(".")
    allow = next((a for a in (allow_missing_sources, project.allow_missing_sources if project else None)
                  if a is not None), False)
    # Sources are checked even when the rest of the spec has errors, so that every problem shows at once.
    rendered.checks, source_findings = check_sources(
        loaded, [source for _, source in validation.sources], root,
        allow_missing=allow, indexes=[index for index, _ in validation.sources])
    # The layout stage, on a valid spec (also when only validating: its findings are the author's to see).
    laid_out = lay_out(loaded, spec) if spec is not None else LaidOut([])
    rendered.findings.extend(capped(sorted_findings(validation.findings + laid_out.findings + source_findings)))
    if rendered.ok and render and spec is not None and laid_out.wide is not None:
        job = (spec, rendered.slug, rendered.checks, frozenset(extra_formats), laid_out.wide,
               laid_out.narrow, Middle(laid_out.middle), templates, loaded.display, embedded)
        if templates is None:
            rendered.files, rendered.figure = _render(*job)
        else:  # a site's templates: under a time and memory limit, in a child process
            from mechdiagram.render.confined import run_confined  # only such a build starts one

            what = f"the templates of {display_path(templates)} (while rendering {loaded.display})"
            rendered.files, rendered.figure = run_confined(_render, job, what)
    return rendered


def _render(spec: Spec, slug: str, checks: list[SourceCheck], extra_formats: frozenset[str], wide: Diagram,
            narrow: Diagram | None, middle: Middle, template_dir: Path | None, display: str,
            embedding: Embedding) -> tuple[dict[str, bytes], FigureRecord]:
    """The rendering stage for one valid spec: its output files (name -> bytes) in the formats that are not
    optional and those of the groups in ``extra_formats`` (the layouts ``wide``, ``narrow`` and ``middle`` as
    validation laid them out), and its gallery record, with the templates of
    ``template_dir`` when given and the figure embedded as ``embedding`` says.  Raises
    :class:`~mechdiagram.shared.errors.TemplateError` as :func:`_template_errors` says (``display`` names the
    spec in the message)."""
    with _template_errors(template_dir, display):
        return (render_outputs(spec, slug, checks, selected(extra_formats), wide, narrow, embedding, middle),
                figure_record(spec, wide))


def _scenario_alone(spec: Spec, scenario: str) -> Spec | None:
    """``spec`` with the scenario whose ``id`` is ``scenario`` alone, or ``None`` when it has none of that id."""
    chosen = tuple(s for s in spec.scenarios if s.id == scenario)
    return msgspec.structs.replace(spec, scenarios=chosen) if chosen else None


def _unknown_scenario(loaded: LoadedSpec, spec: Spec, scenario: str) -> Finding:
    """The finding, located at ``/scenarios``, that ``spec`` has no scenario ``scenario`` (a page or a caller
    asked for it)."""
    line, column = loaded.locate("/scenarios")
    return Finding(loaded.display, "/scenarios",
                   f"the page asks for scenario {scenario!r}, which the spec does not have: name one of "
                   + ", ".join(s.id for s in spec.scenarios), "unknown-scenario", line=line, column=column)


def render_player(*, template_dir: Path | str | None = None, embedding: Embedding | None = None) -> dict[str, bytes]:
    """The player's files, by name: the ES module that defines ``<mech-diagram>`` and its style sheet, under
    the content-hashed names (``mechdiagram-player.HASH.js`` and ``.css``) that the fragments which
    :func:`render_spec` renders with the same ``template_dir`` and ``embedding`` load from ``embedding``'s
    player URL.  A build writes them to its output folder; a site that serves them elsewhere writes them there.
    Raises :class:`~mechdiagram.shared.errors.TemplateError` when ``player.css`` of ``template_dir`` fails (run under
    the limits :func:`render_spec` sets a site's templates), and :class:`~mechdiagram.shared.errors.UsageError` for an
    argument of the wrong kind or a ``template_dir`` that is not a folder."""
    templates, embedded = _site_arguments(template_dir, embedding)
    if templates is None:
        return _player(None, embedded)
    from mechdiagram.render.confined import run_confined

    return run_confined(_player, (templates, embedded),
                        f"the templates of {display_path(templates)} (while rendering the player)")


def _site_arguments(template_dir: object, embedding: object) -> tuple[Path | None, Embedding]:
    """``template_dir`` as a :class:`~pathlib.Path` (or ``None``) and ``embedding`` (``None``: the default
    :class:`~mechdiagram.shared.config.Embedding`), as :func:`render_spec` and :func:`render_player` take them.
    Raises :class:`~mechdiagram.shared.errors.UsageError` for an argument of the wrong kind or a ``template_dir``
    that is not a folder."""
    folder = _path_argument("template_dir", template_dir) if template_dir is not None else None
    if embedding is not None and not isinstance(embedding, Embedding):
        raise UsageError(f"embedding must be a mechdiagram.shared.config.Embedding or None, not "
                         f"{type(embedding).__name__}")
    if folder is not None and not folder.is_dir():
        raise UsageError(f"template folder {display_path(folder)} is not a folder")
    return folder, embedding or Embedding()


def _player(template_dir: Path | None, embedding: Embedding) -> dict[str, bytes]:
    """:func:`render_player`'s files, rendered here."""
    from mechdiagram.render.html import player_files

    with _template_errors(template_dir, "the player"):
        return player_files(embedding).files()


@contextlib.contextmanager
def _template_errors(template_dir: Path | None, display: str) -> Iterator[None]:
    """Within the ``with`` block, templates come from ``template_dir`` first, and their failures become
    :class:`~mechdiagram.shared.errors.TemplateError`, naming the template and its line and saying what was being
    rendered (``display``).  A failure outside a site's templates is ours and passes as it is."""
    import jinja2  # rendering loads it anyway; validating never does, nor the drawing stages

    from mechdiagram.render.templating import template_dir as using_templates

    try:
        with using_templates(template_dir):
            yield
    except UnicodeDecodeError as exc:  # jinja2 reads templates as UTF-8 and says nothing of which one
        where = _undecodable(template_dir) if template_dir else "a template of mechdiagram"
        raise TemplateError(f"{where} is not UTF-8 ({exc.reason} at byte {exc.start}) "
                            f"(while rendering {display})") from exc
    except UnicodeEncodeError as exc:  # a template wrote a lone surrogate ("%c"|format(55296)), which UTF-8 has not
        if template_dir is None:
            raise  # not a site's template: a bug of ours, which the caller reports as one
        raise TemplateError(f"a template of {display_path(template_dir)} wrote {exc.object[exc.start:exc.end]!r}, "
                            f"which is not text UTF-8 can write ({exc.reason}) (while rendering {display})") from exc
    except jinja2.TemplateNotFound as exc:  # an include or extends of a name the folder does not have
        where, at = _template_frame(exc)
        raise TemplateError(f"{where}{f':{at}' if at else ''}: no template {exc.name!r} in the template "
                            f"folder (while rendering {display})") from exc
    except jinja2.TemplateError as exc:
        named: str | None = getattr(exc, "filename", None) or getattr(exc, "name", None)
        line: int | None = getattr(exc, "lineno", None)
        # An error while rendering (an undefined name) has no place of its own: the template's frame has it.
        where, line = (named, line) if named is not None else _template_frame(exc)
        # no frame: a loader's error, whose message names its template
        place = f"{where}{f':{line}' if line else ''}: " if named is not None or line is not None else ""
        raise TemplateError(f"{place}{exc.message or type(exc).__name__} (while rendering {display})") from exc
    except Exception as exc:  # a site's template's mistake (1/0, a loop of includes, a range past the sandbox's)
        where, line = _template_frame(exc) if template_dir is not None else ("", None)
        if line is None:
            raise  # not in a site's template: a bug of ours, which the caller reports as one
        detail = ("ran out of the memory a site's templates may use (mechdiagram.render.confined)"
                  if isinstance(exc, MemoryError) else f"{type(exc).__name__}: {exc}")
        raise TemplateError(f"{where}:{line}: {detail} (while rendering {display})") from exc


def _undecodable(folder: Path) -> str:
    """The first template file under ``folder`` that is not UTF-8, displayed; else the folder's description."""
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        try:
            path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            return display_path(path)
        except OSError:
            continue
    return f"a template of {display_path(folder)}"


def _path_argument(name: str, value: object) -> Path:
    """``value`` as a :class:`~pathlib.Path`; raises :class:`~mechdiagram.shared.errors.UsageError` for anything but a
    ``str`` or an ``os.PathLike`` of one, and for a path with a NUL character (which no file system takes)."""
    text = os.fspath(value) if isinstance(value, (str, os.PathLike)) else None
    if not isinstance(text, str):
        raise UsageError(f"{name} must be a path or a string, not {type(value).__name__}")
    path = Path(text)
    if "\0" in str(path):
        raise UsageError(f"{name} {str(path)!r} holds a NUL character, which no file name may")
    return path


def _template_frame(exc: BaseException) -> tuple[str, int | None]:
    """The template file and line where rendering raised ``exc``: jinja2 rewrites the traceback of a
    rendering error so that each template's frame carries its file name and template line.  ``("a
    template", None)`` when no frame is a template's."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.endswith(".py")
              and not f.filename.startswith("<")]
    return (display_path(Path(frames[-1].filename)), frames[-1].lineno) if frames else ("a template", None)


__all__ = ["RenderedSpec", "render_player", "render_spec"]
