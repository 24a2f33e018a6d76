// The step-through's picture of a domain that has no module of its own: any state drawn from its JSON as text.
//
// The JS domain interface. The page (page.js) shows the problem kind an /api/step answer names (its "problem": a view
// name of app/step.py: the kind's own name, or "numbered-graph" for the graph drawn as numbered nodes) with the module
// app/static/js/step/<view>.js when the server says there is one (the stage's data-domains), else with
// genericDomain(view, title) below. A module's default export is an object with:
//   kind          the view name it draws;
//   stepWord      what one move is called in the captions ("move", "edge", "flip");
//   problem(data) what every picture of the answer shares, from the /api/step answer (usually its trace's scene);
//   label(node)   a tree node's short name (node: a trace node, {state, action, parent, side, picture, ...});
//   pathText(chain, fromGoal)   the moves from the root to a node, as the caption writes them (chain: root first);
//   solutionText(problem, result)   a found path as the caption's "Done" line writes it (result: the trace's result);
//   summary(fields)   one line naming the problem, shown while the form is folded away (fields: form.elements);
//   optionsLabel, optionsTitle   the "show h on the board" switch's words, or null when the picture draws no h;
//   picture(problem, chain, options)   an element drawing the last node of chain (options: {showH, large, summary});
//   bindForm(form, rerun)   optional: binds the view's own editor in the form (the fieldset data-for=<view>; a kind's
//                 view names its template, app/step_view.py's "editor", so the form works without JavaScript too);
//                 rerun(how) loads the searches again; returns {loaded(data, rearranged)}, called with each answer.
import { html } from "../common.js";

const text = (value) => (typeof value === "string" ? value : JSON.stringify(value));

// A state's JSON as boxes: a flat list as a row of cells, a list of lists as rows, anything else as its JSON text.
function boxes(value) {
  const flat = (list) => list.every((v) => v === null || typeof v !== "object");
  if (Array.isArray(value) && value.length && value.every((row) => Array.isArray(row) && flat(row))) {
    const grid = html("div", "generic-rows");
    value.forEach((row) => grid.appendChild(boxes(row)));
    return grid;
  }
  if (Array.isArray(value) && flat(value)) {
    const row = html("div", "generic-row");
    value.forEach((v) => row.appendChild(html("span", "generic-cell", text(v))));
    return row;
  }
  return html("code", "generic-json", text(value));
}

// label and pathText for a domain whose tree nodes are named by the move that made them: a root is "start" (or
// "goal", searched from), a path is its moves written by `write` and joined by `separator`.
export function namedByMoves(separator, write = String) {
  const root = (fromGoal) => (fromGoal ? "goal" : "start");
  return {
    label(node) {
      return node.parent === null ? root(node.side === "backward") : write(node.action);
    },
    pathText(chain, fromGoal) {
      return (
        chain
          .slice(1)
          .map((n) => write(n.action))
          .join(separator) || root(fromGoal)
      );
    },
  };
}

export function genericDomain(kind, title) {
  return {
    kind,
    stepWord: "move",
    problem(data) {
      return { kind, scene: data.traces[0].scene || {} };
    },
    ...namedByMoves(" ", text),
    solutionText(problem, result) {
      return result.path.map(text).join(" → ");
    },
    summary() {
      return title;
    },
    optionsLabel: null,

    picture(problem, chain) {
      const node = chain[chain.length - 1];
      const figure = html("div", "generic-state");
      figure.setAttribute("role", "img");
      figure.setAttribute("aria-label", `the current state: ${text(node.state)}`);
      figure.dataset.state = text(node.state);
      figure.appendChild(boxes(node.state));
      if (node.picture != null) {
        const drawn = html("p", "generic-picture muted");
        drawn.append(
          ...Object.entries(node.picture).map(([name, value]) => html("span", "", `${name}: ${text(value)}`)),
        );
        figure.appendChild(drawn);
      }
      const moves = chain.slice(1).map((n) => text(n.action));
      if (moves.length) figure.appendChild(html("p", "generic-moves muted", `moves: ${moves.join(" ")}`));
      return figure;
    },
  };
}
