"""A spec in the reference format, generated in code.

The reference format is what authors write today: 18 node targets keyed
``<lane><index>`` in three lanes (``work``, ``out``, ``kv``) by six columns,
listed column by column; two state rows; one scenario of seven steps of
3000 ms each; provenance sources, two pinned by SHA-256 and one unpinned;
no ``layout`` block.  The wording is this project's own.

Import it from a test module with ``from support.reference_spec import ...``.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

LANES = ("work", "out", "kv")
COLUMNS = 6
STEP_MS = 3000

#: The visible label of every target, by lane, column by column.
LABELS = {
    "work": ["queue", "prefill", "feed token 1", "feed token 2", "feed token 3", "finish"],
    "out": ["nothing yet", "first token", "token 2", "token 3", "token 4", "stream ends"],
    "kv": ["request metadata", "write prompt K/V", "append + read", "append + read", "append + read",
           "Release request references"],
}

#: (title, description, active keys, stage, artifact) of the seven steps.
STEPS = [
    ("Wait for a slot", "The request sits in the admission queue.",
     ["work0", "out0", "kv0"], "Queued", "Only request metadata exists."),
    ("Prefill the prompt", "Every prompt position passes through the model at once.",
     ["work1", "kv1"], "Prefill", "Keys and values of the prompt are cached."),
    ("Sample the first token", "The last prompt position yields the first token.",
     ["out1"], "First token", "Token 1 can be streamed right away."),
    ("Decode pass 1", "Token 1 goes back in and token 2 comes out.",
     ["work2", "out2", "kv2"], "Decode 1", "The cache grows by one position."),
    ("Decode pass 2", "Token 2 goes back in and token 3 comes out.",
     ["work3", "out3", "kv3"], "Decode 2", "The cache grows by one more position."),
    ("Decode pass 3", "Token 3 goes back in and token 4 comes out.",
     ["work4", "out4", "kv4"], "Decode 3", "Still growing, one position per pass."),
    ("Finish and release", "The stream ends and the request gives its cache pages back.",
     ["work5", "out5", "kv5"], "Done", "Pages return to the pool."),
]

#: Sources as the reference format lists them: two pinned, one unpinned.  The
#: digests are placeholders; :func:`write_sources` creates the files and pins them.
SOURCES = [
    {"path": "notes/article.md", "sha256": "0" * 64, "description": "The article the figure explains."},
    {"path": "notes/old-figure.svg", "sha256": "1" * 64, "description": "The still figure this one replaces."},
    {"path": "notes/provenance.json", "description": "Where the earlier figures came from."},
]

SOURCE_TEXT = {
    "notes/article.md": "# Prefill and decode\n\nA request is prefilled once, then decoded token by token.\n",
    "notes/old-figure.svg": '<svg xmlns="http://www.w3.org/2000/svg"><title>old</title></svg>\n',
    "notes/provenance.json": '{"figures": []}\n',
}


def target_keys() -> list[str]:
    """The 18 target keys in file order: column by column, lanes ``work``, ``out``, ``kv``."""
    return [f"{lane}{column}" for column in range(COLUMNS) for lane in LANES]


def reference_spec() -> dict:
    """A fresh reference-format spec (see the module docstring)."""
    targets = {}
    for column in range(COLUMNS):
        for lane in LANES:
            key = f"{lane}{column}"
            targets[key] = {"id": f"ref-{key}", "kind": "node", "label": LABELS[lane][column]}
    steps = [{
        "title": title,
        "description": description,
        "duration": STEP_MS,
        "active": list(active),
        "paths": [],
        "state": {"stage": stage, "artifact": artifact},
    } for title, description, active, stage, artifact in STEPS]
    return {
        "version": 1,
        "language": "en",
        "title": "A request goes through prefill, then decode",
        "description": "One request is queued, prefilled in a single pass, and then decoded one token per pass.",
        "caption": "The first token comes from prefill’s last position; later tokens each need a decode pass. "
                   "Step lengths are chosen for reading, not measured.",
        "alt": "Three lanes (work, output, cache) over six columns, from queueing to release of the cache.",
        "sources": copy.deepcopy(SOURCES),
        "limitations": ["Timing in the animation is illustrative only."],
        "targets": targets,
        "stateLabels": {"stage": "Stage", "artifact": "Artifact"},
        "scenarios": [{
            "id": "one-request",
            "title": "One request from queue to release",
            "description": "The request follows the usual path.",
            "initial": {"stage": "Not admitted", "artifact": "The prompt"},
            "unselected": [],
            "steps": steps,
        }],
    }


def dumps(spec: dict) -> str:
    """The spec as an author's file: two-space indent, UTF-8 characters kept, final newline."""
    return json.dumps(spec, indent=2, ensure_ascii=False) + "\n"


def write_sources(root: Path, spec: dict | None = None) -> dict[str, str]:
    """Create the :data:`SOURCES` files under ``root``; pin ``spec``'s pinned sources to them.

    Returns the hex SHA-256 of each file by path.
    """
    digests = {}
    for relpath, text in SOURCE_TEXT.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        digests[relpath] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if spec is not None:
        for source in spec.get("sources", []):
            if "sha256" in source and source["path"] in digests:
                source["sha256"] = digests[source["path"]]
    return digests


def write_reference(folder: Path, name: str = "reference", *, spec: dict | None = None,
                    sources: bool = True) -> Path:
    """Write ``<folder>/<name>.mechanism.json`` (and, with ``sources``, its pinned source files
    under ``folder``, which is then the source root).  Returns the spec's path."""
    spec = reference_spec() if spec is None else spec
    folder.mkdir(parents=True, exist_ok=True)
    if sources:
        write_sources(folder, spec)
    path = folder / f"{name}.mechanism.json"
    path.write_text(dumps(spec), encoding="utf-8")
    return path
