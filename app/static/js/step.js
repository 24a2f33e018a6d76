// The step-through of engine/search: one or two recorded searches replayed in lockstep, each with its pseudocode
// (the current line marked), the variables that line reads, the frontier, and a search tree sized for a projector.
// The engine records every step with its own counters and pseudocode line (engine/search/trace.py); this module only
// replays them, so the numbers on screen are the engine's. Lesson slides load the same view with a fixed request.
import { Stepper } from "./stepper.js";
import { fetchJSON, html, onReady, plural, showError, svgEl } from "./common.js";
import { GRAPH_KEY, GraphArranger, GraphView, circle } from "./graph-view.js";
import { breakdown, decorate } from "./heuristics.js";
import { GraphTableEditor, drawGraphScene, verdictText } from "./step/graph-editor.js";
import { GridPainter, drawGrid, emptyRows } from "./step/grid-editor.js";

const COLLAPSE_AT = 120;  // visible nodes beyond which finished subtrees fold into one node (a click opens them)
// Tree spacing in px at zoom 1: a column per leaf, a row per depth with room under each node for its label (and its f
// or h); an edge runs from below its parent's labels to the top of its child, so it never crosses a label.
const DX = 48, PAD = 28, NODE_R = 9, CURRENT_R = 12;
const LABELS_BELOW = { plain: 30, withValue: 44 }, EDGE_GAP = 18;
const READABLE_ZOOM = 0.6;  // below this a 14 px label is smaller than 9 px: the overview folds levels instead
const FRONTIER_SHOWN = 10;
// A cost as people read it: whole numbers as they are, decimals (a grid's √2, a typed 4.1) to two places.
const num = (v) => (typeof v === "number" && !Number.isInteger(v) ? +v.toFixed(2) : v);
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
    const head = html("div", "step-head");  // the board, the counts and the caption: what a projector keeps in view
    const top = html("div", "step-top");
    this.current = html("div", "current-node");
    this.stats = html("dl", "stats");
    top.append(this.current, this.stats);
    head.appendChild(top);
    main.appendChild(head);
    if (this.problem.kind === "tiles") {
      const show = html("label", "inline");
      this.showH = html("input");
      this.showH.type = "checkbox";
      this.showH.addEventListener("change", () => this.render());
      show.append(this.showH, document.createTextNode(" show h on the board: each tile's distance home, conflicts outlined"));
      this.hSummary = html("div", "h-summary muted");
      head.append(show, this.hSummary);
    }
    this.caption = html("p", "caption");
    head.appendChild(this.caption);

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
    // on a projector these columns scroll inside the panel: focusable, so the keyboard can scroll them too
    [[left, "Pseudocode"], [right, "Variables"]].forEach(([box, name]) => { box.tabIndex = 0; box.setAttribute("role", "region"); box.setAttribute("aria-label", name); });
    code.append(left, right);
    main.appendChild(code);

    const kind = { queue: "Frontier: FIFO queue, front first", priority: `Frontier: priority queue, least ${t.priority} first`,
      stack: "Stack: the path from the current node back to the root", "two-queues": "Frontiers: the two queues, front first" }[t.frontier_kind];
    const waiting = html("div", "step-frontier");
    waiting.tabIndex = 0;
    waiting.setAttribute("role", "region");
    waiting.setAttribute("aria-label", "Frontier");
    waiting.appendChild(html("h3", "", kind));
    this.frontier = html("ol", "frontier");
    this.frontierMore = html("p", "muted frontier-more");
    waiting.append(this.frontier, this.frontierMore);
    main.appendChild(waiting);
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
    this.fitButton = button("Fit", "Fit the whole tree in the box, folding its deepest levels if it is too big to read",
      () => this.setOverview(!this.overview));
    this.fitButton.setAttribute("aria-pressed", "false");
    const follow = html("label", "follow");
    this.followBox = html("input");
    this.followBox.type = "checkbox";
    this.followBox.checked = true;
    this.followBox.addEventListener("change", () => { this.follow = this.followBox.checked; this.drawTree(); });
    follow.append(this.followBox, document.createTextNode(" follow the current node"));
    tools.appendChild(follow);
    treeColumn.appendChild(tools);

    const legendBox = html("details", "tree-legend-box");
    legendBox.open = !container.closest(".presenting");  // on a projector the tree needs the room; one click opens it
    legendBox.appendChild(html("summary", "", "Legend"));
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
    legend.appendChild(html("li", "fold-count", "“+n” beside a node: n nodes under it are folded away (dropped, cut off, " +
      "finished or, in Fit, deeper than the levels shown); click the node to open it"));
    legendBox.appendChild(legend);
    treeColumn.appendChild(legendBox);
    this.legendBox = legendBox;

    this.scroller = html("div", "tree-scroll");
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute("aria-label", "Search tree: drag or scroll to pan; click a node for its details");
    this.svg = svgEl("svg", { class: "tree", role: "group", "aria-label": "search tree" });
    this.scroller.appendChild(this.svg);
    treeColumn.appendChild(this.scroller);
    this.bindPan();
    // Fit keeps fitting when the box changes size (the legend opens, the window turns)
    new ResizeObserver(() => { if (this.overview) this.scheduleTree(); }).observe(this.scroller);
    this.details = html("div", "node-details idle");
    this.details.setAttribute("aria-live", "polite");
    this.details.textContent = "Click a node in the tree to see its path, g, h, f and why it was or was not chosen.";
    treeColumn.appendChild(this.details);
    container.appendChild(this.el);
  }

  // Scroll the boxes of this panel that hold el (never the page) so that el is inside them: on a projector the code
  // box is shorter than the code, and the marked line must stay on screen.
  reveal(el) {
    for (let box = el.parentElement; box && box !== this.el.parentElement; box = box.parentElement) {
      if (box.scrollHeight <= box.clientHeight + 1) continue;
      const outer = box.getBoundingClientRect(), inner = el.getBoundingClientRect();
      if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top + 4;
      else if (inner.bottom > outer.bottom) box.scrollTop += Math.min(inner.top - outer.top, inner.bottom - outer.bottom + 4);
    }
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
    window.requestAnimationFrame(() => {
      this.pending = false;
      this.drawTree();
      const marked = this.code.querySelector('[aria-current="step"]');
      if (marked) this.reveal(marked);  // again once the page has laid out (a slide's text can move the panels)
    });
  }

  setFollow(on) { this.follow = on; this.followBox.checked = on; }
  setZoom(z) { this.overview = false; this.fitButton.setAttribute("aria-pressed", "false"); this.zoom = Math.max(READABLE_ZOOM, Math.min(3, z)); this.drawTree(); }
  // Fit: the whole tree in the box at a readable size, re-fitted at every step; levels too deep to fit fold into
  // their ancestors' counts. A zoom button leaves it.
  setOverview(on) { this.overview = on; this.fitButton.setAttribute("aria-pressed", String(on)); if (!on) this.zoom = 1; this.drawTree(); }

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
    return String(this.problem.namesStates ? n.state : n.action);
  }
  pathText(id) {
    const chain = [];
    for (let a = id; a !== null; a = this.nodes[a].parent) chain.unshift(a);
    const side = this.nodes[id].side === "backward" ? " (from the goal)" : "";
    if (this.problem.namesStates) return chain.map((a) => this.nodes[a].state).join(" → ") + side;
    return (chain.slice(1).map((a) => this.nodes[a].action).join(this.problem.actionGap || "") || (side ? "goal" : "start")) + side;
  }
  numbers(id) {
    const n = this.nodes[id];
    return `g ${num(n.g)}` + (this.usesH() && n.h !== null ? ` · h ${num(n.h)} · f ${num(n.g + n.h)}` : "");
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
    this.current.appendChild(this.problem.picture ? this.problem.picture(this, shownId)
      : this.problem.kind === "graph" ? this.graphPicture(shownId) : this.boardPicture(n.state));
    this.current.appendChild(html("div", "muted", this.numbers(shownId)));

    const frontierIds = this.frontierIds();
    const counts = done && r.status === "solved" ? { expanded: r.nodes_expanded, generated: r.nodes_generated, frontier: this.counts.frontier } : this.counts;
    const stack = t.frontier_kind === "stack";
    const stats = [["expanded", counts.expanded], ["generated", counts.generated],
      stack ? ["depth", Math.max(0, frontierIds.length - 1)] : ["frontier", counts.frontier]];
    if (this.bound !== null) stats.push([t.cutoff === "depth" ? "limit" : "bound", num(this.bound)]);
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
    if (this.code.children[line]) this.reveal(this.code.children[line]);

    this.vars.innerHTML = "";
    const vars = [["node", this.currentId === null ? "—" : this.pathText(this.currentId)], ["g", num(n.g)]];
    if (this.usesH()) vars.push(["h", num(n.h) ?? "—"], ["f = g + h", n.h === null ? "—" : num(n.g + n.h)]);
    if (this.bound !== null) vars.push([t.cutoff === "depth" ? "limit" : "bound", num(this.bound)]);
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
      const path = r.path && this.problem.picture ? r.path.map((s) => (Array.isArray(s) ? `(${s.join(", ")})` : s)).join(" → ")
        : this.problem.kind === "graph" ? [this.problem.start, ...r.moves.split(" ").filter(Boolean)].join(" → ")
          : r.moves || "already at the goal";
      const t = this.trace;
      if (!t.unit_costs) {  // a graph with costs: the fewest edges and the cheapest path part ways
        return `Done: ${plural(r.length, this.problem.kind === "grid" ? "move" : "edge")} costing ${+r.cost.toFixed(6)} (${path}), ${r.nodes_expanded} expanded, ${r.nodes_generated} generated.` +
          (r.optimal ? " The cheapest path." : t.optimal ? ` The fewest ${this.problem.kind === "grid" ? "moves" : "edges"}, but not necessarily the cheapest path: this search does not add up costs.`
            : " Not necessarily the cheapest path.");
      }
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
        return e.previous === null ? `Iteration 1: f bound ${num(e.bound)} = h(start), since no path can cost less than h says.`
          : `New iteration: f bound ${num(e.bound)}. The search with bound ${num(e.previous)} cut off ${plural(e.cut, "node")}; the least f among them is ${num(e.bound)}, so that is the next bound: no cheaper path was left unexplored.`;
      case "expand": return `Expand ${this.pathText(e.node)} (${this.numbers(e.node)}).`;
      case "generate": return `Generate ${this.pathText(e.node)} (${this.numbers(e.node)}) and put it on the frontier.`;
      case "duplicate": return t.frontier_kind === "stack"
        ? `Skip ${this.pathText(e.node)}: its state is already on the path, going there would walk in a circle.`
        : `Skip ${this.pathText(e.node)}: its state was already reached by a path at least as short.`;
      case "stale": return `Drop ${this.pathText(e.node)}: a cheaper path to its state was pushed after it, so this entry is out of date.`;
      case "prune": return t.cutoff === "f"
        ? `Cut off ${this.pathText(e.node)}: f = ${num(this.f(e.node))} is above the bound ${num(this.bound)}.`
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

  rowHeight() { return (this.usesH() ? LABELS_BELOW.withValue : LABELS_BELOW.plain) + EDGE_GAP + CURRENT_R + 4; }

  // Leaves side by side, each parent over the middle of its children; returns columns by node and the tree's size.
  layout(kids) {
    const x = new Map();
    let next = 0, depth = 0;
    const place = (id) => {
      depth = Math.max(depth, this.nodes[id].depth);
      const c = kids.get(id);
      if (!c.length) { x.set(id, next++); return; }
      c.forEach(place);
      x.set(id, (x.get(c[0]) + x.get(c[c.length - 1])) / 2);
    };
    this.roots.filter((r) => kids.has(r)).forEach((r) => { place(r); next += 0.5; });
    return { x, width: Math.max(1, next) * DX + 2 * PAD, height: (depth + 1) * this.rowHeight() + 2 * PAD };
  }

  // The overview's folding by depth: the deepest level kept is the deepest at which the tree still fits the box at a
  // readable zoom; every node on that level carries the count of what hangs below it.
  foldByDepth(kids, folded) {
    const box = { w: this.scroller.clientWidth - 4, h: this.scroller.clientHeight - 4 };
    const deepest = Math.max(...[...kids.keys()].map((id) => this.nodes[id].depth));
    for (let cut = deepest; cut >= 0; cut--) {
      const trimmed = new Map(), counts = new Map(folded);
      const below = (id) => kids.get(id).reduce((n, c) => n + 1 + (folded.get(c) || 0) + below(c), 0);
      kids.forEach((c, id) => {
        if (this.nodes[id].depth > cut) return;
        if (this.nodes[id].depth === cut && c.length) { trimmed.set(id, []); counts.set(id, (folded.get(id) || 0) + below(id)); } else trimmed.set(id, c);
      });
      const size = this.layout(trimmed);
      if (cut === 0 || (size.width * READABLE_ZOOM <= box.w && size.height * READABLE_ZOOM <= box.h)) {
        for (const id of kids.keys()) if (!trimmed.has(id)) counts.delete(id);
        return { kids: trimmed, folded: counts };
      }
    }
    return { kids, folded };
  }

  drawTree() {
    let { kids, folded } = this.visibleTree();
    if (this.overview) ({ kids, folded } = this.foldByDepth(kids, folded));
    const { x, width, height } = this.layout(kids);
    this.treeWidth = width;
    if (this.overview) this.zoom = Math.min(1, (this.scroller.clientWidth - 4) / width, (this.scroller.clientHeight - 4) / height);
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.svg.setAttribute("width", width * this.zoom);
    this.svg.setAttribute("height", height * this.zoom);
    this.el.dataset.treeWidth = Math.round(width * this.zoom);
    this.el.dataset.treeHeight = Math.round(height * this.zoom);
    const row = this.rowHeight(), below = this.usesH() ? LABELS_BELOW.withValue : LABELS_BELOW.plain;
    const pos = (id) => [PAD + x.get(id) * DX + DX / 2, PAD + CURRENT_R + this.nodes[id].depth * row];
    const shown = (id) => { let a = id; while (a !== null && a !== undefined && !x.has(a)) a = this.nodes[a].parent; return a; };
    const current = this.currentId === null ? null : shown(this.currentId);
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
        edges.appendChild(svgEl("line", { x1: px, y1: py + below, x2: cx, y2: cy - CURRENT_R - 1, class: onPath.has(id) ? "t-path" : "" }));
      }
      const state = this.status.get(id);
      const wholly = folded.has(id) && !kids.get(id).length;  // else only its dropped leaves are folded
      const cls = [`t-${wholly && state !== "frontier" ? "folded" : state}`];
      if (id === current) cls.push("t-current");
      if (onPath.has(id)) cls.push("t-path");
      if (id === this.selected) cls.push("t-selected");
      const g = svgEl("g", { class: cls.join(" "), "data-id": id, tabindex: "0", role: "button" });
      g.appendChild(svgEl("circle", { cx, cy, r: NODE_R }));
      const label = svgEl("text", { x: cx, y: cy + 24 });
      label.textContent = this.label(id);
      g.appendChild(label);
      if (folded.has(id)) {  // beside the circle, where no edge runs: the label below stays one column wide
        const count = svgEl("text", { x: cx + NODE_R + 2, y: cy + 4, class: "t-count" });
        count.textContent = `+${folded.get(id)}`;
        g.appendChild(count);
      }
      let value = "";
      if (this.usesH() && this.nodes[id].h !== null) {
        const f = svgEl("text", { x: cx, y: cy + 38, class: "t-f" });
        value = `${this.trace.priority === "h" ? "h" : "f"} ${num(this.trace.priority === "h" ? this.nodes[id].h : this.f(id))}`;
        f.textContent = value;
        g.appendChild(f);
      }
      // an SVG title names the node for assistive technology (and shows as a tooltip): the visible text first, then
      // where the node is and what happened to it
      const title = svgEl("title");
      title.textContent = `${label.textContent}${folded.has(id) ? ` +${folded.get(id)}` : ""} ${value}: ${this.pathText(id)}, ${wholly ? STATUS.folded : STATUS[state] || state}` +
        (folded.has(id) ? ` (${plural(folded.get(id), "node")} folded under it; click to show)` : "");
      g.prepend(title);
      nodes.appendChild(g);
    });
    this.svg.append(edges, nodes);
    const focus = current !== null && x.has(current) ? current : this.roots[0];
    if (this.follow && !this.overview && x.has(focus)) {
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
    this.details.classList.remove("idle");
    this.details.appendChild(html("h4", "", this.pathText(id)));
    const dl = html("dl", "stats");
    const rows = [["depth", n.depth], ["g", num(n.g)]];
    if (n.h !== null) rows.push(["h", num(n.h)], ["f", num(n.g + n.h)]);
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
      if (t.frontier_kind === "priority") return `Expanded ${at}: its ${key} = ${num(this.key(id))} was the least on the frontier.`;
      if (t.frontier_kind === "queue" || t.frontier_kind === "two-queues") return `Expanded ${at}: it was at the front of the queue, the oldest node waiting.`;
      if (t.cutoff === "f") return `Expanded ${at}: its f = ${num(this.f(id))} was within the bound, and depth-first search goes into each child in turn.`;
      return `Expanded ${at}: depth-first search goes into each child in turn, and this one was within the limit.`;
    }
    if (state === "frontier") {
      const waiting = this.frontierIds();
      const ahead = waiting.indexOf(id);
      if (t.frontier_kind === "priority") {
        return ahead === 0 ? `Next to be expanded: its ${key} = ${num(this.key(id))} is the least on the frontier.`
          : `Waiting: its ${key} = ${num(this.key(id))}, but ${plural(ahead, "node")} on the frontier come first (the next has ${key} = ${num(this.key(waiting[0]))}).`;
      }
      return ahead === 0 ? "Next to be expanded: it is at the front of the queue." : `Waiting: ${plural(ahead, "node")} ahead of it in the queue.`;
    }
    if (state === "pruned") return t.cutoff === "f"
      ? `Cut off: f = g + h = ${num(this.f(id))} is above the bound ${num(this.bound)}. The least such f becomes the next bound.`
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

