"""Property-based: for any input, the CLI ends in findings (exit 1) or in well-formed output (exit 0).

Inputs are random bytes and text, random JSON, near-JSON (a valid spec's text with random edits) and
mutated specs (keys deleted, values replaced by random JSON, text replaced by control characters,
markup or lone surrogates, references pointed at random names).  No exception may escape
``renderer.cli.main`` (CliRunner with ``catch_exceptions=False``), every finding line must have the
``FILE[:LINE:COLUMN]: error: ... [rule]`` form, and when the exit status is 0 every SVG parses as XML
and no HTML holds an element or attribute the plain build does not.
"""

from __future__ import annotations

import copy
import json
import re
import tempfile
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from support.specs import minimal_spec
from renderer.cli import main
from renderer.load import parse_text
from renderer.validate import _unclosed_bidi, _visible

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FINDING = re.compile(r"^.+?(?::\d+:\d+)?: (error|warning|info): .* \[[A-Za-z-]+\]$")
SUMMARY = re.compile(r"^mechdiagram: \d+ of \d+ spec\(s\) ")
HOSTILE = ["<script>alert(1)</script>", "</script>", "</style>", "]]>", "&amp;", "\"'", "<!--", "\x07", "\x1b[31m",
           "\x00", "\x7f", "\x9b", "\ud800", "\udfff", "\ufffe", "\u202e", "e\u0301", "\u05e9\u05dc\u05d5\u05dd",
           "\u6f22\u5b57", "\U0001F600", "W" * 600, "", " ", "\n", "\t", "a0", "ab", "stage", "main", "t-a0"]

texts = st.one_of(st.text(max_size=40), st.sampled_from(HOSTILE),
                  st.lists(st.sampled_from(HOSTILE), min_size=1, max_size=4).map("".join))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**7),
                    st.floats(allow_nan=False, allow_infinity=False), texts)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)), max_leaves=12)


def _paths(node, prefix=()):
    yield prefix, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, prefix + (index,))


def _parent(spec, path):
    for token in path[:-1]:
        spec = spec[token]
    return spec


@st.composite
def mutated_specs(draw) -> dict:
    """The minimal spec with one to three random mutations."""
    spec = minimal_spec()
    for _ in range(draw(st.integers(1, 3))):
        places = list(_paths(spec))
        path, value = draw(st.sampled_from(places))
        operation = draw(st.sampled_from(["delete", "replace", "text", "reference", "add-key"]))
        if not path:
            if operation == "add-key":
                spec[draw(texts)] = draw(json_values)
            continue
        parent = _parent(spec, path)
        if operation == "delete":
            del parent[path[-1]]
        elif operation == "replace":
            parent[path[-1]] = draw(json_values)
        elif operation == "text":
            parent[path[-1]] = draw(texts)
        elif operation == "reference":
            names = list(spec.get("targets", {})) if isinstance(spec.get("targets"), dict) else []
            parent[path[-1]] = draw(st.sampled_from(names + ["zz", "a9", "ab", "stage"]))
        elif isinstance(value, dict):
            value[draw(texts)] = draw(json_values)
    return spec


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes.update(name for name, _ in attrs)
        self.scripts += tag == "script"


def _html_inventory(text: str) -> _Tags:
    parser = _Tags()
    parser.feed(text)
    parser.close()
    return parser


