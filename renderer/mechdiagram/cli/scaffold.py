"""``mechdiagram new NAME``, ``mechdiagram schema`` and ``mechdiagram templates``: a spec to start from, the
schema for editors, and copies of the templates to start a ``--template-dir`` from.

:func:`plan_new` checks the name and works out the files; :func:`write_new` writes the notes
source (``NAME.notes.md``) and then the spec (``NAME.mechanism.json``) that pins the notes'
SHA-256, both from package templates, neither over an existing file.  The spec's ``$schema``
points by a relative path at the project's copy of the schema (see :func:`find_schema_copy`), or
at the schema's ``$id`` when the project has none.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

from msgspec import Struct

from mechdiagram.shared.assets import SITE_TEMPLATES, schema, schema_text, template_bytes
from mechdiagram.shared.errors import OutputError, OutputExistsError, UsageError
from mechdiagram.shared.files import display_named, display_path, is_link, sha256_hex, write_file
from mechdiagram.shared.views import GRAPH, SEQUENCE
from mechdiagram.site.collisions import RESERVED_SLUG

SPEC_SUFFIX = ".mechanism.json"
NOTES_SUFFIX = ".notes.md"
#: The schema's file name, for ``mechdiagram schema -o DIR`` and the search for a project's copy.
SCHEMA_FILE = "mechanism.schema.json"
#: Where a project keeps its copy of the schema, relative to each folder searched.
SCHEMA_PLACES = (SCHEMA_FILE, f"schema/{SCHEMA_FILE}")

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
#: The template ``new`` writes for each kind of spec (``--view``): a lane grid (``None``), a layered graph with a
#: group (:data:`~mechdiagram.shared.views.GRAPH`) or a sequence (:data:`~mechdiagram.shared.views.SEQUENCE`).
STARTERS = {None: "new.mechanism.json", GRAPH: "new.graph.mechanism.json", SEQUENCE: "new.sequence.mechanism.json"}


class NewSpec(Struct, frozen=True):
    """What ``new`` writes: the spec and notes files, the notes' path as the spec declares it
    (relative to the source root, ``/`` separators) and the spec's ``$schema`` value.

    ``schema_copy`` is the project's copy of the schema that ``schema_ref`` points at, or ``None``
    when there is none and ``schema_ref`` is the schema's ``$id``; ``view`` the kind of spec, a key of
    :data:`STARTERS` (``None``: a lane grid).
    """

    name: str
    spec: Path
    notes: Path
    notes_source: str
    schema_ref: str
    schema_copy: Path | None
    view: str | None = None  # "graph" or "sequence": the kind of spec (STARTERS), None a lane grid
    title: str = ""  # the spec's title ("": NAME's words, the first capitalised)


def _is_our_schema(path: Path) -> bool:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and data.get("$id") == schema()["$id"]


def find_schema_copy(folder: Path, top: Path) -> Path | None:
    """The nearest copy of the mechanism schema for a spec in ``folder``, or ``None``.

    Looks in ``folder`` and each parent up to ``top`` (the project's folder, included; only
    ``folder`` itself when it is not under ``top``) for ``mechanism.schema.json`` or
    ``schema/mechanism.schema.json`` whose ``$id`` is this schema's.
    """
    return next((candidate for candidate in _schema_places(folder, top) if _is_our_schema(candidate)), None)


def foreign_schema_file(folder: Path, top: Path) -> Path | None:
    """The nearest file where :func:`find_schema_copy` looks that is not the mechanism schema (an empty ``{}``,
    another tool's schema, one whose ``$id`` is not ours), or ``None``: ``new`` names it rather than saying the
    project has no copy."""
    return next((candidate for candidate in _schema_places(folder, top) if not _is_our_schema(candidate)), None)


def _schema_places(folder: Path, top: Path) -> list[Path]:
    """The files at :data:`SCHEMA_PLACES` in ``folder`` and each parent up to ``top`` (see
    :func:`find_schema_copy`), nearest first."""
    folder, top = folder.resolve(), top.resolve()
    chain = [folder, *folder.parents]
    chain = chain[: chain.index(top) + 1] if top in chain else [folder]
    return [place / relative for place in chain for relative in SCHEMA_PLACES if (place / relative).is_file()]


def schema_copy_is_current(path: Path) -> bool:
    """True when the file at ``path`` holds exactly this mechdiagram's schema."""
    try:
        return path.read_text("utf-8") == schema_text()
    except (OSError, UnicodeDecodeError):
        return False


def _refused(path: Path) -> UsageError:
    shown = display_named(path)  # a link as named, not where it leads
    return UsageError(f"{shown} exists already; new never overwrites a file")


def plan_new(name: str, folder: Path, source_root: Path, project: Path, view: str | None = None,
             title: str | None = None) -> NewSpec:
    """The files ``new NAME`` would write in ``folder``, checked; nothing is written.  ``view`` ``"sequence"``
    writes a sequence spec (``--view sequence``), ``"graph"`` a layered graph (``--view graph``), ``None`` a lane
    grid (:data:`STARTERS`).  ``title`` is the spec's (``--title``;
    ``None``: NAME's words, the first capitalised, "dns-resolution" giving "Dns resolution"); it must be short
    text as the schema's ``shortText`` says (one line with something visible in it, at most 500 characters).

    ``name`` may end with ``.mechanism.json``.  Raises :class:`~mechdiagram.shared.errors.UsageError` for
    a name that is a path (it would leave ``folder``) or not a letter followed by up to 63
    letters, digits, ``-`` or ``_``, or ``index`` (:data:`~mechdiagram.site.collisions.RESERVED_SLUG`); for a
    ``folder`` that is not a folder or not under
    ``source_root`` (the notes must be, to be pinned); and when either file exists already.
    """
    stem = name.removesuffix(SPEC_SUFFIX)
    if "/" in stem or "\\" in stem or stem in (".", ".."):
        raise UsageError(f"NAME {name!r} is a path, which would leave the folder {display_path(folder)}; "
                         "give a plain name and choose the folder with --dir")
    if not _NAME.fullmatch(stem):
        raise UsageError(f"NAME {name!r} must be a letter followed by up to 63 letters, digits, '-' or '_'")
    if stem == RESERVED_SLUG:
        raise UsageError(f"NAME {name!r} would write its page as index.html, the gallery page's name; choose "
                         "another name")
    if title is not None and (not title.strip() or len(title) > TITLE_MAX or not title.isprintable()):
        raise UsageError(f"--title {title!r} must be one line of at most {TITLE_MAX} characters with something "
                         "visible in it")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{display_path(folder)} is not a folder")
    spec, notes = folder / f"{stem}{SPEC_SUFFIX}", folder / f"{stem}{NOTES_SUFFIX}"
    for path in (spec, notes):  # a link there too, dangling or not: never followed, never replaced
        if os.path.lexists(path):
            raise _refused(path)
    try:
        notes_source = notes.resolve().relative_to(source_root.resolve()).as_posix()
    except ValueError:
        raise UsageError(f"{display_path(folder)} is not under the source root {display_path(source_root)}, "
                         "so the spec could not pin its notes; choose --dir or --source-root") from None
    copy = find_schema_copy(folder, project)
    if copy is None:
        schema_ref = str(schema()["$id"])
    else:
        schema_ref = Path(os.path.relpath(copy, folder.resolve())).as_posix()
    return NewSpec(stem, spec, notes, notes_source, schema_ref, copy, view,
                   title if title is not None else _title(stem))


#: The longest title ``--title`` takes: the schema's ``shortText`` ``maxLength``.
TITLE_MAX = int(schema()["$defs"]["shortText"]["maxLength"])


def _title(stem: str) -> str:
    words = re.sub(r"[-_]+", " ", stem).strip()
    return words[:1].upper() + words[1:]


def render_new(plan: NewSpec) -> tuple[bytes, bytes]:
    """The bytes of the notes file and of the spec that pins them (UTF-8, ``\\n`` line ends)."""
    from mechdiagram.render.templating import json_string, markdown_text, template  # jinja2: only `new` needs it

    title = plan.title or _title(plan.name)
    # The title as the notes' Markdown and the spec's JSON each write it (never markup, its apostrophes as typed).
    context = {"title": markdown_text(title), "title_json": json_string(title), "spec_name": display_path(plan.spec)}

    # Each file ends with one line end, as a text file does, whatever the template's last line holds.
    notes = (template("new.notes.md").render(context).rstrip("\n") + "\n").encode("utf-8")
    spec = template(STARTERS[plan.view]).render(
        context, schema_ref=json_string(plan.schema_ref), notes_path=json_string(plan.notes_source),
        notes_sha256=json_string(sha256_hex(notes)))
    return notes, (spec.rstrip("\n") + "\n").encode("utf-8")


def write_new(plan: NewSpec) -> None:
    """Write the notes, then the spec, of ``plan``; neither replaces an existing file.

    Raises :class:`~mechdiagram.shared.errors.UsageError` when a file appeared since :func:`plan_new`
    (the notes written by this call are removed again) and
    :class:`~mechdiagram.shared.errors.OutputError` when a file cannot be written.
    """
    notes, spec = render_new(plan)
    try:
        write_file(plan.notes, notes, overwrite=False)
        try:
            write_file(plan.spec, spec, overwrite=False)
        except OutputError:
            plan.notes.unlink()
            raise
    except OutputExistsError as exc:
        raise _refused(exc.path) from None


def write_schema(path: Path, folder: bool = False) -> tuple[Path, bool, bool]:
    """Write the schema to ``path``, or to ``path/mechanism.schema.json`` when ``path`` is a folder
    or ``folder`` is true (the folder is made when missing).

    The folder is resolved once (it may be a link); the file's own name is never followed: a symbolic link
    there is replaced by a regular file, as ``build`` replaces one among its outputs.  Returns the file,
    whether it changed, and whether a link was replaced (the caller warns).  Raises
    :class:`~mechdiagram.shared.errors.OutputError` when it cannot be written.
    """
    target = path / SCHEMA_FILE if folder or path.is_dir() else path
    target = target.parent.resolve() / target.name
    was_link = is_link(target)
    return target, write_file(target, schema_text().encode("utf-8")), was_link


def write_templates(folder: Path, names: Sequence[str] = ()) -> list[Path]:
    """Copy the package templates ``names`` (default: every one of :data:`~mechdiagram.shared.assets.SITE_TEMPLATES`)
    into ``folder`` (made when missing), to edit there and name with ``--template-dir``; returns the files.

    Nothing is written when a name is not a site template (:class:`~mechdiagram.shared.errors.UsageError`, naming the
    ones there are) or when one of the files exists already (:class:`~mechdiagram.shared.errors.UsageError`, naming
    them all: a template of your own is never replaced).  Raises :class:`~mechdiagram.shared.errors.OutputError` when a
    file cannot be written.
    """
    chosen = list(dict.fromkeys(names)) or list(SITE_TEMPLATES)
    unknown = [name for name in chosen if name not in SITE_TEMPLATES]
    if unknown:
        raise UsageError(f"not a template a site can replace: {', '.join(unknown)}; the templates are "
                         + ", ".join(SITE_TEMPLATES))
    targets = [folder / name for name in chosen]
    # Shown as named, not as a link resolves (a link to a missing file is "there": it would be written through).
    there = [display_named(path) for path in targets if os.path.lexists(path)]
    if there:
        raise UsageError(f"{', '.join(there)} already exist{'s' if len(there) == 1 else ''}: a template of your "
                         "own is never replaced (move it away to copy the built-in one again)")
    for name, target in zip(chosen, targets, strict=True):
        try:
            write_file(target, template_bytes(name), overwrite=False)
        except OutputExistsError as exc:  # appeared meanwhile
            raise UsageError(f"{display_path(exc.path)} exists already: a template of your own is never "
                             "replaced") from None
    return targets
