// Puzzle Playground: the small helpers every view module shares (the one JSON fetch, element builders, errors).
export const SVG = "http://www.w3.org/2000/svg";

export function svgEl(name, attrs) {
  const el = document.createElementNS(SVG, name);
  Object.entries(attrs || {}).forEach(([k, v]) => el.setAttribute(k, v));
  return el;
}

export function html(name, cls, text) {
  const el = document.createElement(name);
  if (cls) el.className = cls;
  if (text !== undefined) el.textContent = text;
  return el;
}

// GET without a body, POST JSON with one; a non-2xx answer throws the server's message (it always sends {error}).
export async function fetchJSON(url, body) {
  const response = await fetch(url, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `request failed (${response.status})`);
  return data;
}

export function showError(el, error) {
  if (!el) return;
  el.hidden = !error;
  el.textContent = error ? error.message || String(error) : "";
}

export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function onReady(fn) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
  else fn();
}