def _run(data: bytes, fmt: str = "text"):
    """Build ``data`` as a spec in a fresh folder; check the outcome; return (exit code, output folder files)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        spec = root / "fuzz.mechanism.json"
        spec.write_bytes(data)
        result = CliRunner().invoke(main, ["build", "--allow-missing-sources", "--source-root", folder, "-o",
                                           str(root / "out"), "--format", fmt, str(spec)], catch_exceptions=False)
        assert result.exit_code in (0, 1), result.output
        if fmt == "json":
            document = json.loads(result.stdout)
            assert document["summary"]["exit"] == result.exit_code
            errors = [f for f in document["findings"] if f["severity"] == "error"]
            for finding in document["findings"]:
                assert isinstance(finding["message"], str) and finding["message"]
                assert finding["line"] is None or finding["line"] >= 1
        else:
            lines = result.stderr.splitlines()
            assert lines and SUMMARY.match(lines[-1]), result.stderr
            for line in lines[:-1]:
                assert FINDING.match(line), line
            errors = [line for line in lines[:-1] if ": error: " in line]
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]", result.output)
        out = root / "out"
        produced = {p.name: p.read_bytes() for p in out.iterdir()} if out.is_dir() else {}
        if result.exit_code == 1:
            assert errors
            assert not [name for name in produced if name.startswith("fuzz.")]
        else:
            assert not errors
            _check_outputs(produced)
        return result.exit_code, produced


_BASELINE: dict[str, set[str]] = {}


def _baseline() -> dict[str, set[str]]:
    """Tags and attributes of the plain build (two scenarios, so the scenario picker is included)."""
    if not _BASELINE:
        spec = minimal_spec()
        spec["scenarios"].append(dict(copy.deepcopy(spec["scenarios"][0]), id="other"))
        spec["layout"] = {"lanes": [{"key": "a", "label": "A"}, "b"]}
        spec["sources"] = [{"path": "x.md", "description": "d"}]
        spec["targets"]["a0"]["label"] = "a label long enough to wrap over several lines of its box"
        _, produced = _run(json.dumps(spec).encode())
        page = _html_inventory(produced["fuzz.html"].decode())
        _BASELINE.update(tags=page.tags, attributes=page.attributes)
    return _BASELINE


def _check_outputs(produced: dict[str, bytes]) -> None:
    svgs = [name for name in produced if name.endswith(".svg")]
    assert svgs
    for name in svgs:
        root = ET.fromstring(produced[name])
        assert not [e for e in root.iter() if e.tag.endswith("}script") or any(a.startswith("on") for a in e.attrib)]
    json.loads(produced["manifest.json"])
    if _BASELINE:
        for name in ("fuzz.html", "fuzz.fragment.html"):
            page = _html_inventory(produced[name].decode("utf-8"))
            assert page.tags <= _BASELINE["tags"], page.tags - _BASELINE["tags"]
            assert page.attributes <= _BASELINE["attributes"]
            assert page.scripts == 2


def test_the_plain_spec_builds():
    assert _baseline()["tags"] >= {"figure", "svg", "script", "select", "tspan"}


@SETTINGS
@given(mutated_specs(), st.sampled_from(["text", "json"]), st.booleans())
def test_mutated_specs_give_findings_or_good_output(spec, fmt, ascii_only):
    _baseline()
    try:
        data = json.dumps(spec, ensure_ascii=ascii_only, indent=2).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate cannot be written raw; the escaped form is tried instead
        data = json.dumps(spec, ensure_ascii=True, indent=2).encode("utf-8")
    _run(data, fmt)


@SETTINGS
@given(json_values, st.sampled_from(["text", "json"]))
def test_random_json_is_refused_cleanly(value, fmt):
    code, _ = _run(json.dumps(value).encode(), fmt)
    assert code == 1


@SETTINGS
@given(st.binary(max_size=200))
def test_random_bytes_are_refused_cleanly(data):
    code, _ = _run(data)
    assert code == 1


@SETTINGS
@given(st.data())
def test_near_json_is_refused_or_built_cleanly(data):
    """A valid spec's text with a few random edits: deleted ranges, inserted characters, swapped bytes."""
    text = bytearray(json.dumps(minimal_spec(), indent=2).encode())
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text) - 1))
        edit = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        if edit == "delete":
            del text[at:at + data.draw(st.integers(1, 20))]
        else:
            chunk = data.draw(st.one_of(st.binary(min_size=1, max_size=4),
                                        st.sampled_from([b"{", b"}", b"[", b"]", b'"', b",", b":", b"\\", b"NaN",
                                                         b"1e999", b"\xef\xbb\xbf", b"\\ud800", b"\\u0007"])))
            text[at:at + (len(chunk) if edit == "replace" else 0)] = chunk
        if not text:
            break
    _run(bytes(text))


