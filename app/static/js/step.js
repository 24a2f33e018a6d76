// The step-through of engine/search: one or two recorded searches replayed in lockstep, each with its pseudocode
// (the current line marked), the variables that line reads, the frontier, and a search tree sized for a projector.
// The engine records every step with its own counters and pseudocode line (engine/search/trace.py); this module only
// replays them, so the numbers on screen are the engine's. Lesson slides load the same view with a fixed request.
import { Stepper } from "./stepper.js";
import { fetchJSON, html, onReady, plural, showError, svgEl } from "./common.js";
import { GRAPH_KEY, GraphView, circle } from "./graph-view.js";
import { breakdown, decorate } from "./heuristics.js";

const COLLAPSE_AT = 120;  // visible nodes beyond which finished subtrees fold into one node (a click opens them)
const DX = 48, DY = 66, PAD = 28;  // tree spacing in px at zoom 1: room for a 13 px label under every node
const FRONTIER_SHOWN = 10;
const STATUS = {
  current: "current node", expanded: "expanded", frontier: "on the frontier", pruned: "cut off",
  duplicate: "dropped: already reached", stale: "dropped: a cheaper path replaced it", goal: "goal / solution path",
  folded: "folded subtree (click to open)",
};

class SearchPanel {
  constructor(container, trace, problem) {
    this.trace = trace;
    this.problem = problem;
    this.nodes = trace.nodes;
    this.children = this.nodes.map(() => []);
    this.nodes.forEach((n) => { if (n.parent !== null) this.children[n.parent].push(n.id); });
    this.roots = this.nodes.filter((n) => n.parent === null).map((n) => n.id);
    this.opened = new Set();
    this.zoom = 1;
    this.follow = true;
    this.selected = null;
    this.pending = false;
    this.build(container);
    this.resetState();
  }

  build(container) {
    const t = this.trace;
    this.el = html("section", "panel step-panel");
    this.el.dataset.algorithm = t.algorithm;
    this.el.setAttribute("aria-label", t.title);
    this.el.appendChild(html("h2", "", t.title + (t.uses_h && t.heuristic && t.heuristic !== "zero" ? ` · h = ${t.heuristic}` : "")));
    const main = html("div", "step-main");
    const treeColumn = html("div", "step-tree");
    const top = html("div", "step-top");
    this.current = html("div", "current-node");
    this.stats = html("dl", "stats");
    top.append(this.current, this.stats);
    main.appendChild(top);
    if (this.problem.kind === "tiles") {
      const show = html("label", "inline");
      this.showH = html("input");
      this.showH.type = "checkbox";
      this.showH.addEventListener("change", () => this.render());
      show.append(this.showH, document.createTextNode(" show h on the board: each tile's distance home, conflicts outlined"));
      this.hSummary = html("div", "h-summary muted");
      main.append(show, this.hSummary);
    }
    this.caption = html("p", "caption");
    main.appendChild(this.caption);

    const code = html("div", "step-code");
    const left = html("div", "");
    left.appendChild(html("h3", "", "Pseudocode"));
    this.code = html("ol", "pseudocode");
    this.code.setAttribute("aria-label", "Pseudocode");
    t.pseudocode.forEach((line) => {
      const li = html("li", "", line.trimStart());
      li.style.paddingLeft = `${(line.length - line.trimStart().length) * 0.45}em`;
      this.code.appendChild(li);
    });
    left.appendChild(this.code);
    const right = html("div", "");
    right.appendChild(html("h3", "", "Variables"));
    this.vars = html("dl", "vars");
    right.appendChild(this.vars);
    code.append(left, right);
    main.appendChild(code);

    const kind = { queue: "Frontier: FIFO queue, front first", priority: `Frontier: priority queue, least ${t.priority} first`,
      stack: "Stack: the path from the current node back to the root", "two-queues": "Frontiers: the two queues, front first" }[t.frontier_kind];
    main.appendChild(html("h3", "", kind));
    this.frontier = html("ol", "frontier");
    this.frontierMore = html("p", "muted frontier-more");
    main.append(this.frontier, this.frontierMore);
    this.el.append(main, treeColumn);

    treeColumn.appendChild(html("h3", "", "Search tree"));
    const tools = html("div", "tree-tools");
    const button = (label, name, act) => {
      const b = html("button", "", label);
      b.type = "button";
      b.setAttribute("aria-label", name);
      b.addEventListener("click", act);
      tools.appendChild(b);
      return b;
    };
    button("−", "Zoom out", () => this.setZoom(this.zoom / 1.25));
    button("+", "Zoom in", () => this.setZoom(this.zoom * 1.25));
    button("Fit", "Fit the tree in the box", () => this.setZoom(Math.min(1, this.scroller.clientWidth / this.treeWidth)));
    const follow = html("label", "follow");
    this.followBox = html("input");
    this.followBox.type = "checkbox";
    this.followBox.checked = true;
    this.followBox.addEventListener("change", () => { this.follow = this.followBox.checked; this.drawTree(); });
    follow.append(this.followBox, document.createTextNode(" follow the current node"));
    tools.appendChild(follow);
    treeColumn.appendChild(tools);

    const legend = html("ul", "tree-legend");
    legend.setAttribute("aria-label", "Legend");
    Object.entries(STATUS).forEach(([k, text]) => {
      const li = html("li", "");
      const key = svgEl("svg", { width: 22, height: 22, class: "tree", "aria-hidden": "true" });
      const mark = svgEl("g", { class: `t-${k === "current" ? "expanded t-current" : k === "goal" ? "goal t-path" : k}` });
      mark.appendChild(svgEl("circle", { cx: 11, cy: 11, r: 7 }));
      key.appendChild(mark);
      li.append(key, document.createTextNode(text));
      legend.appendChild(li);
    });
    treeColumn.appendChild(legend);

    this.scroller = html("div", "tree-scroll");
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute("aria-label", "Search tree: drag or scroll to pan; click a node for its details");
    this.svg = svgEl("svg", { class: "tree", role: "group", "aria-label": "search tree" });
    this.scroller.appendChild(this.svg);
    treeColumn.appendChild(this.scroller);
    this.bindPan();
    this.details = html("div", "node-details");
    this.details.setAttribute("aria-live", "polite");
    this.details.textContent = "Click a node in the tree to see its path, g, h, f and why it was or was not chosen.";
    treeColumn.appendChild(this.details);
    container.appendChild(this.el);
  }

