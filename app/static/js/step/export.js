// A picture of the stage for a lecturer's own slides: an SVG (the tree, a graph) saved as a standalone .svg file or
// drawn onto a canvas and saved as .png. The page's stylesheet does not travel with a file, so the properties that
// make the picture are copied from the computed style onto each element of the copy as SVG presentation attributes
// (a style attribute would break the page's Content-Security-Policy).
import { SVG } from "../common.js";

const PROPS = ["fill", "stroke", "stroke-width", "stroke-dasharray", "opacity", "font-size", "font-weight", "font-family",
  "text-anchor", "paint-order", "stroke-linejoin"];

function standalone(svg) {
  const copy = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll("*")], to = [copy, ...copy.querySelectorAll("*")];
  from.forEach((el, i) => {
    const style = window.getComputedStyle(el);
    PROPS.forEach((p) => to[i].setAttribute(p, style.getPropertyValue(p)));  // presentation attributes, not a style
    if (el.tagName === "circle") to[i].setAttribute("r", style.getPropertyValue("r").replace("px", "") || el.getAttribute("r"));
  });
  copy.querySelectorAll("title").forEach((t) => t.remove());
  copy.setAttribute("xmlns", SVG);
  const box = svg.viewBox.baseVal;
  copy.setAttribute("width", box.width);
  copy.setAttribute("height", box.height);
  const back = document.createElementNS(SVG, "rect");
  Object.entries({ width: "100%", height: "100%", fill: "#ffffff" }).forEach(([k, v]) => back.setAttribute(k, v));
  copy.prepend(back);
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
