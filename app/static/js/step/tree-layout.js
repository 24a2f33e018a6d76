// Where the search tree's nodes go, without drawing them (tree.js draws): which nodes are shown and which fold into
// a count, and the column of each shown node. Columns are in units of one leaf's width; a row is one depth.

export const COLLAPSE_AT = 120;

// Which nodes to draw: every node the search has touched, except that past COLLAPSE_AT nodes (a projector cannot
// show more) a subtree with nothing left to do (no frontier node, not on the current path) folds into its root,
// and dropped or cut-off leaves fold into their parent's count, unless a click opened that node (opened, a Set).
// Returns the shown children of each shown node (kids) and the count folded into a node (folded).
export function visibleTree(replay, opened, selected) {
  const { nodes, status, children } = replay;
  const live = new Set();
  const mark = (id) => {
    for (let a = id; a !== null && a !== undefined && !live.has(a); a = nodes[a].parent) live.add(a);
  };
  if (replay.currentId !== null) mark(replay.currentId);
  if (replay.lastEvent && replay.lastEvent.node !== undefined) mark(replay.lastEvent.node);
  if (selected !== null) mark(selected);
  status.forEach((s, id) => {
    if (s === "frontier" || s === "goal") mark(id);
  });
  const fold = status.size > COLLAPSE_AT;
  const kids = new Map();
  const folded = new Map();
  const count = (id) => children[id].filter((c) => status.has(c)).reduce((s, c) => s + 1 + count(c), 0);
  const walk = (id) => {
    let visible = children[id].filter((c) => status.has(c));
    const open = opened.has(id);
    if (fold && !open && visible.length && !live.has(id)) {
      folded.set(id, count(id));
      kids.set(id, []);
      return;
    }
    if (fold && !open) {
      const dead = visible.filter(
        (c) =>
          !live.has(c) &&
          !children[c].some((g) => status.has(g)) &&
          (status.get(c) === "duplicate" || status.get(c) === "pruned"),
      );
      if (dead.length) {
        folded.set(id, dead.length);
        visible = visible.filter((c) => !dead.includes(c));
      }
    }
    kids.set(id, visible);
    visible.forEach(walk);
  };
  replay.roots.filter((r) => status.has(r)).forEach(walk);
  return { kids, folded };
}

// Leaves side by side, each parent over the middle of its children (as near as its label allows), each subtree as wide as its widest label row
// needs (columns(id): the columns a node's label takes, at least 1); roots side by side half a column apart.
// Returns each node's column (x: the left edge of its middle column), the columns used, and the deepest depth.
export function placeColumns(roots, nodes, kids, columns) {
  const x = new Map(),
    span = new Map();
  let next = 0,
    depth = 0;
  const measure = (id) => {
    depth = Math.max(depth, nodes[id].depth);
    const below = kids.get(id).reduce((sum, child) => sum + measure(child), 0);
    span.set(id, Math.max(columns(id), below));
    return span.get(id);
  };
  const place = (id, left) => {
    const c = kids.get(id);
    let at = left + (span.get(id) - c.reduce((sum, child) => sum + span.get(child), 0)) / 2;
    c.forEach((child) => {
      place(child, at);
      at += span.get(child);
    });
    const middle = c.length ? (x.get(c[0]) + x.get(c[c.length - 1])) / 2 : left + (span.get(id) - 1) / 2;
    // over children of unequal widths the middle is off the span's centre: a label wider than the children's row
    // would reach past the span into a neighbour's, so it moves in just enough to stay within its own
    const half = columns(id) / 2;
    x.set(id, Math.min(Math.max(middle, left + half - 0.5), left + span.get(id) - half - 0.5));
  };
  roots
    .filter((r) => kids.has(r))
    .forEach((r) => {
      measure(r);
      place(r, next);
      next += span.get(r) + 0.5;
    });
  return { x, columns: next, depth };
}
