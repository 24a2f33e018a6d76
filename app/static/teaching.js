// Puzzle Playground: the teaching views (seed 004). Every view replays steps recorded by the engine:
// N queens and knight's tour backtracking, paths in a graph, and the step-through of BFS/DFS/IDS/A*/IDA*.
// A Stepper drives them all: play, pause, step forward and back, speed. No inline scripts (the CSP forbids them).
(function () {
  "use strict";

  const SVG = "http://www.w3.org/2000/svg";
  const svgEl = (name, attrs) => {
    const el = document.createElementNS(SVG, name);
    Object.entries(attrs || {}).forEach(([k, v]) => el.setAttribute(k, v));
    return el;
  };
  const html = (name, cls, text) => {
    const el = document.createElement(name);
    if (cls) el.className = cls;
    if (text !== undefined) el.textContent = text;
    return el;
  };

  const Stepper = window.PuzzleStepper;

  async function fetchJSON(url, body) {
    const response = await fetch(url, body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || `request failed (${response.status})`);
    return data;
  }

  function showError(el, error) {
    if (!el) return;
    el.hidden = !error;
    el.textContent = error ? error.message || String(error) : "";
  }

  function chessboard(el, rows, cols) {
    el.innerHTML = "";
    el.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
    el.style.aspectRatio = `${cols} / ${rows}`;
    const squares = [];
    for (let i = 0; i < rows * cols; i++) {
      const sq = html("div", "sq " + ((Math.floor(i / cols) + (i % cols)) % 2 ? "dark" : "light"));
      sq.dataset.square = i;
      el.appendChild(sq);
      squares.push(sq);
    }
    return squares;
  }

  // ---- N queens: place, conflict (the attacking queen ringed), remove, solution. --------------------------------
  function queensView(root) {
    const stepper = new Stepper(root);
    const board = root.querySelector('[data-role="board"]');
    const caption = root.querySelector('[data-role="caption"]');
    const form = document.getElementById("queens-watch");
    async function load(n) {
      let data;
      try { data = await fetchJSON(`${root.dataset.url}?n=${n}`); } catch (e) { caption.textContent = e.message; return; }
      const squares = chessboard(board, n, n);
      const events = data.events;
      root.dataset.solved = "0";
      stepper.load(events.length, (k) => {
        const columns = [];
        let last = null;
        for (let i = 0; i < k; i++) {
          const e = events[i];
          if (e.event === "place") columns[e.row] = e.col;
          else if (e.event === "remove") columns.length = e.row;
          last = e;
        }
        squares.forEach((sq) => { sq.className = sq.className.replace(/ (queen|trying|clash|attacker)/g, ""); sq.textContent = ""; });
        columns.forEach((c, r) => { squares[r * n + c].classList.add("queen"); squares[r * n + c].textContent = "♛"; });
        let text = "Press play: queens go row by row, each in the first square no queen above attacks.";
        if (last && last.event === "conflict") {
          squares[last.row * n + last.col].classList.add("clash");
          squares[last.by * n + columns[last.by]].classList.add("attacker");
          text = `Row ${last.row + 1}, column ${last.col + 1}: attacked by the queen in row ${last.by + 1}.`;
        } else if (last && last.event === "place") {
          squares[last.row * n + last.col].classList.add("trying");
          text = `Row ${last.row + 1}: a queen in column ${last.col + 1}, safe so far.`;
        } else if (last && last.event === "remove") {
          text = `Row ${last.row + 1} has no safe square left below: take back the queen in column ${last.col + 1}.`;
        } else if (last && last.event === "solution") {
          text = `A solution after ${k} steps: columns ${last.columns.map((c) => c + 1).join(" ")}.`;
        }
        root.dataset.solved = last && last.event === "solution" ? "1" : "0";
        root.dataset.queens = columns.join(",");
        caption.textContent = text;
      });
    }
    form.addEventListener("submit", (event) => { event.preventDefault(); load(+form.elements.n.value); });
    load(+form.elements.n.value);
  }

  // ---- Knight's tour: jump, back, tour. ------------------------------------------------------------------------
  function knightsView(root) {
    const stepper = new Stepper(root);
    const board = root.querySelector('[data-role="board"]');
    const caption = root.querySelector('[data-role="caption"]');
    const form = document.getElementById("knights-watch");
    async function load() {
      const q = new URLSearchParams(new FormData(form));
      let data;
      try { data = await fetchJSON(`${root.dataset.url}?${q}`); } catch (e) { caption.textContent = e.message; return; }
      const squares = chessboard(board, data.rows, data.cols);
      const events = data.events;
      stepper.load(events.length, (k) => {
        const path = [];
        let last = null;
        for (let i = 0; i < k; i++) {
          const e = events[i];
          if (e.event === "jump") path.push(e.square);
          else if (e.event === "back") path.pop();
          last = e;
        }
        squares.forEach((sq) => { sq.textContent = ""; sq.classList.remove("visited", "knight"); });
        path.forEach((s, i) => { squares[s].textContent = i + 1; squares[s].classList.add("visited"); });
        if (path.length) squares[path[path.length - 1]].classList.add("knight");
        root.dataset.visited = path.length;
        caption.textContent = !last ? "Press play: the knight tries its jumps in a fixed order and backs up at dead ends."
          : last.event === "tour" ? `A tour: all ${path.length} squares after ${k} steps.`
          : last.event === "back" ? `Dead end: back from square ${last.square} (${path.length} squares on the path).`
          : `Jump ${path.length} to square ${last.square}.`;
        if (k === events.length && !data.solved) caption.textContent += " (recording stopped here; no tour yet)";
      });
    }
    form.addEventListener("submit", (event) => { event.preventDefault(); load(); });
    load();
  }

  // ---- A graph drawn in SVG; editable on the graph page, saved for the step-through page. ----------------------
  const GRAPH_KEY = "puzzle-playground-graph";

  class GraphView {
    constructor(svg, editable) {
      this.svg = svg;
      this.seed = {
        positions: svg.dataset.positions ? svg.dataset.positions.split(";").map((p) => p.split(",").map(Number)) : [],
        edges: svg.dataset.edges ? svg.dataset.edges.split(";").map((p) => p.split(",").map(Number)) : [],
      };
      const saved = editable ? JSON.parse(window.localStorage.getItem(GRAPH_KEY) || "null") : null;
      this.set(saved || this.seed);
      if (editable) this.bindEditing();
    }
    set(graph) {
      this.positions = graph.positions.map((p) => p.slice());
      this.edges = graph.edges.map((e) => e.slice());
      this.highlight = { path: [], current: null };
      this.draw();
    }
    json() { return { nodes: this.positions.length, edges: this.edges, positions: this.positions }; }
    save(extra) { window.localStorage.setItem(GRAPH_KEY, JSON.stringify({ ...this.json(), ...(extra || {}) })); }
    draw() {
      this.svg.innerHTML = "";
      const onPath = new Set();
      const path = this.highlight.path;
      for (let i = 1; i < path.length; i++) onPath.add(`${Math.min(path[i - 1], path[i])},${Math.max(path[i - 1], path[i])}`);
      this.edges.forEach(([a, b]) => {
        const [p, q] = [this.positions[a], this.positions[b]];
        const key = `${Math.min(a, b)},${Math.max(a, b)}`;
        this.svg.appendChild(svgEl("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: onPath.has(key) ? "edge on" : "edge" }));
      });
      this.positions.forEach(([x, y], i) => {
        const cls = ["node"];
        if (path.includes(i)) cls.push("on");
        if (this.highlight.current === i) cls.push("current");
        if (this.highlight.start === i) cls.push("start");
        if (this.highlight.goal === i) cls.push("goal");
        const g = svgEl("g", { class: cls.join(" "), "data-node": i });
        g.appendChild(svgEl("circle", { cx: x, cy: y, r: 5 }));
        const label = svgEl("text", { x, y: y + 2 });
        label.textContent = i;
        g.appendChild(label);
        this.svg.appendChild(g);
      });
    }
    point(event) {
      const r = this.svg.getBoundingClientRect();
      return [((event.clientX - r.left) / r.width) * 100, ((event.clientY - r.top) / r.height) * 100];
    }
    bindEditing() {
      let from = null;
      this.svg.addEventListener("pointerdown", (event) => {
        const node = event.target.closest("[data-node]");
        if (node) { from = +node.dataset.node; event.preventDefault(); return; }
        if (this.positions.length >= 36) return;
        const [x, y] = this.point(event);
        this.positions.push([Math.round(Math.max(6, Math.min(94, x))), Math.round(Math.max(6, Math.min(94, y)))]);
        this.save();
        this.draw();
      });
      this.svg.addEventListener("pointerup", (event) => {
        if (from === null) return;
        const target = document.elementFromPoint(event.clientX, event.clientY);
        const node = target && target.closest ? target.closest("[data-node]") : null;
        const to = node ? +node.dataset.node : null;
        if (to !== null && to !== from) {
          const i = this.edges.findIndex(([a, b]) => (a === from && b === to) || (a === to && b === from));
          if (i >= 0) this.edges.splice(i, 1); else this.edges.push([from, to]);
          this.save();
          this.draw();
        }
        from = null;
      });
    }
  }

  function pathsView(root) {
    const stepper = new Stepper(root);
    const view = new GraphView(document.getElementById("graph-canvas"), true);
    const form = document.getElementById("graph-search");
    const caption = root.querySelector('[data-role="caption"]');
    const pending = document.querySelector('[data-role="pending"]');
    const pendingTitle = document.querySelector('[data-role="pending-title"]');
    const found = document.querySelector('[data-role="found"]');
    const error = document.querySelector('.panel [data-role="error"]');
    document.querySelectorAll("[data-graph]").forEach((button) => button.addEventListener("click", () => {
      view.set(button.dataset.graph === "seed" ? view.seed : { positions: [], edges: [] });
      if (button.dataset.graph === "seed") window.localStorage.removeItem(GRAPH_KEY); else view.save();
      stepper.load(0, () => {});
    }));
    const arrow = (p) => p.join(" → ");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const start = +form.elements.start.value, goal = +form.elements.goal.value;
      const strategy = form.elements.strategy.value;
      let data;
      try {
        data = await fetchJSON(root.dataset.url, { ...view.json(), start, goal, strategy });
        showError(error, null);
      } catch (e) { showError(error, e); return; }
      view.save({ start, goal });
      pendingTitle.textContent = strategy === "bfs" ? "Queue (front first)" : "Stack (top first)";
      const steps = data.steps;
      stepper.load(steps.length, (k) => {
        const s = k ? steps[k - 1] : null;
        view.highlight = { path: s ? s.path : [], current: s ? s.path[s.path.length - 1] : null, start, goal };
        view.draw();
        pending.innerHTML = "";
        const shown = s ? (strategy === "bfs" ? s.pending : s.pending.slice().reverse()) : [];
        shown.slice(0, 14).forEach((p) => pending.appendChild(html("li", "", arrow(p))));
        const total = s ? (s.pending_total ?? shown.length) : 0;
        if (total > Math.min(shown.length, 14)) {
          pending.appendChild(html("li", "muted", `… and ${total - Math.min(shown.length, 14)} more`));
        }
        found.innerHTML = "";
        steps.slice(0, k).filter((x) => x.event === "found").forEach((x) => found.appendChild(html("li", "", arrow(x.path))));
        root.dataset.found = found.children.length;
        if (!s) caption.textContent = `${steps.length} steps recorded. Press play.`;
        else if (s.event === "limit") caption.textContent = `New depth limit: paths of ${s.limit} nodes.`;
        else if (s.event === "found") caption.textContent = `Found: ${arrow(s.path)}.`;
        else if (s.event === "push") caption.textContent = `${arrow(s.path)}: ${s.added} way(s) on, added to the ${strategy === "bfs" ? "queue" : "stack"}.`;
        else caption.textContent = `Take ${arrow(s.path)} from the ${strategy === "bfs" ? "queue" : "stack"}` + (s.limit ? ` (limit ${s.limit})` : "") + ".";
        if (k === steps.length && data.message) caption.textContent = data.message;
      });
    });
  }

  // ---- The step-through of engine/search: one or two recorded searches replayed in lockstep. ------------------
  class SearchPanel {
    constructor(container, trace, problem) {
      this.trace = trace;
      this.problem = problem;
      this.nodes = trace.nodes;
      this.children = this.nodes.map(() => []);
      this.nodes.forEach((n) => { if (n.parent !== null) this.children[n.parent].push(n.id); });
      this.root = this.nodes.findIndex((n) => n.parent === null);
      this.layout();
      this.el = html("section", "panel step-panel");
      this.el.dataset.algorithm = trace.algorithm;
      this.el.appendChild(html("h2", "", trace.title));
      const top = html("div", "step-top");
      this.current = html("div", "current-node");
      this.stats = html("dl", "stats");
      top.append(this.current, this.stats);
      this.el.appendChild(top);
      this.caption = html("p", "caption");
      this.el.appendChild(this.caption);
      const kind = { queue: "Frontier: FIFO queue (front first)", priority: "Frontier: priority queue, lowest f first",
        stack: "Stack: the path from the root to the current node" }[trace.frontier_kind];
      this.el.appendChild(html("h3", "", kind));
      this.frontier = html("ol", "frontier");
      this.el.appendChild(this.frontier);
      this.el.appendChild(html("h3", "", "Search tree"));
      const scroller = html("div", "tree-scroll");
      this.svg = svgEl("svg", { class: "tree" });
      scroller.appendChild(this.svg);
      this.el.appendChild(scroller);
      container.appendChild(this.el);
      this.drawn = new Map();
      this.resetState();
    }
    // Leaves get consecutive x positions, a parent sits over the middle of its children, depth gives y.
    layout() {
      let next = 0;
      let depth = 0;
      const place = (id) => {
        const kids = this.children[id];
        depth = Math.max(depth, this.nodes[id].g);
        if (!kids.length) { this.nodes[id].x = next++; return; }
        kids.forEach(place);
        this.nodes[id].x = (this.nodes[kids[0]].x + this.nodes[kids[kids.length - 1]].x) / 2;
      };
      place(this.root);  // recursion as deep as the tree, which is at most the depth limit
      this.width = Math.max(1, next);
      this.depth = depth;
    }
    resetState() {
      this.status = new Map([[this.root, "frontier"]]);
      this.seq = new Map([[this.root, -1]]);
      this.counter = 0;
      this.expanded = 0;
      this.generated = 0;
      this.currentId = null;
      this.bound = null;
      this.applied = 0;
      this.lastEvent = null;
    }
    apply(step) {
      const id = step.node;
      this.lastEvent = step;
      if (step.event === "bound") {
        this.bound = step.bound;
        this.status = new Map([[this.root, "frontier"]]);
        this.seq = new Map([[this.root, -1]]);
        this.currentId = null;
        return;
      }
      const showAncestors = () => {
        for (let a = this.nodes[id].parent; a !== null && !this.status.has(a); a = this.nodes[a].parent) this.status.set(a, "expanded");
      };
      if (step.event === "expand") { showAncestors(); this.status.set(id, "expanded"); this.currentId = id; this.expanded++; }
      else if (step.event === "generate") { this.status.set(id, "frontier"); this.seq.set(id, this.counter++); this.generated++; }
      else if (step.event === "prune") { this.status.set(id, "pruned"); this.generated++; }
      else if (step.event === "goal") { showAncestors(); this.status.set(id, "goal"); this.currentId = id; }
    }
    goTo(k) {
      k = Math.min(k, this.trace.steps.length);
      if (k < this.applied) this.resetState();
      while (this.applied < k) this.apply(this.trace.steps[this.applied++]);
      this.render();
    }
    f(id) { const n = this.nodes[id]; return n.h === null ? null : n.g + n.h; }
    label(id) {
      const n = this.nodes[id];
      if (this.problem.kind === "graph") return String(n.state);
      return n.action || "start";
    }
    pathText(id) {
      const moves = [];
      for (let a = id; a !== null; a = this.nodes[a].parent) moves.push(this.problem.kind === "graph" ? this.nodes[a].state : this.nodes[a].action);
      moves.reverse();
      return this.problem.kind === "graph" ? moves.join(" → ") : (moves.slice(1).join("") || "(start)");
    }
    frontierIds() {
      const kind = this.trace.frontier_kind;
      if (kind === "stack") {
        const chain = [];
        for (let a = this.currentId; a !== null && a !== undefined; a = this.nodes[a].parent) chain.push(a);
        return chain;
      }
      const ids = [...this.status].filter(([, s]) => s === "frontier").map(([id]) => id);
      if (kind === "queue") return ids.sort((a, b) => this.seq.get(a) - this.seq.get(b));
      return ids.sort((a, b) => (this.f(a) - this.f(b)) || (this.nodes[b].g - this.nodes[a].g) || (this.seq.get(a) - this.seq.get(b)));
    }
    render() {
      const done = this.applied >= this.trace.steps.length;
      // the current node
      this.current.innerHTML = "";
      const shownId = this.currentId === null ? this.root : this.currentId;
      this.current.appendChild(this.problem.kind === "graph" ? this.graphPicture(shownId) : this.boardPicture(this.nodes[shownId].state));
      const n = this.nodes[shownId];
      this.current.appendChild(html("div", "muted", `g ${n.g}` + (n.h !== null ? ` · h ${n.h} · f ${n.g + n.h}` : "")));
      // numbers
      const frontierIds = this.frontierIds();
      const stats = [["expanded", this.expanded], ["generated", this.generated],
        [this.trace.frontier_kind === "stack" ? "depth" : "frontier", this.trace.frontier_kind === "stack" ? Math.max(0, frontierIds.length - 1) : frontierIds.length]];
      if (this.bound !== null) stats.push([this.trace.algorithm === "ids" ? "limit" : "bound", this.bound]);
      this.stats.innerHTML = "";
      stats.forEach(([k, v]) => { this.stats.append(html("dt", "", k), html("dd", "", String(v))); });
      this.el.dataset.expanded = this.expanded;
      // caption
      const r = this.trace.result;
      const e = this.lastEvent;
      let text = "Ready: the start node is on the frontier.";
      if (done) {
        text = r.status === "solved" ? `Done: ${r.length} moves (${this.pathText(this.goalId())}), ${r.nodes_expanded} nodes expanded.`
          : this.trace.recording_stopped ? `Recording stopped after ${r.nodes_expanded} expansions (the step-through's budget).`
          : `No solution: ${r.message || r.status}.`;
      } else if (e) {
        text = { bound: `New iteration: ${this.trace.algorithm === "ids" ? "depth limit" : "f bound"} ${e.bound}.`,
          expand: `Expand ${this.pathText(e.node)}.`, generate: `Generate ${this.pathText(e.node)}.`,
          prune: `Cut off ${this.pathText(e.node)}: f = ${this.f(e.node)} is above the bound.`,
          goal: `Goal reached: ${this.pathText(e.node)}.` }[e.event];
      }
      this.caption.textContent = text;
      this.el.dataset.done = done && r.status === "solved" ? "1" : "0";
      // frontier list
      this.frontier.innerHTML = "";
      frontierIds.slice(0, 10).forEach((id) => {
        const f = this.f(id);
        this.frontier.appendChild(html("li", "", `${this.pathText(id)}   g ${this.nodes[id].g}` + (f !== null ? ` h ${this.nodes[id].h} f ${f}` : "")));
      });
      if (frontierIds.length > 10) this.frontier.appendChild(html("li", "muted", `… ${frontierIds.length - 10} more`));
      this.drawTree(done);
    }
    goalId() {
      const last = this.trace.steps[this.trace.steps.length - 1];
      return last && last.event === "goal" ? last.node : this.root;
    }
    drawTree(done) {
      const dx = 14, dy = 34, pad = 10;
      this.svg.setAttribute("width", this.width * dx + 2 * pad);
      this.svg.setAttribute("height", (this.depth + 1) * dy + 2 * pad);
      const pos = (id) => [pad + this.nodes[id].x * dx + dx / 2, pad + this.nodes[id].g * dy + 6];
      const onPath = new Set();
      if (done && this.trace.result.status === "solved") for (let a = this.goalId(); a !== null; a = this.nodes[a].parent) onPath.add(a);
      this.drawn.forEach((el, id) => { if (!this.status.has(id)) { el.remove(); this.drawn.delete(id); } });
      this.status.forEach((state, id) => {
        let el = this.drawn.get(id);
        if (!el) {
          el = svgEl("g", {});
          const [x, y] = pos(id);
          const parent = this.nodes[id].parent;
          if (parent !== null) { const [px, py] = pos(parent); el.appendChild(svgEl("line", { x1: px, y1: py, x2: x, y2: y })); }
          el.appendChild(svgEl("circle", { cx: x, cy: y, r: 5 }));
          const t = svgEl("title");
          const f = this.f(id);
          t.textContent = `${this.pathText(id)} · g ${this.nodes[id].g}` + (f !== null ? ` h ${this.nodes[id].h} f ${f}` : "");
          el.appendChild(t);
          if (this.nodes.length <= 400) { const label = svgEl("text", { x, y: y + 15 }); label.textContent = this.label(id); el.appendChild(label); }
          this.svg.appendChild(el);
          this.drawn.set(id, el);
        }
        el.setAttribute("class", `t-${state}` + (id === this.currentId ? " t-current" : "") + (onPath.has(id) ? " t-path" : ""));
      });
    }
    boardPicture(cells) {
      const grid = html("div", "node-board");
      grid.style.gridTemplateColumns = `repeat(${this.problem.cols}, 1fr)`;
      cells.forEach((t) => grid.appendChild(html("span", t ? "" : "blank", t ? String(t) : "")));
      grid.dataset.cells = cells.join(",");
      return grid;
    }
    graphPicture(id) {
      const svg = svgEl("svg", { viewBox: "0 0 100 100", class: "graph small" });
      const view = Object.create(GraphView.prototype);
      view.svg = svg;
      view.positions = this.problem.positions;
      view.edges = [];
      this.problem.adjacency.forEach((ns, a) => ns.forEach((b) => { if (a < b) view.edges.push([a, b]); }));
      const path = [];
      for (let a = id; a !== null; a = this.nodes[a].parent) path.unshift(this.nodes[a].state);
      view.highlight = { path, current: this.nodes[id].state, start: this.problem.start, goal: this.problem.goal };
      view.draw();
      svg.dataset.node = this.nodes[id].state;
      return svg;
    }
  }

  function searchView(root) {
    const stepper = new Stepper(root);
    const form = document.getElementById("step-form");
    const panels = document.getElementById("step-panels");
    const error = document.getElementById("step-error");
    async function load() {
      const f = form.elements;
      const request = { algorithms: [f.first.value].concat(f.second.value ? [f.second.value] : []),
        heuristic: f.heuristic.value, depth_limit: +f.depth_limit.value };
      if (f.problem.value === "graph") {
        const saved = JSON.parse(window.localStorage.getItem(GRAPH_KEY) || "null");
        Object.assign(request, { problem: "graph" }, saved && saved.nodes ? saved : {});
      } else {
        Object.assign(request, { problem: "tiles", size: f.problem.value.split(":")[1], goal: f.goal.value,
          scramble: +f.scramble.value, seed: 1 });
        if (f.tiles.value.trim()) request.tiles = f.tiles.value.trim();
      }
      let data;
      try { data = await fetchJSON(root.dataset.url, request); showError(error, null); }
      catch (e) { showError(error, e); return; }
      panels.innerHTML = "";
      const problem = data.problem === "graph"
        ? { kind: "graph", adjacency: data.adjacency, positions: data.positions.length ? data.positions : circle(data.adjacency.length), start: data.start, goal: data.goal }
        : { kind: "tiles", rows: data.rows, cols: data.cols };
      const views = data.traces.map((trace) => new SearchPanel(panels, trace, problem));
      panels.classList.toggle("two", views.length === 2);
      stepper.load(Math.max(...data.traces.map((t) => t.steps.length)), (k) => views.forEach((v) => v.goTo(k)));
    }
    form.addEventListener("submit", (event) => { event.preventDefault(); load(); });
    load();
  }

  function circle(count) {
    return Array.from({ length: count }, (_, i) => [50 + 40 * Math.cos((2 * Math.PI * i) / count), 50 + 40 * Math.sin((2 * Math.PI * i) / count)]);
  }

  const VIEWS = { queens: queensView, knights: knightsView, paths: pathsView, search: searchView };
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll(".stepper[data-kind]").forEach((root) => VIEWS[root.dataset.kind](root));
  });
})();
