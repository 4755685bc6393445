"""ELK Layered as the reference for crossings (issue 27): the same graph, with our boxes' sizes, laid out by a
pinned elkjs from the npm registry (run with node; skipped, saying why, when node, npm or the registry is not
there).  Ours draws no more crossings than ELK's, and none where ELK draws none.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from mechdiagram.layout import diagram
from mechdiagram.layout.geometry import Arrow
from mechdiagram.layout.route_rules import crossing_count
from mechdiagram.shared.model import spec_from_data
from support.edge_topologies import edge_topologies
from support.specs import MECHANISMS
from support.topologies import topologies

#: The elkjs release the reference runs.
ELKJS_VERSION = "0.9.3"
SCRIPT = Path(__file__).with_name("elk") / "layered.mjs"

#: Layered figures (no lane grid: ELK has no lanes) of the gallery and the generated topologies.
FIGURES = {name: data for name, data in (topologies() | edge_topologies()).items()
           if name not in ("grid-skips", "long-lane-names", "lanes-with-skips")}
FIGURES |= {p.name.removesuffix(".mechanism.json"): json.loads(p.read_text("utf-8"))
            for p in sorted(MECHANISMS.glob("*.mechanism.json"))
            if p.name in ("serving-stack.mechanism.json", "web-worker.mechanism.json")}

@pytest.fixture(scope="module")
def elkjs() -> Path:
    """The folder holding the pinned elkjs (installed once into the checkout's ``build/elkjs``, which git ignores;
    ``make test`` runs pytest without its cache plugin)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to run the ELK Layered reference (elkjs)")
    root = Path(__file__).resolve().parents[2]
    folder = root / "build" / "elkjs"
    done = subprocess.run([str(root / "scripts" / "npm-install"), str(folder), "elkjs", ELKJS_VERSION],
                          capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        pytest.skip(f"could not install elkjs {ELKJS_VERSION} from the npm registry: {done.stderr.strip()[-300:]}")
    return folder / "node_modules"


def elk_crossings(elkjs: Path, drawn, spec) -> int:
    """How often ELK Layered's orthogonal routes of ``spec``'s paths cross, with the boxes' sizes of ``drawn``."""
    nodes = [{"id": key, "width": box.w, "height": box.h} for key, box in drawn.boxes.items()]
    edges = [{"id": p.key, "source": p.source, "target": p.dest} for p in spec.paths
             if p.source in drawn.boxes and p.dest in drawn.boxes and p.source != p.dest]
    graph = {"direction": "DOWN" if drawn.direction == "down" else "RIGHT", "nodes": nodes, "edges": edges}
    node = shutil.which("node") or "node"
    done = subprocess.run([node, str(SCRIPT)], input=json.dumps(graph), capture_output=True, text=True,
                          timeout=60, check=True, env={"ELKJS_DIR": str(elkjs), "PATH": ""})
    routes = json.loads(done.stdout)
    arrows = {}
    for key, points in routes.items():
        line = tuple((round(x, 1), round(y, 1)) for x, y in points)
        arrows[key] = Arrow(key, line[:-1] or line, (line[-1], line[-1], line[-1]))
    return crossing_count(arrows)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_no_more_crossings_than_elk_layered(name, elkjs):
    spec = spec_from_data(FIGURES[name])
    drawn = diagram(spec)
    ours, theirs = crossing_count(drawn.arrows), elk_crossings(elkjs, drawn, spec)
    assert ours <= theirs, (name, ours, theirs)
    if theirs == 0:
        assert ours == 0, name
