// The search tree drawn in SVG, sized for a projector: a column per leaf, a row per depth, labels under the nodes.
// Past COLLAPSE_AT visible nodes the finished subtrees fold into their roots ("+n", a click opens them); "Fit"
// shows the whole tree at a readable size by folding its deepest levels into their ancestors' counts.
import { plural, svgEl } from "../common.js";
import { figure } from "./captions.js";
import { STATUS } from "./replay.js";
import { PanZoom, READABLE_ZOOM } from "./panzoom.js";
import { COLLAPSE_AT, placeColumns, visibleTree } from "./tree-layout.js";

// Tree spacing in px at zoom 1: a column per leaf, a row per depth with room under each node for its label (and its f
// or h); an edge runs from below its parent's labels to the top of its child, so it never crosses a label.
const DX = 48,
  PAD = 28,
  NODE_R = 9,
  CURRENT_R = 12;
const LABELS_BELOW = { plain: 30, withValue: 46 },
  EDGE_GAP = 18;

// The number under a tree node: what the search orders its frontier by (g for uniform-cost, h for greedy, f for A*),
// and f for IDA*, whose bound cuts on it; nothing for the searches that order by age.
export function nodeValue(trace, node) {
  const key = trace.priority || (trace.cutoff === "f" ? "f" : null);
  if (!key || (key !== "g" && node.h === null)) return "";
  return `${key} ${figure({ g: node.g, h: node.h, f: node.g + node.h }[key])}`;
}

export class SearchTree {
  constructor(scroller, replay, words, domain, onSelect) {
    this.scroller = scroller;
    this.replay = replay;
    this.words = words;
    this.domain = domain;
    this.opened = new Set();
    this.selected = null;
    this.follow = true;
    this.overview = false;
    this.onFollowChange = () => {};
    this.svg = svgEl("svg", { class: "tree", role: "group", "aria-label": "search tree" });
    scroller.appendChild(this.svg);
    this.pan = new PanZoom(scroller, () => this.setFollow(false));
    this.svg.addEventListener("click", (event) => {
      const node = event.target.closest("[data-id]");
      if (node) onSelect(+node.dataset.id);
    });
    this.svg.addEventListener("keydown", (event) => {
      const node = event.target.closest("[data-id]");
      if (node && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        onSelect(+node.dataset.id);
      }
    });
  }

  setFollow(on) {
    this.follow = on;
    this.onFollowChange(on);
  }
  zoomBy(factor) {
    this.overview = false;
    this.pan.setZoom(this.pan.zoom * factor);
    this.draw();
  }
  setOverview(on) {
    this.overview = on;
    if (!on) this.pan.zoom = 1;
    this.draw();
  }

  // A click on a folded node opens it; on an opened one folds it again.
  toggleOpen(id) {
    if (this.opened.has(id)) this.opened.delete(id);
    else if (this.replay.status.size > COLLAPSE_AT) this.opened.add(id);
  }

  visibleTree() {
    return visibleTree(this.replay, this.opened, this.selected);
  }

  labelsBelow() {
    return this.replay.trace.priority || this.replay.trace.cutoff === "f" ? LABELS_BELOW.withValue : LABELS_BELOW.plain;
  }
  rowHeight() {
    return this.labelsBelow() + EDGE_GAP + CURRENT_R + 4;
  }

  // The columns a node's label needs: one for a move's letter, more for a graph's city name, so no two labels overlap.
  columns(id) {
    const chars = String(this.domain.label(this.replay.nodes[id])).length;
    return Math.max(1, (chars * (this.svg.closest(".large-text") ? 11 : 8.5) + 8) / DX);
  }

  // Columns by node (tree-layout.js) and the tree's size in px at zoom 1.
  layout(kids) {
    const { x, columns, depth } = placeColumns(this.replay.roots, this.replay.nodes, kids, (id) => this.columns(id));
    return { x, width: Math.max(1, columns) * DX + 2 * PAD, height: (depth + 1) * this.rowHeight() + 2 * PAD };
  }

