// A graph drawn in SVG: drawn on the graph page and arranged on the step-through (both saved in localStorage, so
// each page sees the other's graph). Edges carry whole-number costs, drawn at their middles.
import { svgEl } from "./common.js";

const MAX_COST = 99; // engine/subjects/classic/graph.py MAX_COST
const edgeKey = (a, b) => `${Math.min(a, b)},${Math.max(a, b)}`;

export const GRAPH_KEY = "puzzle-playground-graph";

export class GraphView {
  constructor(svg, editable) {
    this.svg = svg;
    this.seed = {
      positions: svg.dataset.positions ? svg.dataset.positions.split(";").map((p) => p.split(",").map(Number)) : [],
      edges: svg.dataset.edges ? svg.dataset.edges.split(";").map((p) => p.split(",").map(Number)) : [],
      costs: svg.dataset.costs ? svg.dataset.costs.split(";").map(Number) : undefined,
    };
    const saved = editable ? JSON.parse(window.localStorage.getItem(GRAPH_KEY) || "null") : null;
    this.set(saved || this.seed);
    if (editable) this.bindEditing();
  }
  set(graph) {
    this.positions = graph.positions.map((p) => p.slice());
    this.edges = graph.edges.map((e) => e.slice());
    this.costs = new Map(this.edges.map(([a, b], i) => [edgeKey(a, b), (graph.costs && graph.costs[i]) || 1]));
    this.highlight = { path: [], current: null };
    this.draw();
  }
  cost(a, b) {
    return this.costs.get(edgeKey(a, b)) || 1;
  }
  // Draw a read-only graph into another svg (the step-through's current-node picture) with the same look.
  // costs: [[a, b, cost], …] as /api/step answers them, drawn on the edges when given.
  static drawInto(svg, positions, adjacency, highlight, costs) {
    const view = Object.create(GraphView.prototype);
    view.svg = svg;
    view.positions = positions;
    view.edges = [];
    adjacency.forEach((ns, a) =>
      ns.forEach((b) => {
        if (a < b) view.edges.push([a, b]);
      }),
    );
    view.costs = new Map((costs || []).map(([a, b, c]) => [edgeKey(a, b), c]));
    view.showCosts = Boolean(costs && costs.length);
    view.highlight = highlight;
    view.draw();
  }
  json() {
    return {
      nodes: this.positions.length,
      edges: this.edges,
      positions: this.positions,
      costs: this.edges.map(([a, b]) => this.cost(a, b)),
    };
  }
  save(extra) {
    window.localStorage.setItem(GRAPH_KEY, JSON.stringify({ ...this.json(), ...(extra || {}) }));
  }
  draw() {
    this.svg.innerHTML = "";
    const onPath = new Set();
    const path = this.highlight.path;
    for (let i = 1; i < path.length; i++)
      onPath.add(`${Math.min(path[i - 1], path[i])},${Math.max(path[i - 1], path[i])}`);
    this.edges.forEach(([a, b]) => {
      const [p, q] = [this.positions[a], this.positions[b]];
      const key = `${Math.min(a, b)},${Math.max(a, b)}`;
      this.svg.appendChild(
        svgEl("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: onPath.has(key) ? "edge on" : "edge" }),
      );
    });
    if (this.showCosts) {
      this.edges.forEach(([a, b]) => {
        const [p, q] = [this.positions[a], this.positions[b]];
        const [x, y] = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
        const g = svgEl("g", {
          class: "cost",
          "data-edge": edgeKey(a, b),
          tabindex: this.editing ? "0" : "-1",
          role: this.editing ? "button" : "img",
          "aria-label":
            `edge ${a}–${b} costs ${this.cost(a, b)}` +
            (this.editing ? ": click or arrow up for more, shift-click or arrow down for less" : ""),
        });
        g.appendChild(svgEl("rect", { x: x - 4, y: y - 3.2, width: 8, height: 6.4, rx: 1.5 }));
        const label = svgEl("text", { x, y: y + 1.9 });
        label.textContent = this.cost(a, b);
        g.appendChild(label);
        this.svg.appendChild(g);
      });
    }
    this.positions.forEach(([x, y], i) => {
      const cls = ["node"];
      if (path.includes(i)) cls.push("on");
      if (this.highlight.current === i) cls.push("current");
      if (this.highlight.start === i) cls.push("start");
      if (this.highlight.goal === i) cls.push("goal");
      const g = svgEl("g", { class: cls.join(" "), "data-node": i });
      if (this.editing) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute(
          "aria-label",
          `node ${i}${this.highlight.start === i ? ", the start" : ""}${this.highlight.goal === i ? ", the goal" : ""}: ` +
            "drag or use the arrow keys to move it, click or G to make it the goal, shift-click or S the start",
        );
      }
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
      if (node) {
        from = +node.dataset.node;
        event.preventDefault();
        return;
      }
      if (this.positions.length >= +(this.svg.dataset.maxNodes || 60)) return;
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
        if (i >= 0) this.edges.splice(i, 1);
        else this.edges.push([from, to]);
        this.save();
        this.draw();
      }
      from = null;
    });
  }
}

