// The sliding-tile domain's part of the step-through: a state is a board (its cells), a tree node is named by the
// move that made it (the blank's direction), and the board can carry each tile's h (the "show h" switch). Its editor
// in the form is the tile view's template (engine/domains/tiles/view.py names app/templates/step/tiles_editor.html:
// board, scramble or tiles, goal, h), whose fields are the view's query; this module binds "New scramble" and writes
// the folded form's summary from those fields.
import { html } from "../common.js";
import { namedByMoves } from "./generic.js";
import { breakdown, decorate } from "../heuristics.js";

export const tiles = {
  kind: "tiles",
  stepWord: "move",
  problem(data) {
    return { kind: "tiles", rows: data.rows, cols: data.cols, goal: data.goal, start: data.start };
  },
  ...namedByMoves(""),
  solutionText(problem, result) {
    return result.moves || "already at the goal";
  },
  summary(f) {
    const board = f.size.options[f.size.selectedIndex].text;
    return `${board}, ${f.tiles.value.trim() ? `tiles ${f.tiles.value.trim()}` : `${f.scramble.value} scramble moves, random seed ${f.seed.value}`}`;
  },
  // "New scramble": a new random seed for the same number of moves.
  bindForm(form, rerun) {
    const button = form.querySelector('[data-for="tiles"] [data-new-scramble]');
    if (!button) return {};
    button.addEventListener("click", () => {
      form.elements.seed.value = Math.floor(Math.random() * 1e6);
      form.elements.tiles.value = "";
      rerun({});
    });
    return {};
  },
  optionsLabel: " show h on the board",
  optionsTitle: "each tile's distance home, linear conflicts outlined",

  // The current node's board; with showH, each tile's Manhattan distance and its linear conflicts from the engine.
  picture(problem, chain, options) {
    const cells = chain[chain.length - 1].state;
    const grid = html("div", "node-board");
    grid.style.gridTemplateColumns = `repeat(${problem.cols}, 1fr)`;
    cells.forEach((tile) => grid.appendChild(html("span", tile ? "" : "blank", tile ? String(tile) : "")));
    grid.dataset.cells = cells.join(",");
    grid.setAttribute("role", "img");
    const rows = [];
    for (let r = 0; r < problem.rows; r++)
      rows.push(
        cells
          .slice(r * problem.cols, (r + 1) * problem.cols)
          .map((v) => v || "blank")
          .join(" "),
      );
    grid.setAttribute("aria-label", `the current node's board: ${rows.join(", ")}`);
    if (options.showH) {
      breakdown(`${problem.rows}x${problem.cols}`, problem.goal.join(","), cells)
        .then((data) => {
          if (!grid.isConnected) return; // the view moved on to another node meanwhile
          const spans = [...grid.children];
          decorate(cells, data, (t) => spans[cells.indexOf(t)], options.summary);
        })
        .catch(() => {});
    } else if (options.summary) options.summary.innerHTML = "";
    return grid;
  },
};

export default tiles;
