// The tile heuristics drawn on a board: each tile's Manhattan distance in its corner, the tiles of linear-conflict
// pairs outlined, and on 4×4 each pattern-database group in its own colour, with a line that adds it all up.
// The numbers come from the engine (/api/heuristics), never recomputed here.
import { fetchJSON, html } from "./common.js";

const cache = new Map();

export function breakdown(size, goal, cells) {
  const key = `${size}|${goal}|${cells.join(",")}`;
  if (!cache.has(key)) cache.set(key, fetchJSON("/api/heuristics", { size, goal, tiles: cells.join(",") }));
  return cache.get(key);
}

// tileEl(tile) gives the element showing a tile; summaryEl gets the sentence.
export function decorate(cells, data, tileEl, summaryEl) {
  const conflicted = new Set(data.conflicts.flatMap((p) => [p.a, p.b]));
  const group = new Map();
  if (data.pdb) data.pdb.groups.forEach((g, i) => g.tiles.forEach((t) => group.set(t, i)));
  cells.forEach((tile, cell) => {
    const el = tile ? tileEl(tile) : null;
    if (!el) return;
    let badge = el.querySelector(".h-badge");
    if (!badge) {
      badge = html("span", "h-badge");
      badge.setAttribute("aria-hidden", "true");
      el.appendChild(badge);
    }
    // drawn by CSS from the attribute: text inside a tile button would change what the button reads as (axe's
    // label-content-name-mismatch), and the sum is said in words under the board
    badge.dataset.h = String(data.manhattan[cell]);
    el.classList.toggle("h-conflict", conflicted.has(tile));
    [0, 1, 2, 3].forEach((i) => el.classList.toggle(`h-group-${i}`, group.get(tile) === i));
  });
  if (!summaryEl) return;
  summaryEl.innerHTML = "";
  const lc = (data.linear_conflict_total - data.manhattan_total) / 2;
  summaryEl.appendChild(
    html(
      "p",
      "",
      `Manhattan distance ${data.manhattan_total} (the corner numbers added up)` +
        (data.conflicts.length
          ? `; linear conflict adds 2 × ${lc} = ${data.linear_conflict_total}`
          : "; no linear conflicts") +
        ".",
    ),
  );
  if (data.conflicts.length) {
    summaryEl.appendChild(
      html(
        "p",
        "muted",
        "Outlined pairs, each in its goal line but in the wrong order: " +
          data.conflicts.map((p) => `${p.a}–${p.b} (${p.line} ${p.index + 1})`).join(", ") +
          ".",
      ),
    );
  }
  if (data.pdb) {
    const p = data.pdb;
    const list = html("ul", "h-groups");
    p.groups.forEach((g, i) => {
      const mirrored = g.mirrored === null ? "" : `; ${g.mirrored} on the mirrored board`;
      list.appendChild(
        html("li", `h-group-${i}`, `group ${i + 1} (tiles ${g.tiles.join(" ")}): ${g.value} moves${mirrored}`),
      );
    });
    const sums =
      p.mirrored_total === null
        ? `the groups' values added up`
        : `the larger of the groups' values added up (${p.direct_total}) and the same on the mirrored board (${p.mirrored_total})`;
    summaryEl.appendChild(html("p", "", `Pattern database (${p.label}): ${p.value}, ${sums}.`));
    summaryEl.appendChild(list);
  }
}

export function undecorate(tileEls) {
  tileEls.forEach((el) => {
    el.querySelectorAll(".h-badge").forEach((b) => b.remove());
    el.classList.remove("h-conflict", "h-group-0", "h-group-1", "h-group-2", "h-group-3");
  });
}
