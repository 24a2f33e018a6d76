// One algorithm's panel of the step-through: the current node's picture, the counters and the caption, the
// pseudocode with the line being run marked and the variables it reads, the frontier, and the search tree with a
// clicked node's explanation. It draws a replay (replay.js) with the words of captions.js.
import { html, svgEl } from "../common.js";
import { Words, figure } from "./captions.js";
import { saveBoard, savePng, saveSvg } from "./export.js";
import { Replay, STATUS } from "./replay.js";
import { SearchTree } from "./tree.js";

const FRONTIER_SHOWN = 10,
  FRONTIER_FIRST = 5;
const FRONTIER_TITLES = {
  queue: "Frontier: FIFO queue, front first",
  stack: "Stack: the path from the current node back to the root",
  "two-queues": "Frontiers: the two queues, front first",
};

// a box that scrolls inside the panel on a projector: focusable, so the keyboard can scroll it too
function region(el, name) {
  el.tabIndex = 0;
  el.setAttribute("role", "region");
  el.setAttribute("aria-label", name);
  return el;
}

// A picture's labels are sized in its own units (a map of 100 units drawn 104 or 800 px wide): --px, one screen pixel
// in those units, lets the style keep a map's names and costs at least 14 px on screen (app.css) at any size, and
// each label is kept inside the picture.
function readableLabels(picture) {
  const box = picture.viewBox && picture.viewBox.baseVal;
  const drawn = picture.getScreenCTM && picture.getScreenCTM(); // the picture's units to the screen's pixels
  const scale = drawn ? Math.hypot(drawn.a, drawn.b) : 0;
  if (!box || !box.width || !scale || !picture.clientWidth) return;
  picture.style.setProperty("--px", String(1 / scale));
  // letters that large run off a small picture's side: each label is moved back inside it, where it was drawn first;
  // a name wider than the whole picture ("Rimnicu Vilcea" in a corner map) is shortened to fit, whole on hover
  picture.querySelectorAll("text[x]").forEach((label) => {
    if (!label.dataset.x) label.dataset.x = label.getAttribute("x");
    label.setAttribute("x", label.dataset.x);
    fitWidth(label, box.width);
    const b = label.getBBox();
    const shift = b.x < box.x ? box.x - b.x : Math.max(box.x - b.x, Math.min(0, box.x + box.width - b.x - b.width));
    label.setAttribute("x", String(+label.dataset.x + shift));
  });
  placeCosts(picture, box, 1 / scale);
}

// A label no wider than `width`: its text as written if it fits, else cut short with "…" and the whole text as the
// tooltip of the node it names (a <title> of its group: the first child, where SVG looks for it).
function fitWidth(label, width) {
  if (label.dataset.full === undefined) label.dataset.full = label.textContent;
  const full = label.dataset.full;
  label.textContent = full;
  const group = label.parentNode;
  const tip = group && group.querySelector(":scope > title.full-name");
  if (label.getBBox().width <= width) {
    if (tip) tip.remove();
    label.classList.remove("shortened");
    return;
  }
  label.classList.add("shortened"); // takes the pointer (names do not), so that hovering it shows the tooltip
  let kept = full.length;
  while (kept > 1 && label.getBBox().width > width) {
    kept -= 1;
    label.textContent = `${full.slice(0, kept).trimEnd()}…`;
  }
  if (group && !tip) {
    const title = svgEl("title", { class: "full-name" });
    title.textContent = full;
    group.insertBefore(title, group.firstChild);
  }
}

// Places along the road, from its middle outwards, then just beside it: the first where the label lies inside the
// picture over no node, no name and no cost placed before it (else the one it overlaps least).
const ALONG = [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82, 0.1, 0.9];

