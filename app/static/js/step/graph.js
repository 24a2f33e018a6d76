// The step-through's view of the graph kind (engine/domains/graph/model.py): a graph typed as data. A state is a
// node's name; the form holds the graph (its hidden "data" field, the view's query) and the tables that edit it;
// every edit searches again at once.
import { fetchJSON, showError, svgEl } from "../common.js";
import { GraphTableEditor, drawGraphScene, verdictText } from "./graph-editor.js";

export default {
  kind: "graph",
  stepWord: "edge",
  problem(data) {
    return { kind: "graph", scene: data.traces[0].scene };
  },
  label(node) {
    return String(node.state);
  },
  pathText(chain) {
    return chain.map((n) => n.state).join(" → ");
  },
  solutionText(problem, result) {
    return result.path.join(" → ");
  },
  summary() {
    let typed = null;
    try {
      typed = JSON.parse(document.querySelector('#graph-editor input[name="data"]').value || "null");
    } catch {
      /* a built-in graph's name */
    }
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
    form.addEventListener("submit", () => window.clearTimeout(waiting)); // Load reads the typed graph itself
    const editor = new GraphTableEditor(root, (typed, problem) => {
      if (problem) {
        showError(error, problem);
        return;
      }
      field.value = JSON.stringify(typed);
      form.dispatchEvent(new Event("input")); // the page counts it as an edit at once (sent to the form alone)
      window.clearTimeout(waiting);
      waiting = window.setTimeout(() => rerun({ atEnd: true }), 80);
    });
    root.querySelectorAll("[data-load-example]").forEach((button) =>
      button.addEventListener("click", async () => {
        try {
          editor.load(await fetchJSON(`/api/step/graphs/${button.dataset.loadExample}`));
          editor.changed();
        } catch (e) {
          showError(error, e);
        }
      }),
    );
    return {
      loaded(data, rearranged) {
        if (data.problem !== "graph") return;
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
    const svg = svgEl("svg", {
      viewBox: "0 0 100 100",
      class: "graph small named",
      role: "img",
      "aria-label": `the graph, at ${current}`,
    });
    drawGraphScene(svg, problem.scene, chain[0].side === "backward" ? [] : path, { compact: !options.large });
    svg.dataset.node = current;
    return svg;
  },
};
