"""Write docs/spec-format.md from the schema: one table of keys per object shape.

:func:`spec_format` renders the schema's ``title``, ``description``, ``default``, ``examples`` and constraints
through the jinja2 template ``tools/spec-format.md``; the same schema gives the same bytes.  A developer's
tool, not part of the package.  Run after changing schema/mechanism.schema.json;
tests/cli/editors/test_spec_docs.py fails until you do:

    python tools/spec_format.py            # writes docs/spec-format.md
    python tools/spec_format.py OUT.md     # writes elsewhere
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from msgspec import Struct, field

from mechdiagram.shared.assets import schema as packaged_schema
from mechdiagram.shared.files import write_file

TOOLS = Path(__file__).resolve().parent
DEFAULT = TOOLS.parent / "docs" / "spec-format.md"

#: Characters that Markdown would take as markup outside a code span, and HTML's three.
_MARKDOWN_SPECIAL = re.compile(r"([\\*_\[\]|`])")
_HTML_SPECIAL = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def markdown_code(text: str) -> Markup:
    """``text`` as a Markdown code span that also survives a table cell (``|`` escaped)."""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Markup(f"{fence}{pad}{text.replace('|', chr(92) + '|')}{pad}{fence}")


def markdown_text(text: str) -> Markup:
    """Plain ``text`` as Markdown that shows it as written, for a paragraph or a table cell.

    Pairs of backticks stay code spans; elsewhere ``< > &`` become HTML entities and Markdown's
    markup characters (``\\ * _ [ ] | `` and a lone backtick) are backslash-escaped.
    """
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append(str(markdown_code(part[1:-1])))
        else:
            part = _MARKDOWN_SPECIAL.sub(r"\\\1", part)
            out.append("".join(_HTML_SPECIAL.get(c, c) for c in part))
    return Markup("".join(out))


def template(name: str) -> jinja2.Template:
    """The template ``name`` of ``tools/``, rendered as the package's templates are (autoescaped, strict)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TOOLS), autoescape=True, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.filters["markdown_text"] = markdown_text
    env.filters["markdown_code"] = markdown_code
    return env.get_template(name)


Schema = dict[str, Any]


class Row(Struct):
    """One key of an object shape: its name and the Markdown of its table cells."""

    key: str
    kind: Markup
    required: bool
    default: Markup
    description: Markup


class Section(Struct):
    """One object shape: a heading with an anchor, its description, its keys and whether others are allowed."""

    anchor: str
    heading: str
    description: Markup
    closed: bool
    rows: list[Row] = field(default_factory=list)
    notes: list[Markup] = field(default_factory=list)


def _anchor(place: str) -> str:
    """An HTML id for the section of the nested shape at ``place`` (``layout.lanes[] (form 2)``)."""
    words = place.lower().replace("[]", " items").replace("*", " value")
    return "key-" + "-".join("".join(c if c.isalnum() else " " for c in words).split())


def _json(value: Any) -> Markup:
    return markdown_code(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))