  // The overview's folding by depth: the deepest level kept is the deepest at which the tree still fits the box at a
  // readable zoom; every node on that level carries the count of what hangs below it.
  foldByDepth(kids, folded) {
    const nodes = this.replay.nodes;
    const box = this.pan.box();
    const deepest = Math.max(...[...kids.keys()].map((id) => nodes[id].depth));
    for (let cut = deepest; cut >= 0; cut--) {
      const trimmed = new Map(),
        counts = new Map(folded);
      const below = (id) => kids.get(id).reduce((n, c) => n + 1 + (folded.get(c) || 0) + below(c), 0);
      kids.forEach((c, id) => {
        if (nodes[id].depth > cut) return;
        if (nodes[id].depth === cut && c.length) {
          trimmed.set(id, []);
          counts.set(id, (folded.get(id) || 0) + below(id));
        } else trimmed.set(id, c);
      });
      const size = this.layout(trimmed);
      if (cut === 0 || (size.width * READABLE_ZOOM <= box.w && size.height * READABLE_ZOOM <= box.h)) {
        for (const id of kids.keys()) if (!trimmed.has(id)) counts.delete(id);
        return { kids: trimmed, folded: counts };
      }
    }
    return { kids, folded };
  }

  draw() {
    const replay = this.replay,
      nodes = replay.nodes;
    let { kids, folded } = this.visibleTree();
    if (this.overview) ({ kids, folded } = this.foldByDepth(kids, folded));
    const { x, width, height } = this.layout(kids);
    if (this.overview) this.pan.fit(width, height);
    const zoom = this.pan.zoom;
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.svg.setAttribute("width", width * zoom);
    this.svg.setAttribute("height", height * zoom);
    this.size = { width: Math.round(width * zoom), height: Math.round(height * zoom) };
    const row = this.rowHeight(),
      below = this.labelsBelow();
    const pos = (id) => [PAD + x.get(id) * DX + DX / 2, PAD + CURRENT_R + nodes[id].depth * row];
    const shown = (id) => {
      let a = id;
      while (a !== null && a !== undefined && !x.has(a)) a = nodes[a].parent;
      return a;
    };
    const current = replay.currentId === null ? null : shown(replay.currentId);
    const onPath = replay.solutionPath();
    this.svg.innerHTML = "";
    const edges = svgEl("g", { class: "edges" });
    const drawn = svgEl("g", { class: "nodes" });
    x.forEach((_, id) => {
      const [cx, cy] = pos(id);
      const parent = nodes[id].parent;
      if (parent !== null && x.has(parent)) {
        const [px, py] = pos(parent);
        edges.appendChild(
          svgEl("line", {
            x1: px,
            y1: py + below,
            x2: cx,
            y2: cy - CURRENT_R - 1,
            class: onPath.has(id) ? "t-path" : "",
          }),
        );
      }
      const state = replay.status.get(id);
      const wholly = folded.has(id) && !kids.get(id).length; // else only its dropped leaves are folded
      const cls = [`t-${wholly && state !== "frontier" ? "folded" : state}`];
      if (id === current) cls.push("t-current");
      if (onPath.has(id)) cls.push("t-path");
      if (id === this.selected) cls.push("t-selected");
      const g = svgEl("g", { class: cls.join(" "), "data-id": id, tabindex: "0", role: "button" });
      g.appendChild(svgEl("circle", { cx, cy, r: NODE_R }));
      const label = svgEl("text", { x: cx, y: cy + 24 });
      label.textContent = this.domain.label(nodes[id]);
      g.appendChild(label);
      if (folded.has(id)) {
        // beside the circle, where no edge runs: the label below stays one column wide
        const count = svgEl("text", { x: cx + NODE_R + 2, y: cy + 4, class: "t-count" });
        count.textContent = `+${folded.get(id)}`;
        g.appendChild(count);
      }
      const value = nodeValue(replay.trace, nodes[id]);
      if (value) {
        const f = svgEl("text", { x: cx, y: cy + 40, class: "t-f" });
        f.textContent = value;
        g.appendChild(f);
      }
      // an SVG title names the node for assistive technology (and shows as a tooltip): the visible text first, then
      // where the node is and what happened to it
      const title = svgEl("title");
      title.textContent =
        `${label.textContent}${folded.has(id) ? ` +${folded.get(id)}` : ""} ${value || ""}: ${this.words.path(id)}, ${wholly ? STATUS.folded : STATUS[state] || state}` +
        (folded.has(id) ? ` (${plural(folded.get(id), "node")} folded under it; click to show)` : "");
      g.prepend(title);
      drawn.appendChild(g);
    });
    this.svg.append(edges, drawn);
    const focus = current !== null && x.has(current) ? current : replay.roots[0];
    if (this.follow && !this.overview && x.has(focus)) this.pan.centre(...pos(focus));
  }
}
