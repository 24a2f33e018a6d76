// A graph typed into two tables (nodes: name, x, y, h; edges: from, to, cost), in the JSON that
// engine/domains/graph/model.py describes, for the step-through. Every edit calls onChange(graph) (debounced by the page); the server checks the graph and says
// what is wrong with it, so the tables accept any text and any number. Import and export are the same JSON.
import { html, svgEl } from "../common.js";
import { figure } from "./captions.js";

const NODE_FIELDS = [
  ["name", "text", "name"],
  ["x", "number", "x"],
  ["y", "number", "y"],
  ["h", "number", "h"],
];
const EDGE_FIELDS = [
  ["from", "text", "from"],
  ["to", "text", "to"],
  ["cost", "number", "cost"],
];

function input(type, value, label) {
  const el = document.createElement("input");
  el.type = type;
  if (type === "number") el.step = "any";
  else el.maxLength = 40;
  el.value = value === undefined || value === null ? "" : String(value);
  el.setAttribute("aria-label", label);
  return el;
}

export class GraphTableEditor {
  constructor(root, onChange) {
    this.root = root;
    this.onChange = onChange;
    this.nodes = root.querySelector("[data-graph-nodes] tbody");
    this.edges = root.querySelector("[data-graph-edges] tbody");
    this.start = root.querySelector('[data-name="graph_start"]');
    this.goal = root.querySelector('[data-name="graph_goal"]');
    this.directed = root.querySelector('[data-name="graph_directed"]');
    this.text = root.querySelector('[data-name="graph_json"]');
    root.addEventListener("input", (event) => {
      if (event.target !== this.text) this.changed();
    });
    root.addEventListener("change", (event) => event.stopPropagation()); // the input events above rerun the search
    root.querySelector("[data-add-node]").addEventListener("click", () => {
      this.addRow(this.nodes, NODE_FIELDS, {}, "node");
      this.changed();
    });
    root.querySelector("[data-add-edge]").addEventListener("click", () => {
      this.addRow(this.edges, EDGE_FIELDS, { cost: 1 }, "edge");
      this.changed();
    });
    root.querySelector("[data-import]").addEventListener("click", () => {
      try {
        this.load(JSON.parse(this.text.value));
        this.changed();
      } catch (e) {
        this.onChange(null, new Error(`the JSON could not be read: ${e.message}`));
      }
    });
    root.querySelector("[data-export]").addEventListener("click", () => {
      this.text.value = JSON.stringify(this.json(), null, 1);
      this.text.select();
    });
  }

  addRow(body, fields, values, what) {
    const row = document.createElement("tr");
    const n = body.rows.length + 1;
    fields.forEach(([key, type, label]) => {
      const cell = document.createElement("td");
      const el = input(type, values[key], `${what} ${n} ${label}`);
      el.dataset.key = key;
      cell.appendChild(el);
      row.appendChild(cell);
    });
    const cell = document.createElement("td");
    const remove = html("button", "small", "×");
    remove.type = "button";
    remove.setAttribute("aria-label", `remove ${what} ${n}`);
    remove.addEventListener("click", () => {
      row.remove();
      this.changed();
    });
    cell.appendChild(remove);
    row.appendChild(cell);
    body.appendChild(row);
  }

  load(graph) {
    this.nodes.innerHTML = "";
    this.edges.innerHTML = "";
    (graph.nodes || []).forEach((node) => this.addRow(this.nodes, NODE_FIELDS, node, "node"));
    (graph.edges || []).forEach((edge) => this.addRow(this.edges, EDGE_FIELDS, edge, "edge"));
    this.start.value = graph.start || "";
    this.goal.value = graph.goal || "";
    this.directed.checked = Boolean(graph.directed);
  }

  // The tables as the graph's JSON: an empty number field is left out (x, y and h are optional).
  json() {
    const rows = (body) =>
      Array.from(body.rows).map((row) => {
        const item = {};
        row.querySelectorAll("input").forEach((el) => {
          if (el.value.trim() === "") return;
          item[el.dataset.key] = el.type === "number" ? Number(el.value) : el.value.trim();
        });
        return item;
      });
    return {
      nodes: rows(this.nodes),
      edges: rows(this.edges),
      start: this.start.value.trim(),
      goal: this.goal.value.trim(),
      directed: this.directed.checked,
    };
  }

  changed() {
    this.onChange(this.json(), null);
  }
}