@SETTINGS
@given(st.binary(max_size=300))
def test_parse_text_never_raises_on_bytes(data):
    spec = parse_text(data, "x")
    assert spec.ok or spec.findings
    for finding in spec.findings:
        assert finding.line is None or finding.line >= 1
        assert finding.column is None or finding.column >= 1


@SETTINGS
@given(st.text(max_size=300))
def test_parse_text_never_raises_on_text(text):
    spec = parse_text(text.encode("utf-8", "surrogatepass"), "x")
    assert spec.ok or spec.findings


@SETTINGS
@given(json_values.filter(lambda v: isinstance(v, (dict, list))), st.sampled_from([None, 0, 1, 2, "\t"]),
       st.booleans())
def test_every_pointer_is_located_at_its_value(value, indent, ascii_only):
    """The locator maps every JSON Pointer of a document to the place its value starts (and keys to keys)."""
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assume("\ud800" not in text or ascii_only)
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:
        return
    spec = parse_text(raw, "x")
    lines = spec.text.split("\n")
    value = json.loads(text)  # as parsed: two lone surrogates in a row decode to one character
    for path, node in _paths(value):
        pointer = "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in path)
        line, column = spec.locate(pointer)
        rest = "\n".join([lines[line - 1][column - 1:]] + lines[line:])
        found, _ = json.JSONDecoder().raw_decode(rest)
        assert found == node or (node != node and found != found), pointer
        if path and isinstance(path[-1], str):
            line, column = spec.locate(pointer, key=True)
            key, _ = json.JSONDecoder().raw_decode(lines[line - 1][column - 1:])
            assert key == path[-1]


#: Text that the schema accepts: any printable character (markup, quotes, RTL, CJK, emoji, combining marks).
safe_text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Co", "Cn")), min_size=1, max_size=80).filter(
    lambda t: any(_visible(c) for c in t) and not _unclosed_bidi(t)) | st.sampled_from(
    [h for h in HOSTILE if re.search(r"\S", h) and not re.search("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe]", h)
     and len(h) <= 500 and not _unclosed_bidi(h) and any(_visible(c) for c in h)])
keys = st.from_regex(r"\A[a-z][a-z0-9_]{0,6}\Z")


@st.composite
def valid_specs(draw) -> dict:
    """Specs built to pass validation: grid or flow layouts, paths between nodes, valid references."""
    grid = draw(st.booleans())
    count = draw(st.integers(1, 12))
    if grid:
        lanes = draw(st.lists(st.from_regex(r"\A[a-z]{1,4}\Z"), min_size=1, max_size=4, unique=True))
        node_keys = list(dict.fromkeys(f"{draw(st.sampled_from(lanes))}{draw(st.integers(0, 6))}"
                                       for _ in range(count)))
    else:
        node_keys = draw(st.lists(keys.filter(lambda k: not k[-1].isdigit()), min_size=1, max_size=count,
                                  unique=True))
    targets = {k: {"id": f"n{i}", "kind": "node", "label": draw(safe_text)} for i, k in enumerate(node_keys)}
    path_keys = []
    for i in range(draw(st.integers(0, 6)) if len(node_keys) > 1 else 0):
        key = f"p_{i}"
        source = draw(st.sampled_from(node_keys))
        targets[key] = {"id": f"p{i}", "kind": "path", "from": source,
                        "to": draw(st.sampled_from([k for k in node_keys if k != source]))}
        if draw(st.booleans()):
            targets[key]["label"] = draw(safe_text)
        path_keys.append(key)
    labels = {f"row{i}": draw(safe_text) for i in range(draw(st.integers(0, 3)))}
    scenarios = []
    for s in range(draw(st.integers(1, 3))):
        steps = [{"title": draw(safe_text), "duration": draw(st.integers(334, 600000)),
                  "active": draw(st.lists(st.sampled_from(node_keys), unique=True, max_size=4)),
                  "paths": draw(st.lists(st.sampled_from(path_keys), unique=True, max_size=3)) if path_keys else [],
                  "state": {k: draw(safe_text) for k in labels if draw(st.booleans())}}
                 for _ in range(draw(st.integers(1, 5)))]
        scenarios.append({"id": f"s{s}", "title": draw(safe_text), "steps": steps,
                          "unselected": draw(st.lists(st.sampled_from(list(targets)), unique=True, max_size=3))})
    spec = {"version": 1, "language": draw(st.sampled_from(["en", "ar", "he", "ja", "pt-BR"])),
            "title": draw(safe_text), "description": draw(safe_text), "caption": draw(safe_text),
            "alt": draw(safe_text), "limitations": draw(st.lists(safe_text, max_size=2)),
            "sources": [{"path": draw(st.from_regex(r"\A[\w<>&\"' -]{1,12}(/[\w.<>&-]{1,12}){0,2}\Z")),
                         "description": draw(safe_text)}],
            "targets": targets, "stateLabels": labels, "scenarios": scenarios}
    if grid and draw(st.booleans()):
        spec["layout"] = {"lanes": [{"key": lane, "label": draw(safe_text)} if draw(st.booleans()) else lane
                                    for lane in dict.fromkeys(k.rstrip("0123456789") for k in node_keys)]}
    return spec


