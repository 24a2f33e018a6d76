// A graph drawn in SVG: editable on the graph page (saved in localStorage), read by the step-through.
import { svgEl } from "./common.js";

export const GRAPH_KEY = "puzzle-playground-graph";

export class GraphView {
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
  // Draw a read-only graph into another svg (the step-through's current-node picture) with the same look.
  static drawInto(svg, positions, adjacency, highlight) {
    const view = Object.create(GraphView.prototype);
    view.svg = svg;
    view.positions = positions;
    view.edges = [];
    adjacency.forEach((ns, a) => ns.forEach((b) => { if (a < b) view.edges.push([a, b]); }));
    view.highlight = highlight;
    view.draw();
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
        if (i >= 0) this.edges.splice(i, 1); else this.edges.push([from, to]);
        this.save();
        this.draw();
      }
      from = null;
    });
  }
}

export function circle(count) {
  return Array.from({ length: count }, (_, i) => [50 + 40 * Math.cos((2 * Math.PI * i) / count), 50 + 40 * Math.sin((2 * Math.PI * i) / count)]);
}

