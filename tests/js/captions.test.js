// The step-through's words (app/static/js/step/captions.js) on recorded searches: each caption names the node the
// trace says, in the figures a textbook prints.
import assert from "node:assert/strict";
import { test } from "node:test";
import { figure, Words } from "../../app/static/js/step/captions.js";
import graph from "../../app/static/js/step/graph.js";
import { Replay } from "../../app/static/js/step/replay.js";
import { tiles } from "../../app/static/js/step/tiles.js";
import { actionsTo, answer } from "./support.js";

function spoken(data, index, domain) {
  const trace = data.traces[index];
  const replay = new Replay(trace);
  return { trace, replay, words: new Words(replay, domain, domain.problem(data)) };
}

test("a figure keeps at most three decimals, without the binary rounding of a sum", () => {
  assert.equal(figure(0.1 + 0.2), "0.3");
  assert.equal(figure(418), "418");
  assert.equal(figure(2.5), "2.5");
  assert.equal(figure(1 / 3), "0.333");
  assert.equal(figure(null), "—");
});

test("A* on Romania expands the cities in the textbook's order, each with its g, h and f", () => {
  const { trace, replay, words } = spoken(answer("romania-astar-dfs"), 0, graph);
  assert.equal(trace.algorithm, "astar");
  const expanded = [];
  trace.steps.forEach((step, k) => {
    replay.goTo(k + 1);
    if (step.event === "expand") expanded.push(words.caption());
  });
  // AIMA, Figure 3.24: Arad (f 366), Sibiu (393 = 140 + 253), Rimnicu Vilcea (413), Fagaras (415), Pitesti (417)
  assert.deepEqual(expanded, [
    "Expand Arad (g 0 · h 366 · f 366).",
    "Expand Arad → Sibiu (g 140 · h 253 · f 393).",
    "Expand Arad → Sibiu → Rimnicu Vilcea (g 220 · h 193 · f 413).",
    "Expand Arad → Sibiu → Fagaras (g 239 · h 176 · f 415).",
    "Expand Arad → Sibiu → Rimnicu Vilcea → Pitesti (g 317 · h 100 · f 417).",
  ]);
  assert.equal(
    words.caption().split(" expanded")[0],
    "Done: 4 edges costing 418 (Arad → Sibiu → Rimnicu Vilcea → Pitesti → Bucharest), 5",
  );
  assert.match(words.caption(), /The cheapest path\.$/);
});

test("every caption of breadth-first search names the node of its step by the moves that reach it", () => {
  const { trace, replay, words } = spoken(answer("tiles-bfs-idastar"), 0, tiles);
  const verbs = { expand: "Expand", generate: "Generate", duplicate: "Skip", goal: "Goal reached:" };
  trace.steps.forEach((step, k) => {
    replay.goTo(k + 1);
    if (replay.done) return; // the last step's caption is the search's end, below
    const moves = actionsTo(trace.nodes, step.node).join("") || "start";
    assert.ok(words.caption().startsWith(`${verbs[step.event]} ${moves}`), `step ${k + 1}: ${words.caption()}`);
  });
  assert.equal(words.caption(), "Done: 4 moves (RDDR), 12 expanded, 35 generated. A shortest path.");
});

test("IDA*'s first bound is h of the start, the Manhattan distance counted by hand", () => {
  const { trace, replay, words } = spoken(answer("tiles-bfs-idastar"), 1, tiles);
  assert.equal(words.caption(), "Ready: the start node is on the frontier. Step forward to expand it.");
  replay.goTo(trace.steps.findIndex((step) => step.event === "bound") + 1);
  // 0 1 3/4 2 6/7 5 8: tiles 1, 2, 5 and 8 are each one square from home
  assert.equal(words.caption(), "Iteration 1: f bound 4 = h(start), since no path can cost less than h says.");
});

test("a clicked node's explanation says what happened to it", () => {
  const { trace, replay, words } = spoken(answer("romania-astar-dfs"), 0, graph);
  replay.goTo(trace.steps.length);
  const named = (city, status) => trace.nodes.find((n) => n.state === city && replay.status.get(n.id) === status).id;
  assert.equal(words.why(named("Bucharest", "goal")), "The goal: the search stops here and returns this path.");
  assert.match(
    words.why(named("Sibiu", "expanded")),
    /^Expanded at step \d+: its f = 393 was the least on the frontier\.$/,
  );
  // Timisoara (118 + 329 = 447) and Zerind (75 + 374 = 449) wait ahead of Bucharest by way of Fagaras (239 + 211)
  assert.equal(
    words.why(named("Bucharest", "frontier")),
    "Waiting: its f = 450, but 2 nodes on the frontier come first (the next has f = 447).",
  );
  assert.equal(words.statusText(named("Arad", "expanded")), "expanded");
});