function placeCosts(picture, box, px) {
  const labels = [...picture.querySelectorAll("text.edge-cost[data-edge]")];
  if (!labels.length) return;
  const grow = (b, m) => ({ x0: b.x - m, y0: b.y - m, x1: b.x + b.width + m, y1: b.y + b.height + m });
  const taken = [...picture.querySelectorAll(".node circle, text.node-name")].map((el) => grow(el.getBBox(), px));
  const overlap = (a, b) =>
    Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  labels.forEach((label) => {
    const [x1, y1, x2, y2] = label.dataset.edge.split(" ").map(Number);
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [nx, ny] = [-(y2 - y1) / length, (x2 - x1) / length]; // across the road
    label.setAttribute("x", String(x1));
    label.setAttribute("y", String(y1));
    const size = label.getBBox(),
      across = (Math.abs(nx) * size.width + Math.abs(ny) * size.height) / 2 + 2 * px;
    const drop = y1 - (size.y + size.height / 2); // from the box's middle to the baseline
    let best = null;
    for (const side of [0, 1, -1, 1.8, -1.8, 2.6, -2.6]) {
      for (const t of ALONG) {
        const cx = x1 + (x2 - x1) * t + side * nx * across,
          cy = y1 + (y2 - y1) * t + side * ny * across;
        const b = {
          x0: cx - size.width / 2,
          y0: cy - size.height / 2,
          x1: cx + size.width / 2,
          y1: cy + size.height / 2,
        };
        const outside = b.x0 < box.x || b.y0 < box.y || b.x1 > box.x + box.width || b.y1 > box.y + box.height;
        const cost = (outside ? 1e9 : 0) + taken.reduce((sum, o) => sum + overlap(b, o), 0);
        if (!best || cost < best.cost) best = { cost, cx, cy, b };
        if (cost === 0) break;
      }
      if (best.cost === 0) break;
    }
    label.setAttribute("x", String(best.cx));
    label.setAttribute("y", String(best.cy + drop));
    taken.push(grow({ x: best.b.x0, y: best.b.y0, width: size.width, height: size.height }, px / 2));
  });
}

// A path as the way to its node and the node: a projector's narrow column names the node alone (app.css), the tree
// and the caption showing the way.
function pathParts(path) {
  const arrow = path.lastIndexOf(" → "),
    cut = arrow < 0 ? 0 : arrow + 3;
  return [html("span", "via", path.slice(0, cut)), html("span", "at", path.slice(cut))];
}

// The one enlarged picture of a page (SearchPanel.enlarge), made on first use; its owner is the panel it shows.
const shared = { view: null };

function largeView() {
  if (shared.view) return shared.view;
  const dialog = html("dialog", "picture-large");
  dialog.setAttribute("aria-label", "The current node's picture, large");
  const bar = html("div", "picture-large-bar");
  const title = html("h2", "");
  const close = html("button", "", "Close");
  close.type = "button";
  close.addEventListener("click", () => dialog.close());
  bar.append(title, close);
  const figure = html("div", "enlarged");
  new ResizeObserver(() => {
    if (figure.firstChild) readableLabels(figure.firstChild);
  }).observe(figure);
  figure.tabIndex = -1; // focused on opening, so Space and the clicker's keys step instead of pressing Close
  const numbers = html("p", "muted"),
    caption = html("p", "caption");
  dialog.append(bar, figure, numbers, caption);
  dialog.addEventListener("click", (event) => {
    const box = dialog.getBoundingClientRect();
    const inside =
      event.clientX >= box.left &&
      event.clientX <= box.right &&
      event.clientY >= box.top &&
      event.clientY <= box.bottom;
    if (event.target === dialog && !inside) dialog.close(); // the backdrop
  });
  dialog.addEventListener("close", () => {
    shared.view.owner = null;
  });
  document.body.appendChild(dialog);
  shared.view = { dialog, title, figure, numbers, caption, owner: null };
  return shared.view;
}

export class SearchPanel {
  constructor(container, trace, problem, domain, options) {
    this.trace = trace;
    this.problem = problem;
    this.domain = domain;
    this.options = options; // shared by the page's panels: {showH, onOption(name, value)}
    this.replay = new Replay(trace);
    this.words = new Words(this.replay, domain, problem);
    this.build(container);
  }