// One sentence on the given h, from the trace's scene (the server's exact check, by Dijkstra from the goal).
export function verdictText(scene, heuristic) {
  const v = scene.verdict;
  const name = { given: "the given h", "straight-line": "straight-line h", zero: "h = 0" }[heuristic] || "h";
  if (v.admissible && v.consistent) return `${name} is admissible and consistent: A* and IDA* return cheapest paths.`;
  const parts = [];
  if (!v.admissible)
    parts.push(
      `not admissible: h(${v.overestimate.node}) = ${v.overestimate.h} but the cheapest way to the goal costs ${v.overestimate.cost}`,
    );
  else parts.push("admissible");
  if (!v.consistent) {
    const e = v.inconsistent_edge;
    parts.push(
      e.goal !== undefined
        ? `not consistent: h(goal) = ${e.h}, not 0`
        : `not consistent: h(${e.from}) = ${e.h_from} > ${e.cost} + h(${e.to}) = ${figure(e.cost + e.h_to)}`,
    );
  }
  return `${name} is ${parts.join("; ")}.`;
}

// The graph of a trace's scene drawn in a 100×100 box (nodes at their x, y scaled to fit, else on a circle), with the
// path to ``current`` (a list of node names, start first) marked.
// compact (a panel's corner, a map some 100 px wide whose letters are 14 px on screen): only the start, the goal and
// the current node are named and only the road last taken costed, so the names a room needs are not lost among
// twenty others; the path is marked, the rest name themselves on hover, and Enlarge shows them all.
export function drawGraphScene(svg, scene, path, { compact = false } = {}) {
  const graph = scene.graph;
  const names = graph.nodes.map((n) => n.name);
  const placed = graph.nodes.every((n) => n.x !== undefined && n.y !== undefined);
  const xs = placed ? graph.nodes.map((n) => n.x) : names.map((_, i) => Math.cos((2 * Math.PI * i) / names.length));
  const ys = placed ? graph.nodes.map((n) => n.y) : names.map((_, i) => Math.sin((2 * Math.PI * i) / names.length));
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = 84 / Math.max(x1 - x0, y1 - y0, 1e-9);
  const at = new Map(
    names.map((name, i) => [
      name,
      [
        8 + (xs[i] - x0) * scale + (84 - (x1 - x0) * scale) / 2,
        8 + (ys[i] - y0) * scale + (84 - (y1 - y0) * scale) / 2,
      ],
    ]),
  );
  const onPath = new Set();
  for (let i = 1; i < path.length; i++)
    onPath.add(`${path[i - 1]}\u0000${path[i]}`).add(`${path[i]}\u0000${path[i - 1]}`);
  const lastRoad = new Set(
    path.length > 1 ? [`${path.at(-2)}\u0000${path.at(-1)}`, `${path.at(-1)}\u0000${path.at(-2)}`] : [],
  );
  svg.innerHTML = "";
  graph.edges.forEach((e) => {
    const [p, q] = [at.get(e.from), at.get(e.to)];
    if (!p || !q) return;
    svg.appendChild(
      svgEl("line", {
        x1: p[0],
        y1: p[1],
        x2: q[0],
        y2: q[1],
        class: onPath.has(`${e.from}\u0000${e.to}`) ? "edge on" : "edge",
      }),
    );
    if (compact ? lastRoad.has(`${e.from}\u0000${e.to}`) : names.length <= 30) {
      const label = svgEl("text", { x: (p[0] + q[0]) / 2, y: (p[1] + q[1]) / 2 - 0.8, class: "edge-cost" });
      label.textContent = e.cost;
      label.dataset.edge = [p[0], p[1], q[0], q[1]].join(" "); // where step/panel.js may move it along its road
      svg.appendChild(label);
    }
  });
  const current = path[path.length - 1];
  const named = new Set(compact ? [graph.start, graph.goal, current] : names);
  // the named nodes drawn last, so that no other node's dot lies over a name
  [...names.filter((name) => !named.has(name)), ...names.filter((name) => named.has(name))].forEach((name) => {
    const cls = ["node"];
    if (path.includes(name)) cls.push("on");
    if (name === current) cls.push("current");
    if (name === graph.start) cls.push("start");
    if (name === graph.goal) cls.push("goal");
    const [x, y] = at.get(name);
    const g = svgEl("g", { class: cls.join(" "), "data-node": name });
    g.appendChild(svgEl("circle", { cx: x, cy: y, r: 2.4 }));
    if (!named.has(name)) {
      g.appendChild(svgEl("title", {})).textContent = name;
    } else {
      const label = svgEl("text", { x, y: y + 6, class: "node-name" });
      label.textContent = name;
      g.appendChild(label);
    }
    svg.appendChild(g);
  });
}
