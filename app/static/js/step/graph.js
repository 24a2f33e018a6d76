// The graph domain's part of the step-through: a state is a node, a tree node is named by its graph node, and the
// picture is the graph with the path to the current node marked.
import { fetchJSON, showError, svgEl } from "../common.js";
import { GRAPH_KEY, GraphArranger, GraphView, circle } from "../graph-view.js";
import { GraphTableEditor, drawGraphScene, verdictText } from "./graph-editor.js";

// A drawing (graph-view.js: nodes by number) as a graph in JSON (engine/domains/graph/model.py), for the view's query.
function asJson(drawing, start, goal) {
  return {
    nodes: drawing.positions.map(([x, y], i) => ({ name: String(i), x, y })),
    edges: drawing.edges.map(([a, b], i) => ({ from: String(a), to: String(b), cost: (drawing.costs && drawing.costs[i]) || 1 })),
    start: String(start), goal: String(goal), directed: false,
  };
}

export const graph = {
  kind: "graph",
  stepWord: "move",
  problem(data) {
    return { kind: "graph", adjacency: data.adjacency, costs: data.costs, start: data.start, goal: data.goal,
      positions: data.positions.length ? data.positions : circle(data.adjacency.length) };
  },
  label(node) { return String(node.state); },
  pathText(chain) { return chain.map((n) => n.state).join(" → "); },
  solutionText(problem, result) { return [problem.start, ...result.moves.split(" ").filter(Boolean)].join(" → "); },
  summary(f) { return `graph, node ${f.from.value} to node ${f.to.value}`; },
  optionsLabel: null,

  // The form holds the graph itself (its hidden "graph" field): move a node, pick the ends, change the costs, and
  // the search reruns. A plain /step?problem=graph (the drawing page's link) opens the graph drawn there.
  bindForm(form, rerun) {
    const svg = document.getElementById("step-graph");
    if (!svg) return {};
    const f = form.elements;
    const field = form.querySelector('[data-for="graph"] input[name="graph"]');
    const saved = JSON.parse(window.localStorage.getItem(GRAPH_KEY) || "null");
    if (!field.value && saved && saved.positions && !new URLSearchParams(window.location.search).has("step")) {
      field.value = JSON.stringify(asJson(saved, +f.from.value, +f.to.value));
    }
    let rearranging = null;
    // an edit marks the form edited at once, so Load reloads from the field as it stands; the edit's pending rerun
    // (which would show the end) must not come after it
    form.addEventListener("submit", () => window.clearTimeout(rearranging));
    const arranger = new GraphArranger(svg, (what) => {
      if (what === "start") f.from.value = arranger.highlight.start;
      if (what === "goal") f.to.value = arranger.highlight.goal;
      field.value = JSON.stringify(asJson(arranger.json(), +f.from.value, +f.to.value));
      form.dispatchEvent(new Event("input"));  // the page counts it as an edit at once (sent to the form alone)
      window.clearTimeout(rearranging);
      rearranging = window.setTimeout(() => rerun({ atEnd: true }), 120);
    });
    // typed ends: the graph's own start and goal follow, before the page reloads on the same change
    form.addEventListener("change", (event) => {
      if ((event.target !== f.from && event.target !== f.to) || !field.value) return;
      const drawn = JSON.parse(field.value);
      drawn.start = String(f.from.value);
      drawn.goal = String(f.to.value);
      field.value = JSON.stringify(drawn);
    }, true);
    return {
      loaded(data, rearranged) {
        if (data.problem !== "graph" || rearranged) return;
        arranger.load(data.positions.length ? data.positions : circle(data.adjacency.length), data.adjacency, data.costs, data.start, data.goal);
      },
    };
  },

  picture(problem, chain) {
    const current = chain[chain.length - 1].state;
    const svg = svgEl("svg", { viewBox: "0 0 100 100", class: "graph small", role: "img", "aria-label": `the graph, at node ${current}` });
    GraphView.drawInto(svg, problem.positions, problem.adjacency,
      { path: chain.map((n) => n.state), current, start: problem.start, goal: problem.goal }, problem.costs);
    svg.dataset.node = current;
    return svg;
  },
};

// A graph typed as data (engine/domains/graph/model.py): a state is a node's name; the form holds the graph (its hidden "data"
// field, the view's query) and the tables that edit it; every edit searches again at once.
export const typedGraph = {
  kind: "graph-data",
  stepWord: "edge",
  problem(data) { return { kind: "graph-data", scene: data.traces[0].scene }; },
  label(node) { return String(node.state); },
  pathText(chain) { return chain.map((n) => n.state).join(" → "); },
  solutionText(problem, result) { return result.path.join(" → "); },
  summary() {
    let typed = null;
    try { typed = JSON.parse(document.querySelector('#graph-editor input[name="data"]').value || "null"); } catch { /* a built-in graph's name */ }
    return typed && typed.start ? `graph, ${typed.start} to ${typed.goal}` : "graph, Arad to Bucharest";
  },
  optionsLabel: null,

  bindForm(form, rerun) {
    const root = document.getElementById("graph-editor");
    if (!root) return {};
    const field = root.querySelector('input[name="data"]');
    const verdict = document.getElementById("graph-verdict");
    const error = document.getElementById("step-error");
    let waiting = null;
    form.addEventListener("submit", () => window.clearTimeout(waiting));  // Load reads the typed graph itself
    const editor = new GraphTableEditor(root, (typed, problem) => {
      if (problem) { showError(error, problem); return; }
      field.value = JSON.stringify(typed);
      form.dispatchEvent(new Event("input"));  // the page counts it as an edit at once (sent to the form alone)
      window.clearTimeout(waiting);
      waiting = window.setTimeout(() => rerun({ atEnd: true }), 80);
    });
    root.querySelectorAll("[data-load-example]").forEach((button) => button.addEventListener("click", async () => {
      try {
        editor.load(await fetchJSON(`/api/step/graphs/${button.dataset.loadExample}`));
        editor.changed();
      } catch (e) { showError(error, e); }
    }));
    return {
      loaded(data, rearranged) {
        if (data.problem !== "graph-data") return;
        verdict.textContent = verdictText(data.traces[0].scene, data.traces[0].heuristic);
        if (rearranged) return;
        editor.load(data.traces[0].scene.graph);
        field.value = JSON.stringify(editor.json());
      },
    };
  },

  picture(problem, chain, options) {
    const path = chain.map((n) => n.state);
    const current = path[path.length - 1];
    const svg = svgEl("svg", { viewBox: "0 0 100 100", class: "graph small named", role: "img", "aria-label": `the graph, at ${current}` });
    drawGraphScene(svg, problem.scene, chain[0].side === "backward" ? [] : path, { compact: !options.large });
    svg.dataset.node = current;
    return svg;
  },
};

export default graph;