class _Writer:
    """Walks the schema once, collecting a :class:`Section` per object shape in document order."""

    def __init__(self, schema: Schema) -> None:
        self.defs: dict[str, Schema] = schema.get("$defs", {})
        self.sections: list[Section] = []

    def link(self, ref: str) -> Markup:
        name = ref.rsplit("/", 1)[-1]
        title = self.defs.get(name, {}).get("title", name)
        return Markup("[{}](#{})").format(markdown_text(title), f"def-{name.lower()}")

    def kind(self, sub: Schema, place: str) -> Markup:
        """The type cell: a link for ``$ref``, the value for ``const``/``enum``, ``array of ...``."""
        if "$ref" in sub:
            return self.link(sub["$ref"])
        if "const" in sub:
            return _json(sub["const"])
        if "enum" in sub:
            return Markup(" or ").join(_json(v) for v in sub["enum"])
        if "oneOf" in sub:
            return Markup(" or ").join(self.kind(b, f"{place} (form {i + 1})") for i, b in enumerate(sub["oneOf"]))
        kind = sub.get("type", "any")
        if kind == "array" and isinstance(sub.get("items"), dict):
            return Markup("array of ") + self.kind(sub["items"], f"{place}[]")
        if kind == "object" and "properties" in sub:
            return self.section(_anchor(place), place, sub)
        if kind == "object" and isinstance(sub.get("additionalProperties"), dict):
            return Markup("object of ") + self.kind(sub["additionalProperties"], f"{place}.*") + Markup(" by key")
        return markdown_text(str(kind))

    def limits(self, sub: Schema) -> list[Markup]:
        """Constraints in words: lengths, ranges, counts, patterns, key shapes."""
        words: list[Markup] = []
        pairs = (("minLength", "maxLength", "characters"), ("minimum", "maximum", ""),
                 ("minItems", "maxItems", "items"), ("minProperties", "maxProperties", "keys"))
        for low, high, unit in pairs:
            lo, hi = sub.get(low), sub.get(high)
            text = (f"{lo} to {hi}" if lo is not None and hi is not None else
                    f"at least {lo}" if lo is not None else f"at most {hi}" if hi is not None else "")
            if text:
                words.append(markdown_text(f"{text} {unit}".strip()))
        if sub.get("uniqueItems"):
            words.append(Markup("no repeats"))
        if "pattern" in sub:
            words.append(Markup("matches ") + markdown_code(sub["pattern"]))
        if isinstance(sub.get("propertyNames"), dict) and "$ref" in sub["propertyNames"]:
            words.append(Markup("keys are ") + self.link(sub["propertyNames"]["$ref"]))
        return words

    def describe(self, sub: Schema) -> Markup:
        """The description cell: description, then constraints and examples."""
        text = markdown_text(sub.get("description", ""))
        limits = self.limits(sub)
        if limits:
            text += Markup(" (") + Markup("; ").join(limits) + Markup(")")
        if "examples" in sub:
            text += Markup(" Examples: ") + Markup(", ").join(_json(e) for e in sub["examples"]) + Markup(".")
        return text

    def section(self, anchor_id: str, heading: str, sub: Schema, description: str | None = None) -> Markup:
        """Add the section of an object shape (its nested shapes after it); return a link to it."""
        found = Section(anchor_id, heading, markdown_text(description if description is not None
                                                           else sub.get("description", "")),
                        sub.get("additionalProperties") is False)
        self.sections.append(found)
        required = set(sub.get("required", []))
        for key, prop in sub.get("properties", {}).items():
            place = f"{heading}.{key}" if heading != "Top level" else key
            default = _json(prop["default"]) if "default" in prop else Markup("")
            found.rows.append(Row(key, self.kind(prop, place), key in required, default, self.describe(prop)))
        for branch in sub.get("allOf", []):
            then = branch.get("then", {})
            condition = branch.get("if", {}).get("properties", {})
            if "$ref" in then and condition:
                key, rule = next(iter(condition.items()))
                found.notes.append(Markup("With {} {}: the keys of {}.").format(
                    markdown_code(key), _json(rule.get("const")), self.link(then["$ref"])))
        return Markup("[object](#{})").format(anchor_id)


def spec_format(schema: Schema | None = None) -> str:
    """The Markdown of ``docs/spec-format.md`` for ``schema`` (default: the packaged schema).

    Top-level keys first, then each nested object shape, then each ``$defs`` entry in file
    order; deterministic (no dates, the schema's own order).
    """
    schema = packaged_schema() if schema is None else schema
    writer = _Writer(schema)
    writer.section("top-level", "Top level", schema, "The keys of a spec file, one JSON object.")
    definitions: list[tuple[str, Markup, Markup]] = []
    for name, sub in writer.defs.items():
        if sub.get("type") == "object" and "properties" in sub:
            writer.section(f"def-{name.lower()}", f"{sub.get('title', name)} (`{name}`)", sub)
            continue
        summary = writer.kind(sub, name) if "type" in sub or "$ref" in sub else Markup("")
        definitions.append((f"def-{name.lower()}", Markup("{} ({})").format(
            markdown_text(sub.get("title", name)), markdown_code(name)), summary + Markup(": ") + writer.describe(sub)))
    return template("spec-format.md").render(
        title=schema.get("title", ""), description=schema.get("description", ""), schema_id=schema.get("$id", ""),
        sections=writer.sections, definitions=definitions)


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else DEFAULT
    changed = write_file(target, spec_format().encode("utf-8"))
    print(f"{target}: {'written' if changed else 'already current'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
