// The words of the step-through: the caption of each step, the line when a search is done, and why a clicked tree
// node was or was not chosen. They read the replay and the algorithm's record (its frontier, priority and cut-off),
// and name states through the problem's domain module (tiles.js, graph.js).
import { plural } from "../common.js";
import { STATUS } from "./replay.js";

// A g, h, f, bound or cost as the screen shows it: sums of decimal costs carry binary rounding (0.1 + 0.2 is
// 0.30000000000000004), so a number keeps at most three decimals and drops trailing zeros. null reads as a dash.
export function figure(value) {
  return value === null || value === undefined ? "—" : String(+(+value).toFixed(3));
}

export class Words {
  constructor(replay, domain, problem) {
    this.replay = replay;
    this.domain = domain;
    this.problem = problem;
    this.trace = replay.trace;
  }

  path(id) {
    const chain = this.replay.chain(id);
    const side = chain[chain.length - 1].side === "backward" ? " (from the goal)" : "";
    return this.domain.pathText(chain, side !== "") + side;
  }

  numbers(id) {
    const n = this.replay.nodes[id];
    return (
      `g ${figure(n.g)}` + (this.trace.uses_h && n.h !== null ? ` · h ${figure(n.h)} · f ${figure(n.g + n.h)}` : "")
    );
  }

  caption() {
    return this.replay.done ? this.doneText() : this.stepText(this.replay.lastEvent);
  }

  doneText() {
    const r = this.trace.result;
    const t = this.trace;
    if (r.status === "solved") {
      const path = this.domain.solutionText(this.problem, r); // the result's own moves: bidirectional joins its halves
      // A* or IDA* with an h that overestimates somewhere: what it returns is the best it saw, not a proven optimum
      const unproven = t.h_admissible === false && t.optimal;
      const overestimates = " h overestimates somewhere, so a cheaper path may have been left on the frontier.";
      if (!t.unit_costs) {
        // a graph with costs: the fewest edges and the cheapest path part ways
        return (
          `Done: ${plural(r.length, "edge")} costing ${figure(r.cost)} (${path}), ${r.nodes_expanded} expanded, ${r.nodes_generated} generated.` +
          (r.optimal
            ? " The cheapest path."
            : unproven
              ? " The cheapest under this h; not proven:" + overestimates
              : t.optimal
                ? " The fewest edges, but not necessarily the cheapest path: this search does not add up costs."
                : " Not necessarily the cheapest path.")
        );
      }
      return (
        `Done: ${plural(r.length, this.domain.stepWord)} (${path}), ${r.nodes_expanded} expanded, ${r.nodes_generated} generated.` +
        (r.optimal
          ? " A shortest path."
          : unproven
            ? " The shortest under this h; not proven:" + overestimates
            : " Not necessarily a shortest path.")
      );
    }
    return t.recording_stopped
      ? `Recording stopped after ${r.nodes_expanded} expansions (the step-through's budget).`
      : `No solution: ${r.message || r.status}.`;
  }

  stepText(e) {
    const t = this.trace;
    if (!e) return "Ready: the start node is on the frontier. Step forward to expand it.";
    switch (e.event) {
      case "bound":
        if (t.cutoff === "depth") {
          return e.previous === null
            ? "Iteration 1: depth limit 0, the shallowest possible."
            : `New iteration: depth limit ${e.bound}. The search with limit ${e.previous} cut off ${plural(e.cut, "node")} at the limit and found no goal, so the limit grows by one and the search starts again from the root.`;
        }
        return e.previous === null
          ? `Iteration 1: f bound ${figure(e.bound)} = h(start), since no path can cost less than h says.`
          : `New iteration: f bound ${figure(e.bound)}. The search with bound ${figure(e.previous)} cut off ${plural(e.cut, "node")}; the least f among them is ${figure(e.bound)}, so that is the next bound: no cheaper path was left unexplored.`;
      case "expand":
        return `Expand ${this.path(e.node)} (${this.numbers(e.node)}).`;
      case "generate":
        return `Generate ${this.path(e.node)} (${this.numbers(e.node)}) and put it on the frontier.`;
      case "duplicate":
        return t.frontier_kind === "stack"
          ? `Skip ${this.path(e.node)}: its state is already on the path, going there would walk in a circle.`
          : `Skip ${this.path(e.node)}: its state was already reached by a path at least as short.`;
      case "stale":
        return `Drop ${this.path(e.node)}: a cheaper path to its state was pushed after it, so this entry is out of date.`;
      case "prune":
        return t.cutoff === "f"
          ? `Cut off ${this.path(e.node)}: f = ${figure(this.replay.f(e.node))} is above the bound ${figure(this.replay.bound)}.`
          : `Cut off ${this.path(e.node)}: it is at the depth limit.`;
      case "goal":
        return `Goal reached: ${this.path(e.node)}.`;
      default:
        return "";
    }
  }

  // Why a node of the tree is where it is: chosen, waiting (behind whom), cut off or dropped.
  why(id) {
    const t = this.trace,
      replay = this.replay;
    const state = replay.status.get(id);
    const key = t.priority;
    if (state === "expanded") {
      const at = replay.expandedAt.has(id)
        ? `at step ${replay.expandedAt.get(id) + 1}`
        : "on the way to the current node";
      if (t.frontier_kind === "priority")
        return `Expanded ${at}: its ${key} = ${figure(replay.key(id))} was the least on the frontier.`;
      if (t.frontier_kind === "queue" || t.frontier_kind === "two-queues")
        return `Expanded ${at}: it was at the front of the queue, the oldest node waiting.`;
      if (t.cutoff === "f")
        return `Expanded ${at}: its f = ${figure(replay.f(id))} was within the bound, and depth-first search goes into each child in turn.`;
      return `Expanded ${at}: depth-first search goes into each child in turn, and this one was within the limit.`;
    }
    if (state === "frontier") {
      const waiting = replay.frontierIds();
      const ahead = waiting.indexOf(id);
      if (t.frontier_kind === "priority") {
        return ahead === 0
          ? `Next to be expanded: its ${key} = ${figure(replay.key(id))} is the least on the frontier.`
          : `Waiting: its ${key} = ${figure(replay.key(id))}, but ${plural(ahead, "node")} on the frontier come first (the next has ${key} = ${figure(replay.key(waiting[0]))}).`;
      }
      return ahead === 0
        ? "Next to be expanded: it is at the front of the queue."
        : `Waiting: ${plural(ahead, "node")} ahead of it in the queue.`;
    }
    if (state === "pruned")
      return t.cutoff === "f"
        ? `Cut off: f = g + h = ${figure(replay.f(id))} is above the bound ${figure(replay.bound)}. The least such f becomes the next bound.`
        : "Cut off: it is at the depth limit; a later iteration with a deeper limit may expand it.";
    if (state === "duplicate")
      return t.frontier_kind === "stack"
        ? "Skipped: its state is already on the path to it, so going there would only walk in a circle."
        : "Dropped: its state was already reached by a path at least as short, so expanding it again would only repeat work.";
    if (state === "stale")
      return "Dropped when popped: after it was pushed, a cheaper path to the same state was pushed too, and that entry counts instead.";
    if (state === "goal") return "The goal: the search stops here and returns this path.";
    return "Not reached at this step.";
  }

  statusText(id) {
    return STATUS[this.replay.status.get(id)] || "not reached yet";
  }
}
