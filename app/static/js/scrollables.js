// A region that scrolls sideways (a wide table or chart on a phone) must be reachable by keyboard, or its hidden
// columns are out of reach without a mouse: one that overflows becomes a focusable region named by its caption.
// Loaded by every page, because tables and charts arrive with most results.
import { onReady } from "./common.js";

const SCROLLERS = ".table-scroll, .chart, table.data";

function mark() {
  document.querySelectorAll(SCROLLERS).forEach((el) => {
    const scrolls = el.scrollWidth > el.clientWidth + 1;
    if (scrolls && !el.hasAttribute("tabindex")) {
      el.setAttribute("tabindex", "0");
      el.dataset.scrollable = "1";
      if (el.tagName === "TABLE") return; // a table keeps its own role and is named by its caption
      const caption = el.querySelector("caption, figcaption");
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", `${caption ? caption.textContent.trim() : "table"} (scrolls sideways)`);
    } else if (!scrolls && el.dataset.scrollable) {
      const added = el.tagName === "TABLE" ? ["tabindex"] : ["tabindex", "role", "aria-label"];
      [...added, "data-scrollable"].forEach((name) => el.removeAttribute(name));
    }
  });
}

onReady(() => {
  mark();
  document.addEventListener("htmx:afterSettle", mark);
  window.addEventListener("resize", mark);
});