// Keys a clicker or a keyboard sends (a presentation clicker sends PageDown and PageUp). A key is left alone where it
// already means something: typing in a field, a slider's arrows, Space or Enter on a button or link.
const FORWARD = ["PageDown", "ArrowRight", " "], BACK = ["PageUp", "ArrowLeft"];
function keyAction(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const target = event.target;
  const typing = target.closest && target.closest("input, select, textarea, [contenteditable]");
  if (typing) return null;
  if (event.key === " " && target.closest && target.closest("button, a, summary, [role=button]")) return null;
  if (event.key.startsWith("Arrow") && target.closest && target.closest(".tree-scroll, [role=region]")) return null;  // they scroll it
  if (FORWARD.includes(event.key)) return "forward";
  if (BACK.includes(event.key)) return "back";
  if (event.key === "Home") return "reset";
  if (event.key === "End") return "end";
  return null;
}

// The page's form: tile controls for tile problems, node controls for the graph, and "new scramble" for a new seed.
// Once a search is loaded from the form, the form folds into one line (one click brings it back) and the stage, the
// player with the panels, fills the screen: a projector at 853×480 shows the board, the code and the tree at once.
// The states of a graph typed as data are its node names; the picture is the graph with the path to the node marked.
function graphDataProblem(scene) {
  return {
    kind: "graph-data", namesStates: true, scene,
    picture(panel, id) {
      const path = [];
      for (let a = id; a !== null; a = panel.nodes[a].parent) path.unshift(panel.nodes[a].state);
      const svg = svgEl("svg", { viewBox: "0 0 100 100", class: "graph small named", role: "img", "aria-label": `the graph, at ${panel.nodes[id].state}` });
      drawGraphScene(svg, scene, panel.nodes[id].side === "backward" ? [] : path);
      svg.dataset.node = panel.nodes[id].state;
      return svg;
    },
  };
}

