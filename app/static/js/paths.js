// The graph page: every path from one node to another by depth-first, breadth-first or iterative deepening.
import { Stepper } from "./stepper.js";
import { fetchJSON, html, onReady, showError } from "./common.js";
import { GRAPH_KEY, GraphView } from "./graph-view.js";

function pathsView(root) {
  const stepper = new Stepper(root);
  const view = new GraphView(document.getElementById("graph-canvas"), true);
  const form = document.getElementById("graph-search");
  const caption = root.querySelector('[data-role="caption"]');
  const pending = document.querySelector('[data-role="pending"]');
  const pendingTitle = document.querySelector('[data-role="pending-title"]');
  const found = document.querySelector('[data-role="found"]');
  const error = document.querySelector('.panel [data-role="error"]');
  document.querySelectorAll("[data-graph]").forEach((button) =>
    button.addEventListener("click", () => {
      view.set(button.dataset.graph === "seed" ? view.seed : { positions: [], edges: [] });
      if (button.dataset.graph === "seed") window.localStorage.removeItem(GRAPH_KEY);
      else view.save();
      stepper.load(0, () => {});
    }),
  );
  const arrow = (p) => p.join(" → ");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const start = +form.elements.start.value,
      goal = +form.elements.goal.value;
    const strategy = form.elements.strategy.value;
    let data;
    try {
      data = await fetchJSON(root.dataset.url, { ...view.json(), start, goal, strategy });
      showError(error, null);
    } catch (e) {
      showError(error, e);
      return;
    }
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
        pending.appendChild(html("li", "muted more", `… and ${total - Math.min(shown.length, 14)} more`));
      }
      found.innerHTML = "";
      steps
        .slice(0, k)
        .filter((x) => x.event === "found")
        .forEach((x) => found.appendChild(html("li", "", arrow(x.path))));
      root.dataset.found = found.children.length;
      if (!s) caption.textContent = `${steps.length} steps recorded. Press play.`;
      else if (s.event === "limit") caption.textContent = `New depth limit: paths of ${s.limit} nodes.`;
      else if (s.event === "found") caption.textContent = `Found: ${arrow(s.path)}.`;
      else if (s.event === "push")
        caption.textContent = `${arrow(s.path)}: ${s.added} way(s) on, added to the ${strategy === "bfs" ? "queue" : "stack"}.`;
      else
        caption.textContent =
          `Take ${arrow(s.path)} from the ${strategy === "bfs" ? "queue" : "stack"}` +
          (s.limit ? ` (limit ${s.limit})` : "") +
          ".";
      if (k === steps.length && data.message) caption.textContent = data.message;
    });
  });
}

onReady(() => document.querySelectorAll('.stepper[data-kind="paths"]').forEach(pathsView));
