// The grid domain's part of the step-through: a state is a cell [x, y], a tree node is named by its move (N, NE, …),
// and the picture is the map with the path to the current node marked. The form holds the map (its hidden "data"
// field, the view's query): paint, drag S or G, and the search runs again at once.
import { svgEl } from "../common.js";
import { namedByMoves } from "./generic.js";
import { GridPainter, drawGrid } from "./grid-editor.js";

const cell = ([x, y]) => `(${x}, ${y})`;

export const grid = {
  kind: "grid",
  stepWord: "move",
  problem(data) {
    return { kind: "grid", scene: data.traces[0].scene };
  },
  ...namedByMoves(" "),
  solutionText(problem, result) {
    return result.path.map(cell).join(" → ");
  },
  summary(f) {
    const map = JSON.parse(document.querySelector('#grid-editor input[name="data"]').value || "null");
    return map ? `grid, ${cell(map.start)} to ${cell(map.goal)}` : "grid";
  },
  optionsLabel: null,

  bindForm(form, rerun) {
    const root = document.getElementById("grid-editor");
    if (!root) return {};
    const field = root.querySelector('input[name="data"]');
    let waiting = null;
    form.addEventListener("submit", () => window.clearTimeout(waiting)); // Load reads the painted map itself
    const painter = new GridPainter(root, (map) => {
      field.value = JSON.stringify(map);
      form.dispatchEvent(new Event("input")); // the page counts it as an edit at once (sent to the form alone)
      window.clearTimeout(waiting);
      waiting = window.setTimeout(() => rerun({ atEnd: true }), 60);
    });
    return {
      loaded(data, rearranged) {
        if (data.problem !== "grid" || rearranged) return;
        painter.load(data.traces[0].scene);
        field.value = JSON.stringify(painter.json());
      },
    };
  },

  picture(problem, chain) {
    const path = chain.map((n) => n.state);
    const current = path[path.length - 1];
    const svg = svgEl("svg", { class: "grid-map small", role: "img", "aria-label": `the grid, at ${cell(current)}` });
    drawGrid(svg, problem.scene, { path, current });
    svg.dataset.cell = current.join(",");
    return svg;
  },
};

export default grid;