// A grid's states are cells [x, y]; the picture is the map with the cells expanded so far, the frontier and the path to
// the node marked.
function gridProblem(scene) {
  return {
    kind: "grid", actionGap: " ", scene,
    picture(panel, id) {
      const path = [];
      for (let a = id; a !== null; a = panel.nodes[a].parent) path.unshift(panel.nodes[a].state);
      const closed = [], frontier = [];
      panel.status.forEach((status, node) => {
        if (status === "expanded") closed.push(panel.nodes[node].state);
        else if (status === "frontier") frontier.push(panel.nodes[node].state);
      });
      const [x, y] = panel.nodes[id].state;
      const svg = svgEl("svg", { class: "grid-map small", role: "img", "aria-label": `the grid, at (${x}, ${y})` });
      drawGrid(svg, scene, { path, closed, frontier, current: [x, y] });
      svg.dataset.cell = `${x},${y}`;
      return svg;
    },
  };
}

async function searchView(root) {
  const stepper = new Stepper(root);
  const stage = document.getElementById("step-stage");
  const form = document.getElementById("step-form");
  const panels = document.getElementById("step-panels");
  const error = document.getElementById("step-error");
  const announcer = document.getElementById("announcer");
  const lesson = root.dataset.config ? JSON.parse(root.dataset.config) : null;
  const f = form ? form.elements : null;
  let views = [];

  const showControls = () => {
    const kind = ["graph", "graph-data", "grid"].includes(f.problem.value) ? f.problem.value : "tiles";
    form.querySelectorAll("[data-for]").forEach((el) => { el.hidden = el.dataset.for !== kind; });
  };

  function request() {
    if (lesson) return { ...lesson.request, open_at: lesson.step };  // the server says which step that is
    const body = { algorithms: [f.first.value].concat(f.second.value ? [f.second.value] : []), depth_limit: +f.depth_limit.value };
    if (f.problem.value === "graph-data") {
      Object.assign(body, { problem: "graph", graph: graphEditor.json() }, f.graph_data_h.value ? { heuristic: f.graph_data_h.value } : {});
    } else if (f.problem.value === "grid") {
      Object.assign(body, { problem: "grid", grid: gridPainter.json() }, f.grid_h.value ? { heuristic: f.grid_h.value } : {});
    } else if (f.problem.value === "graph") {
      const saved = JSON.parse(window.localStorage.getItem(GRAPH_KEY) || "null");
      Object.assign(body, { problem: "graph", heuristic: f.graph_h.value, start: +f.from.value, goal: +f.to.value },
        saved && saved.nodes ? { nodes: saved.nodes, edges: saved.edges, positions: saved.positions, costs: saved.costs } : {});
    } else {
      Object.assign(body, { problem: "tiles", size: f.problem.value.split(":")[1], goal: f.goal.value,
        heuristic: f.heuristic.value, scramble: +f.scramble.value, seed: +f.seed.value });
      if (f.tiles.value.trim()) body.tiles = f.tiles.value.trim();
    }
    return body;
  }

  // One line saying what is loaded, shown while the form is folded away.
  function summary() {
    const chosen = (select) => select.options[select.selectedIndex].text;
    const what = f.problem.value === "graph-data" ? `graph, ${f.graph_start.value} to ${f.graph_goal.value}`
      : f.problem.value === "grid" ? `grid, (${f.grid_start_x.value}, ${f.grid_start_y.value}) to (${f.grid_goal_x.value}, ${f.grid_goal_y.value})`
      : f.problem.value === "graph" ? `graph, node ${f.from.value} to node ${f.to.value}`
      : `${chosen(f.problem)}, ${f.tiles.value.trim() ? `tiles ${f.tiles.value.trim()}` : `${f.scramble.value} scramble moves, seed ${f.seed.value}`}`;
    return `${what} · ${chosen(f.first)}${f.second.value ? ` beside ${chosen(f.second)}` : ""}`;
  }

  function fold(folded) {
    if (!form) return;
    form.hidden = folded;
    document.getElementById("setup-bar").hidden = !folded;
    document.getElementById("setup-toggle").setAttribute("aria-expanded", String(!folded));
    if (folded) document.getElementById("setup-summary").textContent = summary();
    stage.classList.toggle("presenting", folded);
  }

  // Bring the whole stage on screen when it does not fit below what is above it (the page header, the intro).
  function frame(always) {
    if (!window.matchMedia("(min-width: 700px)").matches) return;  // a phone scrolls the page as usual
    const box = stage.getBoundingClientRect();
    if (always || box.bottom > window.innerHeight + 1 || box.top < 0) window.scrollTo({ top: window.scrollY + box.top, behavior: "instant" });
  }

  function announce(step) {
    if (!announcer || !views.length || (stepper.playing && step < stepper.total)) return;  // playing: only where it stops
    announcer.textContent = `Step ${step} of ${stepper.total}. ` + views.map((v) => (views.length > 1 ? `${v.trace.title}: ` : "") + v.caption.textContent).join(" ");
  }

  // On a graph, the form holds the graph itself: move it, pick the ends, change the costs, and the search reruns.
  let rearranging = null;
  const arranger = form && document.getElementById("step-graph") ? new GraphArranger(document.getElementById("step-graph"), (what) => {
    if (what === "start") f.from.value = arranger.highlight.start;
    if (what === "goal") f.to.value = arranger.highlight.goal;
    window.clearTimeout(rearranging);
    rearranging = window.setTimeout(() => load(false, true), 120);
  }) : null;

  // A graph typed as data and a grid drawn with the mouse: every edit searches again at once (the answer drawn at
  // its end), a newer edit winning over an answer still on its way.
  let editing = null;
  const rerun = () => { window.clearTimeout(editing); editing = window.setTimeout(() => load(false, true), 80); };
  const graphEditor = form && document.getElementById("graph-editor") ? new GraphTableEditor(document.getElementById("graph-editor"), (graph, problem) => {
    if (problem) { showError(error, problem); return; }
    rerun();
  }) : null;
  const gridPainter = form && document.getElementById("grid-editor") ? new GridPainter(document.getElementById("grid-editor"), rerun) : null;
  if (gridPainter) {
    const rows = emptyRows(16, 10);
    [2, 3, 4, 5, 6, 7].forEach((y) => { rows[y] = rows[y].slice(0, 8) + "#" + rows[y].slice(9); });
    rows[7] = rows[7].slice(0, 10) + "555" + rows[7].slice(13);
    gridPainter.load({ rows, start: [1, 5], goal: [14, 5], connect: 8 });
  }
  async function loadExample(name) {
    try { graphEditor.load(await fetchJSON(`/api/step/graphs/${name}`)); showError(error, null); } catch (e) { showError(error, e); }
  }
  if (graphEditor) {
    document.querySelectorAll("[data-load-example]").forEach((b) => b.addEventListener("click", () => loadExample(b.dataset.loadExample).then(rerun)));
  }

  let latest = 0;
  async function load(present, rearranged) {
    const mine = ++latest;  // a newer request (the form changed again) wins over an older answer still on its way
    root.dataset.ready = "0";
    let data;
    try { data = await fetchJSON(root.dataset.url, request()); showError(error, null); } catch (e) { showError(error, e); fold(false); return; }
    if (mine !== latest) return;
    panels.innerHTML = "";
    if (present) fold(true);
    const scene = data.traces[0].scene;
    const problem = data.problem === "graph" && scene ? graphDataProblem(scene)
      : data.problem === "grid" ? gridProblem(scene)
      : data.problem === "graph"
        ? { kind: "graph", namesStates: true, adjacency: data.adjacency, positions: data.positions.length ? data.positions : circle(data.adjacency.length), start: data.start, goal: data.goal }
        : { kind: "tiles", rows: data.rows, cols: data.cols, goal: data.goal };
    const verdict = document.getElementById("graph-verdict");
    if (verdict) verdict.textContent = problem.kind === "graph-data" ? verdictText(scene, data.traces[0].heuristic) : "";
    views = data.traces.map((trace) => new SearchPanel(panels, trace, problem));
    panels.classList.toggle("two", views.length === 2);
    stepper.load(Math.max(...data.traces.map((t) => t.steps.length)), (k) => views.forEach((v) => v.goTo(k)));
    if (rearranged) stepper.goTo(stepper.total);  // show where the changed graph leads
    if (arranger && problem.kind === "graph" && !rearranged) arranger.load(data.positions.length ? data.positions : circle(data.adjacency.length), data.adjacency, data.costs, data.start, data.goal);
    if (lesson) {
      const named = document.getElementById("slide-step");
      if (named) named.textContent = `step ${data.open_step} of ${stepper.total}`;
      stepper.goTo(data.open_step);
    }
    root.dataset.ready = "1";
    if (present || lesson) frame(present);
    if (present && document.activeElement && !document.activeElement.offsetParent) root.querySelector('[data-act="forward"]').focus();
  }

  stepper.listeners.push(announce);
  document.addEventListener("keydown", (event) => {
    const act = keyAction(event);
    if (!act || root.dataset.ready !== "1") return;
    event.preventDefault();
    if (lesson && act === "forward" && stepper.step >= stepper.total) {
      const next = document.querySelector('a[rel="next"]');
      if (next) window.location.href = next.href;
    } else if (lesson && act === "back" && stepper.step <= 0) {
      const prev = document.querySelector('a[rel="prev"]');
      if (prev) window.location.href = prev.href;
    } else {
      stepper[act]();
    }
  });

  if (form) {
    const asked = new URLSearchParams(window.location.search).get("problem");
    if (["graph", "graph-data", "grid"].includes(asked)) f.problem.value = asked;
    showControls();
    if (graphEditor) await loadExample("romania");
    form.addEventListener("change", (event) => {  // every change shows at once; Load also folds the form away
      if (event.target === f.problem) showControls();
      if (event.target.name) load(false);
    });
    form.addEventListener("submit", (event) => { event.preventDefault(); load(true); });
    document.getElementById("new-scramble").addEventListener("click", () => {
      f.seed.value = Math.floor(Math.random() * 1e6);
      f.tiles.value = "";
      load(false);
    });
    document.getElementById("setup-toggle").addEventListener("click", () => {
      fold(false);
      f.problem.focus();
    });
  }
  load(false);
}

onReady(() => document.querySelectorAll('.stepper[data-kind="search"]').forEach(searchView));
