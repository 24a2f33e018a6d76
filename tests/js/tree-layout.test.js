// Where the search tree's nodes go (app/static/js/step/tree-layout.js): no two nodes of one depth on top of each
// other, each parent over its children, and every node the search touched either drawn or counted in a fold.
import assert from "node:assert/strict";
import { test } from "node:test";
import graph from "../../app/static/js/step/graph.js";
import { Replay } from "../../app/static/js/step/replay.js";
import { tiles } from "../../app/static/js/step/tiles.js";
import { COLLAPSE_AT, placeColumns, visibleTree } from "../../app/static/js/step/tree-layout.js";
import { answer } from "./support.js";

const CASES = [
  ["tiles-bfs-idastar", tiles],
  ["tiles-astar-bidirectional", tiles],
  ["tiles-bfs-eight", tiles],
  ["romania-astar-dfs", graph],
];

// a label's columns as tree.js measures them: 8.5 px a letter and 8 px of margin, in columns 48 px wide
const labelColumns = (domain, nodes) => (id) => Math.max(1, (String(domain.label(nodes[id])).length * 8.5 + 8) / 48);

function checkLayout(replay, domain, where, opened = new Set()) {
  const { kids, folded } = visibleTree(replay, opened, null);
  const columns = labelColumns(domain, replay.nodes);
  const { x } = placeColumns(replay.roots, replay.nodes, kids, columns);
  assert.deepEqual(new Set(x.keys()), new Set(kids.keys()), where);
  // a node's label spans its columns around its centre, x + 1/2; along one depth no two spans overlap
  const rows = new Map();
  x.forEach((left, id) => {
    const depth = replay.nodes[id].depth,
      half = columns(id) / 2;
    if (!rows.has(depth)) rows.set(depth, []);
    rows.get(depth).push([left + 0.5 - half, left + 0.5 + half, id]);
  });
  rows.forEach((spans, depth) => {
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) {
      assert.ok(
        spans[i][0] >= spans[i - 1][1] - 1e-9,
        `${where}: depth ${depth}, nodes ${spans[i - 1][2]} and ${spans[i][2]} overlap`,
      );
    }
  });
  kids.forEach((children, id) => {
    if (!children.length) return;
    const [first, last] = [x.get(children[0]), x.get(children.at(-1))];
    assert.ok(first - 1e-9 <= x.get(id) && x.get(id) <= last + 1e-9, `${where}: ${id} over its children`);
    children.forEach((child) => assert.equal(replay.nodes[child].parent, id));
  });
  return { kids, folded };
}

for (const [name, domain] of CASES) {
  for (const trace of answer(name).traces) {
    test(`${name}: ${trace.algorithm}'s tree keeps its nodes apart at every step`, () => {
      const replay = new Replay(trace);
      for (let k = 0; k <= trace.steps.length; k++) {
        replay.goTo(k);
        checkLayout(replay, domain, `step ${k}`);
      }
    });
  }
}

test("a tree past the fold is drawn or counted, node for node, with the current path drawn", () => {
  const trace = answer("tiles-bfs-eight").traces[0];
  const replay = new Replay(trace);
  replay.goTo(trace.steps.length);
  assert.ok(replay.status.size > COLLAPSE_AT);
  const { kids, folded } = checkLayout(replay, tiles, "the end");
  const counted = [...folded.values()].reduce((sum, n) => sum + n, 0);
  assert.ok(counted > 0);
  assert.equal(kids.size + counted, replay.status.size);
  for (let a = replay.currentId; a !== null; a = replay.nodes[a].parent) assert.ok(kids.has(a), `${a} is drawn`);
});

test("opening a folded node draws its children, and the tree still keeps them apart", () => {
  const trace = answer("tiles-bfs-eight").traces[0];
  const replay = new Replay(trace);
  replay.goTo(trace.steps.length);
  const { folded, kids } = visibleTree(replay, new Set(), null);
  const closed = [...folded.keys()].find((id) => kids.get(id).length === 0);
  const opened = checkLayout(replay, tiles, "opened", new Set([closed]));
  assert.deepEqual(
    opened.kids.get(closed),
    replay.children[closed].filter((c) => replay.status.has(c)),
  );
});

test("a parent whose label is wider than its children's keeps it clear of its neighbour's", () => {
  // node 1's label (2.65 columns) is wider than its two children (1 and 1.5) side by side; its neighbours are leaves
  const node = (id, parent, depth) => ({ id, parent, depth });
  const nodes = [node(0, null, 0), node(1, 0, 1), node(2, 1, 2), node(3, 1, 2), node(4, 0, 1), node(5, 0, 1)];
  const kids = new Map([
    [0, [4, 1, 5]],
    [1, [2, 3]],
    [2, []],
    [3, []],
    [4, []],
    [5, []],
  ]);
  const widths = { 0: 1, 1: 2.65, 2: 1, 3: 1.5, 4: 1, 5: 1 };
  const { x } = placeColumns([0], nodes, kids, (id) => widths[id]);
  const span = (id) => [x.get(id) + 0.5 - widths[id] / 2, x.get(id) + 0.5 + widths[id] / 2];
  assert.ok(span(1)[0] >= span(4)[1] - 1e-9, `node 4 ends at ${span(4)[1]}, node 1 starts at ${span(1)[0]}`);
  assert.ok(span(5)[0] >= span(1)[1] - 1e-9, `node 1 ends at ${span(1)[1]}, node 5 starts at ${span(5)[0]}`);
});