  build(container) {
    const t = this.trace;
    this.el = html("section", "panel step-panel");
    this.el.dataset.algorithm = t.algorithm;
    this.el.setAttribute("aria-label", t.title);
    this.el.appendChild(
      html("h2", "", t.title + (t.uses_h && t.heuristic && t.heuristic !== "zero" ? ` · h = ${t.heuristic}` : "")),
    );
    const main = html("div", "step-main");
    const treeColumn = html("div", "step-tree");
    const head = html("div", "step-head"); // the board, the counts and the caption: what a projector keeps in view
    const top = html("div", "step-top");
    this.current = html("div", "current-node");
    // the stage's layout changes the picture's size after it is drawn (presenting, a turned window, large text)
    new ResizeObserver(() => {
      if (this.current.firstChild) readableLabels(this.current.firstChild);
    }).observe(this.current);
    this.stats = html("dl", "stats");
    top.append(this.current, this.pictureTools(), this.stats);
    head.appendChild(top);
    main.appendChild(head);
    if (this.domain.optionsLabel) {
      this.hSummary = html("div", "h-summary muted");
      head.append(this.hSummary);
    }
    this.caption = html("p", "caption");
    head.appendChild(this.caption);

    const code = html("div", "step-code");
    const left = region(html("div", ""), "Pseudocode");
    left.appendChild(html("h3", "", "Pseudocode"));
    this.code = html("ol", "pseudocode");
    this.code.setAttribute("aria-label", "Pseudocode");
    t.pseudocode.forEach((line) => {
      const li = html("li", "", line.trimStart());
      li.style.paddingLeft = `${(line.length - line.trimStart().length) * 0.45}em`;
      this.code.appendChild(li);
    });
    left.appendChild(this.code);
    const right = region(html("div", ""), "Variables");
    right.appendChild(html("h3", "", "Variables"));
    this.vars = html("dl", "vars");
    right.appendChild(this.vars);
    code.append(left, right);
    main.appendChild(code);

    const waiting = region(html("div", "step-frontier"), "Frontier");
    const [name, kind] = (
      FRONTIER_TITLES[t.frontier_kind] || `Frontier: priority queue, least ${t.priority} first`
    ).split(":");
    const heading = html("h3", "", name);
    heading.appendChild(html("span", "long", `:${kind}`)); // a projector keeps the name only
    waiting.appendChild(heading);
    this.frontier = html("ol", "frontier");
    this.frontierMore = html("p", "muted frontier-more");
    // a projector's two searches list the first five entries (app.css) and say how many more wait after them
    this.frontierRest = html("p", "muted frontier-rest");
    waiting.append(this.frontier, this.frontierMore, this.frontierRest);
    main.appendChild(waiting);
    this.el.append(main, treeColumn);
    this.buildTree(treeColumn, container);
    container.appendChild(this.el);
  }

  // Enlarge, and SVG and PNG of the current node's picture: a graph is an SVG already, a board is drawn as one
  // (export.js).
  pictureTools() {
    const tools = html("div", "picture-tools");
    const enlarge = html("button", "enlarge", "Enlarge");
    enlarge.type = "button";
    enlarge.setAttribute("aria-label", "Enlarge the current node's picture; it follows the steps until closed");
    enlarge.addEventListener("click", () => this.enlarge());
    tools.appendChild(enlarge);
    this.current.addEventListener("click", () => this.enlarge());
    this.current.title = "Click to enlarge";
    ["SVG", "PNG"].forEach((format) => {
      const b = html("button", "export", format);
      b.type = "button";
      b.setAttribute(
        "aria-label",
        `Save the current node's picture as ${format === "SVG" ? "an SVG" : "a PNG"} picture`,
      );
      b.addEventListener("click", () => {
        const picture = this.current.firstChild,
          name = `${this.trace.algorithm}-step-${this.replay.applied}`;
        const kind = format.toLowerCase();
        if (picture instanceof SVGElement) (kind === "png" ? savePng : saveSvg)(picture, name);
        else saveBoard(picture.dataset.cells.split(",").map(Number), this.problem.cols, picture, name, kind);
      });
      tools.appendChild(b);
    });
    return tools;
  }

