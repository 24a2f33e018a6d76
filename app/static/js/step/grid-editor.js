// A grid drawn with the mouse (or a finger) for the step-through: paint walls and weights with the chosen brush,
// drag the start and the goal. Every change calls onChange(grid) at once, so the page searches again while you draw;
// the start and goal are also number fields, for the keyboard. The grid is the request's form: rows of "." (open),
// "#" (a wall) and "2"-"9" (a cell's weight), start and goal [x, y], connect 4 or 8.
import { svgEl } from "../common.js";

export const GRID_MAX = 64;

export function emptyRows(width, height) {
  return Array.from({ length: height }, () => ".".repeat(width));
}

export class GridPainter {
  constructor(root, onChange) {
    this.root = root;
    this.onChange = onChange;
    this.svg = root.querySelector("svg");
    this.fields = root.querySelectorAll("input, select");
    this.rows = [];
    this.ends = { start: [0, 0], goal: [0, 0] };
    this.dragging = null;
    this.painting = false;
    this.svg.addEventListener("pointerdown", (event) => this.down(event));
    this.svg.addEventListener("pointermove", (event) => this.move(event));
    window.addEventListener("pointerup", () => {
      this.dragging = null;
      this.painting = false;
    });
    root.addEventListener("change", (event) => {
      const name = event.target.name || event.target.dataset.name;
      event.stopPropagation();
      if (name === "grid_width" || name === "grid_height")
        this.resize(+this.field("grid_width").value, +this.field("grid_height").value);
      if ((name && name.startsWith("grid_start")) || (name && name.startsWith("grid_goal"))) this.endsFromFields();
      if (name === "grid_connect" || name === "heuristic") this.changed();
    });
    root.querySelector("[data-grid-clear]").addEventListener("click", () => {
      this.rows = emptyRows(this.width, this.height);
      this.changed();
    });
  }

  field(name) {
    return this.root.querySelector(`[data-name="${name}"]`);
  }
  get width() {
    return this.rows[0].length;
  }
  get height() {
    return this.rows.length;
  }

  load(grid) {
    this.rows = grid.rows.slice();
    this.ends = { start: grid.start.slice(), goal: grid.goal.slice() };
    this.field("grid_width").value = this.width;
    this.field("grid_height").value = this.height;
    this.field("grid_connect").value = String(grid.connect || 8);
    this.syncFields();
    this.draw();
  }

  json() {
    return {
      rows: this.rows.slice(),
      start: this.ends.start.slice(),
      goal: this.ends.goal.slice(),
      connect: +this.field("grid_connect").value,
    };
  }

  resize(width, height) {
    const w = Math.max(2, Math.min(GRID_MAX, width || 2));
    const h = Math.max(2, Math.min(GRID_MAX, height || 2));
    this.rows = Array.from({ length: h }, (_, y) => ((this.rows[y] || "") + ".".repeat(w)).slice(0, w));
    ["start", "goal"].forEach((end) => {
      this.ends[end] = [Math.min(this.ends[end][0], w - 1), Math.min(this.ends[end][1], h - 1)];
    });
    this.changed();
  }

  endsFromFields() {
    ["start", "goal"].forEach((end) => {
      const x = Math.max(0, Math.min(this.width - 1, +this.field(`grid_${end}_x`).value || 0));
      const y = Math.max(0, Math.min(this.height - 1, +this.field(`grid_${end}_y`).value || 0));
      this.ends[end] = [x, y];
    });
    this.changed();
  }

  syncFields() {
    ["start", "goal"].forEach((end) => {
      this.field(`grid_${end}_x`).value = this.ends[end][0];
      this.field(`grid_${end}_y`).value = this.ends[end][1];
    });
  }

  cellAt(event) {
    const box = this.svg.getBoundingClientRect();
    const x = Math.floor(((event.clientX - box.left) / box.width) * this.width);
    const y = Math.floor(((event.clientY - box.top) / box.height) * this.height);
    return x >= 0 && y >= 0 && x < this.width && y < this.height ? [x, y] : null;
  }

  down(event) {
    const cell = this.cellAt(event);
    if (!cell) return;
    event.preventDefault();
    const end = ["start", "goal"].find((e) => this.ends[e][0] === cell[0] && this.ends[e][1] === cell[1]);
    if (end) this.dragging = end;
    else {
      this.painting = true;
      this.paint(cell);
    }
  }

  move(event) {
    if (!this.dragging && !this.painting) return;
    const cell = this.cellAt(event);
    if (!cell) return;
    if (this.dragging) {
      const [x, y] = this.ends[this.dragging];
      if ((x !== cell[0] || y !== cell[1]) && this.rows[cell[1]][cell[0]] !== "#") {
        this.ends[this.dragging] = cell;
        this.syncFields();
        this.changed();
      }
    } else this.paint(cell);
  }

  paint([x, y]) {
    const brush = this.field("grid_brush").value; // "#", "." or a weight 2-9
    if (brush === "#" && ["start", "goal"].some((e) => this.ends[e][0] === x && this.ends[e][1] === y)) return;
    if (this.rows[y][x] === brush) return;
    this.rows[y] = this.rows[y].slice(0, x) + brush + this.rows[y].slice(x + 1);
    this.changed();
  }

  draw() {
    drawGrid(this.svg, { rows: this.rows, start: this.ends.start, goal: this.ends.goal }, null);
  }

  changed() {
    this.syncFields();
    this.draw();
    this.onChange(this.json());
  }
}

// The map (the trace's scene, or the painter's grid): walls dark, weights shaded with their number, start and goal
// marked; ``marks`` (optional) colours cells: {path: [[x, y]…], frontier: [...], closed: [...], current: [x, y]}.
export function drawGrid(svg, scene, marks) {
  const height = scene.rows.length;
  const width = scene.rows[0].length;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.innerHTML = "";
  const key = ([x, y]) => `${x},${y}`;
  const sets = {};
  ["closed", "frontier", "path"].forEach((name) => {
    sets[name] = new Set(((marks && marks[name]) || []).map(key));
  });
  scene.rows.forEach((row, y) => {
    for (let x = 0; x < width; x++) {
      const c = row[x];
      const at = key([x, y]);
      let cls = c === "#" ? "cell wall" : c === "." ? "cell" : `cell weight w${c}`;
      if (sets.closed.has(at)) cls += " closed";
      if (sets.frontier.has(at)) cls += " frontier";
      if (sets.path.has(at)) cls += " on";
      svg.appendChild(svgEl("rect", { x, y, width: 1, height: 1, class: cls }));
      if (c !== "." && c !== "#" && width <= 32) {
        const label = svgEl("text", { x: x + 0.5, y: y + 0.7, class: "weight-label", "text-anchor": "middle" });
        label.textContent = c;
        svg.appendChild(label);
      }
    }
  });
  if (marks && marks.current)
    svg.appendChild(
      svgEl("rect", {
        x: marks.current[0] + 0.1,
        y: marks.current[1] + 0.1,
        width: 0.8,
        height: 0.8,
        class: "current",
      }),
    );
  [
    ["start", "S"],
    ["goal", "G"],
  ].forEach(([end, letter]) => {
    const [x, y] = scene[end];
    svg.appendChild(svgEl("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.42, class: `end ${end}` }));
    const label = svgEl("text", { x: x + 0.5, y: y + 0.68, class: "end-label", "text-anchor": "middle" });
    label.textContent = letter;
    svg.appendChild(label);
  });
}