// The step-through's way of changing a graph in place: drag a node (or move it with the arrow keys), click a node
// for the goal and shift-click for the start (G and S from the keyboard), click an edge's cost to raise it and
// shift-click to lower it (arrow keys too). ``onChange(what)`` follows every change ("graph", "start", "goal").
export class GraphArranger extends GraphView {
  constructor(svg, onChange) {
    super(svg, false);
    this.onChange = onChange;
    this.editing = true;
    this.showCosts = true;
    this.bindArranging();
  }
  load(positions, adjacency, costs, start, goal) {
    const edges = [];
    adjacency.forEach((ns, a) =>
      ns.forEach((b) => {
        if (a < b) edges.push([a, b]);
      }),
    );
    const cost = new Map(costs.map(([a, b, c]) => [edgeKey(a, b), c]));
    this.set({ positions, edges, costs: edges.map(([a, b]) => cost.get(edgeKey(a, b)) || 1) });
    this.highlight = { path: [], current: null, start, goal };
    this.draw();
  }
  changed(what) {
    this.save();
    this.draw();
    this.onChange(what);
  }
  setEnd(which, node) {
    this.highlight[which] = node;
    this.changed(which);
  }
  bump(key, by) {
    this.costs.set(key, Math.max(1, Math.min(MAX_COST, (this.costs.get(key) || 1) + by)));
    this.changed("graph");
    const label = this.svg.querySelector(`[data-edge="${key}"]`);
    if (label) label.focus();
  }
  move(i, dx, dy) {
    const p = this.positions[i];
    this.positions[i] = [
      Math.round(Math.max(4, Math.min(96, p[0] + dx))),
      Math.round(Math.max(4, Math.min(96, p[1] + dy))),
    ];
  }
  bindArranging() {
    let drag = null;
    this.svg.addEventListener("pointerdown", (event) => {
      const node = event.target.closest("[data-node]");
      if (!node) return;
      drag = { node: +node.dataset.node, moved: false, at: this.point(event) };
      this.svg.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    this.svg.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const [x, y] = this.point(event);
      if (!drag.moved && Math.hypot(x - drag.at[0], y - drag.at[1]) < 1.5) return;
      drag.moved = true;
      this.positions[drag.node] = [0, 0];
      this.move(drag.node, x, y);
      this.draw();
    });
    this.svg.addEventListener("pointerup", (event) => {
      if (!drag) return;
      const { node, moved } = drag;
      drag = null;
      if (moved) this.changed("graph");
      else this.setEnd(event.shiftKey ? "start" : "goal", node);
    });
    this.svg.addEventListener("click", (event) => {
      const cost = event.target.closest("[data-edge]");
      if (cost) this.bump(cost.dataset.edge, event.shiftKey ? -1 : 1);
    });
    this.svg.addEventListener("keydown", (event) => {
      const cost = event.target.closest("[data-edge]");
      const node = event.target.closest("[data-node]");
      const arrows = { ArrowUp: [0, -2], ArrowDown: [0, 2], ArrowLeft: [-2, 0], ArrowRight: [2, 0] };
      if (cost && ["ArrowUp", "ArrowRight", "+", "Enter", " "].includes(event.key)) this.bump(cost.dataset.edge, 1);
      else if (cost && ["ArrowDown", "ArrowLeft", "-"].includes(event.key)) this.bump(cost.dataset.edge, -1);
      else if (node && arrows[event.key]) {
        const i = +node.dataset.node;
        this.move(i, ...arrows[event.key]);
        this.changed("graph");
        this.svg.querySelector(`[data-node="${i}"]`).focus();
      } else if (node && ["g", "s"].includes(event.key.toLowerCase())) {
        const i = +node.dataset.node;
        this.setEnd(event.key.toLowerCase() === "s" ? "start" : "goal", i);
        this.svg.querySelector(`[data-node="${i}"]`).focus();
      } else return;
      event.preventDefault();
      event.stopPropagation(); // the page's step keys leave a focused graph alone
    });
  }
}

export function circle(count) {
  return Array.from({ length: count }, (_, i) => [
    50 + 40 * Math.cos((2 * Math.PI * i) / count),
    50 + 40 * Math.sin((2 * Math.PI * i) / count),
  ]);
}