  bindPan() {
    let drag = null;
    this.scroller.addEventListener("pointerdown", (event) => {
      if (event.target.closest("[data-id]")) return;
      drag = { x: event.clientX, y: event.clientY, left: this.scroller.scrollLeft, top: this.scroller.scrollTop };
    });
    this.scroller.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) < 4) return;
      this.setFollow(false);  // the teacher is looking somewhere else: stop pulling the view back
      this.scroller.scrollLeft = drag.left - dx;
      this.scroller.scrollTop = drag.top - dy;
    });
    const stop = () => { drag = null; };
    this.scroller.addEventListener("pointerup", stop);
    this.scroller.addEventListener("pointerleave", stop);
    this.svg.addEventListener("click", (event) => {
      const node = event.target.closest("[data-id]");
      if (node) this.select(+node.dataset.id);
    });
    this.svg.addEventListener("keydown", (event) => {
      const node = event.target.closest("[data-id]");
      if (node && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); this.select(+node.dataset.id); }
    });
  }

  // Playback can apply several steps between two frames: draw the tree once per frame, not once per step.
  scheduleTree() {
    if (this.pending) return;
    this.pending = true;
    window.requestAnimationFrame(() => { this.pending = false; this.drawTree(); });
  }

  setFollow(on) { this.follow = on; this.followBox.checked = on; }
  setZoom(z) { this.zoom = Math.max(0.3, Math.min(3, z)); this.drawTree(); }

  resetState() {
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

  showAncestors(id) {
    for (let a = this.nodes[id].parent; a !== null && !this.status.has(a); a = this.nodes[a].parent) this.status.set(a, "expanded");
  }

  apply(step, index) {
    this.lastEvent = step;
    ["expanded", "generated", "frontier"].forEach((k) => { if (k in step) this.counts[k] = step[k]; });
    if (step.event === "bound") {  // a new iteration starts from the root again: the old tree goes
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
      this.showAncestors(id);
      this.status.set(id, "goal");
      this.currentId = id;
      if (step.meets !== undefined) { this.showAncestors(step.meets); this.status.set(step.meets, "goal"); }
    }
  }

  goTo(k) {
    k = Math.min(k, this.trace.steps.length);
    if (k < this.applied) this.resetState();
    while (this.applied < k) { this.apply(this.trace.steps[this.applied], this.applied); this.applied++; }
    this.render();
  }

  key(id) {
    const n = this.nodes[id];
    if (n.h === null) return null;
    return { g: n.g, h: n.h, f: n.g + n.h }[this.trace.priority || "f"];
  }
  f(id) { const n = this.nodes[id]; return n.h === null ? null : n.g + n.h; }
  usesH() { return this.trace.uses_h; }
  label(id) {
    const n = this.nodes[id];
    if (n.parent === null) return n.side === "backward" ? "goal" : "start";
    return String(this.problem.kind === "graph" ? n.state : n.action);
  }
  pathText(id) {
    const chain = [];
    for (let a = id; a !== null; a = this.nodes[a].parent) chain.unshift(a);
    const side = this.nodes[id].side === "backward" ? " (from the goal)" : "";
    if (this.problem.kind === "graph") return chain.map((a) => this.nodes[a].state).join(" → ") + side;
    return (chain.slice(1).map((a) => this.nodes[a].action).join("") || (side ? "goal" : "start")) + side;
  }
  numbers(id) {
    const n = this.nodes[id];
    return `g ${n.g}` + (this.usesH() && n.h !== null ? ` · h ${n.h} · f ${n.g + n.h}` : "");
  }

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
    if (kind === "two-queues") return ids.sort((a, b) => (this.nodes[a].side > this.nodes[b].side ? -1 : this.nodes[a].side < this.nodes[b].side ? 1 : bySeq(a, b)));
    return ids.sort((a, b) => (this.key(a) - this.key(b)) || (this.nodes[b].g - this.nodes[a].g) || bySeq(a, b));
  }

  render() {
    const t = this.trace;
    const done = this.applied >= t.steps.length;
    const r = t.result;
    const shownId = this.currentId === null ? this.roots[0] : this.currentId;
    const n = this.nodes[shownId];
    this.current.innerHTML = "";
    this.current.appendChild(this.problem.kind === "graph" ? this.graphPicture(shownId) : this.boardPicture(n.state));
    this.current.appendChild(html("div", "muted", this.numbers(shownId)));

    const frontierIds = this.frontierIds();
    const counts = done && r.status === "solved" ? { expanded: r.nodes_expanded, generated: r.nodes_generated, frontier: this.counts.frontier } : this.counts;
    const stack = t.frontier_kind === "stack";
    const stats = [["expanded", counts.expanded], ["generated", counts.generated],
      stack ? ["depth", Math.max(0, frontierIds.length - 1)] : ["frontier", counts.frontier]];
    if (this.bound !== null) stats.push([t.cutoff === "depth" ? "limit" : "bound", this.bound]);
    this.stats.innerHTML = "";
    stats.forEach(([k, v]) => { const dd = html("dd", "", String(v)); dd.dataset.stat = k; this.stats.append(html("dt", "", k), dd); });
    this.el.dataset.expanded = counts.expanded;
    this.el.dataset.generated = counts.generated;

    const e = this.lastEvent;
    const line = e ? e.line : t.start_line;
    [...this.code.children].forEach((li, i) => {
      if (i === line) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
    this.el.dataset.line = line;

    this.vars.innerHTML = "";
    const vars = [["node", this.currentId === null ? "—" : this.pathText(this.currentId)], ["g", n.g]];
    if (this.usesH()) vars.push(["h", n.h ?? "—"], ["f = g + h", n.h === null ? "—" : n.g + n.h]);
    if (this.bound !== null) vars.push([t.cutoff === "depth" ? "limit" : "bound", this.bound]);
    if (e && e.node !== undefined && e.node !== this.currentId) vars.push(["child", this.pathText(e.node)]);
    vars.push([stack ? "stack depth" : "frontier size", stack ? Math.max(0, frontierIds.length - 1) : counts.frontier]);
    vars.forEach(([k, v]) => this.vars.append(html("dt", "", k), html("dd", "", String(v))));

    this.caption.textContent = done ? this.doneText() : this.stepText(e);
    this.el.dataset.done = done && r.status === "solved" ? "1" : "0";

    this.frontier.innerHTML = "";
    frontierIds.slice(0, FRONTIER_SHOWN).forEach((id) => {
      const side = t.frontier_kind === "two-queues" ? `${this.nodes[id].side}: ` : "";
      this.frontier.appendChild(html("li", "", `${side}${this.pathText(id)} · ${this.numbers(id)}`));
    });
    const more = frontierIds.length - FRONTIER_SHOWN;
    this.frontierMore.textContent = more > 0 ? `… and ${more} more` : frontierIds.length ? "" : "(empty)";
    this.scheduleTree();
  }

  doneText() {
    const r = this.trace.result;
    if (r.status === "solved") {
      // the result's own moves: for bidirectional search they join the two half-paths
      const path = this.problem.kind === "graph" ? [this.problem.start, ...r.moves.split(" ").filter(Boolean)].join(" → ")
        : r.moves || "already at the goal";
      return `Done: ${plural(r.length, "move")} (${path}), ${r.nodes_expanded} expanded, ${r.nodes_generated} generated.` +
        (r.optimal ? " A shortest path." : " Not necessarily a shortest path.");
    }
    return this.trace.recording_stopped ? `Recording stopped after ${r.nodes_expanded} expansions (the step-through's budget).`
      : `No solution: ${r.message || r.status}.`;
  }

  stepText(e) {
    const t = this.trace;
    if (!e) return "Ready: the start node is on the frontier. Step forward to expand it.";
    switch (e.event) {
      case "bound":
        if (t.cutoff === "depth") {
          return e.previous === null ? "Iteration 1: depth limit 0, the shallowest possible."
            : `New iteration: depth limit ${e.bound}. The search with limit ${e.previous} cut off ${plural(e.cut, "node")} at the limit and found no goal, so the limit grows by one and the search starts again from the root.`;
        }
        return e.previous === null ? `Iteration 1: f bound ${e.bound} = h(start), since no path can cost less than h says.`
          : `New iteration: f bound ${e.bound}. The search with bound ${e.previous} cut off ${plural(e.cut, "node")}; the least f among them is ${e.bound}, so that is the next bound: no cheaper path was left unexplored.`;
      case "expand": return `Expand ${this.pathText(e.node)} (${this.numbers(e.node)}).`;
      case "generate": return `Generate ${this.pathText(e.node)} (${this.numbers(e.node)}) and put it on the frontier.`;
      case "duplicate": return t.frontier_kind === "stack"
        ? `Skip ${this.pathText(e.node)}: its state is already on the path, going there would walk in a circle.`
        : `Skip ${this.pathText(e.node)}: its state was already reached by a path at least as short.`;
      case "stale": return `Drop ${this.pathText(e.node)}: a cheaper path to its state was pushed after it, so this entry is out of date.`;
      case "prune": return t.cutoff === "f"
        ? `Cut off ${this.pathText(e.node)}: f = ${this.f(e.node)} is above the bound ${this.bound}.`
        : `Cut off ${this.pathText(e.node)}: it is at the depth limit.`;
      case "goal": return `Goal reached: ${this.pathText(e.node)}.`;
      default: return "";
    }
  }

  // Which nodes to draw: every node the search has touched, except that past COLLAPSE_AT nodes (a projector cannot
  // show more) a subtree with nothing left to do (no frontier node, not on the current path) folds into its root,
  // and dropped or cut-off leaves fold into their parent's count, unless a click opened that node.
  visibleTree() {
    const live = new Set();
    const mark = (id) => { for (let a = id; a !== null && a !== undefined && !live.has(a); a = this.nodes[a].parent) live.add(a); };
    if (this.currentId !== null) mark(this.currentId);
    if (this.lastEvent && this.lastEvent.node !== undefined) mark(this.lastEvent.node);
    if (this.selected !== null) mark(this.selected);
    this.status.forEach((s, id) => { if (s === "frontier" || s === "goal") mark(id); });
    const fold = this.status.size > COLLAPSE_AT;
    const kids = new Map();
    const folded = new Map();
    const count = (id) => this.children[id].filter((c) => this.status.has(c)).reduce((s, c) => s + 1 + count(c), 0);
    const walk = (id) => {
      let visible = this.children[id].filter((c) => this.status.has(c));
      const open = this.opened.has(id);
      if (fold && !open && visible.length && !live.has(id)) { folded.set(id, count(id)); kids.set(id, []); return; }
      if (fold && !open) {
        const dead = visible.filter((c) => !live.has(c) && !this.children[c].some((g) => this.status.has(g)) &&
          (this.status.get(c) === "duplicate" || this.status.get(c) === "pruned"));
        if (dead.length) { folded.set(id, dead.length); visible = visible.filter((c) => !dead.includes(c)); }
      }
      kids.set(id, visible);
      visible.forEach(walk);
    };
    this.roots.filter((r) => this.status.has(r)).forEach(walk);
    return { kids, folded };
  }

  drawTree() {
    const { kids, folded } = this.visibleTree();
    const x = new Map();
    let next = 0, depth = 0;
    const place = (id) => {  // leaves side by side, each parent over the middle of its children
      depth = Math.max(depth, this.nodes[id].g);
      const c = kids.get(id);
      if (!c.length) { x.set(id, next++); return; }
      c.forEach(place);
      x.set(id, (x.get(c[0]) + x.get(c[c.length - 1])) / 2);
    };
    this.roots.filter((r) => kids.has(r)).forEach((r) => { place(r); next += 0.5; });
    const width = Math.max(1, next) * DX + 2 * PAD, height = (depth + 1) * DY + 2 * PAD;
    this.treeWidth = width;
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.svg.setAttribute("width", width * this.zoom);
    this.svg.setAttribute("height", height * this.zoom);
    const pos = (id) => [PAD + x.get(id) * DX + DX / 2, PAD + this.nodes[id].g * DY + 10];
    const onPath = new Set();
    const r = this.trace.result;
    if (this.applied >= this.trace.steps.length && r.status === "solved") {
      const last = this.trace.steps[this.trace.steps.length - 1];
      [last.node, last.meets].filter((id) => id !== undefined).forEach((id) => { for (let a = id; a !== null; a = this.nodes[a].parent) onPath.add(a); });
    }
    this.svg.innerHTML = "";
    const edges = svgEl("g", { class: "edges" });
    const nodes = svgEl("g", { class: "nodes" });
    x.forEach((_, id) => {
      const [cx, cy] = pos(id);
      const parent = this.nodes[id].parent;
      if (parent !== null && x.has(parent)) {
        const [px, py] = pos(parent);
        edges.appendChild(svgEl("line", { x1: px, y1: py, x2: cx, y2: cy, class: onPath.has(id) ? "t-path" : "" }));
      }
      const state = this.status.get(id);
      const wholly = folded.has(id) && !kids.get(id).length;  // else only its dropped leaves are folded
      const cls = [`t-${wholly ? "folded" : state}`];
      if (id === this.currentId) cls.push("t-current");
      if (onPath.has(id)) cls.push("t-path");
      if (id === this.selected) cls.push("t-selected");
      const g = svgEl("g", { class: cls.join(" "), "data-id": id, tabindex: "0", role: "button" });
      g.appendChild(svgEl("circle", { cx, cy, r: 9 }));
      const label = svgEl("text", { x: cx, y: cy + 24 });
      label.textContent = this.label(id) + (folded.has(id) ? ` +${folded.get(id)}` : "");
      g.appendChild(label);
      let value = "";
      if (this.usesH() && this.nodes[id].h !== null) {
        const f = svgEl("text", { x: cx, y: cy + 38, class: "t-f" });
        value = `${this.trace.priority === "h" ? "h" : "f"} ${this.trace.priority === "h" ? this.nodes[id].h : this.f(id)}`;
        f.textContent = value;
        g.appendChild(f);
      }
      // an SVG title names the node for assistive technology (and shows as a tooltip): the visible text first, then
      // where the node is and what happened to it
      const title = svgEl("title");
      title.textContent = `${label.textContent} ${value}: ${this.pathText(id)}, ${wholly ? STATUS.folded : STATUS[state] || state}` +
        (folded.has(id) && !wholly ? ` (${plural(folded.get(id), "dropped child")} folded; click to show)` : "");
      g.prepend(title);
      nodes.appendChild(g);
    });
    this.svg.append(edges, nodes);
    const focus = this.currentId !== null && x.has(this.currentId) ? this.currentId : this.roots[0];
    if (this.follow && x.has(focus)) {
      const [cx, cy] = pos(focus);
      this.scroller.scrollLeft = cx * this.zoom - this.scroller.clientWidth / 2;
      this.scroller.scrollTop = cy * this.zoom - this.scroller.clientHeight / 2;
    }
  }

  select(id) {
    if (this.opened.has(id)) this.opened.delete(id);
    else if (this.status.size > COLLAPSE_AT) this.opened.add(id);
    this.selected = id;
    const n = this.nodes[id];
    this.details.innerHTML = "";
    this.details.appendChild(html("h4", "", this.pathText(id)));
    const dl = html("dl", "stats");
    const rows = [["depth", n.g], ["g", n.g]];
    if (n.h !== null) rows.push(["h", n.h], ["f", n.g + n.h]);
    rows.push(["status", STATUS[this.status.get(id)] || "not reached yet"]);
    rows.forEach(([k, v]) => dl.append(html("dt", "", k), html("dd", "", String(v))));
    this.details.append(dl, html("p", "", this.why(id)));
    this.drawTree();
  }

  why(id) {
    const t = this.trace;
    const state = this.status.get(id);
    const key = t.priority;
    if (state === "expanded") {
      const at = this.expandedAt.has(id) ? `at step ${this.expandedAt.get(id) + 1}` : "on the way to the current node";
      if (t.frontier_kind === "priority") return `Expanded ${at}: its ${key} = ${this.key(id)} was the least on the frontier.`;
      if (t.frontier_kind === "queue" || t.frontier_kind === "two-queues") return `Expanded ${at}: it was at the front of the queue, the oldest node waiting.`;
      if (t.cutoff === "f") return `Expanded ${at}: its f = ${this.f(id)} was within the bound, and depth-first search goes into each child in turn.`;
      return `Expanded ${at}: depth-first search goes into each child in turn, and this one was within the limit.`;
    }
    if (state === "frontier") {
      const waiting = this.frontierIds();
      const ahead = waiting.indexOf(id);
      if (t.frontier_kind === "priority") {
        return ahead === 0 ? `Next to be expanded: its ${key} = ${this.key(id)} is the least on the frontier.`
          : `Waiting: its ${key} = ${this.key(id)}, but ${plural(ahead, "node")} on the frontier come first (the next has ${key} = ${this.key(waiting[0])}).`;
      }
      return ahead === 0 ? "Next to be expanded: it is at the front of the queue." : `Waiting: ${plural(ahead, "node")} ahead of it in the queue.`;
    }
    if (state === "pruned") return t.cutoff === "f"
      ? `Cut off: f = g + h = ${this.f(id)} is above the bound ${this.bound}. The least such f becomes the next bound.`
      : "Cut off: it is at the depth limit; a later iteration with a deeper limit may expand it.";
    if (state === "duplicate") return t.frontier_kind === "stack"
      ? "Skipped: its state is already on the path to it, so going there would only walk in a circle."
      : "Dropped: its state was already reached by a path at least as short, so expanding it again would only repeat work.";
    if (state === "stale") return "Dropped when popped: after it was pushed, a cheaper path to the same state was pushed too, and that entry counts instead.";
    if (state === "goal") return "The goal: the search stops here and returns this path.";
    return "Not reached at this step.";
  }

  boardPicture(cells) {
    const grid = html("div", "node-board");
    grid.style.gridTemplateColumns = `repeat(${this.problem.cols}, 1fr)`;
    cells.forEach((tile) => grid.appendChild(html("span", tile ? "" : "blank", tile ? String(tile) : "")));
    grid.dataset.cells = cells.join(",");
    grid.setAttribute("role", "img");
    const rows = [];
    for (let r = 0; r < this.problem.rows; r++) rows.push(cells.slice(r * this.problem.cols, (r + 1) * this.problem.cols).map((v) => v || "blank").join(" "));
    grid.setAttribute("aria-label", `the current node's board: ${rows.join(", ")}`);
    if (this.showH && this.showH.checked) {
      const p = this.problem;
      breakdown(`${p.rows}x${p.cols}`, p.goal.join(","), cells).then((data) => {
        if (!grid.isConnected) return;  // the view moved on to another node meanwhile
        const spans = [...grid.children];
        decorate(cells, data, (t) => spans[cells.indexOf(t)], this.hSummary);
      }).catch(() => {});
    } else if (this.hSummary) this.hSummary.innerHTML = "";
    return grid;
  }

  graphPicture(id) {
    const svg = svgEl("svg", { viewBox: "0 0 100 100", class: "graph small", role: "img", "aria-label": `the graph, at node ${this.nodes[id].state}` });
    const path = [];
    for (let a = id; a !== null; a = this.nodes[a].parent) path.unshift(this.nodes[a].state);
    GraphView.drawInto(svg, this.problem.positions, this.problem.adjacency,
      { path, current: this.nodes[id].state, start: this.problem.start, goal: this.problem.goal });
    svg.dataset.node = this.nodes[id].state;
    return svg;
  }
}

// Where a lesson slide opens: a step number, "end", or just after the nth step of one kind ({event, nth}).
function slideStep(step, steps, total) {
  if (step === "end") return total;
  if (typeof step === "number") return step;
  let seen = 0;
  const at = steps.findIndex((s) => s.event === step.event && ++seen === step.nth);
  return at < 0 ? total : at + 1;
}

// The page's form: tile controls for tile problems, node controls for the graph, and "new scramble" for a new seed.
function searchView(root) {
  const stepper = new Stepper(root);
  const form = document.getElementById("step-form");
  const panels = document.getElementById("step-panels");
  const error = document.getElementById("step-error");
  const lesson = root.dataset.config ? JSON.parse(root.dataset.config) : null;
  const f = form ? form.elements : null;

  const showControls = () => {
    const kind = f.problem.value === "graph" ? "graph" : "tiles";
    form.querySelectorAll("[data-for]").forEach((el) => { el.hidden = el.dataset.for !== kind; });
  };

  function request() {
    if (lesson) return lesson.request;
    const body = { algorithms: [f.first.value].concat(f.second.value ? [f.second.value] : []), depth_limit: +f.depth_limit.value };
    if (f.problem.value === "graph") {
      const saved = JSON.parse(window.localStorage.getItem(GRAPH_KEY) || "null");
      Object.assign(body, { problem: "graph", heuristic: f.graph_h.value, start: +f.from.value, goal: +f.to.value },
        saved && saved.nodes ? { nodes: saved.nodes, edges: saved.edges, positions: saved.positions } : {});
    } else {
      Object.assign(body, { problem: "tiles", size: f.problem.value.split(":")[1], goal: f.goal.value,
        heuristic: f.heuristic.value, scramble: +f.scramble.value, seed: +f.seed.value });
      if (f.tiles.value.trim()) body.tiles = f.tiles.value.trim();
    }
    return body;
  }

  let latest = 0;
  async function load() {
    const mine = ++latest;  // a newer request (the form changed again) wins over an older answer still on its way
    root.dataset.ready = "0";
    let data;
    try { data = await fetchJSON(root.dataset.url, request()); showError(error, null); } catch (e) { showError(error, e); return; }
    if (mine !== latest) return;
    panels.innerHTML = "";
    const problem = data.problem === "graph"
      ? { kind: "graph", adjacency: data.adjacency, positions: data.positions.length ? data.positions : circle(data.adjacency.length), start: data.start, goal: data.goal }
      : { kind: "tiles", rows: data.rows, cols: data.cols, goal: data.goal };
    const views = data.traces.map((trace) => new SearchPanel(panels, trace, problem));
    panels.classList.toggle("two", views.length === 2);
    stepper.load(Math.max(...data.traces.map((t) => t.steps.length)), (k) => views.forEach((v) => v.goTo(k)));
    if (lesson) stepper.goTo(slideStep(lesson.step, data.traces[0].steps, stepper.total));
    root.dataset.ready = "1";
  }

  if (form) {
    if (new URLSearchParams(window.location.search).get("problem") === "graph") f.problem.value = "graph";
    showControls();
    f.problem.addEventListener("change", () => { showControls(); load(); });
    form.addEventListener("submit", (event) => { event.preventDefault(); load(); });
    document.getElementById("new-scramble").addEventListener("click", () => {
      f.seed.value = Math.floor(Math.random() * 1e6);
      f.tiles.value = "";
      load();
    });
  }
  load();
}

onReady(() => document.querySelectorAll('.stepper[data-kind="search"]').forEach(searchView));
