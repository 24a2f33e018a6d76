// Keys a presentation clicker or a keyboard sends: PageDown, → and Space step forward, PageUp and ← step back, Home
// and End jump. They are read at the document, so a checkbox or a button that was just clicked never keeps them: only
// typing (text fields, a select's own arrows), a focused slider, tree or graph that moves with the arrows, and Space
// on a focused button, link or checkbox (which it presses) keep their keys. A select gives up the focus once chosen
// (blurAfterChoosing), and a clicker's PageDown and PageUp step even while one has the focus (clicked, nothing chosen):
// they would otherwise change its choice.
const FORWARD = ["PageDown", "ArrowRight", " "],
  BACK = ["PageUp", "ArrowLeft"],
  PAGE = ["PageDown", "PageUp"];
const TYPING =
  "input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=range]), select, textarea, [contenteditable]";

export function keyAction(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const target = event.target instanceof Element ? event.target : null;
  const inside = (selector) => target && target.closest(selector);
  if (inside(TYPING) && !(PAGE.includes(event.key) && inside("select"))) return null;
  if (event.key.startsWith("Arrow") && inside("input[type=range], .tree-scroll, #step-graph")) return null; // they move those
  if (event.key === " " && inside("button, a, summary, input, [role=button]")) return null; // Space presses it
  if (FORWARD.includes(event.key)) return "forward";
  if (BACK.includes(event.key)) return "back";
  if (event.key === "Home") return "reset";
  if (event.key === "End") return "end";
  return null;
}

export function blurAfterChoosing(root) {
  root.addEventListener("change", (event) => {
    const el = event.target;
    if (el instanceof HTMLSelectElement) el.blur();
  });
}
