// The replay (app/static/js/step/replay.js) of searches the engine recorded: it ends where the engine's answer ends,
// and what it shows at each step is what the engine did next.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Replay } from "../../app/static/js/step/replay.js";
import { actionsTo, answer, slide } from "./support.js";

const TILES = ["tiles-bfs-idastar", "tiles-astar-bidirectional", "tiles-bfs-eight"];
const GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0];

for (const name of TILES) {
  for (const trace of answer(name).traces) {
    test(`${name}: ${trace.algorithm} replayed to its end stands on the goal board`, () => {
      const data = answer(name);
      const replay = new Replay(trace);
      replay.goTo(trace.steps.length);
      assert.ok(replay.done && replay.solved);
      // the answer's moves, slid here on the start board, reach the goal
      assert.deepEqual(slide(data.start, data.cols, trace.result.moves), GOAL);
      assert.deepEqual(data.goal, GOAL);
      // the tree's solution path runs from the start board to the goal board one slide at a time
      const forward = [...replay.solutionPath()].filter((id) => trace.nodes[id].side === "forward");
      const end = forward.find((id) => !forward.some((other) => trace.nodes[other].parent === id));
      const actions = actionsTo(trace.nodes, end).join("");
      assert.deepEqual(replay.chain(end)[0].state, data.start);
      assert.deepEqual(trace.nodes[end].state, slide(data.start, data.cols, actions));
      assert.ok(trace.result.moves.startsWith(actions));
      if (!trace.steps.at(-1).meets) assert.deepEqual(trace.nodes[end].state, GOAL);
      assert.equal(replay.shownCounts().expanded, trace.result.nodes_expanded);
    });
  }
}

test("breadth-first search's expanded nodes are as many as the engine counted", () => {
  const trace = answer("tiles-bfs-eight").traces[0];
  const replay = new Replay(trace);
  replay.goTo(trace.steps.length);
  const expanded = [...replay.status.values()].filter((s) => s === "expanded").length;
  assert.equal(expanded, trace.result.nodes_expanded);
  assert.equal(trace.result.moves, "URDLURRD");
});

test("IDA* starts each iteration from the root and ends with the bound at the optimal length", () => {
  const trace = answer("tiles-bfs-idastar").traces[1];
  assert.equal(trace.algorithm, "idastar");
  const replay = new Replay(trace);
  let bounds = 0;
  trace.steps.forEach((step, k) => {
    replay.goTo(k + 1);
    if (step.event !== "bound") return;
    bounds++;
    assert.deepEqual(
      [...replay.status],
      replay.roots.map((root) => [root, "frontier"]),
    );
  });
  assert.ok(bounds >= 1);
  // RDDR: four moves, and Manhattan distance is exact on this board, so the first bound is the last
  assert.equal(replay.bound, 4);
  assert.equal(trace.result.cost, 4);
});

test("the frontier's first node is the node each search expands next", () => {
  for (const [name, index] of [
    ["tiles-bfs-idastar", 0],
    ["tiles-astar-bidirectional", 0],
    ["tiles-bfs-eight", 0],
  ]) {
    const trace = answer(name).traces[index];
    const replay = new Replay(trace);
    trace.steps.forEach((step, k) => {
      replay.goTo(k);
      if (step.event === "expand") assert.equal(replay.frontierIds()[0], step.node, `${name} step ${k + 1}`);
    });
  }
});

test("the breadth-first queue holds the waiting nodes in the order they were generated", () => {
  const trace = answer("tiles-bfs-eight").traces[0];
  const replay = new Replay(trace);
  const queue = [...replay.roots];
  trace.steps.forEach((step, k) => {
    if (step.event === "expand") queue.splice(queue.indexOf(step.node), 1);
    if (step.event === "generate") queue.push(step.node);
    if (step.event === "goal") queue.splice(queue.indexOf(step.node), 1);
    replay.goTo(k + 1);
    if (step.event !== "goal") assert.deepEqual(replay.frontierIds(), queue, `step ${k + 1}`);
  });
});

test("going back to a step shows what going forward to it showed", () => {
  const trace = answer("tiles-astar-bidirectional").traces[1];
  const forward = new Replay(trace),
    back = new Replay(trace);
  back.goTo(trace.steps.length);
  for (let k = trace.steps.length; k >= 0; k--) {
    forward.reset();
    forward.goTo(k);
    back.goTo(k);
    assert.deepEqual([...back.status], [...forward.status]);
    assert.deepEqual(back.shownCounts(), forward.shownCounts());
    assert.equal(back.currentId, forward.currentId);
  }
});