  // The picture at the size of the window, for a room (a map is unreadable in a panel's corner): it follows every
  // step until it is closed (Escape, Close, or a click beside it), so a clicker keeps stepping under it.
  enlarge() {
    const view = largeView();
    view.owner = this;
    this.renderLarge();
    if (!view.dialog.open) view.dialog.showModal();
    view.figure.focus();
  }

  renderLarge() {
    const view = largeView(),
      replay = this.replay;
    const shownId = replay.shownId;
    const picture = this.domain.picture(this.problem, replay.chain(shownId), {
      showH: this.options.showH,
      large: true,
    });
    picture.classList.remove("small");
    picture.classList.add("large");
    const box = picture.viewBox && picture.viewBox.baseVal;
    if (box && box.width) picture.style.setProperty("--ratio", box.width / box.height); // a map's own shape, no bands
    view.title.textContent = `${this.trace.title} · step ${replay.applied}`;
    view.figure.replaceChildren(picture);
    readableLabels(picture);
    view.numbers.textContent = this.words.numbers(shownId);
    view.caption.textContent = this.words.caption();
  }

  buildTree(column, container) {
    column.appendChild(html("h3", "", "Search tree"));
    const tools = html("div", "tree-tools");
    const button = (label, name, act) => {
      const b = html("button", "", label);
      b.type = "button";
      b.setAttribute("aria-label", name);
      b.addEventListener("click", act);
      tools.appendChild(b);
      return b;
    };
    const scroller = region(
      html("div", "tree-scroll"),
      "Search tree: drag or scroll to pan; click a node for its details",
    );
    this.tree = new SearchTree(scroller, this.replay, this.words, this.domain, (id) => this.select(id));
    button("−", "Zoom out", () => {
      this.setOverview(false);
      this.tree.zoomBy(1 / 1.25);
    });
    button("+", "Zoom in", () => {
      this.setOverview(false);
      this.tree.zoomBy(1.25);
    });
    this.fitButton = button(
      "Fit",
      "Fit the whole tree in the box, folding its deepest levels if it is too big to read",
      () => this.setOverview(!this.tree.overview),
    );
    this.fitButton.setAttribute("aria-pressed", "false");
    const name = () => `search-tree-${this.trace.algorithm}-step-${this.replay.applied}`;
    button("SVG", "Save the tree as an SVG picture", () => saveSvg(this.tree.svg, name())).classList.add("export");
    button("PNG", "Save the tree as a PNG picture", () => savePng(this.tree.svg, name())).classList.add("export");
    const follow = html("label", "follow");
    const followBox = html("input");
    followBox.type = "checkbox";
    followBox.checked = true;
    followBox.addEventListener("change", () => {
      this.tree.follow = followBox.checked;
      this.tree.draw();
    });
    this.tree.onFollowChange = (on) => {
      followBox.checked = on;
    };
    follow.append(followBox, document.createTextNode(" follow"), html("span", "follow-words", " the current node"));
    tools.appendChild(follow);
    column.appendChild(tools);

    const legendBox = html("details", "tree-legend-box");
    // open beside a tree on a page, closed on a projector (the tree needs the room; one click opens it), following the
    // stage until someone opens or closes it
    let legendChosen = false;
    const legendFollows = () => {
      if (!legendChosen) legendBox.open = !container.closest(".presenting");
    };
    legendFollows();
    const summary = html("summary", "", "Legend");
    summary.addEventListener("click", () => {
      legendChosen = true;
    });
    legendBox.appendChild(summary);
    const legend = html("ul", "tree-legend");
    legend.setAttribute("aria-label", "Legend");
    legend.tabIndex = 0; // on a projector the opened legend scrolls in its box: the keyboard reaches all of it
    Object.entries(STATUS).forEach(([k, text]) => {
      const li = html("li", "");
      const key = svgEl("svg", { width: 22, height: 22, class: "tree", "aria-hidden": "true" });
      const mark = svgEl("g", {
        class: `t-${k === "current" ? "expanded t-current" : k === "goal" ? "goal t-path" : k}`,
      });
      mark.appendChild(svgEl("circle", { cx: 11, cy: 11, r: 7 }));
      key.appendChild(mark);
      li.append(key, document.createTextNode(text));
      legend.appendChild(li);
    });
    legend.appendChild(
      html(
        "li",
        "fold-count",
        "“+n” beside a node: n nodes under it are folded away (dropped, cut off, " +
          "finished or, in Fit, deeper than the levels shown); click the node to open it",
      ),
    );
    legendBox.appendChild(legend);
    column.appendChild(legendBox);
    column.appendChild(scroller);
    // Fit keeps fitting when the box changes size (the legend opens, the window turns)
    new ResizeObserver(() => {
      legendFollows();
      if (this.tree.overview) this.scheduleTree();
    }).observe(scroller);
    this.details = region(html("div", "node-details idle"), "The clicked node"); // a long why scrolls inside it
    this.details.setAttribute("aria-live", "polite");
    this.details.textContent = "Click a node in the tree to see its path, g, h, f and why it was or was not chosen.";
    column.appendChild(this.details);
  }

