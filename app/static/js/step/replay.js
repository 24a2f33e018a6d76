// One recorded search replayed to any step: which tree nodes are expanded, waiting or dropped, the counters and the
// current node. The engine records every step (engine/search/trace.py); this module only applies them, so every
// number on screen is the engine's.
export const STATUS = {
  current: "current node",
  expanded: "expanded",
  frontier: "on the frontier",
  pruned: "cut off",
  duplicate: "dropped: already reached",
  stale: "dropped: a cheaper path replaced it",
  goal: "goal / solution path",
  folded: "folded subtree (click to open)",
};

export class Replay {
  constructor(trace) {
    this.trace = trace;
    this.nodes = trace.nodes;
    this.children = this.nodes.map(() => []);
    this.nodes.forEach((n) => {
      if (n.parent !== null) this.children[n.parent].push(n.id);
    });
    this.roots = this.nodes.filter((n) => n.parent === null).map((n) => n.id);
    this.reset();
  }

  reset() {
    this.status = new Map(this.roots.map((r) => [r, "frontier"]));
    this.seq = new Map(this.roots.map((r) => [r, -1]));
    this.counter = 0;
    this.counts = { expanded: 0, generated: 0, frontier: this.roots.length };
    this.currentId = null;
    this.bound = null;
    this.applied = 0;
    this.lastEvent = null;
    this.expandedAt = new Map();
  }

  get done() {
    return this.applied >= this.trace.steps.length;
  }
  get solved() {
    return this.done && this.trace.result.status === "solved";
  }
  // the node a picture shows: the current one, or the root before the first expansion
  get shownId() {
    return this.currentId === null ? this.roots[0] : this.currentId;
  }

  showAncestors(id) {
    for (let a = this.nodes[id].parent; a !== null && !this.status.has(a); a = this.nodes[a].parent)
      this.status.set(a, "expanded");
  }

  apply(step, index) {
    this.lastEvent = step;
    ["expanded", "generated", "frontier"].forEach((k) => {
      if (k in step) this.counts[k] = step[k];
    });
    if (step.event === "bound") {
      // a new iteration starts from the root again: the old tree goes
      this.bound = step.bound;
      this.status = new Map(this.roots.map((r) => [r, "frontier"]));
      this.seq = new Map(this.roots.map((r) => [r, -1]));
      this.currentId = null;
      return;
    }
    const id = step.node;
    if (step.event === "expand") {
      this.showAncestors(id);
      this.status.set(id, "expanded");
      this.currentId = id;
      this.expandedAt.set(id, index);
    } else if (step.event === "generate") {
      this.status.set(id, "frontier");
      this.seq.set(id, this.counter++);
    } else if (step.event === "prune" || step.event === "duplicate" || step.event === "stale") {
      this.showAncestors(id);
      this.status.set(id, { prune: "pruned", duplicate: "duplicate", stale: "stale" }[step.event]);
    } else if (step.event === "goal") {
      // Bidirectional search stops with its meeting node still in a queue; drawn as the goal it is no longer listed
      // on the frontier, so it leaves the frontier's count too (the other searches have taken the goal off already).
      if (this.trace.frontier_kind === "two-queues") {
        this.counts.frontier -= [id, step.meets].filter(
          (n) => n !== undefined && this.status.get(n) === "frontier",
        ).length;
      }
      this.showAncestors(id);
      this.status.set(id, "goal");
      this.currentId = id;
      if (step.meets !== undefined) {
        this.showAncestors(step.meets);
        this.status.set(step.meets, "goal");
      }
    }
  }

  goTo(k) {
    k = Math.min(k, this.trace.steps.length);
    if (k < this.applied) this.reset();
    while (this.applied < k) {
      this.apply(this.trace.steps[this.applied], this.applied);
      this.applied++;
    }
  }

  // The counters shown: the last recorded ones, the result's once the search has solved the problem.
  shownCounts() {
    const r = this.trace.result;
    return this.solved
      ? { expanded: r.nodes_expanded, generated: r.nodes_generated, frontier: this.counts.frontier }
      : this.counts;
  }

  key(id) {
    const n = this.nodes[id];
    if (n.h === null) return null;
    return { g: n.g, h: n.h, f: n.g + n.h }[this.trace.priority || "f"];
  }
  f(id) {
    const n = this.nodes[id];
    return n.h === null ? null : n.g + n.h;
  }
  chain(id) {
    const chain = [];
    for (let a = id; a !== null; a = this.nodes[a].parent) chain.unshift(this.nodes[a]);
    return chain;
  }

  // The frontier in the order the search takes from it: the stack for the depth-first family is the current path.
  frontierIds() {
    const kind = this.trace.frontier_kind;
    if (kind === "stack") {
      const chain = [];
      for (let a = this.currentId; a !== null && a !== undefined; a = this.nodes[a].parent) chain.push(a);
      return chain;
    }
    const ids = [...this.status].filter(([, s]) => s === "frontier").map(([id]) => id);
    const bySeq = (a, b) => this.seq.get(a) - this.seq.get(b);
    if (kind === "queue") return ids.sort(bySeq);
    if (kind === "two-queues")
      return ids.sort((a, b) =>
        this.nodes[a].side > this.nodes[b].side ? -1 : this.nodes[a].side < this.nodes[b].side ? 1 : bySeq(a, b),
      );
    return ids.sort((a, b) => this.key(a) - this.key(b) || this.nodes[b].g - this.nodes[a].g || bySeq(a, b));
  }

  // The nodes on the path found, once the search has solved the problem (both halves for bidirectional search).
  solutionPath() {
    const onPath = new Set();
    if (!this.solved) return onPath;
    const last = this.trace.steps[this.trace.steps.length - 1];
    [last.node, last.meets]
      .filter((id) => id !== undefined)
      .forEach((id) => {
        for (let a = id; a !== null; a = this.nodes[a].parent) onPath.add(a);
      });
    return onPath;
  }
}
