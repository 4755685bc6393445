"""Hypothesis strategies: hostile text, random JSON, mutated specs, specs built to be valid, plain JSON."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from mechdiagram.spec.validate.text import unclosed_bidi, visible
from support.specs import minimal_spec

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HOSTILE = ["<script>alert(1)</script>", "</script>", "</style>", "]]>", "&amp;", "\"'", "<!--", "\x07", "\x1b[31m",
           "\x00", "\x7f", "\x9b", "\ud800", "\udfff", "\ufffe", "\u202e", "e\u0301", "\u05e9\u05dc\u05d5\u05dd",
           "\u6f22\u5b57", "\U0001F600", "W" * 600, "", " ", "\n", "\t", "a0", "ab", "stage", "main", "t-a0"]

texts = st.one_of(st.text(max_size=40), st.sampled_from(HOSTILE),
                  st.lists(st.sampled_from(HOSTILE), min_size=1, max_size=4).map("".join))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**7),
                    st.floats(allow_nan=False, allow_infinity=False), texts)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)), max_leaves=12)


def paths(node, prefix=()):
    """(path, value) of ``node`` and of everything inside it; a path is a tuple of keys and indexes."""
    yield prefix, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths(value, prefix + (index,))


def _parent(spec, path):
    for token in path[:-1]:
        spec = spec[token]
    return spec


@st.composite
def mutated_specs(draw) -> dict:
    """The minimal spec with one to three random mutations."""
    spec = minimal_spec()
    for _ in range(draw(st.integers(1, 3))):
        places = list(paths(spec))
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


#: Text that the schema accepts: any printable character (markup, quotes, RTL, CJK, emoji, combining marks).
safe_text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Co", "Cn")), min_size=1, max_size=80).filter(
    lambda t: any(visible(c) for c in t) and not unclosed_bidi(t)) | st.sampled_from(
    [h for h in HOSTILE if re.search(r"\S", h) and not re.search("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe]", h)
     and len(h) <= 500 and not unclosed_bidi(h) and any(visible(c) for c in h)])
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
            # Path segments never "." or ".." (a folder's, or out of the source root: refused by the rules).
            "sources": [{"path": draw(st.from_regex(r"\A[\w<>&\"' -]{1,12}(/[\w<>&-][\w.<>&-]{0,11}){0,2}\Z")),
                         "description": draw(safe_text)}],
            "targets": targets, "stateLabels": labels, "scenarios": scenarios}
    if grid and draw(st.booleans()):
        spec["layout"] = {"lanes": [{"key": lane, "label": draw(safe_text)} if draw(st.booleans()) else lane
                                    for lane in dict.fromkeys(k.rstrip("0123456789") for k in node_keys)]}
    return spec


plain_keys = st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_]{0,5}\Z")
plain_json = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text("abc <>&\"\\é", max_size=5)),
                          lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(plain_keys, inner, max_size=3)),
                          max_leaves=10)