  setOverview(on) {
    this.fitButton.setAttribute("aria-pressed", String(on));
    if (on !== this.tree.overview) this.tree.setOverview(on);
  }

  // Scroll the boxes of this panel that hold el (never the page) so that el is inside them: on a projector the code
  // box is shorter than the code, and the marked line must stay on screen.
  reveal(el) {
    for (let box = el.parentElement; box && box !== this.el.parentElement; box = box.parentElement) {
      if (box.scrollHeight <= box.clientHeight + 1) continue;
      const outer = box.getBoundingClientRect(),
        inner = el.getBoundingClientRect();
      if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top + 4;
      else if (inner.bottom > outer.bottom)
        box.scrollTop += Math.min(inner.top - outer.top, inner.bottom - outer.bottom + 4);
    }
  }

  // Playback can apply several steps between two frames: draw the tree once per frame, not once per step.
  scheduleTree() {
    if (this.pending) return;
    this.pending = true;
    window.requestAnimationFrame(() => {
      this.pending = false;
      this.drawTree();
      const marked = this.code.querySelector('[aria-current="step"]');
      if (marked) this.reveal(marked); // again once the page has laid out (a slide's text can move the panels)
    });
  }

  drawTree() {
    this.tree.draw();
    this.el.dataset.treeWidth = this.tree.size.width;
    this.el.dataset.treeHeight = this.tree.size.height;
  }

  goTo(k) {
    this.replay.goTo(k);
    this.render();
  }

  select(id) {
    this.tree.toggleOpen(id);
    this.tree.selected = id;
    const n = this.replay.nodes[id];
    this.details.innerHTML = "";
    this.details.classList.remove("idle");
    this.details.appendChild(html("h4", "", this.words.path(id)));
    const dl = html("dl", "stats");
    const rows = [
      ["depth", n.depth],
      ["g", figure(n.g)],
    ];
    if (n.h !== null) rows.push(["h", figure(n.h)], ["f", figure(n.g + n.h)]);
    rows.push(["status", this.words.statusText(id)]);
    rows.forEach(([k, v]) => dl.append(html("dt", "", k), html("dd", "", String(v))));
    this.details.append(dl, html("p", "", this.words.why(id)));
    this.drawTree();
    // presenting, the stage fills the window: scroll the panel's own boxes, never the page under the stage
    if (this.el.closest(".presenting")) this.reveal(this.details);
    else this.details.scrollIntoView({ block: "nearest" });
  }

