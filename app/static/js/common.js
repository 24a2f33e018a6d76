// Puzzle Playground: the small helpers every view module shares (the one JSON fetch, element builders, styles set
// through the CSSOM, errors, the live region, copying a link). A helper two modules need lives here, once.
export const SVG = "http://www.w3.org/2000/svg";

export function svgEl(name, attrs) {
  const el = document.createElementNS(SVG, name);
  Object.entries(attrs || {}).forEach(([k, v]) => el.setAttribute(k, v));
  return el;
}

// The page's Content-Security-Policy refuses style attributes, and a module may not bring its own style sheet; a
// style set through the CSSOM is the page's own, so a module styles what it draws with this:
// styled(svgEl("rect", {...}), { fill: "var(--tile)" }) returns the element.
//
// How a picture is sized in its panel (step/panel.js): a domain module's picture(problem, chain, options) returns
// one element, an <svg> with a viewBox (its own units, any scale) or an HTML block. In the panel (.current-node)
// its width is fixed by the module: a class app.css sizes (svg.graph.small and svg.grid-map.small are 12rem, less
// when presenting) or, for a module without rules in app.css, styled(svg, { width: "14rem" }); its height follows
// from the viewBox's shape. Drawn with options.large (Enlarge, a dialog), the module sets no width: panel.js swaps
// the class small for large and sets --ratio (the viewBox's width over its height), and app.css fits the picture to
// the window at that ratio (.picture-large .enlarged svg). At either size panel.js sets --px, one screen pixel in
// the picture's units, on every resize, so a label's font-size of calc(14px * var(--px)) stays 14 px on screen;
// a label that then runs past the picture's side is moved back inside it.
export function styled(element, style) {
  Object.entries(style).forEach(([name, value]) => element.style.setProperty(name, value));
  return element;
}

export function html(name, cls, text) {
  const el = document.createElement(name);
  if (cls) el.className = cls;
  if (text !== undefined) el.textContent = text;
  return el;
}

// GET without a body, POST JSON with one; a non-2xx answer throws the server's message (it always sends {error}).
export async function fetchJSON(url, body) {
  const response = await fetch(
    url,
    body === undefined
      ? {}
      : {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        },
  );
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `request failed (${response.status})`);
  return data;
}

export function showError(el, error) {
  if (!el) return;
  el.hidden = !error;
  el.textContent = error ? error.message || String(error) : "";
}

// Said to screen readers through the page's one live region (#announcer in base.html): a region that is replaced,
// or a change that shows no text, is not reliably announced.
export function announce(text) {
  const region = document.getElementById("announcer");
  if (region && text) region.textContent = text;
}

// Copies a link for a person; where the clipboard is refused (no permission, an insecure origin) the link is shown
// in the status element instead, to copy by hand.
export async function copyLink(url, status) {
  try {
    await navigator.clipboard.writeText(url);
    status.textContent = "Link copied.";
  } catch {
    status.textContent = url;
  }
}

export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function onReady(fn) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
  else fn();
}
