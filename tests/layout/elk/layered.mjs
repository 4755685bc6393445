// ELK Layered (elkjs) as the crossing-count reference of tests/layout/test_elk_reference.py: reads a graph
// ({direction, nodes: [{id, width, height}], edges: [{id, source, target}]}) on stdin, writes each edge's
// orthogonal route ({id: [[x, y], ...]}) on stdout.
import { createRequire } from "node:module";

const require = createRequire(process.env.ELKJS_DIR + "/");
const ELK = require("elkjs/lib/elk.bundled.js");

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", async () => {
  const graph = JSON.parse(input);
  const elk = new ELK();
  const laid = await elk.layout({
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": graph.direction,
      "elk.edgeRouting": "ORTHOGONAL",
      "elk.layered.crossingMinimization.strategy": "LAYER_SWEEP",
    },
    children: graph.nodes,
    edges: graph.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  const routes = {};
  for (const edge of laid.edges) {
    const section = edge.sections[0];
    routes[edge.id] = [section.startPoint, ...(section.bendPoints || []), section.endPoint].map((p) => [p.x, p.y]);
  }
  process.stdout.write(JSON.stringify(routes));
});