  render() {
    const t = this.trace,
      replay = this.replay;
    const shownId = replay.shownId;
    const n = replay.nodes[shownId];
    this.current.innerHTML = "";
    const picture = this.domain.picture(this.problem, replay.chain(shownId), {
      showH: this.options.showH,
      summary: this.hSummary,
    });
    this.current.appendChild(picture);
    readableLabels(picture);
    this.current.appendChild(html("div", "muted", this.words.numbers(shownId)));
    if (shared.view && shared.view.owner === this && shared.view.dialog.open) this.renderLarge();

    const frontierIds = replay.frontierIds();
    const counts = replay.shownCounts();
    const stack = t.frontier_kind === "stack";
    const stats = [
      ["expanded", counts.expanded],
      ["generated", counts.generated],
      stack ? ["depth", Math.max(0, frontierIds.length - 1)] : ["frontier", counts.frontier],
    ];
    if (replay.bound !== null) stats.push([t.cutoff === "depth" ? "limit" : "bound", figure(replay.bound)]);
    this.stats.innerHTML = "";
    stats.forEach(([k, v]) => {
      const dd = html("dd", "", String(v));
      dd.dataset.stat = k;
      this.stats.append(html("dt", "", k), dd);
    });
    this.el.dataset.expanded = counts.expanded;
    this.el.dataset.generated = counts.generated;

    const e = replay.lastEvent;
    const line = e ? e.line : t.start_line;
    [...this.code.children].forEach((li, i) => {
      if (i === line) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    });
    this.el.dataset.line = line;
    if (this.code.children[line]) this.reveal(this.code.children[line]);

    this.vars.innerHTML = "";
    const vars = [
      ["node", replay.currentId === null ? "—" : this.words.path(replay.currentId)],
      ["g", figure(n.g)],
    ];
    if (t.uses_h) vars.push(["h", figure(n.h)], ["f = g + h", n.h === null ? "—" : figure(n.g + n.h)]);
    if (replay.bound !== null) vars.push([t.cutoff === "depth" ? "limit" : "bound", figure(replay.bound)]);
    if (e && e.node !== undefined && e.node !== replay.currentId) vars.push(["child", this.words.path(e.node)]);
    vars.push([stack ? "stack depth" : "frontier size", stack ? Math.max(0, frontierIds.length - 1) : counts.frontier]);
    vars.forEach(([k, v]) => {
      // each name with its value, so a line that wraps never parts them
      const pair = html("div", "");
      const value = html("dd", "");
      if (k === "node" || k === "child") value.append(...pathParts(String(v)));
      else value.textContent = String(v);
      pair.append(html("dt", "", k), value);
      this.vars.append(pair);
    });

    this.caption.textContent = this.words.caption();
    this.el.dataset.done = replay.solved ? "1" : "0";

    this.frontier.innerHTML = "";
    frontierIds.slice(0, FRONTIER_SHOWN).forEach((id) => {
      const side = t.frontier_kind === "two-queues" ? `${replay.nodes[id].side}: ` : "";
      // the path up to the node in a span of its own: a projector's narrow column names the node alone (app.css)
      const path = this.words.path(id);
      const li = html("li", "");
      li.title = path;
      li.append(`${side}`, ...pathParts(path), ` · ${this.words.numbers(id)}`);
      this.frontier.appendChild(li);
    });
    const more = frontierIds.length - FRONTIER_SHOWN;
    this.frontierMore.textContent = more > 0 ? `… and ${more} more` : frontierIds.length ? "" : "(empty)";
    const rest = frontierIds.length - FRONTIER_FIRST;
    this.frontierRest.textContent = rest > 0 ? `+${rest} more` : frontierIds.length ? "" : "(empty)";
    this.scheduleTree();
  }
}
