// The step-through's "numbered-graph" view (app/numbered_graph.py): the graph kind's problem drawn as numbered nodes, the
// seed's graph or the one drawn on the Graph page. A state is a node's number, a tree node is named by it, and the
// picture is the drawing with the path to the current node marked; the form is the drawing itself.
import { svgEl } from "../common.js";
import { GRAPH_KEY, GraphArranger, GraphView, circle } from "../graph-view.js";

// A drawing (graph-view.js: nodes by number) as a graph in JSON (engine/domains/graph/model.py), for the view's query.
function asJson(drawing, start, goal) {
  return {
    nodes: drawing.positions.map(([x, y], i) => ({ name: String(i), x, y })),
    edges: drawing.edges.map(([a, b], i) => ({
      from: String(a),
      to: String(b),
      cost: (drawing.costs && drawing.costs[i]) || 1,
    })),
    start: String(start),
    goal: String(goal),
    directed: false,
  };
}

export default {
  kind: "numbered-graph",
  stepWord: "move",
  problem(data) {
    return {
      kind: "numbered-graph",
      adjacency: data.adjacency,
      costs: data.costs,
      start: data.start,
      goal: data.goal,
      positions: data.positions.length ? data.positions : circle(data.adjacency.length),
    };
  },
  label(node) {
    return String(node.state);
  },
  pathText(chain) {
    return chain.map((n) => n.state).join(" → ");
  },
  solutionText(problem, result) {
    return [problem.start, ...result.moves.split(" ").filter(Boolean)].join(" → ");
  },
  summary(f) {
    return `numbered graph, node ${f.from.value} to node ${f.to.value}`;
  },
  optionsLabel: null,

  // The form holds the graph itself (its hidden "graph" field): move a node, pick the ends, change the costs, and
  // the search reruns. A plain /step?problem=numbered-graph (the drawing page's link) opens the graph drawn there.
  bindForm(form, rerun) {
    const svg = document.getElementById("step-graph");
    if (!svg) return {};
    const f = form.elements;
    const field = form.querySelector('[data-for="numbered-graph"] input[name="graph"]');
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
      form.dispatchEvent(new Event("input")); // the page counts it as an edit at once (sent to the form alone)
      window.clearTimeout(rearranging);
      rearranging = window.setTimeout(() => rerun({ atEnd: true }), 120);
    });
    // typed ends: the graph's own start and goal follow, before the page reloads on the same change
    form.addEventListener(
      "change",
      (event) => {
        if ((event.target !== f.from && event.target !== f.to) || !field.value) return;
        const drawn = JSON.parse(field.value);
        drawn.start = String(f.from.value);
        drawn.goal = String(f.to.value);
        field.value = JSON.stringify(drawn);
      },
      true,
    );
    return {
      loaded(data, rearranged) {
        if (data.problem !== "numbered-graph" || rearranged) return;
        arranger.load(
          data.positions.length ? data.positions : circle(data.adjacency.length),
          data.adjacency,
          data.costs,
          data.start,
          data.goal,
        );
      },
    };
  },

  picture(problem, chain) {
    const current = chain[chain.length - 1].state;
    const svg = svgEl("svg", {
      viewBox: "0 0 100 100",
      class: "graph small",
      role: "img",
      "aria-label": `the graph, at node ${current}`,
    });
    GraphView.drawInto(
      svg,
      problem.positions,
      problem.adjacency,
      { path: chain.map((n) => n.state), current, start: problem.start, goal: problem.goal },
      problem.costs,
    );
    svg.dataset.node = current;
    return svg;
  },
};