@SETTINGS
@given(valid_specs())
def test_generated_valid_specs_render_well_formed_output(spec):
    _baseline()
    code, produced = _run(json.dumps(spec, ensure_ascii=False).encode("utf-8"))
    assert code == 0
    assert len([n for n in produced if n.endswith(".svg")]) == 2 * len(spec["scenarios"])


plain_keys = st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_]{0,5}\Z")
plain_json = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text("abc <>&\"\\é", max_size=5)),
                          lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(plain_keys, inner, max_size=3)),
                          max_leaves=10)


def _walk(value, pointer=""):
    yield pointer, value, None
    if isinstance(value, dict):
        for key, item in value.items():
            token = key.replace("~", "~0").replace("/", "~1")
            for inner in _walk(item, f"{pointer}/{token}"):
                yield inner if inner[0] != f"{pointer}/{token}" else (inner[0], inner[1], key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{pointer}/{index}")


@SETTINGS
@given(plain_json, st.sampled_from([None, 0, 2, "\t"]), st.booleans())
def test_spans_cut_out_each_value_and_key(value, indent, ascii_only):
    """``LoadedSpec.span`` (one iterative pass) gives, for every JSON Pointer, the offsets of exactly
    that value's text and of its key: the slices parse back to the same value and key.
    ``mechdiagram hash --write`` edits the text through these offsets."""
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    loaded = parse_text(text.encode(), "x")
    for pointer, item, key in _walk(value):
        start, end, key_start = loaded.span(pointer)
        assert json.loads(text[start:end]) == item
        if key is None:
            assert key_start is None
        else:
            assert json.decoder.scanstring(text, key_start + 1)[0] == key


@SETTINGS
@given(st.one_of(valid_specs(), plain_json))
def test_fast_schema_check_agrees_with_jsonschema(value):
    """The jsonschema-rs fast path says "valid" exactly when jsonschema finds no error."""
    from renderer.validate import _validator, schema_is_valid

    verdict = schema_is_valid(value)
    assume(verdict is not None)  # None: jsonschema-rs could not take the value (a lone surrogate)
    assert verdict == (not any(True for _ in _validator().iter_errors(value)))


def test_fast_schema_check_agrees_on_the_negative_corpus():
    from renderer.load import load_spec
    from renderer.validate import _validator, schema_is_valid

    cases = sorted((Path(__file__).parent / "validate" / "cases" / "negative").glob("*.mechanism.json"))
    assert cases
    for case in cases:
        loaded = load_spec(case)
        verdict = schema_is_valid(loaded.data) if loaded.data is not None else None
        if verdict is None:  # did not parse, or jsonschema-rs cannot take it (a lone surrogate)
            continue
        assert verdict == (not any(True for _ in _validator().iter_errors(loaded.data))), case.name
