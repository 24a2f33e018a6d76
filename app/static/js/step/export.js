// A picture for a lecturer's own slides: an SVG (the tree, a graph, a race's chart, a board drawn by boardSvg)
// saved as a standalone .svg file or drawn onto a canvas and saved as .png. The page's stylesheet does not travel with a file, so the properties that
// make the picture are copied from the computed style onto each element of the copy as SVG presentation attributes
// (a style attribute would break the page's Content-Security-Policy).
import { SVG, svgEl } from "../common.js";

const PROPS = [
  "fill",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "opacity",
  "font-size",
  "font-weight",
  "font-family",
  "text-anchor",
  "paint-order",
  "stroke-linejoin",
];

function standalone(svg) {
  const copy = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll("*")],
    to = [copy, ...copy.querySelectorAll("*")];
  from.forEach((el, i) => {
    const style = window.getComputedStyle(el);
    PROPS.forEach((p) => to[i].setAttribute(p, style.getPropertyValue(p))); // presentation attributes, not a style
    if (el.tagName === "circle")
      to[i].setAttribute("r", style.getPropertyValue("r").replace("px", "") || el.getAttribute("r"));
  });
  copy.querySelectorAll("title").forEach((t) => t.remove());
  copy.setAttribute("xmlns", SVG);
  const box = svg.viewBox.baseVal;
  copy.setAttribute("width", box.width);
  copy.setAttribute("height", box.height);
  copy.prepend(svgEl("rect", { width: "100%", height: "100%", fill: "#ffffff" }));
  return { text: new XMLSerializer().serializeToString(copy), width: box.width, height: box.height };
}

function save(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  window.setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

export function saveSvg(svg, name) {
  save(new Blob([standalone(svg).text], { type: "image/svg+xml" }), `${name}.svg`);
}

export function savePng(svg, name, scale = 2) {
  const { text, width, height } = standalone(svg);
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = width * scale;
    canvas.height = height * scale;
    const context = canvas.getContext("2d");
    context.scale(scale, scale);
    context.drawImage(image, 0, 0);
    canvas.toBlob((blob) => save(blob, `${name}.png`), "image/png");
  };
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
}

// A board the page draws as HTML cells (row by row, 0 the blank) as an SVG in the colours of `board`'s own tiles, for
// saveSvg and savePng: a picture file holds no HTML. It is put in the page, hidden, while it is saved, because the
// copy takes each element's computed style.
const CELL = 40,
  GAP = 3;

function boardSvg(cells, cols, board) {
  const rows = cells.length / cols;
  const tile = board.querySelector(":scope > :not(.blank)"),
    blank = board.querySelector(":scope > .blank");
  const paint = (el, fallback) => {
    // a tile painted with a gradient (the heuristic's groups) has no one colour
    const style = el && window.getComputedStyle(el);
    const flat = style && style.backgroundColor !== "rgba(0, 0, 0, 0)";
    return { backgroundColor: flat ? style.backgroundColor : fallback, color: style ? style.color : "#ffffff" };
  };
  const [full, empty] = [paint(tile, "#364fc7"), paint(blank, "#e9ecef")];
  const side = (n) => n * CELL + (n + 1) * GAP;
  const svg = svgEl("svg", {
    viewBox: `0 0 ${side(cols)} ${side(rows)}`,
    role: "img",
    "aria-label": `a board: ${cells.join(" ")}`,
  });
  cells.forEach((value, i) => {
    const x = GAP + (i % cols) * (CELL + GAP),
      y = GAP + Math.floor(i / cols) * (CELL + GAP);
    svg.appendChild(
      svgEl("rect", {
        x,
        y,
        width: CELL,
        height: CELL,
        rx: 4,
        fill: value ? full.backgroundColor : empty.backgroundColor,
      }),
    );
    if (!value) return;
    const label = svgEl("text", {
      x: x + CELL / 2,
      y: y + CELL / 2 + 7,
      fill: full.color,
      "font-size": 20,
      "font-weight": 600,
      "font-family": "sans-serif",
      "text-anchor": "middle",
    });
    label.textContent = String(value);
    svg.appendChild(label);
  });
  return svg;
}

export function saveBoard(cells, cols, board, name, format) {
  const holder = document.createElement("div");
  holder.hidden = true;
  holder.appendChild(boardSvg(cells, cols, board));
  document.body.appendChild(holder);
  (format === "png" ? savePng : saveSvg)(holder.firstChild, name);
  holder.remove();
}

// A button with data-export="svg" or "png" saves the SVG picture of the figure it sits in (the race's charts); the
// figure's data-export-name names the file.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-export]");
  const figure = button && button.closest("figure");
  const svg = figure && figure.querySelector("svg");
  if (!svg) return;
  (button.dataset.export === "png" ? savePng : saveSvg)(svg, figure.dataset.exportName || "chart");
});
