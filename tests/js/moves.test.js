// How the domains whose tree nodes are named by their moves write a node and a path (generic.js's namedByMoves):
// a board's moves run together as the puzzle's notation writes them (RDDR), a map's moves stand apart (N NE), a root
// is named by the side it was searched from.
import assert from "node:assert/strict";
import { test } from "node:test";
import { genericDomain } from "../../app/static/js/step/generic.js";
import { grid } from "../../app/static/js/step/grid.js";
import { tiles } from "../../app/static/js/step/tiles.js";
import { actionsTo, answer } from "./support.js";

const chain = (actions, side = "forward") => [
  { parent: null, side },
  ...actions.map((action, k) => ({ parent: k, action, side })),
];

test("a board's path runs its moves together, a map's keeps them apart, a generic one writes each as JSON", () => {
  assert.equal(tiles.pathText(chain(["R", "D", "D", "R"]), false), "RDDR");
  assert.equal(grid.pathText(chain(["N", "NE"]), false), "N NE");
  assert.equal(genericDomain("jugs", "Water jugs").pathText(chain([[1, 0], "pour"]), false), "[1,0] pour");
});

test("a root is the start, or the goal when it was searched from there; any other node is its move", () => {
  for (const domain of [tiles, grid]) {
    assert.equal(domain.label({ parent: null, side: "forward" }), "start");
    assert.equal(domain.label({ parent: null, side: "backward" }), "goal");
    assert.equal(domain.pathText(chain([]), true), "goal");
    assert.equal(domain.label({ parent: 0, action: "NW" }), "NW");
  }
});

test("bidirectional search's two roots are named by their sides and each node by the move that made it", () => {
  const trace = answer("tiles-astar-bidirectional").traces[1];
  const roots = trace.nodes.filter((node) => node.parent === null);
  assert.deepEqual(roots.map((node) => tiles.label(node)).sort(), ["goal", "start"]);
  trace.nodes.forEach((node, id) => {
    if (node.parent !== null) assert.equal(tiles.label(node), actionsTo(trace.nodes, id).at(-1));
  });
});
